#pragma once
// Step: a history has ended (absorbed, leaked or lost). Its estimator scores become fixed-point integers
// and join the batch's counters, so the totals do not depend on the order histories end in. Starts are
// counted too, where they happen, for the conservation check of every batch.
#include "kernels/particle.hpp"
#include "kernels/batch_counters.hpp"

namespace keff {

// A history has started: counted apart from its end, so that a history lost between ranks shows.
KOKKOS_INLINE_FUNCTION void count_start(const Particle& p, BatchCounters& sums) {
  ++sums.histories;
  sums.weight_started += to_fixed<estimator_fraction_bits>(p.weight);
}

KOKKOS_INLINE_FUNCTION void finish_history(const Particle& p, BatchCounters& sums) {
  sums.weight_ended += to_fixed<estimator_fraction_bits>(p.weight);
  sums.collisions += p.n_collisions;
  sums.absorbed += p.fate == Fate::absorbed;
  sums.leaked += p.fate == Fate::leaked;
  if (p.fate == Fate::leaked) sums.weight_leaked += to_fixed<estimator_fraction_bits>(p.weight);
  sums.lost += p.fate == Fate::lost;
  sums.k_collision += to_fixed<estimator_fraction_bits>(p.k_collision);
  sums.k_absorption += to_fixed<estimator_fraction_bits>(p.k_absorption);
  sums.k_tracklength += to_fixed<estimator_fraction_bits>(p.k_tracklength);
}

}  // namespace keff
