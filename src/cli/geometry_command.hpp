#pragma once
// `keff check-geometry [input.toml] [--points N]`: the sampled overlap and gap search, on its own.
#include "mpi/communicator.hpp"

#include <string_view>
#include <vector>

namespace keff {

// Returns the exit status: 0 no fault found, 1 faults found (listed on standard output). Throws
// UsageError for a bad command line and InputError for a bad input (status 2), Interrupted for a signal.
int geometry_command(const std::vector<std::string_view>& args, const Communicator& comm);

// Its usage, answered before Kokkos starts (which would print its own help for --help).
const char* check_geometry_usage_text();

}  // namespace keff
