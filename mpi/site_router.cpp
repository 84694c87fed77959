#include "mpi/site_router.hpp"

#include "kernels/grow_only.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

namespace keff {

SiteRouter::SiteRouter(const Communicator& comm)
    : comm_(comm),
      plan_(comm, "keff::site_router"),
      send_sites_("keff::site_router::send_sites"),
      recv_sites_("keff::site_router::sites"),
      send_index_("keff::site_router::send_index"),
      recv_index_("keff::site_router::index") {}

std::int64_t SiteRouter::route(const Exec& exec, Kokkos::View<const Site*, Mem> sites,
                               Kokkos::View<const std::int64_t*, Mem> index, Kokkos::View<const int*, Mem> dest,
                               std::int64_t n, Kokkos::View<Site*, Mem>& out_sites,
                               Kokkos::View<std::int64_t*, Mem>& out_index) {
  Kokkos::Profiling::ScopedRegion region("keff::site_router::route");
  plan_.build(exec, dest, n);
  send_sites_.reserve(n);
  send_index_.reserve(n);
  plan_.scatter(exec, sites, send_sites_.device());
  plan_.scatter(exec, index, send_index_.device());
  send_sites_.stage_out(exec, {0, n});
  send_index_.stage_out(exec, {0, n});
  sites_sent_ += n - plan_.counts()[static_cast<std::size_t>(comm_.rank())];

  plan_.exchange_counts();  // while the device packs
  const std::int64_t total = plan_.received();
  reserve_grow_only(out_sites, total, "keff::site_router::sites");
  reserve_grow_only(out_index, total, "keff::site_router::index");
  recv_sites_.attach(out_sites);
  recv_index_.attach(out_index);
  exec.fence();  // the send buffers are complete before MPI reads them
  plan_.alltoallv(send_sites_.data_for_mpi(), recv_sites_.data_for_mpi(), site_type_.get());
  plan_.alltoallv(send_index_.data_for_mpi(), recv_index_.data_for_mpi(), MPI_INT64_T);
  recv_sites_.stage_in(exec, {0, total});
  recv_index_.stage_in(exec, {0, total});
  exec.fence();
  recv_sites_.release();  // the caller may grow its Views: no handle held here
  recv_index_.release();
  return total;
}

}  // namespace keff
