#pragma once
// Where a free-gas target moves, and how much more often a neutron meets one there: what both the grid
// a lookup reads (broadened by src/params/broaden_free_gas) and the scatter (kernels/free_gas.hpp) must
// agree on. No particle, no state.
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

namespace constants {
inline constexpr Real free_gas_cutoff_kt = 400;
}  // namespace constants

// Whether a scatter at `energy` (eV) off a nuclide of mass ratio `awr` in a material at `kt` (eV) sees
// a moving target: below free_gas_cutoff_kt x kT, and at every energy for a nuclide lighter than a
// neutron (H1), whose motion always matters. kt = 0 (settings.thermal = "none") never does, nor E = 0.
KOKKOS_INLINE_FUNCTION bool target_moves(Real energy, Real awr, Real kt) {
  return kt > 0 && energy > 0 && (awr < 1 || energy < constants::free_gas_cutoff_kt * kt);
}

// sigma_eff / sigma_0 for a target of constant cross section sigma_0 in a free gas, at y = sqrt(A E / kT):
// the average of the relative speed over the target's Maxwellian, per neutron speed. 1 far above kT,
// 2 / (sqrt(pi) y) (1/v) far below.
KOKKOS_INLINE_FUNCTION Real free_gas_factor(Real y) {
  return (1 + 1 / (2 * y * y)) * Kokkos::erf(y) + Kokkos::exp(-y * y) / (Kokkos::sqrt(constants::pi) * y);
}

}  // namespace keff
