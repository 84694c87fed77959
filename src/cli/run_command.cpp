#include "src/cli/run_command.hpp"

#include "io/input/input.hpp"
#include "io/input/settings_rows.hpp"
#include "io/input_file.hpp"
#include "io/library/library_reader.hpp"
#include "io/output/output.hpp"
#include "io/output/restart_check.hpp"
#include "io/output/summary_text.hpp"
#include "io/output_path.hpp"
#include "io/printable.hpp"
#include "io/test_point.hpp"
#include "src/cli/result_plots.hpp"
#include "src/cli/run_options.hpp"
#include "src/cli/run_report.hpp"
#include "src/cmfd/cmfd_support.hpp"
#include "src/driver/geometry_check.hpp"
#include "src/driver/run.hpp"
#include "src/host/fingerprint.hpp"
#include "src/host/interrupt.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>

namespace keff {

// `keff run --help`: the options come from the parser's own table (run_options.cpp).
std::string run_usage_text() {
  return "usage: keff run [input.toml] [options]\n"
         "\n"
         "Runs a k-eigenvalue (criticality) power iteration. Without an input file, runs the embedded default\n"
         "benchmark (a reflected lattice of fuel pins in water; synthetic nuclear data generated in memory).\n"
         "\n"
         "options (each overrides the input):\n" +
         run_options_help() +
         "Kokkos options (--kokkos-num-threads=N, --kokkos-device-id=D, ...) are passed to Kokkos.\n"
         "Before transport, settings.geometry_check_points (default 100000) points of the geometry are checked\n"
         "for overlapping cells and gaps; a model found faulty is refused.\n"
         "The other commands: keff --help.\n";
}

namespace {

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
  if (p.nuclear_data.ace) inputs.push_back({p.nuclear_data.xsdir, "the xsdir"});
  const std::string statepoint_what = o.gave("statepoint") ? "--statepoint" : "settings.statepoint";
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

// A statepoint can continue this run only if it was written by the same input and settings, and leaves
// batches to run. The settings compared are the rows a restart matches (io/input/settings_rows.hpp): those
// that differ are named with both values. The statepoint's own text is quoted and cut (printable_cut): a
// forged `input` attribute holding escape sequences, a second line or megabytes stays one short line.
void check_restartable(const std::string& path, const RunResults& sp, const model::Problem& p,
                       std::uint64_t fingerprint) {
  const auto& s = p.settings;
  if (sp.restart.fingerprint != fingerprint) {
    std::string theirs, ours;
    for (const auto& setting : settings::restart_values(s)) {
      const std::string& key = setting.first;
      const std::string& value = setting.second;
      const auto it = std::find_if(sp.settings.begin(), sp.settings.end(), [&](const auto& kv) { return kv.first == key; });
      const std::string recorded = it == sp.settings.end() ? std::string("none") : printable_cut(it->second, 40);
      if (recorded == value) continue;
      theirs.append("; settings.").append(key).append(" ").append(recorded);
      ours.append("; settings.").append(key).append(" ").append(value);
    }
    throw InputError("cannot restart from '" + printable_cut(path) + "': it was written by a run of '" +
                     printable_cut(sp.input) + "' (fingerprint " + fingerprint_text(sp.restart.fingerprint) + theirs +
                     "), but this run is of '" + printable_cut(p.source_name) + "' (fingerprint " +
                     fingerprint_text(fingerprint) + ours + "); a restart needs the same input file and the same "
                     "settings a restart matches (keff input settings lists them)" +
                     (theirs.empty() ? ": these agree, so the input file's text differs from the one that wrote the "
                                       "statepoint (any edit, batches = too; to run more batches keep the input as it "
                                       "was and pass --batches N)"
                                     : ""));
  }
  const auto done = static_cast<int>(sp.batch.size());  // generations
  if (done >= s.batches * s.generations_per_batch) {
    throw InputError("cannot restart from '" + path + "': it already holds " +
                     std::to_string(done / s.generations_per_batch) + " batches and this run asks for " +
                     std::to_string(s.batches) + " (ask for more with --batches)");
  }
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

// A run whose populations are "auto" continues a statepoint with the statepoint's populations (each has
// its own source in it), as written before the default was 8 or with other particles' choice, where that
// count suits this run; otherwise the restart check refuses it, naming --populations.
void continue_populations(const RunResults& sp, model::Problem& p) {
  if (!p.settings.populations_automatic || sp.populations.count == p.settings.populations) return;
  const int chosen = p.settings.populations;
  p.settings.populations = sp.populations.count;
  if (!model::populations_problem(p).empty()) p.settings.populations = chosen;
}

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
  run.identity = run_fingerprint(text, args);
  if (comm.is_root()) check_outputs(opts, problem);  // rank 0 writes them
  if (opts.restart) {
    check_restart_file(*opts.restart);
    try {
      run.statepoint = read_statepoint(*opts.restart);
    } catch (const OutputError& e) {
      throw InputError(std::string("cannot restart: ") + e.what());
    }
    continue_populations(run.statepoint, problem);
  }
  // After the populations a restart continues: the fingerprint covers the settings as the run has them.
  run.fingerprint = input_fingerprint(text, problem.settings);
  if (opts.restart) {
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
  stop_if_interrupted(comm, input_read_phase);
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
  if (check.found() || check.judged_none()) throw InputError(geometry_refusal(problem, check));
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
    write_summary_text(*log, results);
    if (statepoint) *log << " Statepoint: " << problem.settings.statepoint << "\n";
    if (opts.json) *log << " Summary:    " << *opts.json << "\n";
  }
  if (opts.plots && statepoint) draw_result_plots(problem.settings.statepoint, *opts.plots, log);
}

}  // namespace

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
  if (log) print_problem(*log, run.problem, sim.setup(), comm.size(), geometry_check);
  RunResults results = sim.run();
  if (test_points_enabled()) test_point("outputs");
  if (comm.is_root()) write_run_outputs(opts, run.problem, results, log);
  // A signal after the last batch stopped nothing (src/host/interrupt.hpp): the run is whole.
  if (const std::string note = finishing_note(); !note.empty()) std::cerr << "keff: " << note << std::endl;
  if (!results.statepoint_failure.empty()) {  // agreed on every rank; the rest is written
    throw OutputError(results.statepoint_failure + "; the run finished: " +
                      (opts.json ? "its results are in the JSON summary '" + printable(*opts.json) + "'"
                                 : std::string("no other output holds its results (--json FILE writes a summary)")) +
                      (opts.plots ? ", and --plots drew nothing (the pictures are drawn from the statepoint)" : ""));
  }
  return 0;
}

}  // namespace keff
