// The statepoint: it reads back through the HDF5 wrapper unchanged, bit for bit, and refuses what a run
// cannot have written. The JSON summary: test_summary_json.cpp; output paths and the HDF5 wrapper on
// their own: test_output_paths.cpp.
#include "output_samples.hpp"

#include "io/hdf5_file.hpp"
#include "io/output/output.hpp"
#include "io/output/results_check.hpp"
#include "io/printable.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace keff {
namespace {

using namespace test_output;

TEST(Output, StatepointReadsBack) {
  TempDir dir;
  const auto r = sample_results();
  const std::string path = dir.file("statepoint.h5");
  write_statepoint(path, r);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"statepoint.h5"});  // no temporary left

  auto file = H5File::open(path);
  EXPECT_EQ(file.attribute_string("filetype"), "statepoint");
  EXPECT_EQ(file.attribute_int64("version"), 11);
  EXPECT_EQ(file.attribute_string("input"), r.input);
  EXPECT_EQ(file.attribute_string("mode"), r.mode);
  EXPECT_EQ(file.attribute_string("execution_space"), r.execution_space);
  EXPECT_EQ(static_cast<std::uint64_t>(file.attribute_int64("seed")), r.seed);
  EXPECT_EQ(file.attribute_int64("particles"), r.particles);
  EXPECT_EQ(file.attribute_int64("batches_done"), 5);
  EXPECT_EQ(file.attribute_int64("lost_particles"), 3);
  EXPECT_TRUE(same_bits(file.attribute_double("particles_per_second"), r.particles_per_second));
  {
    const auto batches = file.open_group("batches");
    const auto k = batches.read_doubles("k");
    const auto entropy = batches.read_doubles("entropy");
    const auto active = batches.read_int64s("active");
    ASSERT_EQ(k.size(), r.batch.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
      EXPECT_TRUE(same_bits(k[i], r.batch[i].k));
      EXPECT_TRUE(same_bits(entropy[i], r.batch[i].entropy));
      EXPECT_EQ(active[i], r.batch[i].active ? 1 : 0);
    }
    EXPECT_TRUE(same_bits(batches.read_doubles("k_collision")[1], r.batch[1].k_collision));

    const auto combined = file.open_group("estimators").read_doubles("combined");
    EXPECT_EQ(combined, (std::vector<double>{r.k_combined.mean, r.k_combined.std}));
    EXPECT_EQ(file.open_group("timing").read_doubles("transport"),
              (std::vector<double>{r.timing[1].min, r.timing[1].mean, r.timing[1].max}));

    const auto tally = file.open_group("tallies").open_group("pins");
    EXPECT_EQ(tally.shape("mean"), (std::vector<std::size_t>{6, 2, 2}));  // [mesh bins][energy bins][scores]
    EXPECT_EQ(tally.read_doubles("mean"), r.tallies[0].mean);
    EXPECT_EQ(tally.read_strings("scores"), r.tallies[0].scores);
    EXPECT_EQ(tally.open_group("filters").open_group("0").read_int64s("shape"), (std::vector<std::int64_t>{3, 2, 1}));
    EXPECT_EQ(file.open_group("tallies").read_strings("names"), std::vector<std::string>{"pins"});

    const auto bank = file.open_group("source_bank");
    const std::size_t n = r.source_bank.size();
    EXPECT_EQ(bank.shape("r"), (std::vector<std::size_t>{n, 3}));
    const auto pos = bank.read_doubles("r");
    const auto dir_u = bank.read_doubles("u");
    const auto energy = bank.read_doubles("energy");
    const auto weight = bank.read_doubles("weight");
    const auto group = bank.read_int64s("group");
    const auto parent = bank.read_int64s("parent");
    const auto progeny = bank.read_int64s("progeny");
    for (std::size_t i = 0; i < n; ++i) {
      const auto& s = r.source_bank[i];
      for (int d = 0; d < 3; ++d) {
        EXPECT_TRUE(same_bits(pos[3 * i + d], s.r[d]));
        EXPECT_TRUE(same_bits(dir_u[3 * i + d], s.u[d]));
      }
      EXPECT_TRUE(same_bits(energy[i], s.energy));
      EXPECT_TRUE(same_bits(weight[i], s.weight));
      EXPECT_EQ(group[i], s.group);
      EXPECT_EQ(parent[i], s.parent);
      EXPECT_EQ(progeny[i], s.progeny);
    }
  }
  file.close();
}

// A restart reads back exactly what it needs to continue bit for bit.
TEST(Output, StatepointReadsBackForRestart) {
  TempDir dir;
  RunResults r = sample_results();
  r.restart.fingerprint = 0xfedcba9876543210ull;  // top bit set: survives the signed attribute
  r.restart.k_prev = 1.0 / 3.0;
  r.tallies[0].sum[0] = 0.1 + 0.2;
  r.tallies[0].sum_sq[0] = 0.04;
  r.tallies[0].sum[1] = 1e-150;
  r.tallies[0].sum_sq[1] = 1e-300;
  r.generations_per_batch = 4;
  r.restart.tally_partial.assign(r.tallies[0].sum.size(), 0.1 + 0.2);  // a batch under way
  r.restart.tally_partial_weight = 3000.5;
  // Each batch its four generations, the records numbered as a run numbers them; three populations whose
  // k's average to each generation's (around it by awkward amounts, none where that would overflow).
  const std::vector<BatchResult> batches = r.batch;
  r.batch.clear();
  r.populations.count = 3;
  for (const BatchResult& b : batches) {
    for (int g = 1; g <= 4; ++g) {
      BatchResult gen = b;
      gen.generation = g;
      r.batch.push_back(gen);
      for (const double k : {gen.k_collision, gen.k_absorption, gen.k_tracklength}) {
        const double d = k < 1e300 ? k / (3.0 + g) : 0.0;
        r.populations.k_generations.push_back(k - d);
        r.populations.k_generations.push_back(k);
        r.populations.k_generations.push_back(k + d);
      }
    }
  }
  // The values of generation, population, estimator, as k_generations holds them.
  std::vector<double> by_generation(r.populations.k_generations.size());
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    for (std::size_t q = 0; q < 3; ++q) {
      for (std::size_t e = 0; e < 3; ++e) by_generation[(i * 3 + q) * 3 + e] = r.populations.k_generations[(i * 3 + e) * 3 + q];
    }
  }
  r.populations.k_generations = by_generation;
  write_statepoint(dir.file("sp.h5"), r);
  const RunResults back = read_statepoint(dir.file("sp.h5"));
  EXPECT_EQ(back.populations.count, 3);
  EXPECT_EQ(back.populations.k_generations, r.populations.k_generations);
  EXPECT_EQ(back.restart.fingerprint, r.restart.fingerprint);
  EXPECT_TRUE(same_bits(back.restart.k_prev, r.restart.k_prev));
  EXPECT_EQ(back.generations_per_batch, 4);
  EXPECT_EQ(back.restart.tally_partial, r.restart.tally_partial);
  EXPECT_TRUE(same_bits(back.restart.tally_partial_weight, r.restart.tally_partial_weight));
  ASSERT_EQ(back.tallies.size(), 1u);
  EXPECT_EQ(back.tallies[0].name, "pins");
  EXPECT_EQ(back.tallies[0].sum, r.tallies[0].sum);
  EXPECT_EQ(back.tallies[0].sum_sq, r.tallies[0].sum_sq);
  // The whole of a tally, for keff tally show.
  const std::vector<TallyResult> shown = read_statepoint_tallies(dir.file("sp.h5"));
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].mean, r.tallies[0].mean);
  EXPECT_EQ(shown[0].filters[1].bounds, r.tallies[0].filters[1].bounds);
  EXPECT_EQ(shown[0].units, r.tallies[0].units);
  EXPECT_EQ(back.seed, r.seed);
  EXPECT_EQ(back.particles, r.particles);
  EXPECT_EQ(back.lost_particles, r.lost_particles);
  EXPECT_EQ(back.bank_overflows, r.bank_overflows);
  ASSERT_EQ(back.batch.size(), r.batch.size());
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    EXPECT_EQ(back.batch[i].batch, r.batch[i].batch);
    EXPECT_EQ(back.batch[i].generation, r.batch[i].generation);
    EXPECT_EQ(back.batch[i].active, r.batch[i].active);
    EXPECT_TRUE(same_bits(back.batch[i].k_collision, r.batch[i].k_collision));
    EXPECT_TRUE(same_bits(back.batch[i].k_running.std, r.batch[i].k_running.std));
  }
  ASSERT_EQ(back.source_bank.size(), r.source_bank.size());
  for (std::size_t i = 0; i < r.source_bank.size(); ++i) {
    EXPECT_EQ(std::memcmp(&back.source_bank[i], &r.source_bank[i], sizeof(Site)), 0) << "site " << i;
  }
}

// The checksum is a function of the values a reader reads, fixed for a layout version, so a statepoint
// written by an earlier keff of the same version still reads: pinned here, so that a change to how it is
// formed (the order of its values included) shows. Version 7 (generations per batch, each record's
// generation and the tallies of a batch under way joined it); version 8 ([cmfd] end); version 9 (each CMFD
// solve's multigrid flag); version 10 (the thermal physics, NCrystal's version and its data's digests); version 11 (the
// settings a restart matches).
TEST(Output, StatepointChecksumIsStable) {
  TempDir dir;
  write_statepoint(dir.file("sp.h5"), fixed_results());
  EXPECT_EQ(H5File::open(dir.file("sp.h5")).attribute_int64("checksum"), std::int64_t{-922555763123930164});
}

// A record's listed fields as words (reals by their bits), so two records compare field by field.
template <class Record>
std::vector<std::uint64_t> listed_words(const Record& record) {
  std::vector<std::uint64_t> words;
  for_each_field(record, [&](const char*, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, Vec3>) {
      for (int d = 0; d < 3; ++d) words.push_back(std::bit_cast<std::uint64_t>(v[d]));
    } else if constexpr (std::is_floating_point_v<T>) {
      words.push_back(std::bit_cast<std::uint64_t>(v));
    } else {
      words.push_back(static_cast<std::uint64_t>(v));
    }
  });
  return words;
}

// Every field a list names comes back from a statepoint bit for bit, a field added to a list included.
TEST(Output, StatepointReadsBackEveryListedField) {
  TempDir dir;
  const RunResults r = fixed_results();
  write_statepoint(dir.file("sp.h5"), r);
  const RunResults back = read_statepoint(dir.file("sp.h5"));
  ASSERT_EQ(back.batch.size(), r.batch.size());
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    EXPECT_EQ(listed_words(back.batch[i]), listed_words(r.batch[i])) << "batch " << i;
    ASSERT_EQ(back.batch[i].cmfd.has_value(), r.batch[i].cmfd.has_value()) << "batch " << i;
    if (r.batch[i].cmfd) {
      EXPECT_EQ(listed_words(*back.batch[i].cmfd), listed_words(*r.batch[i].cmfd)) << "batch " << i;
    }
  }
  ASSERT_EQ(back.source_bank.size(), r.source_bank.size());
  for (std::size_t i = 0; i < r.source_bank.size(); ++i) {
    EXPECT_EQ(listed_words(back.source_bank[i]), listed_words(r.source_bank[i])) << "site " << i;
  }
}

TEST(Output, ReadingSomethingElseAsStatepointThrows) {
  TempDir dir;
  {
    H5File f = H5File::create(dir.file("other.h5"));
    f.set_attribute("filetype", "library");
    f.close();
  }
  EXPECT_THROW(read_statepoint(dir.file("other.h5")), OutputError);
  EXPECT_THROW(read_statepoint(dir.file("missing.h5")), OutputError);
}

// A statepoint forged and signed again (the checksum is no secret: write_statepoint signs whatever it is
// given, as a forger can) is still refused by every reader, with one line naming what is wrong: a
// description that does not match the values (these crashed `keff tally show`: a zero mesh shape,
// SIGFPE; bins past the names, units or energy bounds, SIGSEGV), results no run makes (a NaN mean, sums of 1e150),
// CMFD's solves and warm start as no solve leaves them. (Shapes the writer itself cannot write, a bin
// count or a score list that disagrees with the values, are edited into a file by the Python test.)
TEST(Output, ForgedStatepointsAreRefused) {
  TempDir dir;
  const auto refusal = [&](const std::function<void(RunResults&)>& forge) {
    RunResults r = sample_results();
    r.cmfd = CmfdReport{};
    r.cmfd->shape = {2, 2, 1};
    r.restart.cmfd = CmfdWindowData{{0}, {}, {}, {}, {1.0, 2.0, 0.5, 0.25}};
    forge(r);
    write_statepoint(dir.file("forged.h5"), r);
    try {
      read_statepoint_tallies(dir.file("forged.h5"));
    } catch (const OutputError& e) {
      return std::string(e.what());
    }
    return std::string("(read without complaint)");
  };
  EXPECT_EQ(refusal([](RunResults&) {}), "(read without complaint)");
  const std::pair<const char*, std::function<void(RunResults&)>> cases[] = {
      {"mesh shape 0 x 0 x 0 (allowed: at least 1 bin", [](RunResults& r) { r.tallies[0].filters[0].shape = {0, 0, 0}; }},
      {"dataset '/tallies/pins/units' holds 1 values (allowed: 2)", [](RunResults& r) { r.tallies[0].units.pop_back(); }},
      {"dataset '/tallies/pins/filters/1/names' holds 1 values (allowed: 2)", [](RunResults& r) {
         r.tallies[0].filters[1] = TallyFilterResult{"cell", "names", "", 2, {1, 1, 1}, {}, {}, {}, {"fuel"}, {}};
       }},
      {"dataset '/tallies/pins/filters/1/bounds' holds 2 values (allowed: 3)", [](RunResults& r) {
         r.tallies[0].filters[1] = TallyFilterResult{"energy", "bounds", "eV", 2, {1, 1, 1}, {}, {}, {0.0, 1.0}, {}, {}};
       }},
      {"an energy filter of form 'names' in 'eV' (allowed: form 'bounds', units 'eV')",
       [](RunResults& r) { r.tallies[0].filters[1].form = "names"; }},
      {"energy bound 0 is -1 (allowed: ascending, >= 0, at most 1.0000000000000001e+300)",
       [](RunResults& r) { r.tallies[0].filters[1].bounds[0] = -1; }},
      {"energy bound 1 is 1e+308 (allowed: ascending, >= 0, at most 1.0000000000000001e+300)",
       [](RunResults& r) { r.tallies[0].filters[1].bounds[1] = 1e308; }},
      {"score 'heat'", [](RunResults& r) { r.tallies[0].scores[0] = "heat"; }},
      {"the units of flux are 'furlongs'", [](RunResults& r) { r.tallies[0].units[0] = "furlongs"; }},
      {"value 3 has mean nan and deviation", [](RunResults& r) { r.tallies[0].mean[3] = std::nan(""); }},
      // Populations whose k's do not make up their generation's (all 3.9e7 where every k is near 1), and a
      // forged generation number, which changes the active batches: named as such, not as tally sums.
      {"batch 1: its 2 populations' collision k's average 39000000, and its own is ", [](RunResults& r) {
         r.populations.count = 2;
         r.populations.k_generations.assign(r.batch.size() * 6, 3.9e7);
       }},
      {"batch record 3 is batch 4 generation 2 (active) (allowed: batch 4, active)",
       [](RunResults& r) { r.batch[3].generation = 2; }},
      {"holds sum 9.9999999999999998e+149 over 3 active batches (allowed: at most", [](RunResults& r) {
         r.tallies[0].sum[0] = 1e150;
         r.tallies[0].sum_sq[0] = 1e300;
       }},
      {"the CMFD solve after batch 4 converged with k_cmfd = nan", [](RunResults& r) {
         r.batch[3].cmfd = CmfdResult{};
         r.batch[3].cmfd->k = std::nan("");
         r.batch[3].cmfd->converged = true;
       }},
      {"and entropy -299 bits", [](RunResults& r) {
         r.batch[3].cmfd = CmfdResult{};
         r.batch[3].cmfd->k = 1.1;
         r.batch[3].cmfd->entropy = -299;
       }},
      {"the CMFD warm-start flux is not a flux a solve converges to", [](RunResults& r) {
         for (double& v : r.restart.cmfd->flux) v = -v;
       }},
      {"the CMFD warm-start flux is not a flux a solve converges to", [](RunResults& r) {
         for (double& v : r.restart.cmfd->flux) v = 0;
       }},
      {"populations = 40 (allowed: 2 to 32", [](RunResults& r) {
         r.populations.count = 40;
         r.populations.k_generations.assign(r.batch.size() * 120, 1.0);
       }},
      {"dataset '/population_k' is missing or not", [](RunResults& r) {
         r.populations.count = 2;
         r.populations.k_generations.assign(r.batch.size() * 6 + 1, 1.0);
       }},
  };
  for (const auto& [expected, forge] : cases) {
    const std::string what = refusal(forge);
    EXPECT_NE(what.find(expected), std::string::npos) << "expected '" << expected << "' in: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// The description check on its own, as `keff tally show` applies it to whatever a reader hands it: an
// energy filter's bounds are its bins + 1 edges (fewer made tally show read past them).
TEST(Output, TallyDescriptionHoldsEnergyBoundsToBins) {
  TallyResult t = sample_results().tallies[0];
  t.filters[1] = TallyFilterResult{"energy", "bounds", "eV", 2, {1, 1, 1}, {}, {}, {0.0, 1.0, 2.0}, {}, {}};
  EXPECT_EQ(tally_description_problem(t), "");
  t.filters[1].bounds.pop_back();
  EXPECT_NE(tally_description_problem(t).find("an energy filter of 2 bins with 2 bounds (allowed: bins + 1)"),
            std::string::npos)
      << tally_description_problem(t);
}

// Text from a file as a message shows it: escapes, a forged second line and megabytes become one short line.
TEST(Output, UntrustedTextIsQuotedAndCut) {
  EXPECT_EQ(printable_cut("in.toml"), "in.toml");
  EXPECT_EQ(printable_cut("\x1b[31mred\nkeff: fake line"), "\\x1b[31mred\\nkeff: fake line");
  const std::string huge(5'000'000, 'x');
  const std::string cut = printable_cut(huge);
  EXPECT_EQ(cut, std::string(200, 'x') + "... (4999800 more bytes)");
}

TEST(Output, StatepointWithEmptyArrays) {
  TempDir dir;
  RunResults r;  // no batches, no bank, no tally yet
  write_statepoint(dir.file("sp.h5"), r);
  auto file = H5File::open(dir.file("sp.h5"));
  EXPECT_TRUE(file.open_group("batches").read_doubles("k").empty());
  EXPECT_EQ(file.open_group("source_bank").shape("r"), (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(file.attribute_string("input"), "");
}

TEST(Output, StatepointIntoMissingDirectoryThrows) {
  TempDir dir;
  try {
    write_statepoint(dir.file("missing/statepoint.h5"), sample_results());
    FAIL() << "no OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("missing/statepoint.h5"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Output, FailedStatepointRemovesItsTemporary) {
  TempDir dir;
  // The temporary is written completely, then the rename fails: the target is a non-empty directory.
  fs::create_directories(dir.file("statepoint.h5/inside"));
  EXPECT_THROW(write_statepoint(dir.file("statepoint.h5"), sample_results()), OutputError);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"statepoint.h5"});

  // A failure while writing: a tally whose values do not match its shape.
  auto bad = sample_results();
  bad.tallies[0].mean.pop_back();
  try {
    write_statepoint(dir.file("bad.h5"), bad);
    FAIL() << "no OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("/tallies/pins/mean"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"statepoint.h5"});
}

TEST(Output, StatepointReplacesAnOldFile) {
  TempDir dir;
  auto r = sample_results();
  write_statepoint(dir.file("sp.h5"), r);
  r.batch.resize(2);
  write_statepoint(dir.file("sp.h5"), r);
  EXPECT_EQ(H5File::open(dir.file("sp.h5")).attribute_int64("batches_done"), 2);
}

}  // namespace
}  // namespace keff
