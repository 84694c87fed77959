// `keff tally show`'s table and CSV (tally_table.hpp).
#include "src/cli/tally_table.hpp"

#include "kernels/vocabulary/tally_kinds.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace keff {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

// What bin b of filter f is, in words.
std::string bin_label(const TallyFilterResult& f, std::int64_t b) {
  const auto i = static_cast<std::size_t>(b);
  const TallyFilterInfo* info = filter_named(f.kind);
  const FilterFormInfo& form = info_of(info ? info->bins : FilterBins::names);
  if (form.mesh_box) {
    const std::int64_t nx = f.shape[0], ny = f.shape[1];
    char text[80];  // not "(" + std::string: GCC 12 warns falsely (-Wrestrict) of that
    std::snprintf(text, sizeof text, "(%lld %lld %lld)", static_cast<long long>(b % nx),
                  static_cast<long long>((b / nx) % ny), static_cast<long long>(b / (nx * ny)));
    return text;
  }
  if (form.bounds) {
    std::string text = "[";
    text += number(f.bounds[i]) + ", " + number(f.bounds[i + 1]) + ")";
    if (!f.units.empty()) text.append(" ").append(f.units);
    return text;
  }
  if (!form.bin_word.empty()) return std::string(form.bin_word) + " " + std::to_string(b + 1);
  if (form.bin_positions && i < f.positions.size()) {
    const auto& p = f.positions[i];
    return f.names[i] + " at (" + number(p[0]) + " " + number(p[1]) + " " + number(p[2]) + ")";
  }
  return i < f.names.size() ? f.names[i] : std::to_string(b);
}

}  // namespace

void print_tally(std::ostream& os, const TallyResult& t, bool csv) {
  const std::size_t scores = t.scores.size();
  std::int64_t bins = 1;
  for (const auto& f : t.filters) bins *= f.bins;
  if (csv) {
    os << "tally";
    for (const auto& f : t.filters) os << "," << f.kind;
    os << ",score,mean,std_dev\n";
  } else {
    os << "tally '" << t.name << "' (" << t.estimator << " estimator, " << bins << " bins; per source particle)\n";
    for (std::size_t k = 0; k < scores; ++k) os << "  " << t.scores[k] << ": " << t.units[k] << "\n";
  }
  std::vector<std::int64_t> strides(t.filters.size(), 1);
  for (std::size_t j = t.filters.size(); j-- > 1;) strides[j - 1] = strides[j] * t.filters[j].bins;
  for (std::int64_t bin = 0; bin < bins; ++bin) {
    std::vector<std::string> labels;
    for (std::size_t j = 0; j < t.filters.size(); ++j) labels.push_back(bin_label(t.filters[j], (bin / strides[j]) % t.filters[j].bins));
    for (std::size_t k = 0; k < scores; ++k) {
      const std::size_t v = static_cast<std::size_t>(bin) * scores + k;
      const double mean = t.mean[v], sd = t.std_dev[v];
      if (csv) {
        os << t.name;
        for (const auto& l : labels) os << ",\"" << l << "\"";
        os << "," << t.scores[k] << "," << number(mean) << "," << (std::isnan(sd) ? "" : number(sd)) << "\n";
        continue;
      }
      std::string row = "  ";
      for (const auto& l : labels) row += l + "  ";
      char values[96];
      std::snprintf(values, sizeof values, "%-10s %13.6e +/- %-12s", t.scores[k].c_str(), mean,
                    std::isnan(sd) ? "-" : number(sd).c_str());
      row += values;
      if (mean > 0 && !std::isnan(sd)) row += " (" + number(100 * sd / mean) + " %)";
      os << row << "\n";
    }
  }
}


}  // namespace keff
