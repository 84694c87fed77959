#pragma once
// Tally State: a regular mesh scored with order-independent fixed-point atomics, the per-batch counters
// every history adds to, and the record of the first lost particle.
#include "kernels/fixed_point.hpp"
#include "kernels/particle.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

// A regular Cartesian mesh over a box.
struct MeshSpec {
  Real lower[3] = {0, 0, 0};
  Real inv_width[3] = {1, 1, 1};  // bins per cm
  int shape[3] = {1, 1, 1};

  KOKKOS_INLINE_FUNCTION int n_bins() const { return shape[0] * shape[1] * shape[2]; }
  // Bin index (x fastest), or -1 outside the mesh.
  KOKKOS_INLINE_FUNCTION int bin(Vec3 r) const {
    int idx[3];
    for (int d = 0; d < 3; ++d) {
      const Real f = (r[d] - lower[d]) * inv_width[d];
      if (!(f >= 0) || f >= static_cast<Real>(shape[d])) return -1;  // also rejects NaN
      idx[d] = static_cast<int>(f);
    }
    return idx[0] + shape[0] * (idx[1] + shape[1] * idx[2]);
  }
};

// Flux (collision estimator, weight / Sigma_t) and fission rate (weight * Sigma_f / Sigma_t) per energy
// group and mesh bin, for one batch.
template <class Mem>
struct MeshTally {
  MeshSpec mesh;
  Kokkos::View<const Real*, Mem> energy_bounds;  // continuous energy: [n_groups + 1] ascending; empty in MG
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Mem> flux;     // [group][bin]
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Mem> fission;  // [group][bin]

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
    const int b = mesh.bin(p.r);
    const int g = group_of(p);
    if (b < 0 || g < 0 || !(xs.total > 0)) return;
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
  std::int64_t histories = 0;  // started
  std::int64_t absorbed = 0;
  std::int64_t leaked = 0;
  std::int64_t lost = 0;

  KOKKOS_INLINE_FUNCTION BatchCounters& operator+=(const BatchCounters& o) {
    k_collision += o.k_collision;
    k_absorption += o.k_absorption;
    k_tracklength += o.k_tracklength;
    collisions += o.collisions;
    histories += o.histories;
    absorbed += o.absorbed;
    leaked += o.leaked;
    lost += o.lost;
    return *this;
  }
};

// Where the first lost particle of a batch was, for the error message.
template <class Mem>
struct LostRecord {
  Kokkos::View<int, Mem> recorded;
  Kokkos::View<Real[6], Mem> where;  // position, direction

  KOKKOS_INLINE_FUNCTION void record(const Particle& p) const {
    if (Kokkos::atomic_exchange(&recorded(), 1) == 0) {
      where(0) = p.r.x; where(1) = p.r.y; where(2) = p.r.z;
      where(3) = p.u.x; where(4) = p.u.y; where(5) = p.u.z;
    }
  }
};

}  // namespace keff
