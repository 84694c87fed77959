#pragma once
// Sites read from outside the run (a statepoint's source bank) that no fission in this problem can have
// made: not located in a cell filled with fissionable material. The host checks of io/output/restart_check.hpp
// see only numbers; this one sees the geometry.
#include "kernels/geometry.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

template <class Exec, class Mem>
std::int64_t count_sites_outside_fissionable(const Exec& exec, const GeometryParams<Mem>& geometry,
                                             const Kokkos::View<const int*, Mem>& fissionable,
                                             const Kokkos::View<const Site*, Mem>& sites) {
  std::int64_t outside = 0;
  Kokkos::parallel_reduce(
      "keff::restart::check_sites", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, sites.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t& count) {
        GeometryState geo;
        const Site s = sites(i);
        if (!locate(geometry, s.r, s.u, geo) || geo.material < 0 || !fissionable(geo.material)) ++count;
      },
      outside);
  return outside;
}

}  // namespace keff
