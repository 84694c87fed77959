#pragma once
// Event: the slots whose flight stopped on a boundary cross it (leak, reflect or relocate).
#include "kernels/particle_slots.hpp"
#include "kernels/step_cross.hpp"
#include "kernels/step_finish.hpp"

namespace keff {

template <class Exec, class Physics>
struct CrossEvent {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  ParticleSlots<Exec> slots;
  Kokkos::View<const int*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int s = queue(i);
    Particle p = slots.load(s);
    cross_surface(ctx, p);
    if (!p.alive()) {
      finish_history(p, slots.ended(s));
      slots.event(s) = static_cast<int>(SlotEvent::empty);
      return;
    }
    slots.park(s, p);
  }
};

template <class Exec, class Physics>
void cross_event(const Exec& exec, const CrossEvent<Exec, Physics>& kernel, int n) {
  Kokkos::parallel_for("keff::event::cross", Kokkos::RangePolicy<Exec>(exec, 0, n), kernel);
}

}  // namespace keff
