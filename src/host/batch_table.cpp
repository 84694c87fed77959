#include "src/host/batch_table.hpp"

#include "io/output/summary_text.hpp"

#include <algorithm>
#include <cstdio>

namespace keff {

std::string batch_table_header(bool cmfd, int generations_per_batch) {
  std::string text =
      " k(mean): the combination of the collision, absorption and track-length estimators over the active\n"
      " batches; * marks a fallback (the mean of the estimators, or one alone: the summary says why)\n";
  const bool generations = generations_per_batch > 1;
  if (generations) {
    text += " b/gen: batch and generation (" + std::to_string(generations_per_batch) +
            " a batch); k(batch) and the entropy are the generation's, k(mean) over batches, each the mean of its\n"
            " generations\n";
  }
  const char* first = generations ? " b/gen" : " batch";
  if (!cmfd) {
    return text + first + "   k(batch)    entropy    k(mean) +/- std\n"
                          " -----   --------    -------    ---------------\n";
  }
  return text + " k(cmfd), H(cmfd): CMFD's eigenvalue and source entropy after the batch; 'failed': the solve gave\n"
                " no usable result (why: the warning and the JSON's cmfd_failure; no feedback from it)\n" +
         first + "   k(batch)    entropy    k(cmfd)    H(cmfd)    k(mean) +/- std\n"
                 " -----   --------    -------    -------    -------    ---------------\n";
}

std::string format_batch_row(const BatchResult& b, bool cmfd, int generations_per_batch) {
  char line[160];
  if (generations_per_batch > 1) {
    const std::string id = std::to_string(b.batch) + "/" + std::to_string(b.generation);
    std::snprintf(line, sizeof line, " %5s   %8.5f   %8.4f", id.c_str(), b.k, b.entropy);
  } else {
    std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f", b.batch, b.k, b.entropy);
  }
  std::string row = line;
  if (cmfd && b.cmfd && !b.cmfd->converged) {
    row += "     failed          -";  // no k and no entropy: the reason is in the log and the JSON
  } else if (cmfd && b.cmfd) {
    std::snprintf(line, sizeof line, "   %8.5f   %8.4f", b.cmfd->k, b.cmfd->entropy);
    row += line;
  } else if (cmfd) {
    row += std::string(22, ' ');  // before [cmfd] begin
  }
  if (b.active && b.generation == generations_per_batch && b.k_running.kind != KEstimateKind::none) {
    row += "    " + format_k(b.k_running);
    if (!b.k_running.combined()) row += " *";
  }
  return row + "\n";
}

}  // namespace keff
