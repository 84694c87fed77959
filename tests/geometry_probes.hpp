#pragma once
// What the geometry tests share beyond geometry_support.hpp: device probes of the surface, lattice and
// tracking functions (each a functor at namespace scope run once on the device; CUDA refuses extended
// lambdas inside the private TestBody of a gtest TEST), and the model problems they probe.
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
inline constexpr Real eps = 1e-12;
inline constexpr Real inf = constants::infinity;

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

inline SurfaceAnswer probe_surface(const Geo& g, int s, Vec3 r, Vec3 u) {
  return run_on_device<SurfaceAnswer>(SurfaceEval{g, s, r, u});
}

struct CellEval {
  Geo g;
  int cell;
  Vec3 r, u;
  KOKKOS_FUNCTION int operator()() const { return cell_contains(g, cell, r, u) ? 1 : 0; }
};

inline bool probe_cell(const Geo& g, int cell, Vec3 r, Vec3 u) {
  return run_on_device<int>(CellEval{g, cell, r, u}) != 0;
}

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

inline LatticeAnswer probe_lattice(const Geo& g, int lat, Vec3 r, Vec3 u) {
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

inline StepAnswer probe_step(const Geo& g, int lat, Vec3 r, Vec3 u, std::array<int, 3> was) {
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

inline TrackAnswer track(const Geo& g, Vec3 r, Vec3 u, int n_events = 0) {
  return run_on_device<TrackAnswer>(TrackEval{g, r, u, n_events});
}

inline void expect_vec_near(Vec3 a, Vec3 b, Real tol = eps) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

inline void expect_same_location(const GeometryState& a, const GeometryState& b) {
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
inline model::Problem one_surface(SurfaceKind kind, std::array<double, 4> c) {
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
inline Core make_core(bool everywhere = false) {
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

inline Outer make_outer(bool with_outer) {
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
inline std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

// A chain of `levels` universes, each filling the next; the last holds material 0.
inline model::Problem make_chain(int levels) {
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
inline model::Problem make_cubes() {
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

inline RelocationAnswer follow(const Geo& g, Vec3 r, Vec3 u, int events) {
  return run_on_device<RelocationAnswer>(RelocationEval{g, r, u, events});
}

// Directions that cross lattice walls one at a time, along them, and through edges and corners where two
// or three walls are crossed at once; `planar` keeps them in the x-y plane (2-D lattices).
inline std::vector<Vec3> relocation_directions(bool planar) {
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
