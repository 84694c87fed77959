// Bit-for-bit reproducibility across ranks and threads: small runs of the default (continuous-energy)
// benchmark and a multigroup sphere, in-process, compared value by value (every batch's k estimators
// and entropy, the combined k, the mesh tally) against a single-rank reference stored as hexadecimal
// floats in tests/reference/reproducibility_<case>.txt. ctest runs this at 1, 2 and 4 ranks with 1 and 2
// OpenMP threads each.
//
// The reference holds the bits this build's floating-point code produces: a different compiler, flags
// or architecture may round differently (contraction into FMA, vectorised math) and needs its own.
// Regenerate it at one rank with
//   KEFF_UPDATE_REFERENCE=1 build/bin/keff_reproducibility_tests
#include <gtest/gtest.h>

#include "run_problem.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace keff {
namespace {

std::string reference_path(const std::string& name) {
  return std::string(KEFF_REFERENCE_DIR) + "/reproducibility_" + name + ".txt";
}

using Values = std::vector<std::pair<std::string, double>>;

// Everything the issue requires to match: per batch, and the accumulated results.
Values values_of(const RunResults& r) {
  Values v;
  for (const auto& b : r.batch) {
    const std::string p = "batch" + std::to_string(b.batch) + ".";
    v.emplace_back(p + "k_collision", b.k_collision);
    v.emplace_back(p + "k_absorption", b.k_absorption);
    v.emplace_back(p + "k_tracklength", b.k_tracklength);
    v.emplace_back(p + "entropy", b.entropy);
    v.emplace_back(p + "fission_sites", static_cast<double>(b.fission_sites));
  }
  v.emplace_back("k_combined.mean", r.k_combined.mean);
  v.emplace_back("k_combined.std", r.k_combined.std);
  const auto bins = [&](const char* name, const std::vector<double>& x) {
    for (std::size_t i = 0; i < x.size(); ++i) v.emplace_back(std::string(name) + "[" + std::to_string(i) + "]", x[i]);
  };
  bins("flux_mean", r.mesh.flux_mean);
  bins("flux_std", r.mesh.flux_std);
  bins("fission_mean", r.mesh.fission_mean);
  bins("fission_std", r.mesh.fission_std);
  return v;
}

std::string hex(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

// name -> value, as stored; empty when there is no file.
std::map<std::string, double> read_reference(const std::string& name) {
  std::map<std::string, double> out;
  std::ifstream in(reference_path(name));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key, value;
    fields >> key >> value;
    out[key] = std::strtod(value.c_str(), nullptr);  // strtod reads hexadecimal floats exactly
  }
  return out;
}

bool updating() {
  const char* v = std::getenv("KEFF_UPDATE_REFERENCE");
  return v != nullptr && std::string(v) == "1";
}

void write_reference(const std::string& name, const Values& values) {
  std::ofstream out(reference_path(name), std::ios::trunc);
  out << "# keff reproducibility reference '" << name << "': a single-rank run, values as hexadecimal floats.\n"
         "# Depends on the build's floating-point code generation. Regenerate at one rank with\n"
         "#   KEFF_UPDATE_REFERENCE=1 build/bin/keff_reproducibility_tests\n";
  for (const auto& [key, x] : values) out << key << " " << hex(x) << "\n";
}

void check_against_reference(const std::string& name, const RunResults& r) {
  const Values got = values_of(r);
  if (updating()) {
    const Communicator comm;
    ASSERT_EQ(comm.size(), 1) << "write the reference from a single-rank run";
    write_reference(name, got);
    GTEST_SKIP() << "reference written to " << reference_path(name);
  }
  const auto ref = read_reference(name);
  ASSERT_FALSE(ref.empty()) << "no reference in " << reference_path(name)
                            << " (regenerate: KEFF_UPDATE_REFERENCE=1 keff_reproducibility_tests)";
  EXPECT_EQ(ref.size(), got.size()) << "the reference has a different number of values";
  int mismatches = 0;
  for (const auto& [key, x] : got) {
    const auto r_it = ref.find(key);
    if (r_it == ref.end()) {
      ADD_FAILURE() << name << ": " << key << " missing from the reference";
    } else if (hex(r_it->second) != hex(x) && ++mismatches <= 10) {
      ADD_FAILURE() << name << ": " << key << " = " << hex(x) << " (" << x << "), reference " << hex(r_it->second)
                    << " (" << r_it->second << ")";
    }
  }
  EXPECT_EQ(mismatches, 0);
}

RunResults default_case() { return test::run_quietly(default_problem(), 1000, 5, 2); }

model::Problem sphere() { return test::example("la13511_pub_sphere.toml"); }

TEST(Reproducibility, DefaultBenchmark) { check_against_reference("default", default_case()); }

TEST(Reproducibility, MultigroupSphere) {
  check_against_reference("multigroup", test::run_quietly(sphere(), 3000, 8, 3));
}

// A bank far too small: batches are rerun on every rank whenever any rank overflows, and the results are
// those of a bank that never overflows.
TEST(Reproducibility, BankOverflowRerunsEverywhere) {
  model::Problem p = sphere();
  p.settings.initial_k = 0.7;  // the first batch banks about 1/0.7 sites per particle
  p.settings.bank_capacity_factor = 1.0;
  const RunResults small = test::run_quietly(p, 3000, 6, 2);
  EXPECT_GT(small.bank_overflows, 0);
  check_against_reference("overflow", small);
  p.settings.bank_capacity_factor = 3.0;
  const RunResults roomy = test::run_quietly(p, 3000, 6, 2);
  EXPECT_EQ(roomy.bank_overflows, 0);
  const Values a = values_of(small), b = values_of(roomy);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(hex(a[i].second), hex(b[i].second)) << a[i].first;
}

}  // namespace
}  // namespace keff
