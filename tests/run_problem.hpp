#pragma once
// Runs a problem to completion in-process, quietly, for tests that check its answers.
#include "io/input/input.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/simulation.hpp"

#include <string>

namespace keff::test {

inline model::Problem example(const std::string& name) {
  return read_problem_file(std::string(KEFF_EXAMPLES) + "/" + name);
}

inline model::Problem sized(model::Problem problem, std::int64_t particles, int batches, int inactive) {
  problem.settings.particles = particles;
  problem.settings.batches = batches;
  problem.settings.inactive = inactive;
  problem.settings.inactive_automatic = false;
  problem.settings.statepoint.clear();
  model::choose_populations(problem);  // as keff run --particles does
  return problem;
}

// Over the ranks of `parent` (MPI_COMM_SELF: this rank alone).
inline RunResults run_quietly(const model::Problem& problem, MPI_Comm parent = MPI_COMM_WORLD,
                              SimulationOptions options = {}) {
  const Communicator comm(parent);
  Simulation sim(DeviceExec(), problem, comm, nullptr, options);
  return sim.run();
}

inline RunResults run_quietly(const model::Problem& problem, std::int64_t particles, int batches, int inactive) {
  return run_quietly(sized(problem, particles, batches, inactive));
}

}  // namespace keff::test
