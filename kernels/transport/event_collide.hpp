#pragma once
// Event: the slots whose flight ended in a collision collide, sampling their nuclide from the micro-XS
// row their last lookup left in the slot.
#include "kernels/transport/event_kernel.hpp"
#include "kernels/transport/step_collide.hpp"

namespace keff {

template <class Exec, class Physics>
struct CollideEvent : EventKernel<Exec, Physics> {
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    constexpr unsigned loaded = position | state | history | xs;
    const int s = this->queue(i);
    Particle p = this->slots.template load<loaded>(s);
    // Collision and analog tallies that filter by cell, universe or placement read where it is.
    if (this->ctx.tallies.params.geometry_at_collisions) this->slots.template load_into<geometry>(s, p);
    collide(this->ctx, p, Kokkos::subview(this->slots.micro_xs, s, Kokkos::ALL));
    this->slots.template retire_or_park<loaded, position | state | history>(s, p, this->ctx);
  }
};

}  // namespace keff
