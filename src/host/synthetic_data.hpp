#pragma once
// Synthetic continuous-energy nuclear data: deterministic from a seed, physically shaped (1/v absorption,
// resonance peaks, constant potential scattering), with the sizes of real libraries.
#include "io/library/nuclear_data.hpp"

#include <cstdint>
#include <string>

namespace keff {

struct SyntheticDataSpec {
  int nuclides = 68;
  int gridpoints = 11303;
  std::uint64_t seed = 20251;
  bool flat = false;  // energy-independent cross sections and nu: for infinite-medium verification
};

// Nuclide i's name: the first few are named after the nuclides they imitate (H1, O16, B10, Zr90, Fe56,
// U235, U238, Pu239, Pu240, Pu241); the rest are fission-product-like "FP001", "FP002", ...
std::string synthetic_nuclide_name(int index);
int synthetic_named_count();

// Throws std::invalid_argument for sizes past the limits, and Interrupted when this process receives
// SIGINT or SIGTERM (asked after each nuclide; a collective caller agrees on it over its ranks).
NuclideLibrary generate_synthetic_library(const SyntheticDataSpec& spec);

}  // namespace keff
