#pragma once
// Evaluated nuclides on the device (Params: built once by src/params/build_evaluated_data, read-only in
// kernels): the records of evaluated_records.hpp, the secondary distributions they name, and the lookups
// a collision makes on them. Every array of numbers lives in secondaries.reals.
#include "kernels/neutron/data/evaluated_records.hpp"
#include "kernels/neutron/data/secondary_data.hpp"

namespace keff::neutron {

// A nuclide's cross sections at E, and where E sits on its grid (for the reactions' own lookups).
struct EvaluatedXs {
  Real total = 0, elastic = 0, absorption = 0, fission = 0, nu_fission = 0;
  int index = 0;      // grid point at or below E (local to the nuclide)
  Real fraction = 0;  // E's place between point index and index + 1
  KOKKOS_INLINE_FUNCTION Real nonelastic_scattering() const {
    return Kokkos::fmax(Real(0), total - elastic - absorption - fission);
  }
};

template <class Mem>
struct EvaluatedParams {
  Kokkos::View<const EvaluatedNuclideRecord*, Mem> nuclides;
  Kokkos::View<const EvaluatedPoint*, Mem> points;
  Kokkos::View<const ReactionRecord*, Mem> reactions;
  Kokkos::View<const DelayedGroupRecord*, Mem> groups;
  SecondaryParams<Mem> secondaries;
  // The search's shortcut, as OpenMC's and the synthetic data's hash grid: the energy range cut into
  // hash_bins bins equal in lethargy; for each nuclide, grid_hash(first_hash + b) is the grid point at or
  // below bin b's lower edge, so that a lookup bisects only the points of E's bin (a few, where the full
  // grid of U235 takes 17 steps).
  Kokkos::View<const int*, Mem> grid_hash;
  int hash_bins = 0;  // 0: bisect the whole grid
  Real hash_log_emin = 0;
  Real hash_inv_dlog = 0;  // bins per unit of ln E

  KOKKOS_INLINE_FUNCTION int n_nuclides() const { return static_cast<int>(nuclides.extent(0)); }

  // E's bin of the hash grid (-1 without one): the same for every nuclide, so a material's lookup takes
  // the logarithm once.
  KOKKOS_INLINE_FUNCTION int hash_bin(Real energy) const {
    if (hash_bins == 0) return -1;
    const Real x = (Kokkos::log(energy) - hash_log_emin) * hash_inv_dlog;
    return x <= 0 ? 0 : (x >= hash_bins ? hash_bins - 1 : static_cast<int>(x));
  }

  // Linear-linear between the grid points around E (ACE's rule), held at the grid's ends.
  KOKKOS_INLINE_FUNCTION EvaluatedXs lookup(int nuclide, Real energy) const { return lookup(nuclide, energy, hash_bin(energy)); }

  // The same, with E's hash bin `bin` (hash_bin(energy)).
  KOKKOS_INLINE_FUNCTION EvaluatedXs lookup(int nuclide, Real energy, int bin) const {
    const EvaluatedNuclideRecord& n = nuclides(nuclide);
    const EvaluatedPoint* p = &points(n.first_point);
    EvaluatedXs xs;
    int lo = 0, hi = n.points - 1;
    if (energy <= p[0].energy) {
      hi = 1;
    } else if (energy >= p[hi].energy) {
      lo = hi - 1;
      xs.fraction = 1;
    } else {
      if (bin >= 0) {
        const int* h = &grid_hash(n.first_hash);
        lo = h[bin];
        hi = h[bin + 1] + 1 < hi ? h[bin + 1] + 1 : hi;
        // Rounding in the bin's edges may leave E a point outside [lo, hi): widened, p[lo] <= E < p[hi]
        // holds, and the bisection finds the one interval the whole grid's would.
        while (lo > 0 && p[lo].energy > energy) --lo;
        while (p[hi].energy <= energy) ++hi;
      }
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (p[mid].energy <= energy) lo = mid; else hi = mid;
      }
      xs.fraction = (energy - p[lo].energy) / (p[hi].energy - p[lo].energy);
    }
    const Real f = xs.fraction, g = 1 - f;
    xs.index = lo;
    xs.total = g * p[lo].total + f * p[hi].total;
    xs.elastic = g * p[lo].elastic + f * p[hi].elastic;
    xs.absorption = g * p[lo].absorption + f * p[hi].absorption;
    xs.fission = g * p[lo].fission + f * p[hi].fission;
    xs.nu_fission = g * p[lo].nu_fission + f * p[hi].nu_fission;
    return xs;
  }

  // A reaction's cross section where `xs` was looked up: 0 below its threshold point.
  KOKKOS_INLINE_FUNCTION Real reaction_xs(const ReactionRecord& r, const EvaluatedXs& xs) const {
    if (xs.index < r.threshold) return 0;
    const Real* v = &secondaries.reals(r.xs_offset) + (xs.index - r.threshold);
    return (1 - xs.fraction) * v[0] + xs.fraction * v[1];
  }

  // nu(E) of a record (E in eV; ACE's polynomials are in MeV).
  KOKKOS_INLINE_FUNCTION Real nu(const NuRecord& r, Real energy) const {
    if (r.form == NuForm::table) return secondaries.evaluate(r.table, energy);
    if (r.form == NuForm::none) return 0;
    const Real e_mev = energy * Real(1e-6);
    Real value = 0;
    for (int k = r.count - 1; k >= 0; --k) value = value * e_mev + secondaries.reals(r.offset + k);
    return value;
  }
};

}  // namespace keff::neutron
