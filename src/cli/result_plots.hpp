#pragma once
// `keff run --plots DIR`: the result pictures drawn at the end of a run by the Python package
// scripts/keff_results (examples/OUTPUTS.md, "Reading results in Python") from the statepoint just written.
#include <ostream>
#include <string>

namespace keff {

// Runs `python3 scripts/keff_results all STATEPOINT --out DIR` (rank 0 only) and says on `log` what it
// wrote. A run's results stand without their pictures: when Python or its packages are missing, or the
// script fails, this says so and how to get them on standard error, and returns.
// KEFF_PYTHON (default python3) and KEFF_RESULTS_PACKAGE (default: the source tree's scripts/keff_results)
// choose another interpreter or package.
void draw_result_plots(const std::string& statepoint, const std::string& dir, std::ostream* log);

}  // namespace keff
