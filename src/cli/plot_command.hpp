#pragma once
// `keff plot [input.toml] [options]`: slices of the geometry as PNG pictures, with their legends.
#include "mpi/communicator.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace keff {

// Returns the exit status: 0 when every picture was written (overlaps, gaps and blank slices are
// reported as warnings). Throws UsageError for a bad command line, InputError for a bad input or slice
// (status 2) and OutputError for a picture that cannot be written (status 1).
int plot_command(const std::vector<std::string_view>& args, const Communicator& comm);

// Its usage, answered before Kokkos starts.
std::string plot_usage_text();

}  // namespace keff
