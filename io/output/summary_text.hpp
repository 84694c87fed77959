#pragma once
// The run summary as text, for the log: the results the JSON summary (summary_json.cpp) holds for
// programs, read from the same field lists (run_results.hpp), printed for a person; and the formats of
// a k that the batch table (src/host/batch_table.cpp) shares with it. Host only.
#include "io/output/run_results.hpp"

#include <ostream>
#include <string>

namespace keff {

// The results after the batch table: k by estimator with the correlation-corrected deviations, leakage,
// lost particles, time by phase, the exchanges, event transport, domains, CMFD, tallies, particles/s.
void write_summary_text(std::ostream& os, const RunResults& r);

// "0.91878 +/- 0.00196", "0.89505 +/- -" (std undefined): a k and its deviation as the batch table and
// the summary print them.
std::string format_k(const MeanStd& k);

// "  (correlated: +/- 0.00025, autocorrelation time 6.3 batches)" after an estimate whose batches are
// correlated enough to widen its std (src/host/statistics.hpp); "" when not estimated or not wider.
std::string format_correlation(const BatchCorrelation& c);

// The warning for a run's k whose std understates its uncertainty by more than
// correlation_warning_factor, with what to quote and what helps (independent populations); "" otherwise.
std::string correlation_warning(const KEstimate& k);

// The note for a run's k whose batches look independent, but too few of them to say so firmly: its std
// may be too small, and more batches would tell; "" otherwise (and where correlation_warning speaks).
std::string correlation_note(const KEstimate& k);

}  // namespace keff
