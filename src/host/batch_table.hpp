#pragma once
// The per-batch table a run prints: batch, k of the batch, Shannon entropy, and over the active batches
// so far k(mean) +/- std. A standard deviation that is not defined yet (one active batch) is printed
// "-", never 0; a running k that is not the combination of the three estimators (too few active
// batches, or a combination that is not stable: src/host/statistics.hpp) is marked "*", and the run's
// summary says why. Host only; no Kokkos.
#include "io/output/run_results.hpp"

#include <string>

namespace keff {

// The table's header: a legend, the column titles and a rule, each ending in '\n'. With `cmfd`, two more
// columns after the entropy: k_cmfd and the CMFD source's entropy.
std::string batch_table_header(bool cmfd = false);

// One row of the table for `batch`, ending in '\n'. Inactive batches show k and entropy only (and with
// `cmfd` the batch's CMFD solve, blank before [cmfd] begin).
std::string format_batch_row(const BatchResult& batch, bool cmfd = false);

}  // namespace keff
