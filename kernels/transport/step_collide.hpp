#pragma once
// Step: a collision at the particle's position. Scores the collision estimator and the collision-estimator
// tallies, then lets the physics sample the nuclide, bank fission neutrons and absorb or scatter; the
// analog tallies score what it did, CMFD the collision, the scattering and every site banked.
#include "kernels/particle.hpp"
#include "kernels/transport/transport_context.hpp"

namespace keff {

// Where the neutrons a collision makes go, as the physics of one collision sees it: each fission site
// pushed is banked, and scored as CMFD production of the colliding neutron's coarse cell and group
// (nothing when CMFD is inactive); each extra neutron of an (n,xn) reaction waits on the history's
// secondary stack.
template <class Mem>
struct CollisionBank {
  const FissionBank<Mem>& bank;
  const CmfdTally<Mem>& cmfd;
  const SecondaryStack<Mem>& secondaries;
  CmfdCollision parent;
  Real k_prev;

  KOKKOS_INLINE_FUNCTION void push(const Site& s) const {
    bank.push(s);
    cmfd.score_site(parent, s, k_prev);
  }
  KOKKOS_INLINE_FUNCTION void push_secondary(Particle& p, Real energy, Vec3 u) const { secondaries.push(p, energy, u); }
};

// `cache`: the micro-XS cache the particle's last lookup filled (kernels/transport/step_lookup.hpp).
template <class Mem, class Physics, class Cache>
KOKKOS_INLINE_FUNCTION void collide(const TransportContext<Mem, Physics>& ctx, Particle& p, const Cache& cache) {
  const MacroXs xs = p.xs;
  ++p.n_collisions;
  p.k_collision += p.weight * xs.nu_fission / xs.total;
  ctx.tallies.score_collision(ctx.geometry, p, xs);
  const TallyCollision tallied{p.u, p.energy, p.group, p.weight, xs};
  const CmfdCollision before = ctx.cmfd.before_collision(p);
  const Real k_prev = ctx.control.k_prev_of(p.index);
  const CollisionBank<Mem> bank{ctx.bank, ctx.cmfd, ctx.secondaries, before, k_prev};
  const CollisionOutcome outcome = ctx.physics.collide(p, xs, cache, bank, k_prev);
  p.k_absorption += outcome.k_absorption;
  ctx.tallies.score_analog(ctx.geometry, tallied, outcome, p);
  ctx.cmfd.score_collision(before, p);
}

}  // namespace keff
