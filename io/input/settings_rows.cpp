#include "io/input/settings_rows.hpp"

#include <charconv>
#include <cmath>
#include <set>

namespace keff {

namespace model {

// Every key's default is its row's (io/input/settings_rows.hpp); the members that are no key keep theirs.
Settings::Settings() {
  settings::for_each_setting([this](const auto& row) {
    if constexpr (requires { row.set_default(*this); }) row.set_default(*this);
  });
  entropy_mesh = {source, {8, 8, 1}};
}

}  // namespace model

namespace settings {

std::string integer_text(std::int64_t v) { return limits::number_text(v); }

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));  // 100000, not 1e+05
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);  // the shortest text that reads back as v
  return std::string(buf, res.ptr);
}

namespace {

// An integer or the word "auto": sets `automatic`, or `value` when the integer is in [min, max].
bool set_integer_or_auto(std::string_view text, std::int64_t min, std::int64_t max, bool& automatic, int& value) {
  if (text == "auto") {
    automatic = true;
    return true;
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max) return false;
  automatic = false;
  value = static_cast<int>(v);
  return true;
}

}  // namespace

bool PopulationsRow::set(model::Settings& s, std::string_view text) const {
  return set_integer_or_auto(text, 1, limits::max_populations, s.populations_automatic, s.populations);
}

std::string InactiveRow::allowed() const {
  return limits::integer_range(0, limits::max_batches - 1) + ", fewer than batches, or \"auto\"";
}

bool InactiveRow::set(model::Settings& s, std::string_view text) const {
  return set_integer_or_auto(text, 0, limits::max_batches - 1, s.inactive_automatic, s.inactive);
}

namespace {

std::string_view table_of(std::string_view key) {
  const auto dot = key.find('.');
  return dot == std::string_view::npos ? std::string_view() : key.substr(0, dot);
}

}  // namespace

std::vector<std::string_view> top_level_keys() {
  std::vector<std::string_view> keys;
  std::set<std::string_view> seen;
  for_each_setting([&](const auto& row) {
    const std::string_view table = table_of(row.key);
    const std::string_view key = table.empty() ? row.key : table;
    if (seen.insert(key).second) keys.push_back(key);
  });
  return keys;
}

std::vector<std::string_view> keys_of_table(std::string_view name) {
  std::vector<std::string_view> keys;
  for_each_setting([&](const auto& row) {
    if (table_of(row.key) == name) keys.push_back(row.key.substr(name.size() + 1));
  });
  return keys;
}

std::optional<Problem> settings_problem(const model::Settings& s) {
  if (s.inactive_automatic) {
    const int most = model::automatic_inactive_bound(s);
    if (most < limits::min_automatic_inactive || most >= s.batches) {
      return Problem{s.max_inactive > 0 ? std::vector<std::string_view>{"max_inactive", "inactive", "batches"}
                                        : std::vector<std::string_view>{"inactive", "max_inactive", "batches"},
                     "inactive = \"auto\", the default, may take up to " + std::to_string(most) + " inactive batches of batches = " +
                         std::to_string(s.batches) + (s.max_inactive > 0 ? " (max_inactive)" : " (half of them)"),
                     "a bound of at least " + std::to_string(limits::min_automatic_inactive) +
                         " batches (from there on the run tests its source) and fewer than batches: batches >= " +
                         std::to_string(2 * limits::min_automatic_inactive) + ", or max_inactive in [" +
                         std::to_string(limits::min_automatic_inactive) + ", batches - 1], or an integer inactive"};
    }
  } else if (s.inactive >= s.batches) {
    return Problem{{"inactive", "batches"},
                   "inactive = " + std::to_string(s.inactive) + " leaves no active batch of batches = " +
                       std::to_string(s.batches),
                   "0 <= inactive < batches"};
  }
  if (s.max_batches > 0 && s.max_batches < s.batches) {
    return Problem{{"max_batches", "batches"},
                   "max_batches = " + std::to_string(s.max_batches) + " is below batches = " + std::to_string(s.batches),
                   "0 (none), or at least batches: the run goes on past batches until its tally triggers hold"};
  }
  if (model::last_generation(s) > limits::max_batches) {
    return Problem{{"generations_per_batch", "batches", "max_batches"},
                   std::to_string(model::last_batch(s)) + " batches x " + std::to_string(s.generations_per_batch) +
                       " generations",
                   "at most " + limits::number_text(limits::max_batches) + " generations in a run (each keeps its record)"};
  }
  if (!s.populations_automatic) {
    if (std::string why = model::populations_problem(s); !why.empty()) {
      return Problem{{"populations", "particles"}, why, model::populations_allowed()};
    }
  }
  if (std::int64_t{s.thermal_table_energies} * s.thermal_table_samples > limits::max_thermal_table_outcomes) {
    return Problem{{"thermal_table_samples", "thermal_table_energies"},
                   std::to_string(s.thermal_table_energies) + " energies x " + std::to_string(s.thermal_table_samples) +
                       " samples per NCrystal material",
                   "thermal_table_energies x thermal_table_samples <= " + std::to_string(limits::max_thermal_table_outcomes)};
  }
  return std::nullopt;
}

ThermalTableSpec thermal_table_spec(const model::Settings& s) {
  ThermalTableSpec spec;
  spec.energies = s.thermal_table_energies;
  spec.samples = s.thermal_table_samples;
  spec.draws_per_outcome = s.thermal_table_draws;
  return spec;
}

namespace {

std::optional<std::int64_t> integer_of(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> number_of(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

template <auto Member>
bool set_text(const IntegerRow<Member>& row, std::string_view text, model::Settings& s) {
  const auto v = integer_of(text);
  return v && row.set(s, *v);
}
template <auto Member>
bool set_text(const NumberRow<Member>& row, std::string_view text, model::Settings& s) {
  const auto v = number_of(text);
  return v && row.set(s, *v);
}
template <auto Member>
bool set_text(const BooleanRow<Member>& row, std::string_view text, model::Settings& s) {
  if (text != "true" && text != "false") return false;
  row.set(s, text == "true");
  return true;
}
template <auto Member>
bool set_text(const StringRow<Member>& row, std::string_view text, model::Settings& s) {
  row.set(s, std::string(text));
  return true;
}
template <auto Member, class E>
bool set_text(const ChoiceRow<Member, E>& row, std::string_view text, model::Settings& s) {
  const std::optional<E> e = enum_from_name<E>(text);
  if (e) row.set(s, *e);
  return e.has_value();
}
bool set_text(const PopulationsRow& row, std::string_view text, model::Settings& s) { return row.set(s, text); }
bool set_text(const InactiveRow& row, std::string_view text, model::Settings& s) { return row.set(s, text); }
bool set_text(const TableKeyRow&, std::string_view, model::Settings&) { return false; }

}  // namespace

std::vector<Flag> flags() {
  std::vector<Flag> out;
  for_each_setting([&](const auto& row) {
    if (row.flag.empty()) return;
    using Row = std::decay_t<decltype(row)>;
    std::string value;
    if constexpr (requires { row.min; }) {
      value = "N";
    } else if constexpr (std::is_same_v<Row, PopulationsRow>) {
      value = "P|auto";
    } else if constexpr (std::is_same_v<Row, InactiveRow>) {
      value = "N|auto";
    } else if constexpr (requires { row.unset; }) {
      value = "MODE";
    } else if constexpr (requires { row.allowed_words; }) {
      value = "FILE";
    }
    out.push_back({row.flag, row.key, value, std::string(row.words), row.allowed()});
  });
  return out;
}

bool set_from_text(std::string_view key, std::string_view text, model::Settings& s) {
  bool done = false, ok = false;
  for_each_setting([&](const auto& row) {
    if (done || row.key != key) return;
    done = true;
    ok = set_text(row, text, s);
  });
  return ok;
}

std::string listing() {
  std::string out;
  for_each_setting([&](const auto& row) {
    std::string type;
    if constexpr (requires { row.type_words; }) {
      type = row.type_words;
    } else {
      type = row.type;
    }
    out.append(row.key).append("\t").append(type).append("\t").append(row.default_text()).append("\t");
    out.append(row.flag.empty() ? std::string_view("-") : row.flag).append("\t");
    out.append(row.restart == Restart::match ? "match" : "-").append("\t");
    out.append(row.applies == Applies::continuous_energy ? "continuous-energy" : "any").append("\t");
    out.append(row.allowed()).append("\t").append(row.words).append("\n");
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> restart_values(const model::Settings& s) {
  std::vector<std::pair<std::string, std::string>> values;
  for_each_setting([&](const auto& row) {
    if constexpr (requires { row.text(s); }) {
      if (row.restart == Restart::match) values.emplace_back(std::string(row.key), row.text(s));
    }
  });
  return values;
}

}  // namespace settings

}  // namespace keff
