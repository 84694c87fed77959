#pragma once
// Continuous-energy cross-section lookup on the synthetic library: linear-linear interpolation of one
// nuclide where the grid search (kernels/neutron/data/nuclide_grid.hpp: plain, hash-accelerated or
// unionized) puts E, the macroscopic sum over a material and nuclide sampling.
//
// Usage in a kernel:
//   auto cache = Kokkos::subview(ws.micro_xs, token, Kokkos::ALL);   // >= materials.max_nuclides
//   const MacroXs macro = macro_xs(nuclides, materials, m, E, cache);
//   const int k = sample_nuclide(cache, materials.offsets(m + 1) - materials.offsets(m), macro.total, xi);
//   const int n = materials.nuclide(materials.offsets(m) + k);
#include "kernels/thermal_table.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

// Microscopic cross sections of nuclide n at E, interpolated linearly in energy; total is the sum of
// the partials; nu = nu0 + nu1 * E[MeV] for fissile nuclides, else 0. Outside the grid the end values
// are held. Forced inline: the lookup loops call it once per nuclide, and as the transport unit grew GCC
// stopped inlining it there (its unit-growth limit), which cost H-M large's event lookups 10-15 %.
template <class Mem>
KOKKOS_FORCEINLINE_FUNCTION MicroXs micro_xs(const NuclideParams<Mem>& p, int n, Real E, int search) {
  const GridInterval at = grid_interval(p, n, E, search);
  const GridPoint& lo = p.points(at.point);
  const GridPoint& hi = p.points(at.point + 1);
  const Real f = at.fraction;
  MicroXs xs;
  xs.elastic = lo.elastic + f * (hi.elastic - lo.elastic);
  xs.capture = lo.capture + f * (hi.capture - lo.capture);
  xs.fission = lo.fission + f * (hi.fission - lo.fission);
  xs.total = xs.elastic + xs.capture + xs.fission;
  xs.nu = p.fissile(n) ? p.nu0(n) + p.nu1(n) * (E * Real(1.0e-6)) : Real(0);
  return xs;
}

// micro_xs of nuclide n in `material` at E: below the NCrystal cutoff of an NCrystal material, the
// elastic scattering of each of its nuclides is the material's bound-atom scattering per atom
// (kernels/thermal_table.hpp), so that the material scatters N sigma_NCrystal(E); elsewhere the
// nuclide's own, which is broadened for the material's free-gas targets: where a target moves, the grid
// holds the 0 K elastic cross section times free_gas_factor (kernels/free_gas_rate.hpp), the collision
// rate the free-gas scatter assumes, so that the thermal flux is the Maxwellian (detailed balance).
// src/params/broaden_free_gas.cpp broadens it once, per material temperature; absorption stays as
// tabulated (a 1/v cross section keeps its rate under the target's motion).
template <class Mem>
KOKKOS_INLINE_FUNCTION MicroXs bound_micro_xs(const NuclideParams<Mem>& p, int n, Real E, int search, Real bound) {
  MicroXs xs = micro_xs(p, n, E, search);
  xs.elastic = bound;
  xs.total = xs.elastic + xs.capture + xs.fission;
  return xs;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION MicroXs micro_xs(const NuclideParams<Mem>& p, const MaterialParams<Mem>& materials,
                                        int material, int n, Real E, int search) {
  const int t = materials.thermal.table_of(material, E);
  if (t < 0) return micro_xs(p, n, E, search);
  return bound_micro_xs(p, n, E, search, thermal_xs(materials.thermal, t, E));
}

// Macroscopic cross sections (cm^-1) of `material` at E; material < 0 (void) gives zeros. Writes
// cache(k) = density_k * sigma_t_k for the k-th nuclide of the material (cache: a 1-D View of at least
// materials.max_nuclides entries, e.g. a row of a per-thread workspace), for sample_nuclide.
template <class Mem, class Cache>
KOKKOS_INLINE_FUNCTION MacroXs macro_xs(const NuclideParams<Mem>& p, const MaterialParams<Mem>& materials,
                                        int material, Real E, const Cache& cache) {
  MacroXs macro;
  if (material < 0) return macro;
  const int begin = materials.offsets(material);
  const int end = materials.offsets(material + 1);
  const int search = energy_search(p, E);
  // The material's bound-atom scattering, asked once for all its nuclides.
  const int t = materials.thermal.table_of(material, E);
  const Real bound = t < 0 ? Real(0) : thermal_xs(materials.thermal, t, E);
  for (int k = begin; k < end; ++k) {
    const Real density = materials.density(k);
    const int n = materials.nuclide(k);
    const MicroXs micro = t < 0 ? micro_xs(p, n, E, search) : bound_micro_xs(p, n, E, search, bound);
    const Real total = density * micro.total;
    macro.total += total;
    macro.absorption += density * (micro.capture + micro.fission);
    macro.fission += density * micro.fission;
    macro.nu_fission += density * micro.nu * micro.fission;
    cache(k - begin) = total;
  }
  return macro;
}

// The k in [0, count) whose cumulative sum of cache(0..k) first exceeds xi * total (xi in [0, 1)):
// nuclide k of the material, chosen with probability cache(k) / total. Entries of 0 are never chosen
// unless round-off leaves the target past the end, which gives count - 1.
template <class Cache>
KOKKOS_INLINE_FUNCTION int sample_nuclide(const Cache& cache, int count, Real total, Real xi) {
  const Real target = xi * total;
  Real sum = 0;
  for (int k = 0; k < count; ++k) {
    sum += cache(k);
    if (target < sum) return k;
  }
  return count - 1;
}

// The nuclide of `material` a collision is with, drawn with xi from the cache the particle's lookup filled.
template <class Mem, class Cache>
KOKKOS_INLINE_FUNCTION int collision_nuclide(const MaterialParams<Mem>& materials, int material, const Cache& cache,
                                             Real total, Real xi) {
  const int first = materials.offsets(material);
  return materials.nuclide(first + sample_nuclide(cache, materials.offsets(material + 1) - first, total, xi));
}

}  // namespace keff
