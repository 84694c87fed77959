// Event-based transport's slots (kernels/transport/particle_slots.hpp): a Particle stored into a slot and loaded
// back keeps every field, and a store or a load with some field groups leaves the other groups alone;
// sorted transport's permutation (kernels/transport/slot_permute.hpp) moves every field into the spare
// slots in the order given, the micro-XS row only where the next lookup will not rewrite it.
// Stores and loads run in a one-iteration kernel whose results are copied back, so the test holds on GPU
// builds too; the kernel is a functor at namespace scope (CUDA refuses extended lambdas inside the
// private TestBody of a gtest TEST).
//
// The fields are listed here again on purpose, by group: the test must not trust the list it checks.
// A new Particle field needs a value in distinct_particle() and a line in expect_groups().
#include "kernels/device.hpp"
#include "kernels/transport/particle_slots.hpp"
#include "kernels/transport/slot_permute.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace keff::particle_slots_test {

using Slots = ParticleSlots<DeviceExec>;
using Pair = Kokkos::View<Particle[2], DeviceMem>;

// A particle whose fields all differ from a default Particle's, from each other where their types allow,
// and from those of a particle made from another `base` (bases a thousand apart).
Particle distinct_particle(int base, Fate fate) {
  int v = base;
  const auto next = [&v] { return ++v; };
  const auto real = [&next] { return next() + 0.25; };
  Particle p;
  p.r = {real(), real(), real()};
  p.u = {real(), real(), real()};
  p.cmfd_cell = next();
  p.energy = real();
  p.group = next();
  p.weight = real();
  p.fate = fate;
  p.urr_seed = (std::uint64_t(1) << 63) + static_cast<std::uint64_t>(next());
  p.geo.n_levels = max_geometry_levels;
  for (GeometryLevel& lv : p.geo.level) {
    lv.universe = next();
    lv.cell = next();
    lv.lattice = next();
    for (int d = 0; d < 3; ++d) lv.lat_index[d] = next();
    lv.offset = {real(), real(), real()};
  }
  p.geo.material = next();
  p.rng.state = (std::uint64_t(1) << 62) + static_cast<std::uint64_t>(next());  // all 64 bits matter
  p.index = (std::int64_t(1) << 40) + next();
  p.n_progeny = next();
  p.secondary_top = next();
  p.n_events = next();
  p.n_collisions = (std::int64_t(1) << 41) + next();
  p.k_collision = real();
  p.k_absorption = real();
  p.k_tracklength = real();
  p.xs = {real(), real(), real(), real()};
  p.xs_material = next();
  p.xs_energy = real();
  p.xs_group = next();
  p.hit = {real(), next(), next()};
  return p;
}

// Expects `got` to hold `want`'s fields in the groups of `groups` (the material is checked apart: it
// moves with every group).
void expect_groups(const Particle& got, const Particle& want, unsigned groups, const std::string& what) {
  SCOPED_TRACE(what);
  using namespace slot_fields;
  if (groups & position) {
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(got.r[d], want.r[d]) << "r " << d;
      EXPECT_EQ(got.u[d], want.u[d]) << "u " << d;
    }
    EXPECT_EQ(got.cmfd_cell, want.cmfd_cell);
  }
  if (groups & state) {
    EXPECT_EQ(got.energy, want.energy);
    EXPECT_EQ(got.group, want.group);
    EXPECT_EQ(got.weight, want.weight);
    EXPECT_EQ(got.fate, want.fate);
    EXPECT_EQ(got.urr_seed, want.urr_seed);
  }
  if (groups & history) {
    EXPECT_EQ(got.rng.state, want.rng.state);
    EXPECT_EQ(got.index, want.index);
    EXPECT_EQ(got.n_progeny, want.n_progeny);
    EXPECT_EQ(got.secondary_top, want.secondary_top);
    EXPECT_EQ(got.n_events, want.n_events);
    EXPECT_EQ(got.n_collisions, want.n_collisions);
    EXPECT_EQ(got.k_collision, want.k_collision);
    EXPECT_EQ(got.k_absorption, want.k_absorption);
    EXPECT_EQ(got.k_tracklength, want.k_tracklength);
  }
  if (groups & xs) {
    EXPECT_EQ(got.xs.total, want.xs.total);
    EXPECT_EQ(got.xs.absorption, want.xs.absorption);
    EXPECT_EQ(got.xs.fission, want.xs.fission);
    EXPECT_EQ(got.xs.nu_fission, want.xs.nu_fission);
    EXPECT_EQ(got.xs_material, want.xs_material);
    EXPECT_EQ(got.xs_energy, want.xs_energy);
    EXPECT_EQ(got.xs_group, want.xs_group);
  }
  if (groups & geometry) {
    ASSERT_EQ(got.geo.n_levels, want.geo.n_levels);
    for (int k = 0; k < want.geo.n_levels; ++k) {
      const GeometryLevel& g = got.geo.level[k];
      const GeometryLevel& w = want.geo.level[k];
      EXPECT_EQ(g.universe, w.universe) << "level " << k;
      EXPECT_EQ(g.cell, w.cell) << "level " << k;
      EXPECT_EQ(g.lattice, w.lattice) << "level " << k;
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(g.lat_index[d], w.lat_index[d]) << "level " << k << " axis " << d;
        EXPECT_EQ(g.offset[d], w.offset[d]) << "level " << k << " axis " << d;
      }
    }
  }
  if (groups & hit) {
    EXPECT_EQ(got.hit.distance, want.hit.distance);
    EXPECT_EQ(got.hit.level, want.hit.level);
    EXPECT_EQ(got.hit.surface, want.hit.surface);
  }
}

// With in = (first, second): out(0) is slot 0 read whole after storing `first` whole and then groups G
// of `second`; out(1) is `first` after loading groups G of slot 1, which holds `second` whole.
template <unsigned G>
struct StoreAndLoad {
  Slots slots;
  Kokkos::View<const Particle[2], DeviceMem> in;
  Pair out;
  KOKKOS_FUNCTION void operator()(int) const {
    slots.store(0, in(0));
    slots.template store<G>(0, in(1));
    out(0) = slots.load(0);
    slots.store(1, in(1));
    Particle p = in(0);
    slots.template load_into<G>(1, p);
    out(1) = p;
  }
};

template <unsigned G>
void expect_only_group_moves(const std::string& what) {
  const DeviceExec exec;
  const Slots slots = allocate_particle_slots(exec, 2, 1);
  const Particle first = distinct_particle(0, Fate::absorbed);
  const Particle second = distinct_particle(1000, Fate::leaked);
  Pair in("keff::test::slots::in");
  Pair out("keff::test::slots::out");
  const auto in_host = Kokkos::create_mirror_view(in);
  in_host(0) = first;
  in_host(1) = second;
  Kokkos::deep_copy(exec, in, in_host);
  Kokkos::parallel_for("keff::test::slots::store_and_load", Kokkos::RangePolicy<DeviceExec>(exec, 0, 1),
                       StoreAndLoad<G>{slots, in, out});
  const auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  const unsigned others = slot_fields::all & ~G;
  expect_groups(result(0), second, G, what + ": stored groups");
  expect_groups(result(0), first, others, what + ": groups not stored");
  EXPECT_EQ(result(0).geo.material, second.geo.material) << what << ": the material moves with every group";
  expect_groups(result(1), second, G, what + ": loaded groups");
  expect_groups(result(1), first, others, what + ": groups not loaded");
  EXPECT_EQ(result(1).geo.material, second.geo.material) << what << ": the material moves with every group";
}

TEST(ParticleSlots, EveryFieldRoundTrips) { expect_only_group_moves<slot_fields::all>("all groups"); }

TEST(ParticleSlots, EachGroupMovesOnlyItsFields) {
  using namespace slot_fields;
  expect_only_group_moves<position>("position");
  expect_only_group_moves<state>("state");
  expect_only_group_moves<history>("history");
  expect_only_group_moves<xs>("xs");
  expect_only_group_moves<geometry>("geometry");
  expect_only_group_moves<hit>("hit");
  expect_only_group_moves<state | xs>("state and xs, as the lookup event loads them");
}

// Physics whose material 7 fills three micro-XS entries and every other material none.
struct ThreeEntriesInMaterial7 {
  KOKKOS_INLINE_FUNCTION int cache_entries(int m) const { return m == 7 ? 3 : 0; }
};

constexpr int n_permuted = 4;
using Four = Kokkos::View<Particle[n_permuted], DeviceMem>;

// Slot s gets in(s), event events[s], pending 10 + s, micro-XS row (100 s, 100 s + 1, ...).
struct FillSlots {
  Slots slots;
  Kokkos::View<const Particle[n_permuted], DeviceMem> in;
  Kokkos::View<const int[n_permuted], DeviceMem> events;
  KOKKOS_FUNCTION void operator()(int s) const {
    slots.store(s, in(s));
    slots.event(s) = events(s);
    slots.pending(s) = 10 + s;
    for (int k = 0; k < static_cast<int>(slots.micro_xs.extent(1)); ++k) slots.micro_xs(s, k) = 100 * s + k;
  }
};

// An empty slot holds no particle: its fields were never written (slots are allocated uninitialised), so
// it is not loaded (its level count could send the load past the level arrays).
struct ReadSlots {
  Slots slots;
  Four out;
  KOKKOS_FUNCTION void operator()(int s) const {
    if (slots.event(s) != static_cast<int>(SlotEvent::empty)) out(s) = slots.load(s);
  }
};

TEST(ParticleSlots, PermutationMovesEveryFieldAndEmptiesTheSource) {
  const DeviceExec exec;
  constexpr int row = 5;
  Slots slots = allocate_particle_slots(exec, n_permuted, row);
  Slots spare = allocate_particle_slots(exec, n_permuted, row, slots.ended);
  Kokkos::deep_copy(exec, spare.micro_xs, -1.0);
  // Slot 0 flies next in material 7 (its row must move); slot 1 is empty; slots 2 and 3 look up next.
  const int lookup = static_cast<int>(SlotEvent::lookup), advance = static_cast<int>(SlotEvent::advance);
  const int then_collide = static_cast<int>(SlotEvent::lookup_then_collide), empty = static_cast<int>(SlotEvent::empty);
  Four in("keff::test::slots::four");
  Kokkos::View<int[n_permuted], DeviceMem> events("keff::test::slots::events");
  auto in_host = Kokkos::create_mirror_view(in);
  auto events_host = Kokkos::create_mirror_view(events);
  for (int s = 0; s < n_permuted; ++s) in_host(s) = distinct_particle(1000 * s, Fate::alive);
  in_host(0).xs_material = 7;
  in_host(0).geo.n_levels = 2;  // only the levels in use move
  const int event_of[n_permuted] = {advance, empty, lookup, then_collide};
  for (int s = 0; s < n_permuted; ++s) events_host(s) = event_of[s];
  Kokkos::deep_copy(exec, in, in_host);
  Kokkos::deep_copy(exec, events, events_host);
  Kokkos::parallel_for("keff::test::slots::fill", Kokkos::RangePolicy<DeviceExec>(exec, 0, n_permuted),
                       FillSlots{slots, in, events});

  // The sorted lookups 3 then 2, then the other slots in slot order.
  EventQueues<DeviceExec> q;
  q.queue = Kokkos::View<int*, DeviceMem>("keff::test::slots::queue", n_permuted);
  q.sorted = Kokkos::View<int*, DeviceMem>("keff::test::slots::sorted", n_permuted);
  const auto sorted_host = Kokkos::create_mirror_view(q.sorted);
  const int order[n_permuted] = {3, 2, 0, 1};
  for (int j = 0; j < n_permuted; ++j) sorted_host(j) = order[j];
  Kokkos::deep_copy(exec, q.sorted, sorted_host);
  const Slots before = slots, before_spare = spare;
  permute_slots(exec, slots, spare, q, 2, ThreeEntriesInMaterial7{});
  ASSERT_EQ(slots.event.data(), before_spare.event.data()) << "the particles are in the spare now";
  ASSERT_EQ(spare.event.data(), before.event.data());

  Four out("keff::test::slots::out");
  Kokkos::parallel_for("keff::test::slots::read", Kokkos::RangePolicy<DeviceExec>(exec, 0, n_permuted),
                       ReadSlots{slots, out});
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  const auto to_event = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, slots.event);
  const auto to_pending = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, slots.pending);
  const auto to_row = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, slots.micro_xs);
  const auto from_event = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, spare.event);
  const auto queue = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, q.queue);
  for (int j = 0; j < n_permuted; ++j) {
    const int s = order[j];
    EXPECT_EQ(to_event(j), event_of[s]) << "slot " << j;
    EXPECT_EQ(from_event(s), empty) << "source slot " << s << " is left empty";
    if (event_of[s] == empty) continue;
    expect_groups(got(j), in_host(s), slot_fields::all, "slot " + std::to_string(j) + " from slot " + std::to_string(s));
    EXPECT_EQ(got(j).geo.material, in_host(s).geo.material) << "slot " << j;
    EXPECT_EQ(to_pending(j), 10 + s) << "slot " << j;
  }
  EXPECT_EQ(queue(0), 0);  // the sorted lookups are the first slots now
  EXPECT_EQ(queue(1), 1);
  // The flying particle's three entries moved; the lookups' rows were left for the lookup to write.
  for (int k = 0; k < row; ++k) {
    EXPECT_EQ(to_row(2, k), k < 3 ? 100.0 * 0 + k : -1.0) << "entry " << k << " of the flying particle's row";
    EXPECT_EQ(to_row(0, k), -1.0) << "entry " << k << " of a lookup's row";
    EXPECT_EQ(to_row(1, k), -1.0) << "entry " << k << " of a lookup's row";
  }
}

}  // namespace keff::particle_slots_test
