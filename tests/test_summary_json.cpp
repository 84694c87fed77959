// The JSON summary: every double round-trips bit for bit, an undefined value is null, a batch's keys come
// in the documented order, and a failed write leaves nothing. The text summary: test_summary_text.cpp;
// the statepoint: test_output.cpp.
#include "output_samples.hpp"

#include "io/output/output.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace keff {
namespace {

using namespace test_output;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void expect_mean_std(const nlohmann::json& j, const MeanStd& m) {
  EXPECT_TRUE(same_bits(j.at("mean").get<double>(), m.mean));
  EXPECT_TRUE(same_bits(j.at("std").get<double>(), m.std));
}

// A deviation of fewer than two batches is not defined: null in the JSON, NaN in the statepoint, never 0.
TEST(SummaryJson, UndefinedValuesAreNull) {
  TempDir dir;
  auto r = sample_results();
  r.k_collision.std = std::numeric_limits<double>::quiet_NaN();
  r.k_combined = KEstimate{};
  r.k_combined.mean = 0.9;
  r.k_combined.kind = KEstimateKind::mean_of_estimators;
  r.k_combined.reason = "1 active batch: no standard deviation yet";
  write_summary_json(dir.file("summary.json"), r);
  const auto j = read_json(dir.file("summary.json"));
  EXPECT_TRUE(j.at("estimators").at("collision").at("std").is_null());
  EXPECT_TRUE(j.at("k").at("std").is_null());
  EXPECT_EQ(j.at("k").at("mean").get<double>(), 0.9);
  EXPECT_EQ(j.at("k").at("reason"), "1 active batch: no standard deviation yet");
}

TEST(SummaryJson, JsonSummaryRoundTripsBitForBit) {
  TempDir dir;
  const auto r = sample_results();
  const std::string path = dir.file("summary.json");
  write_summary_json(path, r);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"summary.json"});  // no temporary left

  const auto j = read_json(path);
  expect_mean_std(j.at("k"), r.k_combined);
  EXPECT_EQ(j.at("k").at("estimate"), "mean_of_estimators");
  EXPECT_EQ(j.at("k").at("reason"), r.k_combined.reason);
  expect_mean_std(j.at("estimators").at("collision"), r.k_collision);
  expect_mean_std(j.at("estimators").at("absorption"), r.k_absorption);
  expect_mean_std(j.at("estimators").at("tracklength"), r.k_tracklength);
  expect_mean_std(j.at("estimators").at("combined"), r.k_combined);

  ASSERT_EQ(j.at("batches").size(), r.batch.size());
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    const auto& jb = j["batches"][i];
    const auto& b = r.batch[i];
    EXPECT_EQ(jb.at("batch").get<int>(), b.batch);
    EXPECT_EQ(jb.at("active").get<bool>(), b.active);
    EXPECT_TRUE(same_bits(jb.at("k").get<double>(), b.k));
    EXPECT_TRUE(same_bits(jb.at("k_collision").get<double>(), b.k_collision));
    EXPECT_TRUE(same_bits(jb.at("k_absorption").get<double>(), b.k_absorption));
    EXPECT_TRUE(same_bits(jb.at("k_tracklength").get<double>(), b.k_tracklength));
    EXPECT_TRUE(same_bits(jb.at("entropy").get<double>(), b.entropy));
    if (b.active) {
      EXPECT_TRUE(same_bits(jb.at("k_mean").get<double>(), b.k_running.mean));
      EXPECT_TRUE(same_bits(jb.at("k_std").get<double>(), b.k_running.std));
    } else {  // no running k before the first active batch
      EXPECT_TRUE(jb.at("k_mean").is_null());
      EXPECT_TRUE(jb.at("k_std").is_null());
    }
    EXPECT_EQ(jb.at("fission_sites").get<std::int64_t>(), b.fission_sites);
  }
  EXPECT_TRUE(same_bits(j.at("particles_per_second").get<double>(), r.particles_per_second));
  for (const auto& t : r.timing) {
    const auto& jt = j.at("timing").at(t.phase);
    EXPECT_TRUE(same_bits(jt.at("min").get<double>(), t.min));
    EXPECT_TRUE(same_bits(jt.at("mean").get<double>(), t.mean));
    EXPECT_TRUE(same_bits(jt.at("max").get<double>(), t.max));
  }
  std::vector<std::string> phases;  // in report order
  const auto ordered = nlohmann::ordered_json::parse(std::ifstream(path));
  for (const auto& item : ordered.at("timing").items()) phases.push_back(item.key());
  EXPECT_EQ(phases, (std::vector<std::string>{"initialization", "transport", "bank"}));

  const auto& run = j.at("run");
  EXPECT_EQ(run.at("input"), r.input);
  EXPECT_EQ(run.at("mode"), r.mode);
  EXPECT_EQ(run.at("energy_grid"), r.energy_grid);
  EXPECT_EQ(run.at("execution_space"), r.execution_space);
  EXPECT_EQ(run.at("threads"), r.threads);
  EXPECT_EQ(run.at("ranks"), r.ranks);
  EXPECT_EQ(run.at("seed").get<std::uint64_t>(), r.seed);
  EXPECT_EQ(run.at("particles"), r.particles);
  EXPECT_EQ(run.at("batches"), r.batches);
  EXPECT_EQ(run.at("inactive"), r.inactive);
  EXPECT_EQ(run.at("nuclides"), r.nuclides);
  EXPECT_EQ(run.at("gridpoints"), r.gridpoints);
  EXPECT_EQ(j.at("lost_particles"), r.lost_particles);
  EXPECT_EQ(j.at("bank_overflows"), r.bank_overflows);

  const auto& tally = j.at("tallies").at(0);
  EXPECT_EQ(tally.at("name"), "pins");
  EXPECT_EQ(tally.at("shape").get<std::vector<int>>(), (std::vector<int>{6, 2, 2}));
  EXPECT_EQ(tally.at("filters").at(0).at("shape").get<std::vector<int>>(), (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(tally.at("filters").at(1).at("bounds").get<std::vector<double>>(), r.tallies[0].filters[1].bounds);
  EXPECT_EQ(tally.at("scores").get<std::vector<std::string>>(), r.tallies[0].scores);
  const auto mean = tally.at("mean").get<std::vector<double>>();
  const auto std_dev = tally.at("std_dev").get<std::vector<double>>();
  ASSERT_EQ(mean.size(), r.tallies[0].mean.size());
  for (std::size_t i = 0; i < mean.size(); ++i) {
    EXPECT_TRUE(same_bits(mean[i], r.tallies[0].mean[i]));
    EXPECT_TRUE(same_bits(std_dev[i], r.tallies[0].std_dev[i]));
  }
  EXPECT_TRUE(same_bits(j.at("leakage").at("mean").get<double>(), r.leakage.mean));
}

TEST(SummaryJson, JsonDoublesRoundTripInBulk) {
  // nlohmann prints the shortest representation that reads back exactly: check many random bit patterns.
  std::mt19937_64 rng(7);
  RunResults r;
  r.tallies.resize(1);
  std::vector<double>& values = r.tallies[0].mean;
  for (int i = 0; i < 20000; ++i) {
    double v = 0;
    do v = std::bit_cast<double>(rng()); while (!std::isfinite(v));
    values.push_back(v);
  }
  TempDir dir;
  write_summary_json(dir.file("s.json"), r);
  const auto back = read_json(dir.file("s.json")).at("tallies").at(0).at("mean").get<std::vector<double>>();
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < back.size(); ++i) ASSERT_TRUE(same_bits(back[i], values[i])) << i;
}

TEST(SummaryJson, JsonIntoMissingDirectoryThrows) {
  TempDir dir;
  const std::string path = dir.file("missing/summary.json");
  try {
    write_summary_json(path, sample_results());
    FAIL() << "no OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing/summary.json"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

// A batch's keys in the order examples/OUTPUTS.md documents, its CMFD solve's after its own (and why a solve
// failed, after them); the running k null before the first active batch.
TEST(SummaryJson, JsonBatchKeysInDocumentedOrder) {
  TempDir dir;
  write_summary_json(dir.file("s.json"), fixed_results());
  const auto batches = nlohmann::ordered_json::parse(std::ifstream(dir.file("s.json"))).at("batches");
  const std::vector<std::string> own{"batch", "generation", "active", "k", "k_collision", "k_absorption", "k_tracklength",
                                     "entropy", "k_mean", "k_std", "fission_sites", "leakage"};
  std::vector<std::string> solved = own;
  for (const char* key : {"k_cmfd", "cmfd_entropy", "cmfd_outer_iterations", "cmfd_inner_iterations", "cmfd_converged",
                          "cmfd_multigrid"}) {
    solved.push_back(key);
  }
  const auto keys = [](const nlohmann::ordered_json& batch) {
    std::vector<std::string> out;
    for (const auto& item : batch.items()) out.push_back(item.key());
    return out;
  };
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(keys(batches[0]), own);
  std::vector<std::string> failed = solved;
  failed.push_back("cmfd_failure");
  EXPECT_EQ(keys(batches[1]), failed);  // its solve did not converge
  EXPECT_EQ(keys(batches[2]), solved);
  EXPECT_TRUE(batches[0].at("k_mean").is_null());
  EXPECT_EQ(batches[1].at("k_mean").get<double>(), 1.5);
  EXPECT_EQ(batches[2].at("k_cmfd").get<double>(), 3.1875);
  EXPECT_EQ(batches[2].at("cmfd_converged").get<bool>(), true);
  EXPECT_EQ(batches[1].at("cmfd_multigrid").get<bool>(), true);  // batch 2 was preconditioned by it
  EXPECT_EQ(batches[2].at("cmfd_multigrid").get<bool>(), false);
}

}  // namespace
}  // namespace keff
