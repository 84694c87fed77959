// Relocation after a crossing, which searches from the level crossed: against locating from the root on
// nested lattices, into a lattice's outer universe and back, at the edges and corners of a 3-D lattice on
// reflective planes; and its shortcuts on their own, stepping a lattice element and the neighbour lists.
#include "geometry_probes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <initializer_list>
#include <string>
#include <vector>

using namespace keff;
using namespace keff::geometry_test;

namespace {

// Flights from each start in each of relocation_directions(planar), `events` crossings each, every
// relocation compared with locating from the root (follow): each flight located, none lost, no mismatch.
struct Followed {
  int flights = 0, relocations = 0, leaked = 0, crossings = 0;
};

Followed follow_all(const GeometryParams<DeviceMem>& g, std::initializer_list<Vec3> starts, bool planar, int events) {
  Followed f;
  for (const Vec3 start : starts) {
    for (const Vec3 dir : relocation_directions(planar)) {
      SCOPED_TRACE("start (" + std::to_string(start.x) + ", " + std::to_string(start.y) + ", " +
                   std::to_string(start.z) + ") direction (" + std::to_string(dir.x) + ", " +
                   std::to_string(dir.y) + ", " + std::to_string(dir.z) + ")");
      const RelocationAnswer a = follow(g, start, dir, events);
      EXPECT_TRUE(a.located);
      EXPECT_EQ(a.mismatches, 0);
      EXPECT_EQ(a.lost, 0);
      ++f.flights;
      f.relocations += a.relocations;
      f.leaked += a.leaked;
      f.crossings += a.crossings;
    }
  }
  return f;
}

}  // namespace

// ---- relocation after a crossing: from the level crossed, the same as from the root ------------------

// The core: surfaces of pins, pin-lattice and core-lattice walls (and their corners, which a diagonal
// from a corner meets), the water element, and lattice edges on the reflective planes x, y = 2.52.
TEST(GeometryRelocation, NestedLatticesAgreeWithLocatingFromTheRoot) {
  for (const bool everywhere : {false, true}) {
    SCOPED_TRACE(everywhere ? "one-cell universes without a region" : "one-cell universes inside a far plane");
    auto g = build_geometry(DeviceExec{}, make_core(everywhere).p);
    const Followed f = follow_all(g,
                                  {Vec3{-2.0, -2.0, 0.5}, Vec3{-1.26, -1.26, 0.0}, Vec3{0.0, 0.0, 1.0},
                                   Vec3{0.63, 0.63, -3.0}, Vec3{2.52 - 0.1, 1.26, 0.0}, Vec3{0.0, 2.0, 2.0}},
                                  false, 200);
    EXPECT_GT(f.relocations, 1000);
  }
}

// Leaving a lattice into its outer universe, crossing it to the lattice's box, and coming back.
TEST(GeometryRelocation, IntoTheOuterUniverseAndBack) {
  Outer o = make_outer(true);
  auto g = build_geometry(DeviceExec{}, o.p);
  const Followed f = follow_all(g, {Vec3{0.0, 0.0, 0.0}, Vec3{-1.5, -1.0, 0.0}, Vec3{1.2, 0.7, 1.0}}, true, 40);
  EXPECT_EQ(f.leaked, f.flights);  // the box is vacuum: every flight ends there
  // A flight straight out along +x from the lattice crosses x = 1.5 into the outer water, then the water
  // to the box's vacuum plane at x = 5 in one flight.
  auto t = track(g, {1.2, 0.5, 0}, {1, 0, 0}, 3);
  ASSERT_EQ(t.n_events, 2);
  EXPECT_EQ(t.events[0].result, CrossingResult::inside);
  EXPECT_EQ(t.events[0].state.material, 7);
  EXPECT_NEAR(t.events[1].hit.distance, 3.5, 1e-12);
  EXPECT_EQ(t.events[1].result, CrossingResult::leaked);
  // Out along -y, into the water below the lattice.
  t = track(g, {-1.2, -0.5, 0}, {0, -1, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].state.material, 7);
  EXPECT_GT(f.relocations, 100);
}

// Edges and corners of a 3-D lattice, where two or three walls are crossed at once, and where they lie
// on the reflective planes of the box: the flights must stay inside for ever.
TEST(GeometryRelocation, CornersOfA3dLatticeOnReflectivePlanes) {
  auto g = build_geometry(DeviceExec{}, make_cubes());
  const Followed f =
      follow_all(g, {Vec3{-0.5, -0.5, -0.5}, Vec3{0.0, 0.0, 0.0}, Vec3{0.5, 0.0, -0.5}, Vec3{-0.9, 0.4, 0.2}}, false, 300);
  EXPECT_EQ(f.leaked, 0);
  EXPECT_EQ(f.crossings, 300 * f.flights);  // every flight goes on for ever
  EXPECT_GT(f.relocations, 10000);
}

// ---- the shortcuts relocation takes: lattice stepping and neighbour lists ---------------------------

// From the centre element of a 3x3x3 lattice (and of a 3x3 one spanning all z, as a 2-D lattice is
// read): points inside, on one wall, on an edge (two walls) and on a corner (three), within a rounding
// of them on either side, and outside the shape, with directions into and out of each wall. The element
// stepped from the old one is the element located from nothing, and so is whether it is in the shape.
TEST(GeometryLattice, SteppingFromTheOldElementAgreesWithLocating) {
  model::Problem p;
  const int far = add_surface(p, SurfaceKind::x_plane, {1e6, 0, 0, 0});
  const int root = add_universe(p, "root");
  const int cube = add_universe(p, "cube");
  add_cell(p, "cube", cube, {}, FillKind::material, 0);
  const int lat3 = add_lattice(p, "cubes", {-1.5, -1.5, -1.5}, {1, 1, 1}, {3, 3, 3}, std::vector<int>(27, cube), -1);
  const int lat2 = add_lattice(p, "columns", {-1.5, -1.5, -constants::infinity}, {1, 1, 2 * constants::infinity},
                               {3, 3, 1}, std::vector<int>(9, cube), -1);
  add_cell(p, "all", root, {neg(far)}, FillKind::lattice, lat3);
  p.root_universe = root;
  auto g = build_geometry(DeviceExec{}, p);
  const std::array<Real, 11> at = {-0.5 - 1e-10, -0.5, -0.5 + 1e-10, -0.5 + 2e-9, -0.2, 0.0,
                                   0.3,          0.5 - 1e-10, 0.5,   0.5 + 1e-10, 1.7};
  const Real h = std::sqrt(0.5), t = std::sqrt(1.0 / 3);
  const std::array<Vec3, 8> dirs = {Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{0, 1, 0},  Vec3{0, 0, -1},
                                    Vec3{h, h, 0}, Vec3{-h, 0, h}, Vec3{t, -t, t}, Vec3{-t, -t, -t}};
  int cases = 0, stepped = 0, outside = 0;
  for (const int lat : {lat3, lat2}) {
    const std::array<int, 3> was = {1, 1, lat == lat3 ? 1 : 0};
    for (const Real x : at) {
      for (const Real y : at) {
        for (const Real z : at) {
          for (const Vec3 u : dirs) {
            const StepAnswer a = probe_step(g, lat, {x, y, z}, u, was);
            ASSERT_EQ(a.after.inside, a.full.inside) << x << " " << y << " " << z;
            for (int i = 0; i < 3; ++i) ASSERT_EQ(a.after.idx[i], a.full.idx[i]) << "axis " << i << " at " << x << " " << y << " " << z;
            ++cases;
            stepped += a.full.idx[0] != was[0] || a.full.idx[1] != was[1] || a.full.idx[2] != was[2];
            outside += a.full.inside ? 0 : 1;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 2 * 11 * 11 * 11 * 8);
  EXPECT_GT(stepped, cases / 2);  // walls, edges and corners crossed one way or the other
  EXPECT_GT(outside, 0);          // 1.7 from the centre of a 3-wide lattice is out of the shape
}

// A square cut into three cells by the planes x = 0 and y = 0: "west" (x < 0), "south-east" and
// "north-east". North-east is reached through two surfaces: from west across x = 0 (its list holds both
// eastern cells), and from south-east across y = 0.
struct Quadrants {
  model::Problem p;
  int x0, y0, west, south_east, north_east;
};

Quadrants make_quadrants() {
  Quadrants q;
  model::Problem& p = q.p;
  q.x0 = add_surface(p, SurfaceKind::x_plane, {0, 0, 0, 0});
  q.y0 = add_surface(p, SurfaceKind::y_plane, {0, 0, 0, 0});
  std::vector<model::HalfSpace> box;
  for (int axis = 0; axis < 3; ++axis) {
    const auto kind = axis == 0 ? SurfaceKind::x_plane : (axis == 1 ? SurfaceKind::y_plane : SurfaceKind::z_plane);
    box.push_back(pos(add_surface(p, kind, {-2, 0, 0, 0}, BoundaryKind::vacuum)));
    box.push_back(neg(add_surface(p, kind, {2, 0, 0, 0}, BoundaryKind::vacuum)));
  }
  const int root = add_universe(p, "root");
  const int quads = add_universe(p, "quadrants");
  add_cell(p, "box", root, box, FillKind::universe, quads);
  q.west = add_cell(p, "west", quads, {neg(q.x0)}, FillKind::material, 0);
  q.south_east = add_cell(p, "south-east", quads, {pos(q.x0), neg(q.y0)}, FillKind::material, 1);
  q.north_east = add_cell(p, "north-east", quads, {pos(q.x0), pos(q.y0)}, FillKind::material, 2);
  p.root_universe = root;
  return q;
}

TEST(GeometryNeighbours, ListsHoldTheCellsAcrossEachSide) {
  const Quadrants q = make_quadrants();
  auto g = build_geometry(DeviceExec{}, q.p);
  const auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.region_neighbour_offsets);
  const auto lists = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.region_neighbours);
  const auto region_offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.cell_region_offsets);
  const auto across = [&](int cell, int token_in_cell) {
    const int t = region_offsets(cell) + token_in_cell;
    std::vector<int> out;
    for (int j = offsets(t); j < offsets(t + 1); ++j) out.push_back(lists(j));
    return out;
  };
  ASSERT_EQ(offsets.extent(0), static_cast<std::size_t>(region_offsets(q.p.cells.size()) + 1));
  EXPECT_EQ(across(0, 0), std::vector<int>{});  // the root box: no other cell in its universe
  EXPECT_EQ(across(q.west, 0), (std::vector<int>{q.south_east, q.north_east}));
  EXPECT_EQ(across(q.south_east, 0), std::vector<int>{q.west});
  EXPECT_EQ(across(q.south_east, 1), std::vector<int>{q.north_east});
  EXPECT_EQ(across(q.north_east, 0), std::vector<int>{q.west});
  EXPECT_EQ(across(q.north_east, 1), std::vector<int>{q.south_east});
}

TEST(GeometryNeighbours, CrossingsFindTheCellAcrossAsLocatingDoes) {
  const Quadrants q = make_quadrants();
  auto g = build_geometry(DeviceExec{}, q.p);
  // Into north-east through x = 0 from west, then through y = 0 from south-east.
  auto t = track(g, {-1, 0.5, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].hit.surface, q.x0);
  EXPECT_EQ(t.events[0].state.level[1].cell, q.north_east);
  t = track(g, {0.5, -1, 0}, {0, 1, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].hit.surface, q.y0);
  EXPECT_EQ(t.events[0].state.level[1].cell, q.north_east);
  // Through the corner where both planes meet, and every other way, the same cells as from the root.
  const Followed f = follow_all(g, {Vec3{-1, -1, 0}, Vec3{1, -1, 0.5}, Vec3{0.3, 0.7, -1}}, false, 10);
  EXPECT_GT(f.relocations, 20);
}
