#pragma once
// The header a run prints before its batch table: what will run and the memory it takes. The summary
// after the table is io/output/summary_text.hpp's.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "src/driver/run.hpp"

#include <ostream>
#include <string>

namespace keff {

// The run's header: the input, physics, geometry and its check, sizes, parallelism, transport, CMFD,
// the state's memory, the tallies and the input's notes.
void print_problem(std::ostream& os, const model::Problem& p, const RunSetup& run, int ranks,
                   const std::string& geometry_check);

}  // namespace keff
