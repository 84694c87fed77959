#pragma once
// The command line of `keff run`, and Kokkos' own arguments: parsed and checked on the host, with no
// MPI call and no Kokkos header, so the fuzz target (tests/fuzz/) drives exactly what the CLI runs.
#include "io/input/model.hpp"
#include "io/printable.hpp"
#include "kernels/vocabulary/enum_names.hpp"
#include "src/driver/run.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

// A malformed command line; the CLI prints it with a pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::optional<std::string> input;
  // The flags of settings given (the rows of io/input/settings_rows.hpp that have one), in order: each
  // row's key and the value's text, checked against the row when parsed.
  std::vector<std::pair<std::string_view, std::string>> settings;
  std::optional<std::string> json, restart;
  std::optional<std::string> plots;  // a directory for the result pictures (scripts/keff_results)
  ExchangeMode exchange = ExchangeMode::overlapped;
  std::optional<std::array<int, 3>> domains;
  std::optional<bool> cmfd;  // --cmfd / --no-cmfd: the input's [cmfd] on or off
  bool sync_timers = false;
  bool quiet = false;

  // Whether the flag of setting `key` was given.
  bool gave(std::string_view key) const {
    for (const auto& given : settings) {
      if (given.first == key) return true;
    }
    return false;
  }
};

// The arguments after `keff run`. Throws UsageError naming the flag, the value and what is allowed.
RunOptions parse_run_options(const std::vector<std::string_view>& args);

// The options part of `keff run --help`, a line or more per flag, from the table the parser reads.
std::string run_options_help();

// Applies the flags that override the input's settings. Throws UsageError if the result is not allowed
// (inactive batches not below batches, domains with history transport or without a bounding box,
// --cmfd without a [cmfd] table, CMFD beginning past the last batch).
void apply_overrides(const RunOptions& options, model::Problem& problem);

// The limits that depend on the rank count (io/limits.hpp): histories per rank, and the source bank a
// statepoint gathers on rank 0. Throws UsageError naming the setting, the value and the limit.
void check_run_limits(const model::Problem& problem, int ranks);

// `text` as an integer in [min, max] for `flag`, or UsageError "<flag>: '<text>' is not allowed
// (allowed: an integer in [min, max])".
std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min, std::int64_t max);

// `text` as one of an enum's names for `flag`, or UsageError "<flag>: '<text>' is not allowed (allowed:
// <the names>)".
template <class E>
E parse_choice(std::string_view flag, std::string_view text) {
  const std::optional<E> e = enum_from_name<E>(text);
  if (!e) {
    throw UsageError(std::string(flag) + ": '" + printable(text) + "' is not allowed (allowed: " + allowed_names<E>() + ")");
  }
  return *e;
}

// What check_kokkos_arguments needs to know of the process and the machine; main() passes the real
// ones, tests and the fuzz target fakes.
struct KokkosEnvironment {
  const char* (*getenv)(const char*) = nullptr;  // std::getenv
  int hardware_threads = 0;                       // std::thread::hardware_concurrency(); 0: unknown
  bool openmp = false;                            // Kokkos' OpenMP backend is built: OMP_NUM_THREADS matters
  // "" when the Kokkos Tools library `name` loads (dlopen), else why not; nullptr: not checked.
  std::string (*tool_library_problem)(const std::string& name) = nullptr;
};

// The most threads per rank --kokkos-num-threads, KOKKOS_NUM_THREADS and OMP_NUM_THREADS may ask for on
// a machine with `hardware_threads` (0: unknown): limits::max_threads_per_hardware_thread per hardware
// thread, and at most limits::max_threads.
std::int64_t max_threads_for(int hardware_threads);

// Kokkos' own command-line arguments (--kokkos-num-threads=N and its older spelling --kokkos-threads,
// --kokkos-device-id=D, its boolean flags, --kokkos-map-device-id-by=..., --kokkos-tools-libs=...) and
// environment variables (KOKKOS_NUM_THREADS, OMP_NUM_THREADS, KOKKOS_DEVICE_ID, KOKKOS_TOOLS_LIBS, ...),
// checked before Kokkos::initialize, which aborts with a backtrace on a value it refuses, crashes or
// hangs on a thread count past its pool (513 threads hung, 600 crashed), and only prints an error for a
// tools library it cannot load. Spellings Kokkos reads without the --kokkos- prefix (--threads=N) are
// refused. Returns the first problem as a one-line message naming the flag or variable and what is
// allowed (empty if none).
std::string check_kokkos_arguments(int argc, const char* const* argv, const KokkosEnvironment& environment);

}  // namespace keff
