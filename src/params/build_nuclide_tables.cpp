#include "src/params/build_nuclide_tables.hpp"

#include "io/library/data_error.hpp"
#include "src/params/build_nuclear_data.hpp"
#include "src/params/to_device.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace keff {
namespace {

// A reaction's cross section at grid point k (0 below its threshold).
double xs_at(const ace::Reaction& r, std::size_t k) {
  return k < static_cast<std::size_t>(r.threshold_index) ? 0.0 : r.xs[k - static_cast<std::size_t>(r.threshold_index)];
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace

bool is_fission_mt(int mt) { return mt == 18 || mt == 19 || mt == 20 || mt == 21 || mt == 38; }

neutron::NuRecord NuclideTables::add_nu(const ace::Multiplicity& nu) {
  neutron::NuRecord r;
  if (!nu.present) return r;
  if (!nu.polynomial.empty()) {
    r.form = neutron::NuForm::polynomial;
    r.count = static_cast<int>(nu.polynomial.size());
    r.offset = secondaries.append(nu.polynomial, 1.0);
  } else {
    r.form = neutron::NuForm::table;
    r.table = secondaries.add_tab1(nu.table, ev_per_mev, 1.0);
  }
  return r;
}

neutron::ReactionRecord NuclideTables::add_reaction(const ace::Reaction& r) {
  neutron::ReactionRecord out;
  out.mt = r.mt;
  out.threshold = r.threshold_index;
  out.xs_offset = secondaries.append(r.xs, 1.0);
  out.q_value = static_cast<Real>(r.q_value * ev_per_mev);
  if (r.multiplicity < 0) {
    out.multiplicity = 0;
    out.yield = secondaries.add_tab1(r.yield, ev_per_mev, 1.0);
  } else {
    out.multiplicity = r.multiplicity;
  }
  out.center_of_mass = r.frame == ace::Frame::center_of_mass ? 1 : 0;
  out.first_law = secondaries.add_laws(r.energy);
  out.laws = static_cast<int>(r.energy.size());
  out.angle = r.angle.energy.empty() && !r.energy.empty() &&
                      (r.energy[0].kind == ace::EnergyLawKind::kalbach_mann ||
                       r.energy[0].kind == ace::EnergyLawKind::correlated_tabular || r.energy[0].kind == ace::EnergyLawKind::n_body)
                  ? -1
                  : secondaries.add_angle_distribution(r.angle);
  return out;
}

int NuclideTables::add_synthetic_nuclide(const NuclideData& d) {
  if (!grid_points.empty()) throw std::logic_error("NuclideTables: a synthetic nuclide among evaluated ones");
  neutron::NuclideRecord rec;
  rec.awr = static_cast<Real>(d.awr);
  rec.elastic_angle = -1;
  rec.first_reaction = static_cast<int>(reactions.size());
  rec.first_fission = static_cast<int>(reactions.size());
  rec.first_group = static_cast<int>(groups.size());
  neutron::NuLine line;
  if (d.fissile) {
    neutron::LawRecord watt;
    watt.tag = neutron::LawTag::fixed_watt;
    watt.c0 = static_cast<Real>(d.watt_a);
    watt.c1 = static_cast<Real>(d.watt_b);
    neutron::ReactionRecord fission;  // its cross section is the grid's fission column (a nuclide's only one)
    fission.mt = 18;
    fission.xs_offset = -1;
    fission.first_law = static_cast<int>(secondaries.laws.size());
    fission.laws = 1;
    secondaries.laws.push_back(watt);
    reactions.push_back(fission);
    rec.fissions = 1;
    rec.nu_total.form = neutron::NuForm::polynomial;
    rec.nu_total.count = 2;
    rec.nu_total.offset = secondaries.append({d.nu0, d.nu1}, 1.0);
    line = {static_cast<Real>(d.nu0), static_cast<Real>(d.nu1)};
  }
  nu_lines.push_back(line);
  nuclides.push_back(rec);
  return static_cast<int>(nuclides.size()) - 1;
}

int NuclideTables::add_nuclide(const ace::IncidentNeutron& n) {
  if (!nu_lines.empty()) throw std::logic_error("NuclideTables: an evaluated nuclide among synthetic ones");
  neutron::NuclideRecord rec;
  rec.awr = static_cast<Real>(n.awr);
  rec.kt = static_cast<Real>(n.temperature_mev * ev_per_mev);

  // Fission: MT 18 where the table has it, else the sum of its chances.
  std::vector<const ace::Reaction*> fission, scattering;
  const ace::Reaction* total_fission = n.find(18);
  for (const ace::Reaction& r : n.reactions) {
    if (is_fission_mt(r.mt)) {
      if (!total_fission || &r == total_fission) fission.push_back(&r);
    } else if (r.has_secondaries) {
      scattering.push_back(&r);
    }
  }

  for (std::size_t k = 0; k < n.energy.size(); ++k) {
    double fission_xs = 0.0, scattering_xs = 0.0;
    for (const ace::Reaction* r : fission) fission_xs += xs_at(*r, k);
    for (const ace::Reaction* r : scattering) scattering_xs += xs_at(*r, k);
    const double parts = n.elastic[k] + n.absorption[k] + fission_xs + scattering_xs;
    if (std::fabs(parts - n.total[k]) > sum_tolerance * n.total[k]) {
      throw DataError("'" + n.file + "': nuclide " + n.name + " (" + n.zaid + "): at " + number(n.energy[k]) +
                      " MeV the total cross section " + number(n.total[k]) + " b is not the sum of its parts, " +
                      number(parts) + " b (elastic, absorption, fission and the reactions with neutrons out)");
    }
    grid_points.push_back({static_cast<Real>(n.energy[k] * ev_per_mev), static_cast<Real>(n.elastic[k]),
                           static_cast<Real>(n.absorption[k]), static_cast<Real>(fission_xs)});
    columns.push_back({static_cast<Real>(scattering_xs), 0});
  }
  grid_offsets.push_back(static_cast<int>(grid_points.size()));
  rec.elastic_angle = secondaries.add_angle_distribution(n.elastic_angle);
  rec.first_reaction = static_cast<int>(reactions.size());
  for (const ace::Reaction* r : scattering) reactions.push_back(add_reaction(*r));
  rec.reactions = static_cast<int>(scattering.size());
  rec.first_fission = static_cast<int>(reactions.size());
  for (const ace::Reaction* r : fission) reactions.push_back(add_reaction(*r));
  rec.fissions = static_cast<int>(fission.size());

  rec.nu_total = add_nu(n.nu_total);
  rec.nu_prompt = add_nu(n.nu_prompt);
  rec.nu_delayed = add_nu(n.nu_delayed);
  add_nu_fission(rec);
  rec.first_group = static_cast<int>(groups.size());
  for (const ace::DelayedGroup& g : n.delayed_groups) {
    neutron::DelayedGroupRecord d;
    d.decay_constant = static_cast<Real>(g.decay_constant * 1.0e8);  // ACE: per shake
    d.probability = secondaries.add_tab1(g.probability, ev_per_mev, 1.0);
    d.first_law = secondaries.add_laws(g.energy);
    d.laws = static_cast<int>(g.energy.size());
    groups.push_back(d);
  }
  rec.groups = static_cast<int>(n.delayed_groups.size());

  if (n.urr.present) {
    neutron::UrrRecord& u = rec.urr;
    u.energies = static_cast<int>(n.urr.energy.size());
    u.bands = n.urr.bands;
    u.offset = secondaries.append(n.urr.energy, ev_per_mev);
    secondaries.append(n.urr.values, 1.0);
    u.interpolation = n.urr.interpolation;
    u.inelastic_flag = n.urr.inelastic_flag;
    u.absorption_flag = n.urr.absorption_flag;
    u.factors = n.urr.factors ? 1 : 0;
  }
  nuclides.push_back(rec);
  return static_cast<int>(nuclides.size()) - 1;
}

void NuclideTables::add_nu_fission(const neutron::NuclideRecord& rec) {
  // The device's own nu(E), run here over the tables built so far.
  neutron::NuclideParams<Kokkos::HostSpace> tables;
  tables.secondaries.reals = Kokkos::View<const Real*, Kokkos::HostSpace>(secondaries.reals.data(), secondaries.reals.size());
  tables.secondaries.ints = Kokkos::View<const int*, Kokkos::HostSpace>(secondaries.ints.data(), secondaries.ints.size());
  const auto first = static_cast<std::size_t>(grid_offsets[grid_offsets.size() - 2]);
  for (std::size_t k = first; k < grid_points.size(); ++k) {
    const GridPoint& p = grid_points[k];
    columns[k].nu_fission = p.fission > 0 ? tables.nu(rec.nu_total, p.energy) * p.fission : Real(0);
  }
}

std::size_t NuclideTables::bytes(EnergyGridKind grid, int hash_bins) const {
  return secondaries.bytes() + nuclides.size() * sizeof(neutron::NuclideRecord) +
         static_cast<std::size_t>(nuclide_grid_bytes(static_cast<double>(nuclides.size()),
                                                     static_cast<double>(grid_points.size()), grid, hash_bins)) +
         columns.size() * sizeof(neutron::EvaluatedColumns) + reactions.size() * sizeof(neutron::ReactionRecord) +
         groups.size() * sizeof(neutron::DelayedGroupRecord);
}

neutron::NuclideParams<DeviceMem> NuclideTables::to_device(const DeviceExec& exec, EnergyGridKind grid, int hash_bins,
                                                               const std::string& source) const {
  return to_device(exec, build_nuclide_grid(exec, grid_offsets, grid_points, grid, hash_bins, source));
}

neutron::NuclideParams<DeviceMem> NuclideTables::to_device(const DeviceExec& exec,
                                                               const NuclideGrid<DeviceMem>& grid) const {
  neutron::NuclideParams<DeviceMem> d;
  d.grid = grid;
  if (!columns.empty()) d.columns = keff::to_device(exec, "keff::evaluated::columns", columns);
  if (!nu_lines.empty()) d.nu_lines = keff::to_device(exec, "keff::nuclides::nu_lines", nu_lines);
  d.nuclides = keff::to_device(exec, "keff::nuclides::nuclides", nuclides);
  d.reactions = keff::to_device(exec, "keff::nuclides::reactions", reactions);
  d.groups = keff::to_device(exec, "keff::nuclides::groups", groups);
  d.secondaries = secondaries.to_device(exec);
  return d;
}

neutron::NuclideParams<DeviceMem> build_synthetic_params(const DeviceExec& exec, const NuclideLibrary& library,
                                                           EnergyGridKind grid, int hash_bins) {
  const NuclideGrid<DeviceMem> grids = build_library_grid(exec, library, grid, hash_bins);
  NuclideTables tables;
  for (const NuclideData& d : library.nuclides) tables.add_synthetic_nuclide(d);
  return tables.to_device(exec, grids);
}

}  // namespace keff
