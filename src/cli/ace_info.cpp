#include "src/cli/ace_info.hpp"

#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xsdir.hpp"
#include "io/library/data_error.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

namespace keff {
namespace {

// sigma(E) on the table's grid, linear-linear between points (ACE's convention for ESZ and SIG).
double at_energy(const ace::IncidentNeutron& n, const std::vector<double>& xs, int first, double e) {
  const auto& grid = n.energy;
  auto upper = std::upper_bound(grid.begin(), grid.end(), e);
  std::size_t i = upper == grid.begin() ? 0 : static_cast<std::size_t>(upper - grid.begin()) - 1;
  i = std::min(i, grid.size() - 2);
  auto value = [&](std::size_t k) { return k < static_cast<std::size_t>(first) ? 0.0 : xs[k - first]; };
  const double f = (e - grid[i]) / (grid[i + 1] - grid[i]);
  return value(i) + f * (value(i + 1) - value(i));
}

std::string law_list(const std::vector<ace::EnergyLaw>& laws) {
  std::string s;
  for (const auto& law : laws) {
    if (!s.empty()) s += '+';
    s += std::to_string(static_cast<int>(law.kind));
  }
  return s;
}

void describe(const ace::IncidentNeutron& n, bool reactions) {
  constexpr double thermal = 2.53e-8;  // MeV
  std::set<int> laws;
  for (const auto& r : n.reactions) {
    for (const auto& law : r.energy) laws.insert(static_cast<int>(law.kind));
  }
  std::string law_text;
  for (int l : laws) {
    if (!law_text.empty()) law_text += ' ';
    law_text += std::to_string(l);
  }
  double fission = 0.0, capture = 0.0;
  if (const auto* r = n.find(18)) fission = at_energy(n, r->xs, r->threshold_index, thermal);
  if (const auto* r = n.find(102)) capture = at_energy(n, r->xs, r->threshold_index, thermal);
  std::printf("%-7s %-10s %7.1f K  %7zu energies  %3zu reactions  laws %-16s  nu %-5s  delayed %zu  ptables %s\n",
              n.name.c_str(), n.zaid.c_str(), n.temperature_mev / ace::boltzmann_mev_per_k, n.energy.size(),
              n.reactions.size(), law_text.empty() ? "-" : law_text.c_str(),
              n.nu_total.present ? (n.nu_prompt.present ? "p+t" : "total") : "-", n.delayed_groups.size(),
              n.urr.present ? (std::to_string(n.urr.energy.size()) + "x" + std::to_string(n.urr.bands)).c_str() : "-");
  std::printf("        at 0.0253 eV: total %.4g b, elastic %.4g b, fission %.4g b, capture %.4g b\n",
              at_energy(n, n.total, 0, thermal), at_energy(n, n.elastic, 0, thermal), fission, capture);
  if (!reactions) return;
  for (const auto& r : n.reactions) {
    std::printf("        MT %3d  Q %10.4g MeV  threshold %10.4g MeV  %s  neutrons %s  laws %s\n", r.mt, r.q_value,
                n.energy[static_cast<std::size_t>(r.threshold_index)],
                r.has_secondaries ? (r.frame == ace::Frame::lab ? "LAB" : "CM ") : "-  ",
                !r.has_secondaries ? "0" : r.multiplicity == 19 ? "nu" : r.multiplicity < 0 ? "table" : std::to_string(r.multiplicity).c_str(),
                r.energy.empty() ? "-" : law_list(r.energy).c_str());
  }
}

}  // namespace

void describe_ace_library(const std::string& xsdir_path, const std::vector<std::string>& nuclides, bool reactions) {
  const auto start = std::chrono::steady_clock::now();
  const ace::Xsdir xsdir = ace::read_xsdir(xsdir_path);
  std::printf("library  %s (%zu entries)\n", xsdir.path.c_str(), xsdir.entries.size());
  std::size_t read = 0;
  for (const ace::XsdirEntry& e : xsdir.entries) {
    if (!e.neutron()) continue;
    const std::string name = ace::name_of_za(e.za);
    if (!nuclides.empty() && std::find(nuclides.begin(), nuclides.end(), name) == nuclides.end()) continue;
    if (e.type != 1) throw DataError("'" + xsdir.path + "': " + e.zaid + " is a binary (type 2) table; keff reads type 1");
    describe(ace::read_incident_neutron(ace::read_ace_table(e.file, e.address, e.zaid, name), name), reactions);
    ++read;
  }
  for (const std::string& wanted : nuclides) {
    bool found = false;
    for (const auto& e : xsdir.entries) found = found || (e.neutron() && ace::name_of_za(e.za) == wanted);
    if (!found) throw DataError("'" + xsdir.path + "': no neutron table of " + wanted);
  }
  std::printf("verified %zu tables, every block keff reads, in %.2f s\n", read,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace keff
