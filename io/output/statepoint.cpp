// The HDF5 statepoint: run metadata, k and entropy per batch, the estimators, the mesh tally, the
// source bank for the next batch and what a restart needs beyond them, written by one rank and
// published atomically. The layout (io/README.md) keeps every array a plain dataset so h5py, h5dump
// and a restart read it without keff's types.
#include "io/atomic_write.hpp"
#include "io/checksum.hpp"
#include "io/hdf5_file.hpp"
#include "io/limits.hpp"
#include "io/output/output.hpp"

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace keff {
namespace {

// Bump when the layout changes incompatibly; restart reading checks it.
constexpr std::int64_t statepoint_version = 3;

// The checksum of everything a restart reads (metadata, batches, restart accumulators, source bank), over
// the values as held in RunResults, so the writer and the reader compute it alike (io/checksum.hpp).
class ContentChecksum {
 public:
  void add(std::string_view text) { add(checksum64(text.data(), text.size())); }
  void add(std::span<const double> v) { add(checksum64(v.data(), v.size_bytes())); }
  void add(std::uint64_t word) { words_.push_back(word); }
  void add_real(double v) { add(std::bit_cast<std::uint64_t>(v)); }
  std::uint64_t value() const { return checksum64(words_.data(), words_.size() * sizeof(std::uint64_t)); }

 private:
  std::vector<std::uint64_t> words_;
};

void add_cmfd(ContentChecksum& c, const RunResults& r);

std::int64_t content_checksum(const RunResults& r) {
  ContentChecksum c;
  c.add(r.input);
  c.add(r.mode);
  for (const std::int64_t v : {std::int64_t(r.seed), r.particles, std::int64_t(r.batches), std::int64_t(r.inactive),
                               r.lost_particles, std::int64_t(r.bank_overflows)}) {
    c.add(static_cast<std::uint64_t>(v));
  }
  c.add(r.restart.fingerprint);
  c.add_real(r.restart.k_prev);
  for (const auto& b : r.batch) {
    c.add(static_cast<std::uint64_t>(b.batch) * 2 + (b.active ? 1 : 0));
    c.add(static_cast<std::uint64_t>(b.fission_sites));
    for (const double v : {b.k, b.k_collision, b.k_absorption, b.k_tracklength, b.entropy, b.k_running.mean,
                           b.k_running.std}) {
      c.add_real(v);
    }
  }
  for (const auto* v : {&r.restart.flux_sum, &r.restart.flux_sq, &r.restart.fission_sum, &r.restart.fission_sq}) {
    c.add(std::span<const double>(*v));
  }
  for (const Site& s : r.source_bank) {
    for (const double v : {s.r.x, s.r.y, s.r.z, s.u.x, s.u.y, s.u.z, s.energy, s.weight}) c.add_real(v);
    c.add(static_cast<std::uint64_t>(s.group));
    c.add(static_cast<std::uint64_t>(s.parent));
    c.add(static_cast<std::uint64_t>(s.progeny));
  }
  add_cmfd(c, r);
  return std::bit_cast<std::int64_t>(c.value());
}

void write_metadata(const H5Group& root, const RunResults& r) {
  root.set_attribute("filetype", "statepoint");
  root.set_attribute("version", statepoint_version);
  root.set_attribute("input", r.input);
  root.set_attribute("mode", r.mode);
  root.set_attribute("energy_grid", r.energy_grid);
  root.set_attribute("execution_space", r.execution_space);
  root.set_attribute("threads", r.threads);
  root.set_attribute("ranks", r.ranks);
  root.set_attribute("seed", static_cast<std::int64_t>(r.seed));  // HDF5 attributes here are signed
  root.set_attribute("particles", r.particles);
  root.set_attribute("batches", r.batches);
  root.set_attribute("inactive", r.inactive);
  root.set_attribute("batches_done", static_cast<std::int64_t>(r.batch.size()));
  root.set_attribute("nuclides", r.nuclides);
  root.set_attribute("gridpoints", r.gridpoints);
  root.set_attribute("particles_per_second", r.particles_per_second);
  root.set_attribute("batch_particles_per_second", r.batch_particles_per_second);
  root.set_attribute("lost_particles", r.lost_particles);
  root.set_attribute("bank_overflows", r.bank_overflows);
  root.set_attribute("fingerprint", std::bit_cast<std::int64_t>(r.restart.fingerprint));
  root.set_attribute("k_prev", r.restart.k_prev);
}

void write_batches(const H5Group& g, const std::vector<BatchResult>& batches) {
  std::vector<std::int64_t> batch, active, sites;
  std::vector<double> k, kc, ka, kt, entropy, k_mean, k_std;
  for (const auto& b : batches) {
    batch.push_back(b.batch);
    active.push_back(b.active ? 1 : 0);
    sites.push_back(b.fission_sites);
    k.push_back(b.k);
    kc.push_back(b.k_collision);
    ka.push_back(b.k_absorption);
    kt.push_back(b.k_tracklength);
    entropy.push_back(b.entropy);
    k_mean.push_back(b.k_running.mean);
    k_std.push_back(b.k_running.std);
  }
  g.write("batch", batch);
  g.write("active", active);
  g.write("k", k);
  g.write("k_collision", kc);
  g.write("k_absorption", ka);
  g.write("k_tracklength", kt);
  g.write("entropy", entropy);
  g.write("k_mean", k_mean);
  g.write("k_std", k_std);
  g.write("fission_sites", sites);
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
}

void write_timing(const H5Group& g, const RunResults& r) {
  g.set_attribute("synchronized", r.synchronized_timers ? 1 : 0);
  for (const auto& t : r.timing) g.write(t.phase, std::vector<double>{t.min, t.mean, t.max});
}

void write_restart(const H5Group& g, const RestartData& d) {
  g.write("flux_sum", d.flux_sum);
  g.write("flux_sq", d.flux_sq);
  g.write("fission_sum", d.fission_sum);
  g.write("fission_sq", d.fission_sq);
}

void write_mesh(const H5Group& g, const MeshTallyResult& m) {
  g.set_attribute("groups", m.groups);
  const std::vector<std::int64_t> shape{m.shape[0], m.shape[1], m.shape[2]};
  g.write("shape", shape);
  g.write("lower", std::vector<double>(m.lower.begin(), m.lower.end()));
  g.write("upper", std::vector<double>(m.upper.begin(), m.upper.end()));
  g.write("energy_bounds", m.energy_bounds);
  // [group][z][y][x], the order of MeshTallyResult's bin index.
  const std::vector<std::size_t> dims{static_cast<std::size_t>(m.groups), static_cast<std::size_t>(m.shape[2]),
                                      static_cast<std::size_t>(m.shape[1]), static_cast<std::size_t>(m.shape[0])};
  auto write_bins = [&](const char* name, const std::vector<double>& v) {
    g.write(name, v, v.empty() ? std::vector<std::size_t>{0} : dims);
  };
  write_bins("flux_mean", m.flux_mean);
  write_bins("flux_std", m.flux_std);
  write_bins("fission_mean", m.fission_mean);
  write_bins("fission_std", m.fission_std);
}

void write_bank(const H5Group& g, const std::vector<Site>& bank) {
  const std::size_t n = bank.size();
  std::vector<double> r, u, energy, weight;
  std::vector<std::int64_t> group, parent, progeny;
  r.reserve(3 * n);
  u.reserve(3 * n);
  for (const auto& s : bank) {
    r.insert(r.end(), {s.r.x, s.r.y, s.r.z});
    u.insert(u.end(), {s.u.x, s.u.y, s.u.z});
    energy.push_back(s.energy);
    weight.push_back(s.weight);
    group.push_back(s.group);
    parent.push_back(s.parent);
    progeny.push_back(s.progeny);
  }
  g.set_attribute("size", static_cast<std::int64_t>(n));
  g.write("r", r, {n, 3});
  g.write("u", u, {n, 3});
  g.write("energy", energy);
  g.write("weight", weight);
  g.write("group", group);
  g.write("parent", parent);
  g.write("progeny", progeny);
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
    for (const double v : {b.cmfd->k, b.cmfd->entropy}) c.add_real(v);
    for (const int v : {b.cmfd->outer_iterations, b.cmfd->inner_iterations, b.cmfd->converged ? 1 : 0}) {
      c.add(static_cast<std::uint64_t>(v));
    }
  }
  if (const auto& w = r.restart.cmfd) {
    for (const auto* v : {&w->sum, &w->batches, &w->scores}) c.add(checksum64(v->data(), v->size() * sizeof(std::int64_t)));
  }
  if (r.cmfd) {
    for (const int v : {r.cmfd->groups, r.cmfd->begin, r.cmfd->feedback ? 1 : 0, r.cmfd->window_size}) {
      c.add(static_cast<std::uint64_t>(v));
    }
  }
}

void write_cmfd(const H5Group& g, const RunResults& r) {
  const CmfdReport& c = *r.cmfd;
  g.set_attribute("groups", c.groups);
  g.set_attribute("begin", c.begin);
  g.set_attribute("feedback", c.feedback ? 1 : 0);
  g.set_attribute("window", c.window);
  g.set_attribute("window_size", c.window_size);
  g.write("shape", std::vector<std::int64_t>(c.shape.begin(), c.shape.end()));
  g.write("lower", std::vector<double>(c.lower.begin(), c.lower.end()));
  g.write("upper", std::vector<double>(c.upper.begin(), c.upper.end()));
  g.write("albedo", std::vector<double>(c.albedo.begin(), c.albedo.end()));
  g.write("energy_bounds", c.energy_bounds);
  g.write("collapse", std::vector<std::int64_t>(c.collapse.begin(), c.collapse.end()));
  std::vector<std::int64_t> batch, outer, inner, converged;
  std::vector<double> k, entropy;
  for (const auto& b : r.batch) {
    if (!b.cmfd) continue;
    batch.push_back(b.batch);
    k.push_back(b.cmfd->k);
    entropy.push_back(b.cmfd->entropy);
    outer.push_back(b.cmfd->outer_iterations);
    inner.push_back(b.cmfd->inner_iterations);
    converged.push_back(b.cmfd->converged ? 1 : 0);
  }
  g.write("batch", batch);
  g.write("k", k);
  g.write("entropy", entropy);
  g.write("outer_iterations", outer);
  g.write("inner_iterations", inner);
  g.write("converged", converged);
  if (const auto& w = r.restart.cmfd) {
    const H5Group window = g.create_group("window");
    window.write("sum", w->sum);
    window.write("batches", w->batches);
    window.write("scores", w->scores, {w->batches.size(), w->sum.size()});
  }
}

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
  for (const char* name : {"batch", "outer_iterations", "inner_iterations", "converged", "k", "entropy"}) {
    check_length(g, name, r.batch.size());
  }
  // The settings (what a restart's checks read: io/output/restart_check.cpp), then each solved batch.
  CmfdReport report;
  report.groups = static_cast<int>(g.attribute_int64("groups"));
  report.begin = static_cast<int>(g.attribute_int64("begin"));
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
  const auto batch = g.read_int64s("batch"), outer = g.read_int64s("outer_iterations"),
             inner = g.read_int64s("inner_iterations"), converged = g.read_int64s("converged");
  const auto k = g.read_doubles("k"), entropy = g.read_doubles("entropy");
  const auto bad = [&] { return OutputError("statepoint '" + path + "': the cmfd datasets disagree with each other or with /batches"); };
  for (const std::size_t n : {k.size(), entropy.size(), outer.size(), inner.size(), converged.size()}) {
    if (n != batch.size()) throw bad();
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch[i] < 1 || static_cast<std::size_t>(batch[i]) > r.batch.size()) throw bad();
    CmfdResult c;
    c.k = k[i];
    c.entropy = entropy[i];
    c.outer_iterations = static_cast<int>(outer[i]);
    c.inner_iterations = static_cast<int>(inner[i]);
    c.converged = converged[i] != 0;
    r.batch[static_cast<std::size_t>(batch[i] - 1)].cmfd = c;
  }
  if (g.contains("window")) {
    const H5Group window = g.open_group("window");
    check_length(window, "sum", static_cast<std::size_t>(limits::max_cmfd_tally_values));
    check_length(window, "batches", r.batch.size());
    check_length(window, "scores", static_cast<std::size_t>(limits::max_cmfd_tally_values) * r.batch.size());
    r.restart.cmfd = CmfdWindowData{window.read_int64s("sum"), window.read_int64s("batches"), window.read_int64s("scores")};
  }
}

}  // namespace

void write_statepoint(const std::string& path, const RunResults& results) {
  // Built in memory, written by write_file_atomically: a full disk is then one clear error, never a
  // failure inside HDF5's own flush (io/hdf5_file.hpp).
  H5File file = H5File::create(path);
  write_metadata(file, results);
  // Each group is closed at the end of its statement, before the file is.
  write_batches(file.create_group("batches"), results.batch);
  write_estimators(file.create_group("estimators"), results);
  write_timing(file.create_group("timing"), results);
  write_mesh(file.create_group("mesh"), results.mesh);
  write_bank(file.create_group("source_bank"), results.source_bank);
  write_restart(file.create_group("restart"), results.restart);
  if (results.cmfd) write_cmfd(file.create_group("cmfd"), results);
  file.set_attribute("checksum", content_checksum(results));
  detail::write_file_atomically(path, file.close_to_image(), "the statepoint");
}

namespace {

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

}  // namespace

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
  r.seed = static_cast<std::uint64_t>(file.attribute_int64("seed"));
  r.particles = file.attribute_int64("particles");
  r.batches = static_cast<int>(file.attribute_int64("batches"));
  r.inactive = static_cast<int>(file.attribute_int64("inactive"));
  r.lost_particles = file.attribute_int64("lost_particles");
  r.bank_overflows = static_cast<int>(file.attribute_int64("bank_overflows"));
  r.restart.fingerprint = std::bit_cast<std::uint64_t>(file.attribute_int64("fingerprint"));
  r.restart.k_prev = file.attribute_double("k_prev");

  {
    const H5Group g = file.open_group("batches");
    const std::size_t n = rows_of(path, g, "batches", "batch", 1, limits::max_batches);
    for (const char* name : {"active", "fission_sites", "k", "k_collision", "k_absorption", "k_tracklength", "entropy",
                             "k_mean", "k_std"}) {
      rows_of(path, g, "batches", name, 1, limits::max_batches, n);
    }
    const auto batch = g.read_int64s("batch"), active = g.read_int64s("active"), sites = g.read_int64s("fission_sites");
    const auto k = g.read_doubles("k"), kc = g.read_doubles("k_collision"), ka = g.read_doubles("k_absorption"),
               kt = g.read_doubles("k_tracklength"), entropy = g.read_doubles("entropy"),
               k_mean = g.read_doubles("k_mean"), k_std = g.read_doubles("k_std");
    for (std::size_t i = 0; i < batch.size(); ++i) {
      BatchResult b;
      b.batch = static_cast<int>(batch[i]);
      b.active = active.at(i) != 0;
      b.k = k.at(i);
      b.k_collision = kc.at(i);
      b.k_absorption = ka.at(i);
      b.k_tracklength = kt.at(i);
      b.entropy = entropy.at(i);
      b.k_running.mean = k_mean.at(i);
      b.k_running.std = k_std.at(i);
      // How each running k was formed is not stored: only the last one is reported again, and the
      // estimators' values rebuild it.
      b.fission_sites = sites.at(i);
      r.batch.push_back(b);
    }
  }
  {
    const H5Group g = file.open_group("restart");
    for (const char* name : {"flux_sum", "flux_sq", "fission_sum", "fission_sq"}) {
      rows_of(path, g, "restart", name, 1, limits::max_tally_values);
    }
    r.restart.flux_sum = g.read_doubles("flux_sum");
    r.restart.flux_sq = g.read_doubles("flux_sq");
    r.restart.fission_sum = g.read_doubles("fission_sum");
    r.restart.fission_sq = g.read_doubles("fission_sq");
  }
  {
    const H5Group g = file.open_group("source_bank");
    const std::size_t sites = rows_of(path, g, "source_bank", "energy", 1, limits::max_statepoint_sites);
    for (const char* name : {"r", "u"}) rows_of(path, g, "source_bank", name, 3, limits::max_statepoint_sites, sites);
    for (const char* name : {"weight", "group", "parent", "progeny"}) {
      rows_of(path, g, "source_bank", name, 1, limits::max_statepoint_sites, sites);
    }
    const auto pos = g.read_doubles("r"), dir = g.read_doubles("u"), energy = g.read_doubles("energy"),
               weight = g.read_doubles("weight");
    const auto group = g.read_int64s("group"), parent = g.read_int64s("parent"), progeny = g.read_int64s("progeny");
    const std::size_t n = energy.size();
    if (pos.size() != 3 * n || dir.size() != 3 * n || weight.size() != n || group.size() != n ||
        parent.size() != n || progeny.size() != n) {
      throw OutputError("statepoint '" + path + "': the source_bank datasets disagree in length");
    }
    r.source_bank.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      Site& s = r.source_bank[i];
      s.r = {pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]};
      s.u = {dir[3 * i], dir[3 * i + 1], dir[3 * i + 2]};
      s.energy = energy[i];
      s.weight = weight[i];
      s.group = static_cast<int>(group[i]);
      s.parent = parent[i];
      s.progeny = static_cast<int>(progeny[i]);
    }
  }
  if (file.contains("cmfd")) read_cmfd(file.open_group("cmfd"), path, r);
  if (content_checksum(r) != file.attribute_int64("checksum")) {
    throw OutputError("statepoint '" + path + "': checksum mismatch: the file was changed or damaged after it was written");
  }
  return r;
}

}  // namespace keff
