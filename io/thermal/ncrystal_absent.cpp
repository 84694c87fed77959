// ncrystal.hpp in a build without NCrystal (cmake/KeffNCrystal.cmake): every use is refused with the
// install line.
#include "io/thermal/ncrystal.hpp"

namespace keff {

bool ncrystal_built() { return false; }
std::string element_symbol(int z) { return "Z=" + std::to_string(z); }
std::string ncrystal_version() { return ""; }
double ncrystal_temperature(const std::string&) { throw ThermalError(ncrystal_install_hint); }
NCrystalMaterial open_ncrystal(const std::string&, double) { throw ThermalError(ncrystal_install_hint); }
ThermalTable tabulate_ncrystal(const NCrystalMaterial&, const ThermalTableSpec&, std::uint64_t) {
  throw ThermalError(ncrystal_install_hint);
}

std::vector<double> ncrystal_cross_sections(const NCrystalMaterial&, const std::vector<double>&) {
  throw ThermalError(ncrystal_install_hint);
}
std::vector<std::pair<double, double>> ncrystal_scatters(const NCrystalMaterial&, double, int, std::uint64_t) {
  throw ThermalError(ncrystal_install_hint);
}

}  // namespace keff
