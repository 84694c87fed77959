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
// columns after the entropy: k_cmfd and the CMFD source's entropy. With more than one generation per
// batch, a row per generation, its first column "batch/generation".
std::string batch_table_header(bool cmfd = false, int generations_per_batch = 1);

// One row of the table for `batch` (a generation's record), ending in '\n'. Inactive batches show k and
// entropy only (and with `cmfd` the CMFD solve, blank before [cmfd] begin); the running k is shown on the
// last generation of an active batch.
std::string format_batch_row(const BatchResult& batch, bool cmfd = false, int generations_per_batch = 1);

}  // namespace keff
