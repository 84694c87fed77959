// CSG geometry: surfaces, cells, lattices, location in nested universes, distances and crossings.
// Problems are built in code; every device function runs inside a one-iteration kernel whose answer is
// copied back, so the tests are valid on GPU builds too. Kernels are functors at namespace scope
// (CUDA refuses extended lambdas inside the private TestBody of a gtest TEST).
#include "geometry_support.hpp"
#include "io/input/universe_nesting.hpp"
#include "kernels/geometry.hpp"
#include "src/params/build_geometry.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace keff::geometry_test {

using Geo = GeometryParams<DeviceMem>;
constexpr Real eps = 1e-12;
constexpr Real inf = constants::infinity;

struct SurfaceAnswer {
  Real value = 0;
  Vec3 normal;
  bool sense = false;
  Real dist_pos = 0;  // leaving the positive half-space
  Real dist_neg = 0;  // leaving the negative half-space
};

struct SurfaceEval {
  Geo g;
  int s;
  Vec3 r, u;
  KOKKOS_FUNCTION SurfaceAnswer operator()() const {
    SurfaceAnswer a;
    a.value = surface_value(g, s, r);
    a.normal = surface_normal(g, s, r);
    a.sense = surface_sense(g, s, r, u);
    a.dist_pos = surface_distance(g, s, r, u, true);
    a.dist_neg = surface_distance(g, s, r, u, false);
    return a;
  }
};

SurfaceAnswer probe_surface(const Geo& g, int s, Vec3 r, Vec3 u) {
  return run_on_device<SurfaceAnswer>(SurfaceEval{g, s, r, u});
}

struct CellEval {
  Geo g;
  int cell;
  Vec3 r, u;
  KOKKOS_FUNCTION int operator()() const { return cell_contains(g, cell, r, u) ? 1 : 0; }
};

bool probe_cell(const Geo& g, int cell, Vec3 r, Vec3 u) { return run_on_device<int>(CellEval{g, cell, r, u}) != 0; }

struct LatticeAnswer {
  int inside = 0;
  int idx[3] = {0, 0, 0};
};

struct LatticeEval {
  Geo g;
  int lat;
  Vec3 r, u;
  KOKKOS_FUNCTION LatticeAnswer operator()() const {
    LatticeAnswer a;
    a.inside = lattice_element(g, lat, r, u, a.idx) ? 1 : 0;
    return a;
  }
};

LatticeAnswer probe_lattice(const Geo& g, int lat, Vec3 r, Vec3 u) {
  return run_on_device<LatticeAnswer>(LatticeEval{g, lat, r, u});
}

// lattice_element_after() from element `was`, beside lattice_element() from nothing.
struct StepAnswer {
  LatticeAnswer after, full;
};

struct StepEval {
  Geo g;
  int lat;
  Vec3 r, u;
  int was[3];
  KOKKOS_FUNCTION StepAnswer operator()() const {
    StepAnswer a;
    a.after.inside = detail::lattice_element_after(g, lat, r, u, was, a.after.idx) ? 1 : 0;
    a.full.inside = lattice_element(g, lat, r, u, a.full.idx) ? 1 : 0;
    return a;
  }
};

StepAnswer probe_step(const Geo& g, int lat, Vec3 r, Vec3 u, std::array<int, 3> was) {
  return run_on_device<StepAnswer>(StepEval{g, lat, r, u, {was[0], was[1], was[2]}});
}

// Locate, then follow the particle from boundary to boundary (no collisions) for a few events.
inline constexpr int max_track_events = 6;

struct TrackEvent {
  BoundaryHit hit;
  CrossingResult result = CrossingResult::lost;
  Vec3 r, u;  // on the boundary, after the crossing
  GeometryState state;
};

struct TrackAnswer {
  int located = 0;
  GeometryState start;
  int n_events = 0;
  TrackEvent events[max_track_events];
};

struct TrackEval {
  Geo g;
  Vec3 r, u;
  int n_events;
  KOKKOS_FUNCTION TrackAnswer operator()() const {
    TrackAnswer a;
    GeometryState s;
    a.located = locate(g, r, u, s) ? 1 : 0;
    a.start = s;
    if (!a.located) return a;
    Vec3 pos = r, dir = u;
    for (int e = 0; e < n_events && e < max_track_events; ++e) {
      TrackEvent& ev = a.events[e];
      ev.hit = distance_to_boundary(g, s, pos, dir);
      if (ev.hit.distance >= inf) break;
      pos = pos + ev.hit.distance * dir;
      ev.result = cross_boundary(g, s, pos, dir, ev.hit);
      ev.r = pos;
      ev.u = dir;
      ev.state = s;
      a.n_events = e + 1;
      if (ev.result == CrossingResult::leaked || ev.result == CrossingResult::lost) break;
    }
    return a;
  }
};

TrackAnswer track(const Geo& g, Vec3 r, Vec3 u, int n_events = 0) {
  return run_on_device<TrackAnswer>(TrackEval{g, r, u, n_events});
}

void expect_vec_near(Vec3 a, Vec3 b, Real tol = eps) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

void expect_same_location(const GeometryState& a, const GeometryState& b) {
  ASSERT_EQ(a.n_levels, b.n_levels);
  EXPECT_EQ(a.material, b.material);
  for (int k = 0; k < a.n_levels; ++k) {
    EXPECT_EQ(a.level[k].universe, b.level[k].universe) << "level " << k;
    EXPECT_EQ(a.level[k].cell, b.level[k].cell) << "level " << k;
    EXPECT_EQ(a.level[k].lattice, b.level[k].lattice) << "level " << k;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(a.level[k].lat_index[i], b.level[k].lat_index[i]) << "level " << k;
  }
}

// ---- problems ------------------------------------------------------------------------------------

// One surface and a trivial root universe, to probe the surface functions.
model::Problem one_surface(SurfaceKind kind, std::array<double, 4> c) {
  model::Problem p;
  const int s = add_surface(p, kind, c);
  const int u = add_universe(p, "root");
  add_cell(p, "all", u, {pos(s)}, FillKind::material, 0);
  return p;
}

// A 2x2 core of 2x2-pin assemblies, element (0,1) of the core being water. Root cell (box, x/y max
// reflective, x/y min and z vacuum) -> core universe -> core lattice -> assembly -> pin lattice -> pin.
struct Core {
  model::Problem p;
  int pin_cyl, xmin, xmax, ymin, ymax, zmin, zmax;
  int core_box, fuel, moderator, guide_water;
  int core_lattice, pin_lattice;
  int root, core_u, assembly, water, pin, guide;
};

// everywhere: the one-cell universes (core, assembly, water) are cells without a region (all of space),
// as the C5G7 inputs write them; otherwise they are bounded by a far plane.
Core make_core(bool everywhere = false) {
  Core c;
  model::Problem& p = c.p;
  c.pin_cyl = add_surface(p, SurfaceKind::z_cylinder, {0, 0, 0.4, 0});
  c.xmin = add_surface(p, SurfaceKind::x_plane, {-2.52, 0, 0, 0}, BoundaryKind::vacuum);
  c.xmax = add_surface(p, SurfaceKind::x_plane, {2.52, 0, 0, 0}, BoundaryKind::reflective);
  c.ymin = add_surface(p, SurfaceKind::y_plane, {-2.52, 0, 0, 0}, BoundaryKind::vacuum);
  c.ymax = add_surface(p, SurfaceKind::y_plane, {2.52, 0, 0, 0}, BoundaryKind::reflective);
  c.zmin = add_surface(p, SurfaceKind::z_plane, {-10, 0, 0, 0}, BoundaryKind::vacuum);
  c.zmax = add_surface(p, SurfaceKind::z_plane, {10, 0, 0, 0}, BoundaryKind::vacuum);
  const int far = add_surface(p, SurfaceKind::x_plane, {1e6, 0, 0, 0});

  c.root = add_universe(p, "root");
  c.core_u = add_universe(p, "core");
  c.assembly = add_universe(p, "assembly");
  c.water = add_universe(p, "water");
  c.pin = add_universe(p, "pin");
  c.guide = add_universe(p, "guide");

  c.pin_lattice = add_lattice(p, "pins", {-1.26, -1.26, -10}, {1.26, 1.26, 20}, {2, 2, 1},
                              {c.pin, c.pin, c.pin, c.guide}, -1);
  c.core_lattice = add_lattice(p, "core", {-2.52, -2.52, -10}, {2.52, 2.52, 20}, {2, 2, 1},
                               {c.assembly, c.assembly, c.water, c.assembly}, -1);

  c.core_box = add_cell(p, "core-box", c.root,
                        {pos(c.xmin), neg(c.xmax), pos(c.ymin), neg(c.ymax), pos(c.zmin), neg(c.zmax)},
                        FillKind::universe, c.core_u);
  const std::vector<model::HalfSpace> all = everywhere ? std::vector<model::HalfSpace>{} : std::vector{neg(far)};
  add_cell(p, "core", c.core_u, all, FillKind::lattice, c.core_lattice);
  add_cell(p, "assembly", c.assembly, all, FillKind::lattice, c.pin_lattice);
  add_cell(p, "water", c.water, all, FillKind::material, 3);
  c.fuel = add_cell(p, "fuel", c.pin, {neg(c.pin_cyl)}, FillKind::material, 0);
  c.moderator = add_cell(p, "moderator", c.pin, {pos(c.pin_cyl)}, FillKind::material, 1);
  c.guide_water = add_cell(p, "guide-water", c.guide, {neg(c.pin_cyl)}, FillKind::material, 2);
  add_cell(p, "guide-moderator", c.guide, {pos(c.pin_cyl)}, FillKind::material, 1);
  p.root_universe = c.root;
  return c;
}

// A 3x2 lattice of pins (element (2,1) void) inside a 10 cm box, with an outer water universe
// (or none when with_outer is false).
struct Outer {
  model::Problem p;
  int lattice;
  int water;
};

Outer make_outer(bool with_outer) {
  Outer o;
  model::Problem& p = o.p;
  const int cyl = add_surface(p, SurfaceKind::z_cylinder, {0, 0, 0.2, 0});
  const int xmin = add_surface(p, SurfaceKind::x_plane, {-5, 0, 0, 0}, BoundaryKind::vacuum);
  const int xmax = add_surface(p, SurfaceKind::x_plane, {5, 0, 0, 0}, BoundaryKind::vacuum);
  const int ymin = add_surface(p, SurfaceKind::y_plane, {-5, 0, 0, 0}, BoundaryKind::vacuum);
  const int ymax = add_surface(p, SurfaceKind::y_plane, {5, 0, 0, 0}, BoundaryKind::vacuum);
  const int zmin = add_surface(p, SurfaceKind::z_plane, {-5, 0, 0, 0}, BoundaryKind::vacuum);
  const int zmax = add_surface(p, SurfaceKind::z_plane, {5, 0, 0, 0}, BoundaryKind::vacuum);
  const int far = add_surface(p, SurfaceKind::x_plane, {1e6, 0, 0, 0});
  const int root = add_universe(p, "root");
  const int pin = add_universe(p, "pin");
  const int vacant = add_universe(p, "void");
  o.water = add_universe(p, "outer-water");
  add_cell(p, "fuel", pin, {neg(cyl)}, FillKind::material, 0);
  add_cell(p, "moderator", pin, {pos(cyl)}, FillKind::material, 1);
  add_cell(p, "void", vacant, {neg(far)}, FillKind::material, -1);
  add_cell(p, "outer-water", o.water, {neg(far)}, FillKind::material, 7);
  o.lattice = add_lattice(p, "lat", {-1.5, -1, -5}, {1, 1, 10}, {3, 2, 1}, {pin, pin, pin, pin, pin, vacant},
                          with_outer ? o.water : -1);
  add_cell(p, "box", root, {pos(xmin), neg(xmax), pos(ymin), neg(ymax), pos(zmin), neg(zmax)}, FillKind::lattice,
           o.lattice);
  p.root_universe = root;
  return o;
}

// "c3" and the like (appending avoids a GCC 12 -Wrestrict false positive on "c" + std::string).
std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

// A chain of `levels` universes, each filling the next; the last holds material 0.
model::Problem make_chain(int levels) {
  model::Problem p;
  const int far = add_surface(p, SurfaceKind::x_plane, {1e6, 0, 0, 0});
  for (int i = 0; i < levels; ++i) add_universe(p, numbered("u", i));
  for (int i = 0; i < levels; ++i) {
    const bool last = i + 1 == levels;
    add_cell(p, numbered("c", i), i, {neg(far)}, last ? FillKind::material : FillKind::universe,
             last ? 0 : i + 1);
  }
  return p;
}

// A 2x2x2 lattice of unit cubes, each holding a sphere, filling a reflective box that is the lattice's
// own outline: corners where three lattice walls and three reflective planes meet.
model::Problem make_cubes() {
  model::Problem p;
  const int ball = add_surface(p, SurfaceKind::sphere, {0, 0, 0, 0.3});
  std::vector<int> box;
  for (int axis = 0; axis < 3; ++axis) {
    const auto kind = axis == 0 ? SurfaceKind::x_plane : (axis == 1 ? SurfaceKind::y_plane : SurfaceKind::z_plane);
    box.push_back(add_surface(p, kind, {-1, 0, 0, 0}, BoundaryKind::reflective));
    box.push_back(add_surface(p, kind, {1, 0, 0, 0}, BoundaryKind::reflective));
  }
  const int root = add_universe(p, "root");
  const int cube = add_universe(p, "cube");
  add_cell(p, "ball", cube, {neg(ball)}, FillKind::material, 0);
  add_cell(p, "around", cube, {pos(ball)}, FillKind::material, 1);
  const int lattice = add_lattice(p, "cubes", {-1, -1, -1}, {1, 1, 1}, {2, 2, 2}, std::vector<int>(8, cube), -1);
  add_cell(p, "box", root, {pos(box[0]), neg(box[1]), pos(box[2]), neg(box[3]), pos(box[4]), neg(box[5])},
           FillKind::lattice, lattice);
  p.root_universe = root;
  return p;
}

// A flight of up to `events` crossings (no collisions) in which, after each crossing that relocates, the
// state relocate_below left is compared with locate() from the root.
struct RelocationAnswer {
  int located = 0, crossings = 0, relocations = 0, mismatches = 0, lost = 0, leaked = 0;
};

struct RelocationEval {
  Geo g;
  Vec3 r, u;
  int events;
  KOKKOS_FUNCTION RelocationAnswer operator()() const {
    RelocationAnswer a;
    GeometryState s;
    a.located = locate(g, r, u, s) ? 1 : 0;
    Vec3 pos = r, dir = u;
    for (int e = 0; a.located && e < events; ++e) {
      const BoundaryHit hit = distance_to_boundary(g, s, pos, dir);
      if (!(hit.distance < inf)) break;
      pos = pos + hit.distance * dir;
      const CrossingResult result = cross_boundary(g, s, pos, dir, hit);
      ++a.crossings;
      if (result == CrossingResult::leaked) { ++a.leaked; break; }
      if (result == CrossingResult::lost) { ++a.lost; break; }
      if (result == CrossingResult::reflected) continue;
      ++a.relocations;
      GeometryState from_root;
      if (!locate(g, pos, dir, from_root) || !detail::same_location(s, from_root)) ++a.mismatches;
    }
    return a;
  }
};

RelocationAnswer follow(const Geo& g, Vec3 r, Vec3 u, int events) {
  return run_on_device<RelocationAnswer>(RelocationEval{g, r, u, events});
}

// Directions that cross lattice walls one at a time, along them, and through edges and corners where two
// or three walls are crossed at once; `planar` keeps them in the x-y plane (2-D lattices).
std::vector<Vec3> relocation_directions(bool planar) {
  std::vector<Vec3> dirs = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  const Real h = std::sqrt(0.5), t = std::sqrt(1.0 / 3);
  for (const Real sx : {-1.0, 1.0}) {
    for (const Real sy : {-1.0, 1.0}) {
      dirs.push_back({sx * h, sy * h, 0});
      if (!planar) {
        dirs.push_back({sx * t, sy * t, t});
        dirs.push_back({sx * t, sy * t, -t});
      }
    }
  }
  for (int i = 0; i < 12; ++i) {  // generic ones
    const Real phi = 0.37 + 0.5 * i, mu = planar ? 0.0 : std::cos(0.9 + 0.7 * i);
    const Real rho = std::sqrt(1 - mu * mu);
    dirs.push_back({rho * std::cos(phi), rho * std::sin(phi), mu});
  }
  return dirs;
}

}  // namespace keff::geometry_test

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

  // Heading for the lattice: the grid continues outside, so the particle stops at x = 2.5, then
  // enters element (2, 1) (void) at x = 1.5, then the pin (1, 1) at x = 0.5 and its fuel at x = 0.2.
  t = track(g, {3, 0.5, 0}, {-1, 0, 0}, 4);
  ASSERT_EQ(t.n_events, 4);
  EXPECT_NEAR(t.events[0].hit.distance, 0.5, eps);
  EXPECT_EQ(t.events[0].hit.surface, -1);
  EXPECT_EQ(t.events[0].state.material, 7);
  EXPECT_NEAR(t.events[1].hit.distance, 1, eps);
  EXPECT_EQ(t.events[1].result, CrossingResult::inside);
  EXPECT_EQ(t.events[1].state.material, -1);  // void
  EXPECT_EQ(t.events[1].state.level[1].lat_index[0], 2);
  EXPECT_NEAR(t.events[2].hit.distance, 1, eps);
  EXPECT_EQ(t.events[2].state.material, 1);
  expect_vec_near(t.events[2].state.level[1].offset, {0, 0.5, 0});
  EXPECT_NEAR(t.events[3].hit.distance, 0.3, eps);
  EXPECT_EQ(t.events[3].hit.surface, 0);
  EXPECT_EQ(t.events[3].state.material, 0);
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

// ---- relocation after a crossing: from the level crossed, the same as from the root ------------------

// The core: surfaces of pins, pin-lattice and core-lattice walls (and their corners, which a diagonal
// from a corner meets), the water element, and lattice edges on the reflective planes x, y = 2.52.
TEST(GeometryRelocation, NestedLatticesAgreeWithLocatingFromTheRoot) {
  for (const bool everywhere : {false, true}) {
    SCOPED_TRACE(everywhere ? "one-cell universes without a region" : "one-cell universes inside a far plane");
    auto g = build_geometry(DeviceExec{}, make_core(everywhere).p);
    int relocations = 0;
    for (const Vec3 start : {Vec3{-2.0, -2.0, 0.5}, Vec3{-1.26, -1.26, 0.0}, Vec3{0.0, 0.0, 1.0},
                             Vec3{0.63, 0.63, -3.0}, Vec3{2.52 - 0.1, 1.26, 0.0}, Vec3{0.0, 2.0, 2.0}}) {
      for (const Vec3 dir : relocation_directions(false)) {
        SCOPED_TRACE("start (" + std::to_string(start.x) + ", " + std::to_string(start.y) + ", " +
                     std::to_string(start.z) + ") direction (" + std::to_string(dir.x) + ", " +
                     std::to_string(dir.y) + ", " + std::to_string(dir.z) + ")");
        const RelocationAnswer a = follow(g, start, dir, 200);
        ASSERT_TRUE(a.located);
        EXPECT_EQ(a.mismatches, 0);
        EXPECT_EQ(a.lost, 0);
        relocations += a.relocations;
      }
    }
    EXPECT_GT(relocations, 1000);
  }
}

// Leaving a lattice into its outer universe, meeting the virtual element walls there, and coming back.
TEST(GeometryRelocation, IntoTheOuterUniverseAndBack) {
  Outer o = make_outer(true);
  auto g = build_geometry(DeviceExec{}, o.p);
  int relocations = 0, in_outer = 0;
  for (const Vec3 start : {Vec3{0.0, 0.0, 0.0}, Vec3{-1.5, -1.0, 0.0}, Vec3{1.2, 0.7, 1.0}}) {
    for (const Vec3 dir : relocation_directions(true)) {
      const RelocationAnswer a = follow(g, start, dir, 40);
      ASSERT_TRUE(a.located);
      EXPECT_EQ(a.mismatches, 0);
      EXPECT_EQ(a.lost, 0);
      EXPECT_EQ(a.leaked, 1);  // the box is vacuum: every flight ends there
      relocations += a.relocations;
    }
  }
  // A flight straight out along +x from the lattice crosses x = 1.5 into the outer water.
  auto t = track(g, {1.2, 0.5, 0}, {1, 0, 0}, 3);
  ASSERT_GE(t.n_events, 2);
  EXPECT_EQ(t.events[1].result, CrossingResult::inside);
  EXPECT_EQ(t.events[1].state.material, 7);
  for (int e = 0; e < t.n_events; ++e) in_outer += t.events[e].state.material == 7 ? 1 : 0;
  EXPECT_GT(in_outer, 0);
  EXPECT_GT(relocations, 100);
}

// Edges and corners of a 3-D lattice, where two or three walls are crossed at once, and where they lie
// on the reflective planes of the box: the flights must stay inside for ever.
TEST(GeometryRelocation, CornersOfA3dLatticeOnReflectivePlanes) {
  auto g = build_geometry(DeviceExec{}, make_cubes());
  int relocations = 0;
  for (const Vec3 start : {Vec3{-0.5, -0.5, -0.5}, Vec3{0.0, 0.0, 0.0}, Vec3{0.5, 0.0, -0.5}, Vec3{-0.9, 0.4, 0.2}}) {
    for (const Vec3 dir : relocation_directions(false)) {
      const RelocationAnswer a = follow(g, start, dir, 300);
      ASSERT_TRUE(a.located);
      EXPECT_EQ(a.mismatches, 0);
      EXPECT_EQ(a.lost, 0);
      EXPECT_EQ(a.leaked, 0);
      EXPECT_EQ(a.crossings, 300);
      relocations += a.relocations;
    }
  }
  EXPECT_GT(relocations, 10000);
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
  int relocations = 0;
  for (const Vec3 start : {Vec3{-1, -1, 0}, Vec3{1, -1, 0.5}, Vec3{0.3, 0.7, -1}}) {
    for (const Vec3 dir : relocation_directions(false)) {
      const RelocationAnswer a = follow(g, start, dir, 10);
      ASSERT_TRUE(a.located);
      EXPECT_EQ(a.mismatches, 0);
      EXPECT_EQ(a.lost, 0);
      relocations += a.relocations;
    }
  }
  EXPECT_GT(relocations, 20);
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
