#pragma once
// CSG tracking on the device: surface evaluation, point location in nested universes and lattices,
// distance to the nearest boundary, and boundary crossing. Layout and conventions: geometry_data.hpp.
//
// Design notes
// - Points within `coincident_tolerance` of a surface or lattice wall are *on* it, and their side is
//   decided by the flight direction (pointing out of the positive side means negative). Locating,
//   distances and crossings all use that one rule, so a particle moved onto a boundary is always put
//   on the far side and never re-crosses the same surface at zero distance forever.
// - A half-space the particle is already outside of (by more than the tolerance) reports distance 0:
//   the caller then relocates from that level, which repairs any stale state instead of tracking on.
// - Curved surfaces compare signs of the un-normalised p.u (p: position relative to the centre or axis)
//   in both surface_sense and surface_distance, so the two cannot disagree through rounding.
// - A particle in a lattice's outer universe is at a level with `lattice >= 0` and a `lat_index` outside
//   the lattice shape (the element of the grid continued outside, where it last relocated). Its boundary
//   there is where its flight enters the lattice's box (lattice_entry_distance), not the continued
//   grid's walls: an outer universe around a lattice of 10 um elements stopped a flight every 10 um.
// - Boundaries at several levels within the tolerance of each other (a lattice edge on the core's
//   reflective plane) go to the outermost level, so its boundary condition is never skipped.
#include "kernels/contracts.hpp"
#include "kernels/geometry_data.hpp"

namespace keff {

// The smaller and the larger of two distances, which are never NaN ("none" is constants::infinity):
// plain comparisons, which every compiler inlines, where a host build calls libm for
// Kokkos::fmin/fmax (perf/RESULTS.md, "Where the time goes, before and after"). For values that may be
// NaN: kernels/vocabulary/bounds.hpp.
KOKKOS_INLINE_FUNCTION Real smaller(Real a, Real b) { return b < a ? b : a; }
KOKKOS_INLINE_FUNCTION Real larger(Real a, Real b) { return b > a ? b : a; }

namespace detail {

KOKKOS_INLINE_FUNCTION bool is_plane(SurfaceKind kind) {
  return kind == SurfaceKind::x_plane || kind == SurfaceKind::y_plane || kind == SurfaceKind::z_plane ||
         kind == SurfaceKind::plane;
}

// 0, 1, 2 for x-, y- and z-planes, -1 for any other kind.
KOKKOS_INLINE_FUNCTION int plane_axis(SurfaceKind kind) {
  switch (kind) {
    case SurfaceKind::x_plane: return 0;
    case SurfaceKind::y_plane: return 1;
    case SurfaceKind::z_plane: return 2;
    default: return -1;
  }
}

// A plane as n.r = d with |n| = 1 (general planes are normalised by the builder).
struct PlaneEq {
  Vec3 n;
  Real d = 0;
};

// A plane's signed value n.r - d at r and its rate n.u along u. An axis plane reads one component: the
// same numbers as the dot product with a unit axis (its other terms are exact zeros), without the
// multiplications, in the loops every flight runs.
struct PlaneSide {
  Real value = 0;
  Real rate = 0;
};

template <class Mem>
KOKKOS_INLINE_FUNCTION PlaneSide plane_side(const GeometryParams<Mem>& g, int s, SurfaceKind kind, Vec3 r, Vec3 u) {
  const int axis = plane_axis(kind);
  if (axis >= 0) return {r[axis] - g.surface_coeffs(s, 0), u[axis]};
  const Vec3 n{g.surface_coeffs(s, 0), g.surface_coeffs(s, 1), g.surface_coeffs(s, 2)};
  return {dot(n, r) - g.surface_coeffs(s, 3), dot(n, u)};
}

template <class Mem>
KOKKOS_INLINE_FUNCTION PlaneEq plane_of(const GeometryParams<Mem>& g, int s) {
  switch (static_cast<SurfaceKind>(g.surface_kind(s))) {
    case SurfaceKind::x_plane: return {{1, 0, 0}, g.surface_coeffs(s, 0)};
    case SurfaceKind::y_plane: return {{0, 1, 0}, g.surface_coeffs(s, 0)};
    case SurfaceKind::z_plane: return {{0, 0, 1}, g.surface_coeffs(s, 0)};
    default:
      return {{g.surface_coeffs(s, 0), g.surface_coeffs(s, 1), g.surface_coeffs(s, 2)}, g.surface_coeffs(s, 3)};
  }
}

// A sphere or cylinder seen from r along u: p and v are the position relative to the centre (or axis)
// and the direction, both with the axial component removed for cylinders.
struct CurvedView {
  Vec3 p;
  Vec3 v;
  Real radius = 0;
  int axis = -1;  // 0, 1, 2 for x/y/z cylinders, -1 for a sphere
};

template <class Mem>
KOKKOS_INLINE_FUNCTION CurvedView curved_of(const GeometryParams<Mem>& g, int s, Vec3 r, Vec3 u) {
  const Real c0 = g.surface_coeffs(s, 0), c1 = g.surface_coeffs(s, 1), c2 = g.surface_coeffs(s, 2);
  CurvedView c;
  switch (static_cast<SurfaceKind>(g.surface_kind(s))) {
    case SurfaceKind::x_cylinder: c.p = r - Vec3{0, c0, c1}; c.radius = c2; c.axis = 0; break;
    case SurfaceKind::y_cylinder: c.p = r - Vec3{c0, 0, c1}; c.radius = c2; c.axis = 1; break;
    case SurfaceKind::z_cylinder: c.p = r - Vec3{c0, c1, 0}; c.radius = c2; c.axis = 2; break;
    default: c.p = r - Vec3{c0, c1, c2}; c.radius = g.surface_coeffs(s, 3); break;
  }
  c.v = u;
  if (c.axis >= 0) {
    c.p[c.axis] = 0;
    c.v[c.axis] = 0;
  }
  return c;
}

KOKKOS_INLINE_FUNCTION Real curved_value(const CurvedView& c) { return Kokkos::sqrt(dot(c.p, c.p)) - c.radius; }

// Distance along a plane normal direction: g > -tol is the signed distance into the half-space the
// particle is in, w the rate at which it changes along u.
KOKKOS_INLINE_FUNCTION Real plane_exit(Real g, Real w) {
  if (w >= 0) return constants::infinity;  // parallel, or heading deeper in
  if (g < coincident_tolerance) return 0;
  return g / -w;
}

// Roots of a t^2 + 2 k t + c = 0 (a = |v|^2, k = p.v, c = |p|^2 - R^2 = f (|p| + R)), in the
// cancellation-free forms.
KOKKOS_INLINE_FUNCTION Real curved_exit(const CurvedView& cv, Real f, bool inside_positive) {
  const Real a = dot(cv.v, cv.v);
  if (a <= 0) return constants::infinity;  // along a cylinder's axis: the radius never changes
  const Real k = dot(cv.p, cv.v);
  const Real c = f * (Kokkos::sqrt(dot(cv.p, cv.p)) + cv.radius);
  const bool on = Kokkos::fabs(f) < coincident_tolerance;
  if (inside_positive) {
    // Outside a convex surface: only a ray heading towards it can enter, at the near root.
    if (k >= 0) return constants::infinity;
    if (on) return 0;
    const Real disc = k * k - a * c;
    if (disc <= 0) return constants::infinity;  // misses or grazes
    return c / (-k + Kokkos::sqrt(disc));
  }
  // Inside: always leaves, at the far root. On the surface, tangent or outward counts as already out
  // (the same rule surface_sense applies).
  if (on && k >= 0) return 0;
  const Real disc = larger(0.0, k * k - a * c);
  if (k <= 0) return (-k + Kokkos::sqrt(disc)) / a;
  return -c / (k + Kokkos::sqrt(disc));
}

}  // namespace detail

// Signed distance f(r): positive in the positive half-space.
template <class Mem>
KOKKOS_INLINE_FUNCTION Real surface_value(const GeometryParams<Mem>& g, int s, Vec3 r) {
  const auto kind = static_cast<SurfaceKind>(g.surface_kind(s));
  if (detail::is_plane(kind)) return detail::plane_side(g, s, kind, r, Vec3{}).value;
  return detail::curved_value(detail::curved_of(g, s, r, Vec3{}));
}

// Unit normal at r pointing into the positive half-space. At a sphere's centre or on a cylinder's axis
// any direction is a normal; a fixed one perpendicular to the axis is returned.
template <class Mem>
KOKKOS_INLINE_FUNCTION Vec3 surface_normal(const GeometryParams<Mem>& g, int s, Vec3 r) {
  if (detail::is_plane(static_cast<SurfaceKind>(g.surface_kind(s)))) return detail::plane_of(g, s).n;
  const detail::CurvedView c = detail::curved_of(g, s, r, Vec3{});
  const Real len = Kokkos::sqrt(dot(c.p, c.p));
  if (len <= 0) return c.axis == 0 ? Vec3{0, 1, 0} : Vec3{1, 0, 0};
  return (1 / len) * c.p;
}

// Which side of surface s the particle at r moving along u is on (true: positive).
template <class Mem>
KOKKOS_INLINE_FUNCTION bool surface_sense(const GeometryParams<Mem>& g, int s, Vec3 r, Vec3 u) {
  Real f = 0, toward = 0;  // toward: sign of normal . u
  const auto kind = static_cast<SurfaceKind>(g.surface_kind(s));
  if (detail::is_plane(kind)) {
    const detail::PlaneSide side = detail::plane_side(g, s, kind, r, u);
    f = side.value;
    toward = side.rate;
  } else {
    const detail::CurvedView c = detail::curved_of(g, s, r, u);
    f = detail::curved_value(c);
    toward = dot(c.p, c.v);
  }
  if (Kokkos::fabs(f) >= coincident_tolerance) return f > 0;
  return toward >= 0;
}

// Distance along u until the particle leaves the half-space `inside_positive` of surface s;
// constants::infinity if it never does.
template <class Mem>
KOKKOS_INLINE_FUNCTION Real surface_distance(const GeometryParams<Mem>& g, int s, Vec3 r, Vec3 u,
                                             bool inside_positive) {
  const Real sign = inside_positive ? 1 : -1;
  const auto kind = static_cast<SurfaceKind>(g.surface_kind(s));
  if (detail::is_plane(kind)) {
    const detail::PlaneSide side = detail::plane_side(g, s, kind, r, u);
    const Real depth = sign * side.value;
    if (depth <= -coincident_tolerance) return 0;
    return detail::plane_exit(depth, sign * side.rate);
  }
  const detail::CurvedView c = detail::curved_of(g, s, r, u);
  const Real f = detail::curved_value(c);
  if (sign * f <= -coincident_tolerance) return 0;
  return detail::curved_exit(c, f, inside_positive);
}

// Whether every half-space of the cell's region holds at r_local (universe coordinates).
template <class Mem>
KOKKOS_INLINE_FUNCTION bool cell_contains(const GeometryParams<Mem>& g, int cell, Vec3 r_local, Vec3 u) {
  for (int i = g.cell_region_offsets(cell); i < g.cell_region_offsets(cell + 1); ++i) {
    const int token = g.cell_region(i);
    const bool positive = token > 0;
    const int s = (positive ? token : -token) - 1;
    if (surface_sense(g, s, r_local, u) != positive) return false;
  }
  return true;
}

namespace detail {

// A coordinate x along one lattice axis (from lower_left), in pitches: t, the nearest wall, and whether x
// lies on that wall (within coincident_tolerance).
struct LatticeAxisPosition {
  Real t = 0;
  Real wall = 0;
  bool on_wall = false;
};

KOKKOS_INLINE_FUNCTION LatticeAxisPosition lattice_axis_position(Real x, Real pitch) {
  LatticeAxisPosition a;
  // Clamped so a point far outside still gives a representable (out-of-shape) index.
  a.t = smaller(larger(x / pitch, -1.0e9), 1.0e9);
  a.wall = Kokkos::floor(a.t + 0.5);
  a.on_wall = Kokkos::fabs(x - a.wall * pitch) < coincident_tolerance;
  return a;
}

// Element index along one lattice axis; on a wall, the element the direction points into.
KOKKOS_INLINE_FUNCTION int lattice_axis_index(Real x, Real pitch, Real dir) {
  const LatticeAxisPosition a = lattice_axis_position(x, pitch);
  if (a.on_wall) return static_cast<int>(a.wall) - (dir < 0 ? 1 : 0);
  return static_cast<int>(Kokkos::floor(a.t));
}

template <class Mem>
KOKKOS_INLINE_FUNCTION bool lattice_index_inside(const GeometryParams<Mem>& g, int lat, const int idx[3]) {
  for (int i = 0; i < 3; ++i) {
    if (idx[i] < 0 || idx[i] >= g.lattice_shape(lat, i)) return false;
  }
  return true;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION int lattice_universe(const GeometryParams<Mem>& g, int lat, const int idx[3]) {
  const int nx = g.lattice_shape(lat, 0), ny = g.lattice_shape(lat, 1);
  return g.lattice_universes(g.lattice_offsets(lat) + idx[0] + nx * (idx[1] + ny * idx[2]));
}

// Centre of element idx (inside the shape or not) in the lattice's own coordinates.
template <class Mem>
KOKKOS_INLINE_FUNCTION Vec3 lattice_element_centre(const GeometryParams<Mem>& g, int lat, const int idx[3]) {
  Vec3 c;
  for (int i = 0; i < 3; ++i) c[i] = g.lattice_lower_left(lat, i) + (idx[i] + 0.5) * g.lattice_pitch(lat, i);
  return c;
}

// The first cell of `universe` (in input order) holding r_local. Neighbouring cells name the same
// surfaces (a pin's fuel and its water both name the pin's cylinder), so the side of the surface measured
// last is kept and a cell naming it again does not measure it again: the same answer as cell_contains()
// cell by cell.
template <class Mem>
KOKKOS_INLINE_FUNCTION int first_cell_containing(const GeometryParams<Mem>& g, int universe, Vec3 r_local,
                                                 Vec3 u) {
  int last_surface = -1;
  bool last_positive = false;
  for (int i = g.universe_cell_offsets(universe); i < g.universe_cell_offsets(universe + 1); ++i) {
    const int cell = g.universe_cells(i);
    bool inside = true;
    for (int t = g.cell_region_offsets(cell); inside && t < g.cell_region_offsets(cell + 1); ++t) {
      const int token = g.cell_region(t);
      const int surface = (token > 0 ? token : -token) - 1;
      if (surface != last_surface) {
        last_positive = surface_sense(g, surface, r_local, u);
        last_surface = surface;
      }
      inside = last_positive == (token > 0);
    }
    if (inside) return cell;
  }
  return -1;
}

// The cell a particle enters through `surface` from cell `from` of the same universe, searched among the
// cells on the far side of that surface (the neighbour list of that side, built with the geometry); -1
// if none holds r_local. In a model whose cells do not overlap (keff check-geometry) the one cell that
// holds the point, so first_cell_containing's answer.
template <class Mem>
KOKKOS_INLINE_FUNCTION int neighbour_containing(const GeometryParams<Mem>& g, int from, int surface, Vec3 r_local,
                                                Vec3 u) {
  for (int t = g.cell_region_offsets(from); t < g.cell_region_offsets(from + 1); ++t) {
    const int token = g.cell_region(t);
    if ((token > 0 ? token : -token) - 1 != surface) continue;
    for (int j = g.region_neighbour_offsets(t); j < g.region_neighbour_offsets(t + 1); ++j) {
      const int cell = g.region_neighbours(j);
      if (cell_contains(g, cell, r_local, u)) return cell;
    }
    return -1;
  }
  return -1;
}

}  // namespace detail

// Element of lattice `lat` holding r_local (coordinates of the universe the lattice fills a cell of).
// Returns whether that element lies inside the lattice shape; idx is set either way.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool lattice_element(const GeometryParams<Mem>& g, int lat, Vec3 r_local, Vec3 u,
                                            int idx[3]) {
  for (int i = 0; i < 3; ++i) {
    idx[i] = detail::lattice_axis_index(r_local[i] - g.lattice_lower_left(lat, i), g.lattice_pitch(lat, i), u[i]);
  }
  return detail::lattice_index_inside(g, lat, idx);
}

namespace detail {

// lattice_element() for a particle that was in element `was` of the same lattice and has moved onto a
// boundary of it: an axis along which it is still well inside that element (farther from both walls
// than 1e-6 cm and 1e-9 pitches, which rounding cannot bridge) keeps its index, the index
// lattice_axis_index would give it; only an axis whose wall it is on (two or three at an edge or a
// corner) is recomputed by that rule, which steps it by one. So the same indices, mostly without the
// division and the floors.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool lattice_element_after(const GeometryParams<Mem>& g, int lat, Vec3 r_local, Vec3 u,
                                                  const int was[3], int idx[3]) {
  for (int i = 0; i < 3; ++i) {
    const Real x = r_local[i] - g.lattice_lower_left(lat, i), pitch = g.lattice_pitch(lat, i);
    const Real low = was[i] * pitch, margin = larger(1e-6, 1e-9 * pitch);
    const bool well_inside = was[i] > -100000 && was[i] < 100000 && x - low > margin && low + pitch - x > margin;
    idx[i] = well_inside ? was[i] : lattice_axis_index(x, pitch, u[i]);
  }
  return lattice_index_inside(g, lat, idx);
}

// The level that the cell of `next` (found, in its universe) places below it: `next` becomes that
// level's universe, placing lattice and offset, its cell still to be found. False for a material fill.
// `was`, where given, is that level as it was before the particle moved onto a boundary below `next`
// (relocate_below): a lattice then finds the element from it, and keeps its universe and offset when the
// element is the same.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool enter_fill(const GeometryParams<Mem>& g, GeometryLevel& next, Vec3 r_local, Vec3 u,
                                       const GeometryLevel* was = nullptr) {
  const int fill = g.cell_fill(next.cell);
  switch (static_cast<FillKind>(g.cell_fill_kind(next.cell))) {
    case FillKind::material: return false;
    case FillKind::universe:
      next.universe = fill;
      next.lattice = -1;
      next.lat_index[0] = next.lat_index[1] = next.lat_index[2] = 0;
      return true;
    case FillKind::lattice: {
      next.lattice = fill;
      const bool stepped = was != nullptr && was->lattice == fill;
      const bool inside = stepped ? lattice_element_after(g, fill, r_local, u, was->lat_index, next.lat_index)
                                  : lattice_element(g, fill, r_local, u, next.lat_index);
      if (stepped && next.lat_index[0] == was->lat_index[0] && next.lat_index[1] == was->lat_index[1] &&
          next.lat_index[2] == was->lat_index[2]) {
        next.universe = was->universe;  // computed as below from the same numbers
        next.offset = was->offset;
      } else if (inside) {
        next.universe = lattice_universe(g, fill, next.lat_index);
        next.offset = next.offset + lattice_element_centre(g, fill, next.lat_index);
      } else {
        next.universe = g.lattice_outer(fill);  // -1 (none): the next level fails
      }
      return true;
    }
  }
  return false;
}

// Finds the cell of level `depth` (entering `next`) and of every level below, down to a material.
// `known_cell`, where not -1, is level `depth`'s cell, found already (relocate_below's neighbour list).
template <class Mem>
KOKKOS_INLINE_FUNCTION bool descend(const GeometryParams<Mem>& g, Vec3 r, Vec3 u, GeometryState& s, int depth,
                                    GeometryLevel next, int known_cell = -1) {
  s.n_levels = depth;
  s.material = -1;
  for (; depth < max_geometry_levels; ++depth) {
    const Vec3 r_local = r - next.offset;
    next.cell = next.universe < 0 ? -1 : known_cell >= 0 ? known_cell : first_cell_containing(g, next.universe, r_local, u);
    known_cell = -1;
    s.level[depth] = next;
    if (next.cell < 0) return false;
    s.n_levels = depth + 1;
    if (!enter_fill(g, next, r_local, u)) {
      s.material = g.cell_fill(next.cell);
      return true;
    }
  }
  return false;
}

// Whether two levels are the same universe at the same place (their cells aside).
KOKKOS_INLINE_FUNCTION bool same_place(const GeometryLevel& x, const GeometryLevel& y) {
  if (x.universe != y.universe || x.lattice != y.lattice) return false;
  for (int i = 0; i < 3; ++i) {
    if (x.lat_index[i] != y.lat_index[i] || x.offset[i] != y.offset[i]) return false;
  }
  return true;
}

// Whether two states place a particle alike: levels (universe, cell, lattice element, offset) and
// material, bit for bit.
KOKKOS_INLINE_FUNCTION bool same_location(const GeometryState& a, const GeometryState& b) {
  if (a.n_levels != b.n_levels || a.material != b.material) return false;
  for (int k = 0; k < a.n_levels; ++k) {
    const GeometryLevel &x = a.level[k], &y = b.level[k];
    if (x.cell != y.cell || !same_place(x, y)) return false;
  }
  return true;
}

}  // namespace detail

// Finds the cell at every level from the root universe down to a material. False if the particle is
// outside every cell of some universe, outside a lattice without an outer universe, or too deep. On
// failure below max_geometry_levels, s.level[s.n_levels] is the level that failed, for the lost-particle
// message: its universe held no cell at the point, or (universe -1) its lattice placed the point outside
// the elements and has no outer universe.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool locate(const GeometryParams<Mem>& g, Vec3 r, Vec3 u, GeometryState& s) {
  GeometryLevel root;
  root.universe = g.root_universe;
  return detail::descend(g, r, u, s, 0, root);
}

// locate() for a particle that has just crossed the boundary `hit` of level k: levels 0..k-1 still hold
// it (the outermost level wins every boundary it shares with a deeper one, distance_to_boundary), so
// only level k and those below are found again. A lattice wall steps the element index along the axes
// whose walls the particle is on (lattice_element_after; leaving the shape puts it in the outer universe);
// a surface crossing that leaves level k's universe where it was searches the cells on the far side of the
// surface first (neighbour_containing), then the whole universe. The same answer as locate() from the
// root, whose search of the levels above would find the same cells again. Where contracts are checked
// (the debug preset) every answer is compared with locate()'s.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool relocate_below(const GeometryParams<Mem>& g, Vec3 r, Vec3 u, GeometryState& s,
                                           const BoundaryHit& hit) {
  const int k = hit.level;
  if (k < 0 || k >= s.n_levels) return locate(g, r, u, s);
  const GeometryLevel was = s.level[k];
  GeometryLevel next;
  if (k == 0) {
    next.universe = g.root_universe;
  } else {
    next = s.level[k - 1];
    if (!detail::enter_fill(g, next, r - next.offset, u, &was)) return locate(g, r, u, s);
  }
  int cell = -1;
  if (hit.surface >= 0 && detail::same_place(next, was)) {
    cell = detail::neighbour_containing(g, was.cell, hit.surface, r - next.offset, u);
  }
  const bool found = detail::descend(g, r, u, s, k, next, cell);
  if constexpr (keff_contracts_checked) {
    GeometryState full;
    const bool found_from_root = locate(g, r, u, full);
    KEFF_ASSERT(found == found_from_root && detail::same_location(s, full));
  }
  return found;
}

namespace detail {

// Distance from x (relative to an element centre) along u to the walls of a box of the given pitch.
KOKKOS_INLINE_FUNCTION Real element_wall_distance(Vec3 x, Vec3 u, const Real pitch[3]) {
  Real d = constants::infinity;
  for (int i = 0; i < 3; ++i) {
    const Real half = 0.5 * pitch[i];
    if (u[i] > 0) d = smaller(d, (half - x[i]) / u[i]);
    if (u[i] < 0) d = smaller(d, (-half - x[i]) / u[i]);
  }
  return larger(d, 0.0);
}

// Distance along u from r (lattice coordinates), in lattice `lat`'s outer universe at continued element
// idx (outside the shape), to where the flight enters the lattice's elements; constants::infinity where it
// never does. Axis by axis by idx, the index the direction rule gave (lattice_axis_index): an axis out of
// range must be heading into the range (a point within the tolerance of the box, heading in, is inside
// already, so the entry is at least the tolerance ahead); the entry is the latest of those axes' and must
// come before any axis in range leaves it.
template <class Mem>
KOKKOS_INLINE_FUNCTION Real lattice_entry_distance(const GeometryParams<Mem>& g, int lat, const int idx[3], Vec3 r, Vec3 u) {
  Real enter = 0, leave = constants::infinity;
  for (int i = 0; i < 3; ++i) {
    const Real lo = g.lattice_lower_left(lat, i), hi = lo + g.lattice_shape(lat, i) * g.lattice_pitch(lat, i);
    if (idx[i] < 0 || idx[i] >= g.lattice_shape(lat, i)) {
      const bool below = idx[i] < 0;
      if (below ? !(u[i] > 0) : !(u[i] < 0)) return constants::infinity;
      enter = larger(enter, ((below ? lo : hi) - r[i]) / u[i]);
    } else if (u[i] != 0) {
      leave = smaller(leave, ((u[i] > 0 ? hi : lo) - r[i]) / u[i]);
    }
  }
  return enter < leave ? enter : constants::infinity;
}

// Nearest boundary of level k alone: its cell's surfaces, then the walls of the lattice element that
// placed it (or, in the outer universe, the lattice's box ahead). Ties within a level go to the first found.
template <class Mem>
KOKKOS_INLINE_FUNCTION BoundaryHit level_boundary(const GeometryParams<Mem>& g, const GeometryState& s, int k,
                                                  Vec3 r, Vec3 u) {
  KEFF_EXPECT(k >= 0 && k < s.n_levels && s.n_levels <= max_geometry_levels);
  const GeometryLevel& lv = s.level[k];
  const Vec3 r_local = r - lv.offset;
  BoundaryHit hit;
  hit.level = k;
  for (int i = g.cell_region_offsets(lv.cell); i < g.cell_region_offsets(lv.cell + 1); ++i) {
    const int token = g.cell_region(i);
    const int surface = (token > 0 ? token : -token) - 1;
    const Real d = surface_distance(g, surface, r_local, u, token > 0);
    if (d < hit.distance) {
      hit.distance = d;
      hit.surface = surface;
    }
  }
  if (lv.lattice >= 0 && k > 0) {
    const Vec3 r_lattice = r - s.level[k - 1].offset;
    Real d = constants::infinity;
    if (lattice_index_inside(g, lv.lattice, lv.lat_index)) {
      const Vec3 x = r_lattice - lattice_element_centre(g, lv.lattice, lv.lat_index);
      const Real pitch[3] = {g.lattice_pitch(lv.lattice, 0), g.lattice_pitch(lv.lattice, 1),
                             g.lattice_pitch(lv.lattice, 2)};
      d = element_wall_distance(x, u, pitch);
    } else {
      d = lattice_entry_distance(g, lv.lattice, lv.lat_index, r_lattice, u);
    }
    if (d < hit.distance) {
      hit.distance = d;
      hit.surface = -1;
    }
  }
  return hit;
}

}  // namespace detail

namespace detail {

// Whether `x`, a point ahead on the flight, lies on the boundary `hit` of level k (within
// coincident_tolerance of it, measured across the boundary as surface_sense and locate measure it).
template <class Mem>
KOKKOS_INLINE_FUNCTION bool lies_on(const GeometryParams<Mem>& g, const GeometryState& s, int k, const BoundaryHit& hit,
                                    Vec3 x, Vec3 u) {
  if (hit.surface >= 0) return Kokkos::fabs(surface_value(g, hit.surface, x - s.level[k].offset)) < coincident_tolerance;
  const GeometryLevel& lv = s.level[k];
  if (!lattice_index_inside(g, lv.lattice, lv.lat_index)) {  // the lattice's box, entered from the outer universe
    const Vec3 r_lattice = x - s.level[k - 1].offset;
    for (int i = 0; i < 3; ++i) {
      const Real lo = g.lattice_lower_left(lv.lattice, i), hi = lo + g.lattice_shape(lv.lattice, i) * g.lattice_pitch(lv.lattice, i);
      if (u[i] > 0 && Kokkos::fabs(r_lattice[i] - lo) < coincident_tolerance) return true;
      if (u[i] < 0 && Kokkos::fabs(hi - r_lattice[i]) < coincident_tolerance) return true;
    }
    return false;
  }
  const Vec3 from_centre = x - s.level[k - 1].offset - lattice_element_centre(g, lv.lattice, lv.lat_index);
  for (int i = 0; i < 3; ++i) {
    const Real half = 0.5 * g.lattice_pitch(lv.lattice, i);
    if (u[i] > 0 && Kokkos::fabs(half - from_centre[i]) < coincident_tolerance) return true;
    if (u[i] < 0 && Kokkos::fabs(half + from_centre[i]) < coincident_tolerance) return true;
  }
  return false;
}

}  // namespace detail

// The nearest boundary ahead over all levels. The outermost level wins when its boundary is as near
// (within coincident_tolerance along the flight) or when the particle, stopped at the nearest boundary,
// would lie on it: a flight that meets a lattice wall a nanometre below a reflective plane it approaches
// at a slant stops within the tolerance across that plane but more than the tolerance before it along the
// flight, and relocating there would find it on the plane, heading out of the model, and lose it (the
// 2-D C5G7 core lost one history in 2.5e7 so). That boundary is applied where the particle stops.
template <class Mem>
KOKKOS_INLINE_FUNCTION BoundaryHit distance_to_boundary(const GeometryParams<Mem>& g, const GeometryState& s,
                                                        Vec3 r, Vec3 u) {
  BoundaryHit per_level[max_geometry_levels];
  Real nearest = constants::infinity;
  for (int k = 0; k < s.n_levels; ++k) {
    per_level[k] = detail::level_boundary(g, s, k, r, u);
    nearest = smaller(nearest, per_level[k].distance);
  }
  if (!(nearest < constants::infinity)) return s.n_levels > 0 ? per_level[0] : BoundaryHit{};
  const Vec3 stop = r + nearest * u;
  for (int k = 0; k < s.n_levels; ++k) {
    BoundaryHit hit = per_level[k];
    if (hit.distance <= nearest + coincident_tolerance) return hit;
    if (hit.distance < constants::infinity && detail::lies_on(g, s, k, hit, stop, u)) {
      hit.distance = nearest;
      return hit;
    }
  }
  return BoundaryHit{};
}

// Applies the boundary the particle has just been moved onto: vacuum leaks, reflective mirrors u and
// keeps the location, anything else (transmission surface, lattice wall) relocates from the level
// crossed (relocate_below).
template <class Mem>
KOKKOS_INLINE_FUNCTION CrossingResult cross_boundary(const GeometryParams<Mem>& g, GeometryState& s, Vec3 r,
                                                     Vec3& u, const BoundaryHit& hit) {
  if (hit.surface >= 0) {
    const auto boundary = static_cast<BoundaryKind>(g.surface_boundary(hit.surface));
    if (boundary == BoundaryKind::vacuum) return CrossingResult::leaked;
    if (boundary == BoundaryKind::reflective) {
      KEFF_EXPECT(hit.level >= 0 && hit.level < s.n_levels);
      const Vec3 n = surface_normal(g, hit.surface, r - s.level[hit.level].offset);
      u = u - (2 * dot(u, n)) * n;
      return CrossingResult::reflected;
    }
  }
  return relocate_below(g, r, u, s, hit) ? CrossingResult::inside : CrossingResult::lost;
}

}  // namespace keff
