#pragma once
// The text a run prints around its batch table: the header that says what will run, and the summary of
// its results (the JSON summary, io/output/summary_json.cpp, holds the same results for programs).
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

// The results after the batch table: k by estimator with the correlation-corrected deviations, leakage,
// lost particles, time by phase, the exchanges, event transport, domains, CMFD, tallies, particles/s.
void print_summary(std::ostream& os, const RunResults& r);

}  // namespace keff
