// Reproducibility on one backend, and agreement across backends.
//
// Bit for bit: a run over all ranks of the test (ctest runs it at 1, 2 and 4 ranks, with 1 and 2 OpenMP
// threads each) equals the same run on one rank alone (rank 0 over MPI_COMM_SELF), value by value:
// every batch's k estimators, entropy and fission-site count, the combined k and every tally.
// Both runs are made by this build on this device, so the comparison means the same on every backend.
//
// Event-based transport equals history-based transport bit for bit, at every rank count, and so do runs
// decomposed into 1x1x1, 2x1x1 and 2x2x1 domains (where the rank count allows).
//
// Statistically: GPU math libraries round exp/log/pow differently from glibc, so a CUDA or HIP run
// follows other histories than a CPU run of the same seed. Its k must still agree with the result a
// CPU build stored in tests/reference/cpu_results.txt within 4 combined standard deviations.
// Regenerate that file with a CPU build at one rank:
//   KEFF_UPDATE_REFERENCE=1 build/bin/keff_reproducibility_tests --gtest_filter='*Stored*'
#include <gtest/gtest.h>

#include "io/input/geometry_bounds.hpp"
#include "run_problem.hpp"
#include "src/host/run_error.hpp"

#include <array>
#include <cmath>
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

using Values = std::vector<std::pair<std::string, double>>;

// Everything that must match: per batch, and the accumulated results.
Values values_of(const RunResults& r) {
  Values v;
  for (const auto& b : r.batch) {
    const std::string p = "batch" + std::to_string(b.batch) + "/" + std::to_string(b.generation) + ".";
    v.emplace_back(p + "k_collision", b.k_collision);
    v.emplace_back(p + "k_absorption", b.k_absorption);
    v.emplace_back(p + "k_tracklength", b.k_tracklength);
    v.emplace_back(p + "entropy", b.entropy);
    v.emplace_back(p + "fission_sites", static_cast<double>(b.fission_sites));
    v.emplace_back(p + "leakage", b.leakage);
  }
  v.emplace_back("k_combined.mean", r.k_combined.mean);
  v.emplace_back("k_combined.std", r.k_combined.std);
  v.emplace_back("populations", r.populations.count);
  for (std::size_t i = 0; i < r.populations.k_generations.size(); ++i) {
    v.emplace_back("population_k[" + std::to_string(i) + "]", r.populations.k_generations[i]);
  }
  v.emplace_back("populations.k.mean", r.populations.k.mean);
  v.emplace_back("populations.k.std", r.populations.k.std);
  const auto bins = [&](const char* name, const std::vector<double>& x) {
    for (std::size_t i = 0; i < x.size(); ++i) v.emplace_back(std::string(name) + "[" + std::to_string(i) + "]", x[i]);
  };
  for (const TallyResult& t : r.tallies) {
    bins((t.name + ".mean").c_str(), t.mean);
    bins((t.name + ".std_dev").c_str(), t.std_dev);
  }
  return v;
}

std::string hex(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

void expect_identical(const RunResults& got, const RunResults& want, const std::string& what) {
  const Values a = values_of(got), b = values_of(want);
  ASSERT_EQ(a.size(), b.size()) << what;
  int mismatches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (hex(a[i].second) != hex(b[i].second) && ++mismatches <= 10) {
      ADD_FAILURE() << what << ": " << a[i].first << " = " << hex(a[i].second) << " (" << a[i].second << "), expected "
                    << hex(b[i].second) << " (" << b[i].second << ")";
    }
  }
  EXPECT_EQ(mismatches, 0) << what;
}

// The run over every rank, and on rank 0 the same run alone.
void expect_same_on_every_rank_count(const model::Problem& problem, const std::string& name) {
  const RunResults all = test::run_quietly(problem);
  const Communicator world;
  if (!world.is_root()) return;
  const RunResults alone = test::run_quietly(problem, MPI_COMM_SELF);
  expect_identical(all, alone, name + " at " + std::to_string(world.size()) + " rank(s) vs 1");
}

model::Problem sphere() { return test::example("la13511_pub_sphere.toml"); }

TEST(Reproducibility, DefaultBenchmark) {
  expect_same_on_every_rank_count(test::sized(default_problem(), 1000, 5, 2), "default benchmark");
}

TEST(Reproducibility, MultigroupSphere) {
  expect_same_on_every_rank_count(test::sized(sphere(), 3000, 8, 3), "multigroup sphere");
}

// A bank far too small: batches are rerun on every rank whenever any rank overflows, and the results are
// those of a bank that never overflows.
TEST(Reproducibility, BankOverflowRerunsEverywhere) {
  model::Problem p = test::sized(sphere(), 3000, 6, 2);
  p.settings.initial_k = 0.7;  // the first batch banks about 1/0.7 sites per particle
  p.settings.bank_capacity_factor = 1.0;
  const RunResults small = test::run_quietly(p);
  EXPECT_GT(small.bank_overflows, 0);
  p.settings.bank_capacity_factor = 3.0;
  const RunResults roomy = test::run_quietly(p);
  EXPECT_EQ(roomy.bank_overflows, 0);
  expect_identical(small, roomy, "overflowing bank vs roomy bank");
}

// Event-based transport takes the same steps with the same random numbers as history-based transport:
// identical results, whatever the slot count (few slots: many refills), the lookup order and the sorter
// and what the sort reorders (the particles, moved between two sets of slots every round, or an index).
model::Problem event_based(model::Problem p, std::int64_t slots, EventSort sort,
                           EventSorter sorter = EventSorter::counting, EventReorder reorder = EventReorder::particles) {
  p.settings.transport = TransportMode::event;
  p.settings.event_slots = slots;
  p.settings.event_sort = sort;
  p.settings.event_sorter = sorter;
  p.settings.event_reorder = reorder;
  return p;
}

TEST(Reproducibility, EventEqualsHistoryContinuousEnergy) {
  const model::Problem p = test::sized(default_problem(), 1000, 5, 2);
  const RunResults history = test::run_quietly(p);
  expect_identical(test::run_quietly(event_based(p, 100, EventSort::material_energy)), history,
                   "event (100 slots, sorted by material and energy) vs history");
  expect_identical(test::run_quietly(event_based(p, 0, EventSort::none)), history, "event (default slots, unsorted) vs history");
  expect_identical(test::run_quietly(event_based(p, 100, EventSort::material_energy, EventSorter::kokkos)), history,
                   "event (100 slots, sorted by material and energy with Kokkos' sort_by_key) vs history");
  expect_identical(test::run_quietly(event_based(p, 0, EventSort::material, EventSorter::kokkos)), history,
                   "event (default slots, sorted by material with Kokkos' sort_by_key) vs history");
  expect_identical(
      test::run_quietly(event_based(p, 100, EventSort::material_energy, EventSorter::counting, EventReorder::index)),
      history, "event (100 slots, sorted by material and energy, an index reordered) vs history");
}

TEST(Reproducibility, EventEqualsHistoryMultigroup) {
  const model::Problem p = test::sized(sphere(), 3000, 6, 2);
  const RunResults history = test::run_quietly(p);
  expect_identical(test::run_quietly(event_based(p, 257, EventSort::material)), history,
                   "event (257 slots, sorted by material) vs history");
  expect_identical(test::run_quietly(event_based(p, 5000, EventSort::material_energy)), history,
                   "event (more slots than histories, sorted by material and group) vs history");
  expect_identical(test::run_quietly(event_based(p, 257, EventSort::material_energy, EventSorter::kokkos)), history,
                   "event (257 slots, sorted by material and group with Kokkos' sort_by_key) vs history");
}

// The next batch starts on the source sites a rank combed itself while the other ranks' slices are in
// flight, and transports those as they land: the same results as waiting for the whole exchange.
TEST(Reproducibility, BankExchangeOverlapsTransport) {
  const model::Problem p = test::sized(default_problem(), 2000, 5, 2);
  SimulationOptions blocking;
  blocking.exchange = ExchangeMode::blocking;
  const RunResults waited = test::run_quietly(p, MPI_COMM_WORLD, blocking);
  const RunResults overlapped = test::run_quietly(p);
  expect_identical(overlapped, waited, "overlapped vs blocking bank exchange");
  EXPECT_EQ(waited.exchange.sites_transported_early, 0);
  const Communicator world;
  if (world.size() > 1) {
    EXPECT_GT(overlapped.exchange.isend, 0);
    // Batches 2 to 5 start from exchanged sources; every rank keeps part of its comb at this size.
    EXPECT_GT(overlapped.exchange.sites_transported_early, 0);
  } else {
    EXPECT_EQ(overlapped.exchange.sites_transported_early, 0);  // nothing is exchanged at 1 rank
  }
}

// Domain decomposition tracks each history on the ranks of the domains it passes through, carrying its
// random-number state and estimator scores, and routes the bank and the source between batches: the
// same results as the undecomposed run, for every mesh the rank count allows, overlapped or blocking.
model::Problem decomposed(model::Problem p, std::array<int, 3> mesh) {
  const auto box = geometry_bounding_box(p);
  EXPECT_TRUE(box.has_value());
  p.domains = model::Domains{};
  p.domains->mesh = mesh;
  p.domains->box = *box;
  return p;
}

void expect_decomposed_equal(const model::Problem& p, const std::string& name) {
  const Communicator world;
  RunResults alone;
  if (world.is_root()) alone = test::run_quietly(p, MPI_COMM_SELF);
  for (const std::array<int, 3> mesh : {std::array<int, 3>{1, 1, 1}, {2, 1, 1}, {2, 2, 1}}) {
    if (world.size() % (mesh[0] * mesh[1] * mesh[2]) != 0) continue;
    for (const ExchangeMode mode : {ExchangeMode::overlapped, ExchangeMode::blocking}) {
      SimulationOptions options;
      options.exchange = mode;
      const RunResults r = test::run_quietly(decomposed(p, mesh), MPI_COMM_WORLD, options);
      ASSERT_TRUE(r.domains.has_value());
      if (world.size() > 1 && mesh[0] * mesh[1] * mesh[2] > 1) {
        EXPECT_GT(r.domains->particles_sent, 0) << name << ": no particle crossed a domain border";
      }
      if (world.is_root()) {
        expect_identical(r, alone,
                         name + " in " + std::to_string(mesh[0]) + "x" + std::to_string(mesh[1]) + "x" +
                             std::to_string(mesh[2]) + " domains at " + std::to_string(world.size()) + " rank(s), " +
                             (mode == ExchangeMode::blocking ? "blocking" : "overlapped") + " vs undecomposed alone");
      }
    }
  }
}

TEST(Reproducibility, DomainsEqualUndecomposedLattice) {
  expect_decomposed_equal(test::sized(default_problem(), 1000, 4, 1), "default benchmark");
}

// Particles that arrive from another domain join the sorted lookups, and move with the other slots.
TEST(Reproducibility, DomainsSortedEqualUndecomposedLattice) {
  for (const EventSorter sorter : {EventSorter::counting, EventSorter::kokkos}) {
    model::Problem p = test::sized(default_problem(), 1000, 4, 1);
    p.settings.event_slots = 150;
    p.settings.event_sort = EventSort::material_energy;
    p.settings.event_sorter = sorter;
    p.settings.event_reorder = EventReorder::particles;
    expect_decomposed_equal(p, std::string("default benchmark sorted by ") + std::string(name_of(sorter)));
  }
}

TEST(Reproducibility, DomainsEqualUndecomposedMultigroupSphere) {
  expect_decomposed_equal(test::sized(sphere(), 2000, 5, 2), "multigroup sphere");
}

// ---- batches of several generations (settings.generations_per_batch) ----------------------------------

model::Problem tallies_lattice() { return read_problem_file(std::string(KEFF_TEST_INPUTS) + "/tallies_lattice.toml"); }

model::Problem generations(model::Problem p, int per_batch) {
  p.settings.generations_per_batch = per_batch;
  return p;
}

// The same bits at every rank count and in event mode (`lattice`, with every kind of tally), and in
// domains (`sphere`).
void expect_same_everywhere(const model::Problem& lattice, const model::Problem& sphere, const std::string& name) {
  expect_same_on_every_rank_count(lattice, "tally lattice, " + name);
  const RunResults history = test::run_quietly(lattice);
  expect_identical(test::run_quietly(event_based(lattice, 200, EventSort::material_energy)), history,
                   name + ": event (200 slots, sorted) vs history");
  expect_decomposed_equal(sphere, "multigroup sphere, " + name);
}

TEST(Reproducibility, GenerationsPerBatchEverywhere) {
  expect_same_everywhere(generations(test::sized(tallies_lattice(), 1500, 4, 1), 3),
                         generations(test::sized(sphere(), 2000, 3, 1), 3), "3 generations per batch");
}

// A generation is one source iteration whatever the batches: 4 batches of 3 generations (1 inactive)
// transport the generations of 12 batches of one (3 inactive) with the same random numbers, bit for bit;
// only the statistics group them. Each batch's value is the mean of its generations', so the means over
// active batches equal the means over active generations (to rounding: sums taken in another order),
// for k and every tally bin, and the running k is given at the batches' last generations.
TEST(Reproducibility, GenerationsAreTheSourceIterations) {
  const RunResults grouped = test::run_quietly(generations(test::sized(tallies_lattice(), 1500, 4, 1), 3));
  const RunResults single = test::run_quietly(test::sized(tallies_lattice(), 1500, 12, 3));
  ASSERT_EQ(grouped.batch.size(), single.batch.size());
  for (std::size_t i = 0; i < grouped.batch.size(); ++i) {
    const BatchResult &g = grouped.batch[i], &s = single.batch[i];
    EXPECT_EQ(g.batch, static_cast<int>(i) / 3 + 1);
    EXPECT_EQ(g.generation, static_cast<int>(i) % 3 + 1);
    EXPECT_EQ(g.active, s.active) << i;
    for (const auto& [a, b] : {std::pair{g.k_collision, s.k_collision}, {g.k_absorption, s.k_absorption},
                               {g.k_tracklength, s.k_tracklength}, {g.entropy, s.entropy}, {g.leakage, s.leakage}}) {
      EXPECT_EQ(hex(a), hex(b)) << "generation record " << i;
    }
    EXPECT_EQ(g.fission_sites, s.fission_sites) << i;
    // Over the batches completed: from the end of the first active batch (batch 2) on.
    EXPECT_EQ(g.batch > 2 || (g.batch == 2 && g.generation == 3), g.k_running.kind != KEstimateKind::none) << i;
    if (g.batch == 2 && g.generation < 3) {
      EXPECT_TRUE(std::isnan(g.k_running.mean)) << i;  // null in the JSON, not 0
    }
  }
  for (const auto& [a, b] : {std::pair{grouped.k_collision, single.k_collision}, {grouped.k_absorption, single.k_absorption},
                             {grouped.k_tracklength, single.k_tracklength}, {grouped.leakage, single.leakage}}) {
    EXPECT_NEAR(a.mean, b.mean, 1e-14 * b.mean);
  }
  EXPECT_NE(grouped.k_collision.std, single.k_collision.std);  // 3 batch values of means against 9 generations
  ASSERT_EQ(grouped.tallies.size(), single.tallies.size());
  for (std::size_t t = 0; t < grouped.tallies.size(); ++t) {
    for (std::size_t v = 0; v < grouped.tallies[t].mean.size(); ++v) {
      EXPECT_NEAR(grouped.tallies[t].mean[v], single.tallies[t].mean[v], 1e-12 * std::fabs(single.tallies[t].mean[v]))
          << grouped.tallies[t].name << " value " << v;
    }
  }
  EXPECT_EQ(grouped.k_combined.batches, 3);
  EXPECT_EQ(single.k_combined.batches, 9);
}

// ---- independent populations (settings.populations) --------------------------------------------------

model::Problem populations(model::Problem p, int count) {
  p.settings.populations = count;
  p.settings.populations_automatic = false;
  return p;
}

// Four populations, each combed from its own sites: the same bits at every rank count, in event mode, in
// domains and with batches of several generations.
TEST(Reproducibility, PopulationsEverywhere) {
  expect_same_everywhere(populations(test::sized(tallies_lattice(), 1600, 4, 1), 4),
                         populations(test::sized(sphere(), 2000, 4, 1), 4), "4 populations");
  expect_same_on_every_rank_count(generations(populations(test::sized(sphere(), 2000, 3, 1), 5), 2),
                                  "multigroup sphere, 5 populations, 2 generations per batch");
}

// The populations' estimators add up to the batch's (each population is a quarter of the histories, so
// the batch's k is the mean of theirs), the populations' k is the run's k, and its deviation is that of
// the mean of the populations' own k's. One population is the run as before: no population records.
TEST(Reproducibility, PopulationsAddUpToTheRun) {
  const RunResults r = test::run_quietly(populations(test::sized(sphere(), 2000, 8, 2), 4));
  const PopulationResults& pop = r.populations;
  ASSERT_EQ(pop.count, 4);
  ASSERT_EQ(pop.k_generations.size(), r.batch.size() * 4 * 3);
  for (std::size_t g = 0; g < r.batch.size(); ++g) {
    const double batch[] = {r.batch[g].k_collision, r.batch[g].k_absorption, r.batch[g].k_tracklength};
    for (std::size_t e = 0; e < 3; ++e) {
      double mean = 0;
      for (std::size_t q = 0; q < 4; ++q) mean += pop.k_generations[(g * 4 + q) * 3 + e] / 4;
      EXPECT_NEAR(mean, batch[e], 1e-13 * batch[e]) << "generation " << g + 1 << ", estimator " << e;
    }
  }
  ASSERT_EQ(pop.k_each.size(), 4u);
  EXPECT_NEAR(pop.k.mean, r.k_combined.mean, 1e-13 * r.k_combined.mean);
  double sum_sq = 0;
  for (const double k : pop.k_each) sum_sq += (k - pop.k.mean) * (k - pop.k.mean);
  EXPECT_NEAR(pop.k.std, std::sqrt(sum_sq / 3 / 4), 1e-12);
  EXPECT_GT(pop.k.std, 0.0);
  const RunResults one = test::run_quietly(test::sized(sphere(), 2000, 8, 2));
  EXPECT_EQ(one.populations.count, 1);
  EXPECT_TRUE(one.populations.k_generations.empty());
  EXPECT_TRUE(one.populations.k_each.empty());
}

// A problem built in code is held to what the input refuses: populations that do not divide the
// histories (the last history's population would be out of range) never run.
TEST(Reproducibility, PopulationsThatDoNotDivideAreRefused) {
  try {
    test::run_quietly(populations(test::sized(sphere(), 2000, 3, 1), 3));
    ADD_FAILURE() << "3 populations of 2000 histories ran";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("settings.populations: 2000 particles in 3 populations is not a whole number"),
              std::string::npos)
        << e.what();
  }
}

// ---- agreement with the stored CPU result ----------------------------------------------------------

std::string stored_path() { return std::string(KEFF_REFERENCE_DIR) + "/cpu_results.txt"; }

std::map<std::string, double> read_stored() {
  std::map<std::string, double> out;
  std::ifstream in(stored_path());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key, value;
    fields >> key >> value;
    out[key] = std::strtod(value.c_str(), nullptr);
  }
  return out;
}

bool updating() {
  const char* v = std::getenv("KEFF_UPDATE_REFERENCE");
  return v != nullptr && std::string(v) == "1";
}

struct StatisticalCase {
  std::string name;
  model::Problem problem;
};

std::vector<StatisticalCase> statistical_cases() {
  return {{"default", test::sized(default_problem(), 4000, 15, 5)}, {"sphere", test::sized(sphere(), 4000, 15, 5)}};
}

TEST(Reproducibility, AgreesWithStoredCpuResult) {
  const Communicator world;
  std::map<std::string, double> stored = read_stored();
  std::ostringstream update;
  for (const auto& c : statistical_cases()) {
    const RunResults r = test::run_quietly(c.problem);
    const std::pair<const char*, MeanStd> estimators[] = {{"k_combined", r.k_combined},
                                                         {"k_collision", r.k_collision},
                                                         {"k_tracklength", r.k_tracklength}};
    for (const auto& [estimator, got] : estimators) {
      const std::string key = c.name + "." + estimator;
      if (updating()) {
        update << key << ".mean " << hex(got.mean) << "  # " << got.mean << "\n"
               << key << ".std " << hex(got.std) << "  # " << got.std << "\n";
        continue;
      }
      ASSERT_TRUE(stored.count(key + ".mean") && stored.count(key + ".std"))
          << key << " missing from " << stored_path() << " (regenerate it with a CPU build: see this file's header)";
      const double mean = stored[key + ".mean"], sd = stored[key + ".std"];
      const double sigma = std::sqrt(sd * sd + got.std * got.std);
      ASSERT_GT(sigma, 0.0) << key;
      EXPECT_LE(std::fabs(got.mean - mean), 4 * sigma)
          << key << ": " << got.mean << " +/- " << got.std << " on " << r.execution_space << ", stored CPU result "
          << mean << " +/- " << sd << " (" << std::fabs(got.mean - mean) / sigma << " combined sigma apart)";
    }
  }
  if (updating()) {
    ASSERT_EQ(world.size(), 1) << "write the stored result from a single-rank run";
    std::ofstream out(stored_path(), std::ios::trunc);
    out << "# k of small runs (tests/test_reproducibility.cpp, statistical_cases) from a CPU (OpenMP) build, as\n"
           "# hexadecimal floats: other backends must agree within 4 combined standard deviations.\n"
        << update.str();
    GTEST_SKIP() << "stored result written to " << stored_path();
  }
}

}  // namespace
}  // namespace keff
