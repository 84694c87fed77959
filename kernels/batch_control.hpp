#pragma once
// What every history of one batch shares: its coordinates (RNG streams) and the fission-site normalisation.
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff {

struct BatchControl {
  BatchCoordinates coords;
  Real k_prev = 1.0;       // normalises fission-site production
  int max_events = 100000; // flights per history before it counts as lost
};

}  // namespace keff
