#pragma once
// CMFD's tallies as transport scores them: one batch on the coarse mesh and groups of [cmfd], in fixed
// point, so the sums are the same in any order, on any thread or rank count and in either transport
// mode. Scores go through Kokkos ScatterViews (CmfdScoreAdds below): on the host each thread adds into
// its own copy with plain adds, on GPUs into the batch's scores with integer atomics. The steps of a
// history call the functions below (kernels/transport/step_*.hpp), so history- and event-based
// transport score alike and, under domain decomposition, the rank that tracks a flight scores it. The
// solver (src/cmfd/) reads the batch's scores, gathered from the copies and summed over ranks and batches.
//
// Estimators. The analog ones are chosen so that the Monte Carlo balance of every coarse cell and group
// holds exactly in the tallies:
//   flux        track length in the cell (a flight is split at the faces it crosses)
//   total       analog: the weight of every collision
//   scatter     analog: the weight of every collision the neutron survives, from its group to its new one
//   nu_fission  analog: k_prev per fission site banked, from the parent's group to the site's group
//   current     analog: the weight of every crossing of a face, in its direction
//   track_*     track length times the flight's Sigma_t, Sigma_a and nu Sigma_f: the cross sections the
//               operator uses (kernels/cmfd_data.hpp says why)
// Every neutron enters a (group, cell) by birth, scattering or a crossing, and leaves it by a collision
// or a crossing, so for each (g, c): source weight born there + scattering into g there + crossings in =
// collisions + crossings out (tests/test_cmfd_transport.cpp holds every cell to it, bit for bit). Summed
// over the mesh, absorption (total - scatter) + leakage (net crossings out of the mesh) is the weight
// the batch started, and production / (absorption + leakage) is k_prev times the sites banked over it.
//
// The coarse cell a particle is in travels with it (Particle::cmfd_cell, -1 outside the mesh) and
// changes only where a crossing is scored; every score uses it, never the cell of the position. A flight
// that ends on a mesh face, where rounding decides the side of the position, then scores either nothing
// or a crossing out and, if the neutron comes back (reflected), a crossing in: each cell balances either
// way. A neutron that leaks through a vacuum boundary inside the mesh goes on in a straight line, through
// the void beyond the geometry, out of the mesh, scoring the faces it passes: its leakage leaves its cell
// through a face, as the balance needs.
#include "kernels/cmfd_data.hpp"
#include "kernels/fixed_point.hpp"
#include "kernels/mesh_walk.hpp"
#include "kernels/particle.hpp"
#include "kernels/scatter_sums.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace keff {

// A colliding neutron as CMFD saw it before the collision: its cell, coarse group and weight.
struct CmfdCollision {
  int cell = -1;
  int group = -1;
  Real weight = 0;

  KOKKOS_INLINE_FUNCTION bool scored() const { return cell >= 0 && group >= 0; }
};

// Where transport adds CMFD's scores (kernels/scatter_sums.hpp: a copy per thread on the host, atomics
// on GPUs): a ScatterView over each array of CmfdTally::scores, the same names in the same order, so
// for_each_cmfd_array walks both.
template <class Mem>
using CmfdScoreAdds = CmfdTallies<Mem, Fixed, ScatterSums>;

template <class Mem>
struct CmfdTally {
  CmfdMesh mesh;
  CmfdEnergyGroups<Mem> groups;
  CmfdTallies<Mem, Fixed> scores;                 // empty without CMFD; the batch's sums once gathered
  CmfdScoreAdds<Mem> adds;                        // what transport adds to (per thread on the host)
  Kokkos::View<std::int64_t, Mem> sites_outside;  // fission sites banked outside the mesh
  bool active = false;                            // scoring this batch (src/driver/transporter.cpp)

  KOKKOS_INLINE_FUNCTION int group_of(const Particle& p) const { return groups.group_of(p.energy, p.group); }

  // Where a history starts: the coarse cell of its position.
  KOKKOS_INLINE_FUNCTION void start(Particle& p) const {
    if (active) p.cmfd_cell = mesh.grid.bin(p.r);
  }

  // A flight from r0 over distance d along p.u: track length per cell, and the faces it crosses.
  KOKKOS_INLINE_FUNCTION void score_flight(Particle& p, Vec3 r0, Real d) const {
    if (active) walk(p, r0, d, true);
  }

  // A neutron that leaked at p.r: the faces between it and the outside of the mesh, along p.u.
  KOKKOS_INLINE_FUNCTION void score_leak(Particle& p) const {
    if (active) walk(p, p.r, constants::infinity, false);
  }

  KOKKOS_INLINE_FUNCTION CmfdCollision before_collision(const Particle& p) const {
    if (!active) return {};
    return {p.cmfd_cell, group_of(p), p.weight};
  }

  // The collision `c` has happened; `after` is the neutron afterwards (scattered if alive).
  KOKKOS_INLINE_FUNCTION void score_collision(const CmfdCollision& c, const Particle& after) const {
    if (!c.scored()) return;
    const Fixed w = to_fixed<cmfd_fraction_bits>(c.weight);
    adds.total.access()(c.group, c.cell) += w;
    if (!after.alive()) return;
    const int h = group_of(after);
    if (h >= 0) adds.scatter.access()(c.group, h, c.cell) += w;
  }

  // A fission site banked at collision `c`: k_prev neutrons of production per site (the batch banks
  // nu Sigma_f / Sigma_t / k_prev sites per unit weight), from the parent's group to the site's.
  KOKKOS_INLINE_FUNCTION void score_site(const CmfdCollision& c, const Site& s, Real k_prev) const {
    if (!active) return;
    if (c.cell < 0) {  // fission outside the mesh: CMFD cannot see it, and the run stops (src/cmfd/)
      Kokkos::atomic_add(&sites_outside(), std::int64_t(1));
      return;
    }
    const int h = groups.group_of(s.energy, s.group);
    if (c.group >= 0 && h >= 0) {
      adds.nu_fission.access()(c.group, h, c.cell) += to_fixed<cmfd_fraction_bits>(k_prev * s.weight);
    }
  }

 private:
  // The particle's coarse cell along the ray r0 + t u, 0 <= t < d (kernels/mesh_walk.hpp): at each mesh
  // face it reaches, the crossing is scored and the cell changes; with `track`, the length in each cell
  // is scored as flux. The walk crosses at most nx + ny + nz faces and ends inside the mesh or outside it
  // (the box is convex: a ray leaves it once).
  KOKKOS_INLINE_FUNCTION void walk(Particle& p, Vec3 r0, Real d, bool track) const {
    const int g = group_of(p);
    const Fixed w = to_fixed<cmfd_fraction_bits>(p.weight);
    const Vec3 u = p.u;
    int idx[3];
    Real t = 0;  // how far along the ray the walk starts
    if (p.cmfd_cell >= 0) {
      mesh.cell_indices(p.cmfd_cell, idx);
      const RayEnd end = track ? ray_end(mesh.grid, idx, r0, u, d) : RayEnd{};
      if (end.kind != RayEnd::elsewhere) {
        score_short_flight(p, g, w, idx, r0, d, end);
        return;
      }
    } else {
      int axis = 0;
      if (!enter(r0, u, d, idx, axis, t)) return;
      cross(g, w, axis, idx, u[axis] > 0 ? 0 : 1, u[axis] > 0 ? 0 : 1);
    }
    const bool inside = walk_mesh(
        mesh.grid, r0, u, t, d, idx,
        [&](const int* cell, Real length) {
          if (track) add_track(g, cell, p.weight * length, p.xs);
        },
        [&](int axis, const int* cell) {
          const int ahead = u[axis] > 0 ? 1 : 0;
          cross(g, w, axis, cell, ahead, 1 - ahead);
        });
    p.cmfd_cell = inside ? mesh.cell(idx) : -1;
  }

  // A flight from cell idx that ray_end placed without a walk: the walk's pieces and crossing, the same
  // values (the plane's distance as walk_mesh computes it).
  KOKKOS_INLINE_FUNCTION void score_short_flight(Particle& p, int g, Fixed w, int idx[3], Vec3 r0, Real d,
                                                 RayEnd end) const {
    if (end.kind == RayEnd::inside) {
      add_track(g, idx, p.weight * d, p.xs);
      return;
    }
    const int a = end.axis;
    Real first = d;  // on the face: the whole flight on this side
    if (end.kind == RayEnd::past_face) {
      const Real plane = next_plane(mesh.grid, a, idx[a], r0, p.u);
      first = plane > 0 ? plane : 0;
    }
    add_track(g, idx, p.weight * first, p.xs);
    const int ahead = p.u[a] > 0 ? 1 : 0;
    cross(g, w, a, idx, ahead, 1 - ahead);
    idx[a] += ahead ? 1 : -1;
    const bool inside = idx[a] >= 0 && idx[a] < mesh.grid.shape[a];
    if (inside && end.kind == RayEnd::past_face) add_track(g, idx, p.weight * (d - first), p.xs);
    p.cmfd_cell = inside ? mesh.cell(idx) : -1;
  }

  // A ray from outside the mesh: the cell where it enters before distance d (false if it does not), the
  // axis of the face it enters through and the distance there (0 if it starts on that face).
  KOKKOS_INLINE_FUNCTION bool enter(Vec3 r0, Vec3 u, Real d, int idx[3], int& axis, Real& t) const {
    const RegularMesh& grid = mesh.grid;
    Real t_near = -constants::infinity, t_far = constants::infinity;
    axis = -1;
    for (int a = 0; a < 3; ++a) {
      const Real lo = grid.edge(a, 0), hi = grid.edge(a, grid.shape[a]);
      if (u[a] == 0) {
        if (!(r0[a] >= lo && r0[a] <= hi)) return false;
        continue;
      }
      Real t1 = (lo - r0[a]) / u[a], t2 = (hi - r0[a]) / u[a];
      if (t1 > t2) Kokkos::kokkos_swap(t1, t2);
      if (t1 > t_near) {
        t_near = t1;
        axis = a;
      }
      t_far = Kokkos::fmin(t_far, t2);
    }
    if (axis < 0 || !(t_near < t_far) || !(t_far > 0) || !(t_near < d)) return false;
    for (int a = 0; a < 3; ++a) {
      if (a == axis) {
        idx[a] = u[a] > 0 ? 0 : grid.shape[a] - 1;
      } else {
        const Real f = (r0[a] + t_near * u[a] - grid.lower[a]) * grid.inv_width[a];
        idx[a] = f >= 0 ? static_cast<int>(Kokkos::fmin(f, static_cast<Real>(grid.shape[a] - 1))) : 0;
      }
    }
    t = Kokkos::fmax(t_near, Real(0));
    return true;
  }

  // A crossing of the face normal to `axis` on side `side` (0 lower, 1 upper) of cell idx, towards
  // +axis (sense 0) or -axis (sense 1).
  KOKKOS_INLINE_FUNCTION void cross(int g, Fixed w, int axis, const int idx[3], int side, int sense) const {
    if (g < 0) return;
    int face_idx[3] = {idx[0], idx[1], idx[2]};
    face_idx[axis] += side;
    adds.current.access()(sense, g, mesh.face(axis, face_idx)) += w;
  }

  // A track of `length_weight` (weight times length) in cell idx through a material of cross sections xs.
  KOKKOS_INLINE_FUNCTION void add_track(int g, const int idx[3], Real length_weight, const MacroXs& xs) const {
    if (g < 0) return;
    const int c = mesh.cell(idx);
    adds.flux.access()(g, c) += to_fixed<cmfd_fraction_bits>(length_weight);
    adds.track_total.access()(g, c) += to_fixed<cmfd_fraction_bits>(length_weight * xs.total);
    adds.track_absorption.access()(g, c) += to_fixed<cmfd_fraction_bits>(length_weight * xs.absorption);
    adds.track_nu_fission.access()(g, c) += to_fixed<cmfd_fraction_bits>(length_weight * xs.nu_fission);
  }
};

// The batch's scores for `groups` groups on `mesh` (zero-size without CMFD: groups = 0), inactive.
template <class Exec>
CmfdTally<typename Exec::memory_space> allocate_cmfd_tally(const Exec& exec, const CmfdMesh& mesh,
                                                           const CmfdEnergyGroups<typename Exec::memory_space>& groups,
                                                           int n_groups) {
  using Mem = typename Exec::memory_space;
  static_assert(std::is_same_v<Exec, typename Mem::execution_space>, "CMFD's ScatterViews run on their memory's space");
  CmfdTally<Mem> t;
  t.mesh = mesh;
  t.groups = groups;
  if (n_groups > 0) {
    t.scores = allocate_cmfd_tallies<Fixed>(exec, mesh, n_groups, "score_");
    const auto adds_to = [&](const auto& v) { return scatter_sums_over(exec, v); };
    const CmfdTallies<Mem, Fixed>& s = t.scores;
    t.adds = {adds_to(s.flux),        adds_to(s.total),       adds_to(s.scatter),          adds_to(s.nu_fission),
              adds_to(s.current),     adds_to(s.track_total), adds_to(s.track_absorption), adds_to(s.track_nu_fission)};
    t.sites_outside = Kokkos::View<std::int64_t, Mem>(Kokkos::view_alloc(exec, std::string("keff::cmfd::sites_outside")));
  }
  return t;
}

// Zeroes the scores and their per-thread copies before a batch.
template <class Exec>
void reset_cmfd_tally(const Exec& exec, const CmfdTally<typename Exec::memory_space>& t) {
  for_each_cmfd_array([&](const auto& v, const auto& adds) { reset_scatter_sums(exec, v, adds); }, t.scores, t.adds);
  Kokkos::deep_copy(exec, t.sites_outside, std::int64_t(0));
}

// After a batch's transport: the per-thread copies summed into the scores (nothing to do on GPUs, where
// transport added to the scores themselves).
template <class Exec>
void gather_cmfd_tally(const Exec& exec, const CmfdTally<typename Exec::memory_space>& t) {
  for_each_cmfd_array([&](const auto& v, const auto& adds) { gather_scatter_sums(exec, v, adds); }, t.scores, t.adds);
}

}  // namespace keff
