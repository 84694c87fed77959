#pragma once
// Step: a history begins at its source site, with its own random stream, located in the geometry.
#include "kernels/geometry.hpp"
#include "kernels/particle.hpp"
#include "kernels/transport/transport_context.hpp"
#include "kernels/vocabulary/site.hpp"

namespace keff {

// `index`: the history's global index in the batch, which alone decides its random numbers.
template <class Mem, class Physics>
KOKKOS_INLINE_FUNCTION Particle start_history(const TransportContext<Mem, Physics>& ctx, const Site& s,
                                              std::int64_t index) {
  Particle p;
  p.r = s.r;
  p.u = s.u;
  p.energy = s.energy;
  p.group = s.group;
  p.weight = s.weight;
  p.index = index;
  const LcgJump offset = history_offset(ctx.control.coords, index);  // the same in both streams
  p.rng = history_rng(ctx.control.coords.seed, RngStream::tracking, offset);
  p.urr_seed = independent_rng(ctx.control.coords.seed, RngStream::urr, offset).state;
  if (!locate(ctx.geometry, p.r, p.u, p.geo)) ctx.lose(p, LostReason::at_source);
  ctx.cmfd.start(p);
  return p;
}

}  // namespace keff
