#pragma once
// The geometry check: points sampled uniformly in a box, each walked down the universe hierarchy as
// locate() walks it, but testing every cell of each universe instead of stopping at the first. A point
// two cells of one universe hold is an overlap (tracking would put a neutron there in whichever comes
// first, so k would depend on the order of the cells); a point below the root that no cell of its
// universe holds is a gap (a neutron there is lost).
//
// Design notes
// - The rule that keeps valid models from being refused: a point is judged by position alone. A
//   half-space holds when its surface's signed distance f has the right sign and |f| >= coincident_tolerance,
//   and fails when f has the wrong sign and |f| >= coincident_tolerance; within the tolerance the point
//   is *on* the surface, where tracking lets the flight direction decide (kernels/geometry.hpp), and the
//   check does not judge it (GeometryFaultKind::on_surface, counted and skipped). So an overlap is
//   reported only where both cells hold the point for every direction a neutron could have: tracking
//   would meet the same ambiguity there. Two cells that share a surface, or meet at surfaces that
//   coincide within the tolerance, can only both hold a point on it, which is never reported. What is
//   missed: overlaps and gaps thinner than twice the tolerance (2e-9 cm), which tracking cannot tell
//   from a shared surface either, and any smaller than the sampling resolves.
// - The walk goes down only through cells and lattice elements that hold the point by position alone
//   (one cell holds it, the point is off every lattice wall); otherwise the point is on_surface. So a
//   gap or overlap found below the root is at a point some neutron reaches.
// - Gaps in the root universe are not reported: outside every root cell is also how the outside of a
//   model bounded by vacuum surfaces looks (the corners of a sphere's bounding box), and telling the two
//   apart needs to know which regions neutrons reach. A neutron that meets one is lost, and the lost-
//   particle message names the universe and the surface it crossed.
// - Point i is drawn from a stream of its own (RngStream::geometry_check, fixed seed), so the points do
//   not depend on the run's seed, on how they are split over ranks and threads, or on how many are
//   drawn: N points are the first N of any larger check. The transport streams are untouched.
#include "kernels/geometry.hpp"
#include "kernels/rng.hpp"
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/geometry_faults.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// The seed of the geometry check's stream: fixed, so a model gets the same verdict whatever its seed.
inline constexpr std::uint64_t geometry_check_seed = 1;

// Where the check samples: uniformly in [lower, lower + width). Point i takes numbers 3i to 3i + 2 of
// the check's stream (2^58 numbers long), which is a skip of about log2(3i) steps from the stream's start
// where a history's stride of 152917 numbers from the seed would take 62.
struct SampleBox {
  Vec3 lower;
  Vec3 width;
  std::uint64_t stream_start = history_rng(geometry_check_seed, RngStream::geometry_check, 0, 0, 0).state;

  KOKKOS_INLINE_FUNCTION Vec3 point(std::int64_t i) const {
    Lcg63 rng;
    rng.state = Lcg63::skip(stream_start, 3 * static_cast<std::uint64_t>(i));
    Vec3 r;
    for (int axis = 0; axis < 3; ++axis) r[axis] = lower[axis] + rng.next() * width[axis];
    return r;
  }
};

namespace detail {

enum class CellSide : int { inside, outside, on_surface };

// Whether the cell holds r_local by position alone (module note above).
template <class Mem>
KOKKOS_INLINE_FUNCTION CellSide cell_side(const GeometryParams<Mem>& g, int cell, Vec3 r_local) {
  bool on = false;
  for (int i = g.cell_region_offsets(cell); i < g.cell_region_offsets(cell + 1); ++i) {
    const int token = g.cell_region(i);
    const Real f = surface_value(g, (token > 0 ? token : -token) - 1, r_local);
    if (Kokkos::fabs(f) < coincident_tolerance) {
      on = true;
    } else if ((f > 0) != (token > 0)) {
      return CellSide::outside;
    }
  }
  return on ? CellSide::on_surface : CellSide::inside;
}

// Whether r_local lies on a wall of the lattice's elements (within the tolerance): a face of its box or a
// wall between elements, within the box. Outside the box there are no walls: the outer universe is one
// universe, not tiled by the continued grid.
template <class Mem>
KOKKOS_INLINE_FUNCTION bool on_lattice_wall(const GeometryParams<Mem>& g, int lat, Vec3 r_local) {
  bool on = false;
  for (int axis = 0; axis < 3; ++axis) {
    const Real x = r_local[axis] - g.lattice_lower_left(lat, axis), pitch = g.lattice_pitch(lat, axis);
    const int n = g.lattice_shape(lat, axis);
    if (!(x > -coincident_tolerance && x < n * pitch + coincident_tolerance)) return false;
    const LatticeAxisPosition a = lattice_axis_position(x, pitch);
    on = on || a.on_wall;
  }
  return on;
}

}  // namespace detail

// What the point r (global coordinates) shows about the geometry: the first fault on its way down the
// hierarchy, on_surface if it could not be judged, none if it reached a material or left the root.
template <class Mem>
KOKKOS_INLINE_FUNCTION GeometryFault check_geometry_point(const GeometryParams<Mem>& g, Vec3 r) {
  GeometryFault fault;
  int universe = g.root_universe;
  int parent = -1;  // the cell the universe fills, or whose lattice placed it (none at the root)
  Vec3 offset;
  for (int depth = 0; depth < max_geometry_levels; ++depth) {
    fault.local = r - offset;
    int holding[2] = {-1, -1};
    int n_holding = 0;
    bool on_surface = false;
    for (int i = g.universe_cell_offsets(universe); i < g.universe_cell_offsets(universe + 1); ++i) {
      const int cell = g.universe_cells(i);
      const detail::CellSide side = detail::cell_side(g, cell, fault.local);
      if (side == detail::CellSide::inside) {
        if (n_holding < 2) holding[n_holding] = cell;
        ++n_holding;
      } else if (side == detail::CellSide::on_surface) {
        on_surface = true;
      }
    }
    if (n_holding >= 2) {
      fault.kind = GeometryFaultKind::overlap;
      fault.a = holding[0];
      fault.b = holding[1];
      return fault;
    }
    if (n_holding == 0) {
      if (on_surface) {
        fault.kind = GeometryFaultKind::on_surface;
      } else if (depth > 0) {
        fault.kind = GeometryFaultKind::gap;
        fault.a = universe;
        fault.b = parent;
      }
      return fault;
    }
    // One cell holds the point by position; another may hold it within the tolerance only, which the
    // direction would decide in tracking: the walk follows the one that holds it for any direction.
    const int cell = holding[0];
    const int fill = g.cell_fill(cell);
    parent = cell;
    switch (static_cast<FillKind>(g.cell_fill_kind(cell))) {
      case FillKind::material: return fault;
      case FillKind::universe: universe = fill; break;
      case FillKind::lattice: {
        if (detail::on_lattice_wall(g, fill, fault.local)) {
          fault.kind = GeometryFaultKind::on_surface;
          return fault;
        }
        int idx[3];
        if (lattice_element(g, fill, fault.local, Vec3{}, idx)) {
          universe = detail::lattice_universe(g, fill, idx);
          offset = offset + detail::lattice_element_centre(g, fill, idx);
        } else if (g.lattice_outer(fill) >= 0) {
          universe = g.lattice_outer(fill);
        } else {
          fault.kind = GeometryFaultKind::outside_lattice;
          fault.a = fill;
          fault.b = cell;
          return fault;
        }
        break;
      }
    }
  }
  return fault;  // deeper than max_geometry_levels: the builder refuses such models
}

// Points checked and what they found.
struct GeometryCheckCounts {
  std::int64_t faults = 0;      // overlap, gap or outside_lattice
  std::int64_t on_surface = 0;  // not judged
};

// Checks points [points.first, points.end()) of `box`, writing point points.first + i's verdict to
// verdicts(i) (verdicts holds at least points.count).
template <class Exec, class Mem>
GeometryCheckCounts check_geometry_points(const Exec& exec, const GeometryParams<Mem>& geometry, const SampleBox& box,
                                          IndexRange points, const Kokkos::View<GeometryFault*, Mem>& verdicts) {
  GeometryCheckCounts counts;
  Kokkos::parallel_reduce(
      "keff::geometry::check_points", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, points.count),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t& faults, std::int64_t& on_surface) {
        const GeometryFault f = check_geometry_point(geometry, box.point(points.first + i));
        verdicts(i) = f;
        faults += f.kind != GeometryFaultKind::none && f.kind != GeometryFaultKind::on_surface;
        on_surface += f.kind == GeometryFaultKind::on_surface;
      },
      counts.faults, counts.on_surface);
  return counts;
}

}  // namespace keff
