#pragma once
// A ray walked through a regular mesh cell by cell (Amanatides and Woo): from the cell it is in, step to
// the nearest plane ahead, axis by axis, to where it ends or leaves the mesh. The one walker of keff's
// meshes: a tally's mesh filter (kernels/tally/mesh_track.hpp) takes the length in each cell, CMFD
// (kernels/cmfd_tally.hpp) the length and every face crossed; each says how the ray enters.
#include "kernels/regular_mesh.hpp"
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// Where the ray r0 + t u meets the plane that ends cell i along axis a (infinity when it runs parallel).
KOKKOS_INLINE_FUNCTION Real next_plane(const RegularMesh& mesh, int a, int i, Vec3 r0, Vec3 u) {
  if (u[a] == 0) return constants::infinity;
  return (mesh.edge(a, u[a] > 0 ? i + 1 : i) - r0[a]) / u[a];
}

// True when the ray r0 + s u from inside cell idx ends, at s = t_end, inside that cell by a margin of
// 1e-6 of the cell's width along every axis: far more than the rounding of walk_mesh's plane distances
// (a few units in the last place of the coordinates), so walk_mesh would find no plane before t_end and
// give the one piece (idx, t_end - t). A caller can then skip the walk: most flights in a coarse mesh
// never leave their cell, and the walk's six divisions cost more than this test's three products.
KOKKOS_INLINE_FUNCTION bool ray_ends_in_cell(const RegularMesh& mesh, const int idx[3], Vec3 r0, Vec3 u, Real t_end) {
  constexpr Real margin = 1e-6;
  for (int a = 0; a < 3; ++a) {
    const Real f = (r0[a] + t_end * u[a] - mesh.lower[a]) * mesh.inv_width[a] - idx[a];
    if (!(f > margin && f < 1 - margin)) return false;
  }
  return true;
}

// Walks the ray r0 + s u from cell idx (inside the mesh), where it is at s = t, to s = t_end or out of the
// mesh: piece(idx, length) for its part in each cell, in order (a length is 0 between two planes met at
// one distance, at an edge or corner of cells), and face(axis, idx) for each face it crosses, before
// stepping out of cell idx through the side u[axis] points to. Returns true when the ray ends inside the
// mesh, in cell idx, and false when it left it. Each plane's distance is computed from the plane, so
// nothing drifts over many cells; the lengths add up to t_end - t, or to where the ray leaves.
template <class Piece, class Face>
KOKKOS_INLINE_FUNCTION bool walk_mesh(const RegularMesh& mesh, Vec3 r0, Vec3 u, Real t, Real t_end, int idx[3],
                                      Piece&& piece, Face&& face) {
  Real t_next[3];
  for (int a = 0; a < 3; ++a) t_next[a] = next_plane(mesh, a, idx[a], r0, u);
  for (;;) {
    int a = 0;  // the nearest plane ahead; on a tie the lower axis
    if (t_next[1] < t_next[a]) a = 1;
    if (t_next[2] < t_next[a]) a = 2;
    if (!(t_next[a] < t_end)) {
      piece(idx, t_end - t);
      return true;
    }
    const Real end = t_next[a] > t ? t_next[a] : t;
    piece(idx, end - t);
    t = end;
    face(a, idx);
    idx[a] += u[a] > 0 ? 1 : -1;
    if (idx[a] < 0 || idx[a] >= mesh.shape[a]) return false;
    t_next[a] = next_plane(mesh, a, idx[a], r0, u);
  }
}

}  // namespace keff
