#include "src/driver/run_tally.hpp"

#include "src/host/batch_table.hpp"
#include "src/host/geometry_report.hpp"
#include "src/host/run_error.hpp"
#include "src/host/statistics.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdio>
#include <iostream>
#include <ostream>
#include <utility>

namespace keff {

namespace {

// The batch's source weight: what its histories started with (this file's header).
double source_weight(const BatchCounters& global) { return from_fixed<estimator_fraction_bits>(global.weight_started); }

// Lost particles warned about one by one, as OpenMC does, before the rest are only counted.
constexpr int max_lost_warnings = 10;

}  // namespace

RunTally::RunTally(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                   const ProblemParams& params, const DomainDecomposition* domains, const MeshWindow& window,
                   std::ostream* log)
    : problem_(problem), comm_(comm), log_(log), groups_(params.tally_groups), window_(window),
      mesh_bins_(params.tally_mesh.n_bins()),
      mesh_(comm, domains ? domains->replicas() : comm.get(), domains ? domains->mesh() : DomainMesh{},
            params.tally_mesh, window, params.tally_groups),
      flux_host_("keff::host::tally_flux", params.tally_groups, window.n_bins()),
      fission_host_("keff::host::tally_fission", params.tally_groups, window.n_bins()),
      cmfd_(problem.cmfd_on() ? std::make_unique<CmfdAccelerator>(exec, *problem.cmfd, params.cmfd_mesh,
                                                                   params.cmfd_n_groups, comm)
                              : nullptr),
      k_prev_(problem.settings.initial_k) {}

bool RunTally::count_lost(std::int64_t lost) {
  lost_total_ += lost;
  return lost_total_ > problem_.settings.max_lost;
}

void RunTally::note_lost(int batch, const std::vector<LostParticle>& lost) {
  for (const LostParticle& l : lost) {
    const std::string what = lost_particle_text(problem_, batch, l);
    if (log_ && lost_warned_ < max_lost_warnings) {
      std::cerr << "keff: warning: " << what << "\n";
      if (++lost_warned_ == max_lost_warnings) {
        std::cerr << "keff: warning: further lost particles are counted, not listed (the JSON summary lists the first "
                  << LostHistory::listed << ")\n";
      }
    }
    if (lost_.size() < LostHistory::listed) lost_.push_back({batch, l, what});
  }
}

void RunTally::add_mesh_scores(const DeviceExec& exec, const MeshTally<DeviceMem>& scores, const BatchCounters& global,
                               const std::function<void()>& progress) {
  Kokkos::Profiling::ScopedRegion region("keff::tally::accumulate");
  Kokkos::deep_copy(exec, flux_host_, scores.flux);
  Kokkos::deep_copy(exec, fission_host_, scores.fission);
  exec.fence();
  mesh_.add_batch(flux_host_, fission_host_, 1.0 / source_weight(global), progress);
}

std::optional<Kokkos::View<const Real*, DeviceMem>> RunTally::solve_cmfd(const DeviceExec& exec, int batch,
                                                                         const CmfdTally<DeviceMem>& scores) {
  cmfd_batch_ = cmfd_->add_batch(exec, batch, scores);
  if (!problem_.cmfd->feedback || !cmfd_batch_->converged) return std::nullopt;
  return cmfd_->source();
}

BatchResult RunTally::record(int batch, const BatchCounters& global, double entropy, std::int64_t fission_sites) {
  const double weight = source_weight(global);
  BatchResult r;
  r.batch = batch;
  r.active = batch > problem_.settings.inactive;
  r.fission_sites = fission_sites;
  r.entropy = entropy;
  r.k_collision = from_fixed<estimator_fraction_bits>(global.k_collision) / weight;
  r.k_absorption = from_fixed<estimator_fraction_bits>(global.k_absorption) / weight;
  r.k_tracklength = from_fixed<estimator_fraction_bits>(global.k_tracklength) / weight;
  r.k = r.k_collision;
  r.cmfd = std::exchange(cmfd_batch_, std::nullopt);
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

// With CMFD, two more columns: k_cmfd and the entropy of the CMFD source (on the coarse mesh), from
// [cmfd] begin on; a '*' after k_cmfd marks a solve that did not converge (no feedback that batch).
void RunTally::print_header() const {
  if (log_) *log_ << batch_table_header(cmfd_ != nullptr);
}

void RunTally::print_row(const BatchResult& r) const {
  if (log_) *log_ << format_batch_row(r, cmfd_ != nullptr) << std::flush;
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
  if (!cmfd_) return;
  if (sp.restart.cmfd) {
    cmfd_->restore(*sp.restart.cmfd);
  } else if (batches_done() >= problem_.cmfd->begin) {
    throw RunError("the statepoint holds no CMFD tally window, but CMFD ([cmfd] at " + problem_.cmfd->where.str() +
                   ") tallies from batch " + std::to_string(problem_.cmfd->begin) + " and the statepoint is after batch " +
                   std::to_string(batches_done()) + " (allowed: a statepoint of a run with CMFD on, or --no-cmfd)");
  }
}

void RunTally::collect(RunResults& res) const {
  const auto& s = problem_.settings;
  res.batch = batches_;
  res.k_collision = mean_std(k_active_[0]);
  res.k_absorption = mean_std(k_active_[1]);
  res.k_tracklength = mean_std(k_active_[2]);
  res.k_combined = combine_estimators(k_active_);
  res.lost_particles = lost_total_;
  res.lost = lost_;
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
  if (cmfd_) {
    const model::Cmfd& c = *problem_.cmfd;
    res.cmfd = CmfdReport{c.mesh.shape, c.mesh.box.lower, c.mesh.box.upper, c.albedo,      c.n_groups(),
                          c.energy_bounds, c.collapse,    c.begin,          c.feedback,    std::string(name_of(c.window)),
                          c.window == model::CmfdWindow::rolling ? c.window_size : 0};
    res.restart.cmfd = cmfd_->window();
  }
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
