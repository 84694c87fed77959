#include "src/tally/run_tallies.hpp"

#include "io/input/cell_placements.hpp"
#include "src/host/memory_check.hpp"
#include "src/host/statistics.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cmath>
#include <cstdio>

namespace keff {

namespace {

TallyFilterResult describe_filter(const model::Problem& p, const model::TallyFilter& f,
                                  const std::vector<std::int64_t>& placed) {
  TallyFilterResult out;
  const TallyFilterInfo& info = info_of(f.kind);
  out.kind = std::string(info.name);
  out.form = std::string(name_of(info.bins));
  out.units = std::string(info.units);
  out.bins = filter_bins(p, f, placed);
  switch (info.bins) {
    case FilterBins::mesh: {
      const model::Mesh& m = p.meshes[static_cast<std::size_t>(f.mesh)].mesh;
      out.shape = m.shape;
      out.lower = m.box.lower;
      out.upper = m.box.upper;
      break;
    }
    case FilterBins::names:
      for (const int i : f.items) out.names.push_back(item_name(p, info.items, i));
      break;
    case FilterBins::placements:
      for (const int c : f.items) {
        const CellPlacements cell = cell_placements(p, c);
        out.names.insert(out.names.end(), static_cast<std::size_t>(cell.count), item_name(p, info.items, c));
        out.positions.insert(out.positions.end(), cell.positions.begin(), cell.positions.end());
      }
      break;
    case FilterBins::bounds: out.bounds = f.bounds; break;
    case FilterBins::groups: break;
  }
  return out;
}

// Host bytes per tally value: the generation's integer sums, the batch's sums and the running sums; at
// the end, the results the outputs are made from (mean, deviation, sum, sum of squares), the statepoint
// (those four in HDF5's in-memory file, and again in the image written from it: measured, a 4.1 million
// bin tally's statepoint added 2 x 131 MB to the peak) and their text in the JSON summary (about 50
// characters). Counted before the first batch: a statepoint that did not fit failed after every batch had
// run (ulimit -v).
constexpr double sums_bytes_per_value = sizeof(Fixed) + 3 * sizeof(double);
constexpr double results_bytes_per_value = 4 * sizeof(double);
constexpr double statepoint_bytes_per_value = 8 * sizeof(double);
constexpr double json_bytes_per_value = 50;

// `n_values`, once the host memory they need is known to be there on every rank (collective).
std::int64_t checked_values(const Communicator& comm, std::int64_t n_values, bool allow_oversubscribed) {
  const double n = static_cast<double>(n_values);
  check_memory(comm, "the tallies (every rank holds every bin: fewer bins or scores need less)",
               {{"batch and running sums", n * sums_bytes_per_value},
                {"results", n * results_bytes_per_value},
                {"the statepoint as it is written", n * statepoint_bytes_per_value},
                {"the JSON summary's text", n * json_bytes_per_value}},
               static_cast<double>(host_memory_available()), allow_oversubscribed);
  return n_values;
}

std::size_t values_of(const TallyResult& t) {
  std::size_t n = t.scores.size();
  for (const auto& f : t.filters) n *= static_cast<std::size_t>(f.bins);
  return n;
}

}  // namespace

std::vector<TallyResult> describe_tallies(const model::Problem& p) {
  std::vector<TallyResult> out;
  const std::vector<std::int64_t> placed = placement_counts(p);
  for (const model::Tally& t : p.tallies) {
    TallyResult r;
    r.name = t.name;
    r.estimator = std::string(name_of(t.estimator));
    for (const TallyScore s : t.scores) {
      r.scores.emplace_back(info_of(s).name);
      r.units.emplace_back(info_of(s).units);
    }
    for (const auto& f : t.filters) r.filters.push_back(describe_filter(p, f, placed));
    out.push_back(std::move(r));
  }
  return out;
}

RunTallies::RunTallies(const model::Problem& problem, const Communicator& comm, std::int64_t n_values)
    : problem_(problem), comm_(comm), described_(describe_tallies(problem)),
      batch_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "keff::host::tally_batch"),
             checked_values(comm, n_values, problem.settings.allow_oversubscribed_memory)),
      sum_(static_cast<std::size_t>(n_values), 0.0), sum_sq_(static_cast<std::size_t>(n_values), 0.0),
      partial_(static_cast<std::size_t>(n_values), 0.0) {
  std::int64_t first = 0;
  for (const auto& t : described_) {
    first_.push_back(first);
    first += static_cast<std::int64_t>(values_of(t));
  }
}

std::size_t RunTallies::bytes() const { return sum_.size() * static_cast<std::size_t>(sums_bytes_per_value); }

// The batch's value of a bin is the sum of its generations' scores over the sum of their source weights
// (with one generation: the score over the weight, the same bits as dividing directly, since the sums
// start from 0).
void RunTallies::add_generation(const DeviceExec& exec, const Kokkos::View<const Fixed*, DeviceMem>& sums,
                                double source_weight, bool ends_batch, const std::function<void()>& progress) {
  if (empty()) return;
  Kokkos::Profiling::ScopedRegion region("keff::tally::accumulate");
  Kokkos::deep_copy(exec, batch_, sums);
  exec.fence("keff::tally::batch_to_host");
  progress();
  comm_.sum(batch_.data(), static_cast<int>(batch_.size()));
  progress();
  for (std::size_t i = 0; i < sum_.size(); ++i) partial_[i] += from_fixed<tally_fraction_bits>(batch_(i));
  partial_weight_ += source_weight;
  if (!ends_batch) return;
  for (std::size_t i = 0; i < sum_.size(); ++i) {
    const double x = partial_[i] / partial_weight_;
    sum_[i] += x;
    sum_sq_[i] += x * x;
    partial_[i] = 0;
  }
  partial_weight_ = 0;
}

void RunTallies::save_partial(RestartData& restart) const {
  restart.tally_partial.clear();
  restart.tally_partial_weight = partial_weight_;
  if (partial_weight_ > 0) restart.tally_partial = partial_;
}

TriggerStatus RunTallies::triggers(int active) const {
  TriggerStatus status;
  double worst_ratio = 0;
  for (std::size_t t = 0; t < problem_.tallies.size(); ++t) {
    const auto& trigger = problem_.tallies[t].trigger;
    if (!trigger) continue;
    const auto& scores = problem_.tallies[t].scores;
    const std::size_t n_scores = scores.size();
    const auto k = static_cast<std::size_t>(std::find(scores.begin(), scores.end(), trigger->score) - scores.begin());
    double worst = active < 2 ? INFINITY : 0;
    bool scored = false;  // a tally that scored nothing has no error to meet (it used to count as held)
    const std::size_t first = static_cast<std::size_t>(first_[t]), n = values_of(described_[t]);
    for (std::size_t v = first + k; active >= 2 && v < first + n; v += n_scores) {
      if (!(sum_[v] > 0)) continue;
      scored = true;
      const MeanStd m = mean_std_of_sums(sum_[v], sum_sq_[v], active);
      worst = std::max(worst, m.std / m.mean);
    }
    if (active >= 2 && !scored) worst = INFINITY;
    if (worst <= trigger->rel_err) continue;
    status.met = false;
    if (worst / trigger->rel_err > worst_ratio) {
      worst_ratio = worst / trigger->rel_err;
      char text[64];
      std::snprintf(text, sizeof text, "%.3g (> %g)", worst, trigger->rel_err);
      status.worst = "tally '" + problem_.tallies[t].name + "', " + std::string(info_of(trigger->score).name) +
                     (active >= 2 && !scored ? ": no bin scored" : ": max relative error " + std::string(text));
    }
  }
  return status;
}

std::vector<TallyResult> RunTallies::collect(int active) const {
  std::vector<TallyResult> out = described_;
  for (std::size_t t = 0; t < out.size(); ++t) {
    const auto first = static_cast<std::ptrdiff_t>(first_[t]);
    const auto n = static_cast<std::ptrdiff_t>(values_of(out[t]));
    TallyResult& r = out[t];
    r.sum.assign(sum_.begin() + first, sum_.begin() + first + n);
    r.sum_sq.assign(sum_sq_.begin() + first, sum_sq_.begin() + first + n);
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const MeanStd m = mean_std_of_sums(r.sum[static_cast<std::size_t>(i)], r.sum_sq[static_cast<std::size_t>(i)], active);
      r.mean.push_back(m.mean);
      r.std_dev.push_back(m.std);
    }
  }
  return out;
}

void RunTallies::restore(const std::vector<TallyResult>& tallies, const RestartData& restart) {
  for (std::size_t t = 0; t < tallies.size() && t < described_.size(); ++t) {
    const auto first = static_cast<std::ptrdiff_t>(first_[t]);
    std::copy(tallies[t].sum.begin(), tallies[t].sum.end(), sum_.begin() + first);
    std::copy(tallies[t].sum_sq.begin(), tallies[t].sum_sq.end(), sum_sq_.begin() + first);
  }
  if (restart.tally_partial.size() == partial_.size()) {
    partial_ = restart.tally_partial;
    partial_weight_ = restart.tally_partial_weight;
  }
}

}  // namespace keff
