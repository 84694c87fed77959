#include "src/host/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

namespace keff {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr const char* estimator_names[3] = {"collision", "absorption", "track-length"};
constexpr KEstimateKind estimator_kinds[3] = {KEstimateKind::collision, KEstimateKind::absorption,
                                              KEstimateKind::tracklength};

// "collision and track-length", "collision, absorption and track-length"
std::string names_of(const std::vector<int>& estimators) {
  std::string out;
  for (std::size_t i = 0; i < estimators.size(); ++i) {
    if (i > 0) out += i + 1 == estimators.size() ? " and " : ", ";
    out += estimator_names[estimators[i]];
  }
  return out;
}

std::string joined(const std::string& first, const std::string& second) {
  if (first.empty()) return second;
  if (second.empty()) return first;
  return first + "; " + second;
}

// Inverse of a symmetric 2x2 or 3x3 matrix (adjugate over determinant); false if (nearly) singular,
// |det| <= 1e-12 |product of the diagonal|, i.e. the determinant of the correlation matrix.
bool invert(const double c[3][3], int m, double inv[3][3]) {
  if (m == 2) {
    const double det = c[0][0] * c[1][1] - c[0][1] * c[1][0];
    const double scale = c[0][0] * c[1][1];
    if (!(std::fabs(det) > 1e-12 * std::fabs(scale)) || scale == 0) return false;
    inv[0][0] = c[1][1] / det;
    inv[0][1] = -c[0][1] / det;
    inv[1][0] = -c[1][0] / det;
    inv[1][1] = c[0][0] / det;
    return true;
  }
  const double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
                     c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
                     c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0]);
  const double scale = c[0][0] * c[1][1] * c[2][2];
  if (!(std::fabs(det) > 1e-12 * std::fabs(scale)) || scale == 0) return false;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      inv[i][j] = (c[i1][j1] * c[i2][j2] - c[i1][j2] * c[i2][j1]) / det;
    }
  }
  return true;
}

// Whether the m x m covariance is positive definite: a Cholesky factorisation of its correlation matrix
// with every pivot positive (a sample covariance is only semi-definite when estimators move together).
bool positive_definite(const double c[3][3], int m) {
  double r[3][3];
  for (int i = 0; i < m; ++i) {
    if (!(c[i][i] > 0)) return false;
    for (int j = 0; j < m; ++j) r[i][j] = c[i][j] / std::sqrt(c[i][i] * c[j][j]);
  }
  for (int j = 0; j < m; ++j) {
    double d = r[j][j];
    for (int k = 0; k < j; ++k) d -= r[j][k] * r[j][k];
    if (!(d > 0)) return false;
    const double l = std::sqrt(d);
    r[j][j] = l;
    for (int i = j + 1; i < m; ++i) {
      double v = r[i][j];
      for (int k = 0; k < j; ++k) v -= r[i][k] * r[j][k];
      r[i][j] = v / l;
    }
  }
  return true;
}

// Rule 4: the mean of the estimators `use`, batch by batch, then over batches.
KEstimate mean_of(const std::array<std::vector<double>, 3>& x, const std::vector<int>& use, std::string reason) {
  const std::size_t n = x[0].size();
  std::vector<double> y(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (const int e : use) y[i] += x[e][i];
    y[i] /= static_cast<double>(use.size());
  }
  KEstimate r;
  static_cast<MeanStd&>(r) = mean_std(y);
  for (const int e : use) r.weights[static_cast<std::size_t>(e)] = 1.0 / static_cast<double>(use.size());
  r.kind = use.size() == 1 ? estimator_kinds[use[0]] : KEstimateKind::mean_of_estimators;
  r.batches = static_cast<int>(n);
  r.reason = std::move(reason);
  return r;
}

// Rule 2: the estimators that estimate something, and the words for those left out for being 0 in every
// batch ("" when none is).
struct UsableEstimators {
  std::vector<int> use;
  std::string left_out;
};

UsableEstimators usable_estimators(const std::array<std::vector<double>, 3>& x) {
  UsableEstimators u;
  std::vector<int> zero;
  for (int e = 0; e < 3; ++e) {
    const bool all_zero = std::all_of(x[e].begin(), x[e].end(), [](double v) { return v == 0.0; });
    (all_zero ? zero : u.use).push_back(e);
  }
  if (u.use.empty()) u.use = {0, 1, 2};  // k = 0: every estimator agrees
  if (!zero.empty() && zero.size() < 3) {
    u.left_out = "the " + names_of(zero) + (zero.size() == 1 ? " estimator is" : " estimators are") +
                 " 0 in every active batch (no " + (zero.size() == 1 && zero[0] == 1 ? "absorption in fissionable material" : "fission scored") +
                 "), left out";
  }
  return u;
}

// Rule 3: the first estimator left with the same value in every batch (from two batches on), alone.
std::optional<KEstimate> zero_variance_estimate(const std::array<std::vector<double>, 3>& x, const UsableEstimators& u) {
  const std::size_t n = x[0].size();
  if (n < 2) return std::nullopt;
  for (const int e : u.use) {
    if (std::all_of(x[e].begin(), x[e].end(), [&](double v) { return v == x[e][0]; })) {
      KEstimate r;
      r.mean = x[e][0];
      r.std = 0.0;
      r.weights[static_cast<std::size_t>(e)] = 1.0;
      r.kind = estimator_kinds[e];
      r.batches = static_cast<int>(n);
      r.reason = joined(u.left_out, std::string("the ") + estimator_names[e] + " estimator has the same value in all " +
                                        std::to_string(n) + " active batches: zero variance, the minimum-variance estimate");
      return r;
    }
  }
  return std::nullopt;
}

// Rule 4: why n active batches are too few to combine.
std::string too_few_batches(std::size_t n) {
  return n == 1 ? "1 active batch: no standard deviation yet, and the combination needs at least " +
                      std::to_string(min_batches_to_combine) + " active batches"
                : std::to_string(n) + " active batches: the combination needs at least " +
                      std::to_string(min_batches_to_combine) + " (its weights come from the estimators' covariance, "
                      "mostly noise before)";
}

// The sample covariance c[a][b] of the estimators use[a], use[b] about their means `each`.
void sample_covariance(const std::array<std::vector<double>, 3>& x, const std::vector<int>& use,
                       const std::array<MeanStd, 3>& each, double c[3][3]) {
  const std::size_t n = x[0].size();
  const int m = static_cast<int>(use.size());
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += (x[use[a]][i] - each[a].mean) * (x[use[b]][i] - each[b].mean);
      c[a][b] = s / static_cast<double>(n - 1);
    }
  }
}

// The minimum-variance weights before normalisation, w = C^-1 1, and their total 1' C^-1 1 (the weights
// are w / total).
struct Weights {
  double w[3] = {};
  double total = 0;
};

// None when no combination is defined: C not positive definite, or a total that is not positive.
std::optional<Weights> minimum_variance_weights(const double c[3][3], int m) {
  double inv[3][3];
  if (!positive_definite(c, m) || !invert(c, m, inv)) return std::nullopt;
  Weights r;
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) r.w[a] += inv[a][b];
    r.total += r.w[a];
  }
  if (!(r.total > 0)) return std::nullopt;
  return r;
}

// The weights that minimise the correlation-corrected variance: those of the corrected covariance
// L[a][b] = C[a][b] sqrt(f_a f_b), f_a = max(1, tau_a) the factor batch_correlation finds for estimator a's
// own series (the square of the factor its std is corrected by), so the estimators keep their
// correlation with one another. None (the naive weights stay) below min_batches_for_correlation batches.
// A full long-run covariance (lag covariances between estimators over a window) was tried first: its
// lag terms are noisy where one slow component moves all three estimators, and on such series (the test
// EstimateCorrelationUsesTheCombinationsSeries) its weights swung to large values of both signs and the
// std grew; scaling C by three factors keeps L positive definite with C.
std::optional<Weights> corrected_weights(const std::array<std::vector<double>, 3>& x, const std::vector<int>& use,
                                         const double c[3][3]) {
  if (x[0].size() < static_cast<std::size_t>(min_batches_for_correlation)) return std::nullopt;
  const int m = static_cast<int>(use.size());
  double root_factor[3];
  for (int a = 0; a < m; ++a) root_factor[a] = batch_correlation(x[use[a]]).factor();
  double l[3][3];
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) l[a][b] = c[a][b] * root_factor[a] * root_factor[b];
  }
  return minimum_variance_weights(l, m);
}

// Rule 5: the minimum-variance combination, or the mean of rule 4 where it is not defined.
KEstimate minimum_variance_combination(const std::array<std::vector<double>, 3>& x, const UsableEstimators& u) {
  const std::size_t n = x[0].size();
  const std::vector<int>& use = u.use;
  const int m = static_cast<int>(use.size());
  std::array<MeanStd, 3> each;
  for (int a = 0; a < m; ++a) each[a] = mean_std(x[use[a]]);
  double c[3][3];
  sample_covariance(x, use, each, c);
  const std::optional<Weights> naive = minimum_variance_weights(c, m);
  if (!naive) {
    return mean_of(x, use,
                   joined(u.left_out, "mean of the " + names_of(use) + " estimators: their covariance is singular (" +
                                          "estimators that move together exactly), so no combination is defined"));
  }
  const Weights weights = corrected_weights(x, use, c).value_or(*naive);
  KEstimate r;
  r.mean = 0;
  double variance = 0;  // w' C w: the naive variance of one batch of the combination
  for (int a = 0; a < m; ++a) {
    const double wa = weights.w[a] / weights.total;
    r.weights[static_cast<std::size_t>(use[a])] = wa;
    r.mean += wa * each[a].mean;
    for (int b = 0; b < m; ++b) variance += wa * c[a][b] * weights.w[b] / weights.total;
  }
  r.std = std::sqrt(std::max(0.0, variance) / static_cast<double>(n));
  r.kind = KEstimateKind::combined;
  r.batches = static_cast<int>(n);
  r.reason = u.left_out.empty() ? std::string() : "combination of the " + names_of(use) + " estimators: " + u.left_out;
  return r;
}

}  // namespace

MeanStd mean_std(const std::vector<double>& samples) {
  MeanStd r;
  const auto n = static_cast<double>(samples.size());
  if (samples.empty()) {
    r.mean = nan;
    return r;
  }
  r.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  if (samples.size() < 2) return r;
  double ss = 0;
  for (double s : samples) ss += (s - r.mean) * (s - r.mean);
  r.std = std::sqrt(ss / (n - 1) / n);
  return r;
}

MeanStd mean_std_of_sums(double sum, double sum_sq, int n) {
  MeanStd r;
  r.mean = n > 0 ? sum / n : nan;
  if (n < 2) return r;
  r.std = std::sqrt(std::max(0.0, sum_sq / n - r.mean * r.mean) / (n - 1));
  return r;
}

KEstimate combine_estimators(const std::array<std::vector<double>, 3>& x) {
  const std::size_t n = x[0].size();
  if (n == 0) {
    KEstimate none;
    none.mean = nan;
    none.reason = "no active batch yet";
    return none;
  }
  const UsableEstimators u = usable_estimators(x);
  if (auto alone = zero_variance_estimate(x, u)) return *alone;
  if (u.use.size() == 1) return mean_of(x, u.use, joined(u.left_out, "only the " + names_of(u.use) + " estimator is left"));
  if (n < static_cast<std::size_t>(min_batches_to_combine)) {
    return mean_of(x, u.use, joined(u.left_out, "mean of the " + names_of(u.use) + " estimators: " + too_few_batches(n)));
  }
  return minimum_variance_combination(x, u);
}

AutocorrelationTime autocorrelation_time(std::span<const double> series) {
  AutocorrelationTime r;
  const std::size_t n = series.size();
  if (n == 0) return r;
  double mean = 0;
  for (const double v : series) mean += v;
  mean /= static_cast<double>(n);
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = series[i] - mean;
  double c0 = 0;
  for (const double v : d) c0 += v * v;
  if (!(c0 > 0)) {
    r.closed = true;
    return r;
  }
  // tau(M) = 1 + 2 sum_{t=1..M} rho(t), rho(t) = sum_i d_i d_{i+t} / sum_i d_i^2, until M >= c tau(M).
  const int last = static_cast<int>(std::min<std::size_t>(n / 2, max_correlation_window));
  for (int t = 1; t <= last; ++t) {
    double c = 0;
    for (std::size_t i = 0; i + static_cast<std::size_t>(t) < n; ++i) c += d[i] * d[i + static_cast<std::size_t>(t)];
    r.tau += 2 * c / c0;
    r.window = t;
    if (t >= correlation_window_factor * r.tau) {
      r.closed = true;
      break;
    }
  }
  return r;
}

BatchCorrelation batch_correlation(const std::vector<double>& series) {
  BatchCorrelation r;
  const std::size_t n = series.size();
  if (n < static_cast<std::size_t>(min_batches_for_correlation)) return r;
  const MeanStd naive = mean_std(series);
  const AutocorrelationTime a = autocorrelation_time(series);
  r.autocorrelation_time = a.tau;
  r.window = a.window;
  r.std_corrected = naive.std * r.factor();
  // A series without variance is exactly uncorrelated, however short.
  r.reliable = a.closed && (a.window == 0 || static_cast<double>(n) >= reliable_correlation_batches * std::max(a.tau, 1.0));
  return r;
}

void estimate_correlation(KEstimate& k, const std::array<std::vector<double>, 3>& x) {
  const std::size_t n = x[0].size();
  if (k.std == 0.0) return;  // a zero-variance estimator: exact, nothing to correct
  std::vector<double> y(n, 0.0);
  for (std::size_t e = 0; e < 3; ++e) {
    if (k.weights[e] == 0.0) continue;
    for (std::size_t i = 0; i < n; ++i) y[i] += k.weights[e] * x[e][i];
  }
  k.correlation = batch_correlation(y);
  // The series' own std equals k.std (the combination's variance is w' C w = 1 / (1' C^-1 1)) up to
  // rounding; the correction is applied to k.std itself.
  if (k.correlation.estimated()) k.correlation.std_corrected = k.std * k.correlation.factor();
}

double shannon_entropy(std::span<const std::int64_t> counts) {
  std::int64_t total = 0;
  for (auto c : counts) total += c;
  if (total == 0) return 0.0;
  double h = 0;
  for (auto c : counts) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / static_cast<double>(total);
    h -= p * std::log2(p);
  }
  return h;
}

std::string entropy_mesh_warning(std::span<const std::int64_t> counts, std::int64_t sites) {
  std::int64_t inside = 0;
  for (auto c : counts) inside += c;
  if (inside >= sites) return {};
  const std::string outside = std::to_string(sites - inside) + " of the " + std::to_string(sites) + " fission sites";
  const std::string fix = "(allowed: settings.entropy_mesh lower_left and upper_right around the fissionable material)";
  if (inside == 0) {
    return "the entropy mesh holds none of the " + std::to_string(sites) +
           " fission sites: the Shannon entropy (0) says nothing about the source's convergence " + fix;
  }
  return outside + " lie outside the entropy mesh: the Shannon entropy describes only the rest of the source " + fix;
}

}  // namespace keff
