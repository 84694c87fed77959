// The energy filter's band search (energy_band, kernels/tally/tally_filters.hpp) on its own: every band
// of an uneven grid found at its lower bound, inside and just below its upper bound; the top bound and
// beyond, below the bottom and NaN outside every band; one band alone; and a 1000-bound grid against a
// linear search.
#include <gtest/gtest.h>

#include "kernels/tally/tally_filters.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace keff {
namespace {

int band(const std::vector<Real>& bounds, Real e) { return energy_band(bounds.data(), static_cast<int>(bounds.size()), e); }

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

}  // namespace
}  // namespace keff
