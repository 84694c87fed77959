#pragma once
// Particles in flight for event-based transport: every field of a Particle as its own View over a fixed
// number of slots (structure of arrays), plus what a slot waits for next and the counters of the
// histories that ended in it. An event kernel loads a slot into a Particle, calls the same step function
// history-based transport calls, and stores it back.
//
// One list of fields. The slot fields come in groups (`slot_fields`), so that each event moves only
// what its step reads and writes. Each group is a small struct below that names its fields once:
// their Views, `for_each_view` (each View with its label and its extents after the slot) and `transfer`
// (each View beside the Particle member it holds, copied one way for a load and the other for a store,
// so that what a load reads and what a store writes cannot drift apart). ParticleSlots holds one of
// each; its load, store, byte count and allocation are written over the groups, never over fields. Cabana builds storage and the per-particle tuple from one type
// list (MemberTypes, AoSoA, Tuple), at the price of fields known by index; keff's steps read
// `p.energy`, so the list here keeps names and lives in one struct per group.
//
// A new field: declare it in Particle (kernels/particle.hpp), then in the group that moves it, its View,
// its line in for_each_view and its line in transfer. Allocation, bytes(), load, store and the
// message a particle travels in between domains (kernels/transport/event_leave.hpp) follow; give it a value in
// tests/test_particle_slots.cpp, which checks that every field makes the round trip.
//
// Layout: 2-D and 3-D fields are [slot][...] in the execution space's array layout. On a GPU
// (LayoutLeft) entry k of neighbouring slots is adjacent, so the threads of a warp, which take
// neighbouring queue entries, read and write neighbouring addresses; on a CPU (LayoutRight) one slot's
// entries share cache lines.
#include "kernels/contracts.hpp"
#include "kernels/particle.hpp"
#include "kernels/batch_counters.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace keff {

// Field groups of a slot, so that each event moves only what its step reads and writes.
namespace slot_fields {
inline constexpr unsigned position = 1u << 0;  // PositionFields
inline constexpr unsigned state = 1u << 1;     // StateFields
inline constexpr unsigned history = 1u << 2;   // HistoryFields
inline constexpr unsigned xs = 1u << 3;        // XsFields
inline constexpr unsigned geometry = 1u << 4;  // GeometryFields (the material alone always moves)
inline constexpr unsigned hit = 1u << 5;       // HitFields
inline constexpr unsigned all = 0x3fu;
}  // namespace slot_fields

// What a slot waits for. `empty` slots are refilled from the source or from particles arriving from other
// domains; `leave`: the flight ended outside this rank's domain, and the particle goes to the rank of
// the domain it is in, where it waits for `pending` (its crossing or collision); an arrival that will
// collide first looks up its cross sections again (`lookup_then_collide`), since its micro-XS row
// stayed behind.
enum class SlotEvent : int { empty = 0, lookup, advance, cross, collide, leave, lookup_then_collide };

// The shapes of slot fields: [slot], [slot][axis], [slot][level] and [slot][level][axis].
template <class Exec, class T>
using SlotField = Kokkos::View<T*, typename Exec::memory_space>;
template <class Exec, class T>
using SlotVec = Kokkos::View<T* [3], typename Exec::array_layout, typename Exec::memory_space>;
template <class Exec, class T>
using SlotPerLevel = Kokkos::View<T**, typename Exec::array_layout, typename Exec::memory_space>;
template <class Exec, class T>
using SlotPerLevelVec = Kokkos::View<T** [3], typename Exec::array_layout, typename Exec::memory_space>;

// The two ways a group's `transfer` copies: `slot` is a View element, `member` the Particle member it
// holds. The casts are the enums (Fate) kept as int; every other pair has one type.
struct SlotToParticle {
  template <class Slot, class Member>
  KOKKOS_INLINE_FUNCTION static void copy(const Slot& slot, Member& member) {
    member = static_cast<Member>(slot);
  }
};
struct ParticleToSlot {
  template <class Slot, class Member>
  KOKKOS_INLINE_FUNCTION static void copy(Slot& slot, const Member& member) {
    slot = static_cast<Slot>(member);
  }
};

// The groups. In `transfer`, P is Particle for SlotToParticle and const Particle for ParticleToSlot.

// Where the particle is: its position, direction and the CMFD cell that moves with the position.
template <class Exec>
struct PositionFields {
  SlotVec<Exec, Real> r, u;
  SlotField<Exec, int> cmfd_cell;

  template <class F>
  void for_each_view(F&& f) {
    f(r, "r"), f(u, "u"), f(cmfd_cell, "cmfd_cell");
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    for (int d = 0; d < 3; ++d) {
      Direction::copy(r(s, d), p.r[d]);
      Direction::copy(u(s, d), p.u[d]);
    }
    Direction::copy(cmfd_cell(s), p.cmfd_cell);
  }
};

template <class Exec>
struct StateFields {
  SlotField<Exec, Real> energy, weight;
  SlotField<Exec, int> group, fate;
  SlotField<Exec, std::uint64_t> urr_seed;

  template <class F>
  void for_each_view(F&& f) {
    f(energy, "energy"), f(weight, "weight"), f(group, "group"), f(fate, "fate"), f(urr_seed, "urr_seed");
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    Direction::copy(energy(s), p.energy);
    Direction::copy(group(s), p.group);
    Direction::copy(weight(s), p.weight);
    Direction::copy(fate(s), p.fate);
    Direction::copy(urr_seed(s), p.urr_seed);
  }
};

// The random number stream, the history's identity and counts, and its estimator scores so far.
template <class Exec>
struct HistoryFields {
  SlotField<Exec, std::uint64_t> rng;
  SlotField<Exec, std::int64_t> index, n_collisions;
  SlotField<Exec, int> n_progeny, n_events, secondary_top;
  SlotField<Exec, Real> k_collision, k_absorption, k_tracklength;

  template <class F>
  void for_each_view(F&& f) {
    f(rng, "rng"), f(index, "index"), f(n_collisions, "n_collisions"), f(n_progeny, "n_progeny");
    f(n_events, "n_events"), f(secondary_top, "secondary_top"), f(k_collision, "k_collision");
    f(k_absorption, "k_absorption"), f(k_tracklength, "k_tracklength");
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    Direction::copy(rng(s), p.rng.state);
    Direction::copy(index(s), p.index);
    Direction::copy(n_progeny(s), p.n_progeny);
    Direction::copy(secondary_top(s), p.secondary_top);
    Direction::copy(n_events(s), p.n_events);
    Direction::copy(n_collisions(s), p.n_collisions);
    Direction::copy(k_collision(s), p.k_collision);
    Direction::copy(k_absorption(s), p.k_absorption);
    Direction::copy(k_tracklength(s), p.k_tracklength);
  }
};

// Macroscopic cross sections and the (material, energy, group) they are for.
template <class Exec>
struct XsFields {
  SlotField<Exec, Real> xs_total, xs_absorption, xs_fission, xs_nu_fission, xs_energy;
  SlotField<Exec, int> xs_energy_search, xs_material, xs_group;

  template <class F>
  void for_each_view(F&& f) {
    f(xs_total, "xs_total"), f(xs_absorption, "xs_absorption"), f(xs_fission, "xs_fission");
    f(xs_nu_fission, "xs_nu_fission"), f(xs_energy_search, "xs_energy_search"), f(xs_energy, "xs_energy");
    f(xs_material, "xs_material"), f(xs_group, "xs_group");
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    Direction::copy(xs_total(s), p.xs.total);
    Direction::copy(xs_absorption(s), p.xs.absorption);
    Direction::copy(xs_fission(s), p.xs.fission);
    Direction::copy(xs_nu_fission(s), p.xs.nu_fission);
    Direction::copy(xs_energy_search(s), p.xs.energy_search);
    Direction::copy(xs_material(s), p.xs_material);
    Direction::copy(xs_energy(s), p.xs_energy);
    Direction::copy(xs_group(s), p.xs_group);
  }
};

// The level stack; only the levels in use move.
template <class Exec>
struct GeometryFields {
  SlotField<Exec, int> n_levels;
  SlotPerLevel<Exec, int> universe, cell, lattice;
  SlotPerLevelVec<Exec, int> lat_index;
  SlotPerLevelVec<Exec, Real> offset;

  template <class F>
  void for_each_view(F&& f) {
    f(n_levels, "n_levels");
    f(universe, "universe", max_geometry_levels), f(cell, "cell", max_geometry_levels);
    f(lattice, "lattice", max_geometry_levels), f(lat_index, "lat_index", max_geometry_levels);
    f(offset, "offset", max_geometry_levels);
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    Direction::copy(n_levels(s), p.geo.n_levels);  // first: a load needs it for the loop
    KEFF_ASSERT(p.geo.n_levels >= 0 && p.geo.n_levels <= max_geometry_levels);
    for (int k = 0; k < p.geo.n_levels; ++k) {
      auto& lv = p.geo.level[k];
      Direction::copy(universe(s, k), lv.universe);
      Direction::copy(cell(s, k), lv.cell);
      Direction::copy(lattice(s, k), lv.lattice);
      for (int d = 0; d < 3; ++d) {
        Direction::copy(lat_index(s, k, d), lv.lat_index[d]);
        Direction::copy(offset(s, k, d), lv.offset[d]);
      }
    }
  }
};

// The boundary the last flight stopped on.
template <class Exec>
struct HitFields {
  SlotField<Exec, Real> hit_distance;
  SlotField<Exec, int> hit_level, hit_surface;

  template <class F>
  void for_each_view(F&& f) {
    f(hit_distance, "hit_distance"), f(hit_level, "hit_level"), f(hit_surface, "hit_surface");
  }
  template <class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    Direction::copy(hit_distance(s), p.hit.distance);
    Direction::copy(hit_level(s), p.hit.level);
    Direction::copy(hit_surface(s), p.hit.surface);
  }
};

template <class Exec>
struct ParticleSlots {
  SlotField<Exec, int> event;    // SlotEvent
  SlotField<Exec, int> pending;  // SlotEvent after arrival, for `leave`
  // The particle: its material, which moves with every group (lookups, their sort key and needs_xs() read
  // it without the level stack), then one member per group.
  SlotField<Exec, int> material;
  PositionFields<Exec> position;
  StateFields<Exec> state;
  HistoryFields<Exec> history;
  XsFields<Exec> xs;
  GeometryFields<Exec> geometry;
  HitFields<Exec> hit;
  // Micro-XS cache of each slot's last lookup, [slot][nuclide] (see kernels/transport/step_lookup.hpp). Its row
  // length is the problem's, not the particle's, so it is allocated and counted apart from for_each_view.
  Kokkos::View<Real**, typename Exec::array_layout, typename Exec::memory_space> micro_xs;
  // Counters of the histories that ended in each slot this batch, summed once at the end of the batch.
  SlotField<Exec, BatchCounters> ended;

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(event.extent(0)); }

  template <unsigned F = slot_fields::all>
  KOKKOS_INLINE_FUNCTION Particle load(int s) const {
    Particle p;
    load_into<F>(s, p);
    return p;
  }

  template <unsigned F>
  KOKKOS_INLINE_FUNCTION void load_into(int s, Particle& p) const {
    transfer<F, SlotToParticle>(s, p);
  }

  template <unsigned F = slot_fields::all>
  KOKKOS_INLINE_FUNCTION void store(int s, const Particle& p) const {
    transfer<F, ParticleToSlot>(s, p);
  }

  // After a step on a particle loaded with fields `Loaded`: a history that ended leaves its counters in
  // the slot (ctx.finish: kernels/transport/transport_context.hpp), which waits to be refilled; a live
  // particle stores fields `Stored` and waits for a lookup if its material or energy changed, else for
  // its next flight.
  template <unsigned Loaded, unsigned Stored, class Context>
  KOKKOS_INLINE_FUNCTION void retire_or_park(int s, Particle& p, const Context& ctx) const {
    if (!p.alive()) {
      if constexpr ((Loaded & slot_fields::history) == 0) load_into<slot_fields::history>(s, p);
      ctx.finish(p, ended(s));
      // The history's next secondary neutron takes the slot over (lost at birth: ended at once).
      while (ctx.resume_secondary(p, ended(s))) {
        if (p.alive()) {
          store<slot_fields::all>(s, p);
          event(s) = static_cast<int>(SlotEvent::lookup);
          return;
        }
        ctx.finish(p, ended(s));
      }
      event(s) = static_cast<int>(SlotEvent::empty);
      return;
    }
    store<Stored>(s, p);
    if constexpr ((Loaded & slot_fields::xs) == 0) load_into<slot_fields::xs>(s, p);
    if constexpr ((Loaded & slot_fields::state) == 0) load_into<slot_fields::state>(s, p);
    event(s) = static_cast<int>(p.needs_xs() ? SlotEvent::lookup : SlotEvent::advance);
  }

  // Every View but micro_xs, as f(view, label, extents after the slot...).
  template <class F>
  void for_each_view(F&& f) {
    f(event, "event"), f(pending, "pending"), f(material, "material"), f(ended, "ended");
    position.for_each_view(f);
    state.for_each_view(f);
    history.for_each_view(f);
    xs.for_each_view(f);
    geometry.for_each_view(f);
    hit.for_each_view(f);
  }

  std::size_t bytes() const;

 private:
  // The groups in F, one way; a group not in F costs nothing.
  template <unsigned F, class Direction, class P>
  KOKKOS_INLINE_FUNCTION void transfer(int s, P& p) const {
    KEFF_EXPECT(s >= 0 && s < size());
    Direction::copy(material(s), p.geo.material);
    if constexpr ((F & slot_fields::position) != 0) position.template transfer<Direction>(s, p);
    if constexpr ((F & slot_fields::state) != 0) state.template transfer<Direction>(s, p);
    if constexpr ((F & slot_fields::history) != 0) history.template transfer<Direction>(s, p);
    if constexpr ((F & slot_fields::xs) != 0) xs.template transfer<Direction>(s, p);
    if constexpr ((F & slot_fields::geometry) != 0) geometry.template transfer<Direction>(s, p);
    if constexpr ((F & slot_fields::hit) != 0) hit.template transfer<Direction>(s, p);
  }
};

// Bytes of all slots: every View, micro_xs included (event_slot_bytes, kernels/transport/transport_state.hpp,
// allocates one slot to size one).
template <class Exec>
std::size_t ParticleSlots<Exec>::bytes() const {
  std::size_t b = 0;
  const auto add = [&](const auto& v, auto&&...) {
    b += v.span() * sizeof(typename std::decay_t<decltype(v)>::value_type);
  };
  ParticleSlots views = *this;  // for_each_view hands out Views to assign (allocation does); this only reads
  views.for_each_view(add);
  add(micro_xs);
  return b;
}

// `shared_ended`, if allocated, is taken as the slots' `ended` rather than a new View: the spare set of
// slots sorted transport moves particles into (kernels/transport/slot_permute.hpp) shares it.
template <class Exec>
ParticleSlots<Exec> allocate_particle_slots(const Exec& exec, int n_slots, int max_nuclides,
                                            const SlotField<Exec, BatchCounters>& shared_ended = {}) {
  ParticleSlots<Exec> p;
  const auto allocate = [&](auto& view, const char* what, auto... extents) {
    using View = std::decay_t<decltype(view)>;
    if constexpr (std::is_same_v<View, SlotField<Exec, BatchCounters>>) {
      if (shared_ended.data() != nullptr) {
        view = shared_ended;
        return;
      }
    }
    view = View(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::slots::") + what),
                static_cast<std::size_t>(n_slots), static_cast<std::size_t>(extents)...);
  };
  p.for_each_view(allocate);
  allocate(p.micro_xs, "micro_xs", max_nuclides > 0 ? max_nuclides : 1);
  Kokkos::deep_copy(exec, p.event, static_cast<int>(SlotEvent::empty));
  return p;
}

}  // namespace keff
