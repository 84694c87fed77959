#pragma once
// One incident-neutron ACE table (type 1, "c" class) as the host holds it after reading: the energy grid,
// every reaction's cross section, and each secondary distribution with its ACE law. Field names follow the
// ACE blocks they come from (MCNP's and NJOY's acer manuals), so that a reader of the format finds them.
// Energies are in MeV as ACE stores them; cross sections in barns. Indices are 0-based.
//
// This is the reader's output, not what transport samples: the device model is flat and built from it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace keff::ace {

// A function y(x) tabulated with ENDF interpolation regions (a TAB1 record): breakpoints[i] is the
// 1-based index of the last point of region i, laws[i] its ENDF interpolation law (1 histogram, 2 lin-lin,
// 3 lin-log, 4 log-lin, 5 log-log). No regions means lin-lin everywhere.
struct Tab1 {
  std::vector<int> breakpoints, laws;
  std::vector<double> x, y;
};

// A cosine distribution at one incident (or outgoing) energy.
enum class AngleForm { isotropic, equiprobable_bins, tabular };
struct AngleTable {
  AngleForm form = AngleForm::isotropic;
  int interpolation = 0;             // tabular: 1 histogram, 2 lin-lin
  std::vector<double> mu, pdf, cdf;  // equiprobable_bins: 33 bin edges in mu; tabular: points
};
// A reaction's cosine distributions, one per incident energy; none means isotropic at every energy.
struct AngleDistribution {
  std::vector<double> energy;
  std::vector<AngleTable> tables;
};

// An outgoing-energy table at one incident energy (laws 4, 44 and 61): `discrete_lines` discrete energies
// first, then a continuum interpolated by `interpolation` (1 histogram, 2 lin-lin).
struct OutgoingTable {
  int interpolation = 2;
  int discrete_lines = 0;
  std::vector<double> energy, pdf, cdf;
  std::vector<double> kalbach_r, kalbach_a;  // law 44: precompound fraction and slope, per outgoing energy
  std::vector<AngleTable> angles;            // law 61: the cosine table of each outgoing energy
};

// The ACE energy laws keff samples. Any other law is refused when the table is read.
enum class EnergyLawKind : int {
  level_scattering = 3,     // E' from the level's Q value
  continuous_tabular = 4,   // tabulated E' per incident energy
  maxwell_fission = 7,      // Maxwell spectrum with temperature theta(E)
  evaporation = 9,          // evaporation spectrum with temperature theta(E)
  watt = 11,                // Watt spectrum with a(E), b(E)
  kalbach_mann = 44,        // tabulated E' with Kalbach-Mann angular systematics
  correlated_tabular = 61,  // tabulated E' with a tabulated cosine for each E'
  n_body = 66,              // N-body phase space
};
const char* energy_law_name(int law);
bool supported_energy_law(int law);

struct EnergyLaw {
  EnergyLawKind kind = EnergyLawKind::continuous_tabular;
  Tab1 probability;  // of this law among the reaction's laws, against incident energy
  // level_scattering: E' = level_mass_ratio * (E - level_threshold)
  double level_threshold = 0.0, level_mass_ratio = 0.0;
  // continuous_tabular, kalbach_mann, correlated_tabular: one table per incident energy
  std::vector<int> breakpoints, laws;
  std::vector<double> incident_energy;
  std::vector<OutgoingTable> outgoing;
  // maxwell_fission, evaporation: theta; watt: a and b; all three: restriction energy U
  Tab1 theta, watt_a, watt_b;
  double restriction = 0.0;
  // n_body: bodies and the total mass ratio A_p
  int bodies = 0;
  double total_mass_ratio = 0.0;
};

// What a reaction gives a neutron: the secondary's frame and its number.
enum class Frame { lab, center_of_mass };

struct Reaction {
  int mt = 0;
  double q_value = 0.0;                  // MeV
  int threshold_index = 0;               // first point of the grid where the cross section is given
  std::vector<double> xs;                // barns, from threshold_index on
  bool has_secondaries = false;          // the reactions TYR gives neutrons (not absorption)
  Frame frame = Frame::lab;
  int multiplicity = 0;                  // neutrons out; 19 means nu(E) (fission)
  Tab1 yield;                            // energy-dependent multiplicity, where TYR > 100
  AngleDistribution angle;
  std::vector<EnergyLaw> energy;         // at least one where has_secondaries (elastic has none)
};

// nu(E): a polynomial in E [MeV] or a table.
struct Multiplicity {
  bool present = false;
  std::vector<double> polynomial;
  Tab1 table;
};

struct DelayedGroup {
  double decay_constant = 0.0;  // per shake (1e-8 s)
  Tab1 probability;             // of this group among the delayed neutrons
  std::vector<EnergyLaw> energy;
};

// Unresolved-resonance probability tables (UNR block): for each energy, `bands` cumulative
// probabilities and the total, elastic, fission, capture and heating values of each band.
struct ProbabilityTables {
  bool present = false;
  int interpolation = 2;         // between energies: 2 lin-lin, 5 log-log
  int inelastic_flag = 0;        // ILF: inelastic competition (<0 none, 0 smooth, >0 MT of a sum)
  int absorption_flag = 0;       // IOA: other absorption, as ILF
  bool factors = false;          // IFF: values are factors of the smooth cross sections
  int bands = 0;
  std::vector<double> energy;
  // [energy][quantity][band]: quantity 0 CDF, 1 total, 2 elastic, 3 fission, 4 (n,gamma), 5 heating
  std::vector<double> values;
  double at(int energy_index, int quantity, int band) const {
    return values[(static_cast<std::size_t>(energy_index) * 6 + quantity) * bands + band];
  }
};

struct IncidentNeutron {
  std::string file;               // the ACE file it was read from
  std::string zaid;               // e.g. "92235.00c"
  std::string name;               // keff's nuclide name, e.g. "U235"
  double awr = 0.0;               // target mass / neutron mass
  double temperature_mev = 0.0;   // kT
  std::string comment;            // the table's title line
  int za = 0;
  std::vector<double> energy;     // ESZ: grid (MeV), total, absorption, elastic, heating
  std::vector<double> total, absorption, elastic, heating;
  AngleDistribution elastic_angle;
  std::vector<Reaction> reactions;  // MTR order
  Multiplicity nu_total, nu_prompt, nu_delayed;
  std::vector<DelayedGroup> delayed_groups;
  ProbabilityTables urr;
  bool fissile() const;
  const Reaction* find(int mt) const;
};

}  // namespace keff::ace
