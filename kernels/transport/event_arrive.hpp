#pragma once
// Event (domain decomposition): particles that arrived from other domains take empty slots. Their
// micro-XS rows stayed behind, so each looks its cross sections up again before its next collision (the
// same pure function of material and energy, so the same numbers): a particle that waits to collide
// goes through the lookup queue first, one that waits to cross does so at once.
#include "kernels/transport/event_leave.hpp"

namespace keff {

template <class Exec>
void unpack_arrivals(const Exec& exec, const ParticleSlots<Exec>& slots,
                     Kokkos::View<const int*, typename Exec::memory_space> empty, int n,
                     Kokkos::View<const ParticleMessage*, typename Exec::memory_space> arrivals) {
  Kokkos::parallel_for(
      "keff::event::unpack_arrivals", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) {
        const int s = empty(i);
        Particle p = arrivals(i).particle;
        p.xs_material = -2;  // forces the next lookup
        slots.store(s, p);
        const bool collides = arrivals(i).pending == static_cast<int>(SlotEvent::collide);
        slots.event(s) = static_cast<int>(collides ? SlotEvent::lookup_then_collide : SlotEvent::cross);
      });
}

}  // namespace keff
