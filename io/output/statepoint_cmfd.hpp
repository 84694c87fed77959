#pragma once
// CMFD's part of a statepoint (a run with [cmfd] on; examples/OUTPUTS.md, "Statepoint"): /cmfd holds its
// settings, each solved batch's k_cmfd, entropy, iterations and failure, and the tally window a restart
// continues from. Absent without CMFD, which leaves the rest of the file and its checksum as they were.
#include "io/hdf5_file.hpp"
#include "io/output/run_results.hpp"
#include "io/output/statepoint_records.hpp"

#include <string>

namespace keff::detail {

// What a restart reads of it joins the checksum (nothing without CMFD).
void add_cmfd(ContentChecksum& c, const RunResults& r);

void write_cmfd(const H5Group& g, const RunResults& r);

// Every dataset's size is checked before it is read, each solve's batch and reason against the batches.
void read_cmfd(const H5Group& g, const std::string& path, RunResults& r);

}  // namespace keff::detail
