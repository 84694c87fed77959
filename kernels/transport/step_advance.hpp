#pragma once
// Step: one flight. Samples the distance to collision, finds the nearest boundary, moves the particle to
// whichever comes first and scores the track-length estimator, the track-length tallies and CMFD's flux
// and face crossings.
// Returns what the flight ends in.
#include "kernels/geometry.hpp"
#include "kernels/particle.hpp"
#include "kernels/transport/transport_context.hpp"

namespace keff {

template <class Mem, class Physics>
KOKKOS_INLINE_FUNCTION FlightEnd advance(const TransportContext<Mem, Physics>& ctx, Particle& p) {
  if (++p.n_events > ctx.control.max_events) {
    ctx.lose(p, LostReason::max_events);
    return FlightEnd::lost;
  }
  const Real d_collision = p.xs.total > 0 ? -Kokkos::log(1.0 - p.rng.next()) / p.xs.total : constants::infinity;
  p.hit = distance_to_boundary(ctx.geometry, p.geo, p.r, p.u);
  const Real d = smaller(d_collision, p.hit.distance);
  if (!(d < constants::infinity)) {  // streaming forever in a void: a geometry error
    ctx.lose(p, LostReason::infinite_flight);
    return FlightEnd::lost;
  }
  p.k_tracklength += p.weight * d * p.xs.nu_fission;
  ctx.tallies.score_flight(ctx.geometry, p, p.r, d);
  const Vec3 r0 = p.r;
  p.r = p.r + d * p.u;
  ctx.cmfd.score_flight(p, r0, d);
  return p.hit.distance <= d_collision ? FlightEnd::boundary : FlightEnd::collision;
}

}  // namespace keff
