#pragma once
// The first batch's source: sites uniform in a box, kept only where the material is fissionable
// (rejection), isotropic, with a fission-spectrum energy or a chi-sampled group. Site i draws from the
// source stream of history coords.local.first + i of batch 0, so the source does not depend on the
// thread or rank count.
#include "kernels/geometry.hpp"
#include "kernels/rng.hpp"
#include "kernels/particle.hpp"
#include "kernels/vocabulary/site.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

template <class Exec, class Physics>
struct SampleInitialSource {
  using Mem = typename Exec::memory_space;
  GeometryParams<Mem> geometry;
  Physics physics;
  Kokkos::View<const int*, Mem> fissionable;  // per material
  Kokkos::View<Site*, Mem> sites;
  Kokkos::View<std::int64_t, Mem> failures;   // sites that found no fissionable point
  Real lower[3], upper[3];
  BatchCoordinates coords;                    // batch 0
  int max_tries = 100000;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t index = coords.local.first + i;
    Lcg63 rng = history_rng(coords, RngStream::source, index);
    Site s;
    s.parent = index;
    for (int t = 0; t < max_tries; ++t) {
      for (int d = 0; d < 3; ++d) s.r[d] = lower[d] + (upper[d] - lower[d]) * rng.next();
      s.u = sample_isotropic(rng);
      GeometryState geo;
      if (!locate(geometry, s.r, s.u, geo) || geo.material < 0 || !fissionable(geo.material)) continue;
      physics.initial_source(s, geo.material, rng);
      sites(i) = s;
      return;
    }
    sites(i) = s;
    Kokkos::atomic_add(&failures(), std::int64_t(1));
  }
};

template <class Exec, class Physics>
void sample_initial_source(const Exec& exec, const SampleInitialSource<Exec, Physics>& kernel) {
  Kokkos::parallel_for("keff::source::initial",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, kernel.coords.local.count),
                       kernel);
}

}  // namespace keff
