// The blocks of an incident-neutron ACE table (ESZ, NU, MTR, LQR, TYR, LSIG, SIG, LAND, AND, LDLW, DLW,
// UNR, DNU, BDD, DNEDL, DNED) read into IncidentNeutron, each checked as it is read.
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xss_block.hpp"

namespace keff::ace {
namespace {

// JXS and NXS entries by name (MCNP manual, appendix F).
enum Nxs { NXS_LENGTH = 1, NXS_ZA = 2, NXS_NES = 3, NXS_NTR = 4, NXS_NR = 5, NXS_NPCR = 8 };
enum Jxs {
  JXS_ESZ = 1, JXS_NU = 2, JXS_MTR = 3, JXS_LQR = 4, JXS_TYR = 5, JXS_LSIG = 6, JXS_SIG = 7, JXS_LAND = 8,
  JXS_AND = 9, JXS_LDLW = 10, JXS_DLW = 11, JXS_LUNR = 23, JXS_DNU = 24, JXS_BDD = 25, JXS_DNEDL = 26, JXS_DNED = 27
};

void read_esz(const XssBlock& b, IncidentNeutron& n) {
  const AceTable& t = b.table();
  const std::int64_t points = t.nxs_at(NXS_NES);
  if (points < 2 || points > b.size() / 5) b.fail("NXS(3), the number of energies, is " + std::to_string(points));
  const std::int64_t at = t.jxs_at(JXS_ESZ);
  if (at < 1) b.fail("JXS(1) is 0: the table has no energy grid");
  n.energy = b.reals(at, points);
  n.total = b.reals(at + points, points);
  n.absorption = b.reals(at + 2 * points, points);
  n.elastic = b.reals(at + 3 * points, points);
  n.heating = b.reals(at + 4 * points, points);
  if (!(n.energy.front() > 0.0)) b.fail("the energy grid starts at " + XssBlock::number(n.energy.front()) + " MeV, not above 0");
  b.ascending(n.energy, "the energy grid");
  b.non_negative(n.total, "the total cross section");
  b.non_negative(n.absorption, "the absorption cross section");
  b.non_negative(n.elastic, "the elastic cross section");
}

Multiplicity read_nu_at(const XssBlock& b, std::int64_t at) {
  Multiplicity m;
  m.present = true;
  const std::int64_t form = b.integer(at, "LNU", 1, 2);
  if (form == 1) {
    const std::int64_t coefficients = b.count(at + 1, "the number of polynomial coefficients NC", 1);
    m.polynomial = b.reals(at + 2, coefficients);
  } else {
    m.table = read_tab1(b, at + 1);
    b.non_negative(m.table.y, "nu(E)");
  }
  return m;
}

void read_nu(const XssBlock& b, IncidentNeutron& n) {
  const AceTable& t = b.table();
  if (const std::int64_t at = t.jxs_at(JXS_NU); at > 0) {
    if (b.real(at) > 0.0) {
      n.nu_total = read_nu_at(b.named("NU"), at);
    } else {
      const std::int64_t prompt_length = static_cast<std::int64_t>(-b.real(at));
      n.nu_prompt = read_nu_at(b.named("NU (prompt)"), at + 1);
      n.nu_total = read_nu_at(b.named("NU (total)"), at + prompt_length + 1);
    }
  }
  if (const std::int64_t at = t.jxs_at(JXS_DNU); at > 0) {
    n.nu_delayed = read_nu_at(b.named("DNU"), at);
  }
}

AngleDistribution read_angle(const XssBlock& b, std::int64_t base, std::int64_t locator) {
  AngleDistribution d;
  if (locator == 0) return d;
  const std::int64_t at = base + locator - 1;
  const std::int64_t energies = b.count(at, "the number of incident energies NE", 1);
  d.energy = b.reals(at + 1, energies);
  b.ascending(d.energy, "the incident energies");
  for (double l : b.reals(at + 1 + energies, energies)) {
    const std::int64_t where = static_cast<std::int64_t>(l);
    if (where == 0) {
      d.tables.push_back(AngleTable{});
    } else if (where > 0) {
      AngleTable a;
      a.form = AngleForm::equiprobable_bins;
      a.mu = b.reals(base + where - 1, 33);
      b.ascending(a.mu, "32 equiprobable cosine bins");
      if (a.mu.front() < -1.0 - 1e-6 || a.mu.back() > 1.0 + 1e-6) b.fail("32 equiprobable cosine bins leave [-1, 1]");
      d.tables.push_back(std::move(a));
    } else {
      d.tables.push_back(read_tabular_angle(b, base - where - 1));
    }
  }
  return d;
}

void read_reactions(const XssBlock& b, IncidentNeutron& n) {
  const AceTable& t = b.table();
  const std::int64_t count = t.nxs_at(NXS_NTR), with_neutrons = t.nxs_at(NXS_NR);
  const std::int64_t points = static_cast<std::int64_t>(n.energy.size());
  if (count < 0 || with_neutrons < 0 || with_neutrons > count || count > b.size()) {
    b.named("NXS").fail("NXS(4) = " + std::to_string(count) + " reactions and NXS(5) = " + std::to_string(with_neutrons) +
                        " with neutrons out do not fit (0 <= NXS(5) <= NXS(4))");
  }
  const std::int64_t land = t.jxs_at(JXS_LAND), and_base = t.jxs_at(JXS_AND);
  const std::int64_t ldlw = t.jxs_at(JXS_LDLW), dlw = t.jxs_at(JXS_DLW);
  n.elastic_angle = read_angle(b.named("AND, elastic"), and_base, land > 0 ? static_cast<std::int64_t>(b.real(land)) : 0);
  for (std::int64_t j = 0; j < count; ++j) {
    Reaction r;
    r.mt = static_cast<int>(b.named("MTR").integer(t.jxs_at(JXS_MTR) + j, "an MT number", 1, 999));
    const std::string mt = " MT " + std::to_string(r.mt);
    r.q_value = b.named("LQR").real(t.jxs_at(JXS_LQR) + j);
    const XssBlock tyr = b.named("TYR," + mt);
    const std::int64_t type = tyr.integer(t.jxs_at(JXS_TYR) + j, "TYR", -1000, 1000);
    const XssBlock sig = b.named("SIG," + mt);
    const std::int64_t at = t.jxs_at(JXS_SIG) + sig.integer(t.jxs_at(JXS_LSIG) + j, "the LSIG locator", 1, b.size()) - 1;
    const std::int64_t first = sig.integer(at, "the threshold index IE", 1, points);
    const std::int64_t values = sig.integer(at + 1, "the number of values NE", 1, points - first + 1);
    if (first + values - 1 != points) sig.fail("its cross section ends before the grid's last energy");
    r.threshold_index = static_cast<int>(first - 1);
    r.xs = sig.reals(at + 2, values);
    sig.non_negative(r.xs, "the cross section");
    if (j < with_neutrons) {
      if (type == 0) tyr.fail("TYR is 0 (no neutrons) for a reaction NXS(5) counts among those with neutrons out");
      r.has_secondaries = true;
      r.frame = type < 0 ? Frame::center_of_mass : Frame::lab;
      const std::int64_t magnitude = type < 0 ? -type : type;
      if (magnitude > 100) {
        r.yield = read_tab1(b.named("DLW, yield of" + mt), dlw + magnitude - 101);
        r.multiplicity = -1;
      } else if (magnitude == 19 || (magnitude >= 1 && magnitude <= 4)) {
        r.multiplicity = static_cast<int>(magnitude);
      } else {
        tyr.fail("TYR is " + std::to_string(type) + " (allowed: 0, +-1 to 4, +-19, or > 100 for a tabulated yield)");
      }
      const std::int64_t angle_locator = static_cast<std::int64_t>(b.named("LAND").real(land + j + 1));
      if (angle_locator != -1) r.angle = read_angle(b.named("AND," + mt), and_base, angle_locator);
      const XssBlock laws = b.named("DLW," + mt);
      r.energy = read_energy_laws(laws, dlw, laws.integer(ldlw + j, "the LDLW locator", 1, b.size()));
      if (angle_locator == -1) {
        for (const EnergyLaw& law : r.energy) {
          if (law.kind != EnergyLawKind::kalbach_mann && law.kind != EnergyLawKind::correlated_tabular &&
              law.kind != EnergyLawKind::n_body) {
            laws.fail(std::string("LAND says its angles come with the energy law, but law ") +
                      std::to_string(static_cast<int>(law.kind)) + " carries none");
          }
        }
      }
    } else if (type != 0) {
      tyr.fail("TYR is " + std::to_string(type) + " for a reaction past the NXS(5) with neutrons out");
    }
    n.reactions.push_back(std::move(r));
  }
}

void read_delayed(const XssBlock& b, IncidentNeutron& n) {
  const AceTable& t = b.table();
  const std::int64_t groups = t.nxs_at(NXS_NPCR);
  if (groups <= 0) return;
  if (groups > 50) b.named("NXS").fail("NXS(8) says " + std::to_string(groups) + " delayed groups (allowed: up to 50)");
  if (t.jxs_at(JXS_BDD) < 1 || t.jxs_at(JXS_DNEDL) < 1 || t.jxs_at(JXS_DNED) < 1) {
    b.named("BDD").fail("NXS(8) says " + std::to_string(groups) + " delayed groups but JXS(25..27) point nowhere");
  }
  std::int64_t at = t.jxs_at(JXS_BDD);
  for (std::int64_t g = 0; g < groups; ++g) {
    const XssBlock bdd = b.named("BDD, group " + std::to_string(g + 1));
    DelayedGroup d;
    d.decay_constant = bdd.real(at);
    if (!(d.decay_constant > 0.0)) bdd.fail("the decay constant is not positive");
    d.probability = read_tab1(bdd, at + 1, &at);
    bdd.non_negative(d.probability.y, "the group's probability");
    const XssBlock dned = b.named("DNED, group " + std::to_string(g + 1));
    d.energy = read_energy_laws(dned, t.jxs_at(JXS_DNED), dned.integer(t.jxs_at(JXS_DNEDL) + g, "the DNEDL locator", 1, b.size()));
    n.delayed_groups.push_back(std::move(d));
  }
}

void read_urr(const XssBlock& b, IncidentNeutron& n) {
  const std::int64_t at = b.table().jxs_at(JXS_LUNR);
  if (at == 0) return;
  ProbabilityTables& p = n.urr;
  p.present = true;
  const std::int64_t energies = b.count(at, "the number of energies N", 2);
  p.bands = static_cast<int>(b.count(at + 1, "the number of probability bands M", 1));
  p.interpolation = static_cast<int>(b.integer(at + 2, "the interpolation INT", 2, 5));
  if (p.interpolation != 2 && p.interpolation != 5) b.fail("the interpolation INT is " + std::to_string(p.interpolation) + " (allowed: 2 or 5)");
  p.inelastic_flag = static_cast<int>(b.integer(at + 3, "ILF", -1, 999));
  p.absorption_flag = static_cast<int>(b.integer(at + 4, "IOA", -1, 999));
  p.factors = b.integer(at + 5, "IFF", 0, 1) == 1;
  p.energy = b.reals(at + 6, energies);
  b.ascending(p.energy, "the energies", true);
  p.values = b.reals(at + 6 + energies, energies * 6 * p.bands);
  for (int e = 0; e < energies; ++e) {
    std::vector<double> cdf(static_cast<std::size_t>(p.bands));
    for (int k = 0; k < p.bands; ++k) cdf[k] = p.at(e, 0, k);
    b.cdf(cdf, ("the CDF at energy " + std::to_string(e + 1)).c_str(), cdf_end_tolerance);
    for (int q = 1; q <= 4; ++q) {
      for (int k = 0; k < p.bands; ++k) {
        if (p.at(e, q, k) < 0.0) {
          b.fail("band " + std::to_string(k + 1) + " at energy " + std::to_string(e + 1) + " has a negative cross section");
        }
      }
    }
  }
}

}  // namespace

bool IncidentNeutron::fissile() const {
  if (!nu_total.present) return false;
  for (const Reaction& r : reactions) {
    if (r.mt == 18 || r.mt == 19) return true;
  }
  return false;
}

const Reaction* IncidentNeutron::find(int mt) const {
  for (const Reaction& r : reactions) {
    if (r.mt == mt) return &r;
  }
  return nullptr;
}

IncidentNeutron read_incident_neutron(const AceTable& table, const std::string& name) {
  IncidentNeutron n;
  n.file = table.file;
  n.zaid = table.zaid;
  n.name = name;
  n.awr = table.awr;
  n.temperature_mev = table.temperature_mev;
  n.comment = table.comment;
  n.za = static_cast<int>(table.nxs_at(NXS_ZA));
  const XssBlock b(table, name, "ESZ");
  read_esz(b, n);
  read_nu(b, n);
  read_reactions(b, n);
  read_delayed(b, n);
  read_urr(b.named("UNR"), n);
  return n;
}

}  // namespace keff::ace
