#pragma once
// A run as the host-only CLI sees it: no Kokkos header, so cli.cpp compiles with the host compiler in
// every build. Behind it is the Simulation (src/driver/simulation.hpp), compiled for the device.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "mpi/communicator.hpp"
#include "src/cmfd/cmfd_footprint.hpp"
#include "src/host/run_error.hpp"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

namespace keff {

// How the fission bank moves between batches: posted, then finished after the batch's reductions
// (overlapped), or finished right after posting (blocking: the baseline of the communication benchmark).
enum class ExchangeMode { overlapped, blocking };
inline constexpr EnumName<ExchangeMode> exchange_mode_names[] = {{ExchangeMode::overlapped, "overlapped"},
                                                                {ExchangeMode::blocking, "blocking"}};
constexpr std::span<const EnumName<ExchangeMode>> enum_names(ExchangeMode) { return exchange_mode_names; }

struct SimulationOptions {
  ExchangeMode exchange = ExchangeMode::overlapped;
  bool sync_timers = false;       // a barrier before each timed phase, for scaling studies
  std::uint64_t fingerprint = 0;  // of the input, written to statepoints (src/host/fingerprint.hpp)
};

// What a run was set up with, for the header the CLI prints.
struct RunSetup {
  std::string execution_space;     // Kokkos' name of the device execution space
  int concurrency = 1;             // its threads (CPU) or resident threads (GPU)
  int nuclides = 0, gridpoints = 0;
  // Evaluated data: "'<xsdir>': U235 (92235.00c, 293.6 K), ...; probability tables on, 31.2 MB"; empty
  // on synthetic or library data.
  std::string evaluated_library;
  int thermal_tables = 0;              // NCrystal materials, tabulated before transport
  double thermal_table_bytes = 0;      // their tables on the device
  double thermal_table_seconds = 0;    // and the host time they took
  std::int64_t local_histories = 0;  // this rank's histories per batch
  std::size_t state_bytes = 0;     // TransportState on this rank, scratch included
  std::size_t scratch_bytes = 0;   // of which per-thread micro-XS scratch
  std::int64_t event_slots = 0;    // event-based transport: particles in flight on this rank
  std::size_t bytes_per_slot = 0;  // of which each takes this much, its micro-XS row and queue entries included
  std::int64_t tally_values = 0;   // of every tally together, held whole on every rank
  std::size_t tally_host_bytes = 0;  // their batch and running sums on the host (the device's are in state_bytes)
  CmfdFootprint cmfd;              // [cmfd] on: its coarse problem's size (every rank holds it whole)
};

class Simulation;

class Run {
 public:
  // Builds Params and allocates State (collective over `comm`). `log` (rank 0 only; may be null)
  // receives the batch table.
  Run(const model::Problem& problem, const Communicator& comm, std::ostream* log, SimulationOptions options);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  RunSetup setup() const;
  // Continues from a statepoint of this input instead of sampling the initial source.
  void restart_from(const RunResults& statepoint);
  // Runs the remaining batches, writing statepoints; collective.
  RunResults run();

 private:
  std::unique_ptr<Simulation> sim_;
};

// "Kokkos 5.2.2, OpenMP": the Kokkos version and device backend this executable was built with.
std::string backend_description();

}  // namespace keff
