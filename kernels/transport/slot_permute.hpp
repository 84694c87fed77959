#pragma once
// Sorted event transport moves the particles, not an index: once the lookup queue is sorted, every slot's
// particle moves into a second set of slots (the spare, allocated alongside the slots) in the order
// q.sorted gives, the sorted lookups first. The lookup, advance and collide kernels then read
// neighbouring slots, where an index queue would send each of their loads to a random slot (XSBench
// sorts its samples themselves for the same reason; perf/RESULTS.md).
//
// One pass over the slots, each thread writing slot j of the spare: a gather from the source slots and
// coalesced writes. Every field group moves (kernels/transport/particle_slots.hpp's one list), the
// geometry levels in use only. The micro-XS row moves only for a live particle not about to look up
// (its next collision samples a nuclide from it), and only the entries its material has; the lookup
// rewrites the others. The counters of ended histories stay where they are: they are summed over all
// slots at the end of the batch, and both sets of slots share them. Every source slot is left empty,
// so the spare is always a set of empty slots and a batch may start from either set.
#include "kernels/transport/event_queue.hpp"
#include "kernels/transport/particle_slots.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <utility>

namespace keff {

template <class Exec, class Physics>
struct PermuteSlots {
  using Mem = typename Exec::memory_space;
  ParticleSlots<Exec> from, to;
  Kokkos::View<const int*, Mem> order;  // to's slot j takes from's slot order(j)
  Kokkos::View<int*, Mem> queue;        // the first n_sorted entries become 0, 1, ...: the sorted lookups
  int n_sorted = 0;
  Physics physics;                      // how many micro-XS entries a material's lookup fills

  KOKKOS_INLINE_FUNCTION void operator()(int j) const {
    if (j < n_sorted) queue(j) = j;
    const int s = order(j);
    const int event = from.event(s);
    to.event(j) = event;
    if (event == static_cast<int>(SlotEvent::empty)) return;
    from.event(s) = static_cast<int>(SlotEvent::empty);
    to.pending(j) = from.pending(s);
    const Particle p = from.template load<slot_fields::all>(s);
    to.template store<slot_fields::all>(j, p);
    if (event == static_cast<int>(SlotEvent::lookup) || event == static_cast<int>(SlotEvent::lookup_then_collide)) {
      return;
    }
    const int entries = physics.cache_entries(p.xs_material);
    for (int k = 0; k < entries; ++k) to.micro_xs(j, k) = from.micro_xs(s, k);
  }
};

// Moves the particles of `slots` into `spare` in the order q.sorted gives (its first n_sorted entries the
// sorted lookups), points q.queue's first n_sorted entries at them, and swaps the two sets of slots.
template <class Exec, class Physics>
void permute_slots(const Exec& exec, ParticleSlots<Exec>& slots, ParticleSlots<Exec>& spare,
                   const EventQueues<Exec>& q, int n_sorted, const Physics& physics) {
  Kokkos::Profiling::ScopedRegion region("keff::event::permute");
  KEFF_EXPECT(spare.size() == slots.size() && spare.ended.data() == slots.ended.data());
  Kokkos::parallel_for("keff::event::permute_slots", Kokkos::RangePolicy<Exec>(exec, 0, slots.size()),
                       PermuteSlots<Exec, Physics>{slots, spare, q.sorted, q.queue, n_sorted, physics});
  std::swap(slots, spare);
}

}  // namespace keff
