// Tallies against answers they must give: in a one-group infinite medium every source neutron is
// absorbed once (analog absorption exactly 1 per source particle), the flux is 1/Sigma_a, the
// nu-fission k_inf and nothing leaks, and a polar filter splits the isotropic flux by solid angle; on a
// heterogeneous pin cell the track-length and collision
// estimators agree; a mesh, cell or energy filter splits a score without losing or adding any of it; the
// nu-fission of the whole problem is the track-length k estimator; a cell_instance filter numbers a
// lattice's placements where they are. Statistical comparisons use 4 combined standard deviations (a
// seed that fails here fails on any machine of the same backend).
#include <gtest/gtest.h>

#include "io/input/cell_placements.hpp"
#include "io/input/input.hpp"
#include "run_problem.hpp"

#include <cmath>
#include <numeric>
#include <string>

namespace keff {
namespace {

std::string read_example(const std::string& name) { return read_input_file(std::string(KEFF_EXAMPLES) + "/" + name); }

RunResults run_with(const std::string& text, std::int64_t particles, int batches, int inactive) {
  return test::run_quietly(test::sized(read_problem_string(text, "tallies.toml"), particles, batches, inactive));
}

const TallyResult& tally(const RunResults& r, const std::string& name) {
  for (const auto& t : r.tallies) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tally " << name;
  return r.tallies.front();
}

// |a - b| within `sigmas` combined standard deviations.
void expect_agree(double a, double sa, double b, double sb, double sigmas, const std::string& what) {
  EXPECT_LE(std::fabs(a - b), sigmas * std::sqrt(sa * sa + sb * sb)) << what << ": " << a << " +/- " << sa << " vs " << b
                                                                      << " +/- " << sb;
}

// Sigma_t 1, Sigma_s 0.7, nu Sigma_f 0.45 in a reflective box: Sigma_a 0.3, k_inf 1.5.
TEST(Tallies, OneGroupInfiniteMedium) {
  const std::string text = read_example("inf_medium_1g.toml") + R"(
[[tally]]
name = "analog"
scores = ["absorption", "events"]
estimator = "analog"

[[tally]]
name = "tracks"
scores = ["flux", "total", "absorption", "scatter", "nu-fission"]

[[tally]]
name = "collisions"
scores = ["flux", "absorption", "nu-fission"]
estimator = "collision"
)";
  const RunResults r = run_with(text, 4000, 12, 2);
  // Every history ends in one absorption of weight 1: exactly 1 per source particle in every batch.
  const TallyResult& analog = tally(r, "analog");
  EXPECT_EQ(analog.mean[0], 1.0);
  EXPECT_EQ(analog.std_dev[0], 0.0);
  EXPECT_EQ(r.leakage.mean, 0.0);
  // Collisions per history: 1 / (Sigma_a / Sigma_t).
  EXPECT_NEAR(analog.mean[1], 1 / 0.3, 4 * analog.std_dev[1]);
  const TallyResult& tracks = tally(r, "tracks");
  const double flux = 1 / 0.3;
  const double expected[] = {flux, flux, 1.0, 0.7 * flux, 1.5};
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_NEAR(tracks.mean[k], expected[k], 4 * tracks.std_dev[k]) << tracks.scores[k];
  }
  const TallyResult& collisions = tally(r, "collisions");
  EXPECT_NEAR(collisions.mean[0], flux, 4 * collisions.std_dev[0]);
  EXPECT_NEAR(collisions.mean[1], 1.0, 4 * collisions.std_dev[1]);
  EXPECT_NEAR(collisions.mean[2], 1.5, 4 * collisions.std_dev[2]);
  // The nu-fission of everything is k: the track-length estimator of the same batches, scored per flight
  // at 24 fraction bits where k is scored per history at 32.
  EXPECT_NEAR(tracks.mean[4], r.k_tracklength.mean, 1e-6 * r.k_tracklength.mean);
  EXPECT_NEAR(collisions.mean[2], r.k_collision.mean, 1e-6 * r.k_collision.mean);
}

// In an infinite medium that scatters isotropically from an isotropic source the flux is isotropic: the
// polar bin [a, b) holds (cos a - cos b) / 2 of it by every estimator (at a collision the direction the
// particle comes in with), and of the collisions (1 / Sigma_a per source particle) as much.
TEST(Tallies, PolarFilterSplitsAnIsotropicFlux) {
  const std::string bounds = "polar = [0.0, 0.5, 1.2, 1.9, 2.6, 3.141592653589793]\n";
  const std::string text = read_example("inf_medium_1g.toml") + "\n[[tally]]\nname = \"tracks\"\nfilters = [\"polar\"]\n" +
                           bounds + "scores = [\"flux\"]\n\n[[tally]]\nname = \"collisions\"\nfilters = [\"polar\"]\n" +
                           bounds + "scores = [\"flux\"]\nestimator = \"collision\"\n\n[[tally]]\nname = \"analog\"\n" +
                           "filters = [\"polar\"]\n" + bounds + "scores = [\"events\"]\nestimator = \"analog\"\n";
  const RunResults r = run_with(text, 40000, 12, 2);
  const double edges[] = {0.0, 0.5, 1.2, 1.9, 2.6, 3.141592653589793};
  for (const char* name : {"tracks", "collisions", "analog"}) {
    const TallyResult& t = tally(r, name);
    ASSERT_EQ(t.mean.size(), 5u) << name;
    double total = 0;
    for (std::size_t b = 0; b < 5; ++b) {
      const double expected = (std::cos(edges[b]) - std::cos(edges[b + 1])) / 2 / 0.3;
      EXPECT_NEAR(t.mean[b], expected, 4 * t.std_dev[b]) << name << " bin " << b;
      EXPECT_LT(t.std_dev[b], 0.01 * expected) << name << " bin " << b;  // so 4 sigma tells bins apart
      total += t.mean[b];
    }
    EXPECT_NEAR(total, 1 / 0.3, 0.01 / 0.3) << name;
  }
}

// A two-group pin cell (fuel cylinder in moderator, reflective): a heterogeneous problem whose flux
// differs between the regions and the groups.
constexpr const char* pin_cell = R"(
[settings]
particles = 4000
batches = 14
inactive = 4
mode = "multigroup"
[settings.source]
lower_left = [-0.4, -0.4, -1.0]
upper_right = [0.4, 0.4, 1.0]
[multigroup]
groups = 2
[[surface]]
id = 1
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.4]
[[surface]]
id = 2
type = "x-plane"
coeffs = [-0.63]
boundary = "reflective"
[[surface]]
id = 3
type = "x-plane"
coeffs = [0.63]
boundary = "reflective"
[[surface]]
id = 4
type = "y-plane"
coeffs = [-0.63]
boundary = "reflective"
[[surface]]
id = 5
type = "y-plane"
coeffs = [0.63]
boundary = "reflective"
[[surface]]
id = 6
type = "z-plane"
coeffs = [-1.0]
boundary = "reflective"
[[surface]]
id = 7
type = "z-plane"
coeffs = [1.0]
boundary = "reflective"
[[cell]]
name = "fuel"
region = "-1 +6 -7"
material = "fuel"
[[cell]]
name = "moderator"
region = "+1 +2 -3 +4 -5 +6 -7"
material = "water"
[[material]]
name = "fuel"
sigma_t = [0.5, 1.2]
sigma_s = [[0.45, 0.02], [0.0, 0.9]]
nu_sigma_f = [0.01, 0.45]
sigma_f = [0.004, 0.18]
chi = [1.0, 0.0]
[[material]]
name = "water"
sigma_t = [0.6, 2.0]
sigma_s = [[0.5, 0.099], [0.0, 1.98]]
)";

TEST(Tallies, TrackLengthAndCollisionAgreeOnAPinCell) {
  const std::string text = std::string(pin_cell) + R"(
[[tally]]
name = "tracks"
filters = ["cell", "group"]
cells = ["fuel", "moderator"]
scores = ["flux", "absorption", "fission"]

[[tally]]
name = "collisions"
filters = ["cell", "group"]
cells = ["fuel", "moderator"]
scores = ["flux", "absorption", "fission"]
estimator = "collision"
)";
  const RunResults r = run_with(text, 4000, 14, 4);
  const TallyResult& a = tally(r, "tracks");
  const TallyResult& b = tally(r, "collisions");
  ASSERT_EQ(a.mean.size(), 2u * 2u * 3u);
  for (std::size_t v = 0; v < a.mean.size(); ++v) {
    if (a.mean[v] == 0 && b.mean[v] == 0) continue;  // no fission in the moderator
    expect_agree(a.mean[v], a.std_dev[v], b.mean[v], b.std_dev[v], 4, "value " + std::to_string(v));
  }
}

// A slab of two one-group materials, x in [-5, 0] and [0, 5], vacuum at both ends, reflective across.
constexpr const char* two_slabs = R"(
[settings]
particles = 3000
batches = 8
inactive = 2
mode = "multigroup"
[settings.source]
lower_left = [-5.0, -1.0, -1.0]
upper_right = [5.0, 1.0, 1.0]
[multigroup]
groups = 1
[[surface]]
id = 1
type = "x-plane"
coeffs = [-5.0]
boundary = "vacuum"
[[surface]]
id = 2
type = "x-plane"
coeffs = [0.0]
[[surface]]
id = 3
type = "x-plane"
coeffs = [5.0]
boundary = "vacuum"
[[surface]]
id = 4
type = "y-plane"
coeffs = [-1.0]
boundary = "reflective"
[[surface]]
id = 5
type = "y-plane"
coeffs = [1.0]
boundary = "reflective"
[[surface]]
id = 6
type = "z-plane"
coeffs = [-1.0]
boundary = "reflective"
[[surface]]
id = 7
type = "z-plane"
coeffs = [1.0]
boundary = "reflective"
[[cell]]
name = "left"
region = "+1 -2 +4 -5 +6 -7"
material = "rich"
[[cell]]
name = "right"
region = "+2 -3 +4 -5 +6 -7"
material = "lean"
[[material]]
name = "rich"
sigma_t = [1.0]
sigma_s = [[0.8]]
nu_sigma_f = [0.5]
sigma_f = [0.2]
chi = [1.0]
[[material]]
name = "lean"
sigma_t = [1.0]
sigma_s = [[0.9]]
nu_sigma_f = [0.15]
sigma_f = [0.06]
chi = [1.0]
[[mesh]]
name = "halves"
lower_left = [-5.0]
upper_right = [5.0]
shape = [2]
[[mesh]]
name = "tenths"
lower_left = [-5.0]
upper_right = [5.0]
shape = [10]
[[tally]]
name = "all"
scores = ["flux", "absorption", "nu-fission"]
[[tally]]
name = "cells"
filters = ["cell"]
cells = ["left", "right"]
scores = ["flux", "absorption", "nu-fission"]
[[tally]]
name = "halves"
filters = ["mesh"]
mesh = "halves"
scores = ["flux", "absorption", "nu-fission"]
[[tally]]
name = "tenths"
filters = ["mesh"]
mesh = "tenths"
scores = ["flux", "absorption", "nu-fission"]
[[tally]]
name = "materials"
filters = ["material"]
materials = ["rich", "lean"]
scores = ["flux", "absorption", "nu-fission"]
)";

// A mesh whose bins are the slab's cells gives what the cell filter gives (the flights end at the cells'
// boundary, so the mesh splits none of them), and the mesh's, the cells' and the materials' bins add up
// to the unfiltered tally: every contribution lands in exactly one bin. Per piece fixed point rounds to
// 2^-24 (6e-8, far below the statistics); a track split by the finer mesh is rounded piece by piece.
TEST(Tallies, FiltersSplitAScoreWithoutLosingAny) {
  const RunResults r = run_with(two_slabs, 3000, 8, 2);
  const TallyResult& all = tally(r, "all");
  const TallyResult& cells = tally(r, "cells");
  const TallyResult& halves = tally(r, "halves");
  for (std::size_t v = 0; v < cells.mean.size(); ++v) {
    EXPECT_NEAR(halves.mean[v], cells.mean[v], 1e-12 * cells.mean[v]) << "value " << v;
  }
  for (const char* name : {"cells", "halves", "tenths", "materials"}) {
    const TallyResult& split = tally(r, name);
    for (std::size_t k = 0; k < 3; ++k) {
      double sum = 0;
      for (std::size_t v = k; v < split.mean.size(); v += 3) sum += split.mean[v];
      EXPECT_NEAR(sum, all.mean[k], 1e-9 * all.mean[k]) << name << " " << all.scores[k];
    }
  }
}

// The placements of the fuel pin in the default problem's 9 x 9 lattice (76 fuel pins; the 5 guide tubes
// hold another universe): numbered row by row from the bottom, each at its pin's centre.
TEST(Tallies, CellInstancesNumberTheLatticePlacements) {
  const model::Problem p = default_problem();
  int fuel = -1;
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    if (p.cells[c].name == "fuel") fuel = static_cast<int>(c);
  }
  ASSERT_GE(fuel, 0);
  const CellPlacements placed = cell_placements(p, fuel);
  EXPECT_EQ(placed.count, 76);
  ASSERT_EQ(placed.positions.size(), 76u);
  EXPECT_NEAR(placed.positions[0][0], -5.67 + 0.63, 1e-12);
  EXPECT_NEAR(placed.positions[0][1], -5.67 + 0.63, 1e-12);
  EXPECT_EQ(placement_counts(p)[static_cast<std::size_t>(fuel)], 76);
  // A run with the filter: every placement of a fuel pin fissions.
  std::string text(default_problem_toml());
  text += "\n[[tally]]\nname = \"pins\"\nfilters = [\"cell_instance\"]\ncell_instance = \"fuel\"\nscores = [\"fission\"]\n";
  const RunResults r = run_with(text, 2000, 4, 1);
  const TallyResult& pins = tally(r, "pins");
  ASSERT_EQ(pins.mean.size(), 76u);
  for (std::size_t i = 0; i < pins.mean.size(); ++i) EXPECT_GT(pins.mean[i], 0) << "pin " << i;
  ASSERT_EQ(pins.filters.at(0).positions.size(), 76u);
}

}  // namespace
}  // namespace keff
