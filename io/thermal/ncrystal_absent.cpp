// ncrystal.hpp in a build without NCrystal (cmake/KeffNCrystal.cmake): every use is refused with the
// install line.
#include "io/thermal/ncrystal.hpp"

namespace keff {

bool ncrystal_built() { return false; }
std::string element_symbol(int z) { return "Z=" + std::to_string(z); }
std::string ncrystal_version() { return ""; }
NCrystalMaterial open_ncrystal(const std::string&, double, const NCrystalLookup&) { throw ThermalError(ncrystal_install_hint); }
ThermalTable tabulate_ncrystal(const NCrystalMaterial&, const ThermalTableSpec&, std::uint64_t, int,
                               const std::function<bool()>&) {
  throw ThermalError(ncrystal_install_hint);
}
void tabulate_ncrystal_into(const NCrystalMaterial&, const ThermalTableSpec&, std::uint64_t, int,
                            const std::function<bool()>&, const ThermalTableOut&) {
  throw ThermalError(ncrystal_install_hint);
}

std::vector<double> ncrystal_cross_sections(const NCrystalMaterial&, const std::vector<double>&) {
  throw ThermalError(ncrystal_install_hint);
}
std::vector<std::pair<double, double>> ncrystal_scatters(const NCrystalMaterial&, double, int, std::uint64_t) {
  throw ThermalError(ncrystal_install_hint);
}

struct NCrystalDirect::Impl {};
NCrystalDirect::NCrystalDirect(const std::vector<NCrystalMaterial>&, int, bool) { throw ThermalError(ncrystal_install_hint); }
NCrystalDirect::~NCrystalDirect() = default;
double NCrystalDirect::xs(int, double) const { return 0; }
void NCrystalDirect::scatter(int, double, double (*)(void*), void*, double*, double*) const {}
long long NCrystalDirect::calls_without_a_row() const { return 0; }
double ncrystal_direct_xs(const void*, int, double) { return 0; }
void ncrystal_direct_scatter(const void*, int, double, double (*)(void*), void*, double*, double*) {}

}  // namespace keff
