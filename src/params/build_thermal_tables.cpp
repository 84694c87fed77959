#include "src/params/build_thermal_tables.hpp"

#include "io/input/input.hpp"
#include "io/input/settings_rows.hpp"
#include "io/thermal/ncrystal.hpp"
#include "io/test_point.hpp"
#include "kernels/vocabulary/splitmix64.hpp"
#include "src/host/interrupt.hpp"
#include "src/params/to_device.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace keff {

namespace {

// Atom fractions differing by more than this (absolute) are a different material; within it, impurities
// (boron in water) and rounded densities pass.
constexpr double composition_tolerance = 0.01;

std::string fractions_text(const std::map<int, double>& fractions) {
  std::string text;
  for (const auto& [z, f] : fractions) {
    char value[32];
    std::snprintf(value, sizeof value, "%.4f", f);
    text += (text.empty() ? "" : ", ") + element_symbol(z) + " " + value;
  }
  return text;
}

// The material's nuclides by element (Z from each nuclide's ZA id) against NCrystal's composition.
void check_composition(const model::Material& mat, const NuclideLibrary& library) {
  std::map<int, double> ours, theirs;
  double total = 0;
  for (const auto& a : mat.nuclides) {
    const int idx = library.find(a.name);
    if (idx < 0) continue;  // build_material_params names it
    ours[library.nuclides[static_cast<std::size_t>(idx)].id / 1000] += a.density;
    total += a.density;
  }
  for (auto& [z, f] : ours) f /= total;
  for (const auto& e : mat.ncrystal_opened.elements) theirs[e.z] += e.fraction;
  bool same = true;
  for (const auto* side : {&ours, &theirs}) {
    for (const auto& [z, f] : *side) {
      const double a = ours.count(z) ? ours.at(z) : 0.0, b = theirs.count(z) ? theirs.at(z) : 0.0;
      if (!(std::abs(a - b) <= composition_tolerance)) same = false;
    }
  }
  if (!same) {
    throw InputError(mat.where.str() + ": material '" + mat.name + "': ncrystal \"" + mat.ncrystal +
                     "\" is made of " + fractions_text(theirs) + ", but its nuclides are " + fractions_text(ours) +
                     " (atom fractions by element; allowed: equal within 0.01, so that NCrystal scatters off the "
                     "atoms that absorb)");
  }
}

double table_bytes(int tables, const model::Settings& s) {
  const double n_e = s.thermal_table_energies, n_s = s.thermal_table_samples;
  return static_cast<double>(sizeof(Real)) * (n_e * (1 + 2.0 * tables) + 3.0 * tables * n_e * n_s);
}

int distinct_tables(const model::Problem& problem) {
  std::set<std::string> distinct;
  for (const model::Material& m : problem.materials) {
    if (!m.ncrystal.empty()) distinct.insert(m.ncrystal_opened.cfg);
  }
  return static_cast<int>(distinct.size());
}

// The tables on the host, laid out as the device's, filled one material at a time.
struct HostTables {
  HostView<Real*> energy;
  HostView<Real**, Rows> xs_elastic, xs_inelastic;
  HostView<Real***, Rows> elastic_mu, inelastic_shift, inelastic_mu;
};

HostTables host_tables(std::size_t n_t, const ThermalTableSpec& spec) {
  const auto n_e = static_cast<std::size_t>(spec.energies), n_s = static_cast<std::size_t>(spec.samples);
  return {host_view<Real*>("keff::xs::thermal_energy", n_e),
          host_view<Real**, Rows>("keff::xs::thermal_xs_elastic", n_t, n_e),
          host_view<Real**, Rows>("keff::xs::thermal_xs_inelastic", n_t, n_e),
          host_view<Real***, Rows>("keff::xs::thermal_elastic_mu", n_t, n_e, n_s),
          host_view<Real***, Rows>("keff::xs::thermal_inelastic_shift", n_t, n_e, n_s),
          host_view<Real***, Rows>("keff::xs::thermal_inelastic_mu", n_t, n_e, n_s)};
}

void copy_table(const HostTables& h, std::size_t t, const ThermalTable& table) {
  const std::size_t n_e = h.energy.extent(0), n_s = h.elastic_mu.extent(2);
  for (std::size_t i = 0; i < n_e; ++i) {
    h.energy(i) = table.energy[i];
    h.xs_elastic(t, i) = table.xs_elastic[i];
    h.xs_inelastic(t, i) = table.xs_inelastic[i];
    for (std::size_t j = 0; j < n_s; ++j) {
      h.elastic_mu(t, i, j) = table.elastic_mu[i * n_s + j];
      h.inelastic_shift(t, i, j) = table.inelastic_shift[i * n_s + j];
      h.inelastic_mu(t, i, j) = table.inelastic_mu[i * n_s + j];
    }
  }
}

ThermalTables<DeviceMem> tables_to_device(const DeviceExec& exec, Kokkos::View<const int*, DeviceMem> table_of,
                                          const HostTables& h, const ThermalTableSpec& spec) {
  ThermalTables<DeviceMem> th;
  th.table = table_of;
  th.energy = to_device(exec, h.energy);
  th.xs_elastic = to_device(exec, h.xs_elastic);
  th.xs_inelastic = to_device(exec, h.xs_inelastic);
  th.elastic_mu = to_device(exec, h.elastic_mu);
  th.inelastic_shift = to_device(exec, h.inelastic_shift);
  th.inelastic_mu = to_device(exec, h.inelastic_mu);
  exec.fence("keff::params::thermal_tables");
  th.cutoff = spec.cutoff_ev;
  th.log_min = std::log(spec.min_ev);
  th.inv_log_step = static_cast<double>(spec.energies - 1) / std::log(spec.cutoff_ev / spec.min_ev);
  return th;
}

}  // namespace

ThermalTables<DeviceMem> thermal_tables_to_device(const DeviceExec& exec, Kokkos::View<const int*, DeviceMem> table_of,
                                                  const std::vector<ThermalTable>& tables, const ThermalTableSpec& spec) {
  const HostTables h = host_tables(tables.size(), spec);
  for (std::size_t t = 0; t < tables.size(); ++t) copy_table(h, t, tables[t]);
  return tables_to_device(exec, table_of, h, spec);
}

ThermalTablesMemory thermal_tables_memory(const model::Problem& problem, int threads) {
  ThermalTablesMemory m;
  const int tables = distinct_tables(problem);
  if (tables == 0 || !problem.settings.thermal_tables) return m;
  const auto& s = problem.settings;
  m.tables = table_bytes(tables, s);
  // Each thread's scatters of one energy (draws x samples pairs of doubles) as it sorts them.
  m.building = static_cast<double>(threads) * s.thermal_table_draws * s.thermal_table_samples * 16.0;
  return m;
}

ThermalTablesBuilt build_thermal_tables(const DeviceExec& exec, const model::Problem& problem,
                                        const NuclideLibrary& library) {
  const auto start = std::chrono::steady_clock::now();
  const auto& settings = problem.settings;
  const ThermalTableSpec spec = settings::thermal_table_spec(settings);

  // One table per distinct NCrystal material (its cfg as NCrystal reads it, temperature and data digest
  // included): the materials of a lattice that share one water share its table.
  std::vector<int> table_of;
  std::vector<const model::Material*> thermal;
  std::map<std::string, int> table_of_cfg;
  for (const model::Material& mat : problem.materials) {
    if (mat.ncrystal.empty()) {
      table_of.push_back(-1);
      continue;
    }
    check_composition(mat, library);
    const auto [it, added] = table_of_cfg.emplace(mat.ncrystal_opened.cfg, static_cast<int>(thermal.size()));
    if (added) thermal.push_back(&mat);
    table_of.push_back(it->second);
  }
  ThermalTablesBuilt built;
  built.count = static_cast<int>(thermal.size());
  built.tables.table = to_device(exec, "keff::xs::thermal_table_of", table_of);
  if (thermal.empty()) return built;
  built.tables.cutoff = spec.cutoff_ev;

  if (!settings.thermal_tables) {
    if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible) {
      throw InputError(problem.source_name + ": settings.thermal_tables = false: NCrystal runs on the host, and this "
                       "keff transports on " + DeviceExec::name() + " (allowed: true, the tables every backend samples)");
    }
    std::vector<NCrystalMaterial> materials;
    for (const model::Material* mat : thermal) materials.push_back(mat->ncrystal_opened);
    try {
      built.direct = std::make_shared<const NCrystalDirect>(materials, exec.concurrency(), settings.ncrystal_fresh_cache_per_call);
    } catch (const ThermalError& e) {
      throw InputError(problem.source_name + ": ncrystal: " + e.what());
    }
    built.tables.direct = {built.direct.get(), &ncrystal_direct_xs, &ncrystal_direct_scatter};
    built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return built;
  }

  // Each material's table is written straight into the host copy of the device tables (on a host backend,
  // the device tables themselves): thermal_tables_memory. A signal stops the work between energies.
  const HostTables host = host_tables(thermal.size(), spec);
  const auto stop = [] { return interrupt_signal() != 0; };
  for (std::size_t t = 0; t < thermal.size(); ++t) {
    const model::Material& mat = *thermal[t];
    test_point("ncrystal-table:" + std::to_string(t + 1));
    // One stream per material, from the run's seed: a table's sampling noise is part of the run's. Every
    // table shares the energy grid: each writes the same energies.
    const ThermalTableOut out{host.energy.data(), &host.xs_elastic(t, 0), &host.xs_inelastic(t, 0),
                              &host.elastic_mu(t, 0, 0), &host.inelastic_shift(t, 0, 0), &host.inelastic_mu(t, 0, 0)};
    try {
      tabulate_ncrystal_into(mat.ncrystal_opened, spec, settings.seed * splitmix64_gamma + t, exec.concurrency(),
                             stop, out);
    } catch (const ThermalTableStopped& e) {
      built.stopped = "while the NCrystal table of material '" + mat.name + "' (" + std::to_string(t + 1) + " of " +
                      std::to_string(thermal.size()) + ") was built, after " + std::to_string(e.done) + " of " +
                      std::to_string(e.energies) + " energies";
      return built;
    } catch (const ThermalError& e) {
      throw InputError(mat.where.str() + ": material '" + mat.name + "': ncrystal: " + e.what());
    }
  }
  built.tables = tables_to_device(exec, built.tables.table, host, spec);
  built.bytes = table_bytes(static_cast<int>(thermal.size()), settings);
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

}  // namespace keff
