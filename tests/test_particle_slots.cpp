// Event-based transport's slots (kernels/transport/particle_slots.hpp): a Particle stored into a slot and loaded
// back keeps every field, and a store or a load with some field groups leaves the other groups alone.
// Stores and loads run in a one-iteration kernel whose results are copied back, so the test holds on GPU
// builds too; the kernel is a functor at namespace scope (CUDA refuses extended lambdas inside the
// private TestBody of a gtest TEST).
//
// The fields are listed here again on purpose, by group: the test must not trust the list it checks.
// A new Particle field needs a value in distinct_particle() and a line in expect_groups().
#include "kernels/device.hpp"
#include "kernels/transport/particle_slots.hpp"

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
  }
  if (groups & history) {
    EXPECT_EQ(got.rng.state, want.rng.state);
    EXPECT_EQ(got.index, want.index);
    EXPECT_EQ(got.n_progeny, want.n_progeny);
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

}  // namespace keff::particle_slots_test
