#pragma once
// `keff tally show STATEPOINT [NAME] [--csv]`: a statepoint's tallies as tables (or CSV), bin by bin.
#include "mpi/communicator.hpp"

#include <string_view>
#include <vector>

namespace keff {

// Returns the exit status; throws UsageError for a bad command line and InputError for a file that is
// not a statepoint or has no such tally (status 2).
int tally_command(const std::vector<std::string_view>& args, const Communicator& comm);

const char* tally_usage_text();

}  // namespace keff
