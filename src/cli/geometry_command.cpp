// `keff check-geometry`: reads the input as `keff run` does, checks the geometry with more points than
// the run's own check (every rank takes a share), and rank 0 lists what it found. The exit status says
// whether anything was found, like diff's: 0 nothing, 1 faults (or no point could be judged), 2 trouble (bad
// usage or input).
#include "src/cli/geometry_command.hpp"

#include "io/input/input.hpp"
#include "io/limits.hpp"
#include "io/printable.hpp"
#include "src/cli/run_options.hpp"
#include "src/driver/geometry_check.hpp"
#include "src/host/interrupt.hpp"

#include <iostream>
#include <optional>
#include <string>

namespace keff {

namespace {

constexpr std::int64_t default_points = 10000000;

constexpr const char* check_usage =
    "usage: keff check-geometry [input.toml] [--points N]\n"
    "\n"
    "Searches the geometry for overlaps (a point that two cells of one universe hold) and gaps (a point in\n"
    "a filled cell or lattice that no cell of the universe there holds) at N points drawn uniformly in its\n"
    "bounding box (default 10000000; keff run checks settings.geometry_check_points = 100000 of the same\n"
    "points first). Without an input file, checks the embedded default benchmark. Lists each fault with\n"
    "the cells, the universe and a point. Exit status: 0 none found, 1 faults found, 2 bad usage or input.\n";

}  // namespace

int geometry_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  // As in `keff run`: what can fail on one rank alone is agreed on before the check's collectives.
  std::optional<std::string> input;
  std::int64_t points = default_points;
  model::Problem problem;
  std::string failure;
  bool usage = false;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string_view a = args[i];
      if (a == "--points") {
        if (i + 1 >= args.size()) throw UsageError("check-geometry: --points needs a value");
        points = parse_integer(a, args[++i], 1, limits::max_geometry_check_points);
      } else if (!a.starts_with("-") && !input) {
        input = std::string(a);
      } else {
        throw UsageError("check-geometry: unknown argument '" + printable(a) +
                         "' (allowed: [input.toml] [--points N])");
      }
    }
    const std::string text = input ? read_input_file(*input) : std::string(default_problem_toml());
    problem = read_problem_string(text, input ? *input : "<default>");
  } catch (const UsageError& e) {
    failure = e.what();
    usage = true;
  } catch (const InputError& e) {
    failure = e.what();
  }
  failure = comm.first_error(failure);
  if (!failure.empty()) {
    if (comm.any(usage)) throw UsageError(failure);
    throw InputError(failure);
  }
  stop_if_interrupted(comm, input_read_phase);
  const GeometryCheck check = check_geometry(problem, comm, points);
  if (comm.is_root()) print_geometry_check(std::cout, problem, check);
  return check.found() || check.judged_none() ? 1 : 0;
}

const char* check_geometry_usage_text() { return check_usage; }

}  // namespace keff
