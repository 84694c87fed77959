#pragma once
// Event queues: the slots waiting for one event, compacted by a parallel scan in slot order (so the
// threads of a warp take neighbouring slots), and optionally ordered by a key so that neighbouring
// threads look up the same material at nearby energies (XSBench's sorted lookup).
//
// A sort is a key pass shared by both sorters, then one of:
//   counting: keff's counting sort on small integer keys (energy in bands) into preallocated buffers,
//             O(n), no allocation. Order within a key is whatever the atomics give.
//   kokkos:   Kokkos::Experimental::sort_by_key on a continuous 64-bit key (material, then the energy
//             itself), a comparison sort that allocates temporaries every call.
// The order within a key, and so the sorter, does not change results: every history's steps depend only
// on its own state. The sorted lookups then become an order of every slot (sorted lookups first, then
// the other slots in slot order), by which kernels/transport/slot_permute.hpp moves the particles; or,
// with EventReorder::index, the lookup reads the particles where they are through the sorted queue.
#include "kernels/transport/particle_slots.hpp"
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>
#include <Kokkos_Sort.hpp>

#include <cmath>
#include <cstdint>

namespace keff {

// Energies are binned logarithmically over the continuous-energy range for the sort key. Narrower bands
// keep neighbouring lookups on fewer cache lines of each nuclide's grid, but every sort clears and scans
// all keys: the bands narrow as the queue grows, keeping keys per material at most 1/256 of the slots
// (measured: perf/RESULTS.md, "Cross-section lookups: keff against XSBench", the sort key's bands).
inline constexpr int event_sort_min_energy_bins = 1024;
inline constexpr int event_sort_max_energy_bins = 16384;

inline int event_sort_energy_bins(int n_slots) {
  int bins = event_sort_min_energy_bins;
  while (bins < event_sort_max_energy_bins && bins < n_slots / 256) bins *= 2;
  return bins;
}

// The keys the counting sort of a queue over n_slots counts: (materials + 1, the void first) x energy
// bands (or groups in multigroup); none when unsorted, sorted by Kokkos or with no slots (history-based
// transport).
inline int event_sort_keys(int n_slots, EventOrder order, int n_materials, int n_groups) {
  if (n_slots == 0 || !order.sorted() || order.sorter != EventSorter::counting) return 0;
  if (order.sort == EventSort::material) return n_materials + 1;
  return (n_materials + 1) * (n_groups > 0 ? n_groups : event_sort_energy_bins(n_slots));
}

template <class Exec>
struct EventQueues {
  using Mem = typename Exec::memory_space;
  Kokkos::View<int*, Mem> queue;        // [slots]
  Kokkos::View<int*, Mem> sorted;       // [slots]: the queue in key order (then every other slot)
  Kokkos::View<int*, Mem> keys;         // [slots] counting sorter: small integer keys
  Kokkos::View<std::uint64_t*, Mem> continuous_keys;  // [slots] Kokkos sorter
  Kokkos::View<int*, Mem> key_offsets;  // [keys + 1] counting sorter
  EventOrder order;
  int n_materials = 0;                  // keys: (material + 1) * energy_keys + bin, void material first
  bool by_group = false;                // multigroup: the energy key is the group
  int energy_keys = 1;                  // energy bands (or groups) per material
  Real energy_key_log_min = 0;          // log E where band 0 starts
  Real energy_key_scale = 0;            // bands per unit of log E

  KOKKOS_INLINE_FUNCTION int n_keys() const { return static_cast<int>(key_offsets.extent(0)) - 1; }

  std::size_t bytes() const {
    return (queue.span() + sorted.span() + keys.span() + key_offsets.span()) * sizeof(int) +
           continuous_keys.span() * sizeof(std::uint64_t);
  }
};

template <class Exec>
EventQueues<Exec> allocate_event_queues(const Exec& exec, int n_slots, EventOrder order, int n_materials,
                                        int n_groups) {
  using Mem = typename Exec::memory_space;
  EventQueues<Exec> q;
  const auto label = [](const char* what) { return std::string("keff::event::") + what; };
  const auto alloc = [&](const char* what, std::size_t n) {
    return Kokkos::View<int*, Mem>(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label(what)), n);
  };
  const auto n = static_cast<std::size_t>(n_slots);
  const bool sorted = order.sorted();
  const bool counting = sorted && order.sorter == EventSorter::counting;
  q.order = order;
  q.n_materials = n_materials;
  q.by_group = n_groups > 0;
  if (order.sort == EventSort::material_energy) {
    q.energy_keys = q.by_group ? n_groups : event_sort_energy_bins(n_slots);
    q.energy_key_log_min = std::log(constants::energy_min_ev);
    q.energy_key_scale = q.energy_keys / (std::log(constants::energy_max_ev) - q.energy_key_log_min);
  }
  const int n_keys = event_sort_keys(n_slots, order, n_materials, n_groups);
  q.queue = alloc("queue", n);
  q.sorted = alloc("sorted_queue", sorted ? n : 0);
  q.keys = alloc("sort_keys", counting ? n : 0);
  q.continuous_keys = Kokkos::View<std::uint64_t*, Mem>(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label("continuous_sort_keys")), sorted && !counting ? n : 0);
  q.key_offsets = alloc("sort_key_offsets", static_cast<std::size_t>(n_keys) + 1);
  return q;
}

// Fills q.queue with the slots waiting for `event` (or `also`), in slot order; returns how many (a fence).
template <class Exec>
int build_queue(const Exec& exec, const ParticleSlots<Exec>& slots, const EventQueues<Exec>& q, SlotEvent event,
                SlotEvent also) {
  const auto flags = slots.event;
  const auto queue = q.queue;
  const unsigned wanted = (1u << static_cast<int>(event)) | (1u << static_cast<int>(also));
  int count = 0;
  Kokkos::parallel_scan(
      "keff::event::build_queue", Kokkos::RangePolicy<Exec>(exec, 0, slots.size()),
      KOKKOS_LAMBDA(int s, int& running, bool final) {
        if (((1u << flags(s)) & wanted) == 0) return;
        if (final) queue(running) = s;
        ++running;
      },
      count);
  return count;
}

template <class Exec>
int build_queue(const Exec& exec, const ParticleSlots<Exec>& slots, const EventQueues<Exec>& q, SlotEvent event) {
  return build_queue(exec, slots, q, event, event);
}

// The counting sorter's key of the slot's particle: its material, and its energy band (or group).
template <class Exec>
KOKKOS_INLINE_FUNCTION int event_sort_key(const EventQueues<Exec>& q, const ParticleSlots<Exec>& slots, int s) {
  const int m = slots.material(s) + 1;
  if (q.order.sort == EventSort::material) return m;
  if (q.by_group) return m * q.energy_keys + slots.state.group(s);
  int bin = static_cast<int>((Kokkos::log(slots.state.energy(s)) - q.energy_key_log_min) * q.energy_key_scale);
  bin = bin < 0 ? 0 : (bin >= q.energy_keys ? q.energy_keys - 1 : bin);
  return m * q.energy_keys + bin;
}

// Kokkos' sorter's key: the material in the high 32 bits, the group or the energy in the low 32. The
// energy as a float: the bits of positive IEEE floats order as their values do, and 24 bits of
// mantissa tell energies 6e-8 apart (relative) from each other, where a band spans 0.2% to 3%.
template <class Exec>
KOKKOS_INLINE_FUNCTION std::uint64_t event_continuous_key(const EventQueues<Exec>& q, const ParticleSlots<Exec>& slots,
                                                          int s) {
  const auto m = static_cast<std::uint64_t>(slots.material(s) + 1);
  if (q.order.sort == EventSort::material) return m;
  if (q.by_group) return m << 32 | static_cast<std::uint32_t>(slots.state.group(s));
  return m << 32 | Kokkos::bit_cast<std::uint32_t>(static_cast<float>(slots.state.energy(s)));
}

// The key pass both sorters share: the key of queue(i)'s particle for each of the first n entries.
template <class Exec>
void compute_sort_keys(const Exec& exec, const ParticleSlots<Exec>& slots, const EventQueues<Exec>& q, int n) {
  const auto queue = q.queue, keys = q.keys;
  const auto continuous_keys = q.continuous_keys;
  const EventQueues<Exec> qq = q;
  if (q.order.sorter == EventSorter::counting) {
    Kokkos::parallel_for(
        "keff::event::sort_keys", Kokkos::RangePolicy<Exec>(exec, 0, n), KOKKOS_LAMBDA(int i) {
          keys(i) = event_sort_key(qq, slots, queue(i));
          KEFF_ASSERT(keys(i) >= 0 && keys(i) < qq.n_keys());
        });
  } else {
    Kokkos::parallel_for(
        "keff::event::sort_continuous_keys", Kokkos::RangePolicy<Exec>(exec, 0, n),
        KOKKOS_LAMBDA(int i) { continuous_keys(i) = event_continuous_key(qq, slots, queue(i)); });
  }
}

// q.sorted(0..n) = the first n queue entries by key: count, scan, scatter.
template <class Exec>
void counting_sort_queue(const Exec& exec, const EventQueues<Exec>& q, int n) {
  const auto queue = q.queue, sorted = q.sorted, keys = q.keys, offsets = q.key_offsets;
  Kokkos::parallel_for("keff::event::sort_clear", Kokkos::RangePolicy<Exec>(exec, 0, q.n_keys() + 1),
                       KOKKOS_LAMBDA(int k) { offsets(k) = 0; });
  Kokkos::parallel_for(
      "keff::event::sort_count", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(int i) { Kokkos::atomic_add(&offsets(keys(i)), 1); });
  Kokkos::parallel_scan(
      "keff::event::sort_offsets", Kokkos::RangePolicy<Exec>(exec, 0, q.n_keys() + 1),
      KOKKOS_LAMBDA(int k, int& running, bool final) {
        const int c = offsets(k);
        if (final) offsets(k) = running;
        running += c;
      });
  Kokkos::parallel_for(
      "keff::event::sort_scatter", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(int i) { sorted(Kokkos::atomic_fetch_add(&offsets(keys(i)), 1)) = queue(i); });
}

// The same with Kokkos' sort_by_key on the continuous keys (which it reorders in place).
template <class Exec>
void kokkos_sort_queue(const Exec& exec, const EventQueues<Exec>& q, int n) {
  Kokkos::Profiling::ScopedRegion region("keff::event::sort_by_key");
  const auto first = Kokkos::make_pair(0, n);
  Kokkos::deep_copy(exec, Kokkos::subview(q.sorted, first), Kokkos::subview(q.queue, first));
  Kokkos::Experimental::sort_by_key(exec, Kokkos::subview(q.continuous_keys, first), Kokkos::subview(q.sorted, first));
}

// Orders the first n entries of q.queue by key into q.sorted(0..n).
template <class Exec>
void sort_queue(const Exec& exec, const ParticleSlots<Exec>& slots, const EventQueues<Exec>& q, int n) {
  Kokkos::Profiling::ScopedRegion region("keff::event::sort");
  compute_sort_keys(exec, slots, q, n);
  if (q.order.sorter == EventSorter::counting) {
    counting_sort_queue(exec, q, n);
  } else {
    kokkos_sort_queue(exec, q, n);
  }
}

// Completes q.sorted, whose first n entries are the sorted lookups, into an order of every slot: the
// slots not waiting for a lookup follow, in slot order.
template <class Exec>
void order_other_slots(const Exec& exec, const ParticleSlots<Exec>& slots, const EventQueues<Exec>& q, int n) {
  const auto flags = slots.event;
  const auto sorted = q.sorted;
  constexpr unsigned lookups =
      (1u << static_cast<int>(SlotEvent::lookup)) | (1u << static_cast<int>(SlotEvent::lookup_then_collide));
  Kokkos::parallel_scan(
      "keff::event::order_other_slots", Kokkos::RangePolicy<Exec>(exec, 0, slots.size()),
      KOKKOS_LAMBDA(int s, int& running, bool final) {
        if (((1u << flags(s)) & lookups) != 0) return;
        if (final) sorted(n + running) = s;
        ++running;
      });
}

}  // namespace keff
