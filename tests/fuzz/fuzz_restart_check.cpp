// libFuzzer target: any bytes as the content of a statepoint (what read_statepoint returns once its
// checksum matched) for a small multigroup problem, with CMFD (feedback on, a rolling window: its window
// sums, kept batches and solves from the bytes too) or without: check_restart_data must accept it or
// throw InputError, and results_problem (what every statepoint reader checks) must return; anything else
// (another exception, a crash, a sanitizer report) is a bug.
#include "io/input/input.hpp"
#include "io/output/restart_check.hpp"
#include "io/output/results_check.hpp"
#include "tests/fuzz/fuzz_bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace {

constexpr const char* problem_text = R"(
[settings]
particles = 3
batches = 6
inactive = 2
mode = "multigroup"
[settings.source]
lower_left = [-1.0, -1.0, -1.0]
upper_right = [1.0, 1.0, 1.0]
[settings.entropy_mesh]
shape = [2, 2, 1]
[multigroup]
groups = 2
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
sigma_t = [1.0, 2.0]
sigma_s = [[0.5, 0.2], [0.0, 1.5]]
nu_sigma_f = [0.1, 0.9]
chi = [1.0, 0.0]
[[tally]]
name = "groups"
filters = ["group"]
scores = ["flux"]
)";

// The same with CMFD: a 2 x 2 x 1 coarse mesh, both groups, feedback on, a window of the last 2 batches.
constexpr const char* cmfd_text = R"(
[cmfd]
shape = [2, 2, 1]
begin = 2
feedback = true
window = "rolling"
window_size = 2
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const keff::model::Problem plain = keff::read_problem_string(problem_text, "restart.toml");
  static const keff::model::Problem accelerated =
      keff::read_problem_string(std::string(problem_text) + cmfd_text, "restart_cmfd.toml");
  keff::fuzz::Bytes in(data, size);
  const bool with_cmfd = in.next<std::uint8_t>() % 2;
  const keff::model::Problem& problem = with_cmfd ? accelerated : plain;
  keff::RunResults sp;
  sp.particles = in.next<std::uint8_t>() % 2 ? problem.settings.particles : in.next<std::int64_t>();
  sp.inactive = problem.settings.inactive;
  sp.seed = problem.settings.seed;
  sp.lost_particles = in.next<std::int64_t>();
  sp.bank_overflows = in.next<int>();
  const int batches = in.next<std::uint8_t>() % 8;
  for (int b = 0; b < batches; ++b) {
    keff::BatchResult r;
    r.batch = in.next<std::uint8_t>() % 2 ? b + 1 : in.next<int>();
    r.active = r.batch > sp.inactive;
    r.k_collision = in.next<double>();
    r.k = in.next<std::uint8_t>() % 2 ? r.k_collision : in.next<double>();
    r.k_absorption = in.next<double>();
    r.k_tracklength = in.next<double>();
    r.entropy = in.next<double>();
    r.fission_sites = in.next<std::int64_t>();
    r.k_running.mean = in.next<double>();
    r.k_running.std = in.next<double>();
    if (with_cmfd && in.next<std::uint8_t>() % 2) {
      keff::CmfdResult c;
      c.k = in.next<double>();
      c.entropy = in.next<double>();
      c.outer_iterations = in.next<int>();
      c.inner_iterations = in.next<int>();
      c.converged = in.next<std::uint8_t>() % 2;
      c.multigrid = in.next<std::uint8_t>() % 2;
      r.cmfd = c;
    }
    sp.batch.push_back(r);
  }
  if (with_cmfd && in.next<std::uint8_t>() % 4 != 0) {
    // The window: its sum and kept batches with their scores, of the right length or not.
    keff::CmfdWindowData w;
    // 5 G C + 2 G^2 C + 2 G F: one coarse group (the default collapse), 4 cells, 20 faces.
    const int values = in.next<std::uint8_t>() % 2 ? 68 : in.next<std::uint8_t>();
    for (int i = 0; i < values; ++i) w.sum.push_back(in.next<std::uint8_t>() % 2 ? 0 : in.next<std::int64_t>());
    const int kept = in.next<std::uint8_t>() % 3;
    for (int b = 0; b < kept; ++b) {
      w.batches.push_back(in.next<std::uint8_t>() % 2 ? batches - kept + b + 1 : in.next<std::int64_t>());
      for (int i = 0; i < values; ++i) w.scores.push_back(in.next<std::uint8_t>() % 2 ? 0 : in.next<std::int64_t>());
    }
    sp.restart.cmfd = w;
    if (in.next<std::uint8_t>() % 2) {
      keff::CmfdReport report;
      report.feedback = in.next<std::uint8_t>() % 2;
      sp.cmfd = report;
    }
  }
  sp.restart.k_prev = in.next<std::uint8_t>() % 2 && !sp.batch.empty() ? sp.batch.back().k_collision : in.next<double>();
  if (in.next<std::uint8_t>() % 4 != 0) {
    keff::TallyResult t;
    t.name = in.next<std::uint8_t>() % 4 ? "groups" : "other";
    const int values = in.next<std::uint8_t>() % 4;
    for (auto* v : {&t.sum, &t.sum_sq}) {
      for (int i = 0; i < values; ++i) v->push_back(in.next<double>());
    }
    sp.tallies.push_back(t);
  }
  const int sites = in.next<std::uint8_t>() % 5;
  for (int i = 0; i < sites; ++i) {
    keff::Site s;
    s.r = {in.next<double>(), in.next<double>(), in.next<double>()};
    s.u = {in.next<double>(), in.next<double>(), in.next<double>()};
    s.energy = in.next<double>();
    s.weight = in.next<std::uint8_t>() % 2 ? 1.0 : in.next<double>();
    s.group = in.next<int>();
    s.parent = in.next<std::int64_t>();
    s.progeny = in.next<int>();
    sp.source_bank.push_back(s);
  }
  // What every reader holds the results to (the flux of the warm start from the bytes too), then the
  // restart's own checks.
  if (sp.restart.cmfd && in.next<std::uint8_t>() % 2) {
    const int n = in.next<std::uint8_t>() % 6;
    for (int i = 0; i < n; ++i) sp.restart.cmfd->flux.push_back(in.next<double>());
  }
  (void)keff::results_problem(sp);
  try {
    keff::check_restart_data("fuzz.h5", sp, problem);
  } catch (const keff::InputError&) {
  }
  return 0;
}
