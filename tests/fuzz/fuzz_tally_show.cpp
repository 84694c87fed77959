// libFuzzer target: any bytes as a tally a statepoint describes (name, estimator, scores, units, filters
// with their bins, mesh shape and box, form, units, bounds, names, positions; means, deviations and sums of any
// length): tally_description_problem, which every statepoint reader applies, must accept it or say why,
// and a tally it accepts must print (`keff tally show`'s table and CSV) without reading past an array.
// Forged shapes and lists used to crash tally show (SIGFPE, SIGSEGV).
#include "io/output/results_check.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"
#include "src/cli/tally_table.hpp"
#include "tests/fuzz/fuzz_bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace {

// Text and counts off the fuzz input: mostly what keff writes, sometimes anything.
class Input : public keff::fuzz::Bytes {
 public:
  using Bytes::Bytes;
  // One of `choices` most of the time, else a few raw bytes: names keff writes, and forged ones.
  std::string text(std::initializer_list<const char*> choices) {
    const auto pick = next<std::uint8_t>();
    if (pick < 224) return *(choices.begin() + pick % choices.size());
    std::string s;
    for (int i = next<std::uint8_t>() % 6; i > 0; --i) s += static_cast<char>(next<std::uint8_t>());
    return s;
  }
  // A small count most of the time, else any.
  std::int64_t count(int small) { return next<std::uint8_t>() % 8 ? next<std::uint8_t>() % small : next<std::int64_t>(); }
};

const auto scores = {"flux", "total", "absorption", "scatter", "fission", "nu-fission", "events"};
const auto units = {"particle-cm per source particle", "reactions per source particle",
                    "neutrons per source particle", "collisions per source particle"};
const auto kinds = {"mesh", "cell", "material", "universe", "cell_instance", "energy", "group"};
const auto forms = {"mesh", "names", "placements", "bounds", "groups", "", "heat"};
const auto filter_units = {"", "eV", "rad", "furlongs"};
const auto names = {"fuel", "water", "pin", "a.b-c_1", "names", "."};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  keff::TallyResult t;
  t.name = in.text(names);
  t.estimator = in.text({"tracklength", "collision", "analog"});
  for (std::int64_t k = in.count(4); k > 0 && k < 16; --k) t.scores.push_back(in.text(scores));
  for (std::int64_t k = in.count(4); k > 0 && k < 16; --k) t.units.push_back(in.text(units));
  for (std::int64_t f = in.count(4); f > 0 && f < 10; --f) {
    keff::TallyFilterResult filter;
    filter.kind = in.text(kinds);
    if (const keff::TallyFilterInfo* row = keff::filter_named(filter.kind)) {  // forged below, after the rest
      filter.form = keff::name_of(row->bins);
      filter.units = row->units;
    }
    filter.bins = in.count(6);
    for (auto& n : filter.shape) n = static_cast<int>(in.count(4));
    for (auto& v : filter.lower) v = in.next<std::uint8_t>() % 4 ? -1.0 : in.next<double>();
    for (auto& v : filter.upper) v = in.next<std::uint8_t>() % 4 ? 1.0 : in.next<double>();
    for (std::int64_t i = in.count(8); i > 0 && i < 64; --i) {
      filter.bounds.push_back(in.next<std::uint8_t>() % 4 ? static_cast<double>(filter.bounds.size())
                                                                  : in.next<double>());
    }
    for (std::int64_t i = in.count(8); i > 0 && i < 64; --i) filter.names.push_back(in.text(names));
    for (std::int64_t i = in.count(8); i > 0 && i < 64; --i) {
      filter.positions.push_back({in.next<double>(), in.next<double>(), in.next<double>()});
    }
    t.filters.push_back(filter);
  }
  const std::int64_t values = in.count(64);
  for (auto* v : {&t.mean, &t.std_dev, &t.sum, &t.sum_sq}) {
    const std::int64_t n = in.next<std::uint8_t>() % 8 ? values : in.count(64);
    for (std::int64_t i = 0; i >= 0 && i < n && i < 4096; ++i) v->push_back(in.next<std::uint8_t>() % 4 ? 0.5 : in.next<double>());
  }
  // Read last, so that inputs written before filters stated their form decode as they did then (the
  // regressions replay so): the table's choice, then a forged form and units for one filter.
  const bool csv = in.next<std::uint8_t>() % 2;
  if (const auto forge = in.next<std::uint8_t>(); forge % 4 == 1 && !t.filters.empty()) {
    auto& filter = t.filters[forge % t.filters.size()];
    filter.form = in.text(forms);
    filter.units = in.text(filter_units);
  }
  if (keff::tally_description_problem(t).empty()) {
    std::ostringstream out;
    keff::print_tally(out, t, csv);
  }
  return 0;
}
