#pragma once
// The run's settings, described once: one row per key of [settings] (nested tables' keys included, as
// "event.slots"), each with its Settings member, its type and range (io/limits.hpp), its default, a line
// of words, its `keff run` flag where it has one, and whether a restart must match it. Everything that
// knows a setting reads it from here:
//   - the input reader (io/input/input.cpp, read_settings) loops over the rows;
//   - `keff run`'s setting flags are the rows that have one (src/cli/run_options.cpp), checked with the
//     same range and words;
//   - model::Settings' defaults are the rows' (its constructor), and so are the specs built from it
//     (thermal_table_spec);
//   - `keff input settings` lists the rows; a test holds examples/INPUT.md's table to them;
//   - a restart compares the rows marked Restart::match with the statepoint's (io/output/restart_check);
//   - settings_problem holds the rules between settings, after the input and again after the flags.
// Adding a setting is a member of model::Settings, a row here, and its use. Kokkos-free.
#include "io/input/model.hpp"
#include "io/limits.hpp"
#include "io/thermal/ncrystal.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keff::settings {

// Whether a restart must run with the statepoint's value of a setting: those that change the histories.
enum class Restart { free, match };
// Where a setting applies: every problem, or continuous energy only (refused in a multigroup problem).
enum class Applies { always, continuous_energy };

// What every row has.
struct RowInfo {
  constexpr RowInfo(std::string_view key_, std::string_view words_, std::string_view flag_ = {},
                    Restart restart_ = Restart::free, Applies applies_ = Applies::always)
      : key(key_), words(words_), flag(flag_), restart(restart_), applies(applies_) {}
  std::string_view key;    // below [settings]: "particles", "event.slots"
  std::string_view words;  // what it does, one line
  std::string_view flag;   // its `keff run` flag, or ""
  Restart restart;
  Applies applies;
};

std::string integer_text(std::int64_t v);  // 10000, 2^40
std::string number_text(double v);         // 293.6, 1e+05

// An integer member; its range inclusive.
template <auto Member>
struct IntegerRow : RowInfo {
  std::int64_t min = 0, max = 0, fallback = 0;
  static constexpr std::string_view type = "integer";
  std::string allowed() const { return limits::integer_range(min, max); }
  std::string default_text() const { return integer_text(fallback); }
  std::string text(const model::Settings& s) const { return std::to_string(s.*Member); }
  void set_default(model::Settings& s) const { s.*Member = static_cast<std::remove_reference_t<decltype(s.*Member)>>(fallback); }
  bool set(model::Settings& s, std::int64_t v) const {
    if (v < min || v > max) return false;
    s.*Member = static_cast<std::remove_reference_t<decltype(s.*Member)>>(v);
    return true;
  }
};

// A number member; its range closed, or open below (a temperature above 0).
template <auto Member>
struct NumberRow : RowInfo {
  double min = 0, max = 0, fallback = 0;
  bool open_below = false;
  static constexpr std::string_view type = "number";
  std::string allowed() const {
    return std::string("a number in ") + (open_below ? "(" : "[") + number_text(min) + ", " + number_text(max) + "]";
  }
  std::string default_text() const { return number_text(fallback); }
  std::string text(const model::Settings& s) const { return number_text(s.*Member); }
  void set_default(model::Settings& s) const { s.*Member = fallback; }
  bool set(model::Settings& s, double v) const {
    if (!(open_below ? v > min : v >= min) || !(v <= max)) return false;
    s.*Member = v;
    return true;
  }
};

template <auto Member>
struct BooleanRow : RowInfo {
  bool fallback = false;
  static constexpr std::string_view type = "boolean";
  std::string allowed() const { return "true, false"; }
  std::string default_text() const { return fallback ? "true" : "false"; }
  std::string text(const model::Settings& s) const { return s.*Member ? "true" : "false"; }
  void set_default(model::Settings& s) const { s.*Member = fallback; }
  void set(model::Settings& s, bool v) const { s.*Member = v; }
};

template <auto Member>
struct StringRow : RowInfo {
  std::string_view fallback;
  std::string_view allowed_words;
  static constexpr std::string_view type = "string";
  std::string allowed() const { return std::string(allowed_words); }
  std::string default_text() const { return "\"" + std::string(fallback) + "\""; }
  std::string text(const model::Settings& s) const { return s.*Member; }
  void set_default(model::Settings& s) const { s.*Member = std::string(fallback); }
  void set(model::Settings& s, std::string v) const { s.*Member = std::move(v); }
};

// One of an enum's names (kernels/vocabulary/enum_names.hpp). A member std::optional<E> may be left unset:
// `unset` says what that means (the choice made where it is used).
template <auto Member, class E>
struct ChoiceRow : RowInfo {
  std::optional<E> fallback;
  std::string_view unset;  // the default's words where there is no fallback
  static constexpr std::string_view type = "string";
  std::string allowed() const {
    std::string names;
    for (const auto& n : enum_names(E{})) names.append(names.empty() ? "\"" : ", \"").append(n.name).append("\"");
    return names;
  }
  std::string default_text() const {
    return fallback ? "\"" + std::string(name_of(*fallback)) + "\"" : std::string(unset);
  }
  std::string text(const model::Settings& s) const {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*Member)>, E>) {
      return std::string(name_of(s.*Member));
    } else {
      return s.*Member ? std::string(name_of(*(s.*Member))) : std::string("unset");
    }
  }
  void set_default(model::Settings& s) const {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*Member)>, E>) {
      s.*Member = *fallback;
    } else {
      s.*Member = fallback;
    }
  }
  void set(model::Settings& s, E v) const { s.*Member = v; }
};

// settings.populations: an integer, or "auto" (model::choose_populations decides from the particles).
struct PopulationsRow : RowInfo {
  static constexpr std::string_view type = "integer or \"auto\"";
  std::string allowed() const { return model::populations_allowed(); }
  std::string default_text() const { return "\"auto\""; }
  std::string text(const model::Settings& s) const { return std::to_string(s.populations); }
  void set_default(model::Settings& s) const {
    s.populations_automatic = true;
    s.populations = 1;
  }
  // "auto" or an integer in [1, limits::max_populations] (whether it divides the particles is a rule
  // between settings: settings_problem).
  bool set(model::Settings& s, std::string_view text) const;
};

// settings.inactive: an integer, or "auto" (the run decides when its source is stationary; its bound is
// model::choose_inactive_bound's). Its text is "auto" then, whatever the bound: a restart may extend the
// batches, and with them the bound.
struct InactiveRow : RowInfo {
  static constexpr std::string_view type = "integer or \"auto\"";
  std::string allowed() const;
  std::string default_text() const { return "\"auto\""; }
  std::string text(const model::Settings& s) const { return s.inactive_automatic ? "auto" : std::to_string(s.inactive); }
  // The bound follows the batches (model::choose_inactive_bound, once every key is read).
  void set_default(model::Settings& s) const {
    s.inactive_automatic = true;
    s.inactive = s.batches / 2;
  }
  bool set(model::Settings& s, std::string_view text) const;
};

// A key of a nested table read as a whole by its own reader ([settings.source] and [settings.entropy_mesh]
// by the box and mesh readers, [settings.tally_mesh] by the tally reader): described here, read there.
struct TableKeyRow : RowInfo {
  std::string_view type_words;
  std::string_view allowed_words;
  std::string_view default_words;
  std::string allowed() const { return std::string(allowed_words); }
  std::string default_text() const { return std::string(default_words); }
};

// Every row, in the order the listing and examples/INPUT.md give them: f(row) for each.
template <class F>
void for_each_setting(F&& f) {
  using model::Settings;
  f(IntegerRow<&Settings::particles>{{"particles", "histories per batch, over all ranks (at most 2^31 - 1 per rank)",
                                      "--particles", Restart::match}, 1, limits::max_particles, 10000});
  f(IntegerRow<&Settings::batches>{{"batches", "batches in all", "--batches"}, 1, limits::max_batches, 50});
  f(InactiveRow{{"inactive", "batches before the tallies and k's statistics start, fewer than batches; \"auto\": until "
                  "the source is stationary", "--inactive", Restart::match}});
  f(IntegerRow<&Settings::max_inactive>{{"max_inactive", "with inactive = \"auto\": the most inactive batches; 0: half "
                                         "of batches", "--max-inactive", Restart::match}, 0, limits::max_batches - 1, 0});
  f(IntegerRow<&Settings::generations_per_batch>{
      {"generations_per_batch", "generations in each batch: k's statistics and the tallies are over batches, each the "
       "mean of its generations", "--generations-per-batch", Restart::match},
      1, limits::max_generations_per_batch, 1});
  f(PopulationsRow{{"populations", "independent populations, each with its own fission source, whose spread of k gives "
                    "k's uncertainty", "--populations", Restart::match}});
  f(IntegerRow<&Settings::seed>{{"seed", "the random number seed", "--seed", Restart::match}, 1, limits::int64_max, 1});
  f(ChoiceRow<&Settings::mode, model::PhysicsMode>{{"mode", "the physics: continuous energy or multigroup", "",
                                                    Restart::match}, model::PhysicsMode::continuous_energy, {}});
  f(ChoiceRow<&Settings::energy_grid, EnergyGridKind>{{"energy_grid", "the energy-grid search of continuous-energy "
                                                       "lookups (ignored in multigroup)"}, EnergyGridKind::hash, {}});
  f(ChoiceRow<&Settings::thermal, model::ThermalModel>{
      {"thermal", "elastic scattering off targets moving with their material's temperature (free gas) or at rest", "",
       Restart::match, Applies::continuous_energy},
      model::ThermalModel::free_gas, {}});
  f(NumberRow<&Settings::temperature>{{"temperature", "K: every material's temperature unless it gives its own", "",
                                       Restart::match, Applies::continuous_energy},
                                      0, limits::max_temperature, 293.6, true});
  f(BooleanRow<&Settings::ptables>{{"ptables", "evaluated data: cross sections in the unresolved resonance range "
                                    "from the probability tables (ACE UNR block), or smooth", "", Restart::match,
                                    Applies::continuous_energy}, true});
  f(BooleanRow<&Settings::thermal_tables>{{"thermal_tables", "NCrystal materials from tables built before transport "
                                           "(any backend), or NCrystal asked in transport (host backends)", "",
                                           Restart::match, Applies::continuous_energy}, true});
  f(IntegerRow<&Settings::thermal_table_energies>{{"thermal_table_energies", "incident energies of each NCrystal "
                                                   "material's table, log-spaced below 5 eV", "", Restart::match,
                                                   Applies::continuous_energy},
                                                  2, limits::max_thermal_table_energies, 4000});
  f(IntegerRow<&Settings::thermal_table_samples>{{"thermal_table_samples", "outcomes of each part of NCrystal's "
                                                  "scattering at each of those energies (energies x samples <= 10^7)",
                                                  "", Restart::match, Applies::continuous_energy},
                                                 1, limits::max_thermal_table_samples, 1024});
  f(IntegerRow<&Settings::thermal_table_draws>{{"thermal_table_draws", "NCrystal scatters drawn per outcome kept "
                                                "(stratified)", "", Restart::match, Applies::continuous_energy},
                                               1, limits::max_thermal_table_draws, 4});
  f(IntegerRow<&Settings::hash_bins>{{"hash_bins", "bins of the logarithmic hash grid (energy_grid = \"hash\")"}, 1,
                                     limits::max_hash_bins, 8000});
  f(ChoiceRow<&Settings::transport, TransportMode>{
      {"transport", "history-based (a thread per neutron) or event-based (a kernel per event); identical results",
       "--mode"},
      {}, "\"history\", or \"event\" with domains"});
  f(IntegerRow<&Settings::event_slots>{{"event.slots", "event-based transport: particles in flight per rank; 0 sizes "
                                        "them from the memory free"}, 0, std::int64_t{1} << 31, 0});
  f(ChoiceRow<&Settings::event_sort, EventSort>{{"event.sort", "the order of the event-based lookup queue"}, {},
                                                 "\"material_energy\" on a GPU, \"none\" on a CPU"});
  f(ChoiceRow<&Settings::event_sorter, EventSorter>{{"event.sorter", "how a sorted lookup queue is sorted"},
                                                     EventSorter::counting, {}});
  f(ChoiceRow<&Settings::event_reorder, EventReorder>{{"event.reorder", "what a sort reorders: the particles, or an "
                                                       "index"}, {}, "\"particles\" on a GPU, \"index\" on a CPU"});
  f(NumberRow<&Settings::bank_capacity_factor>{{"bank_capacity_factor", "fission-bank sites per source particle before "
                                                "the bank overflows (and grows)"},
                                               1, limits::max_bank_capacity_factor, 3});
  f(NumberRow<&Settings::initial_k>{{"initial_k", "the first batch's k, which normalises its fission-site production",
                                     "", Restart::match},
                                    limits::min_initial_k, limits::max_initial_k, 1});
  f(IntegerRow<&Settings::max_events>{{"max_events", "flights per history before it counts as lost"}, 1,
                                      limits::int_max, 100000});
  f(IntegerRow<&Settings::max_lost>{{"max_lost", "lost particles a run allows; more fail it"}, 0, limits::int64_max, 10});
  f(IntegerRow<&Settings::geometry_check_points>{{"geometry_check_points", "points of the geometry checked for "
                                                  "overlaps and gaps before the run; 0 skips the check"},
                                                 0, limits::max_geometry_check_points, 100000});
  f(StringRow<&Settings::statepoint>{{"statepoint", "the statepoint's path; \"\" writes none", "--statepoint"},
                                     "statepoint.h5", "a path, or \"\" for none"});
  f(IntegerRow<&Settings::statepoint_interval>{{"statepoint_interval", "also write the statepoint every this many "
                                                "batches; 0: only after the last"}, 0, limits::int_max, 0});
  f(IntegerRow<&Settings::max_batches>{{"max_batches", "with tally triggers, the run goes on past batches to this many "
                                        "until they hold; 0: none"}, 0, limits::max_batches, 0});
  f(BooleanRow<&Settings::allow_oversubscribed_memory>{{"allow_oversubscribed_memory", "run even when the memory "
                                                        "estimate exceeds the memory available",
                                                        "--allow-oversubscribed-memory"}, false});
  f(TableKeyRow{{"source.lower_left", "the initial source: uniform in this box, in fissionable material (required)"},
                "numbers", "[x, y, z] in cm", "required"});
  f(TableKeyRow{{"source.upper_right", "its upper corner (required)"}, "numbers",
                "[x, y, z] in cm, above lower_left on every axis", "required"});
  f(TableKeyRow{{"entropy_mesh.lower_left", "the Shannon entropy's mesh of the fission source: its lower corner"},
                "numbers", "[x, y, z] in cm", "the source box's"});
  f(TableKeyRow{{"entropy_mesh.upper_right", "its upper corner"}, "numbers", "[x, y, z] in cm, above lower_left",
                "the source box's"});
  f(TableKeyRow{{"entropy_mesh.shape", "its bins"}, "integers", "[nx, ny, nz], each >= 1, at most 2^24 bins",
                "[8, 8, 1]"});
  f(TableKeyRow{{"tally_mesh.lower_left", "with [settings.tally_mesh], a collision-estimator tally \"mesh\" of flux "
                 "and fission on a mesh: its lower corner"}, "numbers", "[x, y, z] in cm", "the source box's"});
  f(TableKeyRow{{"tally_mesh.upper_right", "its upper corner"}, "numbers", "[x, y, z] in cm, above lower_left",
                "the source box's"});
  f(TableKeyRow{{"tally_mesh.shape", "its bins"}, "integers", "[nx, ny, nz], each >= 1, at most 2^24 bins", "[1, 1, 1]"});
  f(TableKeyRow{{"tally_mesh.energy_bounds", "its energy bins (continuous energy; multigroup: the problem's groups)",
                 "", Restart::free, Applies::continuous_energy},
                "numbers", "ascending eV, >= 0", "[1e-5, 0.625, 2e7]"});
}

// The top-level keys of [settings] (a nested table's name once), and the keys of the nested table `name`,
// in the rows' order: what each table of the input allows.
std::vector<std::string_view> top_level_keys();
std::vector<std::string_view> keys_of_table(std::string_view name);

// A rule between settings that does not hold: the keys it involves (the first named in a message where
// the input sets it), what is wrong and what is allowed. The same words after the input and after
// `keff run`'s flags.
struct Problem {
  std::vector<std::string_view> keys;
  std::string what, allowed;
};
std::optional<Problem> settings_problem(const model::Settings& s);

// The NCrystal tables' shape the run asks for (settings.thermal_table_*).
ThermalTableSpec thermal_table_spec(const model::Settings& s);

// A row's `keff run` flag: the flag, its row's key, what it takes ("N", "FILE", "history|event"; "" for a
// switch, which sets a boolean true), its words and its allowed values.
struct Flag {
  std::string_view flag, key;
  std::string value, words, allowed;
};
std::vector<Flag> flags();

// Sets row `key` of `s` from `text`, as its flag gives it: false when `text` is not one of its values
// (the words of Flag::allowed say which are).
bool set_from_text(std::string_view key, std::string_view text, model::Settings& s);

// The rows as `keff input settings` prints them: a line per row, tab-separated: key, type, default, flag
// ("-" for none), restart ("match" or "-"), applies ("continuous-energy" or "any"), allowed, words.
std::string listing();

// The text of each Restart::match row of `s`, by key, in the rows' order: what a statepoint records and a
// restart compares (io/output/restart_check.hpp).
std::vector<std::pair<std::string, std::string>> restart_values(const model::Settings& s);

}  // namespace keff::settings
