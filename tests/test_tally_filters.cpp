// The bounds filters' band search (bounds_band, kernels/tally/tally_filters.hpp) on its own: every band
// of an uneven grid found at its lower bound, inside and just below its upper bound; the top bound and
// beyond, below the bottom and NaN outside every band; one band alone; and a 1000-bound grid against a
// linear search. Then match_filter, every filter kind on a model with a tally of each.
#include <gtest/gtest.h>

#include "geometry_support.hpp"
#include "io/input/input.hpp"
#include "kernels/geometry.hpp"
#include "kernels/tally/tally_filters.hpp"
#include "src/params/build_geometry.hpp"
#include "src/params/build_tallies.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace keff {
namespace {

int band(const std::vector<Real>& bounds, Real e) { return bounds_band(bounds.data(), static_cast<int>(bounds.size()), e); }

TEST(EnergyBand, EachBandFromItsLowerBoundToJustBelowItsUpper) {
  const std::vector<Real> bounds = {1e-5, 0.625, 1.0, 5.53e3, 8.21e5, 2e7};
  for (int b = 0; b + 1 < static_cast<int>(bounds.size()); ++b) {
    SCOPED_TRACE("band " + std::to_string(b));
    EXPECT_EQ(band(bounds, bounds[b]), b);
    EXPECT_EQ(band(bounds, std::sqrt(bounds[b] * bounds[b + 1])), b);
    EXPECT_EQ(band(bounds, std::nextafter(bounds[b + 1], 0.0)), b);
  }
}

TEST(EnergyBand, OutsideTheBoundsIsNoBand) {
  const std::vector<Real> bounds = {1e-5, 0.625, 2e7};
  EXPECT_EQ(band(bounds, 2e7), -1);  // the top bound belongs to no band
  EXPECT_EQ(band(bounds, 3e7), -1);
  EXPECT_EQ(band(bounds, std::nextafter(1e-5, 0.0)), -1);
  EXPECT_EQ(band(bounds, 0.0), -1);
  EXPECT_EQ(band(bounds, std::numeric_limits<Real>::quiet_NaN()), -1);
  EXPECT_EQ(band(bounds, std::numeric_limits<Real>::infinity()), -1);
}

TEST(EnergyBand, OneBandAlone) {
  const std::vector<Real> bounds = {1.0, 2.0};
  EXPECT_EQ(band(bounds, 1.0), 0);
  EXPECT_EQ(band(bounds, 1.5), 0);
  EXPECT_EQ(band(bounds, 2.0), -1);
}

TEST(EnergyBand, ManyBoundsAgreeWithALinearSearch) {
  std::vector<Real> bounds;
  for (int i = 0; i < 1000; ++i) bounds.push_back(1e-5 * std::pow(2e12, i / 999.0));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> log_e(std::log(1e-6), std::log(3e7));
  for (int n = 0; n < 20000; ++n) {
    const Real e = std::exp(log_e(rng));
    int want = -1;
    for (int b = 0; b + 1 < static_cast<int>(bounds.size()); ++b) {
      if (e >= bounds[b] && e < bounds[b + 1]) want = b;
    }
    ASSERT_EQ(band(bounds, e), want) << "E = " << e;
  }
}


// ---- match_filter: the bins each filter kind gives a particle, on tests/inputs/tallies_lattice.toml ----
// (the 9 x 9 pin assembly of the default benchmark with a tally of every filter kind), each filter asked
// on its own at a point located in the model, on the device like transport asks it.

struct FilterBins {
  int n_filters = 0;
  int n[max_tally_filters] = {};
  int bin[max_tally_filters][max_filter_matches] = {};
};

struct MatchEval {
  GeometryParams<DeviceMem> g;
  TallyParams<DeviceMem> tp;
  int tally;
  Vec3 r;
  Vec3 u;
  Real energy;
  KOKKOS_FUNCTION FilterBins operator()() const {
    FilterBins out;
    GeometryState s;
    if (!locate(g, r, u, s)) return out;
    const TallyLayout t = tp.tallies(tally);
    out.n_filters = t.n_filters;
    for (int j = 0; j < t.n_filters; ++j) {
      FilterMatches m;
      match_filter(tp, g, tp.filters(t.first_filter + j), FilterPoint{r, u, energy, -1}, s, m);
      out.n[j] = m.n;
      for (int b = 0; b < m.n; ++b) out.bin[j][b] = m.bin[b];
    }
    return out;
  }
};

// The model, read once, with a tally by direction added here rather than in the file, whose runs
// perf/compare_bits.sh compares with builds older than the polar filter.
const model::Problem& tallies_lattice() {
  static const model::Problem problem = read_problem_string(
      read_input_file(std::string(KEFF_TEST_INPUTS) + "/tallies_lattice.toml") +
          "\n[[tally]]\nname = \"by_angle\"\nfilters = [\"polar\"]\npolar = [0.0, 1.0, 1.5707963267948966, 3.0]\n"
          "scores = [\"flux\"]\n",
      "tallies_lattice.toml");
  return problem;
}

// Each filter's bins for tally `name` at r, flying along u, with energy E.
std::vector<std::vector<int>> bins(const std::string& name, Vec3 r, Real energy, Vec3 u = {1, 0, 0}) {
  const model::Problem& problem = tallies_lattice();
  int tally = -1;
  for (std::size_t i = 0; i < problem.tallies.size(); ++i) {
    if (problem.tallies[i].name == name) tally = static_cast<int>(i);
  }
  EXPECT_GE(tally, 0) << name;
  const FilterBins f = geometry_test::run_on_device<FilterBins>(
      MatchEval{build_geometry(DeviceExec{}, problem), build_tallies(DeviceExec{}, problem), tally, r, u, energy});
  std::vector<std::vector<int>> result(static_cast<std::size_t>(f.n_filters));
  for (int j = 0; j < f.n_filters; ++j) result[static_cast<std::size_t>(j)].assign(f.bin[j], f.bin[j] + f.n[j]);
  return result;
}

using Bins = std::vector<std::vector<int>>;

// Centres of lattice elements (ix, iy), iy counted from the bottom row: pin (0, 0) is fuel; (2, 6) and
// (4, 4) (the centre) are guide tubes.
constexpr Real pitch = 1.26, lower = -5.67;
Vec3 element_centre(int ix, int iy) { return {lower + (ix + 0.5) * pitch, lower + (iy + 0.5) * pitch, 0.25}; }

TEST(MatchFilter, MeshAndEnergy) {
  // pin_power: the 9 x 9 pin mesh (x fastest) and the bands [1e-5, 0.625) and [0.625, 2e7) eV.
  EXPECT_EQ(bins("pin_power", element_centre(0, 0), 0.0253), (Bins{{0}, {0}}));
  EXPECT_EQ(bins("pin_power", element_centre(3, 7), 1.0e6), (Bins{{3 + 9 * 7}, {1}}));
  EXPECT_EQ(bins("pin_power", element_centre(8, 8), 2.0e7), (Bins{{80}, {}}));  // above the top bound: no band
}

TEST(MatchFilter, MaterialAndASmallMesh) {
  // by_material: fuel, clad, water; the 3 x 2 x 4 mesh over [-1, 1]^3 holds the centre only.
  EXPECT_EQ(bins("by_material", element_centre(0, 0), 1.0), (Bins{{0}, {}}));
  const Vec3 centre_water{0.6, 0.6, 0.25};  // the centre guide tube's outer water (radius 0.602 and beyond)
  EXPECT_EQ(bins("by_material", centre_water, 1.0), (Bins{{2}, {2 + 3 * (1 + 2 * 2)}}));
}

TEST(MatchFilter, CellInstanceCountsPlacementsXFastestFromTheBottom) {
  // fuel_pins: the fuel's 76 placements, then gt_inner's 5 in the order (2,2) (6,2) (4,4) (2,6) (6,6).
  EXPECT_EQ(bins("fuel_pins", element_centre(0, 0), 1.0), (Bins{{0}}));
  EXPECT_EQ(bins("fuel_pins", element_centre(1, 0), 1.0), (Bins{{1}}));
  EXPECT_EQ(bins("fuel_pins", element_centre(0, 1), 1.0), (Bins{{9}}));
  EXPECT_EQ(bins("fuel_pins", element_centre(3, 2), 1.0), (Bins{{9 + 9 + 2}}));  // (2,2) is a guide tube
  EXPECT_EQ(bins("fuel_pins", element_centre(2, 6), 1.0), (Bins{{76 + 3}}));
  EXPECT_EQ(bins("fuel_pins", element_centre(4, 4), 1.0), (Bins{{76 + 2}}));
  EXPECT_EQ(bins("fuel_pins", element_centre(4, 4) + Vec3{0.6, 0.6, 0.0}, 1.0), (Bins{{}}));  // its water: not listed
}

TEST(MatchFilter, UniverseAndCellMatchAtEveryLevel) {
  // events: universes pin, gt; cells assembly (the root's), moderator, gt_outer.
  EXPECT_EQ(bins("events", element_centre(0, 0), 1.0), (Bins{{0}, {0}}));  // pin; assembly (fuel: not listed)
  EXPECT_EQ(bins("events", element_centre(0, 0) + Vec3{0.6, 0.6, 0.0}, 1.0), (Bins{{0}, {0, 1}}));  // moderator
  EXPECT_EQ(bins("events", element_centre(4, 4) + Vec3{0.6, 0.6, 0.0}, 1.0), (Bins{{1}, {0, 2}}));  // gt_outer
}

TEST(MatchFilter, PolarBinsTheAngleFromPlusZ) {
  // by_angle: [0, 1), [1, pi/2), [pi/2, 3) rad; beyond 3 rad (almost straight down) no bin.
  const Vec3 r = element_centre(0, 0);
  const auto at = [](Real theta) { return Vec3{std::sin(theta), 0.0, std::cos(theta)}; };
  EXPECT_EQ(bins("by_angle", r, 1.0, Vec3{0, 0, 1}), (Bins{{0}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, at(0.99)), (Bins{{0}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, at(1.01)), (Bins{{1}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, Vec3{1, 0, 0}), (Bins{{2}}));  // acos(0) is the bound pi/2: the upper bin
  EXPECT_EQ(bins("by_angle", r, 1.0, Vec3{0, -1, 0}), (Bins{{2}}));  // only u_z counts
  EXPECT_EQ(bins("by_angle", r, 1.0, at(2.99)), (Bins{{2}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, at(3.01)), (Bins{{}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, Vec3{0, 0, -1}), (Bins{{}}));
  EXPECT_EQ(bins("by_angle", r, 1.0, Vec3{0, 0, 1 + 1e-15}), (Bins{{0}}));  // rounded past 1: still along +z
}

}  // namespace
}  // namespace keff
