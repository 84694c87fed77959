#pragma once
// The power iteration: a driver over Params (built once) and one TransportState (allocated once, owned
// here). A batch: transport -> (rerun on bank overflow) -> order the bank -> post the bank exchange ->
// reductions (k, entropy, mesh tally) while the exchange is in flight -> finish the exchange ->
// statistics. Statepoints every settings.statepoint_interval batches; a run continues from one with
// restart_from().
#include "io/model.hpp"
#include "io/run_results.hpp"
#include "kernels/batch_control.hpp"
#include "kernels/physics_ce.hpp"
#include "kernels/physics_mg.hpp"
#include "kernels/tally_data.hpp"
#include "kernels/transport_event.hpp"
#include "kernels/transport_state.hpp"
#include "mpi/bank_exchange.hpp"
#include "mpi/communicator.hpp"
#include "src/build_problem.hpp"
#include "kernels/device.hpp"
#include "src/run.hpp"
#include "src/domain_decomposition.hpp"
#include "src/source_feed.hpp"
#include "src/tally_accumulator.hpp"
#include "src/timers.hpp"

#include <array>
#include <chrono>
#include <iosfwd>
#include <memory>
#include <vector>

namespace keff {

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
  BatchCounters transport_batch(int batch);  // histories of this rank's source; allocates nothing
  BatchResult run_batch(int batch);
  // Collective: timings reduced over ranks, and with `with_bank` the source gathered on rank 0.
  RunResults collect_results(bool with_bank = true);

  const ProblemParams& params() const { return params_; }
  const TransportState<DeviceExec>& state() const { return state_; }
  const PhaseTimers& timers() const { return timers_; }
  RunSetup setup() const;
  // Event-based transport: rounds and queue lengths summed over the batches run so far.
  const EventStatistics& event_statistics() const { return event_stats_; }

 private:
  template <class Physics>
  BatchCounters transport_with(const Physics& physics, const BatchControl& control);
  template <class Physics>
  void sample_initial_source_with(const Physics& physics);
  BatchCoordinates coordinates(int batch) const;
  std::int64_t read_bank_count();
  // The phase's timer, after a barrier when timers are synchronized.
  ScopedPhase timed(const char* phase);
  void accumulate_mesh_tally();
  double entropy_of_bank(std::int64_t local_sites);
  void check_batch(int batch, const BatchCounters& global);
  bool statepoint_due(int batch) const;
  DomainReport domain_report() const;
  void write_statepoint_now();
  void print_header() const;
  void print_row(const BatchResult& r) const;

  std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
  DeviceExec exec_;
  const model::Problem& problem_;
  const Communicator& comm_;
  std::ostream* log_;
  SimulationOptions options_;
  PhaseTimers timers_;
  ProblemParams params_;
  ContinuousEnergyPhysics<DeviceMem> ce_physics_;
  MultigroupPhysics<DeviceMem> mg_physics_;
  EvenSplit split_;     // the batch's histories over ranks
  IndexRange local_;    // this rank's part of it
  std::size_t bytes_per_slot_ = 0;  // event-based transport: of one slot
  std::int64_t event_slots_ = 0;    // 0: history-based transport

  std::unique_ptr<DomainDecomposition> domains_;  // [domains]: space split over the ranks
  TransportState<DeviceExec> state_;
  BankExchange exchange_;
  SourceFeed feed_;                        // the next batch's source, as the exchange delivers it
  TallyAccumulator tally_;                 // mesh-tally statistics of the bins this rank owns
  std::int64_t sites_transported_early_ = 0;
  // Host copies of what is reduced over ranks each batch, allocated once.
  Kokkos::View<std::int64_t, Kokkos::HostSpace> bank_count_host_;
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Kokkos::HostSpace> flux_host_, fission_host_;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> entropy_host_;

  // Accumulated over batches (host)
  int first_batch_ = 1;  // > 1 after a restart
  Real k_prev_ = 1.0;
  std::int64_t lost_total_ = 0;
  int bank_overflows_ = 0;
  int active_batches_ = 0;
  std::vector<BatchResult> batches_;
  EventStatistics event_stats_;
  std::array<std::vector<double>, 3> k_active_;  // collision, absorption, track length
};

}  // namespace keff
