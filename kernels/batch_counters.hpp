#pragma once
// The counters every history of a batch adds to: the k estimators, the fates of histories and their
// weights. Sums of fixed-point integers: identical for any thread or rank count.
#include "kernels/fixed_point.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// What one batch's histories add up to. Sums of integers: identical for any thread or rank count.
struct BatchCounters {
  Fixed k_collision = 0;    // sum of weight * nu Sigma_f / Sigma_t at collisions
  Fixed k_absorption = 0;   // sum of weight * nu sigma_f / sigma_a at absorptions
  Fixed k_tracklength = 0;  // sum of weight * distance * nu Sigma_f along flights
  std::int64_t collisions = 0;
  std::int64_t histories = 0;  // started (counted where a history starts)
  std::int64_t absorbed = 0;   // ended so (counted where it ends, on whichever rank)
  std::int64_t leaked = 0;
  std::int64_t lost = 0;
  Fixed weight_started = 0;    // statistical weight, fixed point like the estimators
  Fixed weight_ended = 0;
  Fixed weight_leaked = 0;     // of the histories that leaked: the leakage fraction's numerator
  // Secondary neutrons ((n,2n), ...: kernels/transport/secondary_stack.hpp) transported after the
  // neutron that made them, in the same history; each ends as absorbed, leaked or lost as well.
  std::int64_t secondaries = 0;
  Fixed weight_secondary = 0;

  // One list of the counters, as f(&BatchCounters::counter): what += (the sums over threads and slots)
  // and the sum over ranks (src/driver/simulation.cpp) iterate, so a new counter is declared above and
  // named here. The member pointers are handed to f, not kept in an array: device code reads a
  // namespace-scope constexpr array under CUDA only in constant expressions.
  template <class F>
  KOKKOS_INLINE_FUNCTION static constexpr void for_each_counter(F&& f) {
    f(&BatchCounters::k_collision), f(&BatchCounters::k_absorption), f(&BatchCounters::k_tracklength);
    f(&BatchCounters::collisions), f(&BatchCounters::histories), f(&BatchCounters::absorbed);
    f(&BatchCounters::leaked), f(&BatchCounters::lost);
    f(&BatchCounters::weight_started), f(&BatchCounters::weight_ended), f(&BatchCounters::weight_leaked);
    f(&BatchCounters::secondaries), f(&BatchCounters::weight_secondary);
  }

  // How many: the length of the message the sum over ranks sends.
  static constexpr int count() {
    int n = 0;
    for_each_counter([&n](auto) { ++n; });
    return n;
  }

  KOKKOS_INLINE_FUNCTION BatchCounters& operator+=(const BatchCounters& o) {
    for_each_counter([&](auto counter) { this->*counter += o.*counter; });
    return *this;
  }
};

}  // namespace keff
