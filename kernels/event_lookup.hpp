#pragma once
// Event: cross sections for the slots whose material or energy changed, in queue order (slot order or
// sorted by material and energy). Fills each slot's micro-XS row for its next collision.
#include "kernels/particle_slots.hpp"
#include "kernels/step_lookup.hpp"

namespace keff {

template <class Exec, class Physics>
struct LookupEvent {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  ParticleSlots<Exec> slots;
  Kokkos::View<const int*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int s = queue(i);
    Particle p = slots.load(s);
    lookup_xs(ctx, p, Kokkos::subview(slots.micro_xs, s, Kokkos::ALL));
    slots.store(s, p);
    slots.event(s) = static_cast<int>(SlotEvent::advance);
  }
};

template <class Exec, class Physics>
void lookup_event(const Exec& exec, const LookupEvent<Exec, Physics>& kernel, int n) {
  Kokkos::parallel_for("keff::event::lookup", Kokkos::RangePolicy<Exec>(exec, 0, n), kernel);
}

}  // namespace keff
