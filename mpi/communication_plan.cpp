#include "mpi/communication_plan.hpp"

#include "kernels/grow_only.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <limits>
#include <string>

namespace keff {

namespace {

int as_count(std::int64_t n, const char* what) {
  if (n > std::numeric_limits<int>::max()) {
    throw MpiError(std::string("communication plan: over 2^31 - 1 items ") + what);
  }
  return static_cast<int>(n);
}

}  // namespace

CommunicationPlan::CommunicationPlan(const Communicator& comm, const std::string& area)
    : comm_(comm), steering_label_(area + "::plan_steering"), scratch_label_(area + "::plan_block_counts") {
  const auto ranks = static_cast<std::size_t>(comm.size());
  offsets_device_ =
      Kokkos::View<int*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, area + "::plan_offsets"), ranks);
  counts_.assign(ranks, 0);
  offsets_.assign(ranks + 1, 0);
  receive_counts_.assign(ranks, 0);
  receive_offsets_.assign(ranks + 1, 0);
}

void CommunicationPlan::reserve(const Exec& exec, std::int64_t n) {
  reserve_grow_only(steering_, n, steering_label_);
  reserve_grow_only(block_counts_, static_cast<std::int64_t>(comm_.size()) * counting_sort_blocks(exec, n),
                    scratch_label_);
}

void CommunicationPlan::build(const Exec& exec, Kokkos::View<const int*, Mem> dest, std::int64_t n) {
  Kokkos::Profiling::ScopedRegion region("keff::communication_plan::build");
  size_ = as_count(n, "to send");
  const int ranks = comm_.size();
  if (size_ == 0) {
    clear();
    return;
  }
  reserve(exec, n);
  stable_counting_sort(exec, dest, size_, ranks, counting_sort_blocks(exec, n), block_counts_, offsets_device_,
                       steering_);
  Kokkos::deep_copy(exec, Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(offsets_.data(), ranks),
                    offsets_device_);
  exec.fence();
  offsets_[static_cast<std::size_t>(ranks)] = size_;
  for (std::size_t r = 0; r < counts_.size(); ++r) counts_[r] = offsets_[r + 1] - offsets_[r];
}

void CommunicationPlan::clear() {
  size_ = 0;
  std::fill(counts_.begin(), counts_.end(), 0);
  std::fill(offsets_.begin(), offsets_.end(), 0);
}

void CommunicationPlan::exchange_counts() {
  check_mpi(MPI_Alltoall(counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm_.get()), "MPI_Alltoall");
  std::int64_t total = 0;
  for (std::size_t r = 0; r < receive_counts_.size(); ++r) {
    receive_offsets_[r] = static_cast<int>(total);
    total += receive_counts_[r];
    as_count(total, "to receive");
  }
  receive_offsets_.back() = static_cast<int>(total);
}

void CommunicationPlan::alltoallv_untyped(const void* send, void* recv, MPI_Datatype type) const {
  check_mpi(MPI_Alltoallv(send, counts_.data(), offsets_.data(), type, recv, receive_counts_.data(),
                          receive_offsets_.data(), type, comm_.get()),
            "MPI_Alltoallv");
}

}  // namespace keff
