#include "src/host/batch_table.hpp"

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
  return text + " k(cmfd), H(cmfd): CMFD's eigenvalue and source entropy after the batch; * after k(cmfd): not converged\n"
                " (no feedback from that solve)\n"
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

std::string format_batch_row(const BatchResult& b, bool cmfd) {
  char line[160];
  std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f", b.batch, b.k, b.entropy);
  std::string row = line;
  if (cmfd && b.cmfd && b.cmfd->k == 0 && !b.cmfd->converged) {
    row += "          -*         -";  // nothing to solve yet: every cell left out (too few collisions)
  } else if (cmfd && b.cmfd) {
    std::snprintf(line, sizeof line, "   %8.5f%c  %8.4f", b.cmfd->k, b.cmfd->converged ? ' ' : '*', b.cmfd->entropy);
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
