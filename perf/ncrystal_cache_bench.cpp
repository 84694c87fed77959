// What one NCrystal cache per (thread, material) saves against a fresh cache per call: the same input run
// with NCrystal asked in transport (settings.thermal_tables = false) both ways, interleaved, at the
// threads Kokkos is given. Prints transport particles/s of each run and k's bits, which must be the same
// both ways (a cache holds what NCrystal computed, never what it samples). perf/ncrystal_benchmark.sh runs
// it and the tables beside it; numbers go to perf/RESULTS.md ("NCrystal").
//
//   ncrystal_cache_bench INPUT [--rounds 3] [--particles N] [--batches B] [--inactive I] [Kokkos flags]
#include "io/input/input.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/simulation.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int status = 0;
  try {
    if (argc < 2) throw std::runtime_error("usage: ncrystal_cache_bench INPUT [--rounds R] [--particles N] [--batches B] [--inactive I]");
    keff::model::Problem problem = keff::read_problem_file(argv[1]);
    int rounds = 3;
    for (int i = 2; i + 1 < argc; i += 2) {
      const long long v = std::stoll(argv[i + 1]);
      if (!std::strcmp(argv[i], "--rounds")) rounds = static_cast<int>(v);
      else if (!std::strcmp(argv[i], "--particles")) problem.settings.particles = v;
      else if (!std::strcmp(argv[i], "--batches")) problem.settings.batches = static_cast<int>(v);
      else if (!std::strcmp(argv[i], "--inactive")) {
        problem.settings.inactive = static_cast<int>(v);
        problem.settings.inactive_automatic = false;
      } else {
        throw std::runtime_error(std::string("unknown argument ") + argv[i]);
      }
    }
    problem.settings.statepoint.clear();
    problem.settings.thermal_tables = false;
    const keff::Communicator comm(MPI_COMM_WORLD);
    std::printf("# %s, %d thread(s): transport particles/s (active batches), k\n", argv[1],
                keff::DeviceExec().concurrency());
    for (int round = 1; round <= rounds; ++round) {
      for (const bool fresh : {false, true}) {
        problem.settings.ncrystal_fresh_cache_per_call = fresh;
        keff::Simulation sim(keff::DeviceExec(), problem, comm, nullptr, {});
        const keff::RunResults r = sim.run();
        std::printf("%d %s %.5g k %.17g (%a)\n", round, fresh ? "fresh_cache_per_call" : "cache_per_thread",
                    r.particles_per_second, r.k_combined.mean, r.k_combined.mean);
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "ncrystal_cache_bench: " << e.what() << "\n";
    status = 1;
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}
