// `keff tally show`: rank 0 reads the statepoint (read_statepoint_tallies checks it as a restart does)
// and prints each tally bin by bin: what the bin is (a mesh cell's indices, an energy band, a cell's
// name, a placement and where it is), then every score's mean, standard deviation and relative error.
#include "src/cli/tally_command.hpp"

#include "io/input/input.hpp"
#include "io/output/output.hpp"
#include "io/printable.hpp"
#include "src/cli/run_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

namespace keff {

namespace {

constexpr const char* tally_usage =
    "usage: keff tally show STATEPOINT [NAME] [--csv]\n"
    "\n"
    "Prints the tallies of a statepoint (all of them, or the one named NAME) bin by bin: each filter's bin\n"
    "(mesh indices, energy band in eV, group, cell, material, universe, or a cell's placement and its\n"
    "position), then every score's mean and standard deviation per source particle and its relative\n"
    "error. --csv prints the same as comma-separated values, one row per bin and score.\n";

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// What bin b of filter f is, in words.
std::string bin_label(const TallyFilterResult& f, std::int64_t b) {
  const auto i = static_cast<std::size_t>(b);
  if (f.kind == "mesh") {
    const std::int64_t nx = f.shape[0], ny = f.shape[1];
    return "(" + std::to_string(b % nx) + " " + std::to_string((b / nx) % ny) + " " + std::to_string(b / (nx * ny)) + ")";
  }
  if (f.kind == "energy") return "[" + number(f.energy_bounds[i]) + ", " + number(f.energy_bounds[i + 1]) + ") eV";
  if (f.kind == "group") return "group " + std::to_string(b + 1);
  if (f.kind == "cell_instance" && i < f.positions.size()) {
    const auto& p = f.positions[i];
    return f.names[i] + " at (" + number(p[0]) + " " + number(p[1]) + " " + number(p[2]) + ")";
  }
  return i < f.names.size() ? f.names[i] : std::to_string(b);
}

void show(std::ostream& os, const TallyResult& t, bool csv) {
  const std::size_t scores = t.scores.size();
  std::int64_t bins = 1;
  for (const auto& f : t.filters) bins *= f.bins;
  if (csv) {
    os << "tally";
    for (const auto& f : t.filters) os << "," << f.kind;
    os << ",score,mean,std_dev\n";
  } else {
    os << "tally '" << t.name << "' (" << t.estimator << " estimator, " << bins << " bins; per source particle)\n";
    for (std::size_t k = 0; k < scores; ++k) os << "  " << t.scores[k] << ": " << t.units[k] << "\n";
  }
  std::vector<std::int64_t> strides(t.filters.size(), 1);
  for (std::size_t j = t.filters.size(); j-- > 1;) strides[j - 1] = strides[j] * t.filters[j].bins;
  for (std::int64_t bin = 0; bin < bins; ++bin) {
    std::vector<std::string> labels;
    for (std::size_t j = 0; j < t.filters.size(); ++j) labels.push_back(bin_label(t.filters[j], (bin / strides[j]) % t.filters[j].bins));
    for (std::size_t k = 0; k < scores; ++k) {
      const std::size_t v = static_cast<std::size_t>(bin) * scores + k;
      const double mean = t.mean[v], sd = t.std_dev[v];
      if (csv) {
        os << t.name;
        for (const auto& l : labels) os << ",\"" << l << "\"";
        os << "," << t.scores[k] << "," << number(mean) << "," << (std::isnan(sd) ? "" : number(sd)) << "\n";
        continue;
      }
      std::string row = "  ";
      for (const auto& l : labels) row += l + "  ";
      char values[96];
      std::snprintf(values, sizeof values, "%-10s %13.6e +/- %-12s", t.scores[k].c_str(), mean,
                    std::isnan(sd) ? "-" : number(sd).c_str());
      row += values;
      if (mean > 0 && !std::isnan(sd)) row += " (" + number(100 * sd / mean) + " %)";
      os << row << "\n";
    }
  }
}

}  // namespace

const char* tally_usage_text() { return tally_usage; }

int tally_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  if (args.empty() || args[0] != "show") throw UsageError("tally: expected 'show' (keff tally show STATEPOINT [NAME] [--csv])");
  std::optional<std::string> path, name;
  bool csv = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--csv") {
      csv = true;
    } else if (!args[i].starts_with("-") && !path) {
      path = std::string(args[i]);
    } else if (!args[i].starts_with("-") && !name) {
      name = std::string(args[i]);
    } else {
      throw UsageError("tally show: unknown argument '" + printable(args[i]) + "' (allowed: STATEPOINT [NAME] [--csv])");
    }
  }
  if (!path) throw UsageError("tally show: expected STATEPOINT");
  std::string failure;
  std::vector<TallyResult> tallies;
  if (comm.is_root()) {
    try {
      tallies = read_statepoint_tallies(*path);
      if (name && std::none_of(tallies.begin(), tallies.end(), [&](const TallyResult& t) { return t.name == *name; })) {
        std::string have;
        for (const auto& t : tallies) have += (have.empty() ? "" : ", ") + t.name;
        failure = "tally show: '" + printable(*path) + "' has no tally '" + printable(*name) + "' (allowed: " +
                  (have.empty() ? std::string("none: it has no tallies") : have) + ")";
      }
    } catch (const std::exception& e) {
      failure = "tally show: " + std::string(e.what());
    }
  }
  failure = comm.first_error(failure);
  if (!failure.empty()) throw InputError(failure);
  if (!comm.is_root()) return 0;
  if (tallies.empty()) std::cout << "'" << printable(*path) << "' has no tallies\n";
  for (const auto& t : tallies) {
    if (!name || t.name == *name) show(std::cout, t, csv);
  }
  return 0;
}

}  // namespace keff
