// The 2-D C5G7 core (examples/c5g7/2d.toml: OECD/NEA NEA/NSC/DOC(2003)16, seven groups with upscatter),
// reduced to 20,000 particles x 40 active batches (about a minute on two threads), against the published
// reference: k 1.18655 (+/- 0.008 %), maximum pin power 2.498, inner UO2 assembly 492.8. The bands are 4
// combined standard deviations (keff's over the active batches and the reference's): with this seed the
// run is fixed, so a failure here fails on every machine of the backend. The pin powers must also be as
// symmetric as the quarter core: the MOX assembly beside the centre on x and the one on y are mirror
// images across the diagonal, so pin (i, j) of one and pin (j, i) of the other estimate the same rate.
#include "run_problem.hpp"
#include "src/host/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace keff {
namespace {

constexpr int pins = 17;  // per assembly side; the tally's mesh is 34 x 34 over the fuel assemblies
constexpr double reference_k = 1.18655, reference_k_std = 1.18655 * 0.008e-2;
constexpr double reference_max_pin = 2.498, reference_inner_uo2 = 492.8;

struct PinMap {
  const TallyResult& tally;
  double mean(int ix, int iy) const { return tally.mean[static_cast<std::size_t>(ix + 2 * pins * iy)]; }
  double std(int ix, int iy) const { return tally.std_dev[static_cast<std::size_t>(ix + 2 * pins * iy)]; }
  // Fuel pins: those with fission, but the fission chamber at each assembly's centre.
  bool fuel(int ix, int iy) const { return mean(ix, iy) > 0 && !(ix % pins == pins / 2 && iy % pins == pins / 2); }
};

TEST(C5G7, ReducedTwoDimensionalCore) {
  const RunResults r = test::run_quietly(test::example("c5g7/2d.toml"), 20000, 60, 20);
  ASSERT_EQ(r.lost_particles, 0);

  const double k_sigma = std::hypot(r.k_combined.std, reference_k_std);
  ASSERT_LT(r.k_combined.std, 0.0015) << "too few histories for the k band to mean anything";
  EXPECT_NEAR(r.k_combined.mean, reference_k, 4 * k_sigma);

  const auto tally = std::find_if(r.tallies.begin(), r.tallies.end(), [](const TallyResult& t) { return t.name == "pin_power"; });
  ASSERT_NE(tally, r.tallies.end());
  ASSERT_EQ(tally->mean.size(), std::size_t{4 * pins * pins});
  const PinMap map{*tally};

  // Pin powers normalised to an average of 1 over the 1056 fuel pins.
  double total = 0;
  int fuel = 0;
  for (int iy = 0; iy < 2 * pins; ++iy) {
    for (int ix = 0; ix < 2 * pins; ++ix) {
      if (map.fuel(ix, iy)) total += map.mean(ix, iy), ++fuel;
    }
  }
  ASSERT_EQ(fuel, 4 * 264);
  const double average = total / fuel;
  double max_pin = 0, max_pin_std = 0, inner = 0, inner_var = 0;
  for (int iy = 0; iy < 2 * pins; ++iy) {
    for (int ix = 0; ix < 2 * pins; ++ix) {
      if (!map.fuel(ix, iy)) continue;
      if (map.mean(ix, iy) > max_pin) max_pin = map.mean(ix, iy), max_pin_std = map.std(ix, iy);
      if (ix < pins && iy < pins) inner += map.mean(ix, iy), inner_var += map.std(ix, iy) * map.std(ix, iy);
    }
  }
  // The normalisation's own noise (1056 pins) is far below one pin's; the maximum of noisy pins is biased
  // up by about a standard deviation, inside the band.
  EXPECT_NEAR(max_pin / average, reference_max_pin, 4 * max_pin_std / average);
  // The inner assembly's std from its pins' as if they and the batches were independent understates it:
  // its pins rise and fall together with the source's tilt. Over seeds 1-6 of this run (`keff run
  // examples/c5g7/2d.toml --particles 20000 --batches 60 --inactive 20 --seed S --json F`, then
  // `perf/c5g7_compare.py F`) the inner assembly spread by 1.35 (the batch's k in every population's
  // fission sites) and 2.35 (each population's own k) against 0.7 from its pins, hence 3.5 of those.
  EXPECT_NEAR(inner / average, reference_inner_uo2, 4 * 3.5 * std::sqrt(inner_var) / average);

  // Mirror symmetry of the two MOX assemblies: the pairs' differences in standard deviations, whose
  // squares sum to about their number (chi-square with n degrees of freedom: mean n, deviation
  // sqrt(2 n)). Batch-to-batch correlation of the source makes the batch statistics understate the
  // deviations somewhat, so the band's top is wide; a map that is not symmetric puts it at many times n.
  double chi2 = 0;
  int pairs = 0;
  for (int j = 0; j < pins; ++j) {
    for (int i = 0; i < pins; ++i) {
      const int ax = pins + i, ay = j, bx = j, by = pins + i;
      if (!map.fuel(ax, ay)) continue;
      ASSERT_TRUE(map.fuel(bx, by)) << "pin (" << i << ", " << j << ") is fuel in one MOX assembly only";
      const double z = (map.mean(ax, ay) - map.mean(bx, by)) / std::hypot(map.std(ax, ay), map.std(bx, by));
      chi2 += z * z;
      ++pairs;
    }
  }
  ASSERT_EQ(pairs, 264);
  const double spread = std::sqrt(2.0 * pairs);
  EXPECT_GT(chi2, pairs - 5 * spread);
  EXPECT_LT(chi2, 2 * pairs + 5 * spread);
  std::printf("C5G7 2-D reduced: k %.5f +/- %.5f (reference %.5f), max pin %.3f, inner UO2 %.1f, MOX symmetry "
              "chi2 %.0f over %d pairs\n",
              r.k_combined.mean, r.k_combined.std, reference_k, max_pin / average, inner / average, chi2, pairs);
}

}  // namespace
}  // namespace keff
