#pragma once
// The shape of a spectrum tally, tested with its covariance from the batches: what the thermal tests
// (test_free_gas.cpp, test_ncrystal.cpp) share. A bin's own standard deviation carries the total's swing
// from batch to batch (in a loosely coupled core, or with long histories, far larger than the shape's),
// so a chi^2 over bins with their own sigmas has little power against a wrong shape; the shares of the
// total, with their covariance, have it.
#include "io/input/model.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/simulation.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace keff::test {

// A run, and the values of its first tally in each active batch ([batch][bin]): the running sums after
// each batch, differenced.
struct BatchSpectra {
  std::vector<std::vector<double>> batches;
  RunResults results;  // of the whole run
};

inline BatchSpectra batch_spectra(const model::Problem& problem) {
  const Communicator comm(MPI_COMM_WORLD);
  Simulation sim(DeviceExec(), problem, comm, nullptr);
  sim.sample_initial_source();
  BatchSpectra out;
  std::vector<double> before;
  for (int b = 1; b <= problem.settings.batches; ++b) {
    if (!sim.run_batch(b).active) continue;
    out.results = sim.collect_results(false);
    const std::vector<double>& sums = out.results.tallies.at(0).sum;
    if (before.empty()) before.assign(sums.size(), 0.0);
    std::vector<double> batch(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i) batch[i] = sums[i] - before[i];
    out.batches.push_back(batch);
    before = sums;
  }
  return out;
}

// Solves S x = b for a symmetric positive-definite S (Cholesky); S is n x n, row-major.
inline std::vector<double> solve_spd(std::vector<double> S, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k < j; ++k) S[j * n + j] -= S[j * n + k] * S[j * n + k];
    S[j * n + j] = std::sqrt(S[j * n + j]);
    for (std::size_t i = j + 1; i < n; ++i) {
      for (std::size_t k = 0; k < j; ++k) S[i * n + j] -= S[i * n + k] * S[j * n + k];
      S[i * n + j] /= S[j * n + j];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    for (std::size_t k = 0; k < i; ++k) b[i] -= S[i * n + k] * b[k];
    b[i] /= S[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= S[k * n + i] * b[k];
    b[i] /= S[i * n + i];
  }
  return b;
}

// The measured shape: each bin's share of the flux over the bins, a ratio estimate (mean bin over mean
// total), and the covariance of those mean shares from the batches (delta method); the last share is
// left out, as the shares sum to 1.
struct Shape {
  std::vector<double> share, covariance;  // d shares, d x d
  std::size_t batches = 0;
};

inline Shape measured_shape(const std::vector<std::vector<double>>& spectra) {
  Shape m;
  m.batches = spectra.size();
  const std::size_t d = spectra.front().size() - 1;
  const double n = static_cast<double>(m.batches);
  std::vector<double> mean(d + 1, 0.0);
  double total = 0;
  for (const auto& batch : spectra) {
    for (std::size_t i = 0; i <= d; ++i) {
      mean[i] += batch[i] / n;
      total += batch[i] / n;
    }
  }
  m.share.resize(d);
  for (std::size_t i = 0; i < d; ++i) m.share[i] = mean[i] / total;
  m.covariance.assign(d * d, 0.0);
  for (const auto& batch : spectra) {
    double batch_total = 0;
    for (const double v : batch) batch_total += v;
    std::vector<double> residual(d);
    for (std::size_t i = 0; i < d; ++i) residual[i] = (batch[i] - m.share[i] * batch_total) / total;
    for (std::size_t i = 0; i < d; ++i) {
      for (std::size_t j = 0; j < d; ++j) m.covariance[i * d + j] += residual[i] * residual[j] / (n * (n - 1));
    }
  }
  return m;
}

// T^2 = x^T C^-1 x.
inline double quadratic_form(const std::vector<double>& covariance, const std::vector<double>& x) {
  const std::vector<double> y = solve_spd(covariance, x);
  double t2 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) t2 += x[i] * y[i];
  return t2;
}

// Hotelling's one-sample statistic of the shape against `expected` shares (the first d): F = (n - d) /
// (d (n - 1)) T^2 for n batches, which follows F(d, n - d) when the shape is the expected one.
inline double shape_f(const Shape& m, const std::vector<double>& expected) {
  const std::size_t d = m.share.size();
  std::vector<double> deviation(d);
  for (std::size_t i = 0; i < d; ++i) deviation[i] = m.share[i] - expected[i];
  const double n = static_cast<double>(m.batches), dd = static_cast<double>(d);
  return (n - dd) / (dd * (n - 1)) * quadratic_form(m.covariance, deviation);
}

// Hotelling's two-sample statistic of two shapes from the same number n of batches: F = (2n - d - 1) /
// (d (2n - 2)) T^2, T^2 over the sum of both covariances, which follows F(d, 2n - d - 1) when both runs
// sample the same shape.
inline double shapes_f(const Shape& a, const Shape& b) {
  const std::size_t d = a.share.size();
  std::vector<double> difference(d), covariance(d * d);
  for (std::size_t i = 0; i < d; ++i) difference[i] = a.share[i] - b.share[i];
  for (std::size_t i = 0; i < d * d; ++i) covariance[i] = a.covariance[i] + b.covariance[i];
  const double n = static_cast<double>(a.batches), dd = static_cast<double>(d);
  return (2 * n - dd - 1) / (dd * (2 * n - 2)) * quadratic_form(covariance, difference);
}

}  // namespace keff::test
