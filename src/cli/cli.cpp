#include "src/cli/cli.hpp"

#include "io/checksum.hpp"
#include "io/input/input.hpp"
#include "io/library/data_error.hpp"
#include "io/output/output.hpp"
#include "io/printable.hpp"
#include "io/thermal/ncrystal.hpp"
#include "mpi/bulk_transfer.hpp"
#include "mpi/communicator.hpp"
#include "src/cli/data_command.hpp"
#include "src/cli/geometry_command.hpp"
#include "src/cli/input_command.hpp"
#include "src/cli/plot_command.hpp"
#include "src/cli/run_command.hpp"
#include "src/cli/run_options.hpp"
#include "src/cli/tally_command.hpp"
#include "src/driver/run.hpp"
#include "src/host/interrupt.hpp"

#include <algorithm>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

namespace {

// A command of `keff`: its name, the lines the command list gives it (how it is called, what it does), its
// --help and what runs it. The list, `keff help`, the dispatch and the refusal of an unknown command all
// read this table.
struct Command {
  std::string_view name;
  std::pair<std::string_view, std::string_view> lines[2];  // the second may be empty
  std::string (*usage)();
  int (*run)(const std::vector<std::string_view>& args, const Communicator& comm);
};

const Command commands[] = {
    {"run",
     {{"keff run [input.toml] [options]", "a power iteration; without an input, the embedded default benchmark "
                                          "(keff run --help)"}},
     run_usage_text, run_command},
    {"check-geometry", {{"keff check-geometry [input.toml] [--points N]", "search the geometry for overlaps and gaps"}},
     [] { return std::string(check_geometry_usage_text()); }, geometry_command},
    {"plot", {{"keff plot [input.toml] [options]", "draw slices of the geometry (keff plot --help)"}},
     plot_usage_text, plot_command},
    {"tally",
     {{"keff tally show STATEPOINT [NAME] [--csv]", "print a statepoint's tallies (keff tally --help)"},
      {"keff tally filters", "list the filter kinds a [[tally]] can have"}},
     [] { return std::string(tally_usage_text()); }, tally_command},
    {"input", {{"keff input settings", "list the keys of [settings], their defaults, ranges and flags"}},
     [] { return std::string(input_usage_text()); }, input_command},
    {"data", {{"keff data generate|convert|info|ace ...", "nuclear-data library tools (keff data --help)"}},
     [] { return std::string(data_usage_text()); }, data_command},
};

// `keff`, `keff --help`: the commands first; each command's --help gives its options.
std::string commands_text() {
  std::string text =
      "usage: keff <command> [arguments] [options]\n"
      "\n"
      "keff runs k-eigenvalue (criticality) power iterations of Monte Carlo neutron transport on a CSG model.\n"
      "\n"
      "commands:\n";
  const auto line = [&](std::string_view call, std::string_view words) {
    std::string row = "  ";
    row.append(call);
    row.resize(std::max<std::size_t>(row.size() + 3, 50), ' ');
    text.append(row).append(words).append("\n");
  };
  for (const Command& c : commands) {
    for (const auto& [call, words] : c.lines) {
      if (!call.empty()) line(call, words);
    }
  }
  line("keff help COMMAND", "a command's options (as keff COMMAND --help)");
  line("keff --help | --version", "this text; the version and what the build holds");
  return text + "\nKokkos options (--kokkos-num-threads=N, --kokkos-device-id=D, ...) go after the command.\n";
}

const Command* command_named(std::string_view name) {
  for (const Command& c : commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string command_names() {
  std::string names;
  for (const Command& c : commands) names.append(names.empty() ? "" : ", ").append(c.name);
  return names;
}

}  // namespace

namespace {

// The arguments without Kokkos' own (--kokkos-*, which Kokkos takes out of argv when it starts and which
// may sit anywhere, even before the command): what the command is, as cli_main will see it.
std::vector<std::string_view> keff_arguments(const std::vector<std::string_view>& all) {
  std::vector<std::string_view> args;
  for (const auto a : all) {
    if (!a.starts_with("--kokkos-")) args.push_back(a);
  }
  return args;
}

}  // namespace

std::string command_name(const std::vector<std::string_view>& all) {
  const auto args = keff_arguments(all);
  if (args.empty()) return "";
  std::string name = printable(args[0].substr(0, 64));
  if (args[0] == "data" && args.size() > 1) name.append(" ").append(printable(args[1].substr(0, 64)));
  return name;
}

int agree_on_start(const std::vector<std::string_view>& args, const std::string& kokkos_problem) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string command = command_name(args);
  const std::uint64_t id = checksum64(command.data(), command.size());
  // One reduction: the lowest rank with a bad Kokkos argument (as size - rank, so the maximum), and the
  // command's hash and its complement (their maxima are complements only if every rank has the same).
  std::uint64_t v[3] = {kokkos_problem.empty() ? 0 : static_cast<std::uint64_t>(size - rank), id, ~id};
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (v[1] != ~v[2]) {  // every rank is here: the messages below are collectives of their own
    const auto shown = [](const std::string& c) { return "'keff" + (c.empty() ? std::string() : " " + c) + "'"; };
    const std::string first = broadcast(command, 0, MPI_COMM_WORLD);
    const std::optional<std::string> mine =
        command == first ? std::nullopt : std::optional<std::string>("rank " + std::to_string(rank) + " runs " + shown(command));
    const std::optional<std::string> other = first_error(mine, MPI_COMM_WORLD);
    if (rank == 0) {
      std::cerr << "keff: error: the " << size << " ranks were not started with the same command: rank 0 runs "
                << shown(first) << " but " << other.value_or("another rank another")
                << " (allowed: one keff command on every rank; each part of an MPMD launch 'A : B' must start it)"
                << std::endl;
    }
    return 2;
  }
  if (v[0] > 0) {
    if (rank == size - static_cast<int>(v[0])) {
      std::cerr << "keff: error: " << kokkos_problem << "\nrun 'keff --help' for usage" << std::endl;
    }
    return 2;
  }
  return 0;
}

namespace {

// The first line names the backend; the second, what else the build holds (src/cli/CMakeLists.txt), so a
// benchmark result or a bug report says which build gave it.
std::string version_text() {
  const std::string thermal = ncrystal_built() ? "NCrystal " + ncrystal_version() : std::string("without NCrystal");
  const std::string arch = *KEFF_BUILD_KOKKOS_ARCH ? KEFF_BUILD_KOKKOS_ARCH : "none named";
  return "keff 0.1.0 (" + backend_description() + ", " + thermal + ")\n" + "  Kokkos devices " +
         KEFF_BUILD_KOKKOS_DEVICES + ", architecture " + arch + "; " + KEFF_BUILD_CMFD + "; PNG pictures " +
         KEFF_BUILD_PNG + "; HDF5 " + KEFF_BUILD_HDF5 + "; GPU-aware MPI " + KEFF_BUILD_GPU_AWARE_MPI + "; " +
         KEFF_BUILD_TYPE + "\n";
}

}  // namespace

std::optional<ImmediateAnswer> immediate_answer(const std::vector<std::string_view>& all) {
  const auto args = keff_arguments(all);
  if (args.empty()) return ImmediateAnswer{commands_text(), 2};
  const auto is_help = [](std::string_view a) { return a == "--help" || a == "-h"; };
  if (args[0] == "help" && args.size() > 1) {  // `keff help run` is `keff run --help`
    const std::vector<std::string_view> asked{args[1], "--help"};
    if (auto answer = immediate_answer(asked)) return answer;
    return ImmediateAnswer{commands_text(), 2};
  }
  if (is_help(args[0]) || args[0] == "help") return ImmediateAnswer{commands_text(), 0};
  if (args[0] == "--version") return ImmediateAnswer{version_text(), 0};
  const bool help = std::any_of(args.begin() + 1, args.end(), is_help) || (args.size() > 1 && args[1] == "help");
  if (const Command* c = command_named(args[0]); c && help) return ImmediateAnswer{c->usage(), 0};
  return std::nullopt;
}

int cli_main(int argc, char** argv) {
  const Communicator comm;
  const auto error = [&](const std::string& what) {
    if (comm.is_root()) std::cerr << "keff: error: " << what << std::endl;
  };
  std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    if (const auto answer = immediate_answer(args)) {
      if (comm.is_root()) std::cout << answer->text;
      return answer->status;
    }
    if (const Command* c = command_named(args[0])) return c->run({args.begin() + 1, args.end()}, comm);
    throw UsageError("unknown command '" + printable(args[0]) + "' (allowed: " + command_names() + ")");
  } catch (const UsageError& e) {
    error(std::string(e.what()) + "\n" + "run 'keff --help' for usage");
    return 2;
  } catch (const InputError& e) {  // every rank reads the same input and fails the same way
    error(e.what());
    return 2;
  } catch (const DataError& e) {   // nuclear-data loaders agree on the error first: every rank throws it
    error(e.what());
    return 2;
  } catch (const RunError& e) {    // decided on reduced values: every rank throws it
    error(e.what());
    return 1;
  } catch (const Interrupted& e) {  // agreed over ranks between batches: every rank throws it
    error(e.what());
    return e.exit_status();
  } catch (const OutputError& e) {  // statepoints: agreed on every rank; the JSON: rank 0 alone, at the end
    error(e.what());
    return 1;
  } catch (const MpiError& e) {     // may be one rank's alone: say so once, from that rank, and end them all
    std::cerr << "keff: MPI error on rank " << comm.rank() << " of " << comm.size() << ": " << e.what() << std::endl;
    if (comm.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  } catch (const std::bad_alloc&) {  // past the sizes keff checks before it allocates (src/host/memory_check.hpp)
    std::cerr << "keff: error (rank " << comm.rank() << "): out of memory: an allocation failed (std::bad_alloc) "
              << "beyond what keff estimates before a run; give it more memory (ulimit -v, the job's limit) or "
              << "run a smaller problem" << std::endl;
    if (comm.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "keff: error (rank " << comm.rank() << "): " << e.what() << std::endl;
    if (comm.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);  // other ranks may wait in a collective
    return 1;
  }
}

}  // namespace keff
