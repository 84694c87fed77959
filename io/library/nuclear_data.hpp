#pragma once
// Continuous-energy nuclear data on the host, as generated, read from a library or about to be written.
// src/params/build_nuclide_tables turns a NuclideLibrary into device NuclideParams.
#include <cstdint>
#include <string>
#include <vector>

namespace keff {

struct NuclideData {
  std::string name;          // e.g. "U235", "FP017"
  std::int32_t id = 0;       // identifier (ZAID-like), unique in a library
  double awr = 1.0;          // atomic weight ratio
  bool fissile = false;
  double nu0 = 0.0, nu1 = 0.0;          // nu(E) = nu0 + nu1 * E[MeV]
  double watt_a = 0.988, watt_b = 2.249; // Watt spectrum, MeV and 1/MeV
  std::vector<double> energy;            // eV ascending
  std::vector<double> elastic, capture, fission;  // barns; total is their sum
};

struct NuclideLibrary {
  std::vector<NuclideData> nuclides;
  std::string path;  // the file or directory it was read from; empty when generated in memory
  // Index of the nuclide called `name`, or -1.
  int find(const std::string& name) const;
};

// The physical range of a nuclide's scalars, as check_nuclide enforces it.
namespace physical_limits {
inline constexpr double min_awr = 0.5, max_awr = 300.0;   // hydrogen is 0.999, the heaviest nuclides ~250
inline constexpr double min_nu = 0.5, max_nu = 10.0;      // fissile nuclides: 2 to 5 below 20 MeV
inline constexpr double min_watt_a = 0.1, max_watt_a = 10.0;  // MeV; actinides ~0.8 to 1.2
inline constexpr double max_watt_b = 20.0;                // 1/MeV; actinides ~1 to 6
inline constexpr double max_watt_mean_mev = 10.0;         // the sampler rejects energies above 20 MeV
}  // namespace physical_limits

// Checks what every consumer of a nuclide relies on: a usable name (it becomes an HDF5 group and a file
// name: letters, digits, '_', '-', '.', not starting with '.'), at least two strictly ascending positive
// energies, every column as long as the grid, finite non-negative cross sections and finite scalars,
// and physics: awr in range, fission only in fissile nuclides, and for fissile ones nu(E) in range over
// the grid and a Watt spectrum whose energies the fission-energy sampler can reach. Every reader (text,
// HDF5), the generator, the library writers and `keff data info` go through it.
// Throws DataError("<where>: nuclide '<name>': <what is wrong>").
void check_nuclide(const NuclideData& nuclide, const std::string& where);
// check_nuclide for each, and names and ids unique.
void check_library(const NuclideLibrary& library, const std::string& where);
bool valid_nuclide_name(const std::string& name);
// What valid_nuclide_name allows, for messages.
inline constexpr const char* nuclide_name_rule = "1 to 64 of A-Z a-z 0-9 _ - ., not starting with '.'";

}  // namespace keff
