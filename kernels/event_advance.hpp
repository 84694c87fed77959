#pragma once
// Event: one flight for every slot in the queue; the slot then waits for its crossing or collision.
#include "kernels/event_kernel.hpp"
#include "kernels/step_advance.hpp"

namespace keff {

template <class Exec, class Physics>
struct AdvanceEvent : EventKernel<Exec, Physics> {
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    constexpr unsigned loaded = position | state | history | xs | geometry;
    const int s = this->queue(i);
    Particle p = this->slots.template load<loaded>(s);
    const FlightEnd end = advance(this->ctx, p);
    if (end == FlightEnd::lost) {
      this->slots.template retire_or_park<loaded, 0>(s, p);
      return;
    }
    this->slots.template store<position | history | hit>(s, p);
    this->slots.event(s) = static_cast<int>(end == FlightEnd::boundary ? SlotEvent::cross : SlotEvent::collide);
  }
};

}  // namespace keff
