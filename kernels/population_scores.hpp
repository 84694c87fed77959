#pragma once
// Each population's k estimators (kernels/vocabulary/populations.hpp): what a history adds to the batch's
// collision, absorption and track-length sums, and its weight, added again to its population's row when
// it ends.
// Fixed-point integers like the batch's counters (kernels/batch_counters.hpp), so the sums are the same
// for any thread or rank count and any order histories end in, and the rows add up to the batch's sums.
// Added through a ScatterView (kernels/scatter_sums.hpp): 4 adds per history onto 4 x populations sums
// that every thread shares, which as atomics on 2 threads took 4 % of the UD2O sphere's run.
#include "kernels/fixed_point.hpp"
#include "kernels/particle.hpp"
#include "kernels/scatter_sums.hpp"
#include "kernels/vocabulary/populations.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

template <class Mem>
struct PopulationScores {
  // [population][PopulationSum]; not scored with one population
  ScatterSums<Fixed* [population_sum_count], Mem> sums;
  PopulationSplit split;

  KOKKOS_INLINE_FUNCTION void score(const Particle& p) const {
    if (split.count < 2) return;
    const int q = split.of(p.index);
    const auto add = sums.access();
    add(q, population_collision) += to_fixed<estimator_fraction_bits>(p.k_collision);
    add(q, population_absorption) += to_fixed<estimator_fraction_bits>(p.k_absorption);
    add(q, population_tracklength) += to_fixed<estimator_fraction_bits>(p.k_tracklength);
    add(q, population_weight) += to_fixed<estimator_fraction_bits>(p.weight);  // a history's weight is its start's
  }
};

}  // namespace keff
