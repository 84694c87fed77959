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

// How the ray r0 + s u from inside cell idx ends, at s = t_end, where its own cell tells without a walk
// (ray_end below). The kinds a caller can score without walk_mesh, which would give the same pieces:
//   inside     in cell idx: one piece, (idx, t_end - t)
//   on_face    on the face ahead along `axis`, within rounding: one piece and that face's crossing
//   past_face  in the cell beyond that face: the piece up to its plane (next_plane), the crossing, the rest
//   elsewhere  anything else (more faces, an edge or corner, a face behind): the walk decides
struct RayEnd {
  enum Kind { inside, on_face, past_face, elsewhere };
  Kind kind = elsewhere;
  int axis = -1;  // of the one face crossed (on_face, past_face)
};

// Along every axis the end's position in cells, from idx's lower face, must lie inside a cell by a margin
// of 1e-6 of its width (far more than the rounding of walk_mesh's plane distances, a few units in the
// last place of the coordinates, so the walk would meet no other plane and order none differently), or,
// along one axis only, within 1e-9 of the face ahead: where a flight that stops at a surface of the
// geometry lying on a mesh plane ends, the crossing the walk might leave to the next flight by rounding.
// Most flights in a coarse mesh never leave their cell, in a mesh of pin cells most that do end on its
// faces, and in a mesh of cells wide against a flight most that cross one face cross only one: this
// test's three products spare them the walk's divisions and its branches on random directions.
KOKKOS_INLINE_FUNCTION RayEnd ray_end(const RegularMesh& mesh, const int idx[3], Vec3 r0, Vec3 u, Real t_end) {
  constexpr Real margin = 1e-6, on_face = 1e-9;
  RayEnd end{RayEnd::inside, -1};
  for (int a = 0; a < 3; ++a) {
    const Real f = (r0[a] + t_end * u[a] - mesh.lower[a]) * mesh.inv_width[a] - idx[a];
    if (f > margin && f < 1 - margin) continue;
    if (end.kind != RayEnd::inside || u[a] == 0) return {};
    const Real gap = u[a] > 0 ? 1 - f : f;  // from the face ahead along a, in widths: negative past it
    if (Kokkos::fabs(gap) < on_face) {
      end = {RayEnd::on_face, a};
    } else if (gap < -margin && gap > margin - 1) {
      end = {RayEnd::past_face, a};
    } else {
      return {};
    }
  }
  return end;
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
