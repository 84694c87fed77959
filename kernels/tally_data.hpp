#pragma once
// Tally State: a regular mesh scored with order-independent fixed-point atomics, the per-batch counters
// every history adds to, and the record of the first lost particle.
#include "kernels/fixed_point.hpp"
#include "kernels/regular_mesh.hpp"
#include "kernels/particle.hpp"
#include "kernels/vocabulary/geometry_faults.hpp"
#include "kernels/xs_data.hpp"

#include <string>

namespace keff {

// The block of a mesh's bins a rank holds: all of them, or under domain decomposition those that
// overlap its domain. Bins are numbered x fastest within the window.
struct MeshWindow {
  int lower[3] = {0, 0, 0};
  int shape[3] = {1, 1, 1};

  KOKKOS_INLINE_FUNCTION int n_bins() const { return shape[0] * shape[1] * shape[2]; }
  // The window's bin of mesh bin idx, or -1 outside the window.
  KOKKOS_INLINE_FUNCTION int local(const int idx[3]) const {
    int l[3];
    for (int d = 0; d < 3; ++d) {
      l[d] = idx[d] - lower[d];
      if (l[d] < 0 || l[d] >= shape[d]) return -1;
    }
    return l[0] + shape[0] * (l[1] + shape[1] * l[2]);
  }
};

// Flux (collision estimator, weight / Sigma_t) and fission rate (weight * Sigma_f / Sigma_t) per energy
// group and mesh bin, for one batch.
template <class Mem>
struct MeshTally {
  RegularMesh mesh;
  MeshWindow window;                             // the bins this rank holds
  Kokkos::View<const Real*, Mem> energy_bounds;  // continuous energy: [n_groups + 1] ascending; empty in MG
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Mem> flux;     // [group][window bin]
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Mem> fission;  // [group][window bin]
  Kokkos::View<std::int64_t, Mem> outside_window;           // scores that fell outside the window (never)

  // Tally groups run fastest first, like multigroup data: group 0 is the highest energy band.
  KOKKOS_INLINE_FUNCTION int group_of(const Particle& p) const {
    const int n = static_cast<int>(energy_bounds.extent(0));
    if (n == 0) return p.group;
    if (p.energy < energy_bounds(0) || p.energy >= energy_bounds(n - 1)) return -1;
    int g = 0;
    while (g + 2 < n && p.energy >= energy_bounds(g + 1)) ++g;
    return (n - 2) - g;
  }

  KOKKOS_INLINE_FUNCTION void score_collision(const Particle& p, const MacroXs& xs) const {
    int idx[3];
    const int g = group_of(p);
    if (!mesh.indices(p.r, idx) || g < 0 || !(xs.total > 0)) return;
    const int b = window.local(idx);
    if (b < 0) {  // a collision away from this rank's domain: counted, so a run stops rather than lose it
      Kokkos::atomic_add(&outside_window(), std::int64_t(1));
      return;
    }
    const Real w = p.weight / xs.total;
    Kokkos::atomic_add(&flux(g, b), to_fixed<mesh_fraction_bits>(w));
    Kokkos::atomic_add(&fission(g, b), to_fixed<mesh_fraction_bits>(w * xs.fission));
  }
};

// What one batch's histories add up to. Sums of integers: identical for any thread or rank count.
struct BatchCounters {
  Fixed k_collision = 0;    // sum of weight * nu Sigma_f / Sigma_t at collisions
  Fixed k_absorption = 0;   // sum of weight * nu sigma_f / sigma_a at absorptions
  Fixed k_tracklength = 0;  // sum of weight * distance * nu Sigma_f along flights
  std::int64_t collisions = 0;
  std::int64_t histories = 0;  // started (counted where a history starts)
  std::int64_t absorbed = 0;   // ended so (counted where it ends, on whichever rank)
  std::int64_t leaked = 0;
  std::int64_t lost = 0;
  Fixed weight_started = 0;    // statistical weight, fixed point like the estimators
  Fixed weight_ended = 0;

  // One list of the counters, as f(&BatchCounters::counter): what += (the sums over threads and slots)
  // and the sum over ranks (src/driver/simulation.cpp) iterate, so a new counter is declared above and
  // named here. The member pointers are handed to f, not kept in an array: device code reads a
  // namespace-scope constexpr array under CUDA only in constant expressions.
  template <class F>
  KOKKOS_INLINE_FUNCTION static constexpr void for_each_counter(F&& f) {
    f(&BatchCounters::k_collision), f(&BatchCounters::k_absorption), f(&BatchCounters::k_tracklength);
    f(&BatchCounters::collisions), f(&BatchCounters::histories), f(&BatchCounters::absorbed);
    f(&BatchCounters::leaked), f(&BatchCounters::lost);
    f(&BatchCounters::weight_started), f(&BatchCounters::weight_ended);
  }

  // How many: the length of the message the sum over ranks sends.
  static constexpr int count() {
    int n = 0;
    for_each_counter([&n](auto) { ++n; });
    return n;
  }

  KOKKOS_INLINE_FUNCTION BatchCounters& operator+=(const BatchCounters& o) {
    for_each_counter([&](auto counter) { this->*counter += o.*counter; });
    return *this;
  }
};

// The first lost particle of the run on this rank (where it was, where it went and why it was lost),
// and how many were lost for each reason. Written only when a particle is lost.
template <class Mem>
struct LostRecord {
  Kokkos::View<int, Mem> recorded;
  Kokkos::View<Real[6], Mem> where;  // position, direction
  Kokkos::View<int[5], Mem> why;     // LostReason, then LostParticle's surface, cell, universe, lattice
  Kokkos::View<std::int64_t[lost_reason_count], Mem> per_reason;

  KOKKOS_INLINE_FUNCTION void record(const Particle& p, LostReason reason) const {
    Kokkos::atomic_add(&per_reason(static_cast<int>(reason)), std::int64_t(1));
    if (Kokkos::atomic_exchange(&recorded(), 1) != 0) return;
    where(0) = p.r.x; where(1) = p.r.y; where(2) = p.r.z;
    where(3) = p.u.x; where(4) = p.u.y; where(5) = p.u.z;
    const GeometryState& g = p.geo;
    const bool located = reason == LostReason::max_events || reason == LostReason::infinite_flight;
    // locate() leaves the level that failed at level[n_levels] (kernels/geometry.hpp).
    const bool failed_level = !located && g.n_levels < max_geometry_levels;
    why(0) = static_cast<int>(reason);
    why(1) = reason == LostReason::after_crossing ? p.hit.surface : -1;
    why(2) = located && g.n_levels > 0 ? g.level[g.n_levels - 1].cell : -1;
    why(3) = failed_level ? g.level[g.n_levels].universe : -1;
    why(4) = failed_level ? g.level[g.n_levels].lattice : -1;
  }
};

template <class Exec>
LostRecord<typename Exec::memory_space> allocate_lost_record(const Exec& exec) {
  using Mem = typename Exec::memory_space;
  const auto alloc = [&](const char* what) { return Kokkos::view_alloc(exec, std::string("keff::state::") + what); };
  return {Kokkos::View<int, Mem>(alloc("lost_flag")), Kokkos::View<Real[6], Mem>(alloc("lost_where")),
          Kokkos::View<int[5], Mem>(alloc("lost_why")),
          Kokkos::View<std::int64_t[lost_reason_count], Mem>(alloc("lost_per_reason"))};
}

// This rank's record, read back to the host (between batches, for the lost-particle message).
template <class Exec>
LostParticles read_lost_record(const Exec& exec, const LostRecord<typename Exec::memory_space>& lost) {
  const auto to_host = [&](const auto& v) {
    auto h = Kokkos::create_mirror_view(v);
    Kokkos::deep_copy(exec, h, v);
    return h;
  };
  const auto recorded = to_host(lost.recorded);
  const auto where = to_host(lost.where);
  const auto why = to_host(lost.why);
  const auto per_reason = to_host(lost.per_reason);
  exec.fence("keff::state::read_lost_record");
  LostParticles out;
  out.recorded = recorded() != 0;
  out.first.r = {where(0), where(1), where(2)};
  out.first.u = {where(3), where(4), where(5)};
  out.first.reason = static_cast<LostReason>(why(0));
  out.first.surface = why(1);
  out.first.cell = why(2);
  out.first.universe = why(3);
  out.first.lattice = why(4);
  for (int i = 0; i < lost_reason_count; ++i) out.per_reason[static_cast<std::size_t>(i)] = per_reason(i);
  return out;
}

}  // namespace keff
