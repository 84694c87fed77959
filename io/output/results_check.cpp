#include "io/output/results_check.hpp"

#include "io/input/model.hpp"
#include "io/limits.hpp"
#include "io/names.hpp"
#include "io/printable.hpp"
#include "kernels/vocabulary/fixed_point_bits.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace keff {

namespace {

// What filter f may hold beyond its kind and bin count, by its kind's form (which, with the units, it
// must state as its row does): a mesh its shape (bins per axis multiplying to its bins) and a box with
// lower < upper on every axis; bounds (energy) its bins + 1 bounds, ascending within the row's range;
// names (cell, material, universe) a valid name per bin; placements (cell_instance) a name and a finite
// position per placement; groups nothing. "" or the problem.
std::string filter_problem(const TallyFilterResult& f) {
  const auto kind = enum_from_name<TallyFilterKind>(f.kind);
  if (!kind) return "filter kind '" + printable_cut(f.kind) + "' (allowed: " + allowed_names<TallyFilterKind>() + ")";
  if (f.bins < 1 || f.bins > limits::max_tally_values) {
    return a_filter(f.kind) + " of " + std::to_string(f.bins) + " bins (allowed: 1 to " +
           std::to_string(limits::max_tally_values) + ")";
  }
  const auto n = static_cast<std::size_t>(f.bins);
  const TallyFilterInfo& info = info_of(*kind);
  const FilterBins bins = info.bins;
  if (f.form != name_of(bins) || f.units != info.units) {
    return a_filter(f.kind) + " of form '" + printable_cut(f.form) + "' in '" + printable_cut(f.units) +
           "' (allowed: form '" + std::string(name_of(bins)) + "', units '" + std::string(info.units) + "')";
  }
  const FilterFormInfo& form = info_of(bins);
  if (form.mesh_box) {
    std::int64_t product = 1;
    for (std::size_t a = 0; a < 3; ++a) {
      if (f.shape[a] < 1 || f.shape[a] > limits::max_tally_values) {
        return "mesh shape " + std::to_string(f.shape[0]) + " x " + std::to_string(f.shape[1]) + " x " +
               std::to_string(f.shape[2]) + " (allowed: at least 1 bin along each axis)";
      }
      product *= f.shape[a];
      if (product > limits::max_tally_values) break;
      if (!(f.lower[a] < f.upper[a]) || !std::isfinite(f.lower[a]) || !std::isfinite(f.upper[a])) {
        return "mesh box [" + exact_number(f.lower[a]) + ", " + exact_number(f.upper[a]) + "] along axis " +
               std::to_string(a) + " (allowed: finite, lower below upper)";
      }
    }
    if (product != f.bins) {
      return "a mesh of " + std::to_string(product) + " cells with " + std::to_string(f.bins) + " bins (allowed: equal)";
    }
  } else if (f.shape != std::array<int, 3>{1, 1, 1}) {
    return a_filter(f.kind) + " with a mesh shape (allowed: a mesh's only)";
  }
  if (f.bounds.size() != (form.bounds ? n + 1 : 0)) {
    return a_filter(f.kind) + " of " + std::to_string(n) + " bins with " + std::to_string(f.bounds.size()) +
           " bounds (allowed: " + (form.bounds ? "bins + 1" : "none") + ")";
  }
  for (std::size_t i = 0; i < f.bounds.size(); ++i) {
    const double b = f.bounds[i];
    if (!(b >= info.range.lowest && b <= info.range.highest) || (i > 0 && !(b > f.bounds[i - 1]))) {
      return f.kind + " bound " + std::to_string(i) + " is " + exact_number(b) + " (allowed: ascending, " +
             allowed_bounds(info.range, exact_number) + ")";
    }
  }
  if (f.names.size() != (form.bin_names ? n : 0)) {
    return a_filter(f.kind) + " of " + std::to_string(n) + " bins with " + std::to_string(f.names.size()) +
           " names (allowed: " + (form.bin_names ? "one per bin" : "none") + ")";
  }
  for (const auto& name : f.names) {
    if (!valid_name(name)) return "the bin name '" + printable_cut(name) + "' (allowed: " + std::string(name_rule) + ")";
  }
  if (f.positions.size() != (form.bin_positions ? n : 0)) {
    return a_filter(f.kind) + " of " + std::to_string(n) + " bins with " + std::to_string(f.positions.size()) +
           " positions (allowed: " + (form.bin_positions ? "one per placement" : "none") + ")";
  }
  for (const auto& p : f.positions) {
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return "a placement's position is not finite";
  }
  return {};
}

// A tally's description as a run writes it: a valid name, a known estimator, known scores each with its
// own units, filters as filter_problem holds them whose bins times the scores are the values, and a
// finite mean and non-negative deviation (NaN below two active batches) per value. A forged description
// crashed `keff tally show` (a zero mesh shape, bins past the names); "" or the problem.
}  // namespace

std::string tally_description_problem(const TallyResult& t) {
  if (!valid_tally_name(t.name)) {
    return "the tally name '" + printable_cut(t.name) + "' (allowed: " + std::string(tally_name_rule) + ")";
  }
  if (!enum_from_name<TallyEstimator>(t.estimator)) {
    return "estimator '" + printable_cut(t.estimator) + "' (allowed: " + allowed_names<TallyEstimator>() + ")";
  }
  if (t.scores.empty() || t.scores.size() > tally_score_count || t.units.size() != t.scores.size()) {
    return std::to_string(t.scores.size()) + " scores with " + std::to_string(t.units.size()) +
           " units (allowed: 1 to " + std::to_string(tally_score_count) + " scores, a unit each)";
  }
  for (std::size_t k = 0; k < t.scores.size(); ++k) {
    const auto score = enum_from_name<TallyScore>(t.scores[k]);
    if (!score) return "score '" + printable_cut(t.scores[k]) + "' (allowed: " + allowed_names<TallyScore>() + ")";
    if (t.units[k] != info_of(*score).units) {
      return "the units of " + t.scores[k] + " are '" + printable_cut(t.units[k]) + "' (allowed: " +
             std::string(info_of(*score).units) + ")";
    }
  }
  if (t.filters.size() > static_cast<std::size_t>(max_tally_filters)) {
    return std::to_string(t.filters.size()) + " filters (allowed: at most " + std::to_string(max_tally_filters) + ")";
  }
  std::int64_t values = static_cast<std::int64_t>(t.scores.size());
  for (std::size_t i = 0; i < t.filters.size(); ++i) {
    if (std::string what = filter_problem(t.filters[i]); !what.empty()) return "filter " + std::to_string(i) + ": " + what;
    values = t.filters[i].bins > limits::max_tally_values / values ? limits::max_tally_values + 1 : values * t.filters[i].bins;
  }
  if (t.sum_sq.size() != t.sum.size() || t.mean.size() != t.sum.size() || t.std_dev.size() != t.sum.size()) {
    return "sums, sums of squares, means and deviations of " + std::to_string(t.sum.size()) + ", " +
           std::to_string(t.sum_sq.size()) + ", " + std::to_string(t.mean.size()) + " and " +
           std::to_string(t.std_dev.size()) + " values (allowed: as many of each)";
  }
  if (values != static_cast<std::int64_t>(t.sum.size())) {
    return "filters and scores making " + std::to_string(values) + " values where it holds " +
           std::to_string(t.sum.size()) + " (allowed: equal)";
  }
  for (std::size_t v = 0; v < t.mean.size(); ++v) {
    const double sd = t.std_dev[v];
    if (std::isinf(t.mean[v]) || !(std::isnan(sd) || (sd >= 0 && std::isfinite(sd)))) {
      return "value " + std::to_string(v) + " has mean " + exact_number(t.mean[v]) + " and deviation " +
             exact_number(sd) + " (allowed: a finite mean and a finite, non-negative deviation, or none: "
             "results_problem says when)";
    }
  }
  return {};
}

double max_tally_batch_value(std::int64_t particles, bool cmfd_weighted) {
  const double weight = static_cast<double>(std::max<std::int64_t>(particles, 1)) /
                        (cmfd_weighted ? limits::max_cmfd_source_weight_ratio : 1.0);
  return std::ldexp(1.0, 63 - tally_fraction_bits) / weight;
}

std::string tally_sums_problem(double sum, double sq, int n, double max_batch_value, std::string_view why_max) {
  if (!(sum >= 0.0 && std::isfinite(sum)) || !(sq >= 0.0 && std::isfinite(sq))) {
    return "holds sum " + exact_number(sum) + ", sum of squares " + exact_number(sq) + " (allowed: finite, >= 0)";
  }
  const double square = sum * sum, slack = 1e-9;
  if (!std::isfinite(square) || square > n * sq * (1 + slack) + 1e-300 || sq > square * (1 + slack) + 1e-300) {
    return "holds sum " + exact_number(sum) + ", sum of squares " + exact_number(sq) + " (allowed: the sums of " +
           std::to_string(n) + " non-negative batch values: sum^2 <= " + std::to_string(n) + " x sum of squares <= " +
           std::to_string(n) + " x sum^2)";
  }
  if (sum > n * max_batch_value) {
    return "holds sum " + exact_number(sum) + " over " + std::to_string(n) + " active batches (allowed: at most " +
           exact_number(max_batch_value) + " a batch, " + std::string(why_max) + ")";
  }
  return {};
}

namespace {

// CMFD's solves and warm start as a solve leaves them: a converged solve's k_cmfd finite and positive and
// its entropy in [0, log2(coarse cells)]; a failed one's each that or none (NaN); iteration counts; the
// warm-start flux finite, non-negative to rounding and not all zero. "" or the problem. A k_cmfd of NaN
// and an entropy of -299 were taken and written into the next run's summary.
std::string cmfd_results_problem(const RunResults& r) {
  if (!r.cmfd) return {};
  const auto& shape = r.cmfd->shape;
  const double cells = static_cast<double>(shape[0]) * shape[1] * shape[2];
  const double max_entropy = std::log2(std::max(cells, 1.0)) * (1 + 1e-12) + 1e-12;
  for (const BatchResult& b : r.batch) {
    if (!b.cmfd) continue;
    const CmfdResult& c = *b.cmfd;
    const std::string solve = "the CMFD solve after batch " + std::to_string(b.batch);
    if (c.outer_iterations < 0 || c.inner_iterations < 0) {
      return solve + " counts " + std::to_string(c.outer_iterations) + " outer and " +
             std::to_string(c.inner_iterations) + " GMRES iterations (allowed: counts, >= 0)";
    }
    const bool k_ok = c.k > 0 && std::isfinite(c.k), entropy_ok = c.entropy >= 0 && c.entropy <= max_entropy;
    if (c.converged ? !(k_ok && entropy_ok)
                    : !((k_ok || std::isnan(c.k)) && (entropy_ok || std::isnan(c.entropy)))) {
      return solve + (c.converged ? " converged" : " failed") + " with k_cmfd = " + exact_number(c.k) + " and entropy " +
             exact_number(c.entropy) + " bits (allowed: a finite k > 0 and an entropy from 0 to log2(" +
             std::to_string(static_cast<std::int64_t>(cells)) + " coarse cells)" +
             (c.converged ? "" : "; a failed solve may report none") + ")";
    }
  }
  if (r.restart.cmfd && !r.restart.cmfd->flux.empty()) {
    const auto& flux = r.restart.cmfd->flux;
    double largest = 0;
    for (const double v : flux) largest = std::isfinite(v) ? std::max(largest, std::fabs(v)) : INFINITY;
    const bool ok = std::isfinite(largest) && largest > 0 &&
                    std::all_of(flux.begin(), flux.end(), [&](double v) { return v >= -1e-9 * largest; });
    if (!ok) {
      return "the CMFD warm-start flux is not a flux a solve converges to (allowed: finite, non-negative, not all "
             "zero)";
    }
  }
  return {};
}

}  // namespace

std::string batch_numbering_problem(const BatchResult& b, std::size_t i, int generations_per_batch, int inactive) {
  const int g = generations_per_batch;
  const int record = static_cast<int>(i) + 1;  // its generation over the run
  const int expected = model::batch_of(record, g), generation = model::generation_in_batch(record, g);
  if (b.batch == expected && b.generation == generation && b.active == (expected > inactive)) return {};
  const auto named = [g](int batch, int gen) {
    return "batch " + std::to_string(batch) + (g > 1 || gen != 1 ? " generation " + std::to_string(gen) : "");
  };
  return "batch record " + std::to_string(i) + " is " + named(b.batch, b.generation) + (b.active ? " (active)" : " (inactive)") +
         " (allowed: " + named(expected, generation) + (expected > inactive ? ", active)" : ", inactive)");
}

namespace {

// Each generation's populations make up its histories: their k's, each over its population's source
// weight, average to the generation's k when the populations weigh alike (no CMFD feedback: N / P sites
// of weight 1 each), and bracket it otherwise (a weighted mean). Estimator by estimator, to rounding.
std::string populations_problem(const RunResults& r) {
  const PopulationResults& pop = r.populations;
  if (pop.count <= 1) return {};
  const bool weighted = r.cmfd && r.cmfd->feedback;
  const auto p = static_cast<std::size_t>(pop.count);
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    const BatchResult& b = r.batch[i];
    const double k[3] = {b.k_collision, b.k_absorption, b.k_tracklength};
    const char* names[3] = {"collision", "absorption", "track-length"};
    for (std::size_t e = 0; e < 3; ++e) {
      long double sum = 0;  // wider than double: p values near the largest double do not overflow
      double low = HUGE_VAL, high = -HUGE_VAL;
      for (std::size_t q = 0; q < p; ++q) {
        const double v = pop.k_generations[(i * p + q) * 3 + e];
        sum += v, low = std::min(low, v), high = std::max(high, v);
      }
      const auto mean = static_cast<double>(sum / static_cast<long double>(p));
      const double slack = std::max(1e-9 * std::max(std::fabs(k[e]), std::fabs(high)),
                                    4 * std::numeric_limits<double>::denorm_min());
      const bool made_up = weighted ? k[e] >= low - slack && k[e] <= high + slack : std::fabs(mean - k[e]) <= slack;
      if (!made_up) {
        return model::generation_name(static_cast<int>(i) + 1, r.generations_per_batch) + ": its " + std::to_string(pop.count) +
               " populations' " + names[e] + " k's " +
               (weighted ? "span " + exact_number(low) + " to " + exact_number(high) : "average " + exact_number(mean)) +
               ", and its own is " + exact_number(k[e]) + " (allowed: " +
               (weighted ? "a k between them: a generation's k is its populations' weighted mean"
                         : "their mean, to rounding: a generation's k is its populations' mean, each over N / P histories") +
               ")";
      }
    }
  }
  return {};
}

}  // namespace

int completed_active_batches(const RunResults& r) {
  const int g = r.generations_per_batch;
  return static_cast<int>(
      std::count_if(r.batch.begin(), r.batch.end(), [g](const BatchResult& b) { return b.active && b.generation == g; }));
}

std::string settings_agree_problem(const RunResults& r) {
  std::string what;
  for_each_run_field(r, [&](const char* name, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_integral_v<T>) {
      const auto it = std::find_if(r.settings.begin(), r.settings.end(), [&](const auto& kv) { return kv.first == name; });
      // A setting left to the run ("auto": inactive) holds the word; the run field holds the choice.
      if (what.empty() && it != r.settings.end() && it->second != "auto" && it->second != std::to_string(v)) {
        what = std::string(name) + " = " + std::to_string(v) + " but settings." + name + " = " + printable_cut(it->second, 40) +
               " (allowed: the same value, which the run wrote twice)";
      }
    }
  });
  return what;
}

std::string results_problem(const RunResults& r) {
  if (r.particles < 1 || r.particles > limits::max_particles) {
    return "particles = " + std::to_string(r.particles) + " (allowed: 1 to " + std::to_string(limits::max_particles) + ")";
  }
  if (r.generations_per_batch < 1 || r.generations_per_batch > limits::max_generations_per_batch) {
    return "generations_per_batch = " + std::to_string(r.generations_per_batch) + " (allowed: 1 to " +
           std::to_string(limits::max_generations_per_batch) + ")";
  }
  const PopulationResults& pop = r.populations;
  if (pop.count < 1 || pop.count > limits::max_populations) {
    return "populations = " + std::to_string(pop.count) + " (allowed: 1 to " + std::to_string(limits::max_populations) + ")";
  }
  const std::size_t population_values = pop.count > 1 ? r.batch.size() * static_cast<std::size_t>(pop.count) * 3 : 0;
  if (pop.k_generations.size() != population_values) {
    return "it holds " + std::to_string(pop.k_generations.size()) + " populations' k estimates (allowed: " +
           std::to_string(population_values) + ", three for each of " + std::to_string(pop.count) +
           " population(s) in each of " + std::to_string(r.batch.size()) + " generations, none with one population)";
  }
  if (r.inactive < 0) return "inactive = " + std::to_string(r.inactive) + " (allowed: >= 0)";
  if (std::string what = settings_agree_problem(r); !what.empty()) return what;
  for (std::size_t i = 0; i < r.batch.size(); ++i) {
    if (std::string what = batch_numbering_problem(r.batch[i], i, r.generations_per_batch, r.inactive); !what.empty()) {
      return what;
    }
  }
  if (std::string what = populations_problem(r); !what.empty()) return what;
  const int active = completed_active_batches(r);
  const double most = max_tally_batch_value(r.particles, r.cmfd && r.cmfd->feedback);
  for (const TallyResult& t : r.tallies) {
    if (t.sum_sq.size() != t.sum.size()) {
      return "tally '" + printable_cut(t.name) + "' holds " + std::to_string(t.sum.size()) + " sums and " +
             std::to_string(t.sum_sq.size()) + " sums of squares (allowed: as many of each)";
    }
    for (std::size_t i = 0; i < t.sum.size(); ++i) {
      if (std::string what = tally_sums_problem(t.sum[i], t.sum_sq[i], active, most); !what.empty()) {
        return "tally '" + printable_cut(t.name) + "', value " + std::to_string(i) + ", " + what;
      }
    }
    // A mean from the first active batch on, a deviation from the second (none before: NaN).
    for (std::size_t i = 0; i < t.mean.size() && i < t.std_dev.size(); ++i) {
      if ((active >= 1 && !std::isfinite(t.mean[i])) || (active >= 2 && !std::isfinite(t.std_dev[i]))) {
        return "tally '" + printable_cut(t.name) + "', value " + std::to_string(i) + " has mean " +
               exact_number(t.mean[i]) + " and deviation " + exact_number(t.std_dev[i]) + " over " + std::to_string(active) +
               " active batches (allowed: a finite mean from one active batch on, a finite deviation from two)";
      }
    }
  }
  return cmfd_results_problem(r);
}

}  // namespace keff
