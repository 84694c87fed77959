#pragma once
// Order-independent accumulation. Floating-point sums depend on the order of their terms, so a tally
// summed by atomics or a parallel reduction would change in the last bits with the thread or rank count.
// keff rounds each non-negative contribution to a 64-bit integer with a fixed number of fractional bits
// and sums integers, which is associative: identical bits for any order.
//
// Precision: a contribution is rounded to the nearest 2^-bits. Range: a sum must stay below 2^(63-bits).
//   estimator bits = 32 -> resolution 2.3e-10 per history, sums up to 2.1e9 (e.g. 1e8 histories of k <= 20)
//   tally bits     = 24 -> resolution 6.0e-8 per contribution (a flight's piece, a collision), sums of
//                          one batch up to 5.5e11 per bin (kernels/tally/tally_score.hpp)
//   CMFD bits      = 24 -> the same per flight segment, face crossing, collision and fission site
//                          (kernels/cmfd_tally.hpp); its window sums are checked for overflow
#include "kernels/vocabulary/fixed_point_bits.hpp"
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

using Fixed = std::int64_t;

template <int Bits>
KOKKOS_INLINE_FUNCTION Fixed to_fixed(Real x) {
  constexpr Real scale = static_cast<Real>(std::int64_t(1) << Bits);
  return static_cast<Fixed>(x * scale + 0.5);  // x >= 0: round half up
}

template <int Bits>
inline double from_fixed(Fixed v) {
  constexpr double scale = static_cast<double>(std::int64_t(1) << Bits);
  return static_cast<double>(v) / scale;
}

}  // namespace keff
