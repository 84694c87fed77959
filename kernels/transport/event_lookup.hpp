#pragma once
// Event: cross sections for the slots whose material or energy changed, in queue order (slot order or
// sorted by material and energy). Fills each slot's micro-XS row for its next collision. A particle that
// arrived from another domain to collide (`lookup_then_collide`) collides next; the others fly.
#include "kernels/transport/event_kernel.hpp"
#include "kernels/transport/step_lookup.hpp"

namespace keff {

template <class Exec, class Physics>
struct LookupEvent : EventKernel<Exec, Physics> {
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    const int s = this->queue(i);
    Particle p = this->slots.template load<state | xs>(s);
    lookup_xs(this->ctx, p, Kokkos::subview(this->slots.micro_xs, s, Kokkos::ALL));
    this->slots.template store<xs>(s, p);
    const bool collides = this->slots.event(s) == static_cast<int>(SlotEvent::lookup_then_collide);
    this->slots.event(s) = static_cast<int>(collides ? SlotEvent::collide : SlotEvent::advance);
  }
};

}  // namespace keff
