#pragma once
// Evaluated nuclides on the device (Params: built once by src/params/build_evaluated_data, read-only in
// kernels): the records of evaluated_records.hpp, the secondary distributions they name, and the lookups
// a collision makes on them. Every array of numbers lives in secondaries.reals.
#include "kernels/neutron/data/evaluated_records.hpp"
#include "kernels/neutron/data/secondary_data.hpp"

namespace keff::neutron {

// A nuclide's cross sections at E, and where E sits on its grid (for the reactions' own lookups).
struct EvaluatedXs {
  Real total = 0, elastic = 0, absorption = 0, fission = 0;
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

  KOKKOS_INLINE_FUNCTION int n_nuclides() const { return static_cast<int>(nuclides.extent(0)); }

  // Linear-linear between the grid points around E (ACE's rule), held at the grid's ends.
  KOKKOS_INLINE_FUNCTION EvaluatedXs lookup(int nuclide, Real energy) const {
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
