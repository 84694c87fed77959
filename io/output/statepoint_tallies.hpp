#pragma once
// The tallies' part of a statepoint (io/README.md, "Statepoint"): /tallies holds `names` (the tallies in
// input order) and a group per tally with its estimator, scores, units, filters, means and standard
// deviations shaped [filter bins..., scores], and the running sums a restart continues from.
#include "io/hdf5_file.hpp"
#include "io/output/run_results.hpp"

#include <string>
#include <vector>

namespace keff::detail {

void write_tallies(const H5Group& tallies, const std::vector<TallyResult>& results);

// What a restart needs: each tally's name and running sums (`with_results`: also its description, means
// and deviations). Every dataset's size is checked before it is read.
std::vector<TallyResult> read_tallies(const H5Group& tallies, const std::string& path, bool with_results);

}  // namespace keff::detail
