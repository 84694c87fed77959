#include "mpi/particle_exchange.hpp"

#include "kernels/event_arrive.hpp"
#include "kernels/grow_only.hpp"
#include "mpi/device_buffers.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

namespace keff {

namespace {

constexpr int particle_tag = 4343;
using detail::mpi_reads_device;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

template <class View>
void allocate(View& v, const char* what, std::int64_t n) {
  v = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("keff::particle_exchange::") + what),
           static_cast<std::size_t>(n));
}

}  // namespace

ParticleExchange::ParticleExchange(const Communicator& comm, const DomainMesh& domains, int slots, Mode mode)
    : comm_(comm.get()), domains_(domains), mode_(mode) {
  const int ranks = comm_.size();
  chunk_ = std::clamp(slots / 2, 64, 8192);
  check_mpi(MPI_Type_contiguous(static_cast<int>(sizeof(ParticleMessage)), MPI_BYTE, &message_type_),
            "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&message_type_), "MPI_Type_commit");
  for (int k = 0; k < 2; ++k) {
    allocate(send_[k], "send", slots);
    if constexpr (!mpi_reads_device) allocate(send_host_[k], "send_host", slots);
    send_requests_[k].reserve(static_cast<std::size_t>(2 * ranks));
  }
  dest_counts_ = Kokkos::View<int*, Mem>("keff::particle_exchange::dest_counts", static_cast<std::size_t>(ranks));
  dest_counts_host_ = Kokkos::View<int*, Kokkos::HostSpace>("keff::particle_exchange::dest_counts_host",
                                                            static_cast<std::size_t>(ranks));
  dest_first_.assign(static_cast<std::size_t>(ranks), 0);
  dest_count_.assign(static_cast<std::size_t>(ranks), 0);
  const std::int64_t recv_size = static_cast<std::int64_t>(ranks) * chunk_;
  if (mode_ == Mode::overlapped) {
    if constexpr (mpi_reads_device) {
      allocate(recv_, "recv", recv_size);
    } else {
      allocate(recv_host_, "recv_host", recv_size);
    }
  }
  reserve_inbox(slots + recv_size);
  recv_requests_.assign(static_cast<std::size_t>(ranks), MPI_REQUEST_NULL);
  recv_ready_.assign(static_cast<std::size_t>(ranks), -1);
  done_indices_.resize(static_cast<std::size_t>(ranks));
  statuses_.resize(static_cast<std::size_t>(ranks));
  if (mode_ == Mode::overlapped) {
    for (int r = 0; r < ranks; ++r) {
      if (r != comm_.rank()) post_receive(r);
    }
  }
}

ParticleExchange::~ParticleExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& req : recv_requests_) {
    if (req == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  for (auto& requests : send_requests_) {
    for (auto& req : requests) {
      if (req != MPI_REQUEST_NULL) MPI_Request_free(&req);
    }
  }
  if (message_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&message_type_);
}

void ParticleExchange::reserve_inbox(std::int64_t n) {
  if (static_cast<std::int64_t>(inbox_.extent(0)) >= n) return;
  const std::int64_t size = grown_capacity(n);
  decltype(inbox_) grown;
  allocate(grown, "inbox", size);
  if (inbox_count_ > 0) {
    const auto kept = Kokkos::make_pair(std::int64_t(0), inbox_count_);
    Kokkos::deep_copy(exec_, Kokkos::subview(grown, kept), Kokkos::subview(inbox_, kept));
    exec_.fence();
  }
  inbox_ = grown;
  allocate(inbox_spare_, "inbox_spare", size);
}

void ParticleExchange::post_receive(int source) {
  ParticleMessage* base = mpi_reads_device ? recv_.data() : recv_host_.data();
  check_mpi(MPI_Irecv(base + static_cast<std::int64_t>(source) * chunk_, chunk_, message_type_, source, particle_tag,
                      comm_.get(), &recv_requests_[static_cast<std::size_t>(source)]),
            "MPI_Irecv");
}

void ParticleExchange::wait_sends(int buffer) {
  auto& requests = send_requests_[static_cast<std::size_t>(buffer)];
  if (requests.empty()) return;
  check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests.clear();
}

void ParticleExchange::leave(const Exec& exec, const ParticleSlots<Exec>& slots, Kokkos::View<int*, Mem> queue, int n) {
  Kokkos::Profiling::ScopedRegion region("keff::particle_exchange::leave");
  exec_ = exec;
  if (n == 0) return;
  const auto start = Clock::now();
  const int k = current_;
  if (mode_ == Mode::overlapped) wait_sends(k);  // the buffer's last sends, two rounds ago
  const double waited = since(start);

  // Departures per destination, their offsets, then the messages grouped by destination.
  const int ranks = comm_.size();
  Kokkos::deep_copy(exec, dest_counts_, 0);
  count_departures(exec, slots, Kokkos::View<const int*, Mem>(queue), n, domains_, dest_counts_);
  Kokkos::deep_copy(exec, dest_counts_host_, dest_counts_);
  exec.fence();
  int first = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    dest_count_[ur] = dest_counts_host_(ur);
    dest_first_[ur] = first;
    dest_counts_host_(ur) = first;
    first += dest_count_[ur];
  }
  Kokkos::deep_copy(exec, dest_counts_, dest_counts_host_);
  pack_departures(exec, slots, Kokkos::View<const int*, Mem>(queue), n, domains_, dest_counts_, send_[k]);
  const ParticleMessage* base = send_[k].data();
  if constexpr (!mpi_reads_device) {
    const auto range = Kokkos::make_pair(0, n);
    Kokkos::deep_copy(exec, Kokkos::subview(send_host_[k], range), Kokkos::subview(send_[k], range));
    base = send_host_[k].data();
  }
  exec.fence();
  counters_.pack_seconds += since(start) - waited;
  sent_ += n;
  counters_.particles_sent += n;
  counters_.bytes_sent += static_cast<std::int64_t>(n) * static_cast<std::int64_t>(sizeof(ParticleMessage));
  if (mode_ == Mode::blocking) {
    counters_.mpi_seconds += waited;
    return;  // sent in the round's collective (finished())
  }
  const auto posting = Clock::now();
  auto& requests = send_requests_[static_cast<std::size_t>(k)];
  for (int r = 0; r < ranks; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    for (int offset = 0; offset < dest_count_[ur]; offset += chunk_) {
      const int count = std::min(chunk_, dest_count_[ur] - offset);
      requests.push_back(MPI_REQUEST_NULL);
      check_mpi(MPI_Isend(base + dest_first_[ur] + offset, count, message_type_, r, particle_tag, comm_.get(),
                          &requests.back()),
                "MPI_Isend");
      ++counters_.messages_sent;
    }
  }
  counters_.mpi_seconds += waited + since(posting);
  current_ = 1 - k;
}

void ParticleExchange::drain(int source) {
  const auto us = static_cast<std::size_t>(source);
  const int count = recv_ready_[us];
  reserve_inbox(inbox_count_ + count);
  const auto from = Kokkos::make_pair(static_cast<std::int64_t>(source) * chunk_,
                                      static_cast<std::int64_t>(source) * chunk_ + count);
  const auto to = Kokkos::make_pair(inbox_count_, inbox_count_ + count);
  if constexpr (mpi_reads_device) {
    Kokkos::deep_copy(exec_, Kokkos::subview(inbox_, to), Kokkos::subview(recv_, from));
  } else {
    Kokkos::deep_copy(exec_, Kokkos::subview(inbox_, to), Kokkos::subview(recv_host_, from));
  }
  exec_.fence();  // the receive buffer is reposted next
  inbox_count_ += count;
  received_ += count;
  counters_.particles_received += count;
  recv_ready_[us] = -1;
  post_receive(source);
}

void ParticleExchange::progress() {
  if (mode_ != Mode::overlapped) return;
  const auto start = Clock::now();
  int completed = 0;
  check_mpi(MPI_Testsome(static_cast<int>(recv_requests_.size()), recv_requests_.data(), &completed,
                         done_indices_.data(), statuses_.data()),
            "MPI_Testsome");
  if (completed != MPI_UNDEFINED) {
    for (int j = 0; j < completed; ++j) {
      int count = 0;
      check_mpi(MPI_Get_count(&statuses_[static_cast<std::size_t>(j)], message_type_, &count), "MPI_Get_count");
      recv_ready_[static_cast<std::size_t>(done_indices_[static_cast<std::size_t>(j)])] = count;
      ++counters_.messages_received;
    }
  }
  counters_.mpi_seconds += since(start);
  const auto unpacking = Clock::now();
  for (int r = 0; r < comm_.size(); ++r) {
    if (recv_ready_[static_cast<std::size_t>(r)] >= 0) drain(r);
  }
  counters_.pack_seconds += since(unpacking);
}

int ParticleExchange::arrive(const Exec& exec, const ParticleSlots<Exec>& slots, Kokkos::View<int*, Mem> empty,
                             int n_empty) {
  exec_ = exec;
  progress();
  const int n = static_cast<int>(std::min<std::int64_t>(inbox_count_, n_empty));
  if (n == 0) return 0;
  Kokkos::Profiling::ScopedRegion region("keff::particle_exchange::arrive");
  const auto start = Clock::now();
  unpack_arrivals(exec, slots, Kokkos::View<const int*, Mem>(empty), n, Kokkos::View<const ParticleMessage*, Mem>(inbox_));
  const std::int64_t rest = inbox_count_ - n;
  if (rest > 0) {  // the arrivals that found no slot move to the front
    Kokkos::deep_copy(exec, Kokkos::subview(inbox_spare_, Kokkos::make_pair(std::int64_t(0), rest)),
                      Kokkos::subview(inbox_, Kokkos::make_pair(static_cast<std::int64_t>(n), inbox_count_)));
    std::swap(inbox_, inbox_spare_);
  }
  inbox_count_ = rest;
  exec.fence();
  counters_.pack_seconds += since(start);
  return n;
}

void ParticleExchange::exchange_blocking() {
  const auto start = Clock::now();
  const int ranks = comm_.size();
  std::vector<int> in_count(static_cast<std::size_t>(ranks)), in_first(static_cast<std::size_t>(ranks));
  check_mpi(MPI_Alltoall(dest_count_.data(), 1, MPI_INT, in_count.data(), 1, MPI_INT, comm_.get()), "MPI_Alltoall");
  int total = 0;
  for (int r = 0; r < ranks; ++r) {
    in_first[static_cast<std::size_t>(r)] = total;
    total += in_count[static_cast<std::size_t>(r)];
  }
  reserve_inbox(inbox_count_ + total);
  const ParticleMessage* out = mpi_reads_device ? send_[0].data() : send_host_[0].data();
  ParticleMessage* in = nullptr;
  if constexpr (mpi_reads_device) {
    in = inbox_.data() + inbox_count_;
  } else {
    if (static_cast<int>(recv_host_.extent(0)) < total) allocate(recv_host_, "recv_host", total);
    in = recv_host_.data();
  }
  check_mpi(MPI_Alltoallv(out, dest_count_.data(), dest_first_.data(), message_type_, in, in_count.data(),
                          in_first.data(), message_type_, comm_.get()),
            "MPI_Alltoallv");
  counters_.mpi_seconds += since(start);
  if constexpr (!mpi_reads_device) {
    const auto copying = Clock::now();
    Kokkos::deep_copy(exec_, Kokkos::subview(inbox_, Kokkos::make_pair(inbox_count_, inbox_count_ + total)),
                      Kokkos::subview(recv_host_, Kokkos::make_pair(0, total)));
    exec_.fence();
    counters_.pack_seconds += since(copying);
  }
  for (int r = 0; r < ranks; ++r) {
    if (r != comm_.rank() && in_count[static_cast<std::size_t>(r)] > 0) ++counters_.messages_received;
    if (r != comm_.rank() && dest_count_[static_cast<std::size_t>(r)] > 0) ++counters_.messages_sent;
  }
  inbox_count_ += total;
  received_ += total;
  counters_.particles_received += total;
  std::fill(dest_count_.begin(), dest_count_.end(), 0);
}

bool ParticleExchange::finished(std::int64_t local_work) {
  Kokkos::Profiling::ScopedRegion region("keff::particle_exchange::termination");
  const std::int64_t before = inbox_count_;
  if (mode_ == Mode::blocking) {
    exchange_blocking();
    const auto start = Clock::now();
    std::int64_t work = local_work + (inbox_count_ - before);
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, &work, 1, MPI_INT64_T, MPI_SUM, comm_.get()), "MPI_Allreduce");
    ++counters_.termination_checks;
    counters_.mpi_seconds += since(start);
    return work == 0;
  }
  progress();
  const std::int64_t work = local_work + (inbox_count_ - before);
  const auto start = Clock::now();
  bool done = false;
  if (termination_ == MPI_REQUEST_NULL) {
    snapshot_ = {sent_, received_, work};
    check_mpi(MPI_Iallreduce(snapshot_.data(), reduced_.data(), 3, MPI_INT64_T, MPI_SUM, comm_.get(), &termination_),
              "MPI_Iallreduce");
    ++counters_.termination_checks;
  } else {
    int complete = 0;
    check_mpi(MPI_Test(&termination_, &complete, MPI_STATUS_IGNORE), "MPI_Test");
    if (complete && reduced_[0] == reduced_[1] && reduced_[2] == 0) {
      // Every rank saw this result and now stands in the confirmation: counts taken there cannot miss
      // a particle in flight.
      std::array<std::int64_t, 3> now{sent_, received_, work}, total{};
      check_mpi(MPI_Allreduce(now.data(), total.data(), 3, MPI_INT64_T, MPI_SUM, comm_.get()), "MPI_Allreduce");
      ++counters_.confirmations;
      done = total[0] == total[1] && total[2] == 0;
    }
  }
  counters_.mpi_seconds += since(start);
  return done;
}

void ParticleExchange::idle() {
  if (mode_ == Mode::blocking) return;  // the round's collective in finished() is the wait
  const auto start = Clock::now();
  const std::int64_t before = inbox_count_;
  progress();
  if (inbox_count_ == before) std::this_thread::sleep_for(std::chrono::microseconds(50));
  counters_.idle_seconds += since(start);
}

}  // namespace keff
