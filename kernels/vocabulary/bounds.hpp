#pragma once
// A value held within bounds by plain comparisons, which every compiler inlines, where a host build calls
// libm for Kokkos::fmax and fmin: two calls for each energy or cosine a collision clamps. As fmax and fmin
// with a bound give, a NaN gives the bound. No Kokkos.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff {

// x, or lo where x is below lo or NaN.
KEFF_INLINE_FUNCTION Real at_least(Real lo, Real x) { return lo < x ? x : lo; }

// x, or hi where x is above hi or NaN.
KEFF_INLINE_FUNCTION Real at_most(Real hi, Real x) { return x < hi ? x : hi; }

// x held within [lo, hi]; lo where x is NaN.
KEFF_INLINE_FUNCTION Real clamped(Real x, Real lo, Real hi) { return at_most(hi, at_least(lo, x)); }

}  // namespace keff
