#pragma once
// The mutable State that transport writes, in one place with one owner (src/driver/transporter): the
// fission bank, the batch's tally sums, CMFD scores and populations' k sums, the lost record, the
// history mode's per-thread scratch, the event mode's slots (two sets when a sort moves particles) and
// queues, and the secondary neutrons of (n,xn) reactions. allocate_transport_state() makes all of it once
// per run; only the bank and the secondaries grow, between batches, when a batch overflows them. Kernels get Views of it, never allocate. The source a batch
// transports and the ordered bank belong to the source cycle (src/driver/source_cycle.hpp).
#include "kernels/cmfd_tally.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/fixed_point.hpp"
#include "kernels/lost_record.hpp"
#include "kernels/scatter_sums.hpp"
#include "kernels/transport/event_queue.hpp"
#include "kernels/transport/particle_slots.hpp"
#include "kernels/transport/secondary_stack.hpp"
#include "kernels/vocabulary/populations.hpp"
#include "kernels/vocabulary/site.hpp"
#include "kernels/workspace.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <string>

namespace keff {

// What the State is sized by.
struct TransportStateSizes {
  std::int64_t bank_capacity = 0;  // fission sites before the bank overflows
  std::int64_t secondary_capacity = 0;  // secondary neutrons a batch holds (0: physics without (n,xn))
  std::int64_t tally_values = 0;   // of every tally together (kernels/tally/tally_params.hpp)
  CmfdMesh cmfd_mesh;              // CMFD's coarse mesh and groups (0 groups: no CMFD scores)
  int cmfd_groups = 0;
  int populations = 1;             // settings.populations: rows of the populations' k sums
  int max_nuclides = 1;            // longest material: the micro-XS scratch row
  // Event-based transport (0 slots: history-based, no slots allocated)
  int event_slots = 0;
  EventOrder event_order;
  int n_materials = 0;
  int n_groups = 0;                // multigroup: sort keys by group
};

template <class Exec>
struct TransportState {
  using Mem = typename Exec::memory_space;

  FissionBank<Mem> bank;                  // sites banked this batch, in the order they were pushed
  Kokkos::View<Fixed*, Mem> tally_sums;   // this batch's tally scores
  ScatterSums<Fixed*, Mem> tally_copies;  // with tally_per_thread: each thread's (kernels/tally/tally_score.hpp)
  bool tally_per_thread = false;
  CmfdTally<Mem> cmfd;                    // this batch's CMFD scores (zero-size without CMFD)
  Kokkos::View<Fixed* [population_sum_count], Kokkos::LayoutRight, Mem> population_sums;  // kernels/population_scores.hpp
  ScatterSums<Fixed* [population_sum_count], Mem> population_adds;                       // what transport adds them in
  int sum_copies = 0;  // of each ScatterSums' View: one per thread on the host (kernels/scatter_sums.hpp)
  LostRecord<Mem> lost;
  Workspace<Exec> workspace;              // history-based: per-thread micro-XS scratch
  ParticleSlots<Exec> slots;              // event-based: particles in flight (empty Views otherwise)
  ParticleSlots<Exec> spare_slots;        // particles reordered by a sort: the slots it moves them into
  EventQueues<Exec> queues;
  SecondaryStack<Mem> secondaries;        // (n,xn) neutrons waiting in their histories

  std::int64_t bank_capacity() const { return static_cast<std::int64_t>(bank.sites.extent(0)); }
  std::int64_t secondary_capacity() const { return static_cast<std::int64_t>(secondaries.records.extent(0)); }

  std::size_t bytes() const {
    const auto b = [](const auto& v) { return v.span() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
    const std::size_t copies = 1 + static_cast<std::size_t>(sum_copies);
    const std::size_t tally_copies_bytes = tally_per_thread ? static_cast<std::size_t>(sum_copies) * b(tally_sums) : 0;
    return b(bank.sites) + b(tally_sums) + tally_copies_bytes +
           (population_sums.span() + cmfd.scores.size()) * copies * sizeof(Fixed) + workspace.bytes() + slots.bytes() +
           spare_slots.bytes() - spare_slots.ended.span() * sizeof(BatchCounters) + queues.bytes() +
           b(secondaries.records);
  }
};

// On the host the tally sums get a copy per thread (kernels/tally/tally_score.hpp) while all the copies
// together stay within this: a mesh tally of millions of bins on many cores is added to atomically
// instead, as on GPUs.
inline constexpr double tally_copies_max_bytes = 64.0 * 1024 * 1024;

template <class Exec>
bool tallies_per_thread(const Exec& exec, std::int64_t tally_values) {
  const double copies = scatter_copies(exec);
  return copies > 0 && tally_values > 0 &&
         copies * static_cast<double>(tally_values) * sizeof(Fixed) <= tally_copies_max_bytes;
}

// What allocate_transport_state will allocate on `exec`, before it does (src/host/memory_check.hpp), in
// doubles so that no size overflows: a row of history-mode scratch per thread (exec.concurrency()), on
// the host a copy of CMFD's scores and of the tallies (within tally_copies_max_bytes) per thread too,
// `bytes_per_slot` per event slot (event_slot_bytes) and the counting sort's key offsets. A test holds it
// to the allocated bytes().
template <class Exec>
double transport_state_bytes(const Exec& exec, const TransportStateSizes& n, double bytes_per_slot) {
  const double concurrency = exec.concurrency();
  const double copies = 1 + scatter_copies(exec);  // kernels/scatter_sums.hpp
  const double cmfd = n.cmfd_groups > 0 ? cmfd_tally_values(n.cmfd_mesh, n.cmfd_groups) : 0.0;
  const double tally_copies = tallies_per_thread(exec, n.tally_values) ? copies - 1 : 0;
  const double tally =
      (static_cast<double>(n.tally_values) * (1 + tally_copies) + (3.0 * n.populations + cmfd) * copies) * sizeof(Fixed);
  const double scratch = concurrency * (n.event_slots > 0 ? 1 : std::max(n.max_nuclides, 1)) * sizeof(Real);
  const double sort_offsets =
      (event_sort_keys(n.event_slots, n.event_order, n.n_materials, n.n_groups) + 1.0) * sizeof(int);
  return static_cast<double>(n.bank_capacity) * sizeof(Site) + tally + scratch + sort_offsets +
         static_cast<double>(n.event_slots) * bytes_per_slot +
         static_cast<double>(n.secondary_capacity) * sizeof(SecondaryRecord);
}

// Bytes one event slot takes: its particle and micro-XS row and its queue entry; sorted, also a
// sorted-queue entry and a sort key, and a spare slot (which shares the ended counters) where the sort
// moves the particles.
template <class Exec>
std::size_t event_slot_bytes(const Exec& exec, int max_nuclides, EventOrder order) {
  const std::size_t one = allocate_particle_slots(exec, 1, max_nuclides).bytes();
  if (!order.sorted()) return one + sizeof(int);
  const std::size_t key = order.sorter == EventSorter::counting ? sizeof(int) : sizeof(std::uint64_t);
  const std::size_t spare = order.moves_particles() ? one - sizeof(BatchCounters) : 0;
  return one + spare + 2 * sizeof(int) + key;
}

namespace detail {
template <class View, class Exec, class... Extents>
View state_view(const Exec& exec, const char* what, Extents... n) {
  return View(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::state::") + what), n...);
}
}  // namespace detail

// Allocates the whole State on `exec`. `cmfd_groups`: CMFD's coarse groups, kept by reference.
template <class Exec>
TransportState<Exec> allocate_transport_state(const Exec& exec, const TransportStateSizes& n,
                                              const CmfdEnergyGroups<typename Exec::memory_space>& cmfd_groups = {}) {
  using Mem = typename Exec::memory_space;
  using detail::state_view;
  using Sites = Kokkos::View<Site*, Mem>;
  FissionBank<Mem> bank{state_view<Sites>(exec, "bank_sites", n.bank_capacity),
                        Kokkos::View<std::int64_t, Mem>(Kokkos::view_alloc(exec, std::string("keff::state::bank_count")))};
  const LostRecord<Mem> lost = allocate_lost_record(exec);
  const ParticleSlots<Exec> slots = allocate_particle_slots(exec, n.event_slots, n.max_nuclides);
  const bool spare = n.event_slots > 0 && n.event_order.moves_particles();
  const auto population_sums =
      state_view<Kokkos::View<Fixed* [population_sum_count], Kokkos::LayoutRight, Mem>>(exec, "population_sums", n.populations);
  const auto tally_sums = state_view<Kokkos::View<Fixed*, Mem>>(exec, "tally_sums", n.tally_values);
  const bool tally_per_thread = tallies_per_thread(exec, n.tally_values);
  ScatterSums<Fixed*, Mem> tally_copies;
  if constexpr (sums_per_thread<Mem>) {  // (a GPU's View has another layout than a ScatterSums)
    if (tally_per_thread) tally_copies = scatter_sums_over(exec, tally_sums);
  }
  return TransportState<Exec>{
      bank,
      tally_sums,
      tally_copies,
      tally_per_thread,
      allocate_cmfd_tally(exec, n.cmfd_mesh, cmfd_groups, n.cmfd_groups),
      population_sums,
      scatter_sums_over(exec, population_sums),
      scatter_copies(exec),
      lost,
      Workspace<Exec>(exec, n.event_slots > 0 ? 1 : n.max_nuclides),
      slots,
      spare ? allocate_particle_slots(exec, n.event_slots, n.max_nuclides, slots.ended) : ParticleSlots<Exec>{},
      allocate_event_queues(exec, n.event_slots, n.event_order, n.n_materials, n.n_groups),
      SecondaryStack<Mem>{state_view<Kokkos::View<SecondaryRecord*, Mem>>(exec, "secondaries", n.secondary_capacity),
                          Kokkos::View<std::int64_t, Mem>(
                              Kokkos::view_alloc(exec, std::string("keff::state::secondary_count")))}};
}

// Before a batch: its tally sums zeroed, and their per-thread copies where it has them.
template <class Exec>
void reset_tally_sums(const Exec& exec, const TransportState<Exec>& state) {
  if constexpr (sums_per_thread<typename Exec::memory_space>) {
    if (state.tally_per_thread) {
      reset_scatter_sums(exec, state.tally_sums, state.tally_copies);
      return;
    }
  }
  Kokkos::deep_copy(exec, state.tally_sums, Fixed(0));
}

// After it: the per-thread copies, where it has them, summed into the tally sums.
template <class Exec>
void gather_tally_sums(const Exec& exec, const TransportState<Exec>& state) {
  if constexpr (sums_per_thread<typename Exec::memory_space>) {
    if (state.tally_per_thread) gather_scatter_sums(exec, state.tally_sums, state.tally_copies);
  }
}

// Replaces the secondary neutrons' records with room for `capacity` (between batches only).
template <class Exec>
void grow_secondaries(const Exec& exec, TransportState<Exec>& state, std::int64_t capacity) {
  using Records = Kokkos::View<SecondaryRecord*, typename Exec::memory_space>;
  state.secondaries.records = Records();
  state.secondaries.records = detail::state_view<Records>(exec, "secondaries", capacity);
}

// Replaces the bank with room for `capacity` sites (between batches only).
template <class Exec>
void grow_bank(const Exec& exec, TransportState<Exec>& state, std::int64_t capacity) {
  using Sites = Kokkos::View<Site*, typename Exec::memory_space>;
  state.bank.sites = Sites();  // free the old bank before the new one is allocated
  state.bank.sites = detail::state_view<Sites>(exec, "bank_sites", capacity);
}

}  // namespace keff
