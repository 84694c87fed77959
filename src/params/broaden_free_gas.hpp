#pragma once
// Synthetic (and library) data broadened once, when Params are built, for the free-gas targets of each
// material's temperature, as NJOY's broadr broadens an evaluation before transport: at each grid point
// where a target moves (kernels/free_gas_rate.hpp, target_moves), the elastic cross section times
// free_gas_factor, the rate a constant cross section has off a Maxwellian target. The lookup then
// interpolates the broadened column and computes no erf or exp (kernels/neutron/data/nuclide_data.hpp).
// A nuclide that materials use at several temperatures gets one broadened copy per temperature, appended
// after the library's nuclides; at 0 K (settings.thermal = "none") it stays as it is.
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"

#include <map>
#include <string>
#include <utility>

namespace keff {

// kT in eV of a material's targets: its temperature's, or 0 with settings.thermal = "none".
double material_kt(const model::Problem& problem, const model::Material& material);

struct BroadenedNuclides {
  NuclideLibrary library;  // the library's nuclides (broadened at their first temperature), then copies
  // Index in `library` of nuclide `name` in a material at `kt` (eV), or -1 when the library lacks it.
  int find(const std::string& name, double kt) const;

  std::map<std::pair<int, double>, int> at_temperature;  // (index in the original library, kT) -> index
};

BroadenedNuclides broaden_free_gas(const NuclideLibrary& library, const model::Problem& problem);

// nuclide broadened at kT: the elastic cross section of each grid point where its target moves times
// free_gas_factor there.
void broaden_elastic(NuclideData& nuclide, double kt);

}  // namespace keff
