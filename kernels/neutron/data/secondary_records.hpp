#pragma once
// The records of the flat secondary-distribution model: what a reaction's outgoing neutron is drawn from,
// for every nuclide of an ACE library, as plain structs that index shared arrays. A distribution is a tag
// and offsets, never a pointer or a virtual call, so that one kernel samples every law with a switch and
// the data moves to a device as a handful of arrays (secondary_data.hpp). Energies are in eV.
//
// Built on the host from io/library/ace's IncidentNeutron (src/params/flatten_secondaries.*). No Kokkos.
#include "kernels/vocabulary/types.hpp"

namespace keff::neutron {

// ACE's energy laws (the ACE LAW number is the tag's value), and the synthetic library's spectrum.
enum class LawTag : int {
  fixed_watt = 0,  // not ACE's: a Watt spectrum whose a (c0, MeV) and b (c1, 1/MeV) do not vary with E
  level_scattering = 3,
  continuous_tabular = 4,
  maxwell_fission = 7,
  evaporation = 9,
  watt = 11,
  kalbach_mann = 44,
  correlated_tabular = 61,
  n_body = 66,
};

// A TAB1 function: `points` abscissae at reals[offset], the values right after them; `regions` pairs
// (breakpoint, ENDF interpolation law) at ints[regions_offset] (none: linear-linear everywhere).
struct Tab1Record {
  int offset = -1;  // -1: no function (a law that applies everywhere)
  int points = 0;
  int regions_offset = 0;
  int regions = 0;
  int guide = -1;   // the abscissae's guide at ints[guide] (energy_guide.hpp), or -1 (none)
};

// A cosine distribution.
enum class AngleTag : int { isotropic = 0, equiprobable_bins = 1, tabular = 2 };
struct AngleRecord {
  AngleTag tag = AngleTag::isotropic;
  int interpolation = 2;  // tabular: 1 histogram, 2 linear-linear
  int points = 0;         // equiprobable_bins: 33 edges; tabular: mu, pdf, cdf at offset, + points, + 2 points
  int offset = 0;
  int guide = -1;         // tabular: the CDF's guide at ints[guide] (cdf_search.hpp), or -1 (none)
};

// A reaction's cosines against incident energy: `energies` at reals[energy_offset], one AngleRecord each
// from angles[first_angle]. energies = 0: isotropic at every energy.
struct AngleDistributionRecord {
  int energies = 0;
  int energy_offset = 0;
  int first_angle = 0;
  int energy_guide = -1;  // the energies' guide at ints[energy_guide] (energy_guide.hpp), or -1 (none)
};

// An outgoing-energy table (laws 4, 44, 61) at one incident energy: `discrete` lines first, then a
// continuum interpolated by `interpolation` (1 histogram, 2 linear-linear). E', pdf, cdf at reals[offset],
// + points, + 2 points; law 44 adds R and A at + 3 points, + 4 points; law 61 has one AngleRecord per E'
// from angles[first_angle].
struct OutgoingRecord {
  int interpolation = 2;
  int discrete = 0;
  int points = 0;
  int offset = 0;
  int first_angle = 0;
  int guide = -1;  // the continuum CDF's guide at ints[guide] (cdf_search.hpp), or -1 (none)
};

// One energy law of a reaction or delayed group.
struct LawRecord {
  LawTag tag = LawTag::continuous_tabular;
  Tab1Record probability;  // of this law against incident energy (offset -1: always)
  // Tabular laws: `energies` incident energies at reals[energy_offset], interpolated by
  // `incident_interpolation` (1 histogram, 2 linear-linear), one OutgoingRecord each from outgoing[first_table].
  int energies = 0;
  int energy_offset = 0;
  int incident_interpolation = 2;
  int first_table = 0;
  int energy_guide = -1;  // the incident energies' guide at ints[energy_guide] (energy_guide.hpp), or -1
  // maxwell_fission, evaporation: f1 = theta(E); watt: f1 = a(E), f2 = b(E) (1/eV).
  Tab1Record f1, f2;
  // level_scattering: c0 = (A+1)/A |Q|, c1 = (A/(A+1))^2; maxwell, evaporation, watt: c0 = restriction U;
  // n_body: c0 = bodies, c1 = total mass ratio A_p; fixed_watt: c0 = a [MeV], c1 = b [1/MeV].
  Real c0 = 0, c1 = 0;
};

}  // namespace keff::neutron
