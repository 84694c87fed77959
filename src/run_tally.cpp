#include "src/run_tally.hpp"

#include "src/batch_table.hpp"
#include "src/run.hpp"
#include "src/statistics.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdio>
#include <ostream>

namespace keff {

RunTally::RunTally(const model::Problem& problem, const Communicator& comm, const EvenSplit& split,
                   const ProblemParams& params, const DomainDecomposition* domains, const MeshWindow& window,
                   std::ostream* log)
    : problem_(problem), comm_(comm), split_(split), log_(log), groups_(params.tally_groups), window_(window),
      mesh_bins_(params.tally_mesh.n_bins()),
      mesh_(comm, domains ? domains->replicas() : comm.get(), domains ? domains->mesh() : DomainMesh{},
            params.tally_mesh, window, params.tally_groups),
      flux_host_("keff::host::tally_flux", params.tally_groups, window.n_bins()),
      fission_host_("keff::host::tally_fission", params.tally_groups, window.n_bins()),
      k_prev_(problem.settings.initial_k) {}

bool RunTally::count_lost(std::int64_t lost) {
  lost_total_ += lost;
  return lost_total_ > problem_.settings.max_lost;
}

void RunTally::add_mesh_scores(const DeviceExec& exec, const MeshTally<DeviceMem>& scores,
                               const std::function<void()>& progress) {
  Kokkos::Profiling::ScopedRegion region("keff::tally::accumulate");
  Kokkos::deep_copy(exec, flux_host_, scores.flux);
  Kokkos::deep_copy(exec, fission_host_, scores.fission);
  exec.fence();
  mesh_.add_batch(flux_host_, fission_host_, 1.0 / static_cast<double>(split_.total()), progress);
}

BatchResult RunTally::record(int batch, const BatchCounters& global, double entropy, std::int64_t fission_sites) {
  const double n = static_cast<double>(split_.total());
  BatchResult r;
  r.batch = batch;
  r.active = batch > problem_.settings.inactive;
  r.fission_sites = fission_sites;
  r.entropy = entropy;
  r.k_collision = from_fixed<estimator_fraction_bits>(global.k_collision) / n;
  r.k_absorption = from_fixed<estimator_fraction_bits>(global.k_absorption) / n;
  r.k_tracklength = from_fixed<estimator_fraction_bits>(global.k_tracklength) / n;
  r.k = r.k_collision;
  if (r.active) {
    k_active_[0].push_back(r.k_collision);
    k_active_[1].push_back(r.k_absorption);
    k_active_[2].push_back(r.k_tracklength);
    r.k_running = combine_estimators(k_active_);
  }
  k_prev_ = r.k_collision;
  batches_.push_back(r);
  return r;
}

void RunTally::print_header() const {
  if (log_) *log_ << batch_table_header();
}

void RunTally::print_row(const BatchResult& r) const {
  if (log_) *log_ << format_batch_row(r) << std::flush;
}

void RunTally::restore(const RunResults& sp) {
  const auto n_tally = static_cast<std::size_t>(groups_) * static_cast<std::size_t>(mesh_bins_);
  if (sp.restart.flux_sum.size() != n_tally || sp.restart.flux_sq.size() != n_tally ||
      sp.restart.fission_sum.size() != n_tally || sp.restart.fission_sq.size() != n_tally) {
    throw RunError("the statepoint's mesh tally does not match this problem's mesh and groups");
  }
  batches_ = sp.batch;
  for (auto& k : k_active_) k.clear();
  for (const auto& b : batches_) {
    if (!b.active) continue;
    k_active_[0].push_back(b.k_collision);
    k_active_[1].push_back(b.k_absorption);
    k_active_[2].push_back(b.k_tracklength);
  }
  restored_active_ = static_cast<int>(k_active_[0].size());
  k_prev_ = sp.restart.k_prev;
  lost_total_ = sp.lost_particles;
  bank_overflows_ = sp.bank_overflows;
  mesh_.restore(sp.restart);
}

void RunTally::collect(RunResults& res) const {
  const auto& s = problem_.settings;
  res.batch = batches_;
  res.k_collision = mean_std(k_active_[0]);
  res.k_absorption = mean_std(k_active_[1]);
  res.k_tracklength = mean_std(k_active_[2]);
  res.k_combined = combine_estimators(k_active_);
  res.lost_particles = lost_total_;
  res.bank_overflows = bank_overflows_;
  res.restart.k_prev = k_prev_;

  auto& m = res.mesh;
  for (std::size_t a = 0; a < 3; ++a) {
    m.shape[a] = s.tally_mesh.shape[a];
    m.lower[a] = s.tally_mesh.box.lower[a];
    m.upper[a] = s.tally_mesh.box.upper[a];
  }
  if (s.mode == model::PhysicsMode::continuous_energy) m.energy_bounds = s.tally_energy_bounds;
  m.groups = groups_;
  mesh_.collect(static_cast<int>(k_active_[0].size()), m, res.restart);  // on rank 0
}

void RunTally::report_memory(DomainReport& d) const {
  // Device scores and their host copies for the window, statistics for the owned bins.
  const auto groups = static_cast<std::size_t>(groups_);
  const auto window = static_cast<std::size_t>(window_.n_bins());
  const std::size_t mine = 4 * groups * window * sizeof(Fixed) + mesh_.bytes();
  const auto all = static_cast<std::size_t>(mesh_bins_);
  d.tally_bins_all = static_cast<std::int64_t>(all);
  d.tally_bins_max = comm_.max(static_cast<std::int64_t>(window));
  d.tally_bytes_max = static_cast<std::size_t>(comm_.max(static_cast<std::int64_t>(mine)));
  d.tally_bytes_replicated = 4 * groups * all * sizeof(Fixed) + groups * all * (2 * sizeof(Fixed) + 4 * sizeof(double));
}

}  // namespace keff
