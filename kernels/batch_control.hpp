#pragma once
// What the histories of one batch share: their coordinates (RNG streams) and their populations'
// fission-site normalisation.
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/populations.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff {

struct BatchControl {
  BatchCoordinates coords;
  // Fission-site production is normalised by the last generation's k of the history's own population
  // (one population: the batch's k), so that independent populations share nothing, not even this
  // (kernels/vocabulary/populations.hpp).
  PopulationSplit populations;
  Real k_prev[max_populations] = {1.0};
  int max_events = 100000; // flights per history before it counts as lost

  KEFF_INLINE_FUNCTION Real k_prev_of(std::int64_t history) const { return k_prev[populations.of(history)]; }
};

}  // namespace keff
