#include "mpi/particle_exchange.hpp"

#include "kernels/grow_only.hpp"
#include "kernels/transport/event_arrive.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

namespace keff {

namespace {

constexpr int particle_tag = 4343;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

ParticleExchange::ParticleExchange(const Communicator& comm, const DomainMesh& domains, int slots, Mode mode)
    : comm_(comm.get()),
      domains_(domains),
      mode_(mode),
      plan_(comm_, "keff::particle_exchange"),
      send_{StagedBuffer<ParticleMessage>("keff::particle_exchange::send"),
            StagedBuffer<ParticleMessage>("keff::particle_exchange::send")} {
  const int ranks = comm_.size();
  chunk_ = std::clamp(slots / 2, 64, 8192);
  // At most `slots` particles leave in one round: sized once, nothing here allocates during transport.
  reserve_grow_only(dest_, slots, "keff::particle_exchange::dest");
  plan_.reserve(exec_, slots);
  for (int k = 0; k < 2; ++k) {
    send_[k].reserve(slots);
    send_requests_[k].reserve(static_cast<std::size_t>(2 * ranks));
  }
  const std::int64_t recv_size = static_cast<std::int64_t>(ranks) * chunk_;
  if (mode_ == Mode::overlapped) reserve_grow_only(recv_, recv_size, "keff::particle_exchange::recv");
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
}

void ParticleExchange::reserve_inbox(std::int64_t n) {
  if (static_cast<std::int64_t>(inbox_.extent(0)) >= n) return;
  // Grown by the one rule, keeping the arrivals that wait; the spare, which arrive() swaps with the
  // inbox, is the same size.
  const std::int64_t size = grown_capacity(n);
  const auto allocate = [size](const std::string& label) {
    return decltype(inbox_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), static_cast<std::size_t>(size));
  };
  const auto grown = allocate("keff::particle_exchange::inbox");
  if (inbox_count_ > 0) {
    const auto kept = Kokkos::make_pair(std::int64_t(0), inbox_count_);
    Kokkos::deep_copy(exec_, Kokkos::subview(grown, kept), Kokkos::subview(inbox_, kept));
    exec_.fence();
  }
  inbox_ = grown;
  inbox_spare_ = allocate("keff::particle_exchange::inbox_spare");
}

void ParticleExchange::post_receive(int source) {
  check_mpi(MPI_Irecv(recv_.data() + static_cast<std::int64_t>(source) * chunk_, chunk_, message_type_.get(), source,
                      particle_tag, comm_.get(), &recv_requests_[static_cast<std::size_t>(source)]),
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

  // Where each departure goes, its place among the departures grouped by destination, then the messages.
  const int ranks = comm_.size();
  departure_destinations(exec, slots, Kokkos::View<const int*, Mem>(queue), n, domains_, dest_);
  plan_.build(exec, dest_, n);
  pack_departures(exec, slots, Kokkos::View<const int*, Mem>(queue), n, plan_.steering(), send_[k].device());
  send_[k].stage_out(exec, {0, n});
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
    const int first = plan_.offsets()[ur], count = plan_.counts()[ur];
    for (int offset = 0; offset < count; offset += chunk_) {
      requests.push_back(MPI_REQUEST_NULL);
      check_mpi(MPI_Isend(send_[k].data_for_mpi() + first + offset, std::min(chunk_, count - offset),
                          message_type_.get(), r, particle_tag, comm_.get(), &requests.back()),
                "MPI_Isend");
      ++counters_.messages_sent;
    }
  }
  counters_.mpi_seconds += waited + since(posting);
  current_ = 1 - k;
}

void ParticleExchange::append_to_inbox(std::int64_t first, int count) {
  reserve_inbox(inbox_count_ + count);
  Kokkos::deep_copy(exec_, Kokkos::subview(inbox_, Kokkos::make_pair(inbox_count_, inbox_count_ + count)),
                    Kokkos::subview(recv_, Kokkos::make_pair(first, first + count)));
  inbox_count_ += count;
  received_ += count;
  counters_.particles_received += count;
}

void ParticleExchange::drain(int source) {
  const auto us = static_cast<std::size_t>(source);
  append_to_inbox(static_cast<std::int64_t>(source) * chunk_, recv_ready_[us]);
  exec_.fence();  // the receive buffer is reposted next
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
      check_mpi(MPI_Get_count(&statuses_[static_cast<std::size_t>(j)], message_type_.get(), &count),
                "MPI_Get_count");
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
  plan_.exchange_counts();
  const int total = plan_.received();
  reserve_grow_only(recv_, total, "keff::particle_exchange::recv");
  plan_.alltoallv(send_[0].data_for_mpi(), recv_.data(), message_type_.get());
  counters_.mpi_seconds += since(start);
  const auto copying = Clock::now();
  append_to_inbox(0, total);
  exec_.fence();
  counters_.pack_seconds += since(copying);
  for (int r = 0; r < comm_.size(); ++r) {
    const auto ur = static_cast<std::size_t>(r);
    if (r != comm_.rank() && plan_.receive_counts()[ur] > 0) ++counters_.messages_received;
    if (r != comm_.rank() && plan_.counts()[ur] > 0) ++counters_.messages_sent;
  }
  plan_.clear();  // sent: a round without departures sends nothing
}

bool ParticleExchange::finished(std::int64_t local_work, bool stop) {
  Kokkos::Profiling::ScopedRegion region("keff::particle_exchange::termination");
  const std::int64_t before = inbox_count_;
  if (mode_ == Mode::blocking) {
    exchange_blocking();
    const auto start = Clock::now();
    std::int64_t left[] = {local_work + (inbox_count_ - before), stop ? 1 : 0};
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, left, 2, MPI_INT64_T, MPI_SUM, comm_.get()), "MPI_Allreduce");
    ++counters_.termination_checks;
    counters_.mpi_seconds += since(start);
    return left[0] == 0 || left[1] > 0;
  }
  progress();
  const std::int64_t work = local_work + (inbox_count_ - before);
  const auto start = Clock::now();
  bool done = false;
  if (termination_ == MPI_REQUEST_NULL) {
    snapshot_ = {sent_, received_, work, stop ? 1 : 0};
    check_mpi(MPI_Iallreduce(snapshot_.data(), reduced_.data(), 4, MPI_INT64_T, MPI_SUM, comm_.get(), &termination_),
              "MPI_Iallreduce");
    ++counters_.termination_checks;
  } else {
    int complete = 0;
    check_mpi(MPI_Test(&termination_, &complete, MPI_STATUS_IGNORE), "MPI_Test");
    if (complete && reduced_[3] > 0) {
      // Every rank sees this same result in its own test of this same reduction, and no rank posts
      // another: all leave the batch here, whatever is still in flight.
      done = true;
    } else if (complete && reduced_[0] == reduced_[1] && reduced_[2] == 0) {
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
