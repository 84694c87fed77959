#pragma once
// Continuous-energy nuclear data on the host, as generated, read from a library or about to be written.
// src/build_nuclear_data turns a NuclideLibrary into device NuclideParams.
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
  // Index of the nuclide called `name`, or -1.
  int find(const std::string& name) const;
};

}  // namespace keff
