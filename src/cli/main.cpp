// keff: MPI first, then Kokkos (which takes its --kokkos-* arguments out of argv), and both torn down in
// reverse order once every View and execution-space instance is gone.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "io/hdf5_file.hpp"
#include "io/limits.hpp"
#include "io/test_point.hpp"
#include "src/cli/cli.hpp"
#include "src/cli/run_options.hpp"
#include "src/host/interrupt.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

#if defined(KOKKOS_ENABLE_OPENMP)
// limits::max_threads is the size of the OpenMP backend's thread pool: a larger count hangs or crashes
// Kokkos::initialize.
static_assert(Kokkos::Impl::OpenMPTraits::MAX_THREAD_COUNT >= keff::limits::max_threads,
              "io/limits.hpp: max_threads exceeds Kokkos' OpenMP thread pool");
#endif

// Loads a Kokkos Tools library as Kokkos will (dlopen, RTLD_NOW | RTLD_GLOBAL) and keeps it loaded, so
// Kokkos' own dlopen finds it and its constructors run once; Kokkos only prints an error for a library
// it cannot load, and the run went on without the tool it was asked for.
std::string tool_library_problem(const std::string& name) {
  if (::dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL)) return {};
  const char* why = ::dlerror();
  return why ? why : "the dynamic loader gives no reason";
}

// Kokkos warns on every rank of every run when OMP_PROC_BIND is unset. The OpenMP runtime read its
// environment when it was loaded, before main(), and with neither OMP_PROC_BIND nor OMP_PLACES set it
// binds no thread: saying so (false) silences the warning and changes nothing. examples/README.md says
// how to bind (OMP_PROC_BIND=spread OMP_PLACES=threads); with OMP_PLACES alone Kokkos' warning stays.
void state_openmp_binding() {
  if (!std::getenv("OMP_PROC_BIND") && !std::getenv("OMP_PLACES")) ::setenv("OMP_PROC_BIND", "false", 0);
}

// Results printed to a full disk or a closed pipe (`keff tally show SP --csv > /dev/full`) must not end
// with status 0: the stream's state is checked once, after everything was printed.
int checked_standard_output(int status) {
  errno = 0;
  std::cout.flush();
  if (std::cout) return status;
  const int error = errno;
  std::cerr << "keff: error: standard output could not be written"
            << (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string())
            << ": what it shows is incomplete" << std::endl;
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(KEFF_ARM_TEST_POINTS)
  // keff_test_points, the test build's keff: KEFF_TEST_POINT holds it at the points it names.
  keff::arm_test_points();
#endif
  // First of all: a SIGINT during start-up (MPI, Kokkos, reading the input) stops the run after its first
  // batch like any other, instead of killing it before the handler exists.
  keff::install_interrupt_handlers();
  // A write past `ulimit -f` then fails with EFBIG and the output's own error (path, reason, temporary
  // file removed), instead of SIGXFSZ ending the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  keff::set_test_point_rank(rank);
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  // Kokkos aborts with a backtrace on an argument it refuses (--kokkos-num-threads=0) and hangs or crashes
  // on a thread count past its pool: check them first. Then every rank agrees, in the one collective
  // every command starts with, that the arguments are good and that all run the same command.
  keff::KokkosEnvironment environment;
  environment.getenv = [](const char* name) -> const char* { return std::getenv(name); };
  environment.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
#if defined(KOKKOS_ENABLE_OPENMP)
  environment.openmp = true;
#endif
  environment.tool_library_problem = tool_library_problem;
  if (const int status = keff::agree_on_start(args, keff::check_kokkos_arguments(argc, argv, environment))) {
    MPI_Finalize();
    return status;
  }
  // Help, the version and usage need no Kokkos, and Kokkos answers --help with its own banner.
  if (const auto answer = keff::immediate_answer(args)) {
    int status = answer->status;
    if (rank == 0) {
      std::cout << answer->text;
      status = checked_standard_output(status);
    }
    MPI_Finalize();
    return status;
  }
  state_openmp_binding();
  int status = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    status = keff::cli_main(argc, argv);
  }
  // HDF5 may still hold a file a failed write could not close (a full disk); its own clean-up at exit
  // would run after MPI_Finalize and crash there.
  keff::close_hdf5();
  MPI_Finalize();
  return checked_standard_output(status);
}
