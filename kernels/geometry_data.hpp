#pragma once
// Device layout of the CSG geometry (Params: built once on the host by src/build_geometry, then
// read-only) and of a particle's position in the nested universe hierarchy (State, one per history).
#include "types.hpp"
#include "vec3.hpp"

namespace keff {

enum class SurfaceKind : int { x_plane, y_plane, z_plane, plane, sphere, x_cylinder, y_cylinder, z_cylinder };
enum class BoundaryKind : int { transmission, vacuum, reflective };
enum class FillKind : int { material, universe, lattice };

// Coefficients per kind (f(r) > 0 is the positive half-space; f is a signed distance):
//   x_plane: {x0}             f = x - x0            (y_plane, z_plane alike)
//   plane:   {a, b, c, d}     f = a x + b y + c z - d, with (a, b, c) normalised by the builder
//   sphere:  {x0, y0, z0, R}  f = |r - r0| - R
//   z_cylinder: {x0, y0, R}   f = sqrt((x-x0)^2 + (y-y0)^2) - R   (x_cylinder: {y0, z0, R}, y_cylinder: {x0, z0, R})
inline constexpr int surface_coeff_count = 4;

// The deepest nesting a problem may use (root, then lattice or universe fills): core -> assembly -> pin
// needs 5 (root cell, core lattice, assembly universe, pin lattice, pin universe).
inline constexpr int max_geometry_levels = 8;

// Cells of a universe are intersections of half-spaces. A region token is +(s+1) for the positive
// half-space of surface s and -(s+1) for the negative one.
template <class Mem>
struct GeometryParams {
  Kokkos::View<const int*, Mem> surface_kind;          // SurfaceKind
  Kokkos::View<const int*, Mem> surface_boundary;      // BoundaryKind
  Kokkos::View<const Real* [surface_coeff_count], Mem> surface_coeffs;

  Kokkos::View<const int*, Mem> cell_region_offsets;   // [n_cells + 1] into cell_region
  Kokkos::View<const int*, Mem> cell_region;           // signed surface tokens
  Kokkos::View<const int*, Mem> cell_fill_kind;        // FillKind
  Kokkos::View<const int*, Mem> cell_fill;             // MaterialId (-1 = void), UniverseId or LatticeId

  Kokkos::View<const int*, Mem> universe_cell_offsets; // [n_universes + 1] into universe_cells
  Kokkos::View<const int*, Mem> universe_cells;

  // Rectangular lattices: element (ix, iy, iz) at lattice_universes(offset + ix + nx*(iy + ny*iz)),
  // iy counted from lower_left upward. Outside the elements a particle is in `outer` (-1: lost).
  Kokkos::View<const Real* [3], Mem> lattice_lower_left;
  Kokkos::View<const Real* [3], Mem> lattice_pitch;
  Kokkos::View<const int* [3], Mem> lattice_shape;
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
