#pragma once
// Particles in flight for event-based transport: every field of a Particle as its own View over a fixed
// number of slots (structure of arrays), plus what a slot waits for next and the counters of the
// histories that ended in it. An event kernel loads a slot into a Particle, calls the same step function
// history-based transport calls, and stores it back.
//
// Layout: 2-D and 3-D fields are [slot][...] in the execution space's array layout. On a GPU
// (LayoutLeft) entry k of neighbouring slots is adjacent, so the threads of a warp, which take
// neighbouring queue entries, read and write neighbouring addresses; on a CPU (LayoutRight) one slot's
// entries share cache lines.
#include "kernels/particle.hpp"
#include "kernels/step_finish.hpp"
#include "kernels/tally_data.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

namespace keff {

// Field groups of a slot, so that each event moves only what its step reads and writes.
namespace slot_fields {
inline constexpr unsigned position = 1u << 0;  // r, u
inline constexpr unsigned state = 1u << 1;     // energy, group, weight, fate
inline constexpr unsigned history = 1u << 2;   // rng, index, progeny, flights, collisions, estimator scores
inline constexpr unsigned xs = 1u << 3;        // macroscopic cross sections and the (material, energy, group) they are for
inline constexpr unsigned geometry = 1u << 4;  // the level stack (the material alone always moves)
inline constexpr unsigned hit = 1u << 5;       // the boundary the last flight stopped on
inline constexpr unsigned all = 0x3fu;
}  // namespace slot_fields

// What a slot waits for. `empty` slots are refilled from the source or from particles arriving from other
// domains; `leave`: the flight ended outside this rank's domain, and the particle goes to the rank of
// the domain it is in, where it waits for `pending` (its crossing or collision); an arrival that will
// collide first looks up its cross sections again (`lookup_then_collide`), since its micro-XS row
// stayed behind.
enum class SlotEvent : int { empty = 0, lookup, advance, cross, collide, leave, lookup_then_collide };

template <class Exec>
struct ParticleSlots {
  using Mem = typename Exec::memory_space;
  using Layout = typename Exec::array_layout;
  template <class T>
  using Field = Kokkos::View<T*, Mem>;
  template <class T>
  using Vec = Kokkos::View<T* [3], Layout, Mem>;
  template <class T>
  using PerLevel = Kokkos::View<T**, Layout, Mem>;            // [slot][level]
  template <class T>
  using PerLevelVec = Kokkos::View<T** [3], Layout, Mem>;     // [slot][level][axis]

  Field<int> event;    // SlotEvent
  Field<int> pending;  // SlotEvent after arrival, for `leave`
  Vec<Real> r, u;
  Field<Real> energy, weight;
  Field<int> group, fate;
  Field<std::uint64_t> rng;
  Field<std::int64_t> index, n_collisions;
  Field<int> n_progeny, n_events;
  Field<Real> k_collision, k_absorption, k_tracklength;
  Field<Real> xs_total, xs_absorption, xs_fission, xs_nu_fission;
  Field<int> xs_material, xs_group;
  Field<Real> xs_energy;
  Field<Real> hit_distance;
  Field<int> hit_level, hit_surface;
  Field<int> n_levels, material;
  PerLevel<int> universe, cell, lattice;
  PerLevelVec<int> lat_index;
  PerLevelVec<Real> offset;
  // Micro-XS cache of each slot's last lookup, [slot][nuclide] (see kernels/step_lookup.hpp).
  Kokkos::View<Real**, Layout, Mem> micro_xs;
  // Counters of the histories that ended in each slot this batch, summed once at the end of the batch.
  Field<BatchCounters> ended;

  KOKKOS_INLINE_FUNCTION int size() const { return static_cast<int>(event.extent(0)); }

  template <unsigned F = slot_fields::all>
  KOKKOS_INLINE_FUNCTION Particle load(int s) const {
    Particle p;
    load_into<F>(s, p);
    return p;
  }

  template <unsigned F>
  KOKKOS_INLINE_FUNCTION void load_into(int s, Particle& p) const {
    p.geo.material = material(s);
    if constexpr ((F & slot_fields::position) != 0) {
      for (int d = 0; d < 3; ++d) {
        p.r[d] = r(s, d);
        p.u[d] = u(s, d);
      }
    }
    if constexpr ((F & slot_fields::state) != 0) {
      p.energy = energy(s);
      p.group = group(s);
      p.weight = weight(s);
      p.fate = static_cast<Fate>(fate(s));
    }
    if constexpr ((F & slot_fields::history) != 0) {
      p.rng.state = rng(s);
      p.index = index(s);
      p.n_progeny = n_progeny(s);
      p.n_events = n_events(s);
      p.n_collisions = n_collisions(s);
      p.k_collision = k_collision(s);
      p.k_absorption = k_absorption(s);
      p.k_tracklength = k_tracklength(s);
    }
    if constexpr ((F & slot_fields::xs) != 0) {
      p.xs.total = xs_total(s);
      p.xs.absorption = xs_absorption(s);
      p.xs.fission = xs_fission(s);
      p.xs.nu_fission = xs_nu_fission(s);
      p.xs_material = xs_material(s);
      p.xs_energy = xs_energy(s);
      p.xs_group = xs_group(s);
    }
    if constexpr ((F & slot_fields::geometry) != 0) {
      p.geo.n_levels = n_levels(s);
      for (int k = 0; k < p.geo.n_levels; ++k) {
        GeometryLevel& lv = p.geo.level[k];
        lv.universe = universe(s, k);
        lv.cell = cell(s, k);
        lv.lattice = lattice(s, k);
        for (int d = 0; d < 3; ++d) {
          lv.lat_index[d] = lat_index(s, k, d);
          lv.offset[d] = offset(s, k, d);
        }
      }
    }
    if constexpr ((F & slot_fields::hit) != 0) {
      p.hit.distance = hit_distance(s);
      p.hit.level = hit_level(s);
      p.hit.surface = hit_surface(s);
    }
  }

  template <unsigned F = slot_fields::all>
  KOKKOS_INLINE_FUNCTION void store(int s, const Particle& p) const {
    material(s) = p.geo.material;
    if constexpr ((F & slot_fields::position) != 0) {
      for (int d = 0; d < 3; ++d) {
        r(s, d) = p.r[d];
        u(s, d) = p.u[d];
      }
    }
    if constexpr ((F & slot_fields::state) != 0) {
      energy(s) = p.energy;
      group(s) = p.group;
      weight(s) = p.weight;
      fate(s) = static_cast<int>(p.fate);
    }
    if constexpr ((F & slot_fields::history) != 0) {
      rng(s) = p.rng.state;
      index(s) = p.index;
      n_progeny(s) = p.n_progeny;
      n_events(s) = p.n_events;
      n_collisions(s) = p.n_collisions;
      k_collision(s) = p.k_collision;
      k_absorption(s) = p.k_absorption;
      k_tracklength(s) = p.k_tracklength;
    }
    if constexpr ((F & slot_fields::xs) != 0) {
      xs_total(s) = p.xs.total;
      xs_absorption(s) = p.xs.absorption;
      xs_fission(s) = p.xs.fission;
      xs_nu_fission(s) = p.xs.nu_fission;
      xs_material(s) = p.xs_material;
      xs_energy(s) = p.xs_energy;
      xs_group(s) = p.xs_group;
    }
    if constexpr ((F & slot_fields::geometry) != 0) {
      n_levels(s) = p.geo.n_levels;
      for (int k = 0; k < p.geo.n_levels; ++k) {
        const GeometryLevel& lv = p.geo.level[k];
        universe(s, k) = lv.universe;
        cell(s, k) = lv.cell;
        lattice(s, k) = lv.lattice;
        for (int d = 0; d < 3; ++d) {
          lat_index(s, k, d) = lv.lat_index[d];
          offset(s, k, d) = lv.offset[d];
        }
      }
    }
    if constexpr ((F & slot_fields::hit) != 0) {
      hit_distance(s) = p.hit.distance;
      hit_level(s) = p.hit.level;
      hit_surface(s) = p.hit.surface;
    }
  }

  // After a step on a particle loaded with fields `Loaded`: a history that ended leaves its counters in
  // the slot, which waits to be refilled; a live particle stores fields `Stored` and waits for a lookup
  // if its material or energy changed, else for its next flight.
  template <unsigned Loaded, unsigned Stored>
  KOKKOS_INLINE_FUNCTION void retire_or_park(int s, Particle& p) const {
    if (!p.alive()) {
      if constexpr ((Loaded & slot_fields::history) == 0) load_into<slot_fields::history>(s, p);
      finish_history(p, ended(s));
      event(s) = static_cast<int>(SlotEvent::empty);
      return;
    }
    store<Stored>(s, p);
    if constexpr ((Loaded & slot_fields::xs) == 0) load_into<slot_fields::xs>(s, p);
    if constexpr ((Loaded & slot_fields::state) == 0) load_into<slot_fields::state>(s, p);
    event(s) = static_cast<int>(p.needs_xs() ? SlotEvent::lookup : SlotEvent::advance);
  }

  std::size_t bytes() const;
};

// Bytes of one slot: every field, the micro-XS row and the queue entries an event-based batch keeps.
template <class Exec>
std::size_t ParticleSlots<Exec>::bytes() const {
  std::size_t b = 0;
  const auto add = [&](const auto& v) { b += v.span() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
  add(event), add(pending), add(r), add(u), add(energy), add(weight), add(group), add(fate), add(rng), add(index);
  add(n_collisions), add(n_progeny), add(n_events), add(k_collision), add(k_absorption), add(k_tracklength);
  add(xs_total), add(xs_absorption), add(xs_fission), add(xs_nu_fission), add(xs_material), add(xs_group);
  add(xs_energy), add(hit_distance), add(hit_level), add(hit_surface), add(n_levels), add(material);
  add(universe), add(cell), add(lattice), add(lat_index), add(offset), add(micro_xs), add(ended);
  return b;
}

template <class Exec>
ParticleSlots<Exec> allocate_particle_slots(const Exec& exec, int n_slots, int max_nuclides) {
  ParticleSlots<Exec> p;
  const auto make = [&](auto& view, const char* what, auto... extents) {
    using View = std::decay_t<decltype(view)>;
    view = View(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::slots::") + what), extents...);
  };
  const auto n = static_cast<std::size_t>(n_slots);
  const auto levels = static_cast<std::size_t>(max_geometry_levels);
  make(p.event, "event", n), make(p.pending, "pending", n);
  make(p.r, "r", n), make(p.u, "u", n);
  make(p.energy, "energy", n), make(p.weight, "weight", n), make(p.group, "group", n), make(p.fate, "fate", n);
  make(p.rng, "rng", n), make(p.index, "index", n), make(p.n_collisions, "n_collisions", n);
  make(p.n_progeny, "n_progeny", n), make(p.n_events, "n_events", n);
  make(p.k_collision, "k_collision", n), make(p.k_absorption, "k_absorption", n);
  make(p.k_tracklength, "k_tracklength", n);
  make(p.xs_total, "xs_total", n), make(p.xs_absorption, "xs_absorption", n), make(p.xs_fission, "xs_fission", n);
  make(p.xs_nu_fission, "xs_nu_fission", n), make(p.xs_material, "xs_material", n), make(p.xs_group, "xs_group", n);
  make(p.xs_energy, "xs_energy", n);
  make(p.hit_distance, "hit_distance", n), make(p.hit_level, "hit_level", n), make(p.hit_surface, "hit_surface", n);
  make(p.n_levels, "n_levels", n), make(p.material, "material", n);
  make(p.universe, "universe", n, levels), make(p.cell, "cell", n, levels), make(p.lattice, "lattice", n, levels);
  make(p.lat_index, "lat_index", n, levels), make(p.offset, "offset", n, levels);
  make(p.micro_xs, "micro_xs", n, static_cast<std::size_t>(max_nuclides > 0 ? max_nuclides : 1));
  make(p.ended, "ended", n);
  Kokkos::deep_copy(exec, p.event, static_cast<int>(SlotEvent::empty));
  return p;
}

}  // namespace keff
