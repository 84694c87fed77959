#include "src/params/broaden_free_gas.hpp"

#include "kernels/free_gas_rate.hpp"
#include "kernels/vocabulary/types.hpp"

#include <algorithm>
#include <cmath>

namespace keff {

double material_kt(const model::Problem& problem, const model::Material& material) {
  return problem.settings.thermal == model::ThermalModel::none ? 0.0 : constants::boltzmann_ev_per_k * material.temperature;
}

void broaden_elastic(NuclideData& nuclide, double kt) {
  for (std::size_t i = 0; i < nuclide.energy.size(); ++i) {
    const double e = nuclide.energy[i];
    if (target_moves(e, nuclide.awr, kt)) nuclide.elastic[i] *= free_gas_factor(std::sqrt(nuclide.awr * e / kt));
  }
}

int BroadenedNuclides::find(const std::string& name, double kt) const {
  const int original = library.find(name);  // the originals come first, under their own names
  if (original < 0) return -1;
  const auto it = at_temperature.find({original, kt});
  return it == at_temperature.end() ? original : it->second;
}

BroadenedNuclides broaden_free_gas(const NuclideLibrary& library, const model::Problem& problem) {
  BroadenedNuclides out;
  out.library = library;
  for (const model::Material& mat : problem.materials) {
    const double kt = material_kt(problem, mat);
    if (kt <= 0) continue;
    for (const model::NuclideAmount& a : mat.nuclides) {
      const int original = library.find(a.name);
      if (original < 0 || out.at_temperature.count({original, kt})) continue;  // build_material_params names it
      // The first temperature broadens the nuclide in place; each further one a copy of the original.
      const bool first = std::none_of(out.at_temperature.begin(), out.at_temperature.end(),
                                      [&](const auto& entry) { return entry.first.first == original; });
      int index = original;
      if (!first) {
        index = static_cast<int>(out.library.nuclides.size());
        out.library.nuclides.push_back(library.nuclides[static_cast<std::size_t>(original)]);
      }
      broaden_elastic(out.library.nuclides[static_cast<std::size_t>(index)], kt);
      out.at_temperature[{original, kt}] = index;
    }
  }
  return out;
}

}  // namespace keff
