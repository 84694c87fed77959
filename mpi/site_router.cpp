#include "mpi/site_router.hpp"

#include "kernels/grow_only.hpp"
#include "mpi/device_buffers.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace keff {

namespace {

using detail::mpi_reads_device;

int as_count(std::int64_t n) {
  if (n > std::numeric_limits<int>::max()) throw MpiError("site routing: over 2^31 - 1 sites between two ranks");
  return static_cast<int>(n);
}

}  // namespace

SiteRouter::SiteRouter(const Communicator& comm) : comm_(comm) {
  check_mpi(MPI_Type_contiguous(static_cast<int>(sizeof(Site)), MPI_BYTE, &site_type_), "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&site_type_), "MPI_Type_commit");
  const auto ranks = static_cast<std::size_t>(comm.size());
  cursor_ = Kokkos::View<int*, Mem>("keff::site_router::cursor", ranks);
  cursor_host_ = Kokkos::View<int*, Kokkos::HostSpace>("keff::site_router::cursor_host", ranks);
  send_count_.assign(ranks, 0);
  send_first_.assign(ranks, 0);
  recv_count_.assign(ranks, 0);
  recv_first_.assign(ranks, 0);
}

SiteRouter::~SiteRouter() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && site_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&site_type_);
}

std::int64_t SiteRouter::route(const Exec& exec, Kokkos::View<const Site*, Mem> sites,
                               Kokkos::View<const std::int64_t*, Mem> index, Kokkos::View<const int*, Mem> dest,
                               std::int64_t n, Kokkos::View<Site*, Mem>& out_sites,
                               Kokkos::View<std::int64_t*, Mem>& out_index) {
  Kokkos::Profiling::ScopedRegion region("keff::site_router::route");
  using Policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const int ranks = comm_.size();
  reserve_grow_only(send_sites_, n, "keff::site_router::send_sites");
  reserve_grow_only(send_index_, n, "keff::site_router::send_index");

  // Group by destination: counts, offsets (host), scatter.
  const auto cursor = cursor_;
  Kokkos::deep_copy(exec, cursor, 0);
  Kokkos::parallel_for("keff::site_router::count", Policy(exec, 0, n),
                       KOKKOS_LAMBDA(std::int64_t i) { Kokkos::atomic_add(&cursor(dest(i)), 1); });
  Kokkos::deep_copy(exec, cursor_host_, cursor);
  exec.fence();
  int first = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    send_count_[ur] = cursor_host_(ur);
    send_first_[ur] = first;
    cursor_host_(ur) = first;
    first += send_count_[ur];
    if (r != comm_.rank()) sites_sent_ += send_count_[ur];
  }
  Kokkos::deep_copy(exec, cursor, cursor_host_);
  const auto send_sites = send_sites_;
  const auto send_index = send_index_;
  Kokkos::parallel_for(
      "keff::site_router::pack", Policy(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
        const int slot = Kokkos::atomic_fetch_add(&cursor(dest(i)), 1);
        send_sites(slot) = sites(i);
        send_index(slot) = index(i);
      });

  check_mpi(MPI_Alltoall(send_count_.data(), 1, MPI_INT, recv_count_.data(), 1, MPI_INT, comm_.get()), "MPI_Alltoall");
  std::int64_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    recv_first_[static_cast<std::size_t>(r)] = as_count(total);
    total += recv_count_[static_cast<std::size_t>(r)];
  }
  as_count(total);
  reserve_grow_only(out_sites, total, "keff::site_router::sites");
  reserve_grow_only(out_index, total, "keff::site_router::index");

  const Site* out_s = send_sites_.data();
  const std::int64_t* out_i = send_index_.data();
  Site* in_s = out_sites.data();
  std::int64_t* in_i = out_index.data();
  if constexpr (!mpi_reads_device) {
    reserve_grow_only(send_sites_host_, n, "keff::site_router::send_sites_host");
    reserve_grow_only(send_index_host_, n, "keff::site_router::send_index_host");
    reserve_grow_only(recv_sites_host_, total, "keff::site_router::recv_sites_host");
    reserve_grow_only(recv_index_host_, total, "keff::site_router::recv_index_host");
    const auto range = Kokkos::make_pair(std::int64_t(0), n);
    Kokkos::deep_copy(exec, Kokkos::subview(send_sites_host_, range), Kokkos::subview(send_sites_, range));
    Kokkos::deep_copy(exec, Kokkos::subview(send_index_host_, range), Kokkos::subview(send_index_, range));
    out_s = send_sites_host_.data();
    out_i = send_index_host_.data();
    in_s = recv_sites_host_.data();
    in_i = recv_index_host_.data();
  }
  exec.fence();
  check_mpi(MPI_Alltoallv(out_s, send_count_.data(), send_first_.data(), site_type_, in_s, recv_count_.data(),
                          recv_first_.data(), site_type_, comm_.get()),
            "MPI_Alltoallv");
  check_mpi(MPI_Alltoallv(out_i, send_count_.data(), send_first_.data(), MPI_INT64_T, in_i, recv_count_.data(),
                          recv_first_.data(), MPI_INT64_T, comm_.get()),
            "MPI_Alltoallv");
  if constexpr (!mpi_reads_device) {
    const auto range = Kokkos::make_pair(std::int64_t(0), total);
    Kokkos::deep_copy(exec, Kokkos::subview(out_sites, range), Kokkos::subview(recv_sites_host_, range));
    Kokkos::deep_copy(exec, Kokkos::subview(out_index, range), Kokkos::subview(recv_index_host_, range));
    exec.fence();
  }
  return total;
}

}  // namespace keff
