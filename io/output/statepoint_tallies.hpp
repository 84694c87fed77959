#pragma once
// The tallies' part of a statepoint (examples/OUTPUTS.md, "Statepoint"): /tallies holds `names` (the tallies in
// input order) and a group per tally with its estimator, scores, units, filters, means and standard
// deviations shaped [filter bins..., scores], and the running sums a restart continues from.
#include "io/hdf5_file.hpp"
#include "io/output/run_results.hpp"

#include <string>
#include <vector>

namespace keff::detail {

void write_tallies(const H5Group& tallies, const std::vector<TallyResult>& results);

// Each tally: its name, description, means, deviations and running sums. Every dataset's size is checked
// before it is read, and the description against what a run writes (a known estimator and scores with
// their units, filters whose bins times the scores are the values, each filter holding what its kind
// carries, valid names, finite means and non-negative deviations): a forged shape or list is refused with
// one line, where it used to crash `keff tally show`.
std::vector<TallyResult> read_tallies(const H5Group& tallies, const std::string& path);

}  // namespace keff::detail
