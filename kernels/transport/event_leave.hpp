#pragma once
// Event (domain decomposition): the slots waiting to leave are packed into one send buffer grouped by
// destination rank (where each goes, then its place from the communication plan) and emptied. The message
// carries the whole particle and the step it waits for, so the receiving rank continues the history
// exactly where it stopped.
#include "kernels/domain_mesh.hpp"
#include "kernels/transport/particle_slots.hpp"

#include <type_traits>

namespace keff {

// What travels between domains: a particle and the step it waits for (SlotEvent::cross or collide).
// The message holds the Particle itself, read from the slot with every group, so it follows the field
// list with nothing of its own to keep in step. A message packed group by group would be smaller (only
// the geometry levels in use, no cross sections, which the receiver looks up again) but would be a
// second layout of the same fields, and would need its own load and store.
struct ParticleMessage {
  Particle particle;
  int pending = 0;
};
static_assert(std::is_trivially_copyable_v<ParticleMessage>, "mpi/particle_exchange.cpp sends messages as bytes");

// dest(i) = the rank that owns the position of the particle in slot queue(i) (its domain, in the
// history's replica lane), for i in [0, n).
template <class Exec>
void departure_destinations(const Exec& exec, const ParticleSlots<Exec>& slots,
                            Kokkos::View<const int*, typename Exec::memory_space> queue, int n,
                            const DomainMesh& domains, Kokkos::View<int*, typename Exec::memory_space> dest) {
  Kokkos::parallel_for(
      "keff::event::departure_destinations", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) {
        const int s = queue(i);
        const auto& r = slots.position.r;
        const Vec3 at{r(s, 0), r(s, 1), r(s, 2)};
        dest(i) = domains.rank_of(at, slots.history.index(s));
      });
}

// Packs the particle of slot queue(i) into out(position(i)) (its place among the departures grouped by
// destination: mpi/communication_plan.hpp) and empties the slot.
template <class Exec>
void pack_departures(const Exec& exec, const ParticleSlots<Exec>& slots,
                     Kokkos::View<const int*, typename Exec::memory_space> queue, int n,
                     Kokkos::View<const int*, typename Exec::memory_space> position,
                     Kokkos::View<ParticleMessage*, typename Exec::memory_space> out) {
  Kokkos::parallel_for(
      "keff::event::pack_departures", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) {
        const int s = queue(i);
        ParticleMessage m;
        m.particle = slots.load(s);
        m.pending = slots.pending(s);
        out(position(i)) = m;
        slots.event(s) = static_cast<int>(SlotEvent::empty);
      });
}

}  // namespace keff
