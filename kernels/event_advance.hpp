#pragma once
// Event: one flight for every slot in the queue; the slot then waits for its crossing or collision.
#include "kernels/particle_slots.hpp"
#include "kernels/step_advance.hpp"
#include "kernels/step_finish.hpp"

namespace keff {

template <class Exec, class Physics>
struct AdvanceEvent {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  ParticleSlots<Exec> slots;
  Kokkos::View<const int*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int s = queue(i);
    Particle p = slots.load(s);
    const FlightEnd end = advance(ctx, p);
    if (end == FlightEnd::lost) {
      finish_history(p, slots.ended(s));
      slots.event(s) = static_cast<int>(SlotEvent::empty);
      return;
    }
    slots.store(s, p);
    slots.event(s) = static_cast<int>(end == FlightEnd::boundary ? SlotEvent::cross : SlotEvent::collide);
  }
};

template <class Exec, class Physics>
void advance_event(const Exec& exec, const AdvanceEvent<Exec, Physics>& kernel, int n) {
  Kokkos::parallel_for("keff::event::advance", Kokkos::RangePolicy<Exec>(exec, 0, n), kernel);
}

}  // namespace keff
