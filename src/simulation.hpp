#pragma once
// The power iteration. Owns the mutable State of a run (source and next-source sites, the fission bank,
// tally accumulators, per-thread workspaces), all allocated once in the constructor, and runs batches:
// transport -> (rerun on bank overflow) -> sort the bank -> post the bank exchange -> reductions (k,
// entropy, mesh tally) while the exchange is in flight -> finish the exchange -> statistics.
// Statepoints every settings.statepoint_interval batches; a run continues from one with restart_from().
#include "io/model.hpp"
#include "io/run_results.hpp"
#include "kernels/batch_control.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/physics_ce.hpp"
#include "kernels/physics_mg.hpp"
#include "kernels/tally_data.hpp"
#include "kernels/workspace.hpp"
#include "mpi/bank_exchange.hpp"
#include "mpi/communicator.hpp"
#include "src/build_problem.hpp"
#include "src/timers.hpp"

#include <array>
#include <iosfwd>
#include <stdexcept>
#include <vector>

namespace keff {

// The run cannot go on: too many lost particles, no fission sites, an initial source that found no
// fissionable material. what() says which and where.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How the fission bank moves between batches: posted, then finished after the batch's reductions
// (overlapped), or finished right after posting (blocking: the baseline of the communication benchmark).
enum class ExchangeMode { overlapped, blocking };

struct SimulationOptions {
  ExchangeMode exchange = ExchangeMode::overlapped;
  bool sync_timers = false;       // a barrier before each timed phase, for scaling studies
  std::uint64_t fingerprint = 0;  // of the input, written to statepoints (src/fingerprint.hpp)
};

class Simulation {
 public:
  // Builds Params and allocates State. `log` (rank 0 only; may be null) receives the batch table.
  Simulation(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, std::ostream* log,
             SimulationOptions options = {});

  // Samples the initial source (unless restarted) and runs the remaining batches, writing statepoints.
  RunResults run();
  // Continues from a statepoint instead of the initial source: its batches, accumulators and source.
  // The caller has checked that it comes from this input (fingerprint) and leaves batches to run.
  void restart_from(const RunResults& statepoint);

  // The steps of run(), public so tests can drive and observe them.
  void sample_initial_source();
  BatchCounters transport_batch(int batch);  // histories of this rank's source; allocates nothing
  BatchResult run_batch(int batch);
  // Collective: timings reduced over ranks, and with `with_bank` the source gathered on rank 0.
  RunResults collect_results(bool with_bank = true);

  const ProblemParams& params() const { return params_; }
  const PhaseTimers& timers() const { return timers_; }
  std::int64_t local_particles() const { return slice_.count; }

 private:
  template <class Physics>
  BatchCounters transport_with(const Physics& physics, const BatchControl& control);
  template <class Physics>
  void sample_initial_source_with(const Physics& physics);
  std::int64_t read_bank_count();
  void grow_bank(std::int64_t needed);
  // The phase's timer, after a barrier when timers are synchronized.
  ScopedPhase timed(const char* phase);
  void accumulate_mesh_tally();
  double entropy_of_bank(std::int64_t local_sites);
  void check_lost(int batch, std::int64_t lost_this_batch);
  bool statepoint_due(int batch) const;
  void write_statepoint_now();
  void print_header() const;
  void print_row(const BatchResult& r) const;

  DeviceExec exec_;
  const model::Problem& problem_;
  const Communicator& comm_;
  std::ostream* log_;
  SimulationOptions options_;
  PhaseTimers timers_;
  ProblemParams params_;
  ContinuousEnergyPhysics<DeviceMem> ce_physics_;
  MultigroupPhysics<DeviceMem> mg_physics_;
  Slice slice_;  // this rank's share of the source

  // State
  Kokkos::View<Site*, DeviceMem> source_, next_source_;
  FissionBank<DeviceMem> bank_;
  Kokkos::View<std::int64_t*, DeviceMem> bank_keys_;
  Kokkos::View<std::int64_t, Kokkos::HostSpace> bank_count_host_;
  MeshTally<DeviceMem> mesh_tally_;
  Kokkos::View<std::int64_t*, DeviceMem> entropy_counts_;
  LostRecord<DeviceMem> lost_;
  Workspace<DeviceExec> workspace_;
  BankExchange exchange_;
  // Host copies of what is reduced over ranks each batch, allocated once.
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Kokkos::HostSpace> flux_host_, fission_host_;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> entropy_host_;

  // Accumulated over batches (host)
  int first_batch_ = 1;  // > 1 after a restart
  Real k_prev_ = 1.0;
  std::int64_t lost_total_ = 0;
  int bank_overflows_ = 0;
  int active_batches_ = 0;
  std::vector<BatchResult> batches_;
  std::array<std::vector<double>, 3> k_active_;  // collision, absorption, track length
  std::vector<double> flux_sum_, flux_sq_, fission_sum_, fission_sq_;
};

}  // namespace keff
