#include "src/driver/batch_record.hpp"

#include "src/host/batch_table.hpp"
#include "src/host/geometry_report.hpp"
#include "src/host/stationarity.hpp"
#include "src/host/statistics.hpp"
#include "kernels/vocabulary/populations.hpp"

#include <iostream>
#include <ostream>

namespace keff {

namespace {

// Lost particles warned about one by one, as OpenMC does, before the rest are only counted.
constexpr int max_lost_warnings = 10;

// Each population's k over the first `active_batches` active batches' generations (a batch under way is
// left out, as from k itself), its estimators weighted by `weights`; their mean and its std.
PopulationResults population_results(const model::Settings& s, const std::vector<BatchResult>& generations,
                                     const std::vector<double>& k_generations, const std::array<double, 3>& weights,
                                     int active_batches) {
  PopulationResults out;
  out.count = s.populations;
  out.k_generations = k_generations;
  if (s.populations < 2) return out;
  const auto p = static_cast<std::size_t>(s.populations);
  std::vector<double> sums(p, 0.0);
  std::size_t used = 0;
  const std::size_t wanted = static_cast<std::size_t>(active_batches) * static_cast<std::size_t>(s.generations_per_batch);
  for (std::size_t g = 0; g < generations.size() && used < wanted; ++g) {
    if (!generations[g].active) continue;
    ++used;
    for (std::size_t q = 0; q < p; ++q) {
      for (std::size_t e = 0; e < 3; ++e) sums[q] += weights[e] * k_generations[(g * p + q) * 3 + e];
    }
  }
  if (used == 0) {
    out.k = mean_std({});
    return out;
  }
  for (double& v : sums) out.k_each.push_back(v / static_cast<double>(used));
  out.k = mean_std(out.k_each);  // the populations are independent: a std from one active batch on
  return out;
}

}  // namespace

double source_weight(const BatchCounters& global) { return from_fixed<estimator_fraction_bits>(global.weight_started); }

BatchRecord::BatchRecord(const model::Problem& problem, std::ostream* log, bool cmfd)
    : problem_(problem), log_(log), cmfd_columns_(cmfd),
      k_prev_(static_cast<std::size_t>(problem.settings.populations), problem.settings.initial_k),
      k_running_(combine_estimators({})) {}

bool BatchRecord::count_lost(std::int64_t lost) {
  lost_total_ += lost;
  return lost_total_ > problem_.settings.max_lost;
}

void BatchRecord::note_lost(int batch, const std::vector<LostParticle>& lost) {
  for (const LostParticle& l : lost) {
    const std::string what = lost_particle_text(problem_, batch, l);
    if (log_ && lost_warned_ < max_lost_warnings) {
      std::cerr << "keff: warning: " << what << "\n";
      if (++lost_warned_ == max_lost_warnings) {
        std::cerr << "keff: warning: further lost particles are counted, not listed (the JSON summary lists the first "
                  << LostHistory::listed << ")\n";
      }
    }
    if (lost_.size() < LostHistory::listed) lost_.push_back({batch, l, what});
  }
}

// A batch's value of an estimator is the mean of its generations' (with one generation, the generation's:
// 0 + k and k / 1 are exact).
bool BatchRecord::add_active(const BatchResult& r) {
  ++active_generations_;
  k_partial_[0] += r.k_collision;
  k_partial_[1] += r.k_absorption;
  k_partial_[2] += r.k_tracklength;
  leakage_partial_ += r.leakage;
  const int g = problem_.settings.generations_per_batch;
  if (r.generation < g) return false;
  for (std::size_t e = 0; e < 3; ++e) k_active_[e].push_back(k_partial_[e] / g);
  leakage_active_.push_back(leakage_partial_ / g);
  k_partial_ = {};
  leakage_partial_ = 0;
  return true;
}

BatchResult BatchRecord::record(int generation, const BatchCounters& global, std::span<const Fixed> population_sums,
                                double entropy, std::int64_t fission_sites, std::optional<CmfdResult> cmfd) {
  const double weight = source_weight(global);
  // Each population's k per unit of its own source weight: N / P without CMFD, other than that in the
  // batch after CMFD's last feedback, whose sites carry CMFD's weights.
  for (std::size_t q = 0; q < population_sums.size(); q += population_sum_count) {
    const double started = from_fixed<estimator_fraction_bits>(population_sums[q + population_weight]);
    for (int e = population_collision; e <= population_tracklength; ++e) {
      population_k_.push_back(from_fixed<estimator_fraction_bits>(population_sums[q + e]) / started);
    }
  }
  set_population_k_prev();
  const int g = problem_.settings.generations_per_batch;
  BatchResult r;
  r.batch = model::batch_of(generation, g);
  r.generation = model::generation_in_batch(generation, g);
  r.active = r.batch > problem_.settings.inactive;
  r.fission_sites = fission_sites;
  r.entropy = entropy;
  r.k_collision = from_fixed<estimator_fraction_bits>(global.k_collision) / weight;
  r.k_absorption = from_fixed<estimator_fraction_bits>(global.k_absorption) / weight;
  r.k_tracklength = from_fixed<estimator_fraction_bits>(global.k_tracklength) / weight;
  r.k = r.k_collision;
  r.leakage = from_fixed<estimator_fraction_bits>(global.weight_leaked) / weight;
  r.cmfd = std::move(cmfd);
  if (r.active) {
    if (add_active(r)) k_running_ = combine_estimators(k_active_);
    r.k_running = k_running_;
  }
  if (population_sums.empty()) k_prev_[0] = r.k_collision;
  batches_.push_back(r);
  return r;
}

// With CMFD, two more columns: k_cmfd and the entropy of the CMFD source (on the coarse mesh), from
// [cmfd] begin on; 'failed' for a solve with no usable result (no feedback that batch).
void BatchRecord::print_header() const {
  if (log_) *log_ << batch_table_header(cmfd_columns_, problem_.settings.generations_per_batch);
}

void BatchRecord::print_row(const BatchResult& r) {
  if (!log_) return;
  *log_ << format_batch_row(r, cmfd_columns_, problem_.settings.generations_per_batch);
  if (r.cmfd && !r.cmfd->converged && !cmfd_failure_warned_) {
    *log_ << " warning: batch " << r.batch << ": the CMFD solve failed: " << r.cmfd->failure
          << "; no feedback from it (later failures are counted in the summary)\n";
    cmfd_failure_warned_ = true;
  }
  if (r.cmfd && !r.cmfd->warning.empty() && !cmfd_caveat_warned_) {
    *log_ << " warning: batch " << r.batch << ": " << r.cmfd->warning << " (said once)\n";
    cmfd_caveat_warned_ = true;
  }
  *log_ << std::flush;
}

void BatchRecord::restore(const RunResults& sp) {
  batches_ = sp.batch;
  for (auto& k : k_active_) k.clear();
  leakage_active_.clear();
  k_partial_ = {};
  leakage_partial_ = 0;
  active_generations_ = 0;
  for (const auto& b : batches_) {
    if (b.active) add_active(b);
  }
  k_running_ = combine_estimators(k_active_);  // none (NaN) before the first active batch ends
  restored_active_ = active_generations_;
  k_prev_.assign(k_prev_.size(), sp.restart.k_prev);
  population_k_ = sp.populations.k_generations;
  set_population_k_prev();
  lost_total_ = sp.lost_particles;
  bank_overflows_ = sp.bank_overflows;
}

// With populations, each one's collision k of the last generation recorded (population_k_ holds
// [generation][population][estimator]).
void BatchRecord::set_population_k_prev() {
  const std::size_t p = k_prev_.size();
  if (p < 2 || population_k_.size() < 3 * p) return;
  const std::size_t last = population_k_.size() - 3 * p;
  for (std::size_t q = 0; q < p; ++q) k_prev_[q] = population_k_[last + 3 * q + population_collision];
}

SourceSeries BatchRecord::source_series() const {
  return keff::source_series(batches_, problem_.settings.generations_per_batch);
}

void BatchRecord::collect(RunResults& res) const {
  res.batch = batches_;
  res.k_collision = mean_std(k_active_[0]);
  res.k_absorption = mean_std(k_active_[1]);
  res.k_tracklength = mean_std(k_active_[2]);
  res.k_combined = combine_estimators(k_active_);
  estimate_correlation(res.k_combined, k_active_);
  for (std::size_t e = 0; e < 3; ++e) res.estimator_correlation[e] = batch_correlation(k_active_[e]);
  res.populations = population_results(problem_.settings, batches_, population_k_, res.k_combined.weights,
                                       active_batches());
  res.leakage = mean_std(leakage_active_);
  res.stationarity = diagnose_stationarity(source_series(), problem_.settings.inactive);
  res.lost_particles = lost_total_;
  res.lost = lost_;
  res.bank_overflows = bank_overflows_;
  res.restart.k_prev = batches_.empty() ? problem_.settings.initial_k : batches_.back().k_collision;
}

}  // namespace keff
