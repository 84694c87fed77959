#pragma once
// The records of continuous-energy nuclides on the device, ACE tables' and the synthetic library's: what
// their grids (nuclide_grid.hpp) carry besides, their scattering and fission reactions, nu, delayed groups
// and unresolved-resonance probability tables, as plain structs indexing shared arrays (nuclide_data.hpp).
// Energies in eV, cross sections in barns. No Kokkos.
#include "kernels/neutron/data/secondary_records.hpp"

namespace keff::neutron {

// What an evaluated grid point holds beside its GridPoint (nuclide_grid.hpp: energy, elastic, capture
// as every disappearance without fission, fission), at the same index. The total is the sum of
// elastic, capture, fission and `scattering`.
struct EvaluatedColumns {
  Real scattering;  // the non-elastic reactions with neutrons out: inelastic levels and continuum, (n,xn), ...
  Real nu_fission;  // nu(E) * fission at this point, as OpenMC's grid holds it: no nu(E) per lookup
};

// The synthetic library's nu(E) = constant + slope E[MeV], evaluated at each lookup (its grid has no
// nu-fission column); 0 and 0 for a nuclide that does not fission.
struct NuLine {
  Real constant = 0;
  Real slope = 0;
};

// nu(E): none, a polynomial in E [MeV] (coefficients at reals[offset], `count` of them) or a table.
enum class NuForm : int { none = 0, polynomial = 1, table = 2 };
struct NuRecord {
  NuForm form = NuForm::none;
  int offset = 0;
  int count = 0;
  Tab1Record table;
};

// A reaction a collision can choose once it is neither elastic nor absorption nor fission: inelastic
// levels and continuum, (n,2n), (n,3n), (n,n'alpha), ...; or a fission reaction. Its cross section runs
// from grid point `threshold` to the grid's end, at reals[xs_offset]; -1: none of its own (a synthetic
// nuclide's only fission reaction, whose cross section is the grid's fission column and which is never
// chosen among others, so never looked up).
struct ReactionRecord {
  int mt = 0;
  int threshold = 0;
  int xs_offset = 0;
  int multiplicity = 1;     // neutrons out; 0 with `yield` set: yield(E)
  Tab1Record yield;
  int center_of_mass = 0;   // 1: the secondary's energy and cosine are in the centre-of-mass frame
  int first_law = 0, laws = 0;  // SecondaryParams::laws
  int angle = -1;           // SecondaryParams::angle_distributions; -1: the law gives the cosine
  Real q_value = 0;         // eV
};

struct DelayedGroupRecord {
  Real decay_constant = 0;  // 1/s
  Tab1Record probability;
  int first_law = 0, laws = 0;
};

// Probability tables of the unresolved range: `energies` at reals[offset], then per energy 6 x `bands`
// values ([quantity][band]: CDF, total, elastic, fission, (n,gamma), heating).
struct UrrRecord {
  int energies = 0;
  int bands = 0;
  int offset = 0;
  int interpolation = 2;    // between energies: 2 linear-linear, 5 log-log
  int inelastic_flag = -1;  // ILF
  int absorption_flag = -1; // IOA
  int factors = 0;          // 1: the values multiply the smooth cross sections
};

struct NuclideRecord {
  int first_reaction = 0, reactions = 0;   // scattering reactions, in the table's order
  int first_fission = 0, fissions = 0;     // fission reactions (MT 18, or the chances 19, 20, 21, 38)
  int first_group = 0, groups = 0;         // delayed groups
  int elastic_angle = -1;                  // SecondaryParams::angle_distributions
  NuRecord nu_total, nu_prompt, nu_delayed;
  UrrRecord urr;
  Real awr = 1;
  Real kt = 0;                             // the table's temperature, eV
};

}  // namespace keff::neutron
