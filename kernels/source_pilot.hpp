#pragma once
// The initial source's pilot: how many points of a sample uniform in the source box lie in fissionable
// material. It tells at once whether the box holds enough fuel to sample sites from by rejection,
// instead of after every site has failed its thousands of tries. The same sample over the geometry's
// bounding box tells whether CMFD's mesh holds all the fuel, before the first batch. Point i draws from the pilot stream of
// index i of batch 0, so the count does not depend on the thread or rank count.
#include "kernels/geometry.hpp"
#include "kernels/rng.hpp"
#include "kernels/particle.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// Of points `points` (global indices) of `n_points` drawn uniformly in [lower, upper): how many are in a
// cell filled with fissionable material, and how many of those lie outside [within_lower, within_upper)
// (0 when within_lower is null).
struct PilotCounts {
  std::int64_t fissionable = 0;
  std::int64_t fissionable_outside = 0;
};

template <class Exec, class Mem>
PilotCounts count_fissionable_points(const Exec& exec, const GeometryParams<Mem>& geometry,
                                     const Kokkos::View<const int*, Mem>& fissionable, const Real lower[3],
                                     const Real upper[3], std::uint64_t seed, IndexRange points, std::int64_t n_points,
                                     const Real* within_lower = nullptr, const Real* within_upper = nullptr) {
  const Vec3 lo{lower[0], lower[1], lower[2]};
  const Vec3 width{upper[0] - lower[0], upper[1] - lower[1], upper[2] - lower[2]};
  const bool bounded = within_lower != nullptr;
  const Vec3 in_lo = bounded ? Vec3{within_lower[0], within_lower[1], within_lower[2]} : Vec3{};
  const Vec3 in_hi = bounded ? Vec3{within_upper[0], within_upper[1], within_upper[2]} : Vec3{};
  const BatchCoordinates coords{seed, 0, n_points, points};
  PilotCounts counts;
  Kokkos::parallel_reduce(
      "keff::source::pilot", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, points.first, points.end()),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t& hits, std::int64_t& outside) {
        Lcg63 rng = history_rng(coords, RngStream::source_pilot, i);
        Vec3 r;
        for (int d = 0; d < 3; ++d) r[d] = lo[d] + width[d] * rng.next();
        const Vec3 u = sample_isotropic(rng);
        GeometryState geo;
        if (!(locate(geometry, r, u, geo) && geo.material >= 0 && fissionable(geo.material))) return;
        ++hits;
        if (!bounded) return;
        for (int d = 0; d < 3; ++d) {
          if (!(r[d] >= in_lo[d] && r[d] < in_hi[d])) {
            ++outside;
            return;
          }
        }
      },
      counts.fissionable, counts.fissionable_outside);
  return counts;
}

}  // namespace keff
