#pragma once
// Elastic scattering off a moving target: the free-gas model with a constant cross section, as OpenMC
// (sample_target_velocity, "cxs") and MCNP do it. The target's velocity is drawn from the Maxwellian of
// the material's temperature, weighted by the relative speed (the collision rate of a constant cross
// section); the neutron then scatters isotropically in the centre-of-mass frame of the pair. Neutrons
// gain energy as well as lose it, and settle into the Maxwellian E exp(-E/kT) instead of piling up at
// the bottom of the grid. Above free_gas_cutoff_kt x kT the target stays at rest (its motion changes
// nothing there), except for nuclides lighter than a neutron (H1), whose motion always matters. The
// elastic cross section the lookup reads is broadened there by free_gas_factor (kernels/free_gas_rate.hpp,
// once when Params are built: src/params/broaden_free_gas.cpp), the rate this weighting implies, so that
// neutrons meet targets as often as the kernel assumes.
//
// Velocities are in sqrt(eV): a neutron of energy E moves at sqrt(E), a target of mass ratio A at v
// carries A v^2. Then the target's Maxwellian is v^2 exp(-A v^2 / kT), and with y = v sqrt(A / kT) the
// speed follows y^2 exp(-y^2).
#include "kernels/free_gas_rate.hpp"
#include "kernels/particle.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff {

// The target's velocity for a neutron of energy `energy` moving along `u`: from the density
// |v_n - v_t| M(v_t), sampled from the bound (|v_n| + |v_t|) M(v_t) by rejection. In units of y the
// bound is the mixture y_n y^2 exp(-y^2) + y^3 exp(-y^2), whose parts weigh y_n sqrt(pi) / 4 and 1/2.
KOKKOS_INLINE_FUNCTION Vec3 sample_target_velocity(Real energy, Vec3 u, Real awr, Real kt, Lcg63& rng) {
  const Real beta = Kokkos::sqrt(awr / kt);  // y per unit of velocity
  const Real y_n = beta * Kokkos::sqrt(energy);
  const Real p_cubic = 1 / (1 + 0.5 * Kokkos::sqrt(constants::pi) * y_n);
  Real y = 0, mu = 0;
  for (;;) {
    if (rng.next() < p_cubic) {
      y = Kokkos::sqrt(-Kokkos::log(rng.next() * rng.next()));  // y^3 exp(-y^2)
    } else {
      const Real c = Kokkos::cos(0.5 * constants::pi * rng.next());  // y^2 exp(-y^2)
      y = Kokkos::sqrt(-Kokkos::log(rng.next()) - Kokkos::log(rng.next()) * c * c);
    }
    mu = 2 * rng.next() - 1;
    const Real relative = Kokkos::sqrt(at_least(Real(0), y_n * y_n + y * y - 2 * y_n * y * mu));
    if (rng.next() * (y_n + y) < relative) break;
  }
  return (y / beta) * rotate_direction(u, mu, rng);
}

// The elastic scatter of `p` off a nuclide of mass ratio `awr` whose velocity is `v_t`: isotropic in the
// centre-of-mass frame, the speed there unchanged.
KOKKOS_INLINE_FUNCTION void scatter_off_moving_target(Particle& p, Real awr, Vec3 v_t) {
  const Vec3 v_n = Kokkos::sqrt(p.energy) * p.u;
  const Vec3 v_cm = (1 / (awr + 1)) * (v_n + awr * v_t);
  const Vec3 relative = v_n - v_cm;
  const Real speed_cm = Kokkos::sqrt(dot(relative, relative));
  const Vec3 v_out = v_cm + speed_cm * sample_isotropic(p.rng);
  const Real e_out = dot(v_out, v_out);
  const Real speed = Kokkos::sqrt(e_out);
  if (speed > 0) p.u = (1 / speed) * v_out;
  p.energy = clamped(e_out, constants::energy_min_ev, constants::energy_max_ev);
}

}  // namespace keff
