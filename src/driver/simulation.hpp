#pragma once
// The power iteration, read in one screen: a loop over batches that tells its owners what to do. What
// they share is built first, from the top, and handed to each (Celeritas' CoreParams): the problem's
// Params (src/params/build_problem.hpp), how transport runs (TransportPlan) and, with [domains], the
// domain decomposition.
//
//   Transporter     (src/driver/transporter)      the TransportState, history or event transport, the
//                                                 rerun of a batch whose fission bank overflowed
//   SourceCycle     (src/driver/source_cycle)     every site buffer between batches: bank ordering, domain
//                                                 routing, the comb and its exchange between ranks, the feed
//   BatchRecord     (src/driver/batch_record)     k estimators, leakage, batch history, lost and overflow
//                                                 counts, the batch table
//   RunTallies      (src/tally/run_tallies)       the tallies' sums over ranks, statistics and triggers
//   CmfdAccelerator (src/cmfd/cmfd_accelerator)   with [cmfd]: the coarse-mesh window and its solve
//
// A generation (src/README.md): transport -> order the bank -> [CMFD: solve, reweight the bank] -> post
// the bank exchange -> reductions (k, entropy, tallies) while it is in flight -> record. A batch is
// settings.generations_per_batch generations (one by default); k's statistics, the tallies, triggers and
// statepoint intervals count batches. With tally triggers the run goes on past settings.batches until
// they hold or settings.max_batches. A generation's histories are split evenly over ranks once (split_):
// the one particle count every owner reads.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/run.hpp"
#include "src/cmfd/cmfd_accelerator.hpp"
#include "src/driver/batch_record.hpp"
#include "src/driver/source_cycle.hpp"
#include "src/driver/transporter.hpp"
#include "src/tally/run_tallies.hpp"
#include "src/host/timers.hpp"

#include <chrono>
#include <iosfwd>
#include <memory>
#include <optional>

namespace keff {

namespace detail {
// Every phase the summary reports, in report order. Fixed, so that every rank reduces the same list.
inline constexpr const char* reported_phases[] = {"setup",          "initial source",     "transport inactive",
                                                  "transport active", "bank sort",        "cmfd", "bank exchange post",
                                                  "bank exchange wait", "source routing", "reductions",
                                                  "io"};
// Active batches from transport to the batch's row, bank phases and reductions included: the rate a user
// waits for. Not a phase of the table, which it would count twice.
inline constexpr const char* whole_active_batches = "active batches";
}  // namespace detail

class Simulation {
 public:
  Simulation(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, std::ostream* log,
             SimulationOptions options = {});

  // Samples the initial source (unless restarted) and runs the remaining batches, writing statepoints.
  RunResults run();
  // Continues from a statepoint instead of the initial source: its batches, accumulators and source.
  // The caller has checked that it comes from this input (fingerprint) and leaves batches to run.
  void restart_from(const RunResults& statepoint);

  // The steps of run(), public so tests can drive and observe them.
  void sample_initial_source();
  // Generations are counted from 1 over the run (settings.generations_per_batch of them a batch; with
  // one, a generation is a batch): this rank's histories of the generation; allocates nothing.
  TransportedBatch transport(int generation);
  // The generation's result. A generation abandoned part-way (a signal, or one that cannot end) throws
  // Interrupted or RunError on every rank.
  BatchResult run_batch(int generation);
  // Collective: timings reduced over ranks, and with `with_bank` the source gathered on rank 0.
  RunResults collect_results(bool with_bank = true);

  RunSetup setup() const;

 private:
  // The phase's timer, after a barrier when timers are synchronized.
  ScopedPhase timed(const char* phase);
  bool active(int generation) const;      // in an active batch
  bool ends_batch(int generation) const;  // the last of its batch
  std::optional<CmfdResult> accelerate(int generation);
  // After a generation: whether the run goes on (to the end of its batch; below settings.batches; past it
  // while a tally trigger fails, up to settings.max_batches). Sets triggers_.
  bool go_on(int generation);
  void finish_exchange();
  [[noreturn]] void stop_inside(int generation, const TransportedBatch& abandoned);
  [[noreturn]] void stop_before(int generation, int sig);
  bool statepoint_due(int generation, bool last) const;
  // settings.inactive = "auto", after generation `generation`: ends the inactive batches here when the
  // source is stationary (src/host/stationarity.hpp), from limits::min_automatic_inactive batches on.
  void decide_inactive(int generation);
  void write_statepoint_now();

  std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
  DeviceExec exec_;
  // The run's own copy: with settings.inactive = "auto" the run sets settings.inactive when its source
  // is stationary (decide_inactive), and every owner below reads the problem through this copy.
  model::Problem problem_;
  const Communicator& comm_;
  SimulationOptions options_;
  std::ostream* log_;  // rank 0's log, null elsewhere
  PhaseTimers timers_;
  const EvenSplit split_;  // the batch's histories over ranks
  const ProblemParams params_;
  const TransportPlan plan_;
  std::unique_ptr<DomainDecomposition> domains_;  // [domains]: space split over the ranks
  Transporter transporter_;
  SourceCycle source_;
  BatchRecord record_;
  RunTallies tallies_;
  std::unique_ptr<CmfdAccelerator> cmfd_;  // [cmfd] on
  TriggerStatus triggers_;
};

}  // namespace keff
