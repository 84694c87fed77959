#include "src/statistics.hpp"

#include <cmath>
#include <cstdint>
#include <numeric>

namespace keff {

MeanStd mean_std(const std::vector<double>& samples) {
  MeanStd r;
  const auto n = static_cast<double>(samples.size());
  if (samples.empty()) return r;
  r.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  if (samples.size() < 2) return r;
  double ss = 0;
  for (double s : samples) ss += (s - r.mean) * (s - r.mean);
  r.std = std::sqrt(ss / (n - 1) / n);
  return r;
}

namespace {

// Inverse of a symmetric 3x3 matrix; false if (nearly) singular.
bool invert3(const double c[3][3], double inv[3][3]) {
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

}  // namespace

MeanStd combine_estimators(const std::array<std::vector<double>, 3>& x) {
  std::array<MeanStd, 3> each;
  for (int e = 0; e < 3; ++e) each[e] = mean_std(x[e]);
  int best = 0;
  for (int e = 1; e < 3; ++e) {
    if (each[e].std < each[best].std) best = e;
  }
  const std::size_t n = x[0].size();
  if (n < 4) return each[best];

  double c[3][3];
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += (x[a][i] - each[a].mean) * (x[b][i] - each[b].mean);
      c[a][b] = s / static_cast<double>(n - 1);
    }
  }
  double inv[3][3];
  if (!invert3(c, inv)) return each[best];
  double w[3], total = 0;
  for (int a = 0; a < 3; ++a) {
    w[a] = inv[a][0] + inv[a][1] + inv[a][2];
    total += w[a];
  }
  if (!(total > 0)) return each[best];
  MeanStd r;
  for (int a = 0; a < 3; ++a) r.mean += w[a] / total * each[a].mean;
  r.std = std::sqrt(1.0 / total / static_cast<double>(n));
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

}  // namespace keff
