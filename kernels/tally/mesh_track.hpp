#pragma once
// A flight through a regular mesh, split at the mesh planes it crosses: the track-length estimator of a
// mesh filter scores each piece in its own bin (OpenMC's mesh filter does the same). Most flights of a
// mesh that follows the geometry (pin cells) stay inside one bin, because the geometry already ends them
// at its surfaces: when both ends lie in one bin the flight is that bin's, whole, found with a few
// multiplications, and a flight wholly beyond one face of the mesh is dropped as fast. The others are
// clipped to the mesh box and walked from the bin they enter (kernels/mesh_walk.hpp).
#include "kernels/mesh_walk.hpp"
#include "kernels/regular_mesh.hpp"
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// How far past a plane, in bin widths, a flight may end and still count as its bin's whole: the geometry
// ends flights on its surfaces, and a flight that ends on a pin cell's edge lands on either side of the
// mesh plane there by rounding. What this gives the bin instead of its neighbour is at most a billionth
// of a bin width, far below what fixed point resolves of a piece (2^-24).
inline constexpr Real mesh_plane_slack = 1e-9;

// What bin_holding answers besides a bin: the flight crosses a plane or a face of the mesh (walk it), or
// it lies wholly beyond one face, outside the mesh (nothing to score: a reflector's flights, for a mesh
// over the fuel).
inline constexpr int flight_crosses_planes = -1;
inline constexpr int flight_outside_mesh = -2;

// The bin holding the whole flight from r0 to r1 (both ends in its closed box, within the slack), else
// flight_crosses_planes or flight_outside_mesh. Comparisons rather than fmin and fmax, which a host build
// calls in libm.
KOKKOS_INLINE_FUNCTION int bin_holding(const RegularMesh& mesh, Vec3 r0, Vec3 r1) {
  int idx[3];
  bool one_bin = true;
  for (int a = 0; a < 3; ++a) {
    const Real s0 = (r0[a] - mesh.lower[a]) * mesh.inv_width[a], s1 = (r1[a] - mesh.lower[a]) * mesh.inv_width[a];
    const Real lo = s0 < s1 ? s0 : s1, hi = s0 < s1 ? s1 : s0;
    if (hi < 0 || lo > mesh.shape[a]) return flight_outside_mesh;
    if (!one_bin) continue;
    const Real middle = Real(0.5) * (lo + hi);
    // In range before the cast (NaN fails here too), which then floors; both ends within [i, i + 1].
    const int i = middle >= 0 && middle < mesh.shape[a] ? static_cast<int>(middle) : -1;
    one_bin = i >= 0 && lo >= i - mesh_plane_slack && hi <= i + 1 + mesh_plane_slack;
    idx[a] = i;
  }
  return one_bin ? mesh.bin_of(idx) : flight_crosses_planes;
}

// Calls f(bin, length) for each piece of the flight r0 + t u, 0 <= t < d, inside `mesh`, in order; the
// lengths add up to the part of the flight inside the mesh.
template <class F>
KOKKOS_INLINE_FUNCTION void for_each_mesh_piece(const RegularMesh& mesh, Vec3 r0, Vec3 u, Real d, F&& f) {
  const int bin = bin_holding(mesh, r0, r0 + d * u);
  if (bin >= 0) {
    f(bin, d);
    return;
  }
  if (bin == flight_outside_mesh) return;
  // The part of the flight inside the box: [t_in, t_out).
  Real t_in = 0, t_out = d;
  for (int a = 0; a < 3; ++a) {
    const Real lo = mesh.lower[a], hi = mesh.edge(a, mesh.shape[a]);
    if (u[a] == 0) {
      if (!(r0[a] >= lo && r0[a] < hi)) return;
      continue;
    }
    Real t0 = (lo - r0[a]) / u[a], t1 = (hi - r0[a]) / u[a];
    if (t0 > t1) {
      const Real swap = t0;
      t0 = t1;
      t1 = swap;
    }
    if (t0 > t_in) t_in = t0;
    if (t1 < t_out) t_out = t1;
  }
  if (!(t_in < t_out)) return;
  // The bin the flight enters: where it is at t_in, on a plane the bin it heads into.
  int idx[3];
  for (int a = 0; a < 3; ++a) {
    const Real x = (r0[a] + t_in * u[a] - mesh.lower[a]) * mesh.inv_width[a];
    int i = static_cast<int>(Kokkos::floor(x));
    if (u[a] < 0 && x == Kokkos::floor(x)) --i;
    idx[a] = Kokkos::min(Kokkos::max(i, 0), mesh.shape[a] - 1);
  }
  walk_mesh(
      mesh, r0, u, t_in, t_out, idx, [&](const int* i, Real length) { if (length > 0) f(mesh.bin_of(i), length); },
      [](int, const int*) {});
}

}  // namespace keff
