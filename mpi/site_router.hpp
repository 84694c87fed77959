#pragma once
// Moves fission and source sites between ranks, each to the rank it names: counts by MPI_Alltoall, then
// the sites and their global history indices by MPI_Alltoallv, staged through pinned host buffers unless
// MPI reads device memory. Collective and blocking; used between batches by domain decomposition, which
// routes the bank to the ranks that own the parents' histories and the next source to the domains that
// contain its sites. Every buffer grows only.
#include "kernels/vocabulary/site.hpp"
#include "kernels/device.hpp"
#include "mpi/communicator.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace keff {

class SiteRouter {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;

  explicit SiteRouter(const Communicator& comm);

  // Sends site i of sites[0, n) with index(i) to rank dest(i) and receives what the other ranks send
  // here into out_sites / out_index (grown if too small), in rank order; returns how many arrived.
  std::int64_t route(const Exec& exec, Kokkos::View<const Site*, Mem> sites, Kokkos::View<const std::int64_t*, Mem> index,
                     Kokkos::View<const int*, Mem> dest, std::int64_t n, Kokkos::View<Site*, Mem>& out_sites,
                     Kokkos::View<std::int64_t*, Mem>& out_index);

  std::int64_t sites_sent() const { return sites_sent_; }  // to other ranks, over the run

 private:
  const Communicator& comm_;
  MPI_Datatype site_type_ = MPI_DATATYPE_NULL;
  Kokkos::View<int*, Mem> cursor_;
  Kokkos::View<int*, Kokkos::HostSpace> cursor_host_;
  Kokkos::View<Site*, Mem> send_sites_;
  Kokkos::View<std::int64_t*, Mem> send_index_;
  Kokkos::View<Site*, Kokkos::SharedHostPinnedSpace> send_sites_host_, recv_sites_host_;
  Kokkos::View<std::int64_t*, Kokkos::SharedHostPinnedSpace> send_index_host_, recv_index_host_;
  std::vector<int> send_count_, send_first_, recv_count_, recv_first_;
  std::int64_t sites_sent_ = 0;

 public:
  ~SiteRouter();
  SiteRouter(const SiteRouter&) = delete;
  SiteRouter& operator=(const SiteRouter&) = delete;
};

}  // namespace keff
