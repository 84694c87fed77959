// The host-only CLI's door to the device-compiled Simulation (src/driver/run.hpp).
#include "src/driver/run.hpp"

#include "src/driver/simulation.hpp"

namespace keff {

Run::Run(const model::Problem& problem, const Communicator& comm, std::ostream* log, SimulationOptions options)
    : sim_(std::make_unique<Simulation>(DeviceExec(), problem, comm, log, options)) {}

Run::~Run() = default;

RunSetup Run::setup() const { return sim_->setup(); }

void Run::restart_from(const RunResults& statepoint) { sim_->restart_from(statepoint); }

RunResults Run::run() { return sim_->run(); }

std::string backend_description() {
  return "Kokkos " + std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOS_VERSION % 100) + ", " + DeviceExec::name();
}

}  // namespace keff
