#include "src/host/batch_table.hpp"

#include "src/host/statistics.hpp"

#include <algorithm>
#include <cstdio>

namespace keff {

std::string batch_table_header(bool cmfd) {
  std::string text =
      " k(mean): the combination of the collision, absorption and track-length estimators over the active\n"
      " batches; * marks a fallback (the mean of the estimators, or one alone: the summary says why)\n";
  if (!cmfd) {
    return text + " batch   k(batch)    entropy    k(mean) +/- std\n"
                  " -----   --------    -------    ---------------\n";
  }
  return text + " k(cmfd), H(cmfd): CMFD's eigenvalue and source entropy after the batch; 'failed': the solve gave\n"
                " no usable result (why: the warning and the JSON's cmfd_failure; no feedback from it)\n"
                " batch   k(batch)    entropy    k(cmfd)    H(cmfd)    k(mean) +/- std\n"
                " -----   --------    -------    -------    -------    ---------------\n";
}

std::string format_k(const MeanStd& k) {
  char text[64];
  if (k.has_std()) {
    std::snprintf(text, sizeof text, "%8.5f +/- %7.5f", k.mean, k.std);
  } else {
    std::snprintf(text, sizeof text, "%8.5f +/- %7s", k.mean, "-");
  }
  return text;
}

std::string format_correlation(const BatchCorrelation& c) {
  if (!c.estimated() || !(c.factor() > 1.0)) return {};
  char text[96];
  std::snprintf(text, sizeof text, "  (correlated: +/- %7.5f, autocorrelation time %.3g batches)", c.std_corrected,
                c.autocorrelation_time);
  return text;
}

std::string correlation_warning(const KEstimate& k) {
  const BatchCorrelation& c = k.correlation;
  if (!c.estimated() || !(c.factor() > correlation_warning_factor)) return {};
  char text[512];
  std::snprintf(text, sizeof text,
                "successive batches are correlated (integrated autocorrelation time %.3g batches over %d lags): "
                "+/- %.5f assumes independent batches and understates k's uncertainty; quote +/- %.5f (x%.2f)",
                c.autocorrelation_time, c.window, k.std, c.std_corrected, c.factor());
  std::string out = text;
  if (!c.reliable) {
    std::snprintf(text, sizeof text,
                  ". %d active batches are fewer than %.0f autocorrelation times (or the window did not close), so "
                  "the uncertainty may be larger still: run more batches",
                  k.batches, reliable_correlation_batches);
    out += text;
  }
  return out;
}

std::string correlation_note(const KEstimate& k) {
  const BatchCorrelation& c = k.correlation;
  if (!c.estimated() || c.reliable || c.factor() > correlation_warning_factor) return {};
  char text[320];
  std::snprintf(text, sizeof text,
                "%d active batches look independent (x%.2f found), but measuring that firmly takes %.0f "
                "autocorrelation times: if they are correlated after all, +/- is too small (more batches tell)",
                k.batches, c.factor(), reliable_correlation_batches);
  return text;
}

std::string format_batch_row(const BatchResult& b, bool cmfd) {
  char line[160];
  std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f", b.batch, b.k, b.entropy);
  std::string row = line;
  if (cmfd && b.cmfd && !b.cmfd->converged) {
    row += "     failed          -";  // no k and no entropy: the reason is in the log and the JSON
  } else if (cmfd && b.cmfd) {
    std::snprintf(line, sizeof line, "   %8.5f   %8.4f", b.cmfd->k, b.cmfd->entropy);
    row += line;
  } else if (cmfd) {
    row += std::string(22, ' ');  // before [cmfd] begin
  }
  if (b.active && b.k_running.kind != KEstimateKind::none) {
    row += "    " + format_k(b.k_running);
    if (!b.k_running.combined()) row += " *";
  }
  return row + "\n";
}

}  // namespace keff
