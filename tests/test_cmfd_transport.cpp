// CMFD wired into transport (src/cmfd/README.md): the analog tallies that transport scores balance
// exactly, the CMFD eigenvalue of one batch's tallies on one coarse cell is that batch's Monte Carlo
// balance k (from the track-length rates), and
// the LA-13511 critical benchmarks stay critical with CMFD feedback on.
#include <gtest/gtest.h>

#include "io/input/geometry_bounds.hpp"
#include "io/input/input.hpp"
#include "io/output/output.hpp"
#include "io/output/restart_check.hpp"
#include "run_problem.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iostream>

namespace keff {
namespace {

// [cmfd] over the geometry's bounding box, albedos measured, one coarse group per data group. The tests
// of one batch's tallies keep every cell in the solve (min_collisions 0).
model::Problem with_cmfd(model::Problem p, std::array<int, 3> shape, bool feedback, int begin,
                         model::CmfdWindow window, double min_collisions = model::Cmfd{}.min_collisions) {
  model::Cmfd c;
  const auto box = geometry_bounding_box(p);
  EXPECT_TRUE(box.has_value());
  c.mesh.box = *box;
  c.mesh.shape = shape;
  c.albedo.fill(cmfd_measured_albedo);
  for (int g = 0; g < p.groups; ++g) c.collapse.push_back(g);
  c.begin = begin;
  c.end = p.settings.batches;  // every batch, active ones too
  c.feedback = feedback;
  c.window = window;
  c.min_collisions = min_collisions;
  p.cmfd = c;
  model::choose_populations(p);  // one population under feedback, as an input with [cmfd] gets
  return p;
}

// One batch, one coarse cell over the whole bare sphere, one group. Every source neutron (weight 1) ends
// absorbed inside the cell or leaks out through its faces, so the analog absorption (total - scatter)
// plus the net current out is the batch's weight, exactly in fixed point, and the analog production is
// the batch's balance k (k_prev times the sites banked per source neutron) times its weight. The CMFD
// eigenvalue of a single cell and group is production over loss with the operator's cross sections, the
// track-length ones: track nu-fission / (track absorption + net current out), which estimates the same
// balance k. The window (feedback off) holds the batch's integer sums, in CmfdTallies' order.
TEST(CmfdTransport, OneCellTalliesBalanceAndGiveTheBatchBalanceK) {
  constexpr std::int64_t particles = 4000;
  const auto problem = with_cmfd(test::sized(test::example("la13511_pub_sphere.toml"), particles, 1, 0), {1, 1, 1},
                                 false, 1, model::CmfdWindow::none, 0);
  const RunResults r = test::run_quietly(problem);
  ASSERT_EQ(r.batch.size(), 1u);
  const BatchResult& b = r.batch[0];
  ASSERT_TRUE(b.cmfd.has_value());
  ASSERT_TRUE(b.cmfd->converged) << b.cmfd->failure;
  ASSERT_TRUE(r.restart.cmfd.has_value());
  const auto& sum = r.restart.cmfd->sum;
  // flux, total, scatter, nu_fission (1 each), current [sense][group][face] (2 x 1 x 6), track_total,
  // track_absorption, track_nu_fission (1 each).
  ASSERT_EQ(sum.size(), 4u + 12u + 3u);
  const std::int64_t total = sum[1], scatter = sum[2];
  std::int64_t net_out = 0;
  for (int f = 0; f < 6; ++f) {
    const std::int64_t up = sum[4 + f], down = sum[4 + 6 + f];  // towards +axis, towards -axis
    net_out += f % 2 == 1 ? up - down : down - up;                // face 2a lower side, 2a + 1 upper
  }
  const std::int64_t one = std::int64_t{1} << cmfd_fraction_bits;
  EXPECT_EQ(total - scatter + net_out, particles * one);
  EXPECT_GT(net_out, 0);

  const double k_balance = problem.settings.initial_k * static_cast<double>(b.fission_sites) / particles;
  EXPECT_NEAR(static_cast<double>(sum[3]) / one, k_balance * particles, 1e-6 * particles);
  const double track_absorption = static_cast<double>(sum[17]), track_nu_fission = static_cast<double>(sum[18]);
  const double k_track = track_nu_fission / (track_absorption + static_cast<double>(net_out));
  EXPECT_NEAR(b.cmfd->k, k_track, 1e-8 * k_track) << "k_cmfd " << b.cmfd->k << ", track-length balance " << k_track;
  // Two estimates of one balance from 4000 histories: within 3% (each is good to about 1%).
  EXPECT_NEAR(k_track, k_balance, 0.03 * k_balance) << "track-length balance " << k_track << ", analog " << k_balance;
}

// Several coarse cells: summed over the mesh the tallies still balance the batch's weight exactly (the
// crossings between cells cancel). k_cmfd is not the batch's balance k here: the batch started from a
// flat source, not the fundamental mode, and the coarse eigenproblem moves k towards the sphere's exact
// eigenvalue, 1.
TEST(CmfdTransport, MeshTalliesBalanceOverTheMesh) {
  constexpr std::int64_t particles = 4000;
  const auto problem = with_cmfd(test::sized(test::example("la13511_pub_sphere.toml"), particles, 1, 0), {3, 3, 3},
                                 false, 1, model::CmfdWindow::none, 0);
  const RunResults r = test::run_quietly(problem);
  ASSERT_TRUE(r.restart.cmfd.has_value());
  const auto& sum = r.restart.cmfd->sum;
  constexpr int cells = 27, faces = 3 * 4 * 3 * 3;
  ASSERT_EQ(sum.size(), static_cast<std::size_t>(2 * cells + 2 * cells + 2 * faces + 3 * cells));
  std::int64_t loss = 0;
  for (int c = 0; c < cells; ++c) loss += sum[static_cast<std::size_t>(cells + c)] - sum[static_cast<std::size_t>(2 * cells + c)];
  // Leakage: crossings of the outer faces, outwards minus inwards (face-grid index 0 or shape on its axis).
  const std::size_t current = 4 * cells;
  for (int f = 0; f < faces; ++f) {
    const int axis = f / 36, within = f % 36;
    const int idx_axis = axis == 0 ? within % 4 : (axis == 1 ? (within / 3) % 4 : within / 9);
    if (idx_axis != 0 && idx_axis != 3) continue;
    const std::int64_t up = sum[current + static_cast<std::size_t>(f)], down = sum[current + faces + static_cast<std::size_t>(f)];
    loss += idx_axis == 3 ? up - down : down - up;
  }
  EXPECT_EQ(loss, particles * (std::int64_t{1} << cmfd_fraction_bits));
  const double k_balance = static_cast<double>(r.batch[0].fission_sites) / particles;
  EXPECT_LT(std::fabs(r.batch[0].cmfd->k - 1.0), std::fabs(k_balance - 1.0))
      << "k_cmfd " << r.batch[0].cmfd->k << ", balance " << k_balance;
}

// LA-13511 critical configurations (tests/test_critical_benchmarks.cpp) with CMFD feedback from batch 3:
// k stays 1 within the same bounds as without it.
void expect_critical_with_cmfd(const char* example, std::array<int, 3> shape) {
  const auto problem = with_cmfd(test::sized(test::example(example), 20000, 80, 20), shape, true, 3,
                                 model::CmfdWindow::expanding);
  const auto r = test::run_quietly(problem);
  const auto& k = r.k_combined;
  int solves = 0, converged = 0;
  for (const auto& b : r.batch) {
    solves += b.cmfd ? 1 : 0;
    converged += b.cmfd && b.cmfd->converged ? 1 : 0;
  }
  std::cout << "[ info     ] " << example << " with CMFD: k = " << k.mean << " +/- " << k.std << ", k_cmfd "
            << r.batch.back().cmfd->k << ", " << converged << " of " << solves << " solves converged\n";
  EXPECT_EQ(solves, 78);
  EXPECT_EQ(converged, solves);
  EXPECT_LE(std::fabs(k.mean - 1.0), 3.0 * k.std) << example << ": k = " << k.mean << " +/- " << k.std;
  EXPECT_LT(std::fabs(k.mean - 1.0), 0.005) << example << ": k = " << k.mean << " +/- " << k.std;
  EXPECT_GT(k.std, 0.0);
  EXPECT_LT(k.std, 0.002);
  EXPECT_NEAR(r.batch.back().cmfd->k, 1.0, 0.005);
  EXPECT_EQ(r.lost_particles, 0);
}

TEST(CmfdCriticality, PuSlab) { expect_critical_with_cmfd("la13511_pua_slab.toml", {8, 1, 1}); }
TEST(CmfdCriticality, PuSphere) { expect_critical_with_cmfd("la13511_pub_sphere.toml", {4, 4, 4}); }

// [cmfd] end, by default the last inactive batch: CMFD tallies, solves and feeds back in batches begin to
// end and in no later one, whose source then follows from the last feedback alone. A run that ends CMFD
// earlier has the same bits up to the batch after its end, the first that CMFD's feedback no longer
// reaches.
TEST(CmfdTransport, EndsWithItsEndBatch) {
  model::Problem through = with_cmfd(test::sized(test::example("la13511_pub_sphere.toml"), 1000, 6, 2), {2, 2, 2}, true,
                                     1, model::CmfdWindow::none);
  model::Problem inactive = through;
  inactive.cmfd->end.reset();
  EXPECT_EQ(inactive.cmfd_end(), 2);
  const RunResults a = test::run_quietly(through), b = test::run_quietly(inactive);
  ASSERT_EQ(a.batch.size(), 6u);
  ASSERT_EQ(b.batch.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(a.batch[i].cmfd.has_value()) << "batch " << i + 1;
    EXPECT_EQ(b.batch[i].cmfd.has_value(), i < 2) << "batch " << i + 1;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.batch[i].k_collision, b.batch[i].k_collision) << "batch " << i + 1;
  }
  EXPECT_NE(a.batch[3].k_collision, b.batch[3].k_collision);
  ASSERT_TRUE(b.cmfd.has_value());
  EXPECT_EQ(b.cmfd->end, 2);
  EXPECT_EQ(a.cmfd->end, 6);

  model::Problem none = inactive;  // no inactive batch, no [cmfd] end: CMFD would run in no batch
  none.settings.inactive = 0;
  try {
    test::run_quietly(none);
    ADD_FAILURE() << "CMFD without a batch to run in was accepted";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("runs from batch begin = 1 to batch end, by default the last inactive batch, is 0"),
              std::string::npos)
        << e.what();
  }
}

// The statepoint of a run of `problem` (written to a scratch file, read back, removed).
RunResults statepoint_of(model::Problem problem) {
  const std::string path = std::filesystem::temp_directory_path() / ("keff_cmfd_statepoint_" + std::to_string(getpid()) + ".h5");
  problem.settings.statepoint = path;
  test::run_quietly(problem);
  RunResults written = read_statepoint(path);
  std::filesystem::remove(path);
  return written;
}

// What a restart reads of CMFD is held to what transport can have scored (io/output/restart_check.cpp):
// a window with a negative sum, a collision weight no batch can make, or kept batches that do not add up
// to it, and a feedback run continued without feedback, are refused with what is wrong.
TEST(CmfdTransport, RestartRefusesWindowsTransportCannotHaveSummed) {
  const auto problem = with_cmfd(test::sized(test::example("la13511_pub_sphere.toml"), 600, 3, 1), {2, 2, 2}, true, 1,
                                 model::CmfdWindow::rolling);
  const RunResults written = statepoint_of(problem);
  ASSERT_TRUE(written.restart.cmfd.has_value());
  ASSERT_EQ(written.restart.cmfd->batches.size(), 3u);
  EXPECT_NO_THROW(check_restart_data("sp.h5", written, problem));
  const std::size_t values = written.restart.cmfd->sum.size(), total_at = 8;  // total(0, 0): after 8 flux values
  const auto refusal = [&](const auto& damage, model::Problem p) {
    RunResults sp = written;
    damage(*sp.restart.cmfd);
    try {
      check_restart_data("sp.h5", sp, p);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const auto sum_and_last = [&](std::size_t i, std::int64_t v) {
    return [=](CmfdWindowData& w) {
      w.scores[2 * values + i] += v - w.sum[i];
      w.sum[i] = v;
    };
  };
  EXPECT_NE(refusal(sum_and_last(3, -5), problem).find("its CMFD tally window: value 3 is -5 (allowed: >= 0"),
            std::string::npos);
  EXPECT_NE(refusal(sum_and_last(total_at, std::int64_t{1} << 62), problem)
                .find("its CMFD tally window: the collision weight of group 0, cell 0 is"),
            std::string::npos);
  EXPECT_NE(refusal(sum_and_last(0, std::int64_t{1} << 62), problem).find("its CMFD tally window: flux value 0 is"),
            std::string::npos);
  EXPECT_NE(refusal([](CmfdWindowData& w) { w.sum[0] += 1; }, problem)
                .find("its CMFD tally window's sum differs from the sum of the batches it keeps"),
            std::string::npos);
  EXPECT_NE(refusal([](CmfdWindowData& w) { w.batches[0] = 7; }, problem)
                .find("its CMFD tally window keeps batches 7, 2, 3 (allowed: the last 3 batches up to 3, from [cmfd] begin = 1"),
            std::string::npos);
  model::Problem off = problem;
  off.cmfd->enabled = false;
  EXPECT_NE(refusal([](CmfdWindowData&) {}, off).find("it was written by a run with CMFD feedback"), std::string::npos);
}

// An expanding window after 6 batches sums batches 3 to 6 and keeps them as two parts, 3-4 and 5-6
// (model::expanding_window): whatever the run's length, the window's sum and two parts. A statepoint whose
// parts are not the window's is refused.
TEST(CmfdTransport, ExpandingWindowKeepsTwoParts) {
  const auto problem = with_cmfd(test::sized(test::example("la13511_pub_sphere.toml"), 600, 6, 1), {2, 2, 2}, false, 1,
                                 model::CmfdWindow::expanding);
  const RunResults written = statepoint_of(problem);
  ASSERT_TRUE(written.restart.cmfd.has_value());
  const CmfdWindowData& w = *written.restart.cmfd;
  EXPECT_EQ(w.batches, (std::vector<std::int64_t>{4, 6}));
  EXPECT_EQ(w.lengths, (std::vector<std::int64_t>{2, 2}));
  const std::size_t values = w.sum.size();
  for (std::size_t i = 0; i < values; ++i) ASSERT_EQ(w.scores[i] + w.scores[values + i], w.sum[i]) << i;
  EXPECT_NO_THROW(check_restart_data("sp.h5", written, problem));
  RunResults forged = written;
  forged.restart.cmfd->lengths = {1, 2};
  try {
    check_restart_data("sp.h5", forged, problem);
    ADD_FAILURE() << "a window of parts 4 and 5-6 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("its CMFD tally window keeps batches 4, 5 to 6 (allowed: the expanding "
                                         "window's parts after batch 6: 3 to 4, 5 to 6"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace keff
