#pragma once
// Step: the particle sits on the boundary its flight stopped at (p.hit). Vacuum leaks it (and CMFD scores
// its way out of the coarse mesh), a reflective surface mirrors its direction, anything else relocates
// it from the level it crossed (relocate_below, kernels/geometry.hpp).
#include "kernels/geometry.hpp"
#include "kernels/particle.hpp"
#include "kernels/transport/transport_context.hpp"

namespace keff {

template <class Mem, class Physics>
KOKKOS_INLINE_FUNCTION void cross_surface(const TransportContext<Mem, Physics>& ctx, Particle& p) {
  const CrossingResult crossed = cross_boundary(ctx.geometry, p.geo, p.r, p.u, p.hit);
  if (crossed == CrossingResult::leaked) {
    p.fate = Fate::leaked;
    ctx.cmfd.score_leak(p);
  } else if (crossed == CrossingResult::lost) {
    ctx.lose(p, LostReason::after_crossing);
  }
}

}  // namespace keff
