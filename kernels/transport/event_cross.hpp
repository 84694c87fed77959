#pragma once
// Event: the slots whose flight stopped on a boundary cross it (leak, reflect or relocate).
#include "kernels/transport/event_kernel.hpp"
#include "kernels/transport/step_cross.hpp"

namespace keff {

template <class Exec, class Physics>
struct CrossEvent : EventKernel<Exec, Physics> {
  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    constexpr unsigned loaded = position | state | xs | geometry | hit;
    const int s = this->queue(i);
    Particle p = this->slots.template load<loaded>(s);
    cross_surface(this->ctx, p);
    this->slots.template retire_or_park<loaded, position | geometry>(s, p, this->ctx);
  }
};

}  // namespace keff
