#pragma once
// `keff input settings`: the keys of [settings], from their one list of rows (io/input/settings_rows.hpp).
#include "mpi/communicator.hpp"

#include <string_view>
#include <vector>

namespace keff {

// Returns the exit status; throws UsageError for a bad command line.
int input_command(const std::vector<std::string_view>& args, const Communicator& comm);

const char* input_usage_text();

}  // namespace keff
