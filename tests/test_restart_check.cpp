// A restart trusts nothing it reads: a statepoint changed after it was written fails its checksum; a
// state that passes the checksum but that this problem cannot have produced (a site at 1e6 or infinity,
// a weight other than the comb's 1, a site outside the fissionable material, batches out of order, a k
// of 1e308 or NaN, an entropy past log2 of the bins, negative counts) is refused with the value and the
// allowed range; a dataset's announced size is checked before it is read.
#include "io/hdf5_file.hpp"
#include "io/input/input.hpp"
#include "io/output/output.hpp"
#include "io/input/settings_rows.hpp"
#include "io/output/restart_check.hpp"
#include "io/output/results_check.hpp"
#include "kernels/vocabulary/fixed_point_bits.hpp"
#include "run_problem.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>

namespace keff {
namespace {

namespace fs = std::filesystem;

// A short run of the bare plutonium sphere (multigroup), with a tally of its two halves, that leaves its
// statepoint.
class RestartCheck : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("keff_restart_check_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const std::string path = std::string(KEFF_EXAMPLES) + "/la13511_pub_sphere.toml";
    const std::string halves =
        "\n[[mesh]]\nname = \"halves\"\nlower_left = [-6.1]\nupper_right = [6.1]\nshape = [2]\n"
        "\n[[tally]]\nname = \"halves\"\nfilters = [\"mesh\"]\nmesh = \"halves\"\nscores = [\"flux\", \"fission\"]\n";
    problem() = test::sized(read_problem_string(read_input_file(path) + halves, path), 400, 3, 1);
    problem().settings.statepoint = statepoint();
    test::run_quietly(problem());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string statepoint() { return (dir_ / "sp.h5").string(); }

  // The InputError message of check_restart_data on the statepoint after `damage`.
  static std::string refusal(void (*damage)(RunResults&)) {
    RunResults sp = read_statepoint(statepoint());
    damage(sp);
    try {
      check_restart_data(statepoint(), sp, problem());
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  }

  static inline fs::path dir_;
  // A function's static rather than a heap object: nvcc 13.5's front end aborts on `new model::Problem`.
  static model::Problem& problem() {
    static model::Problem p;
    return p;
  }
};

TEST_F(RestartCheck, WrittenStatepointPasses) {
  const RunResults sp = read_statepoint(statepoint());
  ASSERT_EQ(sp.source_bank.size(), 400u);
  EXPECT_NO_THROW(check_restart_data(statepoint(), sp, problem()));
}

TEST_F(RestartCheck, ChangedFileFailsItsChecksum) {
  const fs::path copy = dir_ / "edited.h5";
  fs::copy_file(statepoint(), copy, fs::copy_options::overwrite_existing);
  {  // one coordinate of one site moved far outside the sphere, as a hand edit would
    const hid_t file = H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    const hid_t data = H5Dopen2(file, "source_bank/r", H5P_DEFAULT);
    const hid_t space = H5Dget_space(data);
    const hsize_t start[2] = {7, 0}, count[2] = {1, 1};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    const hsize_t one = 1;
    const hid_t mem = H5Screate_simple(1, &one, nullptr);
    const double far = 1.0e6;
    EXPECT_GE(H5Dwrite(data, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &far), 0);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(data);
    H5Fclose(file);
  }
  try {
    read_statepoint(copy.string());
    ADD_FAILURE() << "an edited statepoint was read";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("checksum mismatch: the file was changed or damaged after it was written"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(RestartCheck, ImpossibleSitesAreRefused) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::pair<void (*)(RunResults&), const char*> cases[] = {
      {[](RunResults& r) { r.source_bank[3].r.x = 1.0e6; }, "source site 3: position (1000000, "},
      {[](RunResults& r) { r.source_bank[5].r.y = inf; }, "source site 5: position ("},
      {[](RunResults& r) { r.source_bank[0].weight = -1.0; }, "source site 0: weight -1 is not a finite positive number"},
      {[](RunResults& r) { r.source_bank[9].u = {1.0, 1.0, 0.0}; }, "source site 9: direction (1, 1, 0) is not a unit vector"},
      {[](RunResults& r) { r.source_bank[2].group = 1; }, "source site 2: group 1 is not one of the problem's groups (allowed: 0 to 0)"},
      {[](RunResults& r) { r.source_bank[4].parent = -2; }, "source site 4: history keys (parent, progeny) are negative"},
      {[](RunResults& r) { r.batch[1].batch = 7; }, "batch record 1 is batch 7 (active) (allowed: batch 2, active)"},
      {[](RunResults& r) { r.batch[0].active = true; }, "batch record 0 is batch 1 (active) (allowed: batch 1, inactive)"},
      {[](RunResults& r) { r.source_bank[0].weight = 2.0; }, "source site 0: weight 2 is not 1 (allowed: 1 within 1e-12, the weight the comb gives every source site)"},
      {[](RunResults& r) { r.source_bank.pop_back(); }, "the source bank holds 399 sites (allowed: particles = 400, one per history of the next batch)"},
      {[](RunResults& r) { r.batch[2].k = inf; }, "batch 3: k = inf (allowed: a finite k in [0, 40000000]: at most 400 per event of settings.max_events = 100000)"},
      {[](RunResults& r) { r.batch[2].k_collision = r.batch[2].k = 1e308; }, "batch 3: k = 1e+308 (allowed: a finite k in [0, "},
      {[](RunResults& r) { r.batch[1].k_absorption = std::nan(""); }, "batch 2: k_absorption = nan (allowed: a finite k in [0, "},
      {[](RunResults& r) { r.batch[0].k = 1.25 * r.batch[0].k_collision; }, "batch 1: k = "},
      {[](RunResults& r) { r.batch[1].entropy = 100.0; }, "batch 2: entropy = 100 bits (allowed: 0 to log2(512 entropy-mesh bins) = 9)"},
      {[](RunResults& r) { r.batch[1].entropy = -0.5; }, "batch 2: entropy = -0.5 bits"},
      {[](RunResults& r) { r.batch[0].fission_sites = -4; }, "batch 1: fission_sites = -4 (allowed: at least 1; a batch without fission sites ends the run)"},
      {[](RunResults& r) { r.batch[2].k_running.mean = -1.0; }, "batch 3: the running k -1 +/- "},
      {[](RunResults& r) { r.restart.k_prev = 0.0; }, "k_prev = 0 differs from the last batch's k_collision = "},
      {[](RunResults& r) { r.lost_particles = -1; }, "lost_particles = -1 (allowed: 0 to settings.max_lost = 10; a run that lost more stopped before writing)"},
      {[](RunResults& r) { r.bank_overflows = -3; }, "bank_overflows = -3 (allowed: a count, >= 0)"},
      {[](RunResults& r) { r.tallies[0].sum[0] = std::nan(""); }, "its tally 'halves', value 0 (flux), holds sum nan, sum of squares "},
      {[](RunResults& r) { r.tallies[0].sum[1] = 1.7e308; }, "its tally 'halves', value 1 (fission), holds sum 1.6999999999999999e+308, sum of squares "},
      {[](RunResults& r) { r.tallies[0].sum_sq[2] = 4 * r.tallies[0].sum[2] * r.tallies[0].sum[2]; }, "(allowed: the sums of 2 non-negative batch values: sum^2 <= 2 x sum of squares <= 2 x sum^2)"},
      {[](RunResults& r) { r.tallies[0].sum.push_back(1.0); }, "its tally 1 is 'halves' with 5 values (allowed: this problem's 'halves' with 4)"},
      {[](RunResults& r) { r.tallies.clear(); }, "it holds 0 tallies (allowed: this problem's 1)"},
      {[](RunResults& r) { r.batch.clear(); }, "it holds no batch (allowed: a statepoint written after a batch)"},
      {[](RunResults& r) { r.particles = 7; }, "particles = 7 but settings.particles = 400 (allowed: the same value, which the run wrote twice)"},
      {[](RunResults& r) {
         r.particles = 7;
         r.settings[0].second = "7";
       }, "its histories ran with settings.particles = 7 (allowed: this run's 400; a restart continues the same histories"},
      {[](RunResults& r) {
         r.generations_per_batch = 3;
         for (auto& [key, value] : r.settings) {
           if (key == "generations_per_batch") value = "3";
         }
       }, "its histories ran with settings.generations_per_batch = 3 (allowed: this run's 1;"},
      {[](RunResults& r) { r.batch[1].generation = 2; }, "batch record 1 is batch 2 generation 2 (active) (allowed: batch 2, active)"},
      {[](RunResults& r) {
         r.populations.count = 4;
         r.populations.k_generations.assign(r.batch.size() * 12, 1.0);
         for (auto& [key, value] : r.settings) {
           if (key == "populations") value = "4";
         }
       }, "its histories ran with settings.populations = 4 (allowed: this run's 1;"},
      {[](RunResults& r) { r.restart.tally_partial = {1.0}; }, "it holds the tallies of a batch under way, but its last record ends a batch or is inactive (allowed: none)"},
  };
  for (const auto& [damage, expected] : cases) {
    const std::string msg = refusal(damage);
    EXPECT_EQ(msg.rfind("cannot restart from '" + statepoint() + "': ", 0), 0u) << msg;
    EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  }
  EXPECT_NE(refusal([](RunResults& r) { r.source_bank[3].r.x = 1.0e6; }).find("is outside the geometry"), std::string::npos);
}

// Forged restart data within every earlier bound, each giving an absurd answer with status 0 (hostile
// round 5): tally sums a fixed-point batch score holds but no history can score (9e7 per source particle
// in every bin), a batch under way at that bound, and k's of 1e-300 consistent batch to batch (the
// continued run banked 1e300 sites a history). Each is refused, naming what histories can do.
TEST_F(RestartCheck, ScoresNoHistoryCanMakeAreRefused) {
  const double fixed = max_tally_batch_value(400, false);  // 2^39 / 400: the fixed-point bound of one batch
  // The flux tally: at most 10^5 flights a history, each no longer than the sphere's bounding box's diagonal.
  const std::string flux = refusal([](RunResults& r) {
    const double batch = 0.99 * max_tally_batch_value(400, false);
    r.tallies[0].sum[0] = 2 * batch;
    r.tallies[0].sum_sq[0] = 2 * batch * batch;
  });
  EXPECT_NE(flux.find("its tally 'halves', value 0 (flux), holds sum "), std::string::npos) << flux;
  EXPECT_NE(flux.find("over 2 active batches (allowed: at most "), std::string::npos) << flux;
  EXPECT_NE(flux.find(" a batch, what its histories can score: settings.max_events = 100000 flights and collisions a "
                      "history, each scoring at most a flight's optical length (< 40) or 1 a collision"),
            std::string::npos)
      << flux;
  const std::string fission = refusal([](RunResults& r) {
    r.tallies[0].sum[1] = 2 * 5e6;  // past 10^5 flights of optical length 40
    r.tallies[0].sum_sq[1] = 2 * 5e6 * 5e6;
  });
  EXPECT_NE(fission.find("value 1 (fission), holds sum 10000000 over 2 active batches (allowed: at most 4000000 a batch"),
            std::string::npos)
      << fission;
  // Within what histories can score, and what a fixed-point score holds, the same sums are accepted.
  EXPECT_EQ(refusal([](RunResults& r) {
              r.tallies[0].sum[1] = 2 * 3e6;
              r.tallies[0].sum_sq[1] = 2 * 3e6 * 3e6;
            }),
            "accepted");
  EXPECT_GT(fixed, 4e6);

  // Every k of 1e-300, consistent from batch to batch and with k_prev: the first batch's sites are 1e297
  // times more than its k allows.
  const std::string tiny = refusal([](RunResults& r) {
    for (BatchResult& b : r.batch) {
      b.k = b.k_collision = b.k_absorption = b.k_tracklength = 1e-300;
      if (b.active) b.k_running.mean = 1e-300;
    }
    r.restart.k_prev = 1e-300;
  });
  EXPECT_NE(tiny.find("batch 1: fission_sites = "), std::string::npos) << tiny;
  EXPECT_NE(tiny.find(" where its k_collision = 1e-300 after 1 makes 4.0000000000000005e-298 on average (allowed: sites a "
                      "source of 400 can bank: below 1e9 times that average"),
            std::string::npos)
      << tiny;
}

// The tallies of a batch under way (batches of generations): at what a fixed-point sum holds they are
// refused too, by what the generations' histories can score.
TEST_F(RestartCheck, ABatchUnderWayScoresWhatItsHistoriesCan) {
  model::Problem two = problem();
  two.settings.generations_per_batch = 2;
  const auto forged = [&](double partial) {
    RunResults sp = read_statepoint(statepoint());
    sp.settings = settings::restart_values(two.settings);
    // Batches 1 and 2 whole, batch 3's first generation: the last record an active batch under way.
    const std::vector<BatchResult> batches = sp.batch;
    sp.batch.clear();
    sp.generations_per_batch = 2;
    for (int g = 1; g <= 5; ++g) {
      BatchResult b = batches[static_cast<std::size_t>(std::min(g - 1, 2))];
      b.batch = (g - 1) / 2 + 1;
      b.generation = (g - 1) % 2 + 1;
      b.active = b.batch > 1;
      sp.batch.push_back(b);
    }
    sp.restart.k_prev = sp.batch.back().k_collision;
    for (TallyResult& t : sp.tallies) {  // one whole active batch: its sums are its values
      for (std::size_t i = 0; i < t.sum.size(); ++i) t.sum_sq[i] = t.sum[i] * t.sum[i];
    }
    sp.restart.tally_partial.assign(sp.tallies[0].sum.size(), partial);
    sp.restart.tally_partial_weight = 400;
    try {
      check_restart_data("two.h5", sp, two);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(forged(1.0), "accepted");
  const std::string at_bound = forged(std::ldexp(1.0, 63 - tally_fraction_bits));
  EXPECT_NE(at_bound.find("tally value 0 of the batch under way is 549755813888 (allowed: 0 to "), std::string::npos)
      << at_bound;
  EXPECT_NE(at_bound.find(", what 1 generations of 400 histories can score: settings.max_events = 100000"), std::string::npos)
      << at_bound;
}

// A dataset's shape is checked before anything is allocated for it (a crafted file can announce any size;
// the checksum is compared only once everything is read).
TEST_F(RestartCheck, DatasetShapesAreCheckedBeforeReading) {
  const fs::path copy = dir_ / "reshaped.h5";
  fs::copy_file(statepoint(), copy, fs::copy_options::overwrite_existing);
  {
    const hid_t file = H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    ASSERT_GE(H5Ldelete(file, "batches/k", H5P_DEFAULT), 0);
    const hsize_t six = 6;
    const hid_t space = H5Screate_simple(1, &six, nullptr);
    const hid_t data = H5Dcreate2(file, "batches/k", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(data, 0);
    H5Dclose(data);
    H5Sclose(space);
    H5Fclose(file);
  }
  try {
    read_statepoint(copy.string());
    ADD_FAILURE() << "a reshaped statepoint was read";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset '/batches/k' has shape [6] (allowed: 3 rows of 1)"), std::string::npos)
        << e.what();
  }
}

// Inside the sphere's bounding box but outside the sphere: only the geometry can tell.
TEST_F(RestartCheck, SiteOutsideFissionableMaterialIsRefused) {
  RunResults sp = read_statepoint(statepoint());
  const double corner = 0.9 * 6.082547;
  sp.source_bank[11].r = {corner, corner, corner};
  EXPECT_NO_THROW(check_restart_data(statepoint(), sp, problem()));
  model::Problem p = problem();
  p.settings.batches = 5;
  const Communicator comm;
  Simulation sim(DeviceExec(), p, comm, nullptr, {});
  try {
    sim.restart_from(sp);
    ADD_FAILURE() << "a site outside the sphere was accepted";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("source bank has 1 site(s) outside every cell filled with fissionable material"),
              std::string::npos)
        << e.what();
  }
}

// A continuous-energy statepoint whose histories ran with other thermal physics is refused before the
// batches are compared: continuing it would mix two physics. One written with targets at rest ("none"),
// one written by another NCrystal (or with NCrystal materials where this run has none) sampled other
// tables and scatters.
TEST(RestartThermal, OtherThermalPhysicsIsRefused) {
  const model::Problem p = read_problem_string(R"([settings]
particles = 10
inactive = 1
[settings.source]
lower_left = [-1.0, -1.0, -1.0]
upper_right = [1.0, 1.0, 1.0]
[[surface]]
id = 1
type = "sphere"
coeffs = [0.0, 0.0, 0.0, 1.0]
boundary = "vacuum"
[[cell]]
name = "fuel"
region = "-1"
material = "fuel"
[[material]]
name = "fuel"
nuclides = { U235 = 1.0e-3 }
)",
                                               "ce.toml");
  const auto refusal = [&](const std::string& thermal, const std::string& ncrystal) {
    RunResults sp;
    sp.particles = p.settings.particles;
    sp.inactive = p.settings.inactive;
    sp.seed = p.settings.seed;
    sp.thermal = thermal;
    sp.ncrystal = ncrystal;
    model::Settings theirs = p.settings;
    theirs.thermal = *enum_from_name<model::ThermalModel>(thermal);
    sp.settings = settings::restart_values(theirs);
    try {
      check_restart_data("old.h5", sp, p);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string at_rest = refusal("none", "");
  EXPECT_NE(at_rest.find("cannot restart from 'old.h5': its histories ran with settings.thermal = none "
                         "(allowed: this run's free_gas"),
            std::string::npos)
      << at_rest;
  const std::string other_ncrystal = refusal("free_gas", "0.0.1");
  EXPECT_NE(other_ncrystal.find("cannot restart from 'old.h5': its histories ran with NCrystal 0.0.1 (allowed: this "
                                "run's no NCrystal; continuing would mix the two: start a new run)"),
            std::string::npos)
      << other_ncrystal;
}

}  // namespace
}  // namespace keff
