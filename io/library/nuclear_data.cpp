// Host-side continuous-energy nuclear data.
#include "io/library/nuclear_data.hpp"

#include "io/library/data_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_set>

namespace keff {

int NuclideLibrary::find(const std::string& name) const {
  for (std::size_t i = 0; i < nuclides.size(); ++i) {
    if (nuclides[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool valid_nuclide_name(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

namespace {

// Values outside [lo, hi], NaN included.
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

std::size_t count_outside(const std::vector<double>& values, double lo, double hi) {
  std::size_t bad = 0;
  for (double v : values) bad += !((v >= lo) & (v <= hi));
  return bad;
}

// What the transport kernels rely on beyond finite numbers. A negative nu silently removes neutrons (a
// wrong k, exit 0); Watt parameters whose energies fall outside the grid make the rejection sampler of
// fission energies (kernels/neutron/interactor/law_spectra.hpp, sample_watt_ev) loop forever.
template <class Fail>
void check_physics(const NuclideData& n, const Fail& fail) {
  using namespace physical_limits;
  if (!(n.awr >= min_awr && n.awr <= max_awr)) {
    fail("awr = " + number(n.awr) + " (allowed: " + number(min_awr) + " to " + number(max_awr) +
         ", the nuclide's mass in neutron masses)");
  }
  const bool fission_xs = std::any_of(n.fission.begin(), n.fission.end(), [](double v) { return v > 0.0; });
  if (fission_xs && !n.fissile) fail("has a fission cross section but fissile = 0 (allowed: fissile = 1, or no fission)");
  if (!n.fissile) return;
  // nu is linear in energy, so its extremes over the grid are at the grid's ends.
  for (const double e : {n.energy.front(), n.energy.back()}) {
    const double nu = n.nu0 + n.nu1 * e * 1.0e-6;
    if (!(nu >= min_nu && nu <= max_nu)) {
      fail("nu(" + number(e) + " eV) = " + number(n.nu0) + " + " + number(n.nu1) + " * E[MeV] = " + number(nu) +
           " (allowed: " + number(min_nu) + " to " + number(max_nu) + " neutrons per fission over the energy grid)");
    }
  }
  const double mean_mev = 1.5 * n.watt_a + 0.25 * n.watt_a * n.watt_a * n.watt_b;
  if (!(n.watt_a >= min_watt_a && n.watt_a <= max_watt_a) || !(n.watt_b >= 0.0 && n.watt_b <= max_watt_b) ||
      !(mean_mev <= max_watt_mean_mev)) {
    fail("Watt spectrum a = " + number(n.watt_a) + " MeV, b = " + number(n.watt_b) + " /MeV (mean energy " +
         number(mean_mev) + " MeV; allowed: a from " + number(min_watt_a) + " to " + number(max_watt_a) +
         " MeV, b from 0 to " + number(max_watt_b) + " /MeV, mean energy 1.5 a + a^2 b / 4 at most " +
         number(max_watt_mean_mev) + " MeV)");
  }
}

}  // namespace

void check_nuclide(const NuclideData& n, const std::string& where) {
  const auto fail = [&](const std::string& what) {
    throw DataError(where + ": nuclide '" + n.name + "': " + what);
  };
  if (!valid_nuclide_name(n.name)) fail(std::string("invalid name (allowed: ") + nuclide_name_rule + ")");
  const std::size_t points = n.energy.size();
  if (points < 2) fail("energy grid has " + std::to_string(points) + " points (allowed: at least 2)");
  for (const auto& [column, values] : {std::pair{"elastic", &n.elastic}, std::pair{"capture", &n.capture},
                                       std::pair{"fission", &n.fission}}) {
    if (values->size() != points) {
      fail(std::string(column) + " has " + std::to_string(values->size()) + " values, the energy grid " +
           std::to_string(points));
    }
    // Count first and look for where only when something is wrong: the common case stays one tight loop.
    if (count_outside(*values, 0.0, std::numeric_limits<double>::max()) != 0) {
      const auto at = std::find_if(values->begin(), values->end(),
                                   [](double v) { return !(v >= 0.0 && v <= std::numeric_limits<double>::max()); });
      fail(std::string(column) + "[" + std::to_string(at - values->begin()) +
           "] is not a finite non-negative cross section");
    }
  }
  std::size_t descending = 0;
  for (std::size_t j = 1; j < points; ++j) descending += !(n.energy[j] > n.energy[j - 1]);
  if (descending != 0 || !(n.energy[0] > 0.0) || !(n.energy[points - 1] <= std::numeric_limits<double>::max())) {
    if (!(n.energy[0] > 0.0)) fail("energy[0] is not positive");
    for (std::size_t j = 1; j < points; ++j) {
      if (!(n.energy[j] > n.energy[j - 1])) fail("energy[" + std::to_string(j) + "] is not above energy[" + std::to_string(j - 1) + "]");
    }
    fail("energy[" + std::to_string(points - 1) + "] is not finite");
  }
  for (double v : {n.nu0, n.nu1, n.watt_a, n.watt_b}) {
    if (!std::isfinite(v)) fail("nu or Watt parameters are not finite");
  }
  check_physics(n, fail);
}

void check_library(const NuclideLibrary& library, const std::string& where) {
  if (library.nuclides.empty()) throw DataError(where + ": the library has no nuclides");
  std::unordered_set<std::string> names;
  std::unordered_set<std::int32_t> ids;
  for (const auto& n : library.nuclides) {
    check_nuclide(n, where);
    if (!names.insert(n.name).second) throw DataError(where + ": nuclide '" + n.name + "' appears twice");
    if (!ids.insert(n.id).second) {
      throw DataError(where + ": nuclide '" + n.name + "': id " + std::to_string(n.id) + " is used twice");
    }
  }
}

}  // namespace keff
