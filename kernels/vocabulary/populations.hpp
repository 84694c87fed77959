#pragma once
// Independent populations (settings.populations, "independent replicas" in the literature): a batch's N
// histories split into P equal populations, history i in population i / (N / P). Each population's next
// source is combed from its own histories' fission sites alone (kernels/source_select.hpp), and its
// histories bank sites per collision by its own last k (kernels/batch_control.hpp), so no neutron and no
// number ever passes between populations and their k's are independent: the spread of the P
// populations' k is an uncertainty that covers every correlation between generations, which a run's own
// series cannot see in a hundred batches (src/README.md, "Correlated batches").
#include "kernels/vocabulary/macros.hpp"

#include <cstdint>

namespace keff {

// The most populations: the comb carries each one's bank range in a fixed array (kernels/source_select.hpp).
inline constexpr int max_populations = 32;

// What each population sums over a generation's histories: its three k estimators and the weight its
// histories started with (sites carry CMFD's weights in the batch after its last feedback).
enum PopulationSum : int { population_collision = 0, population_absorption, population_tracklength, population_weight };
inline constexpr int population_sum_count = 4;

struct PopulationSplit {
  int count = 1;
  std::int64_t histories = 1;  // per batch, over all ranks: a multiple of count
  KEFF_INLINE_FUNCTION std::int64_t size() const { return histories / count; }
  KEFF_INLINE_FUNCTION int of(std::int64_t history) const { return static_cast<int>(history / size()); }
};

}  // namespace keff
