#pragma once
// `keff data ace`: reads the neutron tables of an ACE library (its xsdir), checks every block keff uses
// and describes each table: grid, reactions and their laws, nu, delayed groups, probability tables, and
// the 0.0253 eV cross sections. Throws DataError for a table keff would refuse.
#include <string>
#include <vector>

namespace keff {

// `nuclides` empty: every neutron table of the library. `reactions`: one line per reaction too.
void describe_ace_library(const std::string& xsdir_path, const std::vector<std::string>& nuclides, bool reactions);

}  // namespace keff
