// The secondary-distribution records of an ACE table: TAB1 functions, tabulated cosines and the energy
// laws of the DLW and DNED blocks (MCNP manual, appendix F; NJOY's acer).
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xss_block.hpp"

#include <set>

namespace keff::ace {

const char* energy_law_name(int law) {
  switch (law) {
    case 1: return "tabular equiprobable energy bins";
    case 2: return "discrete photon energy";
    case 3: return "level scattering";
    case 4: return "continuous tabular";
    case 5: return "general evaporation";
    case 7: return "simple Maxwell fission spectrum";
    case 9: return "evaporation spectrum";
    case 11: return "energy-dependent Watt spectrum";
    case 22: return "tabular linear functions of incident energy out";
    case 24: return "tabular energy multipliers";
    case 44: return "Kalbach-Mann correlated energy-angle";
    case 61: return "correlated energy-angle, tabular angles";
    case 66: return "N-body phase space";
    case 67: return "laboratory angle-energy";
    default: return "unknown";
  }
}

bool supported_energy_law(int law) {
  switch (law) {
    case 3: case 4: case 7: case 9: case 11: case 44: case 61: case 66: return true;
    default: return false;
  }
}

Tab1 read_tab1(const XssBlock& b, std::int64_t i, std::int64_t* next) {
  Tab1 f;
  const std::int64_t regions = b.count(i, "a TAB1's number of interpolation regions NR");
  for (double v : b.reals(i + 1, regions)) f.breakpoints.push_back(static_cast<int>(v));
  for (double v : b.reals(i + 1 + regions, regions)) {
    if (v != std::floor(v) || v < 1 || v > 5) b.fail("a TAB1's interpolation law is " + XssBlock::number(v) + " (allowed: 1 to 5)");
    f.laws.push_back(static_cast<int>(v));
  }
  const std::int64_t points = b.count(i + 1 + 2 * regions, "a TAB1's number of points NE", 1);
  f.x = b.reals(i + 2 + 2 * regions, points);
  f.y = b.reals(i + 2 + 2 * regions + points, points);
  b.ascending(f.x, "a TAB1's abscissae");
  int previous = 0;
  for (int bp : f.breakpoints) {
    if (bp <= previous || bp > points) b.fail("a TAB1's breakpoints are not ascending within its " + std::to_string(points) + " points");
    previous = bp;
  }
  if (next) *next = i + 2 + 2 * regions + 2 * points;
  return f;
}

AngleTable read_tabular_angle(const XssBlock& b, std::int64_t i) {
  AngleTable a;
  a.form = AngleForm::tabular;
  a.interpolation = static_cast<int>(b.integer(i, "a cosine table's interpolation JJ", 1, 2));
  const std::int64_t points = b.count(i + 1, "a cosine table's number of points", 2);
  a.mu = b.reals(i + 2, points);
  a.pdf = b.reals(i + 2 + points, points);
  a.cdf = b.reals(i + 2 + 2 * points, points);
  b.ascending(a.mu, "a cosine table's cosines");
  if (a.mu.front() < -1.0 - 1e-6 || a.mu.back() > 1.0 + 1e-6) b.fail("a cosine table's cosines leave [-1, 1]");
  b.non_negative(a.pdf, "a cosine table's PDF");
  b.cdf(a.cdf, "a cosine table's CDF", cdf_end_tolerance);
  return a;
}

namespace {

// Laws 4, 44 and 61: NR, NBT, INT, NE, E(NE), L(NE), and at each locator L (relative to `base`) one
// outgoing table: INTT' (10 x discrete lines + interpolation), NP, E'(NP), PDF(NP), CDF(NP), then R(NP)
// and A(NP) for law 44, or LC(NP) cosine-table locators for law 61.
void read_tabular_energy(const XssBlock& b, std::int64_t base, std::int64_t i, EnergyLaw& law) {
  const std::int64_t regions = b.count(i, "the law's number of interpolation regions NR");
  for (double v : b.reals(i + 1, regions)) law.breakpoints.push_back(static_cast<int>(v));
  for (double v : b.reals(i + 1 + regions, regions)) law.laws.push_back(static_cast<int>(v));
  const std::int64_t energies = b.count(i + 1 + 2 * regions, "the law's number of incident energies NE", 1);
  law.incident_energy = b.reals(i + 2 + 2 * regions, energies);
  b.ascending(law.incident_energy, "the law's incident energies");
  const std::vector<double> locators = b.reals(i + 2 + 2 * regions + energies, energies);
  for (double locator : locators) {
    const std::int64_t at = base + static_cast<std::int64_t>(locator) - 1;
    OutgoingTable t;
    const std::int64_t flag = b.integer(at, "an outgoing table's INTT'", 1, 10 * b.size() + 2);
    t.interpolation = static_cast<int>(flag % 10);
    t.discrete_lines = static_cast<int>(flag / 10);
    if (t.interpolation != 1 && t.interpolation != 2) {
      b.fail("an outgoing table's interpolation is " + std::to_string(t.interpolation) + " (allowed: 1 histogram, 2 linear)");
    }
    const std::int64_t points = b.count(at + 1, "an outgoing table's number of points NP", 1);
    if (t.discrete_lines > points) b.fail("an outgoing table has more discrete lines than points");
    t.energy = b.reals(at + 2, points);
    t.pdf = b.reals(at + 2 + points, points);
    t.cdf = b.reals(at + 2 + 2 * points, points);
    b.ascending(t.energy, "an outgoing table's energies");
    b.non_negative(t.pdf, "an outgoing table's PDF");
    b.cdf(t.cdf, "an outgoing table's CDF", cdf_end_tolerance);
    if (law.kind == EnergyLawKind::kalbach_mann) {
      t.kalbach_r = b.reals(at + 2 + 3 * points, points);
      t.kalbach_a = b.reals(at + 2 + 4 * points, points);
      for (double r : t.kalbach_r) {
        if (r < 0.0 || r > 1.0) b.fail("a Kalbach-Mann precompound fraction R is " + XssBlock::number(r) + " (allowed: 0 to 1)");
      }
    } else if (law.kind == EnergyLawKind::correlated_tabular) {
      for (double lc : b.reals(at + 2 + 3 * points, points)) {
        if (lc == 0.0) {
          t.angles.push_back(AngleTable{});
        } else {
          t.angles.push_back(read_tabular_angle(b, base + static_cast<std::int64_t>(std::fabs(lc)) - 1));
        }
      }
    }
    law.outgoing.push_back(std::move(t));
  }
}

void read_law(const XssBlock& b, std::int64_t base, std::int64_t at, EnergyLaw& law) {
  switch (law.kind) {
    case EnergyLawKind::level_scattering:
      law.level_threshold = b.real(at);
      law.level_mass_ratio = b.real(at + 1);
      if (law.level_threshold < 0.0 || !(law.level_mass_ratio > 0.0) || law.level_mass_ratio > 1.0) {
        b.fail("level scattering's LDAT (" + XssBlock::number(law.level_threshold) + ", " +
               XssBlock::number(law.level_mass_ratio) + ") is not (A+1)/A |Q| >= 0 and (A/(A+1))^2 in (0, 1]");
      }
      break;
    case EnergyLawKind::continuous_tabular:
    case EnergyLawKind::kalbach_mann:
    case EnergyLawKind::correlated_tabular:
      read_tabular_energy(b, base, at, law);
      break;
    case EnergyLawKind::maxwell_fission:
    case EnergyLawKind::evaporation: {
      std::int64_t next = 0;
      law.theta = read_tab1(b, at, &next);
      b.non_negative(law.theta.y, "the spectrum's temperature theta(E)");
      law.restriction = b.real(next);
      break;
    }
    case EnergyLawKind::watt: {
      std::int64_t next = 0;
      law.watt_a = read_tab1(b, at, &next);
      law.watt_b = read_tab1(b, next, &next);
      b.non_negative(law.watt_a.y, "the Watt spectrum's a(E)");
      b.non_negative(law.watt_b.y, "the Watt spectrum's b(E)");
      law.restriction = b.real(next);
      break;
    }
    case EnergyLawKind::n_body:
      law.bodies = static_cast<int>(b.integer(at, "the N-body law's number of particles NPSX", 3, 5));
      law.total_mass_ratio = b.real(at + 1);
      if (!(law.total_mass_ratio > 0.0)) b.fail("the N-body law's total mass ratio is not positive");
      break;
  }
}

}  // namespace

std::vector<EnergyLaw> read_energy_laws(const XssBlock& b, std::int64_t base, std::int64_t first) {
  std::vector<EnergyLaw> laws;
  std::set<std::int64_t> seen;
  for (std::int64_t locator = first; locator != 0;) {
    if (!seen.insert(locator).second) b.fail("its chain of energy laws returns to locator " + std::to_string(locator));
    const std::int64_t at = base + locator - 1;
    const std::int64_t next = b.integer(at, "the next law's locator LNW", 0, b.size());
    const std::int64_t kind = b.integer(at + 1, "the energy law LAW", 0, 1000);
    const std::int64_t data = b.integer(at + 2, "the law's data locator IDAT", 1, b.size());
    if (!supported_energy_law(static_cast<int>(kind))) {
      b.fail("energy law " + std::to_string(kind) + " (" + energy_law_name(static_cast<int>(kind)) +
             ") is not supported (supported: 3, 4, 7, 9, 11, 44, 61, 66)");
    }
    EnergyLaw law;
    law.kind = static_cast<EnergyLawKind>(kind);
    law.probability = read_tab1(b, at + 3);
    read_law(b, base, base + data - 1, law);
    laws.push_back(std::move(law));
    locator = next;
  }
  return laws;
}

}  // namespace keff::ace
