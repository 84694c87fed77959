// k over active batches from fixed batch values: each rule of combine_estimators (src/host/statistics.hpp),
// the cases that printed a k outside every estimator or a deviation of 0, and the batch table's rows.
#include <gtest/gtest.h>

#include "io/input/model.hpp"
#include "io/output/summary_text.hpp"
#include "src/host/batch_table.hpp"
#include "src/host/statistics.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <string>
#include <vector>

namespace keff {
namespace {

using Estimators = std::array<std::vector<double>, 3>;  // collision, absorption, track-length

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Fixed, irregular deviations for batch i (no random generator: the values are the test's data).
double wiggle(int i, double frequency, double phase) { return std::sin(frequency * i + phase); }

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// The estimators' sample covariance.
using Matrix = std::array<std::array<double, 3>, 3>;
Matrix covariance(const Estimators& x) {
  const std::size_t n = x[0].size();
  Matrix c{};
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t b = 0; b < 3; ++b) {
      const double ma = mean_of(x[a]), mb = mean_of(x[b]);
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += (x[a][i] - ma) * (x[b][i] - mb);
      c[a][b] = s / static_cast<double>(n - 1);
    }
  }
  return c;
}

// The minimum-variance weights for covariance c, solved independently (Gaussian elimination on c w = 1).
std::array<double, 3> weights_of(Matrix c) {
  double m[3][4];
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) m[a][b] = c[a][b];
    m[a][3] = 1.0;
  }
  for (int p = 0; p < 3; ++p) {
    for (int r = p + 1; r < 3; ++r) {
      const double f = m[r][p] / m[p][p];
      for (int k = p; k < 4; ++k) m[r][k] -= f * m[p][k];
    }
  }
  std::array<double, 3> w;
  for (int p = 2; p >= 0; --p) {
    double s = m[p][3];
    for (int k = p + 1; k < 3; ++k) s -= m[p][k] * w[static_cast<std::size_t>(k)];
    w[static_cast<std::size_t>(p)] = s / m[p][p];
  }
  const double total = w[0] + w[1] + w[2];
  for (double& v : w) v /= total;
  return w;
}

std::vector<double> series_of(const Estimators& x, const std::array<double, 3>& w) {
  std::vector<double> y(x[0].size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = w[0] * x[0][i] + w[1] * x[1][i] + w[2] * x[2][i];
  return y;
}

// The minimum-variance combination of independent batches (the sample covariance's weights).
double minimum_variance_combination(const Estimators& x) { return mean_of(series_of(x, weights_of(covariance(x)))); }

// The weights the run takes from min_batches_for_correlation batches on: the sample covariance's, each
// estimator's variance and covariances scaled by its own autocorrelation time (at least 1).
std::array<double, 3> corrected_weights(const Estimators& x) {
  Matrix c = covariance(x);
  for (std::size_t a = 0; a < 3; ++a) {
    for (std::size_t b = 0; b < 3; ++b) c[a][b] *= batch_correlation(x[a]).factor() * batch_correlation(x[b]).factor();
  }
  return weights_of(c);
}

TEST(Statistics, MeanStdIsUndefinedBelowTwoSamples) {
  EXPECT_TRUE(std::isnan(mean_std({}).mean));
  const MeanStd one = mean_std({0.9});
  EXPECT_EQ(one.mean, 0.9);
  EXPECT_FALSE(one.has_std());  // never a 0 that claims an exact value
  const MeanStd two = mean_std({1.0, 3.0});
  EXPECT_EQ(two.mean, 2.0);
  EXPECT_DOUBLE_EQ(two.std, 1.0);  // sqrt(2 / 1 / 2)
}

TEST(Statistics, NoActiveBatch) {
  const KEstimate k = combine_estimators({});
  EXPECT_EQ(k.kind, KEstimateKind::none);
  EXPECT_TRUE(std::isnan(k.mean));
  EXPECT_FALSE(k.has_std());
  EXPECT_EQ(k.reason, "no active batch yet");
}

TEST(Statistics, OneActiveBatchHasNoDeviation) {
  const KEstimate k = combine_estimators({{{0.91}, {0.92}, {0.93}}});
  EXPECT_EQ(k.kind, KEstimateKind::mean_of_estimators);
  EXPECT_DOUBLE_EQ(k.mean, 0.92);
  EXPECT_FALSE(k.has_std());  // was printed "+/- 0.00000"
  EXPECT_TRUE(contains(k.reason, "1 active batch: no standard deviation yet")) << k.reason;
  EXPECT_EQ(format_k(k), " 0.92000 +/-       -");
}

// The probe's case: two active batches whose k (the collision estimator) is 0.89505 and 0.92007; the
// absorption estimator happened to have the smallest spread, and its mean 0.92288 +/- 0.00137 was shown,
// outside both values. Now: the mean of the three estimators batch by batch, with its deviation.
TEST(Statistics, TwoActiveBatchesTakeTheMeanOfTheEstimators) {
  const Estimators x{{{0.89505, 0.92007}, {0.92151, 0.92425}, {0.90000, 0.93000}}};
  const KEstimate k = combine_estimators(x);
  EXPECT_EQ(k.kind, KEstimateKind::mean_of_estimators);
  EXPECT_EQ(k.batches, 2);
  const double y1 = (0.89505 + 0.92151 + 0.90000) / 3, y2 = (0.92007 + 0.92425 + 0.93000) / 3;
  EXPECT_NEAR(k.mean, (y1 + y2) / 2, 1e-15);
  EXPECT_NEAR(k.std, std::fabs(y2 - y1) / 2, 1e-15);
  EXPECT_GT(k.mean, 0.89505);
  EXPECT_LT(k.mean, 0.92007);
  EXPECT_TRUE(contains(k.reason, "2 active batches: the combination needs at least 10")) << k.reason;
}

// Strongly correlated collision and track-length estimators with different spreads: the minimum-variance
// weights are of opposite signs and put the combination above all three estimators.
Estimators extrapolating(int n) {
  Estimators x;
  for (int i = 0; i < n; ++i) {
    x[0].push_back(1.0 + 0.02 * wiggle(i, 1.7, 0.3));
    x[1].push_back(0.998 + 0.005 * wiggle(i, 4.3, 2.0));
    x[2].push_back(1.003 + 0.01 * wiggle(i, 1.7, 0.3) + 0.0005 * wiggle(i, 2.9, 1.1));
  }
  return x;
}

// At 5 active batches the combination fell below all three estimators with a third of their deviation:
// too few batches for the covariance, whatever the weights.
TEST(Statistics, FiveActiveBatchesAreTooFewToCombine) {
  const Estimators x = extrapolating(5);
  const double raw = minimum_variance_combination(x);
  const double lo = std::min({mean_of(x[0]), mean_of(x[1]), mean_of(x[2])});
  const double hi = std::max({mean_of(x[0]), mean_of(x[1]), mean_of(x[2])});
  EXPECT_FALSE(raw >= lo && raw <= hi) << raw;  // the case the old code printed
  const KEstimate k = combine_estimators(x);
  EXPECT_EQ(k.kind, KEstimateKind::mean_of_estimators);
  EXPECT_GE(k.mean, lo);
  EXPECT_LE(k.mean, hi);
  EXPECT_TRUE(contains(k.reason, "5 active batches: the combination needs at least 10")) << k.reason;
}

// Strongly correlated estimators: the minimum-variance combination lies outside their range, by design
// (Halperin's estimator, as MCNP and OpenMC use it). An earlier rule fell back to the mean there, and a
// converged run flipped between the two from batch to batch.
TEST(Statistics, CombinationOutsideTheEstimatorsIsStillTheCombination) {
  const Estimators x = extrapolating(40);
  const double raw = mean_of(series_of(x, corrected_weights(x)));
  const double hi = std::max({mean_of(x[0]), mean_of(x[1]), mean_of(x[2])});
  ASSERT_GT(raw, hi);
  const KEstimate k = combine_estimators(x);
  EXPECT_EQ(k.kind, KEstimateKind::combined) << k.reason;
  EXPECT_NEAR(k.mean, raw, 1e-12);
  EXPECT_EQ(k.reason, "");
  EXPECT_NEAR(k.weights[0] + k.weights[1] + k.weights[2], 1.0, 1e-12);
}

// A Gaussian AR(1) series y_i = phi y_{i-1} + e_i from a fixed generator (splitmix64 and Box-Muller):
// its integrated autocorrelation time is (1 + phi) / (1 - phi) exactly.
std::vector<double> ar1(double phi, std::size_t n, std::uint64_t seed) {
  std::uint64_t state = seed;
  const auto uniform = [&]() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
  };
  std::vector<double> y(n);
  double prev = 0;
  for (std::size_t i = 0; i < n + 100; ++i) {  // 100 values to forget the start
    const double e = std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
    prev = phi * prev + e;
    if (i >= 100) y[i - 100] = prev;
  }
  return y;
}

TEST(BatchCorrelation, AutocorrelationTimeOfAnAr1Series) {
  for (const double phi : {0.0, 0.5, 0.8}) {
    const std::vector<double> y = ar1(phi, 200000, 7);
    const BatchCorrelation c = batch_correlation(y);
    const double tau = (1 + phi) / (1 - phi);
    ASSERT_TRUE(c.estimated());
    EXPECT_NEAR(c.autocorrelation_time, tau, 0.05 * tau) << "phi " << phi;
    EXPECT_TRUE(c.reliable);
    EXPECT_GE(c.window, correlation_window_factor * c.autocorrelation_time);
    EXPECT_NEAR(c.std_corrected, mean_std(y).std * std::sqrt(std::max(1.0, c.autocorrelation_time)), 1e-15);
  }
}

// The point of the correction: over many short runs of a correlated series, the corrected std covers the
// true mean (0) as often as a std should, where the naive one covers it far less often.
TEST(BatchCorrelation, CorrectedStdCoversTheMean) {
  constexpr int runs = 400;
  int naive_within = 0, corrected_within = 0;
  for (int r = 0; r < runs; ++r) {
    const std::vector<double> y = ar1(0.8, 1000, 1000 + static_cast<std::uint64_t>(r));  // tau = 9
    const MeanStd naive = mean_std(y);
    const BatchCorrelation c = batch_correlation(y);
    naive_within += std::fabs(naive.mean) < 2 * naive.std;
    corrected_within += std::fabs(naive.mean) < 2 * c.std_corrected;
  }
  // Two standard deviations hold 95.4% of a normal mean; with 400 runs the count's own spread is 4 runs.
  EXPECT_GT(corrected_within, 0.90 * runs) << corrected_within << " of " << runs;
  EXPECT_LT(naive_within, 0.70 * runs) << naive_within << " of " << runs;  // about 50%: 2 / 3 naive stds
}

// Three estimators of k = 1 sharing one slowly varying component (an AR(1) series, phi 0.8: tau 9), as a
// source's fluctuations from batch to batch move them all: the absorption-like x[1] carries most of it
// and little batch noise, so it has the smallest naive std and the largest corrected one (on LA-13511's
// UD2O sphere the absorption estimator's lag-1 autocorrelation is 0.29, the others' 0.03).
Estimators sharing_a_slow_component(std::size_t n, std::uint64_t seed) {
  const std::vector<double> slow = ar1(0.8, n, seed), a = ar1(0.0, n, seed + 1), b = ar1(0.0, n, seed + 2),
                            c = ar1(0.0, n, seed + 3);
  Estimators x;
  for (std::size_t i = 0; i < n; ++i) {
    x[0].push_back(1.0 + 0.0002 * slow[i] + 0.003 * a[i]);
    x[1].push_back(1.0 + 0.001 * slow[i] + 0.0005 * b[i]);
    x[2].push_back(1.0 + 0.0002 * slow[i] + 0.003 * c[i]);
  }
  return x;
}

// From min_batches_for_correlation batches on, the weights minimise the corrected variance: the
// estimator with the smallest naive std but the most correlated batches gets less weight, not more.
TEST(Statistics, WeightsComeFromTheCorrectedCovariance) {
  const Estimators x = sharing_a_slow_component(400, 11);
  const KEstimate k = combine_estimators(x);
  ASSERT_EQ(k.kind, KEstimateKind::combined) << k.reason;
  const std::array<double, 3> w = corrected_weights(x), naive = weights_of(covariance(x));
  for (std::size_t e = 0; e < 3; ++e) EXPECT_NEAR(k.weights[e], w[e], 1e-9) << e;
  EXPECT_NEAR(k.mean, mean_of(series_of(x, w)), 1e-12);
  EXPECT_NEAR(k.std, mean_std(series_of(x, w)).std, 1e-12);  // the naive std of the weighted series
  for (std::size_t e : {0u, 2u}) EXPECT_LT(mean_std(x[1]).std, mean_std(x[e]).std);
  EXPECT_GT(naive[1], 0.5);  // the sample covariance leans on it
  EXPECT_LT(k.weights[1], 0.25);
}

// The coverage test of the combination: over many runs of the series above, the k of the long-run weights
// lies nearer the truth than that of the sample covariance's weights, and its corrected std covers the
// truth as often as a std should.
TEST(BatchCorrelation, CombinationOfCorrelatedEstimatorsCoversTheMean) {
  constexpr int runs = 400;
  int within = 0;
  double squared_error = 0, squared_error_naive = 0;
  for (int r = 0; r < runs; ++r) {
    const Estimators x = sharing_a_slow_component(1000, 5000 + 4 * static_cast<std::uint64_t>(r));
    KEstimate k = combine_estimators(x);
    estimate_correlation(k, x);
    ASSERT_TRUE(k.correlation.estimated());
    squared_error += (k.mean - 1) * (k.mean - 1);
    const double naive = minimum_variance_combination(x) - 1;
    squared_error_naive += naive * naive;
    within += std::fabs(k.mean - 1) < 2 * k.correlation.std_corrected;
  }
  // Two standard deviations hold 95.4% of a normal mean; with 400 runs the count's own spread is 4 runs.
  EXPECT_GT(within, 0.90 * runs) << within << " of " << runs;
  EXPECT_LT(std::sqrt(squared_error / squared_error_naive), 0.85);
}

TEST(BatchCorrelation, TooShortOrConstantSeries) {
  EXPECT_FALSE(batch_correlation(std::vector<double>(min_batches_for_correlation - 1, 1.0)).estimated());
  const BatchCorrelation flat = batch_correlation(std::vector<double>(min_batches_for_correlation, 1.0));
  EXPECT_EQ(flat.autocorrelation_time, 1.0);
  EXPECT_EQ(flat.std_corrected, 0.0);
  // Anticorrelated batches never narrow the std below the naive one.
  std::vector<double> alternating;
  for (int i = 0; i < 100; ++i) alternating.push_back(i % 2 ? 1.01 : 0.99);
  const BatchCorrelation alt = batch_correlation(alternating);
  EXPECT_LT(alt.autocorrelation_time, 1.0);
  EXPECT_EQ(alt.std_corrected, mean_std(alternating).std);
}

// The run's k takes the correlation of its own batch series: the combination's, with its weights.
TEST(BatchCorrelation, EstimateCorrelationUsesTheCombinationsSeries) {
  Estimators x;
  const std::vector<double> slow = ar1(0.7, 400, 3), fast = ar1(0.0, 400, 4), other = ar1(0.0, 400, 5);
  for (std::size_t i = 0; i < 400; ++i) {
    x[0].push_back(1.0 + 0.002 * slow[i] + 0.003 * fast[i]);
    x[1].push_back(1.0 + 0.002 * slow[i] + 0.001 * other[i]);
    x[2].push_back(1.0 + 0.002 * slow[i] + 0.003 * other[i] + 0.001 * fast[i]);
  }
  KEstimate k = combine_estimators(x);
  ASSERT_EQ(k.kind, KEstimateKind::combined) << k.reason;
  EXPECT_FALSE(k.correlation.estimated());  // combine_estimators alone leaves it: it runs every batch
  estimate_correlation(k, x);
  std::vector<double> y(400);
  for (std::size_t i = 0; i < 400; ++i) y[i] = k.weights[0] * x[0][i] + k.weights[1] * x[1][i] + k.weights[2] * x[2][i];
  const BatchCorrelation expected = batch_correlation(y);
  EXPECT_EQ(k.correlation.autocorrelation_time, expected.autocorrelation_time);
  EXPECT_GT(k.correlation.autocorrelation_time, 2.0);
  EXPECT_NEAR(k.correlation.std_corrected, k.std * std::sqrt(expected.autocorrelation_time), 1e-15);
  EXPECT_NE(correlation_warning(k).find("successive batches are correlated"), std::string::npos) << correlation_warning(k);
}

// Below min_batches_for_correlation batches the weights are the sample covariance's.
TEST(Statistics, StableCombinationIsTheMinimumVarianceOne) {
  Estimators x;
  for (int i = 0; i < min_batches_for_correlation - 1; ++i) {
    x[0].push_back(0.920 + 0.004 * wiggle(i, 1.7, 0.3) + 0.002 * wiggle(i, 2.9, 1.1));
    x[1].push_back(0.918 + 0.004 * wiggle(i, 4.3, 2.0) + 0.001 * wiggle(i, 1.7, 0.3));
    x[2].push_back(0.919 + 0.003 * wiggle(i, 1.7, 0.3) + 0.003 * wiggle(i, 4.3, 2.0));
  }
  const KEstimate k = combine_estimators(x);
  ASSERT_EQ(k.kind, KEstimateKind::combined) << k.reason;
  EXPECT_TRUE(k.combined());
  EXPECT_EQ(k.reason, "");
  EXPECT_EQ(k.batches, min_batches_for_correlation - 1);
  EXPECT_NEAR(k.mean, minimum_variance_combination(x), 1e-12);
  // Never more uncertain than the best single estimator.
  for (const auto& e : x) EXPECT_LE(k.std, mean_std(e).std * (1 + 1e-12));
  EXPECT_GT(k.std, 0.0);
}

// A fuel with no absorption: the absorption estimator is 0 in every batch and printed "k (combined)
// 0.00000" while the collision and track-length estimators gave 12.
TEST(Statistics, AnEstimatorThatIsZeroEverywhereIsLeftOut) {
  Estimators x;
  for (int i = 0; i < 12; ++i) {
    x[0].push_back(12.0 + 0.3 * wiggle(i, 1.7, 0.3));
    x[1].push_back(0.0);
    x[2].push_back(12.1 + 0.2 * wiggle(i, 4.3, 2.0));
  }
  const KEstimate k = combine_estimators(x);
  EXPECT_GT(k.mean, 11.5);
  EXPECT_LT(k.mean, 12.5);
  EXPECT_TRUE(contains(k.reason, "the absorption estimator is 0 in every active batch")) << k.reason;
  // With too few batches the mean of the two others, not of all three.
  const Estimators few{{{12.0, 12.2}, {0.0, 0.0}, {12.1, 11.9}}};
  const KEstimate f = combine_estimators(few);
  EXPECT_EQ(f.kind, KEstimateKind::mean_of_estimators);
  EXPECT_DOUBLE_EQ(f.mean, 12.05);
  EXPECT_TRUE(contains(f.reason, "mean of the collision and track-length estimators")) << f.reason;
}

// A one-group infinite medium: every absorption scores nu Sigma_f / Sigma_a, so the absorption estimator
// is exact; it is taken alone, with deviation 0, at any batch count from 2.
TEST(Statistics, ZeroVarianceEstimatorIsTakenAlone) {
  Estimators x;
  for (int i = 0; i < 3; ++i) {
    x[0].push_back(1.5 + 0.01 * wiggle(i, 1.7, 0.3));
    x[1].push_back(1.5);
    x[2].push_back(1.5 + 0.01 * wiggle(i, 4.3, 2.0));
  }
  const KEstimate k = combine_estimators(x);
  EXPECT_EQ(k.kind, KEstimateKind::absorption);
  EXPECT_EQ(k.mean, 1.5);
  EXPECT_EQ(k.std, 0.0);
  EXPECT_TRUE(contains(k.reason, "zero variance")) << k.reason;
}

TEST(Statistics, SingularCovarianceFallsBackToTheMean) {
  Estimators x;
  for (int i = 0; i < 15; ++i) {
    x[0].push_back(1.0 + 0.01 * wiggle(i, 1.7, 0.3));
    x[1].push_back(1.0 + 0.01 * wiggle(i, 4.3, 2.0));
    x[2].push_back(x[0].back());  // collision and track-length move together exactly
  }
  const KEstimate k = combine_estimators(x);
  EXPECT_EQ(k.kind, KEstimateKind::mean_of_estimators);
  EXPECT_TRUE(contains(k.reason, "covariance is singular")) << k.reason;
}

TEST(BatchTable, RowsShowUndefinedDeviationsAndFallbacks) {
  BatchResult inactive;
  inactive.batch = 3;
  inactive.k = 0.91234;
  inactive.entropy = 5.6789;
  EXPECT_EQ(format_batch_row(inactive), "     3    0.91234     5.6789\n");

  BatchResult first = inactive;
  first.batch = 11;
  first.active = true;
  first.k_running = combine_estimators({{{0.91}, {0.92}, {0.93}}});
  EXPECT_EQ(format_batch_row(first), "    11    0.91234     5.6789     0.92000 +/-       - *\n");

  BatchResult combined = first;
  combined.k_running.kind = KEstimateKind::combined;
  combined.k_running.mean = 0.918776;
  combined.k_running.std = 0.001958;
  EXPECT_EQ(format_batch_row(combined), "    11    0.91234     5.6789     0.91878 +/- 0.00196\n");
  EXPECT_TRUE(contains(batch_table_header(), " batch   k(batch)    entropy    k(mean) +/- std\n"));
  EXPECT_TRUE(contains(batch_table_header(), "* marks a fallback"));
}

// With CMFD, k_cmfd and the CMFD source's entropy after the entropy: blank before [cmfd] begin, and for a
// solve that failed (not converged, nothing to solve, a mixed-sign source) 'failed', never its iterate.
TEST(BatchTable, CmfdColumns) {
  BatchResult b;
  b.batch = 4;
  b.k = 0.91234;
  b.entropy = 5.6789;
  EXPECT_EQ(format_batch_row(b, true), "     4    0.91234     5.6789                      \n");
  b.cmfd = CmfdResult{};
  b.cmfd->k = 1.18234;
  b.cmfd->entropy = 4.25;
  b.cmfd->converged = true;
  EXPECT_EQ(format_batch_row(b, true), "     4    0.91234     5.6789    1.18234     4.2500\n");
  b.cmfd->converged = false;
  EXPECT_EQ(format_batch_row(b, true), "     4    0.91234     5.6789     failed          -\n");
  b.cmfd = CmfdResult{};
  EXPECT_EQ(format_batch_row(b, true), "     4    0.91234     5.6789     failed          -\n");
  EXPECT_TRUE(contains(batch_table_header(true), " batch   k(batch)    entropy    k(cmfd)    H(cmfd)    k(mean) +/- std\n"));
}

// Several generations a batch: a row per generation named "batch/generation", the running k (over
// batches) on a batch's last generation only.
TEST(BatchTable, GenerationRows) {
  BatchResult b;
  b.batch = 12;
  b.generation = 2;
  b.active = true;
  b.k = 0.91234;
  b.entropy = 5.6789;
  b.k_running.kind = KEstimateKind::combined;
  b.k_running.mean = 0.918776;
  b.k_running.std = 0.001958;
  EXPECT_EQ(format_batch_row(b, false, 3), "  12/2    0.91234     5.6789\n");
  b.generation = 3;
  EXPECT_EQ(format_batch_row(b, false, 3), "  12/3    0.91234     5.6789     0.91878 +/- 0.00196\n");
  EXPECT_TRUE(contains(batch_table_header(false, 3), " b/gen   k(batch)    entropy    k(mean) +/- std\n"));
  EXPECT_TRUE(contains(batch_table_header(false, 3), "batch and generation (3 a batch)"));
  // How messages name a generation (counted over the run).
  EXPECT_EQ(model::generation_name(4, 1), "batch 4");
  EXPECT_EQ(model::generation_name(4, 3), "batch 2 generation 1");
  EXPECT_EQ(model::generation_name(6, 3), "batch 2 generation 3");
  EXPECT_EQ(model::generation_name(0, 3), "batch 0");  // stopped inside the first generation
}

TEST(Statistics, EntropyMeshWarning) {
  const std::vector<std::int64_t> all{3, 0, 7};
  EXPECT_EQ(entropy_mesh_warning(all, 10), "");
  const std::vector<std::int64_t> none{0, 0, 0};
  const std::string w = entropy_mesh_warning(none, 10);
  EXPECT_TRUE(contains(w, "the entropy mesh holds none of the 10 fission sites")) << w;
  EXPECT_TRUE(contains(w, "settings.entropy_mesh")) << w;
  EXPECT_TRUE(contains(entropy_mesh_warning(all, 12), "2 of the 12 fission sites lie outside the entropy mesh"));
}

}  // namespace
}  // namespace keff
