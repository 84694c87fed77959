// `keff tally filters`: the filter kinds a [[tally]] can have, from their one table
// (kernels/vocabulary/tally_kinds.hpp).
// `keff tally show`: rank 0 reads the statepoint (read_statepoint_tallies checks it as a restart does)
// and prints each tally bin by bin: what the bin is (a mesh cell's indices, an energy band, a cell's
// name, a placement and where it is), then every score's mean, standard deviation and relative error.
#include "src/cli/tally_command.hpp"

#include "io/input/input.hpp"
#include "io/output/output.hpp"
#include "io/printable.hpp"
#include "src/cli/run_options.hpp"
#include "src/cli/tally_table.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

namespace keff {

namespace {

constexpr const char* tally_usage =
    "usage: keff tally show STATEPOINT [NAME] [--csv]\n"
    "       keff tally filters\n"
    "\n"
    "filters lists the filter kinds a [[tally]] can have: each one's name, the key that gives its bins,\n"
    "what it bins by and the physics mode it needs.\n"
    "\n"
    "Prints the tallies of a statepoint (all of them, or the one named NAME) bin by bin: each filter's bin\n"
    "(mesh indices, energy band in eV, group, cell, material, universe, or a cell's placement and its\n"
    "position), then every score's mean and standard deviation per source particle and its relative\n"
    "error. --csv prints the same as comma-separated values, one row per bin and score.\n";

std::string_view mode_of(FilterPhysics physics) {
  switch (physics) {
    case FilterPhysics::continuous_energy: return "continuous-energy";
    case FilterPhysics::multigroup: return "multigroup";
    case FilterPhysics::any: break;
  }
  return "any";
}

// One line per kind, tab-separated: name, bins key ("-": none), bins form, units ("-"), mode, description.
void print_filters(std::ostream& os) {
  for (const auto& f : tally_filters) {
    os << f.name << '\t' << (f.bins_key.empty() ? "-" : f.bins_key) << '\t' << name_of(f.bins) << '\t'
       << (f.units.empty() ? "-" : f.units) << '\t' << mode_of(f.physics) << '\t' << f.description << '\n';
  }
}

}  // namespace

const char* tally_usage_text() { return tally_usage; }

int tally_command(const std::vector<std::string_view>& args, const Communicator& comm) {
  if (args.size() == 1 && args[0] == "filters") {
    if (comm.is_root()) print_filters(std::cout);
    return 0;
  }
  if (args.empty() || args[0] != "show") {
    throw UsageError("tally: expected 'show' or 'filters' (keff tally show STATEPOINT [NAME] [--csv], keff tally filters)");
  }
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
    if (!name || t.name == *name) print_tally(std::cout, t, csv);
  }
  return 0;
}

}  // namespace keff
