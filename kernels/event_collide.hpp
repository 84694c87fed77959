#pragma once
// Event: the slots whose flight ended in a collision collide, sampling their nuclide from the micro-XS
// row their last lookup left in the slot.
#include "kernels/particle_slots.hpp"
#include "kernels/step_collide.hpp"
#include "kernels/step_finish.hpp"

namespace keff {

template <class Exec, class Physics>
struct CollideEvent {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  ParticleSlots<Exec> slots;
  Kokkos::View<const int*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int s = queue(i);
    Particle p = slots.load(s);
    collide(ctx, p, Kokkos::subview(slots.micro_xs, s, Kokkos::ALL));
    if (!p.alive()) {
      finish_history(p, slots.ended(s));
      slots.event(s) = static_cast<int>(SlotEvent::empty);
      return;
    }
    slots.park(s, p);
  }
};

template <class Exec, class Physics>
void collide_event(const Exec& exec, const CollideEvent<Exec, Physics>& kernel, int n) {
  Kokkos::parallel_for("keff::event::collide", Kokkos::RangePolicy<Exec>(exec, 0, n), kernel);
}

}  // namespace keff
