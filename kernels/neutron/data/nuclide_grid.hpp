#pragma once
// Nuclides' energy grids, the one cross-section layout of the synthetic library and of evaluated ACE
// tables (nuclide_data.hpp's NuclideParams holds it, with the columns evaluated tables add beside these
// points). The search that finds E's interval on a nuclide's grid (plain bisection, a logarithmic hash
// grid or a unionized grid, as settings.energy_grid says) and E's place in it, which every lookup
// starts from.
//
// Every grid kind gives the same interval as nuclide_grid_index_bisect for every energy, so the
// interpolated cross sections are bit-for-bit identical whichever acceleration a run uses.
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// One point of a nuclide's energy grid. A lookup interpolates between points i and i + 1, reading
// every channel of both: kept together, they are one or two cache lines (one or two memory
// transactions per GPU thread) where a column per channel costs four. The total is not stored: it is
// the sum of the partials. `capture` is every disappearance without fission ((n,gamma), (n,p), ...).
struct GridPoint {
  Real energy;   // eV
  Real elastic;  // barns
  Real capture;
  Real fission;
};
static_assert(sizeof(GridPoint) == 4 * sizeof(Real), "GridPoint must pack into 4 Reals");

// Each nuclide's grid is a slice [grid_offsets(n), grid_offsets(n+1)) of the concatenated points,
// energies ascending (evaluated grids repeat an energy at a discontinuity). A grid may stop short of
// energy_min_ev or energy_max_ev (XSBench's and evaluated data do); a lookup beyond its ends takes the
// value at the nearer end.
template <class Mem>
struct NuclideGrid {
  Kokkos::View<const int*, Mem> grid_offsets;   // [n_nuclides + 1]
  Kokkos::View<const GridPoint*, Mem> points;   // [total points]

  int grid_kind = static_cast<int>(EnergyGridKind::hash);

  // Logarithmic hash grid: bin b covers [emin * exp(b / inv_dlog), ...); hash_index(b, n) is the local
  // grid index of nuclide n at or below the bin's lower edge. A row per bin: a material's nuclides read
  // neighbouring entries.
  Kokkos::View<const int**, Kokkos::LayoutRight, Mem> hash_index;  // [n_bins + 1][n_nuclides]
  Real hash_log_emin = 0;
  Real hash_inv_dlog = 0;

  // Unionized grid: union_energy holds every nuclide's points, sorted; union_index(u, n) is the local
  // grid index of nuclide n at or below union_energy(u).
  Kokkos::View<const Real*, Mem> union_energy;
  Kokkos::View<const int**, Kokkos::LayoutRight, Mem> union_index;  // [n_union][n_nuclides]

  KOKKOS_INLINE_FUNCTION int n_nuclides() const { return static_cast<int>(grid_offsets.extent(0)) - 1; }
};

namespace detail {

// Starts loading the cache line of `address` on a CPU; nothing on a GPU, where other warps hide the wait.
KOKKOS_INLINE_FUNCTION void prefetch(const void* address) {
  KOKKOS_IF_ON_HOST((__builtin_prefetch(address);))
  (void)address;
}

// The largest i in [lo, hi) with energy(base + i) <= E, given energy(base + lo) <= E < energy(base + hi);
// where E is below every point of (lo, hi) it gives lo, where it is at or above all of them hi - 1.
template <class Mem>
KOKKOS_INLINE_FUNCTION int bisect_grid(const NuclideGrid<Mem>& p, int base, int lo, int hi, Real E) {
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
KOKKOS_INLINE_FUNCTION int nuclide_grid_index_bisect(const NuclideGrid<Mem>& p, int n, Real E) {
  const int base = p.grid_offsets(n);
  const int last = p.grid_offsets(n + 1) - base - 1;
  if (!(E > p.points(base).energy)) return 0;
  if (E >= p.points(base + last).energy) return last - 1;
  return detail::bisect_grid(p, base, 0, last, E);
}

// Done once per energy for all nuclides: the hash bin (hash grid), the union-grid index (unionized
// grid: the largest u with union_energy(u) <= E, clamped to [0, n_union - 1]) or 0 (nuclide grids).
template <class Mem>
KOKKOS_INLINE_FUNCTION int energy_search(const NuclideGrid<Mem>& p, Real E) {
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
KOKKOS_INLINE_FUNCTION int nuclide_grid_index(const NuclideGrid<Mem>& p, int n, Real E, int search) {
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

// Where E sits on a nuclide's grid: the point at or below it (an index into `points`) and E's fraction
// of the way to the next, in [0, 1]: 0 below the grid, 1 above it, and 0 where the two points share an
// energy (a repeated point at a grid's end), so that a value is that of a point.
struct GridInterval {
  int point = 0;
  Real fraction = 0;
};

template <class Mem>
KOKKOS_FORCEINLINE_FUNCTION GridInterval grid_interval(const NuclideGrid<Mem>& p, int n, Real E, int search) {
  const int j = p.grid_offsets(n) + nuclide_grid_index(p, n, E, search);
  const Real f = (E - p.points(j).energy) / (p.points(j + 1).energy - p.points(j).energy);
  return {j, f > Real(0) ? (f < Real(1) ? f : Real(1)) : Real(0)};
}

}  // namespace keff
