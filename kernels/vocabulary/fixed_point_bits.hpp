#pragma once
// Fractional bits of keff's fixed-point sums (kernels/fixed_point.hpp explains them), here without Kokkos
// so that the host-only restart checks (io/output/restart_check.cpp) bound what a sum can hold with the
// same numbers the kernels score with.
namespace keff {

inline constexpr int estimator_fraction_bits = 32;
inline constexpr int tally_fraction_bits = 24;
inline constexpr int cmfd_fraction_bits = 24;

}  // namespace keff
