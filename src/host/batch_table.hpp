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

// "0.91878 +/- 0.00196", "0.89505 +/- -" (std undefined): a k and its deviation as the table and the
// summary print them.
std::string format_k(const MeanStd& k);

// "  (correlated: +/- 0.00025, autocorrelation time 6.3 batches)" after an estimate whose batches are
// correlated enough to widen its std (src/host/statistics.hpp); "" when not estimated or not wider.
std::string format_correlation(const BatchCorrelation& c);

// The warning for a run's k whose std understates its uncertainty by more than
// correlation_warning_factor, with what to quote and what helps; "" otherwise.
std::string correlation_warning(const KEstimate& k);

// The note for a run's k whose batches look independent, but too few of them to say so firmly: its std
// may be too small, and more batches would tell; "" otherwise (and where correlation_warning speaks).
std::string correlation_note(const KEstimate& k);

}  // namespace keff
