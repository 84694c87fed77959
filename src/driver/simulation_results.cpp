// What a run reports, assembled from its owners: the run's description, the batch record, the tallies,
// CMFD's settings and window, the timings reduced over ranks, and with a statepoint the source bank
// (src/driver/simulation.hpp, Simulation::collect_results).
#include "src/driver/simulation.hpp"

#include "io/input/settings_rows.hpp"
#include "io/output/restart_check.hpp"

namespace keff {

using detail::reported_phases;
using detail::whole_active_batches;

RunResults Simulation::collect_results(bool with_bank) {
  const auto& s = problem_.settings;
  const RunSetup setup = transporter_.setup();
  RunResults res;
  res.input = problem_.source_name;
  res.mode = name_of(s.mode);
  res.energy_grid = s.mode == model::PhysicsMode::multigroup ? "" : name_of(s.energy_grid);
  res.thermal = s.mode == model::PhysicsMode::multigroup ? "" : name_of(s.thermal);
  res.ncrystal = ncrystal_of(problem_);
  res.ncrystal_data = ncrystal_data_of(problem_);
  res.settings = settings::restart_values(problem_.settings);
  res.execution_space = setup.execution_space;
  res.threads = setup.concurrency;
  res.ranks = comm_.size();
  res.seed = s.seed;
  res.particles = split_.total();
  res.batches = s.batches;
  res.inactive = s.inactive;
  res.generations_per_batch = s.generations_per_batch;
  res.nuclides = setup.nuclides;
  res.gridpoints = setup.gridpoints;
  record_.collect(res);
  res.tallies = tallies_.collect(record_.active_batches());
  if (s.max_batches > 0) {
    const std::string end = s.batches_final ? "--batches " + std::to_string(s.batches)
                                            : "settings.max_batches = " + std::to_string(s.max_batches);
    res.triggers = triggers_.met ? "every tally trigger held after batch " +
                                       std::to_string(record_.generations_done() / s.generations_per_batch)
                                 : end + " reached before every tally trigger held: " + triggers_.worst;
  }
  if (cmfd_) {
    const model::Cmfd& c = *problem_.cmfd;
    res.cmfd = CmfdReport{c.mesh.shape, c.mesh.box.lower, c.mesh.box.upper, c.albedo,      c.n_groups(),
                          c.energy_bounds, c.collapse,    c.begin,          problem_.cmfd_end(),
                          c.feedback,      std::string(name_of(c.window)),
                          c.window == model::CmfdWindow::rolling ? c.window_size : 0};
    res.restart.cmfd = cmfd_->window();
  }
  tallies_.save_partial(res.restart);
  res.restart.fingerprint = options_.fingerprint;

  res.timing = reduce_over_ranks(timers_, comm_, reported_phases);
  res.synchronized_timers = options_.sync_timers;
  // The slowest rank sets the pace of a batch.
  const double histories = static_cast<double>(split_.total()) * record_.active_generations_run();
  for (const auto& p : res.timing) {
    if (p.phase == "transport active" && p.max > 0) res.particles_per_second = histories / p.max;
  }
  const char* const whole[] = {whole_active_batches};
  for (const auto& p : reduce_over_ranks(timers_, comm_, whole)) res.batch_particles_per_second = histories / p.max;
  res.exchange = source_.exchange_report(options_.exchange);
  res.transport = transporter_.report();
  if (const DomainDecomposition* d = domains_.get()) {
    res.domains = d->report(comm_);
    res.domains->sites_routed = comm_.sum(source_.sites_routed());
  }
  if (with_bank) res.source_bank = source_.gather();
  return res;
}

}  // namespace keff
