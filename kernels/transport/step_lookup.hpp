#pragma once
// Step: the macroscopic cross sections at the particle's material and energy (or group), and the micro-XS
// cache the collision step samples its nuclide from. Skipped when neither has changed since the last
// lookup: a crossing between cells of the same material (a lattice wall in water) keeps both.
#include "kernels/particle.hpp"
#include "kernels/transport/transport_context.hpp"

namespace keff {

// `cache`: a 1-D View of at least materials.max_nuclides entries that stays with the particle until its
// next lookup (a thread's token row in history mode, the particle's slot row in event mode).
template <class Mem, class Physics, class Cache>
KOKKOS_INLINE_FUNCTION void lookup_xs(const TransportContext<Mem, Physics>& ctx, Particle& p, const Cache& cache) {
  if (!p.needs_xs()) return;
  p.xs = ctx.physics.macro_xs(p, cache);
  p.xs_material = p.geo.material;
  p.xs_energy = p.energy;
  p.xs_group = p.group;
}

}  // namespace keff
