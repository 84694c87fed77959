#include "src/cli/cli.hpp"

#include "io/checksum.hpp"
#include "io/input/input.hpp"
#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/library/library_reader.hpp"
#include "io/output/output.hpp"
#include "io/output/restart_check.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "io/thermal/ncrystal.hpp"
#include "mpi/bulk_transfer.hpp"
#include "mpi/communicator.hpp"
#include "src/cli/data_command.hpp"
#include "src/cli/tally_command.hpp"
#include "src/cli/geometry_command.hpp"
#include "src/cli/plot_command.hpp"
#include "src/cli/result_plots.hpp"
#include "src/cli/run_options.hpp"
#include "src/cmfd/cmfd_support.hpp"
#include "src/driver/geometry_check.hpp"
#include "src/driver/run.hpp"
#include "src/host/batch_table.hpp"
#include "src/host/fingerprint.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/memory_check.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keff {

namespace {

// `keff`, `keff --help`: the commands first; each command's --help gives its options.
constexpr const char* commands_text =
    "usage: keff <command> [arguments] [options]\n"
    "\n"
    "keff runs k-eigenvalue (criticality) power iterations of Monte Carlo neutron transport on a CSG model.\n"
    "\n"
    "commands:\n"
    "  keff run [input.toml] [options]                 a power iteration; without an input, the embedded\n"
    "                                                  default benchmark (keff run --help)\n"
    "  keff check-geometry [input.toml] [--points N]   search the geometry for overlaps and gaps\n"
    "  keff plot [input.toml] [options]                draw slices of the geometry (keff plot --help)\n"
    "  keff tally show STATEPOINT [NAME] [--csv]       print a statepoint's tallies (keff tally --help)\n"
    "  keff data generate|convert|info ...             nuclear-data library tools (keff data --help)\n"
    "  keff --help | --version                         this text; the version and what the build holds\n"
    "\n"
    "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=D, ...) go after the command.\n";

constexpr const char* usage_text =
    "usage: keff run [input.toml] [options]\n"
    "\n"
    "Runs a k-eigenvalue (criticality) power iteration. Without an input file, runs the embedded default\n"
    "benchmark (a reflected lattice of fuel pins in water; synthetic nuclear data generated in memory).\n"
    "\n"
    "options (each overrides the input):\n"
    "  --particles N      histories per batch (1 <= N <= 2^40)\n"
    "  --batches B        batches in all (1 <= B <= 1000000)\n"
    "  --inactive I       batches before tallies start (0 <= I < B)\n"
    "  --seed S           random number seed (1 <= S <= 2^63 - 1)\n"
    "  --json FILE        write the run summary as JSON\n"
    "  --statepoint FILE  write the HDF5 statepoint here ('' for none; default: settings.statepoint);\n"
    "                     also every settings.statepoint_interval batches when that is set\n"
    "  --restart FILE     continue from a statepoint of the same input (same particles, inactive, seed)\n"
    "                     up to --batches; the results equal an uninterrupted run bit for bit\n"
    "  --mode MODE        transport: 'history' (one thread per neutron) or 'event' (a kernel per event over\n"
    "                     queues of particles; settings.transport)\n"
    "  --domains NX,NY,NZ decompose space into NX x NY x NZ domains over the geometry's bounding box (or\n"
    "                     [domains] of the input); the rank count must be a multiple of NX*NY*NZ\n"
    "  --cmfd, --no-cmfd  CMFD acceleration on or off, with the input's [cmfd] mesh and settings\n"
    "  --exchange MODE    fission-bank and particle exchange: 'overlapped' (default; computation goes on\n"
    "                     while messages move) or 'blocking' (waits for each exchange: the benchmarks'\n"
    "                     baseline)\n"
    "  --plots DIR        at the end, draw the convergence and every tally into DIR from the statepoint\n"
    "                     (Python 3 with numpy, h5py and matplotlib; scripts/keff_results, io/README.md)\n"
    "  --sync-timers      a barrier before each timed phase (scaling studies; slows the run)\n"
    "  --allow-oversubscribed-memory\n"
    "                     run even if the memory estimate exceeds the memory available\n"
    "  --quiet            print only errors\n"
    "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=D, ...) are passed to Kokkos.\n"
    "Before transport, settings.geometry_check_points (default 100000) points of the geometry are checked\n"
    "for overlapping cells and gaps; a model found faulty is refused.\n"
    "The other commands: keff --help.\n";

std::string format_bytes(std::size_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1e9) std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  else std::snprintf(text, sizeof text, "%.1f kB", b / 1e3);
  return text;
}

// The run header's line for [cmfd], or nothing without CMFD.
std::string cmfd_description(const model::Problem& p, const CmfdFootprint& f) {
  if (!p.cmfd_on()) return {};
  const model::Cmfd& c = *p.cmfd;
  const auto& n = c.mesh.shape;
  std::string text = "  cmfd            " + std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " +
                     std::to_string(n[2]) + " cells x " + std::to_string(c.n_groups()) + " group(s) from batch " +
                     std::to_string(c.begin) + ", feedback " + (c.feedback ? "on" : "off") + ", window " +
                     std::string(name_of(c.window));
  if (c.window == model::CmfdWindow::rolling) text += " of " + std::to_string(c.window_size);
  // Each GMRES iteration multiplies by M: its entries say what one costs, and the solve does at most
  // max_iterations x (gmres_max_restarts + 1) x gmres_restart of them.
  char size[200];
  std::snprintf(size, sizeof size, "\n                  %.0f unknowns, %.3g matrix entries; on every rank %s for the window (host), %s for the solver",
                f.unknowns, f.entries, memory_text(f.host_bytes).c_str(), memory_text(f.device_bytes).c_str());
  return text + size + "\n";
}

// How elastic scattering sees its targets: "free-gas targets at 293.6 K" (or a range of temperatures),
// or "targets at rest".
std::string thermal_text(const model::Problem& p) {
  if (p.settings.thermal == model::ThermalModel::none || p.materials.empty()) return "targets at rest (thermal = \"none\")";
  double lo = p.materials.front().temperature, hi = lo;
  for (const model::Material& m : p.materials) lo = std::min(lo, m.temperature), hi = std::max(hi, m.temperature);
  char text[80];
  if (hi > lo) std::snprintf(text, sizeof text, "free-gas targets at %g to %g K", lo, hi);
  else std::snprintf(text, sizeof text, "free-gas targets at %g K", lo);
  return text;
}

// The NCrystal materials and their tables: "  thermal tables  2 NCrystal materials (water: ...), 500
// energies x 128 elastic and inelastic outcomes (1 of 4 draws each) below 5 eV: 2.93 MiB, built in 0.21 s\n",
// or "" without any.
std::string thermal_tables_text(const model::Problem& p, const RunSetup& run) {
  if (run.thermal_tables == 0) return "";
  std::string names;
  for (const model::Material& m : p.materials) {
    if (!m.ncrystal.empty()) names += (names.empty() ? "" : ", ") + m.name + ": \"" + m.ncrystal + "\"";
  }
  char text[200];
  if (p.settings.thermal_tables) {
    std::snprintf(text, sizeof text, ", %d energies x %d elastic and inelastic outcomes (1 of %d draws each) below %g eV: %s, built in %.2f s",
                  p.settings.thermal_table_energies, p.settings.thermal_table_samples, p.settings.thermal_table_draws,
                  ThermalTableSpec{}.cutoff_ev,
                  format_bytes(static_cast<std::size_t>(run.thermal_table_bytes)).c_str(), run.thermal_table_seconds);
  } else {
    std::snprintf(text, sizeof text, ", asked in transport below %g eV (thermal_tables = false), one cache per thread and material",
                  ThermalTableSpec{}.cutoff_ev);
  }
  return "  thermal tables  " + std::to_string(run.thermal_tables) + " distinct NCrystal " + ncrystal_version() +
         " material(s) (" + names + ")" + text + "\n";
}

void print_problem(std::ostream& os, const model::Problem& p, const RunSetup& run, const Communicator& comm,
                   const std::string& geometry_check) {
  const auto& s = p.settings;
  os << "keff: k-eigenvalue power iteration\n"
     << "  input           " << p.source_name << "\n"
     << "  physics         "
     << (s.mode == model::PhysicsMode::multigroup
             ? "multigroup, " + std::to_string(p.groups) + " groups"
             : "continuous energy, " + std::to_string(run.nuclides) + " nuclides x " + std::to_string(run.gridpoints) +
                   " points; " + thermal_text(p))
     << "\n"
     << thermal_tables_text(p, run)
     << "  geometry        " << p.cells.size() << " cells, " << p.universes.size() << " universes, "
     << p.lattices.size() << " lattices, " << p.surfaces.size() << " surfaces\n"
     << "  geometry check  " << geometry_check << "\n"
     << "  particles       " << s.particles << " per batch, " << s.batches << " batches (" << s.inactive
     << " inactive), seed " << s.seed << "\n"
     << "  parallelism     " << comm.size() << " rank(s) x " << run.concurrency << " " << run.execution_space
     << " thread(s)\n"
     << "  transport       "
     << (run.event_slots > 0 ? "event-based, " + std::to_string(run.event_slots) + " slots of " +
                                   format_bytes(run.bytes_per_slot) + " on rank 0"
                             : std::string("history-based"))
     << "\n"
     << cmfd_description(p, run.cmfd)
     << "  state           " << format_bytes(run.state_bytes) << " on rank 0, of which per-thread micro-XS scratch "
     << format_bytes(run.scratch_bytes) << "\n";
  if (!p.tallies.empty()) {
    os << "  tallies         " << p.tallies.size() << " tallies, " << run.tally_values << " values: "
       << format_bytes(static_cast<std::size_t>(run.tally_values) * sizeof(std::int64_t)) << " in the state, "
       << format_bytes(run.tally_host_bytes) << " of sums on the host\n";
  }
  for (const std::string& note : p.notes) os << "  note            " << note << "\n";
  os << "\n";
}

// The --plots directory, made when missing, before anything runs: a file, a device or an unwritable
// place by that name is found now, not after the whole run.
void prepare_plots_directory(const std::string& dir, const std::vector<std::string>& other_outputs) {
  const std::string allowed = " (allowed: a directory, made if missing, that no other output of the run names)";
  for (const auto& o : other_outputs) {
    if (same_output_file(dir, o)) throw OutputError("--plots '" + printable(dir) + "' is also the file '" + printable(o) + "'" + allowed);
  }
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status)) throw OutputError("--plots '" + printable(dir) + "' is not a directory" + allowed);
    return;
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError("--plots '" + printable(dir) + "': cannot make the directory: " + ec.message() + allowed);
}

// The outputs rank 0 will write, checked before anything runs (io/output_path.hpp): each can be created
// or replaced as a regular file, none is one of the run's inputs (the input file, the restart file, any
// file of the nuclear-data library), and no two are one file: the statepoint, the JSON summary and the
// pictures --plots draws (scripts/keff_results `all`: convergence.png and tally_<name>.png, a tally's name
// being a valid file name). The statepoint may replace the restart file it continues from, which is read
// whole before anything is written.
void check_outputs(const RunOptions& o, const model::Problem& p) {
  std::vector<InputFile> inputs;
  if (o.input) inputs.push_back({*o.input, "the input file"});
  if (!p.nuclear_data.library.empty()) {
    for (auto& f : library_input_files(p.nuclear_data.library)) inputs.push_back(std::move(f));
  }
  const std::string statepoint_what = o.statepoint ? "--statepoint" : "settings.statepoint";
  std::vector<OutputFile> outputs;
  if (o.json) outputs.push_back({*o.json, "--json"});
  if (!p.settings.statepoint.empty()) outputs.push_back({p.settings.statepoint, statepoint_what});
  if (o.plots) {
    if (p.settings.statepoint.empty()) {
      throw UsageError("--plots: the pictures are drawn from the statepoint, and this run writes none (allowed: "
                       "--plots with a statepoint: settings.statepoint or --statepoint FILE)");
    }
    std::vector<std::string> files;
    for (const auto& out : outputs) files.push_back(out.path);
    prepare_plots_directory(*o.plots, files);
    const std::string dir = *o.plots + "/";
    outputs.push_back({dir + "convergence.png", "--plots' convergence picture"});
    for (const auto& t : p.tallies) outputs.push_back({dir + "tally_" + t.name + ".png", "--plots' picture of tally '" + t.name + "'"});
  }
  check_command_outputs(outputs, inputs);
  if (o.restart) {
    for (const auto& out : outputs) {
      if (out.what != statepoint_what) check_not_an_input(out.path, out.what, {{*o.restart, "the restart file"}});
    }
  }
}

// A restart file is read by every rank with HDF5: a FIFO or a device would block or be read as garbage.
void check_restart_file(const std::string& path) {
  try {
    require_regular_file(path);
  } catch (const InputFileError& e) {
    throw InputError(std::string("cannot restart from ") + e.what());
  }
}

// The statepoint's own text is quoted and cut (printable_cut): a forged `input` attribute holding
// escape sequences, a second line or megabytes stays one short line.
std::string describe(const RunResults& sp) {
  return "'" + printable_cut(sp.input) + "' (fingerprint " + fingerprint_text(sp.restart.fingerprint) + ", " +
         std::to_string(sp.particles) + " particles, " + std::to_string(sp.inactive) + " inactive, seed " +
         std::to_string(sp.seed) + ")";
}

// A statepoint can continue this run only if it was written by the same input and leaves batches to run.
void check_restartable(const std::string& path, const RunResults& sp, const model::Problem& p,
                       std::uint64_t fingerprint) {
  const auto& s = p.settings;
  if (sp.restart.fingerprint != fingerprint) {
    const bool same_settings = sp.particles == s.particles && sp.inactive == s.inactive && sp.seed == s.seed;
    throw InputError("cannot restart from '" + printable_cut(path) + "': it was written by a run of " + describe(sp) +
                     ", but this run is of '" + printable_cut(p.source_name) + "' (fingerprint " +
                     fingerprint_text(fingerprint) + ", " + std::to_string(s.particles) + " particles, " +
                     std::to_string(s.inactive) + " inactive, seed " + std::to_string(s.seed) +
                     "); a restart needs the same input file, particles, inactive batches and seed" +
                     (same_settings ? ": these agree, so the input file's text differs from the one that wrote the "
                                      "statepoint (any edit, batches = too; to run more batches keep the input as it "
                                      "was and pass --batches N)"
                                    : ""));
  }
  const auto done = static_cast<int>(sp.batch.size());
  if (done >= s.batches) {
    throw InputError("cannot restart from '" + path + "': it already holds " + std::to_string(done) +
                     " batches and this run asks for " + std::to_string(s.batches) +
                     " (ask for more with --batches)");
  }
}

// CMFD's solves over the run: k_cmfd of the last, and the solver's work per solve.
void print_cmfd_summary(std::ostream& os, const RunResults& r) {
  if (!r.cmfd) return;
  int solves = 0, failed = 0, last_good = 0;
  double outer = 0, inner = 0, k = 0;
  std::string first_failure;
  for (const auto& b : r.batch) {
    if (!b.cmfd) continue;
    ++solves;
    outer += b.cmfd->outer_iterations;
    inner += b.cmfd->inner_iterations;
    if (b.cmfd->converged) {
      k = b.cmfd->k;
      last_good = b.batch;
    } else if (++failed == 1) {
      first_failure = "batch " + std::to_string(b.batch) + ": " + b.cmfd->failure;
    }
  }
  if (solves == 0) return;
  char line[240];
  if (last_good > 0) {
    std::snprintf(line, sizeof line, "\n CMFD: k_cmfd %.5f after batch %d; ", k, last_good);
  } else {
    std::snprintf(line, sizeof line, "\n CMFD: no solve succeeded; ");
  }
  os << line;
  std::snprintf(line, sizeof line, "%d solves (%d failed), per solve %.3g power and %.3g GMRES iterations\n", solves,
                failed, outer / solves, inner / solves);
  os << line;
  if (failed > 0) os << "   first failure: " << first_failure << "\n";
  if (failed == solves) {
    os << "   warning: CMFD did nothing in this run (every solve failed): the run is plain Monte Carlo\n";
  }
}

// Each tally in a line: its size and estimator, and per score the largest relative error over its bins
// (the precision a user reads first); then whether the triggers held.
void print_tally_summary(std::ostream& os, const RunResults& r) {
  if (r.tallies.empty()) return;
  os << "\n Tallies (keff tally show STATEPOINT [NAME] prints them; per source particle)\n";
  for (const TallyResult& t : r.tallies) {
    std::int64_t bins = 1;
    for (const auto& f : t.filters) bins *= f.bins;
    os << "   " << t.name << ": " << bins << " bin(s), " << t.estimator << "; max relative error";
    for (std::size_t k = 0; k < t.scores.size(); ++k) {
      double worst = 0;
      for (std::size_t v = k; v < t.mean.size(); v += t.scores.size()) {
        if (t.mean[v] > 0) worst = std::max(worst, t.std_dev[v] / t.mean[v]);
      }
      char text[64];
      std::snprintf(text, sizeof text, "%s %s %.3g", k == 0 ? "" : ",", t.scores[k].c_str(), worst);
      os << text;
    }
    os << "\n";
  }
  if (!r.triggers.empty()) os << "   triggers: " << r.triggers << "\n";
}

void print_summary(std::ostream& os, const RunResults& r) {
  char line[200];
  const auto active = std::count_if(r.batch.begin(), r.batch.end(), [](const BatchResult& b) { return b.active; });
  os << "\n Results over " << active << " active batches\n";
  const auto row = [&](const std::string& name, const MeanStd& m, const BatchCorrelation& c = {}) {
    std::snprintf(line, sizeof line, "   %-16s %s%s\n", name.c_str(), format_k(m).c_str(), format_correlation(c).c_str());
    os << line;
  };
  // The run's k: the combination, or the fallback it names with the reason (src/host/statistics.hpp).
  const auto& k = r.k_combined;
  row(k.combined() ? std::string("k (combined)")
                   : "k (" + std::string(k.kind == KEstimateKind::mean_of_estimators ? "mean" : name_of(k.kind)) + ")",
      k, k.correlation);
  if (!k.reason.empty()) os << "     " << (k.combined() ? "" : "not combined: ") << k.reason << "\n";
  row("k (collision)", r.k_collision, r.estimator_correlation[0]);
  row("k (absorption)", r.k_absorption, r.estimator_correlation[1]);
  row("k (track-length)", r.k_tracklength, r.estimator_correlation[2]);
  if (const std::string w = correlation_warning(k); !w.empty()) os << "   warning: " << w << "\n";
  row("leakage fraction", r.leakage);
  os << "   lost particles   " << r.lost_particles << "\n"
     << "   bank overflows   " << r.bank_overflows << "\n\n Time by phase (s, over " << r.ranks << " rank(s)"
     << (r.synchronized_timers ? ", synchronized" : "") << ")\n";
  std::snprintf(line, sizeof line, "   %-20s %10s %10s %10s\n", "", "min", "mean", "max");
  os << line;
  for (const auto& t : r.timing) {
    std::snprintf(line, sizeof line, "   %-20s %10.4f %10.4f %10.4f\n", t.phase.c_str(), t.min, t.mean, t.max);
    os << line;
  }
  const auto& x = r.exchange;
  if (r.ranks == 1) {
    os << "\n Bank exchange: none (1 rank)\n";
  } else {
    os << "\n Bank exchange (" << x.mode << "): " << x.exchanges << " exchanges, " << x.irecv << " Irecv, " << x.isend
       << " Isend, " << x.testsome << " Testsome (" << x.arrived_early << " completed before the wait), " << x.waitall
       << " Waitall, " << x.sites_sent << " sites sent; " << x.sites_transported_early
       << " source sites transported before the exchange finished\n";
  }
  if (const auto& t = r.transport; t.mode == "event" && t.rounds > 0) {
    std::string how;  // sorted: the sorter and what it reordered
    if (!t.sorter.empty()) how.append(" (").append(t.sorter).append(" sort, ").append(t.reorder).append(" reordered)");
    std::snprintf(line, sizeof line,
                  "\n Event-based transport: %lld slots, lookups sorted by %s%s, %lld rounds; per round %.4g lookups,"
                  " %.4g flights, %.4g crossings, %.4g collisions\n",
                  static_cast<long long>(t.slots), t.sort == "none" ? "nothing" : t.sort.c_str(),
                  how.c_str(),
                  static_cast<long long>(t.rounds),
                  static_cast<double>(t.lookups) / static_cast<double>(t.rounds),
                  static_cast<double>(t.flights) / static_cast<double>(t.rounds),
                  static_cast<double>(t.crossings) / static_cast<double>(t.rounds),
                  static_cast<double>(t.collisions) / static_cast<double>(t.rounds));
    os << line;
  }
  if (const auto& d = r.domains) {
    std::snprintf(line, sizeof line,
                  "\n Domains %d x %d x %d (%d rank(s) each): %lld particles crossed domains in %lld messages (%.3g MB);"
                  " %lld sites routed between batches\n",
                  d->mesh[0], d->mesh[1], d->mesh[2], d->replicas, static_cast<long long>(d->particles_sent),
                  static_cast<long long>(d->messages_sent), 1e-6 * static_cast<double>(d->bytes_sent),
                  static_cast<long long>(d->sites_routed));
    os << line;
    for (const auto* t : {&d->pack, &d->mpi, &d->idle}) {
      std::snprintf(line, sizeof line, "   %-20s %10.4f %10.4f %10.4f\n", (t->phase + " (s)").c_str(), t->min, t->mean,
                    t->max);
      os << line;
    }
  }
  print_cmfd_summary(os, r);
  print_tally_summary(os, r);
  std::snprintf(line, sizeof line,
                "\n Particles/s (active batches): %.4g in transport, %.4g over whole batches (bank and reductions "
                "included)  [%d rank(s) x %d %s thread(s)]\n",
                r.particles_per_second, r.batch_particles_per_second, r.ranks, r.threads, r.execution_space.c_str());
  os << line;
}

// What a run starts from, read and checked: the options, the problem with them applied, the input's
// fingerprint and, with --restart, the statepoint it continues.
struct PreparedRun {
  RunOptions opts;
  model::Problem problem;
  RunResults statepoint;
  std::uint64_t fingerprint = 0;
  std::uint64_t identity = 0;  // of this rank's input and arguments; the ranks must agree on it
};

// Everything that can fail on one rank alone (a file only some ranks can read): no collective here.
PreparedRun prepare_here(const std::vector<std::string_view>& args, const Communicator& comm) {
  PreparedRun run;
  run.opts = parse_run_options(args);
  const RunOptions& opts = run.opts;
  const std::string text = opts.input ? read_input_file(*opts.input) : std::string(default_problem_toml());
  run.problem = read_problem_string(text, opts.input ? *opts.input : "<default>");
  model::Problem& problem = run.problem;
  apply_overrides(opts, problem);
  if (problem.cmfd_on() && !cmfd_available) {
    throw InputError(std::string(cmfd_unavailable_message) + " (asked for by [cmfd] at " + problem.cmfd->where.str() + ")");
  }
  check_run_limits(problem, comm.size());
  run.fingerprint = input_fingerprint(text, problem.settings);
  run.identity = run_fingerprint(text, args);
  if (comm.is_root()) check_outputs(opts, problem);  // rank 0 writes them
  if (opts.restart) {
    check_restart_file(*opts.restart);
    try {
      run.statepoint = read_statepoint(*opts.restart);
    } catch (const OutputError& e) {
      throw InputError(std::string("cannot restart: ") + e.what());
    }
    check_restartable(*opts.restart, run.statepoint, problem, run.fingerprint);
    check_restart_data(*opts.restart, run.statepoint, problem);
  }
  return run;
}

// prepare_here on every rank, then the ranks agree on the outcome before the first collective of the
// run: one message, the same exit on every rank; and on having been given the same run.
PreparedRun prepare_run(const std::vector<std::string_view>& args, const Communicator& comm) {
  PreparedRun run;
  std::string failure;
  bool usage = false;
  try {
    run = prepare_here(args, comm);
  } catch (const UsageError& e) {
    failure = e.what();
    usage = true;
  } catch (const InputError& e) {
    failure = e.what();
  } catch (const OutputError& e) {  // an output path that cannot be written: a usage error, found early
    failure = e.what();
    usage = true;
  }
  failure = comm.first_error(failure);
  if (!failure.empty()) {
    // Every rank throws; which kind only changes the hint (both exit with status 2).
    if (comm.any(usage)) throw UsageError(failure);
    throw InputError(failure);
  }
  if (!comm.all_equal(run.identity)) {
    throw UsageError("the " + std::to_string(comm.size()) + " ranks were not given the same run: every rank must "
                     "read an input with the same bytes and the same 'keff run' arguments (one command for all ranks)");
  }
  return run;
}

// Overlaps and gaps, before the nuclear data is made: a model found faulty is bad input. Returns the run
// header's words for the check.
std::string check_geometry_before_run(const model::Problem& problem, const Communicator& comm) {
  if (problem.settings.geometry_check_points <= 0) return "skipped (settings.geometry_check_points = 0)";
  const GeometryCheck check = check_geometry(problem, comm, problem.settings.geometry_check_points);
  if (check.found()) throw InputError(geometry_refusal(problem, check));
  return geometry_check_summary(check);
}

// Rank 0's outputs after the run: the JSON summary (its time counted in the results' timing), then the
// printed summary and where the files are.
void write_run_outputs(const RunOptions& opts, const model::Problem& problem, RunResults& results, std::ostream* log) {
  const auto start = std::chrono::steady_clock::now();
  if (opts.json) write_summary_json(*opts.json, results);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  results.timing.push_back({"output (rank 0)", seconds, seconds, seconds});
  const bool statepoint = !problem.settings.statepoint.empty() && results.statepoint_failure.empty();
  if (log) {
    print_summary(*log, results);
    if (statepoint) *log << " Statepoint: " << problem.settings.statepoint << "\n";
    if (opts.json) *log << " Summary:    " << *opts.json << "\n";
  }
  if (opts.plots && statepoint) draw_result_plots(problem.settings.statepoint, *opts.plots, log);
}

int run_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  PreparedRun run = prepare_run(args, comm);
  const RunOptions& opts = run.opts;
  std::ostream* log = (comm.is_root() && !opts.quiet) ? &std::cout : nullptr;
  if (comm.is_root()) {
    for (const auto& w : run.problem.warnings) std::cerr << "keff: warning: " << w << std::endl;
  }
  const std::string geometry_check = check_geometry_before_run(run.problem, comm);

  Run sim(run.problem, comm, log, {opts.exchange, opts.sync_timers, run.fingerprint});
  if (opts.restart) {
    sim.restart_from(run.statepoint);
    if (log) *log << "keff: restarting from " << *opts.restart << " after batch " << run.statepoint.batch.size() << "\n";
    run.statepoint = {};  // the bank copy is no longer needed
  }
  if (log) print_problem(*log, run.problem, sim.setup(), comm, geometry_check);
  RunResults results = sim.run();
  if (comm.is_root()) write_run_outputs(opts, run.problem, results, log);
  if (!results.statepoint_failure.empty()) {  // agreed on every rank; the rest is written
    throw OutputError(results.statepoint_failure + "; the run finished: " +
                      (opts.json ? "its results are in the JSON summary '" + printable(*opts.json) + "'"
                                 : std::string("no other output holds its results (--json FILE writes a summary)")) +
                      (opts.plots ? ", and --plots drew nothing (the pictures are drawn from the statepoint)" : ""));
  }
  return 0;
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
  if (args[0] == "data" && args.size() > 1) name += " " + printable(args[1].substr(0, 64));
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
  if (args.empty()) return ImmediateAnswer{commands_text, 2};
  const auto is_help = [](std::string_view a) { return a == "--help" || a == "-h"; };
  if (is_help(args[0]) || args[0] == "help") return ImmediateAnswer{commands_text, 0};
  if (args[0] == "--version") return ImmediateAnswer{version_text(), 0};
  const bool help = std::any_of(args.begin() + 1, args.end(), is_help);
  if (args[0] == "run" && help) return ImmediateAnswer{usage_text, 0};
  if (args[0] == "data" && (help || (args.size() > 1 && args[1] == "help"))) return ImmediateAnswer{data_usage_text(), 0};
  if (args[0] == "check-geometry" && help) return ImmediateAnswer{check_geometry_usage_text(), 0};
  if (args[0] == "tally" && help) return ImmediateAnswer{tally_usage_text(), 0};
  if (args[0] == "plot" && help) return ImmediateAnswer{plot_usage_text(), 0};
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
    if (args[0] == "run") return run_command({args.begin() + 1, args.end()}, comm);
    if (args[0] == "data") return data_command({args.begin() + 1, args.end()}, comm);
    if (args[0] == "check-geometry") return geometry_command({args.begin() + 1, args.end()}, comm);
    if (args[0] == "tally") return tally_command({args.begin() + 1, args.end()}, comm);
    if (args[0] == "plot") return plot_command({args.begin() + 1, args.end()}, comm);
    throw UsageError("unknown command '" + printable(args[0]) + "' (allowed: run, check-geometry, plot, data, tally)");
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
