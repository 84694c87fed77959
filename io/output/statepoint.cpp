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
#include "io/output/statepoint_cmfd.hpp"
#include "io/output/statepoint_records.hpp"
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

using namespace detail;

// Bump when the layout changes incompatibly; restart reading checks it.
constexpr std::int64_t statepoint_version = 11;

// The settings as one attribute: a line "key=value" each (HDF5 attributes hold no map).
std::string settings_text(const SettingValues& settings) {
  std::string text;
  for (const auto& [key, value] : settings) text.append(key).append("=").append(value).append("\n");
  return text;
}

SettingValues settings_of(const std::string& text) {
  SettingValues settings;
  for (std::size_t at = 0; at < text.size();) {
    const auto end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    const auto eq = line.find('=');
    settings.emplace_back(line.substr(0, eq), eq == std::string::npos ? std::string() : line.substr(eq + 1));
    at = end + 1;
  }
  return settings;
}

// The checksum of everything a restart or a reader of the results reads (metadata, batches, the tallies'
// descriptions, means, deviations and sums, source bank, CMFD's settings, solves, window and warm start),
// over the values as held in RunResults, so the writer and the reader compute it alike (io/checksum.hpp).
// Since version 5 the tallies' descriptions and results and CMFD's settings and warm start join it: a
// reader had trusted them unchecked. Version 6 writes each filter's form and units and names its bounds
// `bounds` (they were `energy_bounds`, when energy was the one filter with bounds). Version 8 writes
// CMFD's last batch, [cmfd] end; version 9 whether each solve was preconditioned by the multigrid; version
// 10 the digest of each NCrystal material's data (`ncrystal_data`), and the thermal physics joins the sum;
// version 11 the settings a restart matches (`settings`), in the sum, and every field of the run's list
// (for_each_run_field) is an attribute.

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
  c.add(settings_text(r.settings));
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
// The groups, as examples/OUTPUTS.md lays them out.

// A field of the run's list (run_results.hpp, for_each_run_field) as a root attribute, and read back.
template <class T>
void set_run_attribute(const H5Group& root, const char* name, const T& v) {
  if constexpr (std::is_same_v<T, SettingValues>) {
    root.set_attribute(name, settings_text(v));
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    root.set_attribute(name, static_cast<std::int64_t>(v));  // HDF5 attributes here are signed
  } else {
    root.set_attribute(name, v);
  }
}

template <class T>
void read_run_attribute(const H5File& file, const char* name, T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    v = file.attribute_string(name);
  } else if constexpr (std::is_same_v<T, SettingValues>) {
    v = settings_of(file.attribute_string(name));
  } else if constexpr (std::is_floating_point_v<T>) {
    v = file.attribute_double(name);
  } else {
    v = static_cast<T>(file.attribute_int64(name));
  }
}

void write_metadata(const H5Group& root, const RunResults& r) {
  root.set_attribute("filetype", "statepoint");
  root.set_attribute("version", statepoint_version);
  for_each_run_field(r, [&](const char* name, const auto& v) { set_run_attribute(root, name, v); });
  // Whole batches: /batches holds a record per generation, generations_per_batch of them a batch.
  root.set_attribute("batches_done", static_cast<std::int64_t>(r.batch.size()) / std::max(1, r.generations_per_batch));
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

// The verdict on the source (src/host/stationarity.hpp), for readers of the file: a restart rebuilds
// it from /batches, like the estimators.
void write_stationarity(const H5Group& g, const Stationarity& s) {
  g.set_attribute("tested", s.tested ? 1 : 0);
  g.set_attribute("stationary", s.stationary ? 1 : 0);
  g.set_attribute("first_active", s.first_active);
  g.set_attribute("stationary_from", s.stationary_from);
  g.set_attribute("entropy_drift", s.entropy_drift);
  g.set_attribute("k_drift", s.k_drift);
  g.set_attribute("message", s.message);
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
  write_stationarity(file.create_group("stationarity"), results.stationarity);
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
  for_each_run_field(r, [&](const char* name, auto& v) { read_run_attribute(file, name, v); });
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
