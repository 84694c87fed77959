#pragma once
// A tally printed bin by bin, as `keff tally show` prints it: what each bin is (a mesh cell's indices, an
// energy band, a group, a cell's name, a placement and where it is), then every score's mean, standard
// deviation and relative error; with `csv`, one comma-separated row per bin and score. The tally must have
// passed tally_description_problem (io/output/results_check.hpp), which every statepoint reader applies:
// its shapes and lists are what the printing indexes. Host only.
#include "io/output/run_results.hpp"

#include <ostream>

namespace keff {

void print_tally(std::ostream& os, const TallyResult& t, bool csv);

}  // namespace keff
