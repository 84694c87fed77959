#pragma once
// Whether the fission source had converged: a drift test on the batch series of the source's Shannon
// entropy and of k (the collision estimator), which says from which batch on both are stationary. After a
// run it gives the summary's verdict, with a warning when the active batches began before that batch;
// during one it decides when settings.inactive = "auto" starts them. It reads only the batch record,
// which is the same on every rank and thread count, so every run of a problem decides alike.
// Host only; no Kokkos. The method, its choice and its false-alarm rate: src/README.md, "Stationarity".
#include "io/output/run_results.hpp"

#include <cmath>
#include <limits>
#include <span>
#include <vector>

namespace keff {

// The test on a tail x_1..x_m of a series (Geweke's): z = (mean of the first fifth - mean of the last
// half) / sqrt(s^2 tau (1 / n_first + 1 / n_last)), with s^2 and tau (the integrated autocorrelation
// time, statistics.hpp's Sokal window) from the last half, the part most likely stationary: a transient in
// the first fifth would widen its own yardstick. The tail is stationary when |z| is within the two-sided
// 0.2 % quantile of Student's t with n_last / tau - 1 degrees of freedom (3.09 for a long tail, more
// where few independent values back the variance). It needs stationarity_min_batches values.
inline constexpr int stationarity_min_batches = 10;
inline constexpr double stationarity_z = 3.09;  // the normal 0.2 % two-sided quantile
inline constexpr double stationarity_first_fraction = 0.2;
inline constexpr double stationarity_last_fraction = 0.5;
// The starts a verdict tries at most: every batch up to this many, else evenly spaced ones.
inline constexpr int stationarity_max_starts = 256;

// Each completed batch's source entropy and k (the means of its generations': with one generation per
// batch, the generation's own).
struct SourceSeries {
  std::vector<double> entropy;
  std::vector<double> k;
  int batches() const { return static_cast<int>(k.size()); }
};
SourceSeries source_series(std::span<const BatchResult> generations, int generations_per_batch);

// The test of `tail`: z and the |z| it may reach (z NaN below stationarity_min_batches values; 0 for a
// constant tail, infinite for one constant in its last half only that moves before).
// The last half's variance and autocorrelation time about its mean (the verdict's), or about its
// least-squares line (inactive = "auto"'s): a slow drift that runs through the whole tail, the last half
// included, otherwise reads as a large tau that widens the yardstick until nothing fails (the entropy of
// examples/cmfd_slab_2g.toml rises for 100 batches; about their mean, its batches 11 to 20 passed).
//
// The verdict's tau is also at least the AR(1) one, (1 + rho_1) / (1 - rho_1) from the lag-1 correlation:
// from a last half of a few tens of values Sokal's sum scatters widely from seed to seed, and the seeds
// it reads low warn of a stationary source; the lag-1 correlation, one number, scatters less
// (tests/test_stationarity.cpp: the false alarms with and without it). Not for "auto": about the line, a slow drift's deviations are
// smooth, and their lag-1 correlation would widen the yardstick the line is there to keep narrow.
enum class Yardstick { centred, detrended };
struct DriftTest {
  double z = std::numeric_limits<double>::quiet_NaN();
  double critical = stationarity_z;
  bool passes() const { return std::abs(z) <= critical; }
};
DriftTest drift_test(std::span<const double> tail, Yardstick yardstick = Yardstick::centred);
// (1 + rho_1) / (1 - rho_1) of a series of deviations (from its mean or line), rho_1 its lag-1
// correlation taken in [0, stationarity_max_lag1_correlation]; 1 for a series without variance.
inline constexpr double stationarity_max_lag1_correlation = 0.99;
double ar1_autocorrelation_time(std::span<const double> deviation);

// Whether both series are stationary from batch `first` (1-based) on.
bool stationary_from(const SourceSeries& s, int first, Yardstick yardstick = Yardstick::centred);

// settings.inactive = "auto": whether the source is stationary over the last half of the batches so far
// (stationarity_min_batches of them at least), with the detrended yardstick: waiting longer than needed
// costs inactive batches, starting too early costs a biased k.
bool source_settled(const SourceSeries& s);

// The verdict of a run whose active batches began after `inactive` batches.
Stationarity diagnose_stationarity(const SourceSeries& s, int inactive);

}  // namespace keff
