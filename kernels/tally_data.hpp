#pragma once
// Tally State: a regular mesh scored with order-independent fixed-point atomics, and the per-batch
// counters every history adds to.
#include "kernels/fixed_point.hpp"
#include "kernels/regular_mesh.hpp"
#include "kernels/particle.hpp"
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

}  // namespace keff
