// The settings' one list of rows (io/input/settings_rows.hpp) against what describes them elsewhere:
// examples/INPUT.md's [settings] table (every key once, its type and default, its range), `keff run`'s
// flags (each flag takes exactly its row's range: the values at both ends, refused just beyond), the
// defaults of model::Settings and the NCrystal table spec built from them, and one wording for each rule
// between settings in the input and on the command line.
#include "io/input/input.hpp"
#include "io/input/settings_rows.hpp"
#include "src/cli/run_options.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace keff {
namespace {

struct DocRow {
  std::string type, fallback, allowed;
};

std::string without_backticks(std::string text) {
  std::erase(text, '`');
  return text;
}

// examples/INPUT.md's table under "## `[settings]` (required)": key -> type, default, allowed.
std::map<std::string, DocRow> documented_settings() {
  std::ifstream in(std::string(KEFF_EXAMPLES) + "/INPUT.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string md = text.str();
  const auto start = md.find("## `[settings]` (required)");
  const auto end = md.find("\n## ", start + 1);
  std::map<std::string, DocRow> rows;
  std::istringstream lines(md.substr(start, end - start));
  const std::regex row(R"(^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \| (.*) \|$)");
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const auto trim = [](std::string v) {
      while (!v.empty() && v.back() == ' ') v.pop_back();
      return v;
    };
    EXPECT_EQ(rows.count(m[1]), 0u) << "INPUT.md lists " << m[1] << " twice";
    rows[m[1]] = {trim(m[2]), without_backticks(trim(m[3])), without_backticks(m[4])};
  }
  return rows;
}

// The range the table must state for a row: "[1, 2^40]" for an integer, "(0, 1e+05]" for a number, each
// name of a choice; "" where the words are the row's own.
template <class Row>
std::vector<std::string> range_words(const Row& row) {
  if constexpr (requires { row.min; }) {
    if constexpr (std::is_same_v<decltype(row.min), std::int64_t>) {
      return {"[" + settings::integer_text(row.min) + ", " + settings::integer_text(row.max) + "]"};
    } else {
      return {std::string(row.open_below ? "(" : "[") + settings::number_text(row.min) + ", " +
              settings::number_text(row.max) + "]"};
    }
  } else if constexpr (requires { row.unset; }) {
    std::vector<std::string> names;
    std::string all = row.allowed();
    std::erase(all, '"');
    std::istringstream in(all);
    for (std::string name; std::getline(in, name, ',');) names.push_back("\"" + name.substr(name.find_first_not_of(' ')) + "\"");
    return names;
  } else {
    return {};
  }
}

TEST(SettingsRows, InputMdHoldsEveryRowAsItIs) {
  const auto documented = documented_settings();
  std::size_t rows = 0;
  settings::for_each_setting([&](const auto& row) {
    ++rows;
    const std::string key(row.key);
    const auto it = documented.find(key);
    ASSERT_NE(it, documented.end()) << "examples/INPUT.md's [settings] table has no row for " << key;
    std::string type;
    if constexpr (requires { row.type_words; }) {
      type = row.type_words;
    } else {
      type = row.type;
    }
    EXPECT_EQ(without_backticks(it->second.type), without_backticks(type)) << key;
    EXPECT_EQ(it->second.fallback, without_backticks(row.default_text())) << key;
    for (const std::string& words : range_words(row)) {
      EXPECT_NE(it->second.allowed.find(words), std::string::npos)
          << key << ": INPUT.md's allowed column does not say " << words << ": " << it->second.allowed;
    }
  });
  EXPECT_EQ(documented.size(), rows) << "examples/INPUT.md's [settings] table lists a key no row has";
}

// Each flag is its row: the ends of an integer's range pass, one beyond is refused with the row's words.
TEST(SettingsRows, FlagsTakeTheirRowsRange) {
  int flags = 0;
  settings::for_each_setting([&](const auto& row) {
    if (row.flag.empty()) return;
    ++flags;
    if constexpr (requires { row.min; }) {
      for (const std::int64_t v : {row.min, row.max}) {
        const RunOptions o = parse_run_options({row.flag, std::to_string(v)});
        ASSERT_EQ(o.settings.size(), 1u);
        EXPECT_EQ(o.settings[0].first, row.key);
      }
      if constexpr (std::is_same_v<decltype(row.min), std::int64_t>) {
        for (const std::int64_t v : {row.min - 1, row.max == limits::int64_max ? row.min - 2 : row.max + 1}) {
          try {
            parse_run_options({row.flag, std::to_string(v)});
            ADD_FAILURE() << row.flag << " " << v << " was taken";
          } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("(allowed: " + row.allowed() + ")"), std::string::npos) << e.what();
          }
        }
      }
    }
  });
  EXPECT_GE(flags, 8);
}

// The defaults are the rows', and the NCrystal tables a run builds by default are what the NCrystal tests
// check (they built 16-draw tables where runs built 4).
TEST(SettingsRows, DefaultsAreTheRows) {
  const model::Settings s;
  EXPECT_EQ(s.particles, 10000);
  EXPECT_EQ(s.thermal_table_draws, 4);
  EXPECT_TRUE(s.populations_automatic);
  const ThermalTableSpec spec = settings::thermal_table_spec(s);
  EXPECT_EQ(spec.energies, s.thermal_table_energies);
  EXPECT_EQ(spec.samples, s.thermal_table_samples);
  EXPECT_EQ(spec.draws_per_outcome, 4);
}

// A rule between settings has one wording, in the input and on the command line.
TEST(SettingsRows, RulesHaveOneWording) {
  const std::string minimal =
      "[settings]\nparticles = 1000\nbatches = 5\ninactive = 2\nmode = \"multigroup\"\n[settings.source]\nlower_left = [-1.0, -1.0, "
      "-1.0]\nupper_right = [1.0, 1.0, 1.0]\n[multigroup]\ngroups = 1\n[[surface]]\nid = 1\ntype = \"sphere\"\ncoeffs = [0.0, 0.0, "
      "0.0, 1.0]\nboundary = \"vacuum\"\n[[cell]]\nname = \"c\"\nregion = \"-1\"\nmaterial = \"m\"\n[[material]]\nname = \"m\"\n"
      "sigma_t = [1.0]\nsigma_s = [[0.5]]\nnu_sigma_f = [0.6]\nsigma_f = [0.25]\nchi = [1.0]\n";
  const std::string rule = "inactive = 5 leaves no active batch of batches = 5 (allowed: 0 <= inactive < batches)";
  std::string input_message;
  try {
    read_problem_string(std::regex_replace(minimal, std::regex("inactive = 2"), "inactive = 5"), "rule.toml");
  } catch (const InputError& e) {
    input_message = e.what();
  }
  EXPECT_NE(input_message.find("rule.toml:4: settings.inactive: " + rule), std::string::npos) << input_message;
  model::Problem p = read_problem_string(minimal, "rule.toml");
  std::string flag_message;
  try {
    apply_overrides(parse_run_options({"--inactive", "5"}), p);
  } catch (const UsageError& e) {
    flag_message = e.what();
  }
  EXPECT_EQ(flag_message, "--inactive / settings.inactive: " + rule);
}

}  // namespace
}  // namespace keff
