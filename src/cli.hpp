#pragma once
// The keff command line: `keff run [input.toml] [options]` and (later) `keff data ...`.
// Called after MPI and Kokkos are initialised, with Kokkos' own --kokkos-* arguments already removed.
namespace keff {

// Returns the process exit status: 0 success, 1 the run failed, 2 bad usage or input.
int cli_main(int argc, char** argv);

}  // namespace keff
