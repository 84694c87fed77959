#include "src/host/stationarity.hpp"

#include "src/host/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace keff {

namespace {

double mean_of(std::span<const double> x) {
  double sum = 0;
  for (const double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

std::string formatted(const char* format, double a, double b) {
  char text[64];
  std::snprintf(text, sizeof text, format, a, b);
  return text;
}

}  // namespace

SourceSeries source_series(std::span<const BatchResult> generations, int generations_per_batch) {
  SourceSeries s;
  const auto g = static_cast<std::size_t>(std::max(1, generations_per_batch));
  for (std::size_t end = g; end <= generations.size(); end += g) {
    double entropy = 0, k = 0;
    for (std::size_t i = end - g; i < end; ++i) {
      entropy += generations[i].entropy;
      k += generations[i].k_collision;
    }
    s.entropy.push_back(entropy / static_cast<double>(g));
    s.k.push_back(k / static_cast<double>(g));
  }
  return s;
}

double ar1_autocorrelation_time(std::span<const double> deviation) {
  double c0 = 0, c1 = 0;
  for (std::size_t i = 0; i < deviation.size(); ++i) {
    c0 += deviation[i] * deviation[i];
    if (i + 1 < deviation.size()) c1 += deviation[i] * deviation[i + 1];
  }
  if (!(c0 > 0)) return 1;
  const double rho = std::clamp(c1 / c0, 0.0, stationarity_max_lag1_correlation);
  return (1 + rho) / (1 - rho);
}

DriftTest drift_test(std::span<const double> tail, Yardstick yardstick) {
  DriftTest r;
  const std::size_t m = tail.size();
  if (m < static_cast<std::size_t>(stationarity_min_batches)) return r;
  const auto part = [m](double fraction) {
    return std::max<std::size_t>(3, static_cast<std::size_t>(fraction * static_cast<double>(m)));
  };
  const std::span<const double> first = tail.first(part(stationarity_first_fraction));
  const std::span<const double> last = tail.last(part(stationarity_last_fraction));
  const auto n_first = static_cast<double>(first.size()), n_last = static_cast<double>(last.size());
  const double mean_last = mean_of(last);
  const double drift = mean_of(first) - mean_last;
  // The last half's deviations from its mean, or from its least-squares line.
  double slope = 0;
  if (yardstick == Yardstick::detrended) {
    const double centre = (n_last - 1) / 2;
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < last.size(); ++i) {
      sxy += (static_cast<double>(i) - centre) * (last[i] - mean_last);
      sxx += (static_cast<double>(i) - centre) * (static_cast<double>(i) - centre);
    }
    slope = sxy / sxx;
  }
  std::vector<double> deviation(last.size());
  double ss = 0;
  for (std::size_t i = 0; i < last.size(); ++i) {
    deviation[i] = last[i] - mean_last - slope * (static_cast<double>(i) - (n_last - 1) / 2);
    ss += deviation[i] * deviation[i];
  }
  const double fitted = yardstick == Yardstick::detrended ? 2 : 1;  // parameters the deviations are taken from
  if (!(ss > 0)) {  // a constant (or straight) last half: any difference is a drift
    r.z = drift == 0 ? 0 : std::numeric_limits<double>::infinity();
    return r;
  }
  const double tau = std::max({1.0, autocorrelation_time(deviation).tau,
                               yardstick == Yardstick::centred ? ar1_autocorrelation_time(deviation) : 0.0});
  r.z = drift / std::sqrt(ss / (n_last - fitted) * tau * (1 / n_first + 1 / n_last));
  // The variance comes from n_last / tau independent values: Student's t with that many less the
  // parameters fitted as degrees of freedom, its quantile by the Cornish-Fisher expansion about the normal.
  const double nu = std::max(1.0, n_last / tau - fitted), z = stationarity_z;
  r.critical = z + (z * z * z + z) / (4 * nu) + (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * nu * nu) +
               (3 * std::pow(z, 7) + 19 * std::pow(z, 5) + 17 * z * z * z - 15 * z) / (384 * nu * nu * nu);
  return r;
}

bool stationary_from(const SourceSeries& s, int first, Yardstick yardstick) {
  const auto from = static_cast<std::size_t>(first - 1);
  if (first < 1 || s.batches() - first + 1 < stationarity_min_batches) return false;
  const auto passes = [from, yardstick](const std::vector<double>& x) {
    return drift_test(std::span<const double>(x).subspan(from), yardstick).passes();
  };
  return passes(s.entropy) && passes(s.k);
}

bool source_settled(const SourceSeries& s) {
  const int n = s.batches();
  return stationary_from(s, n - n / 2 + 1, Yardstick::detrended);
}

Stationarity diagnose_stationarity(const SourceSeries& s, int inactive) {
  Stationarity r;
  r.first_active = inactive + 1;
  const int n = s.batches();
  const int active = n - inactive;
  if (active < stationarity_min_batches) {
    r.message = "source stationarity not tested: " + std::to_string(std::max(active, 0)) +
                " active batches, the test needs " + std::to_string(stationarity_min_batches);
    return r;
  }
  r.tested = true;
  const auto from = static_cast<std::size_t>(inactive);
  const DriftTest entropy = drift_test(std::span<const double>(s.entropy).subspan(from));
  const DriftTest k = drift_test(std::span<const double>(s.k).subspan(from));
  r.entropy_drift = entropy.z;
  r.k_drift = k.z;
  r.stationary = entropy.passes() && k.passes();
  // The first start whose tail passes: every batch in a short run, evenly spaced ones in a long run.
  // After a failed first active batch, only later starts answer what to set: an earlier tail can pass
  // where this one failed, its first fifth holding batches before the drift that fails this one.
  const int first_start = r.stationary ? 1 : r.first_active + 1;
  const int last_start = n - stationarity_min_batches + 1;
  const int step = std::max(1, (last_start - first_start + stationarity_max_starts) / stationarity_max_starts);
  for (int first = first_start; first <= last_start; first += step) {
    if (stationary_from(s, first)) {
      r.stationary_from = first;
      break;
    }
  }
  // A coarse scan may step over the first active batch, whose tail passed.
  if (r.stationary && (r.stationary_from == 0 || r.stationary_from > r.first_active)) r.stationary_from = r.first_active;
  const std::string drifts = formatted("drift z = %.2f in the entropy, %.2f in k", r.entropy_drift, r.k_drift) +
                             formatted(" against %.2f and %.2f", entropy.critical, k.critical);
  if (r.stationary) {
    r.message = "source stationary from batch " + std::to_string(r.stationary_from) + " (" + drifts +
                ", tested from the first active batch, " + std::to_string(r.first_active) + ")";
    return r;
  }
  r.message = "the fission source was not stationary by the first active batch, " + std::to_string(r.first_active) +
              " (" + drifts + "): ";
  if (r.stationary_from > 0) {
    r.message += "it is from batch " + std::to_string(r.stationary_from) + ", " +
                 std::to_string(r.stationary_from - r.first_active) + " batches later: set inactive >= " +
                 std::to_string(r.stationary_from - 1) + " (or inactive = \"auto\")";
  } else {
    r.message += "no tail of the run is; run more batches with more inactive ones (or inactive = \"auto\")";
  }
  r.message += "; k and its std include the unconverged batches";
  return r;
}

}  // namespace keff
