#pragma once
// Event: one flight for every slot in the queue; the slot then waits for its crossing or collision, or,
// when the flight ended outside this rank's domain, to leave for the rank that owns that position,
// which then does the crossing or collision (so every step happens where its position is).
#include "kernels/domain_mesh.hpp"
#include "kernels/transport/event_kernel.hpp"
#include "kernels/transport/step_advance.hpp"

namespace keff {

template <class Exec, class Physics>
struct AdvanceEvent : EventKernel<Exec, Physics> {
  DomainMesh domains;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    constexpr unsigned loaded = position | state | history | xs | geometry;
    const int s = this->queue(i);
    Particle p = this->slots.template load<loaded>(s);
    const FlightEnd end = advance(this->ctx, p);
    if (end == FlightEnd::lost) {
      this->slots.template retire_or_park<loaded, 0>(s, p, this->ctx);
      return;
    }
    this->slots.template store<position | history | hit>(s, p);
    const SlotEvent next = end == FlightEnd::boundary ? SlotEvent::cross : SlotEvent::collide;
    if (domains.leaves(p.r)) {
      this->slots.pending(s) = static_cast<int>(next);
      this->slots.event(s) = static_cast<int>(SlotEvent::leave);
      return;
    }
    this->slots.event(s) = static_cast<int>(next);
  }
};

}  // namespace keff
