#include "io/output/statepoint_cmfd.hpp"

#include "io/limits.hpp"
#include "io/printable.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace keff::detail {

void add_cmfd(ContentChecksum& c, const RunResults& r) {
  for (const auto& b : r.batch) {
    if (!b.cmfd) continue;
    c.add(static_cast<std::uint64_t>(b.batch));
    add_fields(c, *b.cmfd);
    if (!b.cmfd->failure.empty()) c.add(b.cmfd->failure);  // none in statepoints that kept no reasons
  }
  if (const auto& w = r.restart.cmfd) {
    for (const auto* v : {&w->sum, &w->batches, &w->scores}) c.add(checksum64(v->data(), v->size() * sizeof(std::int64_t)));
    // A window of single batches leaves the checksum as it was before parts of several.
    if (!w->lengths.empty()) c.add(checksum64(w->lengths.data(), w->lengths.size() * sizeof(std::int64_t)));
    c.add(std::span<const double>(w->flux));
  }
  if (const auto& m = r.cmfd) {
    for (const int v : {m->groups, m->begin, m->end, m->feedback ? 1 : 0, m->window_size}) c.add(static_cast<std::uint64_t>(v));
    for (std::size_t a = 0; a < 3; ++a) {
      c.add(static_cast<std::uint64_t>(m->shape[a]));
      c.add_real(m->lower[a]);
      c.add_real(m->upper[a]);
    }
    c.add(std::span<const double>(m->albedo));
    c.add(std::span<const double>(m->energy_bounds));
    for (const int g : m->collapse) c.add(static_cast<std::uint64_t>(g));
    c.add(m->window);
  }
}

void write_cmfd(const H5Group& g, const RunResults& r) {
  const CmfdReport& c = *r.cmfd;
  g.set_attribute("groups", c.groups);
  g.set_attribute("begin", c.begin);
  g.set_attribute("end", c.end);
  g.set_attribute("feedback", c.feedback ? 1 : 0);
  g.set_attribute("window", c.window);
  g.set_attribute("window_size", c.window_size);
  g.write("shape", std::vector<std::int64_t>(c.shape.begin(), c.shape.end()));
  g.write("lower", std::vector<double>(c.lower.begin(), c.lower.end()));
  g.write("upper", std::vector<double>(c.upper.begin(), c.upper.end()));
  g.write("albedo", std::vector<double>(c.albedo.begin(), c.albedo.end()));
  g.write("energy_bounds", c.energy_bounds);
  g.write("collapse", std::vector<std::int64_t>(c.collapse.begin(), c.collapse.end()));
  std::vector<std::int64_t> batch;  // each solve's record: its generation over the run (with one a batch, the batch)
  std::vector<CmfdResult> solves;
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    if (!r.batch[i].cmfd) continue;
    batch.push_back(static_cast<std::int64_t>(i) + 1);
    solves.push_back(*r.batch[i].cmfd);
  }
  g.write("batch", batch);
  write_table(g, solves);
  std::vector<std::string> failures;  // why each failed solve failed ("" for a converged one)
  for (const CmfdResult& solve : solves) failures.push_back(solve.failure);
  g.write("failure", std::span<const std::string>(failures));
  if (const auto& w = r.restart.cmfd) {
    const H5Group window = g.create_group("window");
    window.write("sum", w->sum);
    window.write("batches", w->batches);
    if (!w->lengths.empty()) window.write("lengths", w->lengths);
    window.write("scores", w->scores, {w->batches.size(), w->sum.size()});
    if (!w->flux.empty()) window.write("flux", w->flux);  // the warm start: where the next solve begins
  }
}

// Longer than any reason a solve gives (src/cmfd/cmfd_solver.cpp, cmfd_accelerator.cpp).
constexpr std::size_t max_failure_length = 2000;

// The solved batches' results into r.batch (read first), and the window.
namespace {

// Dataset `name` of `group` holds at most `max` values: checked before anything is allocated for it (a
// crafted file can announce any shape).
void check_length(const std::string& path, const H5Group& group, const char* name, std::size_t max) {
  const auto shape = group.shape(name);
  std::size_t values = shape.empty() ? 0 : 1;
  for (const auto d : shape) values = d != 0 && values > max / d ? max + 1 : values * d;
  if (shape.empty() || values > max) {
    throw OutputError("statepoint '" + path + "': dataset '/cmfd/" + name + "' is larger than a run writes (allowed: at most " +
                      std::to_string(max) + " values)");
  }
}

// The settings: what a restart's checks read (io/output/restart_check.cpp).
CmfdReport read_report(const H5Group& g, const std::string& path) {
  CmfdReport report;
  report.groups = static_cast<int>(g.attribute_int64("groups"));
  report.begin = static_cast<int>(g.attribute_int64("begin"));
  report.end = static_cast<int>(g.attribute_int64("end"));
  report.feedback = g.attribute_int64("feedback") != 0;
  report.window = g.attribute_string("window");
  report.window_size = static_cast<int>(g.attribute_int64("window_size"));
  for (const auto& [name, max] : {std::pair{"shape", 3}, {"lower", 3}, {"upper", 3}, {"albedo", 6}}) {
    check_length(path, g, name, static_cast<std::size_t>(max));
  }
  const auto shape = g.read_int64s("shape");
  const auto lower = g.read_doubles("lower"), upper = g.read_doubles("upper"), albedo = g.read_doubles("albedo");
  if (shape.size() != 3 || lower.size() != 3 || upper.size() != 3 || albedo.size() != 6) {
    throw OutputError("statepoint '" + path + "': the cmfd mesh datasets are not 3, 3, 3 and 6 values");
  }
  for (std::size_t d = 0; d < 3; ++d) {
    report.shape[d] = static_cast<int>(shape[d]);
    report.lower[d] = lower[d];
    report.upper[d] = upper[d];
  }
  for (std::size_t f = 0; f < 6; ++f) report.albedo[f] = albedo[f];
  check_length(path, g, "energy_bounds", static_cast<std::size_t>(limits::max_groups) + 1);
  check_length(path, g, "collapse", static_cast<std::size_t>(limits::max_groups));
  report.energy_bounds = g.read_doubles("energy_bounds");
  for (const auto v : g.read_int64s("collapse")) report.collapse.push_back(static_cast<int>(v));
  return report;
}

// Each solved batch's solve, and its reason where it failed: at most one a record (generation).
void read_solves(const H5Group& g, const std::string& path, RunResults& r) {
  const auto max_solves = static_cast<std::int64_t>(r.batch.size());
  const std::size_t n = rows_of(path, g, "cmfd", "batch", 1, max_solves);
  const auto batch = g.read_int64s("batch");
  const auto solves = read_table<CmfdResult>(path, g, "cmfd", max_solves, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (batch[i] < 1 || batch[i] > max_solves) {
      throw OutputError("statepoint '" + path + "': /cmfd/batch holds batch " + std::to_string(batch[i]) +
                        ", which /batches does not");
    }
    r.batch[static_cast<std::size_t>(batch[i] - 1)].cmfd = solves[i];
  }
  if (!g.contains("failure")) return;  // written since failed solves keep their reason
  if (g.shape("failure") != std::vector<std::size_t>{n}) {
    throw OutputError("statepoint '" + path + "': /cmfd/failure does not hold one reason per solve (allowed: " +
                      std::to_string(n) + ")");
  }
  const auto failures = g.read_strings("failure");
  for (std::size_t i = 0; i < n; ++i) {
    if ((solves[i].converged && !failures[i].empty()) || failures[i].size() > max_failure_length) {
      throw OutputError("statepoint '" + path + "': /cmfd/failure gives solve " + std::to_string(i) + " " +
                        std::to_string(failures[i].size()) + " characters of reason, and it " +
                        (solves[i].converged ? "converged" : "failed") + " (allowed: none for a converged solve, " +
                        "at most " + std::to_string(max_failure_length) + " for a failed one)");
    }
    r.batch[static_cast<std::size_t>(batch[i] - 1)].cmfd->failure = failures[i];
  }
}

// The tally window a restart continues from.
CmfdWindowData read_window(const H5Group& window, const std::string& path, std::size_t records) {
  const auto values = static_cast<std::size_t>(limits::max_cmfd_tally_values);
  check_length(path, window, "sum", values);
  check_length(path, window, "batches", records);
  check_length(path, window, "scores", values * records);
  CmfdWindowData w{window.read_int64s("sum"), window.read_int64s("batches"), {}, window.read_int64s("scores"), {}};
  if (window.contains("lengths")) {
    check_length(path, window, "lengths", records);
    w.lengths = window.read_int64s("lengths");
  }
  if (window.contains("flux")) {
    check_length(path, window, "flux", values);
    w.flux = window.read_doubles("flux");
  }
  return w;
}

}  // namespace

void read_cmfd(const H5Group& g, const std::string& path, RunResults& r) {
  r.cmfd = read_report(g, path);
  read_solves(g, path, r);
  if (g.contains("window")) r.restart.cmfd = read_window(g.open_group("window"), path, r.batch.size());
}


}  // namespace keff::detail
