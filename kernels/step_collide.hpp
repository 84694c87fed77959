#pragma once
// Step: a collision at the particle's position. Scores the collision estimator and the mesh tally, then
// lets the physics sample the nuclide, bank fission neutrons and absorb or scatter.
#include "kernels/particle.hpp"
#include "kernels/transport_context.hpp"

namespace keff {

// `cache`: the micro-XS cache the particle's last lookup filled (kernels/step_lookup.hpp).
template <class Mem, class Physics, class Cache>
KOKKOS_INLINE_FUNCTION void collide(const TransportContext<Mem, Physics>& ctx, Particle& p, const Cache& cache) {
  const MacroXs xs = p.xs;
  ++p.n_collisions;
  p.k_collision += p.weight * xs.nu_fission / xs.total;
  ctx.mesh.score_collision(p, xs);
  p.k_absorption += ctx.physics.collide(p, xs, cache, ctx.bank, ctx.control.k_prev).k_absorption;
}

}  // namespace keff
