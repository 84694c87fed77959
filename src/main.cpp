// keff: MPI first, then Kokkos (which takes its --kokkos-* arguments out of argv), and both torn down in
// reverse order once every View and execution-space instance is gone.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "src/cli.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    status = keff::cli_main(argc, argv);
  }
  MPI_Finalize();
  return status;
}
