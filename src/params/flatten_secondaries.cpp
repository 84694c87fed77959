#include "src/params/flatten_secondaries.hpp"

#include "kernels/neutron/data/energy_guide.hpp"
#include "src/params/to_device.hpp"

#include <cmath>

namespace keff {
namespace {

// A region list that is all linear-linear (or only one region of it) is no list: the default.
bool linear_everywhere(const std::vector<int>& laws) {
  for (int law : laws) {
    if (law != 2) return false;
  }
  return true;
}

}  // namespace

int SecondaryTables::add_cdf_guide(int cdf_offset, int points) {
  if (points < neutron::cdf_guide_min_points) return -1;
  const int at = static_cast<int>(ints.size());
  const int bins = neutron::cdf_guide_bins(points);
  for (int j = 0; j <= bins; ++j) ints.push_back(neutron::cdf_guide_entry(&reals[cdf_offset], points, j));
  return at;
}

int SecondaryTables::add_energy_guide(int x_offset, int points) {
  if (points < neutron::energy_guide_min_points) return -1;
  const Real* x = &reals[x_offset];
  if (!(x[0] > 0) || !std::isfinite(x[points - 1])) return -1;  // keys order positive, finite energies only
  const int first = neutron::energy_guide_key(x[0]);
  const int entries = neutron::energy_guide_key(x[points - 1]) - first + 2;
  const int at = static_cast<int>(ints.size());
  ints.push_back(first);
  ints.push_back(entries);
  for (int j = 0; j < entries; ++j) {
    Real fraction;
    ints.push_back(neutron::grid_interval(x, points, neutron::energy_guide_edge(first + j), nullptr, &fraction));
  }
  return at;
}

int SecondaryTables::append(const std::vector<double>& values, double scale) {
  const int at = static_cast<int>(reals.size());
  for (double v : values) reals.push_back(static_cast<Real>(v * scale));
  return at;
}

neutron::Tab1Record SecondaryTables::add_tab1(const ace::Tab1& f, double x_scale, double y_scale) {
  neutron::Tab1Record r;
  r.points = static_cast<int>(f.x.size());
  r.offset = append(f.x, x_scale);
  append(f.y, y_scale);
  r.guide = add_energy_guide(r.offset, r.points);
  if (!linear_everywhere(f.laws)) {
    r.regions_offset = static_cast<int>(ints.size());
    r.regions = static_cast<int>(f.laws.size());
    for (std::size_t i = 0; i < f.laws.size(); ++i) {
      ints.push_back(f.breakpoints[i]);
      ints.push_back(f.laws[i]);
    }
  }
  return r;
}

neutron::AngleRecord SecondaryTables::add_angle(const ace::AngleTable& a) {
  neutron::AngleRecord r;
  r.interpolation = a.interpolation;
  switch (a.form) {
    case ace::AngleForm::isotropic: r.tag = neutron::AngleTag::isotropic; break;
    case ace::AngleForm::equiprobable_bins:
      r.tag = neutron::AngleTag::equiprobable_bins;
      r.points = static_cast<int>(a.mu.size());
      r.offset = append(a.mu, 1.0);
      break;
    case ace::AngleForm::tabular:
      r.tag = neutron::AngleTag::tabular;
      r.points = static_cast<int>(a.mu.size());
      r.offset = append(a.mu, 1.0);
      append(a.pdf, 1.0);
      r.guide = add_cdf_guide(append(a.cdf, 1.0), r.points);
      break;
  }
  return r;
}

int SecondaryTables::add_angle_distribution(const ace::AngleDistribution& distribution) {
  neutron::AngleDistributionRecord d;
  d.energies = static_cast<int>(distribution.energy.size());
  d.energy_offset = append(distribution.energy, ev_per_mev);
  d.energy_guide = add_energy_guide(d.energy_offset, d.energies);
  d.first_angle = static_cast<int>(angles.size());
  for (const ace::AngleTable& a : distribution.tables) angles.push_back(add_angle(a));
  angle_distributions.push_back(d);
  return static_cast<int>(angle_distributions.size()) - 1;
}

int SecondaryTables::add_laws(const std::vector<ace::EnergyLaw>& source) {
  const int first = static_cast<int>(laws.size());
  for (const ace::EnergyLaw& law : source) {
    neutron::LawRecord r;
    r.tag = static_cast<neutron::LawTag>(static_cast<int>(law.kind));
    if (source.size() > 1) r.probability = add_tab1(law.probability, ev_per_mev, 1.0);
    switch (law.kind) {
      case ace::EnergyLawKind::level_scattering:
        r.c0 = static_cast<Real>(law.level_threshold * ev_per_mev);
        r.c1 = static_cast<Real>(law.level_mass_ratio);
        break;
      case ace::EnergyLawKind::maxwell_fission:
      case ace::EnergyLawKind::evaporation:
        r.f1 = add_tab1(law.theta, ev_per_mev, ev_per_mev);
        r.c0 = static_cast<Real>(law.restriction * ev_per_mev);
        break;
      case ace::EnergyLawKind::watt:
        r.f1 = add_tab1(law.watt_a, ev_per_mev, ev_per_mev);
        r.f2 = add_tab1(law.watt_b, ev_per_mev, 1.0 / ev_per_mev);
        r.c0 = static_cast<Real>(law.restriction * ev_per_mev);
        break;
      case ace::EnergyLawKind::n_body:
        r.c0 = static_cast<Real>(law.bodies);
        r.c1 = static_cast<Real>(law.total_mass_ratio);
        break;
      default: {  // the tabular laws 4, 44 and 61
        r.energies = static_cast<int>(law.incident_energy.size());
        r.energy_offset = append(law.incident_energy, ev_per_mev);
        r.energy_guide = add_energy_guide(r.energy_offset, r.energies);
        r.incident_interpolation = !law.laws.empty() && law.laws.back() == 1 ? 1 : 2;
        r.first_table = static_cast<int>(outgoing.size());
        for (const ace::OutgoingTable& t : law.outgoing) {
          neutron::OutgoingRecord o;
          o.interpolation = t.interpolation;
          o.discrete = t.discrete_lines;
          o.points = static_cast<int>(t.energy.size());
          o.offset = append(t.energy, ev_per_mev);
          append(t.pdf, 1.0 / ev_per_mev);
          const int cdf = append(t.cdf, 1.0);
          o.guide = add_cdf_guide(cdf + o.discrete, o.points - o.discrete);
          append(t.kalbach_r, 1.0);
          append(t.kalbach_a, 1.0);
          o.first_angle = static_cast<int>(angles.size());
          for (const ace::AngleTable& a : t.angles) angles.push_back(add_angle(a));
          outgoing.push_back(o);
        }
      }
    }
    laws.push_back(r);
  }
  return first;
}

std::size_t SecondaryTables::bytes() const {
  return reals.size() * sizeof(Real) + ints.size() * sizeof(int) + laws.size() * sizeof(neutron::LawRecord) +
         outgoing.size() * sizeof(neutron::OutgoingRecord) + angles.size() * sizeof(neutron::AngleRecord) +
         angle_distributions.size() * sizeof(neutron::AngleDistributionRecord);
}

neutron::SecondaryParams<DeviceMem> SecondaryTables::to_device(const DeviceExec& exec) const {
  neutron::SecondaryParams<DeviceMem> d;
  d.reals = keff::to_device(exec, "keff::secondaries::reals", reals);
  d.ints = keff::to_device(exec, "keff::secondaries::ints", ints);
  d.laws = keff::to_device(exec, "keff::secondaries::laws", laws);
  d.outgoing = keff::to_device(exec, "keff::secondaries::outgoing", outgoing);
  d.angles = keff::to_device(exec, "keff::secondaries::angles", angles);
  d.angle_distributions = keff::to_device(exec, "keff::secondaries::angle_distributions", angle_distributions);
  return d;
}

}  // namespace keff
