#pragma once
// A Maxwellian energy with temperature parameter t, E ~ sqrt(E) exp(-E/t) (MCNP's rule C64: three uniform
// numbers, no rejection). In t's units. The Watt spectra and the ACE laws 7, 11 and 66
// (neutron/interactor/) draw from it.
#include "kernels/rng.hpp"
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

KOKKOS_INLINE_FUNCTION Real sample_maxwell(Real t, Lcg63& rng) {
  const Real r1 = rng.next(), r2 = rng.next(), r3 = rng.next();
  const Real c = Kokkos::cos(0.5 * constants::pi * r3);
  return -t * (Kokkos::log(1.0 - r1) + Kokkos::log(1.0 - r2) * c * c);
}

}  // namespace keff
