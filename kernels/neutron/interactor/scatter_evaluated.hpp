#pragma once
// What a scatter does to a neutron, from evaluated data: elastic scattering with the tabulated
// centre-of-mass cosine off a target at rest or moving (the free-gas target's velocity is the caller's,
// kernels/free_gas.hpp), and a non-elastic reaction's outgoing neutron, its energy and cosine from the
// reaction's law in the frame TYR gives, turned into the laboratory frame. Energies in eV; velocities in
// sqrt(eV) as in free_gas.hpp.
#include "kernels/neutron/interactor/sample_reaction.hpp"
#include "kernels/neutron/interactor/sample_secondary.hpp"
#include "kernels/particle.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff::neutron {

// Elastic scattering isotropic in the centre-of-mass frame off a target at rest (the synthetic library's
// elastic distribution, elastic_angle -1), in closed form.
KOKKOS_INLINE_FUNCTION void scatter_isotropic_at_rest(Real awr, Real& energy, Vec3& u, Lcg63& rng) {
  const Real mu_cm = 2.0 * rng.next() - 1.0;
  const Real s = awr * awr + 2.0 * awr * mu_cm + 1.0;
  energy *= s / ((awr + 1.0) * (awr + 1.0));
  energy = at_least(constants::energy_min_ev, energy);
  const Real mu_lab = (1.0 + awr * mu_cm) / Kokkos::sqrt(s);
  u = rotate_direction(u, mu_lab, rng);
}

// Elastic scattering off a target of mass ratio `awr` moving at `v_t` (zero: at rest). The cosine in the
// centre-of-mass frame comes from the nuclide's elastic distribution at the neutron's energy in the
// target's frame; the speed there is unchanged.
template <class Mem>
KOKKOS_INLINE_FUNCTION void scatter_elastic_evaluated(const NuclideParams<Mem>& d, int nuclide, Vec3 v_t, Real& energy,
                                                      Vec3& u, Lcg63& rng) {
  const NuclideRecord& n = d.nuclides(nuclide);
  const Real awr = n.awr;
  const Vec3 v_n = Kokkos::sqrt(energy) * u;
  const Vec3 v_cm = (1 / (awr + 1)) * (v_n + awr * v_t);
  const Vec3 relative = v_n - v_t;
  const Real e_relative = dot(relative, relative);
  const Vec3 in_cm = v_n - v_cm;
  const Real speed_cm = Kokkos::sqrt(dot(in_cm, in_cm));
  if (!(speed_cm > 0)) return;
  const Real mu_cm = sample_cosine(d.secondaries, d.secondaries.angle_distributions(n.elastic_angle), e_relative, rng);
  const Vec3 v_out = v_cm + speed_cm * rotate_direction((1 / speed_cm) * in_cm, mu_cm, rng);
  const Real e_out = dot(v_out, v_out);
  const Real speed = Kokkos::sqrt(e_out);
  if (speed > 0) u = (1 / speed) * v_out;
  energy = clamped(e_out, constants::energy_min_ev, constants::energy_max_ev);
}

// A centre-of-mass energy and cosine of a neutron leaving a target of mass ratio `awr` hit at `energy`,
// in the laboratory frame.
KOKKOS_INLINE_FUNCTION void center_of_mass_to_lab(Real energy, Real awr, Real& e_out, Real& mu) {
  const Real e_cm = e_out;
  const Real e_lab = e_cm + (energy + 2 * mu * (awr + 1) * Kokkos::sqrt(energy * e_cm)) / ((awr + 1) * (awr + 1));
  if (!(e_lab > 0)) {
    e_out = 0;
    return;
  }
  mu = mu * Kokkos::sqrt(e_cm / e_lab) + Kokkos::sqrt(energy / e_lab) / (awr + 1);
  mu = clamped(mu, Real(-1), Real(1));
  e_out = e_lab;
}

// One outgoing neutron of `reaction` (an index into d.reactions) for a neutron of `energy` along `u`,
// target at rest: its energy and direction replace energy and u.
template <class Mem>
KOKKOS_INLINE_FUNCTION void emit_from_reaction(const NuclideParams<Mem>& d, int reaction, Real awr, Real& energy, Vec3& u,
                                               Lcg63& rng) {
  const ReactionRecord& r = d.reactions(reaction);
  const SecondaryDraw draw = sample_secondary(d.secondaries, r.first_law, r.laws, energy, awr, r.q_value, rng);
  Real e_out = draw.energy;
  Real mu = draw.mu_drawn || r.angle < 0 ? draw.mu
                                         : sample_cosine(d.secondaries, d.secondaries.angle_distributions(r.angle), energy, rng);
  if (r.center_of_mass) center_of_mass_to_lab(energy, awr, e_out, mu);
  u = rotate_direction(u, mu, rng);
  energy = clamped(e_out, constants::energy_min_ev, constants::energy_max_ev);
}

// The number of neutrons `reaction` gives at `energy`: its multiplicity, or its tabulated yield rounded
// up with the fraction's probability.
template <class Mem>
KOKKOS_INLINE_FUNCTION int reaction_neutrons(const NuclideParams<Mem>& d, int reaction, Real energy, Lcg63& rng) {
  const ReactionRecord& r = d.reactions(reaction);
  if (r.multiplicity > 0) return r.multiplicity;
  const Real y = d.secondaries.evaluate(r.yield, energy);
  const int whole = static_cast<int>(y);
  return whole + (rng.next() < y - whole ? 1 : 0);
}

// A fission neutron of `nuclide` hit at `energy`, of a collision whose total nu there is `nu_total`:
// delayed with probability nu_delayed / nu_total (no number drawn without delayed neutrons), its energy
// then from a delayed group's spectrum (its group in *group), else prompt from the fission reaction's
// spectrum (*group = -1). Isotropic in the laboratory frame, as the caller draws it. Delayed nu is
// evaluated here, per neutron banked, not per collision: most collisions with a fissile nuclide bank none.
template <class Mem>
KOKKOS_INLINE_FUNCTION Real fission_neutron_energy(const NuclideParams<Mem>& d, int nuclide, const NuclideXs& xs,
                                                   Real energy, Real nu_total, Lcg63& rng, int* group) {
  const NuclideRecord& n = d.nuclides(nuclide);
  const Real nu_delayed = n.groups > 0 ? d.nu(n.nu_delayed, energy) : Real(0);
  Real e_out;
  if (nu_delayed > 0 && rng.next() * nu_total < nu_delayed) {
    const int g = sample_delayed_group(d, nuclide, energy, rng.next());
    *group = g - n.first_group;
    const DelayedGroupRecord& dg = d.groups(g);
    e_out = sample_secondary(d.secondaries, dg.first_law, dg.laws, energy, n.awr, Real(0), rng).energy;
  } else {
    *group = -1;
    // With one fission reaction (MT 18, or the synthetic library's) no number is drawn to choose it.
    const int fission = n.fissions == 1 ? n.first_fission : sample_fission_reaction(d, nuclide, xs, rng.next());
    const ReactionRecord& r = d.reactions(fission);
    e_out = sample_secondary(d.secondaries, r.first_law, r.laws, energy, n.awr, r.q_value, rng).energy;
  }
  return clamped(e_out, constants::energy_min_ev, constants::energy_max_ev);
}

}  // namespace keff::neutron
