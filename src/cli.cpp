#include "src/cli.hpp"

#include "io/data_error.hpp"
#include "io/input.hpp"
#include "io/output.hpp"
#include "mpi/communicator.hpp"
#include "src/data_command.hpp"
#include "src/simulation.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

namespace {

constexpr const char* usage_text =
    "usage: keff run [input.toml] [options]\n"
    "\n"
    "Runs a k-eigenvalue (criticality) power iteration. Without an input file, runs the embedded default\n"
    "benchmark (a reflected lattice of fuel pins in water; synthetic nuclear data generated in memory).\n"
    "\n"
    "options (each overrides the input):\n"
    "  --particles N      histories per batch (N >= 1)\n"
    "  --batches B        batches in all (B >= 1)\n"
    "  --inactive I       batches before tallies start (0 <= I < B)\n"
    "  --seed S           random number seed (S >= 1)\n"
    "  --json FILE        write the run summary as JSON\n"
    "  --statepoint FILE  write the HDF5 statepoint here ('' for none; default: settings.statepoint)\n"
    "  --quiet            print only errors\n"
    "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=D, ...) are passed to Kokkos.\n"
    "\n"
    "  keff --help | --version\n";

struct RunOptions {
  std::optional<std::string> input;
  std::optional<std::int64_t> particles, batches, inactive, seed;
  std::optional<std::string> json, statepoint;
  bool quiet = false;
};

std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min) {
    throw UsageError(std::string(flag) + ": '" + std::string(text) + "' is not allowed (allowed: an integer >= " +
                     std::to_string(min) + ")");
  }
  return v;
}

RunOptions parse_run_options(const std::vector<std::string_view>& args) {
  RunOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError(std::string(a) + " needs a value");
      return args[++i];
    };
    if (a == "--particles") {
      o.particles = parse_integer(a, value(), 1);
    } else if (a == "--batches") {
      o.batches = parse_integer(a, value(), 1);
    } else if (a == "--inactive") {
      o.inactive = parse_integer(a, value(), 0);
    } else if (a == "--seed") {
      o.seed = parse_integer(a, value(), 1);
    } else if (a == "--json") {
      o.json = std::string(value());
    } else if (a == "--statepoint") {
      o.statepoint = std::string(value());
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a.starts_with("-")) {
      throw UsageError("unknown option '" + std::string(a) + "'");
    } else if (!o.input) {
      o.input = std::string(a);
    } else {
      throw UsageError("more than one input file ('" + *o.input + "', '" + std::string(a) + "')");
    }
  }
  return o;
}

void apply_overrides(const RunOptions& o, model::Problem& p) {
  auto& s = p.settings;
  if (o.particles) s.particles = *o.particles;
  if (o.batches) s.batches = static_cast<int>(*o.batches);
  if (o.inactive) s.inactive = static_cast<int>(*o.inactive);
  if (o.seed) s.seed = static_cast<std::uint64_t>(*o.seed);
  if (o.statepoint) s.statepoint = *o.statepoint;
  if (s.inactive >= s.batches) {
    throw UsageError("inactive batches (" + std::to_string(s.inactive) + ") must be fewer than batches (" +
                     std::to_string(s.batches) + ")");
  }
}

void print_problem(std::ostream& os, const model::Problem& p, const Simulation& sim, const Communicator& comm) {
  const auto& s = p.settings;
  const auto& params = sim.params();
  os << "keff: k-eigenvalue power iteration\n"
     << "  input           " << p.source_name << "\n"
     << "  physics         "
     << (s.mode == model::PhysicsMode::multigroup ? "multigroup, " + std::to_string(p.groups) + " groups"
                                                  : "continuous energy, " + std::to_string(params.n_nuclides) +
                                                        " nuclides x " + std::to_string(params.gridpoints) +
                                                        " points")
     << "\n"
     << "  geometry        " << p.cells.size() << " cells, " << p.universes.size() << " universes, "
     << p.lattices.size() << " lattices, " << p.surfaces.size() << " surfaces\n"
     << "  particles       " << s.particles << " per batch, " << s.batches << " batches (" << s.inactive
     << " inactive), seed " << s.seed << "\n"
     << "  parallelism     " << comm.size() << " rank(s) x " << DeviceExec().concurrency() << " "
     << DeviceExec::name() << " thread(s)\n\n";
}

void print_summary(std::ostream& os, const RunResults& r) {
  char line[200];
  os << "\n Results over " << (r.batches - r.inactive) << " active batches\n";
  const auto row = [&](const char* name, const MeanStd& m) {
    std::snprintf(line, sizeof line, "   %-16s %.5f +/- %.5f\n", name, m.mean, m.std);
    os << line;
  };
  row("k (combined)", r.k_combined);
  row("k (collision)", r.k_collision);
  row("k (absorption)", r.k_absorption);
  row("k (track-length)", r.k_tracklength);
  os << "   lost particles   " << r.lost_particles << "\n"
     << "   bank overflows   " << r.bank_overflows << "\n\n Time by phase (s)\n";
  for (const auto& [phase, seconds] : r.timing) {
    std::snprintf(line, sizeof line, "   %-20s %10.3f\n", phase.c_str(), seconds);
    os << line;
  }
  std::snprintf(line, sizeof line, "\n Particles/s (active batches): %.4g  [%d rank(s) x %d %s thread(s)]\n",
                r.particles_per_second, r.ranks, r.threads, r.execution_space.c_str());
  os << line;
}

int run_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  const RunOptions opts = parse_run_options(args);
  model::Problem problem = opts.input ? read_problem_file(*opts.input) : default_problem();
  apply_overrides(opts, problem);
  std::ostream* log = (comm.is_root() && !opts.quiet) ? &std::cout : nullptr;

  Simulation sim(DeviceExec(), problem, comm, log);
  if (log) print_problem(*log, problem, sim, comm);
  RunResults results = sim.run();

  if (comm.is_root()) {
    const auto start = std::chrono::steady_clock::now();
    if (!problem.settings.statepoint.empty()) write_statepoint(problem.settings.statepoint, results);
    if (opts.json) write_summary_json(*opts.json, results);
    results.timing.emplace_back("output", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (log) {
      print_summary(*log, results);
      if (!problem.settings.statepoint.empty()) *log << " Statepoint: " << problem.settings.statepoint << "\n";
      if (opts.json) *log << " Summary:    " << *opts.json << "\n";
    }
  }
  return 0;
}

}  // namespace

int cli_main(int argc, char** argv) {
  const Communicator comm;
  const auto error = [&](const std::string& what) {
    if (comm.is_root()) std::cerr << "keff: error: " << what << std::endl;
  };
  std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      if (comm.is_root()) std::cout << usage_text;
      return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
      if (comm.is_root()) std::cout << "keff 0.1.0 (Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100
                                    << "." << KOKKOS_VERSION % 100 << ", " << DeviceExec::name() << ")\n";
      return 0;
    }
    if (args[0] == "run") return run_command({args.begin() + 1, args.end()}, comm);
    if (args[0] == "data") return data_command({args.begin() + 1, args.end()}, comm);
    throw UsageError("unknown command '" + std::string(args[0]) + "' (allowed: run, data)");
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
  } catch (const std::exception& e) {
    std::cerr << "keff: error (rank " << comm.rank() << "): " << e.what() << std::endl;
    if (comm.size() > 1) MPI_Abort(MPI_COMM_WORLD, 1);  // other ranks may wait in a collective
    return 1;
  }
}

}  // namespace keff
