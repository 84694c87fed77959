#pragma once
// What the output tests share: a fresh directory per test, bit-for-bit comparison of doubles, run
// results full of awkward doubles that every writer and reader must carry unchanged, and results of
// exact values with every kind of record in use.
#include "io/output/output.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace keff::test_output {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("keff_io_" + std::string(test->name()) + "_" + std::to_string(static_cast<long>(::getpid())));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    return out;
  }

 private:
  fs::path path_;
};

inline bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Results with awkward doubles: random mantissas across many decades, a subnormal, the extremes.
inline RunResults sample_results() {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> unit(0.5, 1.5);
  std::uniform_int_distribution<int> decade(-300, 300);
  auto awkward = [&] { return unit(rng) * std::pow(10.0, decade(rng)); };

  RunResults r;
  r.input = "examples/default.toml";
  r.mode = "continuous-energy";
  r.energy_grid = "hash";
  r.execution_space = "OpenMP";
  r.threads = 2;
  r.ranks = 1;
  r.seed = std::numeric_limits<std::uint64_t>::max() / 3;
  r.particles = 10000;
  r.batches = 5;
  r.inactive = 2;
  r.nuclides = 68;
  r.gridpoints = 11303;
  for (int b = 1; b <= r.batches; ++b) {
    BatchResult br;
    br.batch = b;
    br.active = b > r.inactive;
    br.k = unit(rng);
    br.k_collision = unit(rng);
    br.k_absorption = unit(rng);
    br.k_tracklength = unit(rng);
    br.entropy = 6 * unit(rng);
    br.k_running.mean = unit(rng);
    br.k_running.std = awkward();
    br.k_running.kind = br.active ? KEstimateKind::combined : KEstimateKind::none;
    br.fission_sites = 10000 + b;
    r.batch.push_back(br);
  }
  r.batch[0].k = 0.1 + 0.2;                                  // 0.30000000000000004
  r.batch[1].k_collision = std::numeric_limits<double>::denorm_min();
  r.batch[2].k_absorption = std::numeric_limits<double>::max();
  r.batch[3].entropy = 1.0 / 3.0;
  r.k_collision = {unit(rng), awkward()};
  r.k_absorption = {unit(rng), awkward()};
  r.k_tracklength = {unit(rng), awkward()};
  r.k_combined.mean = unit(rng);
  r.k_combined.std = awkward();
  r.k_combined.kind = KEstimateKind::mean_of_estimators;
  r.k_combined.reason = "3 active batches: the combination needs at least 10";
  r.particles_per_second = 123456.789;
  r.timing = {{"initialization", awkward(), awkward(), awkward()},
              {"transport", unit(rng), unit(rng), unit(rng)},
              {"bank", unit(rng) * 1e-3, unit(rng) * 1e-3, unit(rng) * 1e-3}};
  r.lost_particles = 3;
  r.bank_overflows = 1;

  r.leakage = {unit(rng), awkward()};
  TallyResult t;
  t.name = "pins";
  t.estimator = "tracklength";
  t.scores = {"flux", "fission"};
  t.units = {"particle-cm per source particle", "reactions per source particle"};
  TallyFilterResult mesh;
  mesh.kind = "mesh";
  mesh.form = "mesh";
  mesh.bins = 6;
  mesh.shape = {3, 2, 1};
  mesh.lower = {-1.5, -1.0, -0.5};
  mesh.upper = {1.5, 1.0, 0.5};
  TallyFilterResult energy;
  energy.kind = "energy";
  energy.form = "bounds";
  energy.units = "eV";
  energy.bins = 2;
  energy.bounds = {1e-5, 0.625, 2e7};
  t.filters = {mesh, energy};
  // The sums as the 3 active batches' values make them (every reader checks that); the means and
  // deviations awkward doubles.
  for (int i = 0; i < 6 * 2 * 2; ++i) {
    t.mean.push_back(awkward());
    t.std_dev.push_back(awkward());
    double sum = 0, sum_sq = 0;
    for (int b = 0; b < 3; ++b) {
      const double x = unit(rng);
      sum += x;
      sum_sq += x * x;
    }
    t.sum.push_back(sum);
    t.sum_sq.push_back(sum_sq);
  }
  r.tallies = {t};
  for (int i = 0; i < 7; ++i) {
    Site s;
    s.r = {awkward(), -unit(rng), unit(rng)};
    s.u = {0.6, -0.8, 0.0};
    s.energy = 2e6 * unit(rng);
    s.group = i % 2;
    s.progeny = i % 3;
    s.weight = unit(rng);
    s.parent = (std::int64_t{1} << 40) + i;
    r.source_bank.push_back(s);
  }
  return r;
}

// Results of exact values with every kind of record in use (batches, CMFD solves, sites), so what is
// computed from them does not depend on the standard library's random distributions.
inline RunResults fixed_results() {
  RunResults r;
  r.input = "fixed.toml";
  r.mode = "multigroup";
  r.seed = 7;
  r.particles = 2;
  r.batches = 3;
  r.inactive = 1;
  r.lost_particles = 1;
  r.bank_overflows = 2;
  r.restart.fingerprint = 0x0123456789abcdefull;
  r.restart.k_prev = 1.375;
  r.tallies.resize(1);
  r.tallies[0].name = "fixed";
  r.tallies[0].estimator = "collision";
  r.tallies[0].scores = {"flux", "fission"};
  r.tallies[0].units = {"particle-cm per source particle", "reactions per source particle"};
  r.tallies[0].mean = {0.25, 0.375};
  r.tallies[0].std_dev = {0.0, 0.0};
  r.tallies[0].sum = {0.5, 0.75};
  r.tallies[0].sum_sq = {0.25, 0.5625};
  for (int b = 1; b <= r.batches; ++b) {
    BatchResult br;
    br.batch = b;
    br.active = b > r.inactive;
    br.k = 1 + b / 8.0;
    br.k_collision = br.k;
    br.k_absorption = 1 + b / 16.0;
    br.k_tracklength = 1 + b / 32.0;
    br.entropy = b / 4.0;
    br.k_running.mean = br.active ? 1.5 : 0.0;
    br.k_running.std = b == 3 ? 0.125 : std::numeric_limits<double>::quiet_NaN();
    br.fission_sites = 10 + b;
    if (br.active) {
      CmfdResult c;
      c.k = 1.0625 * b;
      c.outer_iterations = 4 + b;
      c.inner_iterations = 20 + b;
      c.converged = b == 3;
      c.multigrid = b == 2;
      c.entropy = 0.5 * b;
      br.cmfd = c;
    }
    r.batch.push_back(br);
  }
  r.source_bank = {Site{{0.5, -0.25, 2.0}, {0.0, 0.6, -0.8}, 0, 1, 3, 1, 17},
                   Site{{-1.0, 0.125, 0.0}, {1.0, 0.0, 0.0}, 0, 0, 0, 1, 18}};
  r.cmfd = CmfdReport{};
  r.cmfd->shape = {2, 2, 1};
  r.cmfd->groups = 2;
  r.cmfd->begin = 2;
  r.cmfd->feedback = true;
  r.cmfd->window = "rolling";
  r.cmfd->window_size = 2;
  r.restart.cmfd = CmfdWindowData{{5, 6}, {2, 3}, {}, {2, 3, 3, 3}, {}};
  return r;
}

}  // namespace keff::test_output
