#pragma once
// Synthetic continuous-energy nuclear data: deterministic from a seed, physically shaped (1/v absorption,
// resonance peaks, constant potential scattering), with the sizes of real libraries.
#include "io/library/nuclear_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

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
// Which moderator nuclide `name` is (0 to 3: C12, C13, H2, Be9), or -1.
int synthetic_moderator_index(const std::string& name);

// `moderators`: light moderator nuclides (C12, C13, H2, Be9) appended after the spec's nuclides, each
// once: those the materials name. Their data does not depend on spec.nuclides. (Two overloads, not a
// member of the spec or a default argument: either crashed nvcc 13.5's front end, "Compilation aborted.",
// on tests/test_library_format.cpp.)
// Throws std::invalid_argument for sizes past the limits or an unknown moderator, and Interrupted when
// this process receives SIGINT or SIGTERM (asked after each nuclide; a collective caller agrees on it
// over its ranks).
NuclideLibrary generate_synthetic_library(const SyntheticDataSpec& spec, const std::vector<std::string>& moderators);
NuclideLibrary generate_synthetic_library(const SyntheticDataSpec& spec);

}  // namespace keff
