#pragma once
// Continuous-energy nuclides on the device, synthetic and evaluated alike (Params: built once by
// src/params/build_nuclide_tables, read-only in kernels): their grids (nuclide_grid.hpp) with the columns
// evaluated tables add or the synthetic library's nu lines, the records of nuclide_records.hpp, the
// secondary distributions they name, and the lookups a collision makes on them. Every array of numbers
// lives in secondaries.reals.
#include "kernels/neutron/data/nuclide_grid.hpp"
#include "kernels/neutron/data/nuclide_records.hpp"
#include "kernels/neutron/data/secondary_data.hpp"

namespace keff::neutron {

// A nuclide's cross sections at E, and where E sits on its grid (for the reactions' own lookups).
struct NuclideXs {
  Real total = 0, elastic = 0, absorption = 0, fission = 0, nu_fission = 0;
  Real scattering = 0;  // non-elastic scattering: the reactions with neutrons out but elastic and fission
  Real nu = 0;          // the synthetic library's nu(E), whose grid has no nu-fission column
  int index = 0;        // grid point at or below E (local to the nuclide)
  Real fraction = 0;    // E's place between point index and index + 1
};

template <class Mem>
struct NuclideParams {
  // Each nuclide's grid of energy, elastic, absorption (capture) and fission with the search
  // settings.energy_grid asks for, and at the same points the columns of its form: one of the next two.
  NuclideGrid<Mem> grid;
  Kokkos::View<const EvaluatedColumns*, Mem> columns;  // evaluated tables; empty for the synthetic library
  Kokkos::View<const NuLine*, Mem> nu_lines;           // the synthetic library's nu(E); empty for evaluated tables
  Kokkos::View<const NuclideRecord*, Mem> nuclides;
  Kokkos::View<const ReactionRecord*, Mem> reactions;
  Kokkos::View<const DelayedGroupRecord*, Mem> groups;
  SecondaryParams<Mem> secondaries;

  KOKKOS_INLINE_FUNCTION int n_nuclides() const { return static_cast<int>(nuclides.extent(0)); }

  // The synthetic library: nu(E) from a line at each lookup, no non-elastic scattering.
  KOKKOS_INLINE_FUNCTION bool nu_per_lookup() const { return nu_lines.extent(0) > 0; }

  // E's place in the grid search, the same for every nuclide: a material's lookup does it once.
  KOKKOS_INLINE_FUNCTION int grid_search(Real energy) const { return energy_search(grid, energy); }

  // Linear-linear between the grid points around E (ACE's rule), held at the grid's ends; the total is
  // the sum of the partials.
  KOKKOS_INLINE_FUNCTION NuclideXs lookup(int nuclide, Real energy) const { return lookup(nuclide, energy, grid_search(energy)); }

  // The same, with E's `search` (grid_search(energy)).
  KOKKOS_INLINE_FUNCTION NuclideXs lookup(int nuclide, Real energy, int search) const {
    return nu_per_lookup() ? lookup_as<true>(nuclide, energy, search) : lookup_as<false>(nuclide, energy, search);
  }

  // The lookup of one form: the synthetic library's (NuLines) or evaluated tables'. A material's lookup
  // picks the form once, outside its loop over nuclides (nuclide_lookup.hpp), and this is forced inline
  // in it: that loop is the hottest of continuous-energy transport.
  template <bool NuLines>
  KOKKOS_FORCEINLINE_FUNCTION NuclideXs lookup_as(int nuclide, Real energy, int search) const {
    const GridInterval at = grid_interval(grid, nuclide, energy, search);
    const GridPoint& lo = grid.points(at.point);
    const GridPoint& hi = grid.points(at.point + 1);
    const Real f = at.fraction;
    NuclideXs xs;
    xs.index = at.point - grid.grid_offsets(nuclide);
    xs.fraction = f;
    xs.elastic = lo.elastic + f * (hi.elastic - lo.elastic);
    xs.absorption = lo.capture + f * (hi.capture - lo.capture);
    xs.fission = lo.fission + f * (hi.fission - lo.fission);
    if constexpr (NuLines) {
      const NuLine& line = nu_lines(nuclide);
      xs.nu = line.constant + line.slope * (energy * Real(1.0e-6));
      xs.nu_fission = xs.nu * xs.fission;
    } else {
      const EvaluatedColumns& clo = columns(at.point);
      const EvaluatedColumns& chi = columns(at.point + 1);
      xs.scattering = clo.scattering + f * (chi.scattering - clo.scattering);
      xs.nu_fission = clo.nu_fission + f * (chi.nu_fission - clo.nu_fission);
    }
    xs.total = xs.elastic + xs.absorption + xs.fission + xs.scattering;
    return xs;
  }

  // A reaction's cross section where `xs` was looked up: 0 below its threshold point. Never asked of a
  // reaction without a cross section of its own (xs_offset -1, a synthetic nuclide's fission).
  KOKKOS_INLINE_FUNCTION Real reaction_xs(const ReactionRecord& r, const NuclideXs& xs) const {
    KOKKOS_EXPECTS(r.xs_offset >= 0);  // KEFF_EXPECT (kernels/contracts.hpp), which this layer cannot include
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
