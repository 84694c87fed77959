#include "src/host/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace keff {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr const char* estimator_names[3] = {"collision", "absorption", "track-length"};
constexpr KEstimateKind estimator_kinds[3] = {KEstimateKind::collision, KEstimateKind::absorption,
                                              KEstimateKind::tracklength};

std::string number(const char* format, double v) {
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

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
  r.kind = use.size() == 1 ? estimator_kinds[use[0]] : KEstimateKind::mean_of_estimators;
  r.batches = static_cast<int>(n);
  r.reason = std::move(reason);
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

KEstimate combine_estimators(const std::array<std::vector<double>, 3>& x) {
  const std::size_t n = x[0].size();
  KEstimate none;
  none.mean = nan;
  none.reason = "no active batch yet";
  if (n == 0) return none;

  // Rule 2: estimators that are 0 in every batch estimate nothing.
  std::vector<int> use;
  std::vector<int> zero;
  for (int e = 0; e < 3; ++e) {
    const bool all_zero = std::all_of(x[e].begin(), x[e].end(), [](double v) { return v == 0.0; });
    (all_zero ? zero : use).push_back(e);
  }
  if (use.empty()) use = {0, 1, 2};  // k = 0: every estimator agrees
  std::string left_out;
  if (!zero.empty() && zero.size() < 3) {
    left_out = "the " + names_of(zero) + (zero.size() == 1 ? " estimator is" : " estimators are") +
               " 0 in every active batch (no " + (zero.size() == 1 && zero[0] == 1 ? "absorption in fissionable material" : "fission scored") +
               "), left out";
  }

  // Rule 3: zero variance (from two batches on).
  if (n >= 2) {
    for (const int e : use) {
      if (std::all_of(x[e].begin(), x[e].end(), [&](double v) { return v == x[e][0]; })) {
        KEstimate r;
        r.mean = x[e][0];
        r.std = 0.0;
        r.kind = estimator_kinds[e];
        r.batches = static_cast<int>(n);
        r.reason = joined(left_out, std::string("the ") + estimator_names[e] + " estimator has the same value in all " +
                                        std::to_string(n) + " active batches: zero variance, the minimum-variance estimate");
        return r;
      }
    }
  }

  // Rule 4: too few batches, or a single estimator.
  if (use.size() == 1) return mean_of(x, use, joined(left_out, "only the " + names_of(use) + " estimator is left"));
  if (n < static_cast<std::size_t>(min_batches_to_combine)) {
    const std::string why =
        n == 1 ? "1 active batch: no standard deviation yet, and the combination needs at least " +
                     std::to_string(min_batches_to_combine) + " active batches"
               : std::to_string(n) + " active batches: the combination needs at least " +
                     std::to_string(min_batches_to_combine) + " (its weights come from the estimators' covariance, "
                     "mostly noise before)";
    return mean_of(x, use, joined(left_out, "mean of the " + names_of(use) + " estimators: " + why));
  }

  // Rule 5: the combination.
  const int m = static_cast<int>(use.size());
  std::array<MeanStd, 3> each;
  for (int a = 0; a < m; ++a) each[a] = mean_std(x[use[a]]);
  double c[3][3];
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += (x[use[a]][i] - each[a].mean) * (x[use[b]][i] - each[b].mean);
      c[a][b] = s / static_cast<double>(n - 1);
    }
  }
  double inv[3][3];
  double w[3] = {}, total = 0;
  const bool regular = positive_definite(c, m) && invert(c, m, inv);
  if (regular) {
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b) w[a] += inv[a][b];
      total += w[a];
    }
  }
  if (!regular || !(total > 0)) {
    return mean_of(x, use,
                   joined(left_out, "mean of the " + names_of(use) + " estimators: their covariance is singular (" +
                                        "estimators that move together exactly), so no combination is defined"));
  }
  KEstimate r;
  r.mean = 0;
  for (int a = 0; a < m; ++a) r.mean += w[a] / total * each[a].mean;
  double lo = each[0].mean, hi = each[0].mean;
  for (int a = 1; a < m; ++a) {
    lo = std::min(lo, each[a].mean);
    hi = std::max(hi, each[a].mean);
  }
  const double slack = 1e-12 * std::max(std::fabs(lo), std::fabs(hi));  // rounding of weights summing to 1
  if (!(r.mean >= lo - slack && r.mean <= hi + slack)) {
    std::string weights;
    for (int a = 0; a < m; ++a) {
      weights += (a ? ", " : "") + std::string(estimator_names[use[a]]) + " " + number("%.3g", w[a] / total);
    }
    return mean_of(x, use,
                   joined(left_out, "mean of the " + names_of(use) + " estimators: the minimum-variance weights (" +
                                        weights + ") put the combination at " + number("%.5f", r.mean) +
                                        ", outside the estimators' range [" + number("%.5f", lo) + ", " +
                                        number("%.5f", hi) + "]: an extrapolation on an estimated covariance"));
  }
  r.std = std::sqrt(1.0 / total / static_cast<double>(n));
  r.kind = KEstimateKind::combined;
  r.batches = static_cast<int>(n);
  r.reason = left_out.empty() ? std::string() : "combination of the " + names_of(use) + " estimators: " + left_out;
  return r;
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
