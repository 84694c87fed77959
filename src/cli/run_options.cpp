#include "src/cli/run_options.hpp"

#include "io/input/geometry_bounds.hpp"
#include "io/input/settings_rows.hpp"
#include "io/limits.hpp"
#include "io/printable.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

namespace keff {

namespace {

// "NX,NY,NZ", each from 1 to 64 (as [domains] mesh).
std::array<int, 3> parse_domains(std::string_view text) {
  std::array<int, 3> mesh{};
  std::string_view rest = text;
  for (int axis = 0; axis < 3; ++axis) {
    const auto comma = rest.find(',');
    const std::string_view part = axis < 2 ? rest.substr(0, comma) : rest;
    int v = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    const bool ok = ec == std::errc() && end == part.data() + part.size() && v >= 1 && v <= 64 &&
                    (axis == 2 || comma != std::string_view::npos);
    if (!ok) {
      throw UsageError("--domains: '" + printable(text) +
                       "' is not allowed (allowed: NX,NY,NZ, integers from 1 to 64, e.g. 2,2,1)");
    }
    mesh[static_cast<std::size_t>(axis)] = v;
    if (axis < 2) rest = rest.substr(comma + 1);
  }
  return mesh;
}

// --cmfd / --no-cmfd turn the input's [cmfd] on or off: its mesh and groups come from the input.
void apply_cmfd_override(const RunOptions& o, model::Problem& p) {
  if (o.cmfd && *o.cmfd && !p.cmfd) {
    throw UsageError("--cmfd: " + p.source_name + " has no [cmfd] table to turn on (allowed: an input with [cmfd], "
                     "which names the coarse mesh; examples/INPUT.md)");
  }
  if (o.cmfd && p.cmfd) p.cmfd->enabled = *o.cmfd;
  if (p.cmfd_couples_populations() && !p.settings.populations_automatic && p.settings.populations > 1) {
    throw UsageError(model::cmfd_populations_problem(p.settings.populations) +
                     " (allowed: [cmfd] end at most the last inactive batch, feedback = false, --no-cmfd, or one population)");
  }
  if (const std::string why = model::cmfd_batches_problem(p); !why.empty()) throw UsageError(why);
  // A run may stop before CMFD begins and be continued past it (--restart): said, not refused.
  if (p.cmfd_on() && p.cmfd->begin > p.settings.batches) {
    p.notes.push_back(p.cmfd->where.str() + ": cmfd.begin = " + std::to_string(p.cmfd->begin) +
                      " is past the last batch (" + std::to_string(p.settings.batches) +
                      "): CMFD does not run unless the run is continued past batch " +
                      std::to_string(p.cmfd->begin - 1) + " (--restart with more --batches)");
  }
}

}  // namespace

std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max) {
    throw UsageError(std::string(flag) + ": '" + printable(text) + "' is not allowed (allowed: " +
                     limits::integer_range(min, max) + ")");
  }
  return v;
}

namespace {

// One option of `keff run`: its spelling, its value's name ("" for a switch), what it does, and how it
// sets RunOptions. The parser and `keff run --help` both read the table below, so a flag exists exactly
// when its help does, and an integer's range is said and held from the same numbers (io/limits.hpp).
struct RunFlag {
  std::string_view name;
  std::string_view value;
  std::string_view help;
  void (*set)(const RunFlag& flag, std::string_view value, RunOptions& o);
  std::int64_t min = 0, max = 0;  // an integer flag's range (max > 0)
};

// A path given as an empty string: only --statepoint '' has a meaning (write none).
template <std::optional<std::string> RunOptions::*Field>
void set_path(const RunFlag& f, std::string_view v, RunOptions& o) {
  if (v.empty()) throw UsageError(std::string(f.name) + ": the path is empty (allowed: a file path)");
  o.*Field = std::string(v);
}

template <bool RunOptions::*Field>
void set_switch(const RunFlag&, std::string_view, RunOptions& o) {
  o.*Field = true;
}

// The flags that are no setting; the settings' own come from their rows (settings::flags).
constexpr RunFlag run_flags[] = {
    {"--json", "FILE", "write the run summary as JSON", set_path<&RunOptions::json>},
    {"--restart", "FILE",
     "continue from a statepoint of the same input (same particles, inactive, seed) up to --batches; the "
     "results equal an uninterrupted run bit for bit",
     set_path<&RunOptions::restart>},
    {"--domains", "NX,NY,NZ",
     "decompose space into NX x NY x NZ domains over the geometry's bounding box (or [domains] of the "
     "input); the rank count must be a multiple of NX*NY*NZ",
     [](const RunFlag&, std::string_view v, RunOptions& o) { o.domains = parse_domains(v); }},
    {"--cmfd", "", "CMFD acceleration on, with the input's [cmfd] mesh and settings",
     [](const RunFlag&, std::string_view, RunOptions& o) { o.cmfd = true; }},
    {"--no-cmfd", "", "CMFD acceleration off, whatever the input's [cmfd] says",
     [](const RunFlag&, std::string_view, RunOptions& o) { o.cmfd = false; }},
    {"--exchange", "MODE",
     "fission-bank and particle exchange: 'overlapped' (default; computation goes on while messages "
     "move) or 'blocking' (waits for each exchange: the benchmarks' baseline)",
     [](const RunFlag& f, std::string_view v, RunOptions& o) { o.exchange = parse_choice<ExchangeMode>(f.name, v); }},
    {"--plots", "DIR",
     "at the end, draw the convergence and every tally into DIR from the statepoint (Python 3 with "
     "numpy, h5py and matplotlib; examples/OUTPUTS.md)",
     set_path<&RunOptions::plots>},
    {"--sync-timers", "", "a barrier before each timed phase (scaling studies; slows the run)",
     set_switch<&RunOptions::sync_timers>},
    {"--quiet", "", "print only errors", set_switch<&RunOptions::quiet>},
};

// The flags of settings, from their rows.
const std::vector<settings::Flag>& setting_flags() {
  static const std::vector<settings::Flag> flags = settings::flags();
  return flags;
}

// A setting's flag with its value: checked against its row now, applied by apply_overrides.
void take_setting(const settings::Flag& f, std::string_view value, RunOptions& o) {
  model::Settings scratch;
  if (!settings::set_from_text(f.key, value, scratch)) {
    throw UsageError(std::string(f.flag) + ": '" + printable(value) + "' is not allowed (allowed: " + f.allowed + ")");
  }
  o.settings.emplace_back(f.key, std::string(value));
}

// "  --flag VALUE       what it does", the help from column 21, wrapped at 100 columns; a flag too long
// for the column gets a line of its own.
std::string help_lines(const std::string& lead, std::string_view help) {
  constexpr std::size_t column = 21, width = 100;
  std::string out, line = lead;
  if (line.size() >= column) out = line + "\n", line.clear();
  line.resize(column, ' ');
  bool empty = true;
  for (std::size_t at = 0; at <= help.size();) {
    const std::size_t end = std::min(help.find(' ', at), help.size());
    const std::string_view word = help.substr(at, end - at);
    if (!empty && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.assign(column, ' ');
      empty = true;
    }
    if (!empty) line += ' ';
    line += word;
    empty = false;
    at = end + 1;
  }
  return out + line + "\n";
}

}  // namespace

std::string run_options_help() {
  std::string out;
  for (const settings::Flag& f : setting_flags()) {
    std::string lead("  ");
    lead.append(f.flag);
    if (!f.value.empty()) lead.append(" ").append(f.value);
    const std::string setting = f.value.empty() ? " = true" : ": " + f.allowed;  // a switch sets its boolean
    out += help_lines(lead, f.words + " (settings." + std::string(f.key) + setting + ")");
  }
  for (const RunFlag& f : run_flags) {
    std::string help(f.help), lead("  ");
    if (f.max > 0) help.append(" (").append(limits::integer_range(f.min, f.max)).append(")");
    lead.append(f.name);
    if (!f.value.empty()) lead.append(" ").append(f.value);
    out += help_lines(lead, help);
  }
  return out;
}

RunOptions parse_run_options(const std::vector<std::string_view>& args) {
  RunOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const auto& settings = setting_flags();
    const auto setting = std::find_if(settings.begin(), settings.end(), [&](const settings::Flag& f) { return f.flag == a; });
    const auto flag = std::find_if(std::begin(run_flags), std::end(run_flags), [&](const RunFlag& f) { return f.name == a; });
    if (setting != settings.end()) {
      if (setting->value.empty()) {  // a switch: its boolean true
        take_setting(*setting, "true", o);
      } else {
        if (i + 1 >= args.size()) throw UsageError(printable(a) + " needs a value");
        take_setting(*setting, args[++i], o);
      }
    } else if (flag != std::end(run_flags)) {
      if (!flag->value.empty() && i + 1 >= args.size()) throw UsageError(printable(a) + " needs a value");
      flag->set(*flag, flag->value.empty() ? std::string_view{} : args[++i], o);
    } else if (a.starts_with("-")) {
      throw UsageError("unknown option '" + printable(a) + "'");
    } else if (!o.input) {
      o.input = std::string(a);
    } else {
      throw UsageError("more than one input file ('" + printable(*o.input) + "', '" + printable(a) + "')");
    }
  }
  return o;
}

void apply_overrides(const RunOptions& o, model::Problem& p) {
  auto& s = p.settings;
  for (const auto& [key, value] : o.settings) settings::set_from_text(key, value, s);  // checked when parsed
  if (o.gave("batches")) {
    s.batches_final = true;
    if (s.max_batches > 0) {
      p.notes.push_back("--batches " + std::to_string(s.batches) + " ends the run at batch " + std::to_string(s.batches) +
                        ", a failing tally trigger or not (without --batches it goes on to settings.max_batches = " +
                        std::to_string(s.max_batches) + ")");
    }
  }
  // The rules between settings, in the input's words, named by the first flag given that they involve.
  if (const auto problem = settings::settings_problem(s)) {
    std::string named;
    for (const std::string_view key : problem->keys) {
      const auto f = std::find_if(setting_flags().begin(), setting_flags().end(),
                                  [&](const settings::Flag& flag) { return flag.key == key && o.gave(key); });
      if (f != setting_flags().end()) {
        named = std::string(f->flag) + " / settings." + std::string(key);
        break;
      }
    }
    if (named.empty()) named = "settings." + std::string(problem->keys.front());
    throw UsageError(named + ": " + problem->what + " (allowed: " + problem->allowed + ")");
  }
  model::choose_inactive_bound(s);
  if (o.domains) {
    if (!p.domains) {
      const auto box = geometry_bounding_box(p);
      if (!box) {
        throw UsageError("--domains: the geometry's bounding box cannot be read off its root cells; give [domains] "
                         "with lower_left and upper_right in the input instead");
      }
      p.domains = model::Domains{};
      p.domains->box = *box;
      p.domains->where = {p.source_name, 0};
    }
    p.domains->mesh = *o.domains;
  }
  if (p.domains && s.transport == TransportMode::history) {
    throw UsageError("domain decomposition runs event-based transport: drop --mode history (or settings.transport = "
                     "\"history\"), or the domains");
  }
  apply_cmfd_override(o, p);
  model::choose_populations(p);
}

void check_run_limits(const model::Problem& p, int ranks) {
  const auto& s = p.settings;
  const std::int64_t per_rank = (s.particles + ranks - 1) / ranks;
  if (per_rank > limits::max_particles_per_rank) {
    throw UsageError("particles = " + std::to_string(s.particles) + " over " + std::to_string(ranks) + " rank(s) is " +
                     std::to_string(per_rank) + " histories per rank (allowed: at most " +
                     limits::number_text(limits::max_particles_per_rank) + " per rank; use more ranks or fewer particles)");
  }
  if (!s.statepoint.empty() && s.particles > limits::max_statepoint_sites) {
    throw UsageError("particles = " + std::to_string(s.particles) + " is too many for a statepoint, which gathers the "
                     "whole source bank (" + std::to_string(sizeof(Site)) + " bytes a site) on rank 0 in one message "
                     "(allowed: particles <= " + std::to_string(limits::max_statepoint_sites) +
                     " while a statepoint is written; or --statepoint '' / settings.statepoint = \"\" for none)");
  }
}

namespace {

// Kokkos matches its arguments by prefix (core/src/impl/Kokkos_Command_Line_Parsing.cpp): anything
// starting with "--kokkos-num-threads" is taken as that flag and must be "=INT".
bool integer_in(std::string_view text, std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && v >= min && v <= max;
}

bool boolean_word(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* w : {"yes", "true", "1", "no", "false", "0"}) {
    if (lower == w) return true;
  }
  return false;
}

// "'<arg>' is not allowed (allowed: <allowed>)", appended piece by piece (GCC 12 warns falsely about
// overlapping copies in a chain of + that starts with a literal).
std::string not_allowed(std::string_view arg, const std::string& allowed) {
  std::string out(1, '\'');
  out += printable(arg);
  out += "' is not allowed (allowed: ";
  out += allowed;
  out += ')';
  return out;
}

// Kokkos' own check_arg: `arg` is `flag`, or `flag` followed by a character that cannot continue a
// flag's name ("--threads=4", "--threads.toml"; not "--threadsafe").
bool kokkos_matches(std::string_view arg, std::string_view flag) {
  if (!arg.starts_with(flag)) return false;
  if (arg.size() == flag.size()) return true;
  const auto next = static_cast<unsigned char>(arg[flag.size()]);
  return !(std::isalnum(next) || next == '-' || next == '_');
}

// "4" or "4,2": OpenMP's list of thread counts per nesting level, each a positive integer up to `max`.
bool thread_list(std::string_view text, std::int64_t max) {
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = text.find(',', at);
    std::string_view part = text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front()))) part.remove_prefix(1);
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back()))) part.remove_suffix(1);
    if (!integer_in(part, 1, max)) return false;
    if (comma == std::string_view::npos) return true;
    at = comma + 1;
  }
}

struct IntegerFlag {
  const char* flag;
  const char* env;
  std::int64_t min, max;
  std::string why;  // the reason for the maximum, for the message
};

// Kokkos Tools libraries: a ';'-separated list; each must load.
std::string tool_libraries_problem(std::string_view what, std::string_view list, const KokkosEnvironment& env) {
  if (!env.tool_library_problem) return {};
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t end = std::min(list.find(';', at), list.size());
    const std::string lib(list.substr(at, end - at));
    if (!lib.empty()) {
      if (const std::string problem = env.tool_library_problem(lib); !problem.empty()) {
        return std::string(what) + ": the Kokkos Tools library '" + printable(lib) + "' cannot be loaded: " +
               printable(problem) + " (allowed: a loadable shared library, by path or by a name the dynamic " +
               "loader finds, e.g. on LD_LIBRARY_PATH)";
      }
    }
    at = end + 1;
  }
  return {};
}

// Kokkos' boolean flags, with the environment variable of each.
constexpr const char* boolean_flags[][2] = {{"--kokkos-disable-warnings", "KOKKOS_DISABLE_WARNINGS"},
                                            {"--kokkos-print-configuration", "KOKKOS_PRINT_CONFIGURATION"},
                                            {"--kokkos-tune-internals", "KOKKOS_TUNE_INTERNALS"}};
// Spellings Kokkos reads (and acts on: --threads=600 crashed it) without the --kokkos- prefix, or only
// to warn that they are gone; keff takes the --kokkos- spelling beside each instead.
constexpr const char* replaced_flags[][2] = {{"--threads", "--kokkos-num-threads=N"},
                                             {"--num-threads", "--kokkos-num-threads=N"},
                                             {"--device-id", "--kokkos-device-id=D"},
                                             {"--device", "--kokkos-device-id=D"},
                                             {"--kokkos-num-devices", "--kokkos-map-device-id-by=mpi_rank"},
                                             {"--kokkos-ndevices", "--kokkos-map-device-id-by=mpi_rank"},
                                             {"--num-devices", "--kokkos-map-device-id-by=mpi_rank"},
                                             {"--ndevices", "--kokkos-map-device-id-by=mpi_rank"}};
constexpr const char* tool_flags[] = {"--kokkos-tools-libs", "--kokkos-tools-library"};
constexpr std::string_view map_flag = "--kokkos-map-device-id-by";
constexpr std::string_view map_allowed = "random, mpi_rank";

// Kokkos' integer flags, with the environment variable of each where it has one; the thread counts'
// maximum depends on the machine.
std::array<IntegerFlag, 4> integer_flags(const KokkosEnvironment& env) {
  const std::int64_t max_threads = max_threads_for(env.hardware_threads);
  const std::string threads_why =
      "at most " + std::to_string(limits::max_threads_per_hardware_thread) + " per hardware thread" +
      (env.hardware_threads > 0 ? " (" + std::to_string(env.hardware_threads) + " here)" : std::string()) +
      " and at most " + std::to_string(limits::max_threads) + ", the thread pool of Kokkos' OpenMP backend";
  return {{{"--kokkos-num-threads", "KOKKOS_NUM_THREADS", 1, max_threads, threads_why},
           {"--kokkos-threads", nullptr, 1, max_threads, threads_why},  // Kokkos' older spelling, still read
           {"--kokkos-device-id", "KOKKOS_DEVICE_ID", 0, limits::max_device_id, ""},
           {"--kokkos-device", nullptr, 0, limits::max_device_id, ""}}};
}

std::string range_of(const IntegerFlag& f) {
  return limits::integer_range(f.min, f.max) + (f.why.empty() ? std::string() : ": " + f.why);
}

// The problem of one command-line argument, or "" when Kokkos may have it (or it is not Kokkos').
std::string argument_problem(std::string_view a, const std::array<IntegerFlag, 4>& integers,
                             const KokkosEnvironment& env) {
  for (const auto& f : integers) {
    const std::string_view flag = f.flag;
    // "--kokkos-device" is a prefix of "--kokkos-device-id": Kokkos tells them apart as kokkos_matches does.
    if (!(flag == "--kokkos-device" ? kokkos_matches(a, flag) : a.starts_with(flag))) continue;
    const bool has_value = a.size() > flag.size() && a[flag.size()] == '=';
    if (!has_value || !integer_in(a.substr(flag.size() + 1), f.min, f.max)) {
      return not_allowed(a, std::string(flag) + "=N with N " + range_of(f));
    }
  }
  for (const auto& r : replaced_flags) {
    if (kokkos_matches(a, r[0])) {
      return not_allowed(a, std::string(r[1]) + "; Kokkos reads '" + r[0] + "' too, but keff takes " + r[1]);
    }
  }
  for (const auto& b : boolean_flags) {
    const std::string_view flag = b[0];
    if (!a.starts_with(flag) || a == flag) continue;
    if (a[flag.size()] != '=' || !boolean_word(a.substr(flag.size() + 1))) {
      return not_allowed(a, std::string(flag) + " or " + std::string(flag) + "=true|false|yes|no|1|0");
    }
  }
  if (a.starts_with(map_flag)) {
    const std::string_view v = a.size() > map_flag.size() ? a.substr(map_flag.size() + 1) : std::string_view();
    if (a.size() <= map_flag.size() + 1 || a[map_flag.size()] != '=' || (v != "random" && v != "mpi_rank")) {
      return not_allowed(a, std::string(map_flag) + "=" + std::string(map_allowed));
    }
  }
  for (const std::string_view flag : tool_flags) {
    if (!kokkos_matches(a, flag)) continue;
    if (a.size() <= flag.size() + 1 || a[flag.size()] != '=') return not_allowed(a, std::string(flag) + "=LIBRARY[;LIBRARY...]");
    if (std::string p = tool_libraries_problem(flag, a.substr(flag.size() + 1), env); !p.empty()) return p;
  }
  return {};
}

// The problem of the environment variables Kokkos (and its OpenMP backend) reads, or "".
std::string environment_problem(const std::array<IntegerFlag, 4>& integers, const KokkosEnvironment& env) {
  const auto env_var = [&](const char* name) { return env.getenv ? env.getenv(name) : nullptr; };
  for (const auto& f : integers) {
    if (!f.env) continue;
    const char* v = env_var(f.env);
    if (v && !integer_in(v, f.min, f.max)) {
      return "environment variable " + std::string(f.env) + "='" + printable(v) + "' is not allowed (allowed: " +
             range_of(f) + ")";
    }
  }
  // Kokkos' OpenMP backend counts the threads of one parallel region of the OpenMP default size before
  // it applies its own count: OMP_NUM_THREADS=1000000 crashed it whatever --kokkos-num-threads said.
  const IntegerFlag& num_threads = integers[0];  // OMP_NUM_THREADS is held to --kokkos-num-threads' range
  if (const char* v = env_var("OMP_NUM_THREADS"); env.openmp && v && !thread_list(v, num_threads.max)) {
    return "environment variable OMP_NUM_THREADS='" + printable(v) + "' is not allowed (allowed: a thread count, or " +
           "a comma-separated list of them per nesting level, each " + range_of(num_threads) + ")";
  }
  for (const auto& b : boolean_flags) {
    const char* v = env_var(b[1]);
    if (v && !boolean_word(v)) {
      return "environment variable " + std::string(b[1]) + "='" + printable(v) +
             "' is not allowed (allowed: true, false, yes, no, 1, 0)";
    }
  }
  if (const char* v = env_var("KOKKOS_MAP_DEVICE_ID_BY"); v && std::string_view(v) != "random" && std::string_view(v) != "mpi_rank") {
    return "environment variable KOKKOS_MAP_DEVICE_ID_BY='" + printable(v) + "' is not allowed (allowed: " +
           std::string(map_allowed) + ")";
  }
  for (const char* name : {"KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"}) {
    if (const char* v = env_var(name)) {
      if (std::string p = tool_libraries_problem("environment variable " + std::string(name), v, env); !p.empty()) return p;
    }
  }
  return {};
}

}  // namespace

std::int64_t max_threads_for(int hardware_threads) {
  if (hardware_threads <= 0) return limits::max_threads;
  return std::min<std::int64_t>(limits::max_threads, limits::max_threads_per_hardware_thread * hardware_threads);
}

std::string check_kokkos_arguments(int argc, const char* const* argv, const KokkosEnvironment& env) {
  const auto integers = integer_flags(env);
  for (int i = 1; i < argc; ++i) {
    if (!argv[i]) break;
    if (std::string p = argument_problem(argv[i], integers, env); !p.empty()) return p;
  }
  return environment_problem(integers, env);
}

}  // namespace keff
