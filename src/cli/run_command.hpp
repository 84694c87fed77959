#pragma once
// `keff run`: the options and the input read and checked on every rank and agreed on, the geometry
// checked, the power iteration run, and rank 0's outputs (the JSON summary, the printed summary, the
// statepoint's pictures).
#include "mpi/communicator.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace keff {

// `keff run --help`: its options from the parser's own table (run_options.hpp).
std::string run_usage_text();

// Runs `keff run <args>`; returns the exit status, or throws the error cli_main reports.
int run_command(const std::vector<std::string_view>& args, const Communicator& comm);

}  // namespace keff
