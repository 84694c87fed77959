#pragma once
// Device layout of the CSG geometry (Params: built once on the host by src/params/build_geometry, then
// read-only) and of a particle's position in the nested universe hierarchy (State, one per history).
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// Surface kinds, boundary and fill kinds, coefficient conventions: kernels/vocabulary/types.hpp.

// Per-entity rows ([surface][coefficient], [lattice][axis]) are LayoutRight whatever the device: a thread
// reads one entity's whole row, which then sits in one cache line or memory sector.
//
// Cells of a universe are intersections of half-spaces. A region token is +(s+1) for the positive
// half-space of surface s and -(s+1) for the negative one.
template <class Mem>
struct GeometryParams {
  Kokkos::View<const int*, Mem> surface_kind;          // SurfaceKind
  Kokkos::View<const int*, Mem> surface_boundary;      // BoundaryKind
  Kokkos::View<const Real* [surface_coeff_count], Kokkos::LayoutRight, Mem> surface_coeffs;

  Kokkos::View<const int*, Mem> cell_region_offsets;   // [n_cells + 1] into cell_region
  Kokkos::View<const int*, Mem> cell_region;           // signed surface tokens
  Kokkos::View<const int*, Mem> cell_fill_kind;        // FillKind
  Kokkos::View<const int*, Mem> cell_fill;             // MaterialId (-1 = void), UniverseId or LatticeId
  // Neighbour lists, one per region token (a side of a surface bounding a cell): the other cells of the
  // cell's universe whose regions hold the far side of that surface, in universe order; where a particle
  // crossing it can be (relocate_below).
  Kokkos::View<const int*, Mem> region_neighbour_offsets;  // [n_region_tokens + 1] into region_neighbours
  Kokkos::View<const int*, Mem> region_neighbours;

  Kokkos::View<const int*, Mem> universe_cell_offsets; // [n_universes + 1] into universe_cells
  Kokkos::View<const int*, Mem> universe_cells;

  // Rectangular lattices: element (ix, iy, iz) at lattice_universes(offset + ix + nx*(iy + ny*iz)),
  // iy counted from lower_left upward. Outside the elements a particle is in `outer` (-1: lost).
  Kokkos::View<const Real* [3], Kokkos::LayoutRight, Mem> lattice_lower_left;
  Kokkos::View<const Real* [3], Kokkos::LayoutRight, Mem> lattice_pitch;
  Kokkos::View<const int* [3], Kokkos::LayoutRight, Mem> lattice_shape;
  Kokkos::View<const int*, Mem> lattice_offsets;       // [n_lattices + 1]
  Kokkos::View<const int*, Mem> lattice_universes;
  Kokkos::View<const int*, Mem> lattice_outer;

  int root_universe = 0;
};

// One level of a particle's place in the hierarchy: the cell it is in within `universe`, and the
// translation from global to this level's local coordinates (r_local = r - offset).
struct GeometryLevel {
  int universe = -1;
  int cell = -1;
  int lattice = -1;  // lattice that placed this level's universe, or -1
  int lat_index[3] = {0, 0, 0};
  Vec3 offset;
};

struct GeometryState {
  int n_levels = 0;
  GeometryLevel level[max_geometry_levels];
  int material = -1;  // of the deepest cell; -1 = void
};

// The nearest boundary ahead of a particle along its direction.
struct BoundaryHit {
  Real distance = constants::infinity;
  int level = -1;     // level whose cell or lattice element the boundary bounds
  int surface = -1;   // surface index, or -1 for a lattice element wall
};

enum class CrossingResult : int { inside, leaked, reflected, lost };

}  // namespace keff
