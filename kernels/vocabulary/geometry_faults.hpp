#pragma once
// What can be wrong with a geometry, in the words both sides use: the faults the sampled geometry check
// finds at a point (kernels/geometry_check.hpp). The host turns them into messages
// (src/geometry_report.hpp). No Kokkos: host-only code includes this.
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"


namespace keff {

// What the geometry check found at one sample point. Only `overlap`, `gap` and `outside_lattice` are
// faults; `on_surface` marks a point it could not judge by position alone (within coincident_tolerance
// of a surface or lattice wall that decides it), which is skipped rather than guessed.
enum class GeometryFaultKind : int { none = 0, overlap, gap, outside_lattice, on_surface };

struct GeometryFault {
  GeometryFaultKind kind = GeometryFaultKind::none;
  // overlap: the two cells (the first two of their universe, in input order, that hold the point);
  // gap: the universe no cell of which holds the point, and the cell it fills (or whose lattice placed it);
  // outside_lattice: the lattice outside whose elements the point lies (it has no outer universe), and
  // the cell it fills.
  int a = -1, b = -1;
  Vec3 local;  // the point in the coordinates of that universe (overlap, gap) or of the lattice's cell
};

}  // namespace keff
