// The HDF5 statepoint: run metadata, k and entropy per batch, the estimators, the tallies, the
// source bank for the next batch and what a restart needs beyond them, written by one rank and
// published atomically. The layout (examples/OUTPUTS.md) keeps every array a plain dataset so h5py, h5dump
// and a restart read it without keff's types.
#include "io/atomic_write.hpp"
#include "io/checksum.hpp"
#include "io/hdf5_file.hpp"
#include "io/input/model.hpp"
#include "io/limits.hpp"
#include "io/output/output.hpp"
#include "io/output/results_check.hpp"
#include "io/output/statepoint_tallies.hpp"
#include "io/printable.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keff {
namespace {

// Bump when the layout changes incompatibly; restart reading checks it.
constexpr std::int64_t statepoint_version = 10;

// The checksum of everything a restart or a reader of the results reads (metadata, batches, the tallies'
// descriptions, means, deviations and sums, source bank, CMFD's settings, solves, window and warm start),
// over the values as held in RunResults, so the writer and the reader compute it alike (io/checksum.hpp).
// Since version 5 the tallies' descriptions and results and CMFD's settings and warm start join it: a
// reader had trusted them unchecked. Version 6 writes each filter's form and units and names its bounds
// `bounds` (they were `energy_bounds`, when energy was the one filter with bounds). Version 8 writes
// CMFD's last batch, [cmfd] end; version 9 whether each solve was preconditioned by the multigrid; version
// 10 the digest of each NCrystal material's data (`ncrystal_data`), and the thermal physics joins the sum.
class ContentChecksum {
 public:
  void add(std::string_view text) { add(checksum64(text.data(), text.size())); }
  void add(std::span<const double> v) { add(checksum64(v.data(), v.size_bytes())); }
  void add(std::uint64_t word) { words_.push_back(word); }
  void add_real(double v) { add(std::bit_cast<std::uint64_t>(v)); }
  // A field of a record's list: a real by its bits, a vector as three, an integer or a flag as a word.
  template <class T>
  void add_field(const T& v) {
    if constexpr (std::is_same_v<T, Vec3>) {
      for (int d = 0; d < 3; ++d) add_real(v[d]);
    } else if constexpr (std::is_floating_point_v<T>) {
      add_real(v);
    } else {
      add(static_cast<std::uint64_t>(v));
    }
  }
  // A flag in the low bit of the word before it.
  void add_flag(bool v) { words_.back() = words_.back() * 2 + (v ? 1 : 0); }
  std::uint64_t value() const { return checksum64(words_.data(), words_.size() * sizeof(std::uint64_t)); }

 private:
  std::vector<std::uint64_t> words_;
};

// A batch: its integers, the flag `active` in the low bit of the batch number before it, then its reals,
// each in its list's order (the words statepoints of this version are checked with).
void add_batch(ContentChecksum& c, const BatchResult& b) {
  for_each_field(b, [&](const char*, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, bool>) {
      c.add_flag(v);
    } else if constexpr (std::is_integral_v<T>) {
      c.add_field(v);
    }
  });
  for_each_field(b, [&](const char*, const auto& v) {
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>) c.add_field(v);
  });
}

// A site or a CMFD solve: its fields in its list's order.
template <class Record>
void add_fields(ContentChecksum& c, const Record& record) {
  for_each_field(record, [&](const char*, const auto& v) { c.add_field(v); });
}

void add_cmfd(ContentChecksum& c, const RunResults& r);

void add_texts(ContentChecksum& c, const std::vector<std::string>& texts) {
  c.add(static_cast<std::uint64_t>(texts.size()));
  for (const auto& t : texts) c.add(t);
}

// A tally: its name and description, filter by filter, then its means, deviations and sums.
void add_tally(ContentChecksum& c, const TallyResult& t) {
  c.add(t.name);
  c.add(t.estimator);
  add_texts(c, t.scores);
  add_texts(c, t.units);
  c.add(static_cast<std::uint64_t>(t.filters.size()));
  for (const TallyFilterResult& f : t.filters) {
    c.add(f.kind);
    c.add(f.form);
    c.add(f.units);
    c.add(static_cast<std::uint64_t>(f.bins));
    for (std::size_t a = 0; a < 3; ++a) {
      c.add(static_cast<std::uint64_t>(f.shape[a]));
      c.add_real(f.lower[a]);
      c.add_real(f.upper[a]);
    }
    c.add(std::span<const double>(f.bounds));
    add_texts(c, f.names);
    for (const auto& p : f.positions) c.add(std::span<const double>(p));
  }
  for (const auto* v : {&t.mean, &t.std_dev, &t.sum, &t.sum_sq}) c.add(std::span<const double>(*v));
}

std::int64_t content_checksum(const RunResults& r) {
  ContentChecksum c;
  c.add(r.input);
  c.add(r.mode);
  c.add(r.thermal);
  c.add(r.ncrystal);
  c.add(r.ncrystal_data);
  for (const std::int64_t v : {std::int64_t(r.seed), r.particles, std::int64_t(r.batches), std::int64_t(r.inactive),
                               std::int64_t(r.generations_per_batch), r.lost_particles, std::int64_t(r.bank_overflows)}) {
    c.add(static_cast<std::uint64_t>(v));
  }
  c.add(r.restart.fingerprint);
  c.add_real(r.restart.k_prev);
  c.add(std::span<const double>(r.restart.tally_partial));
  c.add_real(r.restart.tally_partial_weight);
  for (const auto& b : r.batch) add_batch(c, b);
  if (r.populations.count > 1) {  // one population leaves the checksum as it was before populations
    c.add(static_cast<std::uint64_t>(r.populations.count));
    c.add(std::span<const double>(r.populations.k_generations));
  }
  for (const TallyResult& t : r.tallies) add_tally(c, t);
  for (const Site& s : r.source_bank) add_fields(c, s);
  add_cmfd(c, r);
  return std::bit_cast<std::int64_t>(c.value());
}

// ---------------------------------------------------------------------------------------------------
// Tables: /batches, /source_bank and CMFD's solves hold records (BatchResult, Site, CmfdResult) as one
// dataset per field of the record's list (for_each_field), in the list's order, each with that field of
// every record: integers and flags int64 [n], reals float64 [n], vectors float64 [n][3].

// One field of every record.
struct Column {
  const char* name;
  std::size_t width;  // values per record
  bool real;          // float64, else int64
  std::vector<std::int64_t> ints;
  std::vector<double> reals;
};

template <class T>
Column empty_column(const char* name) {
  constexpr bool vec3 = std::is_same_v<T, Vec3>;
  return {name, vec3 ? 3u : 1u, vec3 || std::is_floating_point_v<T>, {}, {}};
}

template <class T>
void append(Column& c, const T& v) {
  if constexpr (std::is_same_v<T, Vec3>) {
    c.reals.insert(c.reals.end(), {v.x, v.y, v.z});
  } else if constexpr (std::is_floating_point_v<T>) {
    c.reals.push_back(v);
  } else {
    c.ints.push_back(static_cast<std::int64_t>(v));
  }
}

template <class T>
void assign(T& v, const Column& c, std::size_t row) {
  if constexpr (std::is_same_v<T, Vec3>) {
    v = {c.reals[3 * row], c.reals[3 * row + 1], c.reals[3 * row + 2]};
  } else if constexpr (std::is_floating_point_v<T>) {
    v = c.reals[row];
  } else if constexpr (std::is_same_v<T, bool>) {
    v = c.ints[row] != 0;
  } else {
    v = static_cast<T>(c.ints[row]);
  }
}

// A record type's columns, named and typed by its list, with no values yet.
template <class Record>
std::vector<Column> empty_columns() {
  std::vector<Column> columns;
  const Record blank{};
  for_each_field(blank, [&](const char* name, const auto& v) {
    columns.push_back(empty_column<std::decay_t<decltype(v)>>(name));
  });
  return columns;
}

template <class Record>
void write_table(const H5Group& g, const std::vector<Record>& records) {
  auto columns = empty_columns<Record>();
  for (Column& c : columns) {  // one allocation per column: a bank holds up to millions of sites
    c.ints.reserve(c.real ? 0 : records.size() * c.width);
    c.reals.reserve(c.real ? records.size() * c.width : 0);
  }
  for (const Record& record : records) {
    auto column = columns.begin();
    for_each_field(record, [&](const char*, const auto& v) { append(*column++, v); });
  }
  for (const Column& c : columns) {
    const std::vector<std::size_t> shape =
        c.width == 1 ? std::vector<std::size_t>{} : std::vector<std::size_t>{records.size(), c.width};
    if (c.real) {
      g.write(c.name, c.reals, shape);
    } else {
      g.write(c.name, c.ints, shape);
    }
  }
}

// The length of dataset `name` in `g` (its values over `width`, a row's size), checked before anything is
// allocated for it: at most `max` rows, and `expected` rows when given. A crafted file can announce any
// shape; the checksum is only compared once everything is read.
std::size_t rows_of(const std::string& path, const H5Group& g, const std::string& group, const char* name,
                    std::size_t width, std::int64_t max, std::optional<std::size_t> expected = std::nullopt) {
  const auto shape = g.shape(name);
  std::size_t values = 1;
  for (const auto d : shape) values = d != 0 && values > std::numeric_limits<std::size_t>::max() / d ? 0 : values * d;
  const bool ok = !shape.empty() && shape[0] <= static_cast<std::size_t>(max) && values == shape[0] * width &&
                  (!expected || shape[0] == *expected);
  if (!ok) {
    std::string dims;
    for (const auto d : shape) dims += (dims.empty() ? "" : " x ") + std::to_string(d);
    throw OutputError("statepoint '" + path + "': dataset '/" + group + "/" + name + "' has shape [" + dims +
                      "] (allowed: " + (expected ? std::to_string(*expected) : "at most " + std::to_string(max)) +
                      " rows of " + std::to_string(width) + ")");
  }
  return shape[0];
}

// The records of a table in group `g` (named `group` in messages): at most `max` of them, and `rows` when
// given, else as many as its first field has. Each dataset's shape is checked before it is read.
template <class Record>
std::vector<Record> read_table(const std::string& path, const H5Group& g, const std::string& group, std::int64_t max,
                               std::optional<std::size_t> rows = std::nullopt) {
  auto columns = empty_columns<Record>();
  for (Column& c : columns) {
    rows = rows_of(path, g, group, c.name, c.width, max, rows);
    if (c.real) {
      c.reals = g.read_doubles(c.name);
    } else {
      c.ints = g.read_int64s(c.name);
    }
  }
  std::vector<Record> records(rows.value_or(0));
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto column = columns.cbegin();
    for_each_field(records[i], [&](const char*, auto& v) { assign(v, *column++, i); });
  }
  return records;
}

// ---------------------------------------------------------------------------------------------------
// The groups, as examples/OUTPUTS.md lays them out.

void write_metadata(const H5Group& root, const RunResults& r) {
  root.set_attribute("filetype", "statepoint");
  root.set_attribute("version", statepoint_version);
  root.set_attribute("input", r.input);
  root.set_attribute("mode", r.mode);
  root.set_attribute("energy_grid", r.energy_grid);
  root.set_attribute("thermal", r.thermal);
  root.set_attribute("ncrystal", r.ncrystal);
  root.set_attribute("ncrystal_data", r.ncrystal_data);
  root.set_attribute("execution_space", r.execution_space);
  root.set_attribute("threads", r.threads);
  root.set_attribute("ranks", r.ranks);
  root.set_attribute("seed", static_cast<std::int64_t>(r.seed));  // HDF5 attributes here are signed
  root.set_attribute("particles", r.particles);
  root.set_attribute("batches", r.batches);
  root.set_attribute("inactive", r.inactive);
  root.set_attribute("generations_per_batch", r.generations_per_batch);
  // Whole batches: /batches holds a record per generation, generations_per_batch of them a batch.
  root.set_attribute("batches_done", static_cast<std::int64_t>(r.batch.size()) / std::max(1, r.generations_per_batch));
  root.set_attribute("nuclides", r.nuclides);
  root.set_attribute("gridpoints", r.gridpoints);
  root.set_attribute("particles_per_second", r.particles_per_second);
  root.set_attribute("batch_particles_per_second", r.batch_particles_per_second);
  root.set_attribute("lost_particles", r.lost_particles);
  root.set_attribute("bank_overflows", r.bank_overflows);
  root.set_attribute("fingerprint", std::bit_cast<std::int64_t>(r.restart.fingerprint));
  root.set_attribute("k_prev", r.restart.k_prev);
  root.set_attribute("triggers", r.triggers);
}

void write_estimators(const H5Group& g, const RunResults& r) {
  const std::pair<const char*, const MeanStd*> estimators[] = {
      {"collision", &r.k_collision}, {"absorption", &r.k_absorption},
      {"tracklength", &r.k_tracklength}, {"combined", &r.k_combined}};
  for (const auto& [name, ms] : estimators) {
    const std::vector<double> v{ms->mean, ms->std};
    g.write(name, v);
  }
  // How k (combined) was formed, and why not by the combination when it was not (src/host/statistics.hpp).
  g.set_attribute("combined_estimate", name_of(r.k_combined.kind));
  g.set_attribute("combined_reason", r.k_combined.reason);
  // The batch correlation of each (src/host/statistics.hpp): [std corrected, autocorrelation time,
  // window], NaN where not estimated. Rebuilt from /batches on restart, like the estimates themselves.
  const std::pair<const char*, const BatchCorrelation*> correlations[] = {
      {"collision_correlation", &r.estimator_correlation[0]}, {"absorption_correlation", &r.estimator_correlation[1]},
      {"tracklength_correlation", &r.estimator_correlation[2]}, {"combined_correlation", &r.k_combined.correlation}};
  for (const auto& [name, c] : correlations) {
    g.write(name, std::vector<double>{c->std_corrected, c->autocorrelation_time, static_cast<double>(c->window)});
  }
}

void write_timing(const H5Group& g, const RunResults& r) {
  g.set_attribute("synchronized", r.synchronized_timers ? 1 : 0);
  for (const auto& t : r.timing) g.write(t.phase, std::vector<double>{t.min, t.mean, t.max});
}

void write_bank(const H5Group& g, const std::vector<Site>& bank) {
  g.set_attribute("size", static_cast<std::int64_t>(bank.size()));
  write_table(g, bank);
}

// ---------------------------------------------------------------------------------------------------
// CMFD (a run with [cmfd] on): its settings, each solved batch's k_cmfd, entropy and iterations, and the
// tally window a restart continues from. Absent without CMFD, which leaves the rest of the file and its
// checksum as they were.

// What a restart reads of it joins the checksum (nothing without CMFD).
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
void read_cmfd(const H5Group& g, const std::string& path, RunResults& r) {
  // Shapes checked before anything is allocated for them: a crafted file can announce any.
  const auto check_length = [&](const H5Group& group, const char* name, std::size_t max) {
    const auto shape = group.shape(name);
    std::size_t values = shape.empty() ? 0 : 1;
    for (const auto d : shape) values = d != 0 && values > max / d ? max + 1 : values * d;
    if (shape.empty() || values > max) {
      throw OutputError("statepoint '" + path + "': dataset '/cmfd/" + name + "' is larger than a run writes (allowed: at most " +
                        std::to_string(max) + " values)");
    }
  };
  // The settings (what a restart's checks read: io/output/restart_check.cpp), then each solved batch.
  CmfdReport report;
  report.groups = static_cast<int>(g.attribute_int64("groups"));
  report.begin = static_cast<int>(g.attribute_int64("begin"));
  report.end = static_cast<int>(g.attribute_int64("end"));
  report.feedback = g.attribute_int64("feedback") != 0;
  report.window = g.attribute_string("window");
  report.window_size = static_cast<int>(g.attribute_int64("window_size"));
  check_length(g, "shape", 3);
  check_length(g, "lower", 3);
  check_length(g, "upper", 3);
  check_length(g, "albedo", 6);
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
  check_length(g, "energy_bounds", static_cast<std::size_t>(limits::max_groups) + 1);
  check_length(g, "collapse", static_cast<std::size_t>(limits::max_groups));
  report.energy_bounds = g.read_doubles("energy_bounds");
  for (const auto v : g.read_int64s("collapse")) report.collapse.push_back(static_cast<int>(v));
  r.cmfd = report;
  // At most one solve per record (generation).
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
  if (g.contains("failure")) {  // written since failed solves keep their reason
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
  if (g.contains("window")) {
    const H5Group window = g.open_group("window");
    check_length(window, "sum", static_cast<std::size_t>(limits::max_cmfd_tally_values));
    check_length(window, "batches", r.batch.size());
    check_length(window, "scores", static_cast<std::size_t>(limits::max_cmfd_tally_values) * r.batch.size());
    r.restart.cmfd = CmfdWindowData{window.read_int64s("sum"), window.read_int64s("batches"), {},
                                    window.read_int64s("scores"), {}};
    if (window.contains("lengths")) {
      check_length(window, "lengths", r.batch.size());
      r.restart.cmfd->lengths = window.read_int64s("lengths");
    }
    if (window.contains("flux")) {
      check_length(window, "flux", static_cast<std::size_t>(limits::max_cmfd_tally_values));
      r.restart.cmfd->flux = window.read_doubles("flux");
    }
  }
}

}  // namespace

void write_statepoint(const std::string& path, const RunResults& results) {
  // Built in memory, written by write_file_atomically: a full disk is then one clear error, never a
  // failure inside HDF5's own flush (io/hdf5_file.hpp).
  H5File file = H5File::create(path);
  write_metadata(file, results);
  // Each group is closed at the end of its statement, before the file is.
  write_table(file.create_group("batches"), results.batch);
  write_estimators(file.create_group("estimators"), results);
  file.write("leakage", std::vector<double>{results.leakage.mean, results.leakage.std});
  write_timing(file.create_group("timing"), results);
  detail::write_tallies(file.create_group("tallies"), results.tallies);
  write_bank(file.create_group("source_bank"), results.source_bank);
  if (results.cmfd) write_cmfd(file.create_group("cmfd"), results);
  // Independent populations: each one's k estimators of every generation, [generation][population][3].
  if (results.populations.count > 1) {
    file.set_attribute("populations", results.populations.count);
    file.write("population_k", results.populations.k_generations);
  }
  // An active batch's generations so far (generations_per_batch > 1): what a restart continues it with.
  if (!results.restart.tally_partial.empty()) {
    file.write("tally_batch_partial", results.restart.tally_partial);
    file.set_attribute("tally_batch_partial_weight", results.restart.tally_partial_weight);
  }
  file.set_attribute("checksum", content_checksum(results));
  detail::write_file_atomically(path, file.close_to_image(), "the statepoint");
}

RunResults read_statepoint(const std::string& path) {
  const H5File file = H5File::open(path);
  if (!file.has_attribute("filetype") || file.attribute_string("filetype") != "statepoint") {
    throw OutputError("'" + path + "' is not a keff statepoint");
  }
  const std::int64_t version = file.attribute_int64("version");
  if (version != statepoint_version) {
    throw OutputError("statepoint '" + path + "' has layout version " + std::to_string(version) + "; this keff reads " +
                      std::to_string(statepoint_version));
  }
  RunResults r;
  r.input = file.attribute_string("input");
  r.mode = file.attribute_string("mode");
  r.thermal = file.attribute_string("thermal");
  r.ncrystal = file.attribute_string("ncrystal");
  r.ncrystal_data = file.attribute_string("ncrystal_data");
  r.seed = static_cast<std::uint64_t>(file.attribute_int64("seed"));
  r.particles = file.attribute_int64("particles");
  r.batches = static_cast<int>(file.attribute_int64("batches"));
  r.inactive = static_cast<int>(file.attribute_int64("inactive"));
  r.generations_per_batch = static_cast<int>(file.attribute_int64("generations_per_batch"));
  r.lost_particles = file.attribute_int64("lost_particles");
  r.bank_overflows = static_cast<int>(file.attribute_int64("bank_overflows"));
  r.restart.fingerprint = std::bit_cast<std::uint64_t>(file.attribute_int64("fingerprint"));
  r.restart.k_prev = file.attribute_double("k_prev");

  r.batch = read_table<BatchResult>(path, file.open_group("batches"), "batches", limits::max_batches);
  r.tallies = detail::read_tallies(file.open_group("tallies"), path);
  r.source_bank = read_table<Site>(path, file.open_group("source_bank"), "source_bank", limits::max_statepoint_sites);
  if (file.contains("cmfd")) read_cmfd(file.open_group("cmfd"), path, r);
  if (file.has_attribute("populations")) {
    const std::int64_t count = file.attribute_int64("populations");
    if (count < 2 || count > limits::max_populations) {
      throw OutputError("statepoint '" + printable_cut(path) + "': populations = " + std::to_string(count) +
                        " (allowed: 2 to " + std::to_string(limits::max_populations) + "; one population writes none)");
    }
    r.populations.count = static_cast<int>(count);
    // The shape checked before anything is allocated for it: a crafted file can announce any.
    const std::size_t expected = r.batch.size() * static_cast<std::size_t>(count) * 3;
    if (!file.contains("population_k") || file.shape("population_k") != std::vector<std::size_t>{expected}) {
      throw OutputError("statepoint '" + printable_cut(path) + "': dataset '/population_k' is missing or not " +
                        std::to_string(expected) + " values (three per population and generation)");
    }
    r.populations.k_generations = file.read_doubles("population_k");
  }
  if (file.contains("tally_batch_partial")) {
    r.restart.tally_partial = file.read_doubles("tally_batch_partial");
    r.restart.tally_partial_weight = file.attribute_double("tally_batch_partial_weight");
  }
  if (content_checksum(r) != file.attribute_int64("checksum")) {
    throw OutputError("statepoint '" + printable_cut(path) +
                      "': checksum mismatch: the file was changed or damaged after it was written");
  }
  if (std::string what = results_problem(r); !what.empty()) {
    throw OutputError("statepoint '" + printable_cut(path) + "': " + what);
  }
  return r;
}

std::vector<TallyResult> read_statepoint_tallies(const std::string& path) { return read_statepoint(path).tallies; }

}  // namespace keff
