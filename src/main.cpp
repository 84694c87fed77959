// keff: MPI first, then Kokkos (which takes its --kokkos-* arguments out of argv), and both torn down in
// reverse order once every View and execution-space instance is gone.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "io/hdf5_file.hpp"
#include "src/cli.hpp"
#include "src/interrupt.hpp"
#include "src/run_options.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  // First of all: a SIGINT during start-up (MPI, Kokkos, reading the input) stops the run after its first
  // batch like any other, instead of killing it before the handler exists.
  keff::install_interrupt_handlers();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // Kokkos aborts with a backtrace on an argument it refuses (--kokkos-num-threads=0): check them first,
  // and agree across ranks so that all stop together (the lowest failing rank says why).
  const std::string bad = keff::check_kokkos_arguments(argc, argv, [](const char* name) -> const char* {
    return std::getenv(name);
  });
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int first_bad = bad.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first_bad < size) {
    if (rank == first_bad) std::cerr << "keff: error: " << bad << "\nrun 'keff --help' for usage" << std::endl;
    MPI_Finalize();
    return 2;
  }
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    status = keff::cli_main(argc, argv);
  }
  // HDF5 may still hold a file a failed write could not close (a full disk); its own clean-up at exit
  // would run after MPI_Finalize and crash there.
  keff::close_hdf5();
  MPI_Finalize();
  return status;
}
