#pragma once
// One communication plan for items sent to other ranks, written once and used by the particle exchange
// and the site router (Cabana's CommunicationPlan and its countSendsAndCreateSteering). Given each
// item's destination rank, build() counts the items per destination, scans the counts into offsets and
// gives every item its place in one contiguous send buffer (the steering), so that any payload (sites,
// history indices, particles) lands in per-destination ranges with one scatter kernel; the counts and
// offsets come back to the host, where MPI wants them. For the bulk-synchronous pattern,
// exchange_counts() tells every rank what it will receive and alltoallv() moves one payload.
//
// Order within a destination's range: the items' own order (a stable counting sort,
// kernels/counting_sort.hpp), so a send buffer is a function of the items and their destinations.
// keff's results do not need it: the routed bank is ordered by (parent, progeny) on arrival, a routed
// source site carries its global history index, and a particle carries its whole history (random-number
// state and scores) to whatever slot it lands in; arrivals reach the inbox in whatever order MPI
// completes them anyway. But it makes the messages reproducible, and so testable, and on a CPU it is
// faster than the cursor bumped with atomics it replaced (no atomics, one copy between device and host
// instead of two: mpi/README.md has the measurements).
//
// The fission-bank exchange needs no plan: its items already lie in destination order (see
// bank_exchange.cpp).
#include "kernels/counting_sort.hpp"
#include "kernels/device.hpp"
#include "mpi/communicator.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace keff {

class CommunicationPlan {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;

  // Destinations are the ranks of `comm`, which must outlive the plan. `area` names the owner
  // ("keff::site_router"); the buffers are "<area>::plan_*".
  CommunicationPlan(const Communicator& comm, const std::string& area);

  // Sizes the buffers for plans of up to n items on exec, so that build() allocates nothing below that.
  void reserve(const Exec& exec, std::int64_t n);
  // Plans items [0, n), item i going to rank dest(i). The steering is ready for kernels on exec; the
  // counts are read back to the host (one fence). Buffers grow only.
  void build(const Exec& exec, Kokkos::View<const int*, Mem> dest, std::int64_t n);
  // Nothing to send anywhere.
  void clear();

  // out(steering(i)) = in(i) for the planned items, on exec.
  template <class In, class Out>
  void scatter(const Exec& exec, const In& in, const Out& out) const {
    scatter_by_position(exec, steering(), size_, in, out);
  }

  int size() const { return size_; }
  // [item]: its place in the send buffer.
  Kokkos::View<const int*, Mem> steering() const { return steering_; }
  // [rank]: the items for rank, and where in the send buffer they start (offsets has a last entry,
  // size()). Ints, as MPI's counts and displacements are.
  const std::vector<int>& counts() const { return counts_; }
  const std::vector<int>& offsets() const { return offsets_; }

  // MPI_Alltoall of the counts (collective, blocking). Afterwards receive_counts() and
  // receive_offsets() say what each rank sends here, placed in rank order.
  void exchange_counts();
  const std::vector<int>& receive_counts() const { return receive_counts_; }
  const std::vector<int>& receive_offsets() const { return receive_offsets_; }
  int received() const { return receive_offsets_.back(); }
  // MPI_Alltoallv of one payload after exchange_counts(): `send` holds size() items in plan order,
  // `recv` gets received() items. Collective, blocking.
  template <class T>
  void alltoallv(const T* send, T* recv, MPI_Datatype type) const {
    alltoallv_untyped(send, recv, type);
  }

 private:
  void alltoallv_untyped(const void* send, void* recv, MPI_Datatype type) const;

  const Communicator& comm_;
  std::string steering_label_, scratch_label_;
  int size_ = 0;
  Kokkos::View<int*, Mem> steering_;
  Kokkos::View<int*, Mem> block_counts_;  // the counting sort's scratch
  Kokkos::View<int*, Mem> offsets_device_;
  std::vector<int> counts_, offsets_;
  std::vector<int> receive_counts_, receive_offsets_;
};

}  // namespace keff
