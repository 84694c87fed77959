#pragma once
// Continuous-energy cross-section lookup: grid search (plain, hash-accelerated or unionized), linear-
// linear interpolation of one nuclide, the macroscopic sum over a material and nuclide sampling.
//
// Every grid kind gives the same local index as nuclide_grid_index_bisect for every energy, so the
// interpolated cross sections are bit-for-bit identical whichever acceleration a run uses.
//
// Usage in a kernel:
//   auto cache = Kokkos::subview(ws.micro_xs, token, Kokkos::ALL);   // >= materials.max_nuclides
//   const MacroXs macro = macro_xs(nuclides, materials, m, E, cache);
//   const int k = sample_nuclide(cache, materials.offsets(m + 1) - materials.offsets(m), macro.total, xi);
//   const int n = materials.nuclide(materials.offsets(m) + k);
#include "kernels/thermal_table.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

namespace detail {

// Starts loading the cache line of `address` on a CPU; nothing on a GPU, where other warps hide the wait.
KOKKOS_INLINE_FUNCTION void prefetch(const void* address) {
  KOKKOS_IF_ON_HOST((__builtin_prefetch(address);))
  (void)address;
}

// The largest i in [lo, hi) with energy(base + i) <= E, given energy(base + lo) <= E < energy(base + hi);
// where E is below every point of (lo, hi) it gives lo, where it is at or above all of them hi - 1.
template <class Mem>
KOKKOS_INLINE_FUNCTION int bisect_grid(const NuclideParams<Mem>& p, int base, int lo, int hi, Real E) {
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (p.points(base + mid).energy <= E) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace detail

// Local index i of nuclide n's own grid with energy(i) <= E < energy(i + 1), by binary search; E at or
// below the first point gives 0, at or above the last point npts - 2.
template <class Mem>
KOKKOS_INLINE_FUNCTION int nuclide_grid_index_bisect(const NuclideParams<Mem>& p, int n, Real E) {
  const int base = p.grid_offsets(n);
  const int last = p.grid_offsets(n + 1) - base - 1;
  if (!(E > p.points(base).energy)) return 0;
  if (E >= p.points(base + last).energy) return last - 1;
  return detail::bisect_grid(p, base, 0, last, E);
}

// Done once per energy for all nuclides: the hash bin (hash grid), the union-grid index (unionized
// grid: the largest u with union_energy(u) <= E, clamped to [0, n_union - 1]) or 0 (nuclide grids).
template <class Mem>
KOKKOS_INLINE_FUNCTION int energy_search(const NuclideParams<Mem>& p, Real E) {
  if (p.grid_kind == static_cast<int>(EnergyGridKind::hash)) {
    const int n_bins = static_cast<int>(p.hash_index.extent(0)) - 1;
    const Real x = (Kokkos::log(E) - p.hash_log_emin) * p.hash_inv_dlog;
    if (!(x > 0)) return 0;  // also E <= 0 and NaN
    if (x >= static_cast<Real>(n_bins)) return n_bins - 1;
    return static_cast<int>(x);
  }
  if (p.grid_kind == static_cast<int>(EnergyGridKind::unionized)) {
    const int n_union = static_cast<int>(p.union_energy.extent(0));
    if (!(E > p.union_energy(0))) return 0;
    if (E >= p.union_energy(n_union - 1)) return n_union - 1;
    int lo = 0, hi = n_union - 1;  // union_energy(lo) < E < union_energy(hi)
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      // The compiler makes this loop branch-free (a conditional move), so each load waits for the one
      // before it; loading both possible next midpoints now overlaps them (perf/RESULTS.md, "Unionized").
      detail::prefetch(&p.union_energy(lo + (mid - lo) / 2));
      detail::prefetch(&p.union_energy(mid + (hi - mid) / 2));
      if (p.union_energy(mid) <= E) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
  return 0;
}

// The same index as nuclide_grid_index_bisect, using `search` = energy_search(p, E).
template <class Mem>
KOKKOS_INLINE_FUNCTION int nuclide_grid_index(const NuclideParams<Mem>& p, int n, Real E, int search) {
  const int base = p.grid_offsets(n);
  const int last = p.grid_offsets(n + 1) - base - 1;
  if (p.grid_kind == static_cast<int>(EnergyGridKind::unionized)) {
    const int i = p.union_index(search, n);
    return i < 0 ? 0 : (i > last - 1 ? last - 1 : i);
  }
  // No test for E outside the grid, which would read both ends of every nuclide's grid on every lookup:
  // below the first point every comparison of the bisection fails and it ends at 0; at or above the
  // last point every one holds and it ends at last - 1, as nuclide_grid_index_bisect returns.
  int lo = 0;
  int hi = last;
  if (p.grid_kind == static_cast<int>(EnergyGridKind::hash)) {
    // In a bin past the grid's last point both indexes are `last`: the interval is last - 1's.
    lo = p.hash_index(search, n);
    hi = p.hash_index(search + 1, n) + 1;
    if (lo > last - 1) lo = last - 1;
    if (hi > last) hi = last;
    // The bin was found with this device's log; where it rounds differently from the host's that built
    // the table, fall back to the whole grid on that side.
    if (!(p.points(base + lo).energy <= E)) lo = 0;
    if (!(E < p.points(base + hi).energy)) hi = last;
  }
  return detail::bisect_grid(p, base, lo, hi, E);
}

// Microscopic cross sections of nuclide n at E, interpolated linearly in energy; total is the sum of
// the partials; nu = nu0 + nu1 * E[MeV] for fissile nuclides, else 0. Outside the grid the end values
// are held. Forced inline: the lookup loops call it once per nuclide, and as the transport unit grew GCC
// stopped inlining it there (its unit-growth limit), which cost H-M large's event lookups 10-15 %.
template <class Mem>
KOKKOS_FORCEINLINE_FUNCTION MicroXs micro_xs(const NuclideParams<Mem>& p, int n, Real E, int search) {
  const int j = p.grid_offsets(n) + nuclide_grid_index(p, n, E, search);
  const GridPoint& lo = p.points(j);
  const GridPoint& hi = p.points(j + 1);
  Real f = (E - lo.energy) / (hi.energy - lo.energy);
  f = f < Real(0) ? Real(0) : (f > Real(1) ? Real(1) : f);
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
