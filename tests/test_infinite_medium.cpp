// Infinite media (a box with reflective faces): k must equal k-infinity, the dominant eigenvalue of
// (Sigma_t - S^T)^-1 chi (nu Sigma_f)^T, computed here independently from the same data.
#include <gtest/gtest.h>

#include "run_problem.hpp"
#include "src/params/build_problem.hpp"

#include <cmath>
#include <iostream>
#include <vector>

namespace keff {
namespace {

// Absolute bound on |k - k_inf| every estimator must also meet (besides 3 sigma).
constexpr double k_tolerance = 0.005;

// k-infinity of a multigroup material by power iteration on the group equations.
double multigroup_k_infinity(const model::Material& m, int groups) {
  const auto g_count = static_cast<std::size_t>(groups);
  std::vector<double> phi(g_count, 1.0);
  double k = 1.0;
  for (int it = 0; it < 10000; ++it) {
    double production = 0;
    for (std::size_t g = 0; g < g_count; ++g) production += m.nu_sigma_f[g] * phi[g];
    // Solve (Sigma_t - S^T) phi_new = chi * production / k by Gauss-Seidel sweeps (diagonally dominant).
    std::vector<double> next = phi;
    for (int sweep = 0; sweep < 200; ++sweep) {
      for (std::size_t g = 0; g < g_count; ++g) {
        double in = m.chi[g] * production / k;
        for (std::size_t h = 0; h < g_count; ++h) {
          if (h != g) in += m.sigma_s[h][g] * next[h];
        }
        next[g] = in / (m.sigma_t[g] - m.sigma_s[g][g]);
      }
    }
    double new_production = 0;
    for (std::size_t g = 0; g < g_count; ++g) new_production += m.nu_sigma_f[g] * next[g];
    const double k_new = k * new_production / production;
    phi = next;
    if (std::fabs(k_new - k) < 1e-14) return k_new;
    k = k_new;
  }
  return k;
}

void expect_estimators_near(const RunResults& r, double reference) {
  std::cout << "[ info     ] k_inf = " << reference << ", k = " << r.k_combined.mean << " +/- " << r.k_combined.std
            << " (collision " << r.k_collision.mean << " +/- " << r.k_collision.std << ")\n";
  for (const auto& [name, e] : {std::pair<const char*, MeanStd>{"combined", r.k_combined}, std::pair{"collision", r.k_collision},
                                std::pair{"track-length", r.k_tracklength}, std::pair{"absorption", r.k_absorption}}) {
    SCOPED_TRACE(name);
    EXPECT_LE(std::fabs(e.mean - reference), 3.0 * e.std + 1e-12) << e.mean << " +/- " << e.std;
    EXPECT_LT(std::fabs(e.mean - reference), k_tolerance) << e.mean << " +/- " << e.std;
  }
  EXPECT_EQ(r.lost_particles, 0);
}

TEST(InfiniteMedium, OneGroup) {
  const auto problem = test::example("inf_medium_1g.toml");
  const double k_inf = multigroup_k_infinity(problem.materials.at(0), problem.groups);
  EXPECT_NEAR(k_inf, 1.5, 1e-12);  // 0.45 / (1.0 - 0.7)
  const auto r = test::run_quietly(problem, 20000, 40, 10);
  expect_estimators_near(r, k_inf);
  // One group: every history ends in absorption with score nu Sigma_f / Sigma_a, so that estimator is exact.
  EXPECT_NEAR(r.k_absorption.mean, k_inf, 1e-9);
}

TEST(InfiniteMedium, TwoGroup) {
  const auto problem = test::example("inf_medium_2g.toml");
  const double k_inf = multigroup_k_infinity(problem.materials.at(0), problem.groups);
  const auto r = test::run_quietly(problem, 20000, 40, 10);
  expect_estimators_near(r, k_inf);
  EXPECT_GT(r.k_absorption.std, 0.0);
}

TEST(InfiniteMedium, ContinuousEnergyFlat) {
  const auto problem = test::example("inf_medium_ce_flat.toml");
  ASSERT_TRUE(problem.nuclear_data.flat);
  const NuclideLibrary lib = load_nuclear_data(problem, Communicator());
  // Energy-independent data: k_inf = sum N nu sigma_f / sum N sigma_a over the mixture.
  double production = 0, absorption = 0;
  for (const auto& cell : problem.cells) {
    if (cell.fill_kind != FillKind::material || cell.fill < 0) continue;
    for (const auto& [name, density] : problem.materials.at(static_cast<std::size_t>(cell.fill)).nuclides) {
      const auto& n = lib.nuclides.at(static_cast<std::size_t>(lib.find(name)));
      production += density * n.nu0 * n.fission.front();
      absorption += density * (n.capture.front() + n.fission.front());
    }
    break;
  }
  ASSERT_GT(absorption, 0.0);
  const double k_inf = production / absorption;
  const auto r = test::run_quietly(problem, 40000, 50, 10);
  expect_estimators_near(r, k_inf);
}

}  // namespace
}  // namespace keff
