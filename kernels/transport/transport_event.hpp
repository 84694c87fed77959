#pragma once
// Event-based transport. Particles wait in slots; each round every live particle takes one flight:
//
//   refill empty slots from the source -> lookup (queue sorted by material and energy, optional)
//   -> advance -> cross | collide
//
// Sorted, the particles themselves move into key order (kernels/transport/slot_permute.hpp) between
// two sets of slots, so the kernels of the round read neighbouring slots (or, EventReorder::index, the
// lookup reads them through the sorted queue).
//
// Each event is its own kernel over a queue built by a parallel scan, calling the same step functions
// as history-based transport, so a history takes the same steps with the same random numbers in either
// mode and the batch's results are identical bit for bit. Histories that end leave their counters in
// their slot; the slot is refilled the next round, which keeps the device full until the source runs
// out. Nothing here allocates: slots, queues and sort buffers are State sized once per run.
#include "kernels/domain_mesh.hpp"
#include "kernels/transport/event_advance.hpp"
#include "kernels/transport/event_collide.hpp"
#include "kernels/transport/event_cross.hpp"
#include "kernels/transport/event_lookup.hpp"
#include "kernels/transport/event_queue.hpp"
#include "kernels/transport/event_start.hpp"
#include "kernels/transport/slot_permute.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>

namespace keff {

template <class Exec, class Physics>
struct EventTransport {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  Kokkos::View<const Site*, Mem> source;  // site i starts history ctx.control.coords.local.first + i,
  Kokkos::View<const std::int64_t*, Mem> source_index;  // or history source_index(i) if not empty
  ParticleSlots<Exec> slots;
  ParticleSlots<Exec> spare;  // particles reordered: the empty set of slots the sort moves them into
  EventQueues<Exec> queues;
};

// Per-round queue lengths, summed over a batch (the benchmark's particles-in-flight figures).
struct EventStatistics {
  std::int64_t rounds = 0;
  std::int64_t lookups = 0, flights = 0, crossings = 0, collisions = 0;
  std::int64_t departures = 0;  // particles that left for another domain

  EventStatistics& operator+=(const EventStatistics& o) {
    rounds += o.rounds;
    lookups += o.lookups;
    flights += o.flights;
    crossings += o.crossings;
    collisions += o.collisions;
    departures += o.departures;
    return *this;
  }
};

// The counters of the histories that ended in each slot, summed (integers: in any order).
template <class Exec>
struct SumEndedCounters {
  using value_type = BatchCounters;
  Kokkos::View<const BatchCounters*, typename Exec::memory_space> ended;
  KOKKOS_INLINE_FUNCTION void operator()(int s, BatchCounters& acc) const { acc += ended(s); }
  KOKKOS_INLINE_FUNCTION void init(BatchCounters& v) const { v = BatchCounters{}; }
  KOKKOS_INLINE_FUNCTION void join(BatchCounters& dst, const BatchCounters& src) const { dst += src; }
};

// How particles move between ranks during event-based transport. This one is for a rank that tracks
// particles anywhere: nothing leaves, nothing arrives, and the batch ends when the rank has nothing left
// to do. Domain decomposition plugs in mpi/particle_exchange.hpp's router, with the same calls.
struct LocalRouter {
  DomainMesh domains() const { return {}; }
  // Moves up to n waiting arrivals into the empty slots queue(0..n); returns how many.
  template <class Exec, class Queue>
  int arrive(const Exec&, const ParticleSlots<Exec>&, const Queue&, int) { return 0; }
  // Sends away the n slots in queue (all waiting to `leave`) and empties them.
  template <class Exec, class Queue>
  void leave(const Exec&, const ParticleSlots<Exec>&, const Queue&, int) {}
  std::int64_t waiting() const { return 0; }
  // Whether the batch is over everywhere, given this rank's work left (live slots, waiting arrivals,
  // source not yet started), or abandoned everywhere once some rank asks to `stop`.
  bool finished(std::int64_t local_work, bool stop) { return local_work == 0 || stop; }
  // Nothing to do on this rank this round.
  void idle() {}
};

// Never asks to abandon a batch.
struct KeepGoing {
  bool operator()() const { return false; }
};

// Runs the histories of the source sites `feed` hands out on `exec`. `feed.take(max, wait)` returns up
// to `max` ready sites as an IndexRange (empty: none ready yet), waiting for some when `wait` is set
// (no particle is in flight); `feed.exhausted()` says all were handed out (src/driver/source_feed.hpp).
// `router` moves particles between ranks (LocalRouter: none do). `stop()`, asked once a round, says
// whether to abandon the batch (a signal, or a batch that cannot end): the router then ends it on every
// rank together, with particles left in their slots.
template <class Exec, class Physics, class Feed, class Router = LocalRouter, class Stop = KeepGoing>
BatchCounters transport_events(const Exec& exec, const EventTransport<Exec, Physics>& t, Feed& feed,
                               EventStatistics* statistics = nullptr, Router&& router = Router{},
                               Stop&& stop = Stop{}) {
  Kokkos::Profiling::ScopedRegion region("keff::transport::events");
  ParticleSlots<Exec> slots = t.slots, spare = t.spare;  // swapped by every sort
  const auto& q = t.queues;
  const auto ended = slots.ended;
  const DomainMesh domains = router.domains();
  Kokkos::parallel_for("keff::event::clear_counters", Kokkos::RangePolicy<Exec>(exec, 0, slots.size()),
                       KOKKOS_LAMBDA(int s) { ended(s) = BatchCounters{}; });
  EventStatistics stats;
  for (;;) {
    const int empty = build_queue(exec, slots, q, SlotEvent::empty);
    const std::int64_t live = slots.size() - empty;
    if (router.finished(live + router.waiting() + (feed.exhausted() ? 0 : 1), stop())) break;
    // Arrivals from other domains first, then new histories.
    int filled = router.arrive(exec, slots, q.queue, empty);
    while (filled < empty && !feed.exhausted()) {
      const bool idle = live == 0 && filled == 0;  // nothing in flight here: wait for sites
      const IndexRange sites = feed.take(empty - filled, idle);
      if (sites.count == 0) break;
      const auto queue = Kokkos::subview(q.queue, Kokkos::make_pair(filled, filled + static_cast<int>(sites.count)));
      launch_event(exec, "keff::event::start", StartEvent<Exec, Physics>{{t.ctx, slots, queue}, t.source, t.source_index, sites.first},
                   static_cast<int>(sites.count));
      filled += static_cast<int>(sites.count);
    }
    if (live + filled == 0) {
      router.idle();
      continue;
    }
    const int lookups = build_queue(exec, slots, q, SlotEvent::lookup, SlotEvent::lookup_then_collide);
    if (lookups > 0) {
      if (q.order.sorted()) sort_queue(exec, slots, q, lookups);
      if (q.order.moves_particles()) {
        order_other_slots(exec, slots, q, lookups);
        permute_slots(exec, slots, spare, q, lookups, t.ctx.physics);
      }
      const auto queue = q.order.sorted() && !q.order.moves_particles() ? q.sorted : q.queue;
      // A lookup costs what its material's nuclide count does (321 in H-M fuel, 2 in water). Sorted, the
      // fuel's lookups sit together, and a static split hands them all to one CPU thread: dynamic chunks
      // keep the order within each and share the fuel out (perf/RESULTS.md, "Dynamic chunks").
      launch_event(exec, "keff::event::lookup", LookupEvent<Exec, Physics>{{t.ctx, slots, queue}}, lookups,
                   Kokkos::Dynamic{});
    }
    const int flights = build_queue(exec, slots, q, SlotEvent::advance);
    launch_event(exec, "keff::event::advance", AdvanceEvent<Exec, Physics>{{t.ctx, slots, q.queue}, domains}, flights);
    if (domains.decomposed()) {
      const int leaving = build_queue(exec, slots, q, SlotEvent::leave);
      router.leave(exec, slots, q.queue, leaving);
      stats.departures += leaving;
    }
    const int crossings = build_queue(exec, slots, q, SlotEvent::cross);
    launch_event(exec, "keff::event::cross", CrossEvent<Exec, Physics>{{t.ctx, slots, q.queue}}, crossings);
    const int collisions = build_queue(exec, slots, q, SlotEvent::collide);
    launch_event(exec, "keff::event::collide", CollideEvent<Exec, Physics>{{t.ctx, slots, q.queue}}, collisions);
    ++stats.rounds;
    stats.lookups += lookups;
    stats.flights += flights;
    stats.crossings += crossings;
    stats.collisions += collisions;
  }
  BatchCounters sums;
  Kokkos::parallel_reduce("keff::event::sum_counters", Kokkos::RangePolicy<Exec>(exec, 0, slots.size()),
                          SumEndedCounters<Exec>{ended}, sums);
  if (statistics) *statistics = stats;
  return sums;
}

}  // namespace keff
