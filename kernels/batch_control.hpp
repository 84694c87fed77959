#pragma once
// What every history of one batch shares: the RNG coordinates and the fission-site normalisation.
#include "types.hpp"

#include <cstdint>

namespace keff {

// What every history of one batch shares.
struct BatchControl {
  std::uint64_t seed = 1;
  std::uint64_t batch = 1;          // 1-based; 0 is the initial source
  std::uint64_t n_global = 0;       // histories in the batch over all ranks
  std::int64_t first_index = 0;     // global index of this rank's first source site
  Real k_prev = 1.0;                // normalises fission-site production
  int max_events = 100000;
};

}  // namespace keff
