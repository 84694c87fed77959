#pragma once
// Run outputs: the JSON summary and the HDF5 statepoint (results and final source bank), both written
// atomically (temporary file in the same directory, then rename) so a crash never leaves half a file.
#include "io/output/run_results.hpp"
#include "io/output_error.hpp"

#include <string>

namespace keff {

// JSON: {"k":{"mean","std"}, "estimators":{...}, "batches":[{"batch","k","entropy",...}],
//        "particles_per_second", "timing":{...}, ...}. Doubles with 17 significant digits, so a
// batch's k round-trips bit for bit.
void write_summary_json(const std::string& path, const RunResults& results);

// HDF5 statepoint, layout documented in examples/OUTPUTS.md.
void write_statepoint(const std::string& path, const RunResults& results);

// Reads back what a restart needs: metadata, batches, the restart group and the source bank (timing,
// estimators and mesh means are left empty). Throws OutputError for a file that is not a statepoint of
// this layout version.
RunResults read_statepoint(const std::string& path);

// A statepoint's tallies whole: descriptions, means, deviations and sums (keff tally show). The file is
// read and checked as read_statepoint does first.
std::vector<TallyResult> read_statepoint_tallies(const std::string& path);

}  // namespace keff
