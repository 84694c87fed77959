#pragma once
// `keff data generate|convert|info|ace`: nuclear-data library tools.
#include "mpi/communicator.hpp"
#include "src/cli/run_options.hpp"

#include <string_view>
#include <vector>

namespace keff {

// Returns the exit status; throws UsageError for a bad command line.
int data_command(const std::vector<std::string_view>& args, const Communicator& comm);

// `keff data`'s usage text (for `keff data --help`, `keff data <command> --help`).
const char* data_usage_text();

}  // namespace keff
