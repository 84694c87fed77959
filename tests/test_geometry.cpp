// CSG geometry: surfaces, cells, lattices, location in nested universes, distances, crossings and the
// nesting rules. Problems are built in code; every device function runs inside a one-iteration kernel whose
// answer is copied back, so the tests are valid on GPU builds too (geometry_probes.hpp). Relocation after a
// crossing: test_geometry_relocation.cpp.
#include "geometry_probes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace keff;
using namespace keff::geometry_test;

// ---- surfaces ------------------------------------------------------------------------------------

TEST(GeometrySurfaces, AxisPlanes) {
  const std::array<SurfaceKind, 3> kinds = {SurfaceKind::x_plane, SurfaceKind::y_plane, SurfaceKind::z_plane};
  for (int axis = 0; axis < 3; ++axis) {
    auto g = build_geometry(DeviceExec{}, one_surface(kinds[static_cast<std::size_t>(axis)], {1, 0, 0, 0}));
    Vec3 e, r0, r3, on, side;
    e[axis] = 1;
    r3[axis] = 3;
    on[axis] = 1;
    side[(axis + 1) % 3] = 1;
    // From the negative side towards the plane, then from the positive side towards it.
    auto a = probe_surface(g, 0, r0, e);
    EXPECT_NEAR(a.value, -1, eps);
    EXPECT_FALSE(a.sense);
    expect_vec_near(a.normal, e);
    EXPECT_NEAR(a.dist_neg, 1, eps);
    a = probe_surface(g, 0, r3, -1 * e);
    EXPECT_NEAR(a.value, 2, eps);
    EXPECT_TRUE(a.sense);
    EXPECT_NEAR(a.dist_pos, 2, eps);
    // Heading away never leaves; parallel never crosses.
    EXPECT_EQ(probe_surface(g, 0, r3, e).dist_pos, inf);
    EXPECT_EQ(probe_surface(g, 0, r0, side).dist_neg, inf);
    // On the plane: the direction decides the side, leaving is immediate, entering never ends.
    a = probe_surface(g, 0, on, e);
    EXPECT_TRUE(a.sense);
    EXPECT_EQ(a.dist_neg, 0);
    EXPECT_EQ(a.dist_pos, inf);
    a = probe_surface(g, 0, on, -1 * e);
    EXPECT_FALSE(a.sense);
    EXPECT_EQ(a.dist_pos, 0);
    EXPECT_EQ(a.dist_neg, inf);
    EXPECT_TRUE(probe_surface(g, 0, on, side).sense);  // exactly tangent: positive
  }
}

TEST(GeometrySurfaces, GeneralPlaneIsNormalised) {
  // 3x + 4y = 10, i.e. 0.6x + 0.8y = 2.
  auto g = build_geometry(DeviceExec{}, one_surface(SurfaceKind::plane, {3, 4, 0, 10}));
  auto coeffs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.surface_coeffs);
  EXPECT_NEAR(coeffs(0, 0), 0.6, eps);
  EXPECT_NEAR(coeffs(0, 1), 0.8, eps);
  EXPECT_NEAR(coeffs(0, 2), 0.0, eps);
  EXPECT_NEAR(coeffs(0, 3), 2.0, eps);

  auto a = probe_surface(g, 0, {0, 0, 0}, {1, 0, 0});
  EXPECT_NEAR(a.value, -2, eps);  // a true signed distance
  expect_vec_near(a.normal, {0.6, 0.8, 0});
  EXPECT_FALSE(a.sense);
  EXPECT_NEAR(a.dist_neg, 10.0 / 3.0, eps);  // x = 10/3 on the plane
  EXPECT_EQ(probe_surface(g, 0, {0, 0, 0}, {0, 0, 1}).dist_neg, inf);
  EXPECT_EQ(probe_surface(g, 0, {0, 0, 0}, {-0.8, 0.6, 0}).dist_neg, inf);  // parallel
  a = probe_surface(g, 0, {2, 1, 0}, {-0.6, -0.8, 0});  // 0.6*2 + 0.8*1 = 2: on the plane
  EXPECT_FALSE(a.sense);
  EXPECT_EQ(a.dist_pos, 0);
}

TEST(GeometrySurfaces, Sphere) {
  auto g = build_geometry(DeviceExec{}, one_surface(SurfaceKind::sphere, {1, 2, 3, 2}));
  // From the centre, outwards along z.
  auto a = probe_surface(g, 0, {1, 2, 3}, {0, 0, 1});
  EXPECT_NEAR(a.value, -2, eps);
  EXPECT_FALSE(a.sense);
  EXPECT_NEAR(a.dist_neg, 2, eps);
  // From outside below, entering at z = 1.
  a = probe_surface(g, 0, {1, 2, -2}, {0, 0, 1});
  EXPECT_NEAR(a.value, 3, eps);
  EXPECT_TRUE(a.sense);
  EXPECT_NEAR(a.dist_pos, 3, eps);
  expect_vec_near(a.normal, {0, 0, -1});
  // Oblique hit from outside: from (1, 2-5, 3) along +y at x offset 1.2 -> enters at y = 2 - 1.6.
  a = probe_surface(g, 0, {2.2, -3, 3}, {0, 1, 0});
  EXPECT_NEAR(a.dist_pos, 5 - 1.6, eps);
  // Just missing, just hitting (a chord of 2 sqrt(2 R 1e-6)), clean misses; heading away.
  EXPECT_EQ(probe_surface(g, 0, {3 + 1e-6, 2, -5}, {0, 0, 1}).dist_pos, inf);
  EXPECT_NEAR(probe_surface(g, 0, {3 - 1e-6, 2, -5}, {0, 0, 1}).dist_pos, 8 - std::sqrt(4 - (2 - 1e-6) * (2 - 1e-6)),
              1e-9);
  EXPECT_EQ(probe_surface(g, 0, {4, 2, -5}, {0, 0, 1}).dist_pos, inf);
  EXPECT_EQ(probe_surface(g, 0, {1, 2, -2}, {0, 0, -1}).dist_pos, inf);
  // On the top: leaving outward is immediate; heading inward, the exit is the bottom (4 cm away).
  a = probe_surface(g, 0, {1, 2, 5}, {0, 0, 1});
  EXPECT_TRUE(a.sense);
  EXPECT_EQ(a.dist_neg, 0);
  EXPECT_EQ(a.dist_pos, inf);
  expect_vec_near(a.normal, {0, 0, 1});
  a = probe_surface(g, 0, {1, 2, 5}, {0, 0, -1});
  EXPECT_FALSE(a.sense);
  EXPECT_NEAR(a.dist_neg, 4, eps);
  EXPECT_EQ(a.dist_pos, 0);
  // On the surface, tangent: positive, never enters again.
  a = probe_surface(g, 0, {1, 2, 5}, {1, 0, 0});
  EXPECT_TRUE(a.sense);
  EXPECT_EQ(a.dist_pos, inf);
  EXPECT_EQ(a.dist_neg, 0);
  // Within the coincidence tolerance counts as on the surface; beyond it the position decides.
  EXPECT_FALSE(probe_surface(g, 0, {1, 2, 5 + 5e-10}, {0, 0, -1}).sense);
  EXPECT_TRUE(probe_surface(g, 0, {1, 2, 5 + 5e-9}, {0, 0, -1}).sense);
}

TEST(GeometrySurfaces, Cylinders) {
  // z-cylinder about (1, -1), R = 0.5.
  {
    auto g = build_geometry(DeviceExec{}, one_surface(SurfaceKind::z_cylinder, {1, -1, 0.5, 0}));
    auto a = probe_surface(g, 0, {1, -1, 7}, {1, 0, 0});
    EXPECT_NEAR(a.value, -0.5, eps);
    EXPECT_FALSE(a.sense);
    EXPECT_NEAR(a.dist_neg, 0.5, eps);
    const Real h = 1 / std::sqrt(2.0);
    EXPECT_NEAR(probe_surface(g, 0, {1, -1, 7}, {h, 0, h}).dist_neg, 0.5 * std::sqrt(2.0), eps);
    EXPECT_EQ(probe_surface(g, 0, {1, -1, 7}, {0, 0, 1}).dist_neg, inf);  // along the axis
    a = probe_surface(g, 0, {3, -1, 0}, {-1, 0, 0});
    EXPECT_TRUE(a.sense);
    EXPECT_NEAR(a.dist_pos, 1.5, eps);
    expect_vec_near(a.normal, {1, 0, 0});
    EXPECT_EQ(probe_surface(g, 0, {3, -0.5 + 1e-6, 0}, {-1, 0, 0}).dist_pos, inf);  // just misses
    a = probe_surface(g, 0, {1.5, -1, 0}, {-1, 0, 0});  // on the surface, heading in: far side
    EXPECT_FALSE(a.sense);
    EXPECT_NEAR(a.dist_neg, 1.0, eps);
    EXPECT_EQ(a.dist_pos, 0);
  }
  // x-cylinder {y0, z0, R}.
  {
    auto g = build_geometry(DeviceExec{}, one_surface(SurfaceKind::x_cylinder, {1, 2, 1, 0}));
    auto a = probe_surface(g, 0, {-4, 1, 2}, {0, 0, 1});
    EXPECT_NEAR(a.dist_neg, 1, eps);
    EXPECT_EQ(probe_surface(g, 0, {-4, 1, 2}, {1, 0, 0}).dist_neg, inf);
    expect_vec_near(probe_surface(g, 0, {9, 1, 3}, {0, 0, 1}).normal, {0, 0, 1});
    EXPECT_NEAR(probe_surface(g, 0, {9, 4, 2}, {0, -1, 0}).dist_pos, 2, eps);
    EXPECT_NEAR(probe_surface(g, 0, {9, 4, 2}, {0, 0, 0}).value, 2, eps);
  }
  // y-cylinder {x0, z0, R}.
  {
    auto g = build_geometry(DeviceExec{}, one_surface(SurfaceKind::y_cylinder, {-1, 0, 2, 0}));
    auto a = probe_surface(g, 0, {-1, 50, 0}, {-1, 0, 0});
    EXPECT_NEAR(a.dist_neg, 2, eps);
    EXPECT_FALSE(a.sense);
    EXPECT_EQ(probe_surface(g, 0, {-1, 50, 0}, {0, 1, 0}).dist_neg, inf);
    expect_vec_near(probe_surface(g, 0, {-3, 0, 0}, {0, 0, 1}).normal, {-1, 0, 0});
    EXPECT_NEAR(probe_surface(g, 0, {-1, 0, -5}, {0, 0, 1}).dist_pos, 3, eps);
    EXPECT_TRUE(probe_surface(g, 0, {-1, 0, 2}, {0, 1, 0}).sense);  // on it, along the axis
  }
}

// ---- cells ---------------------------------------------------------------------------------------

TEST(GeometryCells, ContainsByPositionAndOnSurfaceByDirection) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  EXPECT_TRUE(probe_cell(g, c.core_box, {0, 0, 0}, {1, 0, 0}));
  EXPECT_TRUE(probe_cell(g, c.core_box, {2.5, -2.5, 9.9}, {1, 0, 0}));
  EXPECT_FALSE(probe_cell(g, c.core_box, {2.6, 0, 0}, {-1, 0, 0}));
  EXPECT_FALSE(probe_cell(g, c.core_box, {0, 0, -10.5}, {0, 0, 1}));
  EXPECT_FALSE(probe_cell(g, c.core_box, {2.52, 0, 0}, {1, 0, 0}));  // on x max, heading out
  EXPECT_TRUE(probe_cell(g, c.core_box, {2.52, 0, 0}, {-1, 0, 0}));  // heading in
  EXPECT_TRUE(probe_cell(g, c.fuel, {0.1, 0.2, 0}, {1, 0, 0}));
  EXPECT_FALSE(probe_cell(g, c.fuel, {0.4, 0, 0}, {1, 0, 0}));
  EXPECT_TRUE(probe_cell(g, c.fuel, {0.4, 0, 0}, {-1, 0, 0}));
  EXPECT_FALSE(probe_cell(g, c.fuel, {0.4, 0, 0}, {0, 1, 0}));  // tangent belongs to the outside
  EXPECT_TRUE(probe_cell(g, c.moderator, {0.4, 0, 0}, {0, 1, 0}));
}

// ---- lattices ------------------------------------------------------------------------------------

TEST(GeometryLattice, IndexingAndWallTieBreaks) {
  Outer o = make_outer(true);
  auto g = build_geometry(DeviceExec{}, o.p);
  // lower_left (-1.5, -1, -5), pitch (1, 1, 10), shape (3, 2, 1).
  auto a = probe_lattice(g, o.lattice, {0.2, 0.5, 0}, {1, 0, 0});
  EXPECT_TRUE(a.inside);
  EXPECT_EQ(a.idx[0], 1);
  EXPECT_EQ(a.idx[1], 1);
  EXPECT_EQ(a.idx[2], 0);
  a = probe_lattice(g, o.lattice, {-1.2, -0.7, 4.9}, {1, 0, 0});
  EXPECT_TRUE(a.inside);
  EXPECT_EQ(a.idx[0], 0);
  EXPECT_EQ(a.idx[1], 0);
  // An internal wall x = -0.5: the element the direction points into; exactly along it: the higher.
  EXPECT_EQ(probe_lattice(g, o.lattice, {-0.5, 0.5, 0}, {1, 0, 0}).idx[0], 1);
  EXPECT_EQ(probe_lattice(g, o.lattice, {-0.5, 0.5, 0}, {-1, 0, 0}).idx[0], 0);
  EXPECT_EQ(probe_lattice(g, o.lattice, {-0.5, 0.5, 0}, {0, 1, 0}).idx[0], 1);
  EXPECT_EQ(probe_lattice(g, o.lattice, {-0.5 + 5e-10, 0.5, 0}, {-1, 0, 0}).idx[0], 0);  // within tolerance
  EXPECT_EQ(probe_lattice(g, o.lattice, {-0.5 + 5e-9, 0.5, 0}, {-1, 0, 0}).idx[0], 1);   // beyond it
  // Wall y = 0 likewise.
  EXPECT_EQ(probe_lattice(g, o.lattice, {0, 0, 0}, {0, -1, 0}).idx[1], 0);
  EXPECT_EQ(probe_lattice(g, o.lattice, {0, 0, 0}, {0, 1, 0}).idx[1], 1);
  // Outer walls: heading out is outside the shape, heading in is inside.
  a = probe_lattice(g, o.lattice, {-1.5, 0.5, 0}, {-1, 0, 0});
  EXPECT_FALSE(a.inside);
  EXPECT_EQ(a.idx[0], -1);
  a = probe_lattice(g, o.lattice, {-1.5, 0.5, 0}, {1, 0, 0});
  EXPECT_TRUE(a.inside);
  EXPECT_EQ(a.idx[0], 0);
  EXPECT_FALSE(probe_lattice(g, o.lattice, {1.5, 0.5, 0}, {1, 0, 0}).inside);
  EXPECT_TRUE(probe_lattice(g, o.lattice, {1.5, 0.5, 0}, {-1, 0, 0}).inside);
  a = probe_lattice(g, o.lattice, {3, 0.5, 0}, {-1, 0, 0});
  EXPECT_FALSE(a.inside);
  EXPECT_EQ(a.idx[0], 4);
  EXPECT_FALSE(probe_lattice(g, o.lattice, {0, 0.5, 6}, {0, 0, 1}).inside);
}

TEST(GeometryLattice, OutsideTheElementsIsTheOuterUniverse) {
  Outer o = make_outer(true);
  auto g = build_geometry(DeviceExec{}, o.p);
  auto t = track(g, {3, 0.5, 0}, {-1, 0, 0});
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.material, 7);
  ASSERT_EQ(t.start.n_levels, 2);
  EXPECT_EQ(t.start.level[1].universe, o.water);
  EXPECT_EQ(t.start.level[1].lattice, o.lattice);
  EXPECT_EQ(t.start.level[1].lat_index[0], 4);  // outside the shape
  expect_vec_near(t.start.level[1].offset, {0, 0, 0});

  // Heading for the lattice: the outer universe's boundary is the lattice's box, so the particle goes
  // straight to x = 1.5 and enters element (2, 1) (void), then the pin (1, 1) at x = 0.5 and its fuel
  // at x = 0.2.
  t = track(g, {3, 0.5, 0}, {-1, 0, 0}, 3);
  ASSERT_EQ(t.n_events, 3);
  EXPECT_NEAR(t.events[0].hit.distance, 1.5, eps);
  EXPECT_EQ(t.events[0].hit.surface, -1);
  EXPECT_EQ(t.events[0].result, CrossingResult::inside);
  EXPECT_EQ(t.events[0].state.material, -1);  // void
  EXPECT_EQ(t.events[0].state.level[1].lat_index[0], 2);
  EXPECT_NEAR(t.events[1].hit.distance, 1, eps);
  EXPECT_EQ(t.events[1].state.material, 1);
  expect_vec_near(t.events[1].state.level[1].offset, {0, 0.5, 0});
  EXPECT_NEAR(t.events[2].hit.distance, 0.3, eps);
  EXPECT_EQ(t.events[2].hit.surface, 0);
  EXPECT_EQ(t.events[2].state.material, 0);

  // A flight beside the lattice, never entering its box, meets no wall of the grid continued outside:
  // it crosses the water to the model's boundary in one flight (it stopped every pitch, 1 cm here).
  t = track(g, {3, 0.5, 0}, {0, 1, 0}, 2);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_NEAR(t.events[0].hit.distance, 4.5, eps);
  EXPECT_EQ(t.events[0].result, CrossingResult::leaked);
  // One that passes the box's corner, just missing it, likewise; one that clips it enters it there.
  t = track(g, {3, 0.5, 0}, (1 / std::sqrt(2.25 + (0.5 + 1e-6) * (0.5 + 1e-6))) * Vec3{-1.5, 0.5 + 1e-6, 0}, 2);
  ASSERT_GE(t.n_events, 1);
  EXPECT_NE(t.events[0].hit.surface, -1);
  t = track(g, {3, 0.5, 0}, (1 / std::sqrt(2.25 + (0.5 - 1e-6) * (0.5 - 1e-6))) * Vec3{-1.5, 0.5 - 1e-6, 0}, 2);
  ASSERT_GE(t.n_events, 1);
  EXPECT_EQ(t.events[0].hit.surface, -1);
  EXPECT_EQ(t.events[0].state.level[1].lat_index[0], 2);
  EXPECT_EQ(t.events[0].state.level[1].lat_index[1], 1);
}

TEST(GeometryLattice, OutsideTheElementsWithoutOuterIsLost) {
  auto g = build_geometry(DeviceExec{}, make_outer(false).p);
  EXPECT_FALSE(track(g, {3, 0.5, 0}, {-1, 0, 0}).located);
  EXPECT_TRUE(track(g, {0, 0.5, 0}, {-1, 0, 0}).located);
}

// ---- locate --------------------------------------------------------------------------------------

TEST(GeometryLocate, NestedLatticesWithOffsets) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  // Assembly (1, 1) is centred at (1.26, 1.26); its pin (0, 0) at (0.63, 0.63).
  auto t = track(g, {0.73, 0.63, 0}, {1, 0, 0});
  ASSERT_TRUE(t.located);
  const GeometryState& s = t.start;
  ASSERT_EQ(s.n_levels, 4);
  EXPECT_EQ(s.material, 0);
  EXPECT_EQ(s.level[0].universe, c.root);
  EXPECT_EQ(s.level[0].cell, c.core_box);
  EXPECT_EQ(s.level[0].lattice, -1);
  EXPECT_EQ(s.level[1].universe, c.core_u);
  EXPECT_EQ(s.level[1].lattice, -1);
  expect_vec_near(s.level[1].offset, {0, 0, 0});
  EXPECT_EQ(s.level[2].universe, c.assembly);
  EXPECT_EQ(s.level[2].lattice, c.core_lattice);
  EXPECT_EQ(s.level[2].lat_index[0], 1);
  EXPECT_EQ(s.level[2].lat_index[1], 1);
  EXPECT_EQ(s.level[2].lat_index[2], 0);
  expect_vec_near(s.level[2].offset, {1.26, 1.26, 0});
  EXPECT_EQ(s.level[3].universe, c.pin);
  EXPECT_EQ(s.level[3].cell, c.fuel);
  EXPECT_EQ(s.level[3].lattice, c.pin_lattice);
  EXPECT_EQ(s.level[3].lat_index[0], 0);
  EXPECT_EQ(s.level[3].lat_index[1], 0);
  expect_vec_near(s.level[3].offset, {0.63, 0.63, 0});

  // Guide tube: pin (1, 1) of assembly (1, 1); the water assembly (0, 1) stops a level higher.
  t = track(g, {1.89, 1.89, 3}, {0, 0, 1});
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.material, 2);
  EXPECT_EQ(t.start.level[3].universe, c.guide);
  EXPECT_EQ(t.start.level[3].cell, c.guide_water);
  t = track(g, {-1.0, 1.5, 0}, {0, 0, 1});
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.material, 3);
  EXPECT_EQ(t.start.n_levels, 3);
  EXPECT_EQ(t.start.level[2].universe, c.water);
  // Assembly (0, 0), pin (1, 0): centre (-0.63, -1.89); a moderator point.
  t = track(g, {-0.63 + 0.5, -1.89, 0}, {0, 0, 1});
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.material, 1);
  EXPECT_EQ(t.start.level[3].cell, c.moderator);
  expect_vec_near(t.start.level[3].offset, {-0.63, -1.89, 0});
}

TEST(GeometryLocate, OutsideEveryCellIsLost) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  EXPECT_FALSE(track(g, {100, 0, 0}, {1, 0, 0}).located);
  EXPECT_FALSE(track(g, {0, 0, 10.5}, {0, 0, -1}).located);
  EXPECT_FALSE(track(g, {0, 0, 10}, {0, 0, 1}).located);  // on the boundary, heading out
  EXPECT_TRUE(track(g, {0, 0, 10}, {0, 0, -1}).located);
}

// ---- distance to boundary ------------------------------------------------------------------------

TEST(GeometryDistance, NearestOfPinLatticeWallAndOuterBox) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  // In fuel: the pin cylinder (level 3) is nearest.
  auto t = track(g, {0.73, 0.63, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_NEAR(t.events[0].hit.distance, 0.3, eps);
  EXPECT_EQ(t.events[0].hit.surface, c.pin_cyl);
  EXPECT_EQ(t.events[0].hit.level, 3);
  // In moderator: the pin cell's lattice wall at local x = 0.63.
  t = track(g, {0.63 + 0.5, 0.63, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_NEAR(t.events[0].hit.distance, 0.13, eps);
  EXPECT_EQ(t.events[0].hit.surface, -1);
  EXPECT_EQ(t.events[0].hit.level, 3);
  // At the core edge the box plane, assembly wall and pin wall coincide: the outermost (the box) wins.
  t = track(g, {2.42, 0.63, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_NEAR(t.events[0].hit.distance, 0.1, eps);
  EXPECT_EQ(t.events[0].hit.surface, c.xmax);
  EXPECT_EQ(t.events[0].hit.level, 0);
  // Between assemblies the assembly wall (level 2) wins over the coincident pin wall (level 3).
  t = track(g, {-0.1, -0.63, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_NEAR(t.events[0].hit.distance, 0.1, eps);
  EXPECT_EQ(t.events[0].hit.surface, -1);
  EXPECT_EQ(t.events[0].hit.level, 2);
}

// ---- crossing ------------------------------------------------------------------------------------

TEST(GeometryCrossing, VacuumLeaks) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  auto t = track(g, {2.42, 0.63, 0}, {0, 0, 1}, 3);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].hit.surface, c.zmax);
  EXPECT_NEAR(t.events[0].hit.distance, 10, eps);
  EXPECT_EQ(t.events[0].result, CrossingResult::leaked);
}

TEST(GeometryCrossing, ReflectiveMirrorsDirectionAndKeepsLocation) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  auto t = track(g, {2.42, 0.63, 0}, {1, 0, 0}, 2);
  ASSERT_EQ(t.n_events, 2);
  EXPECT_EQ(t.events[0].result, CrossingResult::reflected);
  expect_vec_near(t.events[0].u, {-1, 0, 0});
  expect_vec_near(t.events[0].r, {2.52, 0.63, 0});
  expect_same_location(t.events[0].state, t.start);
  // Back through the moderator to the fuel of the same pin.
  EXPECT_NEAR(t.events[1].hit.distance, 0.63 - 0.4, eps);
  EXPECT_EQ(t.events[1].result, CrossingResult::inside);
  EXPECT_EQ(t.events[1].state.material, 0);
}

TEST(GeometryCrossing, ReflectiveCornerReflectsTwiceAndStaysInside) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  const Real h = 1 / std::sqrt(2.0);
  // Guide pin (1, 1) of assembly (1, 1), moderator, heading for the (x max, y max) corner.
  auto t = track(g, {2.3, 2.3, 0}, {h, h, 0}, 3);
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.material, 1);
  ASSERT_EQ(t.n_events, 3);
  EXPECT_NEAR(t.events[0].hit.distance, 0.22 * std::sqrt(2.0), 1e-10);
  EXPECT_EQ(t.events[0].result, CrossingResult::reflected);
  EXPECT_EQ(t.events[0].hit.level, 0);
  EXPECT_LT(t.events[1].hit.distance, coincident_tolerance);  // the second plane, same point
  EXPECT_EQ(t.events[1].result, CrossingResult::reflected);
  EXPECT_EQ(t.events[1].hit.level, 0);
  EXPECT_NE(t.events[0].hit.surface, t.events[1].hit.surface);
  expect_vec_near(t.events[1].u, {-h, -h, 0});
  expect_same_location(t.events[1].state, t.start);
  // Then back into the guide tube: |(0.63, 0.63)| - 0.4 from the corner.
  EXPECT_NEAR(t.events[2].hit.distance, 0.63 * std::sqrt(2.0) - 0.4, 1e-10);
  EXPECT_EQ(t.events[2].result, CrossingResult::inside);
  EXPECT_EQ(t.events[2].state.material, 2);
}

// A slanted flight that meets a pin lattice wall 7e-10 cm below the top plane (across the plane; 1.8e-9
// cm before it along the flight, more than the tolerance): where it stops it lies on the plane, heading
// out, so the plane is the boundary it crosses there; relocating at the wall lost it (2-D C5G7 lost a
// history so, at (40.32, 21.4009414, 0.999999999) moving (0.909, 0.141, 0.393), against a reflective z).
TEST(GeometryCrossing, OuterPlaneItStopsOnWinsOverTheNearerLatticeWall) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  const Real uz = 0.393248063, ux = std::sqrt(1 - uz * uz);
  const Real to_wall = (1.26 - 1.0) / ux;                    // pin wall at x = 1.26, from x = 1.0
  const Real z0 = 10 - 7e-10 - to_wall * uz;                 // reaches the wall 7e-10 below z = 10
  auto t = track(g, {1.0, 1.13, z0}, {ux, 0, uz}, 2);  // in moderator, clear of the pin cylinders
  ASSERT_TRUE(t.located);
  ASSERT_GE(t.n_events, 1);
  EXPECT_EQ(t.events[0].hit.surface, c.zmax);
  EXPECT_EQ(t.events[0].hit.level, 0);
  EXPECT_NEAR(t.events[0].hit.distance, to_wall, 1e-12);  // it stops at the wall
  EXPECT_EQ(t.events[0].result, CrossingResult::leaked);   // z max is vacuum here
}

TEST(GeometryCrossing, TransmissionIntoNeighbouringElements) {
  Core c = make_core();
  auto g = build_geometry(DeviceExec{}, c.p);
  // Pin (0, 0) -> pin (1, 0) of assembly (1, 1).
  auto t = track(g, {0.63 + 0.5, 0.63, 0}, {1, 0, 0}, 1);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].result, CrossingResult::inside);
  const GeometryState& s = t.events[0].state;
  EXPECT_EQ(s.material, 1);
  EXPECT_EQ(s.level[2].lat_index[0], 1);
  EXPECT_EQ(s.level[2].lat_index[1], 1);
  EXPECT_EQ(s.level[3].lat_index[0], 1);
  EXPECT_EQ(s.level[3].lat_index[1], 0);
  expect_vec_near(s.level[3].offset, {1.89, 0.63, 0});
  // Guide pin (1, 1) of assembly (0, 0) -> pin (0, 1) of assembly (1, 0), across x = 0.
  t = track(g, {-0.1, -0.63, 0}, {1, 0, 0}, 1);
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.level[3].universe, c.guide);
  ASSERT_EQ(t.n_events, 1);
  EXPECT_EQ(t.events[0].result, CrossingResult::inside);
  const GeometryState& s2 = t.events[0].state;
  EXPECT_EQ(s2.level[2].lat_index[0], 1);
  EXPECT_EQ(s2.level[2].lat_index[1], 0);
  EXPECT_EQ(s2.level[3].universe, c.pin);
  EXPECT_EQ(s2.level[3].lat_index[0], 0);
  EXPECT_EQ(s2.level[3].lat_index[1], 1);
  EXPECT_EQ(s2.level[3].cell, c.moderator);
  expect_vec_near(s2.level[3].offset, {0.63, -0.63, 0});
}

// ---- the model's nesting check (io/input/universe_nesting.hpp), on models made in code ----------------

TEST(GeometryNesting, UniverseThatContainsItself) {
  model::Problem p;
  const int far = add_surface(p, SurfaceKind::x_plane, {1e6, 0, 0, 0});
  const int a = add_universe(p, "a");
  const int b = add_universe(p, "b");
  add_cell(p, "a-cell", a, {neg(far)}, FillKind::universe, b);
  add_cell(p, "b-cell", b, {neg(far)}, FillKind::universe, a);
  const auto problem = find_nesting_problem(p);
  ASSERT_TRUE(problem);
  const std::string what = describe(p, *problem);
  EXPECT_NE(what.find("contains itself"), std::string::npos) << what;
  EXPECT_NE(what.find("b-cell"), std::string::npos) << what;
  EXPECT_NE(what.find("test.toml:101"), std::string::npos) << what;
  // Through a lattice, too.
  model::Problem q;
  const int far_q = add_surface(q, SurfaceKind::x_plane, {1e6, 0, 0, 0});
  const int u = add_universe(q, "u");
  const int lat = add_lattice(q, "l", {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {u}, -1);
  add_cell(q, "u-cell", u, {neg(far_q)}, FillKind::lattice, lat);
  const auto through_lattice = find_nesting_problem(q);
  ASSERT_TRUE(through_lattice);
  EXPECT_EQ(through_lattice->lattice, lat);
}

TEST(GeometryNesting, DepthLimit) {
  auto g = build_geometry(DeviceExec{}, make_chain(max_geometry_levels));
  auto t = track(g, {0, 0, 0}, {1, 0, 0});
  ASSERT_TRUE(t.located);
  EXPECT_EQ(t.start.n_levels, max_geometry_levels);
  EXPECT_EQ(t.start.material, 0);
  EXPECT_FALSE(find_nesting_problem(make_chain(max_geometry_levels)));
  const auto deep = make_chain(max_geometry_levels + 1);
  const auto problem = find_nesting_problem(deep);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->kind, NestingProblem::Kind::too_deep);
  {
    const std::string what = describe(deep, *problem);
    const std::string cell = numbered("c", max_geometry_levels - 1);
    EXPECT_NE(what.find("'" + cell + "'"), std::string::npos) << what;
    EXPECT_NE(what.find("test.toml:"), std::string::npos) << what;
  }
}
