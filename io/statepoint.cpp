// The HDF5 statepoint: run metadata, k and entropy per batch, the estimators, the mesh tally and the
// final source bank, written by one rank and published atomically. The layout (io/README.md) keeps
// every array a plain dataset so h5py, h5dump and a later restart read it without keff's types.
#include "io/atomic_write.hpp"
#include "io/hdf5_file.hpp"
#include "io/output.hpp"

#include <cstdint>
#include <vector>

namespace keff {
namespace {

// Bump when the layout changes incompatibly; restart reading checks it.
constexpr std::int64_t statepoint_version = 1;

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
  root.set_attribute("lost_particles", r.lost_particles);
  root.set_attribute("bank_overflows", r.bank_overflows);
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
}

void write_timing(const H5Group& g, const RunResults& r) {
  for (const auto& [phase, seconds] : r.timing) g.set_attribute(phase, seconds);
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

}  // namespace

void write_statepoint(const std::string& path, const RunResults& results) {
  detail::write_atomically(path, [&](const std::string& tmp) {
    H5File file = H5File::create(tmp);
    write_metadata(file, results);
    // Each group is closed at the end of its statement, before the file is.
    write_batches(file.create_group("batches"), results.batch);
    write_estimators(file.create_group("estimators"), results);
    write_timing(file.create_group("timing"), results);
    write_mesh(file.create_group("mesh"), results.mesh);
    write_bank(file.create_group("source_bank"), results.source_bank);
    file.close();
  });
}

}  // namespace keff
