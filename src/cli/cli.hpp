#pragma once
// The keff command line: `keff run [input.toml] [options]`, `keff data ...`, `keff --help | --version`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

// Called after MPI and Kokkos are initialised, with Kokkos' own --kokkos-* arguments already removed.
// Returns the process exit status: 0 success, 1 the run failed, 2 bad usage or input.
int cli_main(int argc, char** argv);

// The command the arguments (after the program's name; Kokkos' --kokkos-* ones, wherever they are, left
// out) ask for, as the ranks compare it before anything else: "run", "data info", "--version", "--help",
// "" (none), ... (at most two words, printable). An MPMD
// launch (`mpiexec -n 1 keff run : -n 1 keff --version`) can start different commands on different
// ranks, which then wait for each other for ever in different collectives.
std::string command_name(const std::vector<std::string_view>& args);

// The first collective of every command (over MPI_COMM_WORLD), before Kokkos initialises: every rank
// passes its arguments and the problem check_kokkos_arguments found in them ("" if none). Returns 0 when
// every rank runs the same command with good Kokkos arguments; otherwise the lowest rank concerned
// prints why, once, and every rank gets the exit status to stop with (2).
int agree_on_start(const std::vector<std::string_view>& args, const std::string& kokkos_problem);

// What keff answers without running anything: `keff` alone (the commands, status 2), `keff --help | -h |
// help`, `keff --version`, --help or -h anywhere in a command's arguments and `keff help <command>`
// (that command's options; the commands with status 2 for one that does not exist). main() answers
// these before Kokkos initialises: Kokkos prints its own help banner for --help, and none of them needs
// Kokkos. Nothing for a command to run.
struct ImmediateAnswer {
  std::string text;  // for standard output, on rank 0
  int status = 0;
};
std::optional<ImmediateAnswer> immediate_answer(const std::vector<std::string_view>& args);

}  // namespace keff
