#pragma once
// Moves fission and source sites between ranks, each to the rank it names: grouped by destination with
// the communication plan, counts by MPI_Alltoall, then the sites and their global history indices by
// MPI_Alltoallv (staged through pinned host memory unless MPI reads device memory). Collective and
// blocking; used between batches by domain decomposition, which routes the bank to the ranks that own
// the parents' histories and the next source to the domains that contain its sites. Every buffer grows
// only.
#include "kernels/vocabulary/site.hpp"
#include "kernels/device.hpp"
#include "mpi/communication_plan.hpp"
#include "mpi/communicator.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/staged_buffer.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

class SiteRouter {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;

  explicit SiteRouter(const Communicator& comm);
  SiteRouter(const SiteRouter&) = delete;
  SiteRouter& operator=(const SiteRouter&) = delete;

  // Sends site i of sites[0, n) with index(i) to rank dest(i) and receives what the other ranks send
  // here into out_sites / out_index (grown if too small), in rank order and, from each rank, in the
  // order it held them; returns how many arrived.
  std::int64_t route(const Exec& exec, Kokkos::View<const Site*, Mem> sites, Kokkos::View<const std::int64_t*, Mem> index,
                     Kokkos::View<const int*, Mem> dest, std::int64_t n, Kokkos::View<Site*, Mem>& out_sites,
                     Kokkos::View<std::int64_t*, Mem>& out_index);

  std::int64_t sites_sent() const { return sites_sent_; }  // to other ranks, over the run

 private:
  const Communicator& comm_;
  MpiType<Site> site_type_;
  CommunicationPlan plan_;
  StagedBuffer<Site> send_sites_, recv_sites_;
  StagedBuffer<std::int64_t> send_index_, recv_index_;
  std::int64_t sites_sent_ = 0;
};

}  // namespace keff
