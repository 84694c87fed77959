// The sampled geometry check (kernels/geometry_check.hpp, src/driver/geometry_check.hpp) and the words for
// what it finds and for lost particles (src/host/geometry_report.hpp). Runs at 1, 2 and 4 ranks: the check
// splits its points over the ranks and must find exactly what one rank finds alone.
#include "geometry_support.hpp"
#include "uses_ncrystal.hpp"
#include "io/input/input.hpp"
#include "kernels/geometry_check.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/geometry_check.hpp"
#include "src/params/build_geometry.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace keff::geometry_check_test {

using namespace keff::geometry_test;

// Enough points that every fault below shows at hundreds of them, few enough for a unit test.
constexpr std::int64_t test_points = 20000;

// The six vacuum planes of the box [-h, h]^3, as a region.
std::vector<model::HalfSpace> box_region(model::Problem& p, double h) {
  std::vector<model::HalfSpace> region;
  for (const SurfaceKind kind : {SurfaceKind::x_plane, SurfaceKind::y_plane, SurfaceKind::z_plane}) {
    region.push_back(pos(add_surface(p, kind, {-h, 0, 0, 0}, BoundaryKind::vacuum)));
    region.push_back(neg(add_surface(p, kind, {h, 0, 0, 0}, BoundaryKind::vacuum)));
  }
  return region;
}

// Two slabs of the box [-5, 5]^3 in the root universe: "left" up to x = left_upper, "right" from
// x = right_lower (the same surface when the two are equal).
model::Problem two_slabs(double left_upper, double right_lower) {
  model::Problem p;
  const int root = add_universe(p, "root");
  const std::vector<model::HalfSpace> box = box_region(p, 5);
  const int a = add_surface(p, SurfaceKind::x_plane, {left_upper, 0, 0, 0});
  const int b = left_upper == right_lower ? a : add_surface(p, SurfaceKind::x_plane, {right_lower, 0, 0, 0});
  std::vector<model::HalfSpace> left = {box[0], neg(a)}, right = {pos(b), box[1]};
  for (std::size_t i = 2; i < box.size(); ++i) {
    left.push_back(box[i]);
    right.push_back(box[i]);
  }
  add_cell(p, "left", root, left, FillKind::material, 0);
  add_cell(p, "right", root, right, FillKind::material, 0);
  p.root_universe = root;
  return p;
}

// The box [-2, 2]^2 x [-5, 5] filled with a 2 x 2 lattice of `pin` universes of pitch `pitch`, each a
// fuel cylinder of radius 0.4 and the cells `extra` adds; the lattice has `outer` outside its elements.
struct PinBox {
  model::Problem p;
  int root = 0, pin = 0, box = 0, fuel = 0, lattice = 0, cylinder = 0;
};

template <class Extra>
PinBox pin_box(double pitch, bool with_outer, Extra extra) {
  PinBox b;
  model::Problem& p = b.p;
  b.root = add_universe(p, "root");
  b.pin = add_universe(p, "pin");
  std::vector<model::HalfSpace> box = box_region(p, 5);
  for (int i = 0; i < 4; ++i) {  // x and y at +-2
    model::Surface& s = p.surfaces[static_cast<std::size_t>(box[static_cast<std::size_t>(i)].surface)];
    s.coeffs[0] = s.coeffs[0] < 0 ? -2 : 2;
  }
  b.cylinder = add_surface(p, SurfaceKind::z_cylinder, {0, 0, 0.4, 0});
  b.fuel = add_cell(p, "fuel", b.pin, {neg(b.cylinder)}, FillKind::material, 0);
  extra(b);
  int outer = -1;
  if (with_outer) {
    outer = add_universe(p, "water");
    add_cell(p, "water", outer, {pos(add_surface(p, SurfaceKind::x_plane, {-1e6, 0, 0, 0}))}, FillKind::material, 1);
  }
  b.lattice = add_lattice(p, "pins", {-pitch, -pitch, 0}, {pitch, pitch, 0}, {2, 2, 1}, {b.pin, b.pin, b.pin, b.pin},
                          outer);
  model::Lattice& l = p.lattices.back();  // 2-D: one layer spanning all z (io/input/model.hpp)
  l.lower_left[2] = -constants::infinity;
  l.pitch[2] = 2 * constants::infinity;
  b.box = add_cell(p, "box", b.root, box, FillKind::lattice, b.lattice);
  p.root_universe = b.root;
  return b;
}

// A pin universe that fills its element: water outside the fuel.
void with_water(PinBox& b) { add_cell(b.p, "moderator", b.pin, {pos(b.cylinder)}, FillKind::material, 1); }

GeometryCheck check(const model::Problem& p, std::int64_t points = test_points) {
  const Communicator comm;
  return check_geometry(p, comm, points);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct PointEval {
  GeometryParams<DeviceMem> g;
  Vec3 r;
  KOKKOS_FUNCTION GeometryFault operator()() const { return check_geometry_point(g, r); }
};

GeometryFault probe(const model::Problem& p, Vec3 r) {
  return run_on_device<GeometryFault>(PointEval{build_geometry(DeviceExec(), p), r});
}

}  // namespace keff::geometry_check_test

using namespace keff;
using namespace keff::geometry_check_test;

// The case: two cells of the root universe that share x in [-1, 1]. Every point there, and only
// those, is an overlap of the two cells, and the finding names both and a point inside both.
TEST(GeometryCheck, OverlapNamesBothCellsAndAPointInBoth) {
  const model::Problem p = two_slabs(1, -1);
  const GeometryCheck c = check(p);
  const SampleBox box{{-5, -5, -5}, {10, 10, 10}};
  std::int64_t in_both = 0;
  for (std::int64_t i = 0; i < test_points; ++i) in_both += box.point(i).x > -1 && box.point(i).x < 1;
  EXPECT_TRUE(c.found());
  EXPECT_EQ(c.fault_points, in_both);
  EXPECT_EQ(c.points, test_points);
  EXPECT_EQ(c.on_surface_points, 0);
  if (!Communicator().is_root()) return;  // findings are rank 0's
  ASSERT_EQ(c.findings.size(), 1u);
  const GeometryFinding& f = c.findings[0];
  EXPECT_EQ(f.fault.kind, GeometryFaultKind::overlap);
  EXPECT_EQ(f.fault.a, 0);
  EXPECT_EQ(f.fault.b, 1);
  EXPECT_EQ(f.points, in_both);
  EXPECT_GT(f.position.x, -1);
  EXPECT_LT(f.position.x, 1);
  const std::string text = describe(p, f);
  EXPECT_TRUE(contains(text, "overlap: cell 'left' (test.toml:100) and cell 'right' (test.toml:101) of the root "
                             "universe 'root' both hold (")) << text;
  const std::string refusal = geometry_refusal(p, c);
  EXPECT_TRUE(contains(refusal, "the geometry check found overlapping cells: overlap: cell 'left'")) << refusal;
  EXPECT_TRUE(contains(refusal, "keff check-geometry")) << refusal;
  EXPECT_TRUE(contains(refusal, "settings.geometry_check_points = 0 skips this check")) << refusal;
}

// Cells that meet at one surface, at two surfaces that coincide (one a general plane facing the other
// way), or only at a tangent point are no overlap, however many points are drawn.
TEST(GeometryCheck, TouchingCellsAreNotOverlaps) {
  EXPECT_FALSE(check(two_slabs(0, 0), 200000).found());
  EXPECT_FALSE(check(two_slabs(0.25, 0.25 + 1e-12), 200000).found());  // a gap thinner than the tolerance
  {
    model::Problem p = two_slabs(0, 0);
    // "right" from the positive side of x = 0 to the negative side of -x = 0: the same half-space.
    const int flipped = add_surface(p, SurfaceKind::plane, {-1, 0, 0, 0});
    p.cells[1].region[0] = neg(flipped);
    EXPECT_FALSE(check(p, 200000).found());
  }
  {
    model::Problem p;
    const int root = add_universe(p, "root");
    const std::vector<model::HalfSpace> box = box_region(p, 5);
    const int sphere = add_surface(p, SurfaceKind::sphere, {0, 0, 0, 2});
    const int tangent = add_surface(p, SurfaceKind::x_plane, {2, 0, 0, 0});
    std::vector<model::HalfSpace> ball = {neg(sphere)}, beyond = box, rest = box;
    beyond[0] = pos(tangent);
    rest[1] = neg(tangent);
    rest.push_back(pos(sphere));
    add_cell(p, "ball", root, ball, FillKind::material, 0);
    add_cell(p, "beyond", root, beyond, FillKind::material, 1);
    add_cell(p, "rest", root, rest, FillKind::material, 1);
    p.root_universe = root;
    EXPECT_FALSE(check(p, 200000).found());
    // The tangent point and a point on the sphere inside the box: on a surface, not judged.
    EXPECT_EQ(probe(p, {2, 0, 0}).kind, GeometryFaultKind::on_surface);
    EXPECT_EQ(probe(p, {0, 2, 0}).kind, GeometryFaultKind::on_surface);
    EXPECT_EQ(probe(p, {0, 2 + 1e-10, 0}).kind, GeometryFaultKind::on_surface);
    EXPECT_EQ(probe(p, {0, 0, 1}).kind, GeometryFaultKind::none);
  }
}

// Points exactly on a shared surface, on a lattice wall and within the tolerance of either are never
// faults: they are counted apart and skipped.
TEST(GeometryCheck, PointsOnSurfacesAndWallsAreNotJudged) {
  const model::Problem slabs = two_slabs(0, 0);
  EXPECT_EQ(probe(slabs, {0, 1, 1}).kind, GeometryFaultKind::on_surface);
  EXPECT_EQ(probe(slabs, {5e-10, 1, 1}).kind, GeometryFaultKind::on_surface);
  EXPECT_EQ(probe(slabs, {2e-9, 1, 1}).kind, GeometryFaultKind::none);
  const PinBox b = pin_box(1.0, false, with_water);
  EXPECT_EQ(probe(b.p, {0, 0.5, 0}).kind, GeometryFaultKind::on_surface);    // wall between elements
  EXPECT_EQ(probe(b.p, {-1, 0.5, 0}).kind, GeometryFaultKind::on_surface);   // the lattice's edge
  EXPECT_EQ(probe(b.p, {0.9, 0.5, 0}).kind, GeometryFaultKind::on_surface);  // on a fuel cylinder
  EXPECT_EQ(probe(b.p, {0.5, 0.5, 0}).kind, GeometryFaultKind::none);        // a fuel centre
}

// Cells of a pin universe that overlap: found below the lattice, with the pin's own coordinates.
TEST(GeometryCheck, OverlapInALatticeUniverseGivesItsCoordinates) {
  const PinBox b = pin_box(2.0, false, [](PinBox& x) {
    with_water(x);
    add_cell(x.p, "big-fuel", x.pin, {neg(add_surface(x.p, SurfaceKind::z_cylinder, {0, 0, 0.6, 0}))},
             FillKind::material, 0);
  });
  const GeometryCheck c = check(b.p);
  ASSERT_TRUE(c.found());
  if (!Communicator().is_root()) return;
  ASSERT_GE(c.findings.size(), 1u);
  const GeometryFinding& f = c.findings[0];
  EXPECT_EQ(f.fault.kind, GeometryFaultKind::overlap);
  EXPECT_EQ(b.p.cells[static_cast<std::size_t>(f.fault.b)].name, "big-fuel");
  const Vec3 l = f.fault.local;
  EXPECT_LT(l.x * l.x + l.y * l.y, 0.6 * 0.6);  // inside big-fuel, in the pin's coordinates
  const std::string text = describe(b.p, f);
  EXPECT_TRUE(contains(text, "of universe 'pin' both hold (")) << text;
  EXPECT_TRUE(contains(text, "in its coordinates")) << text;
}

// A pin universe with no cell outside its fuel leaves a gap in every lattice element; a lattice smaller
// than its cell, with no outer universe, leaves a gap around it. An outer universe fills it.
TEST(GeometryCheck, GapsBelowTheRootAreFound) {
  {
    const PinBox b = pin_box(2.0, true, [](PinBox&) {});  // fuel only
    const GeometryCheck c = check(b.p);
    ASSERT_TRUE(c.found());
    if (Communicator().is_root()) {
      ASSERT_EQ(c.findings.size(), 1u);
      const GeometryFinding& f = c.findings[0];
      EXPECT_EQ(f.fault.kind, GeometryFaultKind::gap);
      EXPECT_EQ(f.fault.a, b.pin);
      EXPECT_EQ(f.fault.b, b.box);
      EXPECT_GT(f.fault.local.x * f.fault.local.x + f.fault.local.y * f.fault.local.y, 0.4 * 0.4);
      const std::string text = describe(b.p, f);
      EXPECT_TRUE(contains(text, "gap: no cell of universe 'pin' holds (")) << text;
      EXPECT_TRUE(contains(text, "inside cell 'box' (test.toml:102), whose lattice 'pins' puts the universe there")) << text;
    }
  }
  {
    const PinBox b = pin_box(0.5, false, with_water);  // elements cover [-0.5, 0.5]^2 of the box
    const GeometryCheck c = check(b.p);
    ASSERT_TRUE(c.found());
    if (Communicator().is_root()) {
      ASSERT_EQ(c.findings.size(), 1u);
      EXPECT_EQ(c.findings[0].fault.kind, GeometryFaultKind::outside_lattice);
      EXPECT_EQ(c.findings[0].fault.a, b.lattice);
      const std::string text = describe(b.p, c.findings[0]);
      EXPECT_TRUE(contains(text, "but outside the lattice's elements, and the lattice has no outer universe")) << text;
    }
  }
  EXPECT_FALSE(check(pin_box(0.5, true, with_water).p).found());
  EXPECT_FALSE(check(pin_box(2.0, false, with_water).p).found());
}

// Outside every root cell is how the outside of a vacuum-bounded model looks: never reported (the
// lost-particle message names such a gap when a neutron meets it).
TEST(GeometryCheck, GapsInTheRootUniverseAreNotReported) {
  model::Problem p;
  const int root = add_universe(p, "root");
  const int inner = add_surface(p, SurfaceKind::sphere, {0, 0, 0, 5});
  const int middle = add_surface(p, SurfaceKind::sphere, {0, 0, 0, 6});
  const int outer = add_surface(p, SurfaceKind::sphere, {0, 0, 0, 10}, BoundaryKind::vacuum);
  add_cell(p, "core", root, {neg(inner)}, FillKind::material, 0);
  add_cell(p, "reflector", root, {pos(middle), neg(outer)}, FillKind::material, 0);
  p.root_universe = root;
  const GeometryCheck c = check(p);
  EXPECT_FALSE(c.found());
  EXPECT_EQ(c.box.lower[0], -10);
  EXPECT_EQ(c.box.upper[2], 10);
}

// No false positive on any model keff ships: every example and every valid test input.
TEST(GeometryCheck, ExamplesAndTestInputsHaveNoFaults) {
  std::vector<std::filesystem::path> inputs;
  for (const char* dir : {KEFF_EXAMPLES, KEFF_TEST_INPUTS}) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() == ".toml") inputs.push_back(e.path());
    }
  }
  ASSERT_GE(inputs.size(), 10u);
  for (const auto& path : inputs) {
    if (!ncrystal_built() && test::uses_ncrystal(path.string())) continue;  // refused: Input.EveryExampleParses
    const model::Problem p = read_problem_file(path.string());
    const GeometryCheck c = check(p, 200000);
    EXPECT_FALSE(c.found()) << path << (c.findings.empty() ? "" : ": " + describe(p, c.findings[0]));
    EXPECT_LT(c.on_surface_points, 10) << path;
  }
  const GeometryCheck d = check(read_problem_string(default_problem_toml(), "<default>"), 200000);
  EXPECT_FALSE(d.found());
}

// The points do not depend on the rank count (each rank alone finds what all ranks find together) and
// N points are the first N of any larger check.
TEST(GeometryCheck, RanksAndPointCountsAgree) {
  const PinBox b = pin_box(2.0, false, [](PinBox& x) {
    with_water(x);
    add_cell(x.p, "big-fuel", x.pin, {neg(add_surface(x.p, SurfaceKind::z_cylinder, {0, 0, 0.6, 0}))},
             FillKind::material, 0);
  });
  const Communicator world;
  const Communicator alone(world, world.rank());
  const GeometryCheck all = check_geometry(b.p, world, test_points);
  const GeometryCheck one = check_geometry(b.p, alone, test_points);
  const GeometryCheck fewer = check_geometry(b.p, alone, test_points / 4);
  EXPECT_EQ(all.fault_points, one.fault_points);
  EXPECT_EQ(all.on_surface_points, one.on_surface_points);
  if (!world.is_root()) return;
  ASSERT_EQ(all.findings.size(), one.findings.size());
  for (std::size_t i = 0; i < all.findings.size(); ++i) {
    const GeometryFinding &x = all.findings[i], &y = one.findings[i];
    EXPECT_EQ(x.fault.kind, y.fault.kind) << i;
    EXPECT_EQ(x.fault.a, y.fault.a) << i;
    EXPECT_EQ(x.fault.b, y.fault.b) << i;
    EXPECT_EQ(x.first_point, y.first_point) << i;
    EXPECT_EQ(x.points, y.points) << i;
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_EQ(x.position[axis], y.position[axis]) << i;  // bit for bit
      EXPECT_EQ(x.fault.local[axis], y.fault.local[axis]) << i;
    }
  }
  ASSERT_FALSE(fewer.findings.empty());
  EXPECT_EQ(fewer.findings[0].first_point, all.findings[0].first_point);
  EXPECT_EQ(fewer.findings[0].position.x, all.findings[0].position.x);
  EXPECT_LT(fewer.fault_points, all.fault_points);
}

// The lost-particle message says which limit the first lost particle hit, with its position and
// direction, and counts each reason.
TEST(LostParticles, MessageSaysWhichLimit) {
  model::Problem p = two_slabs(0, 0);
  p.source_name = "model.toml";
  p.settings.max_events = 7;
  p.settings.max_lost = 3;
  LostParticles lost;
  lost.recorded = true;
  lost.first.r = {1, 2, 3};
  lost.first.u = {0, 0, 1};
  lost.per_reason = {0, 0, 4, 1, 0};
  const auto message = [&](LostReason reason) {
    lost.first.reason = reason;
    return lost_particles_message(p, 5, 5, lost);
  };
  lost.first.cell = 1;
  std::string m = message(LostReason::max_events);
  EXPECT_TRUE(contains(m, "5 particles lost by batch 5 (more than settings.max_lost = 3); in this run 4 exceeded "
                          "settings.max_events, 1 streamed to infinity. The first was at (1, 2, 3) moving (0, 0, 1) in "
                          "model.toml: it exceeded settings.max_events = 7 flights in cell 'right' (test.toml:101) "
                          "(raise it, or the model has a region a neutron cannot leave")) << m;
  m = message(LostReason::infinite_flight);
  EXPECT_TRUE(contains(m, "it streamed to infinity in cell 'right' (test.toml:101) (an unbounded region")) << m;
  lost.first.cell = -1;
  lost.first.surface = 0;
  lost.first.universe = 0;
  m = message(LostReason::after_crossing);
  EXPECT_TRUE(contains(m, "it could not be located after crossing surface 1 (test.toml:11) (a gap in the geometry "
                          "there: no cell of the root universe 'root' holds the point")) << m;
  // The geometry check does not search the root universe (its outside is the model's): the message does
  // not send the user there, where "no overlap or gap found" would contradict it.
  EXPECT_TRUE(contains(m, "keff check-geometry looks for gaps inside filled cells, not here")) << m;
  EXPECT_FALSE(contains(m, "searches for gaps and overlaps")) << m;
  lost.first.universe = 5;  // a universe that fills a cell: the check searches there
  p.universes.resize(6);
  p.universes[5].name = "pin";
  EXPECT_TRUE(contains(message(LostReason::after_crossing), "keff check-geometry model.toml searches for gaps and overlaps"));
  EXPECT_TRUE(contains(lost_particle_text(p, 5, lost.first), "batch 5, history -1: lost at (1, 2, 3) moving (0, 0, 1): "
                                                              "it could not be located after crossing surface 1"));
  lost.first.surface = -1;
  lost.first.universe = -1;
  lost.first.lattice = 0;
  p.lattices.push_back({});
  p.lattices.back().name = "pins";
  m = message(LostReason::after_crossing);
  EXPECT_TRUE(contains(m, "after crossing a lattice element wall (a gap in the geometry there: it lies outside the "
                          "elements of lattice 'pins', which has no outer universe")) << m;
  m = message(LostReason::at_source);
  EXPECT_TRUE(contains(m, "it could not be located at its source site (it lies outside the elements of lattice")) << m;
  lost.recorded = false;
  m = message(LostReason::at_source);
  EXPECT_EQ(m.find("The first"), std::string::npos) << m;
}
