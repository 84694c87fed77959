#pragma once
// The batch record: what a run keeps of every generation and batch and reports. The three k estimators
// of each generation, each batch's (the means of its generations': settings.generations_per_batch) and
// their statistics over active batches, the leakage fraction, the batch history, lost particles and
// bank overflows, and the per-batch table. Host-side statistics of integer batch sums that are identical
// on every rank, so every rank holds the same numbers. (The run's tallies are src/tally/run_tallies.hpp,
// CMFD's window and solve src/cmfd/cmfd_accelerator.hpp: the Simulation holds all three.)
//
// Estimates are per unit of source weight, the weight the batch's histories started with: N without
// CMFD feedback (every site weighs 1, so the bits are those of dividing by N), and what the reweighted
// source adds up to with it, as OpenMC normalises by the total starting weight.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/batch_counters.hpp"
#include "src/host/stationarity.hpp"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <vector>

namespace keff {

// The batch's source weight: what its histories started with.
double source_weight(const BatchCounters& global);

class BatchRecord {
 public:
  // `log`: the batch table and warnings (rank 0; may be null). `cmfd`: whether the table has CMFD's columns.
  BatchRecord(const model::Problem& problem, std::ostream* log, bool cmfd);

  // k of the last generation, of each population (one population: the generation's k): normalises the
  // next generation's fission sites, each population's by its own (kernels/batch_control.hpp).
  std::span<const Real> k_prev() const { return k_prev_; }
  // Generations recorded (with one generation per batch, batches).
  int generations_done() const { return static_cast<int>(batches_.size()); }
  // Active batches completed: those k's statistics and the tallies hold.
  int active_batches() const { return static_cast<int>(k_active_[0].size()); }
  // Active generations this process transported (a restart's earlier ones are not among them).
  int active_generations_run() const { return active_generations_ - restored_active_; }

  void count_reruns(int reruns) { bank_overflows_ += reruns; }
  // Adds the batch's lost particles; true once the run has lost more than settings.max_lost.
  bool count_lost(std::int64_t lost);
  std::int64_t lost() const { return lost_total_; }
  // The batch's lost particles, described (rank 0: in the order of their histories; other ranks: none):
  // a warning each on the log, the first max_lost_warnings of the run, and the run's list for the summary.
  void note_lost(int batch, const std::vector<LostParticle>& lost);

  // Generation `generation`'s (counted from 1 over the run) k estimates and leakage from its global
  // counters and the CMFD solve after it if there was one; at the last generation of an active batch,
  // the batch's values into the running statistics over active batches. `population_sums`: with
  // settings.populations > 1, each population's estimator sums (Transporter::population_sums).
  BatchResult record(int generation, const BatchCounters& global, std::span<const Fixed> population_sums,
                     double entropy, std::int64_t fission_sites, std::optional<CmfdResult> cmfd);

  void print_header() const;
  // The batch's row, and once a run each: the first failed CMFD solve with why, the first solve's warning.
  void print_row(const BatchResult& r);

  // Continues from a statepoint: its batches, estimators and counts.
  void restore(const RunResults& statepoint);
  // Estimators, leakage, batches and counts.
  void collect(RunResults& res) const;
  // Each completed batch's source entropy and k, for the stationarity test (src/host/stationarity.hpp).
  SourceSeries source_series() const;

 private:
  void set_population_k_prev();

  const model::Problem& problem_;
  std::ostream* log_;
  bool cmfd_columns_ = false;
  std::vector<Real> k_prev_;  // [settings.populations]
  std::int64_t lost_total_ = 0;
  std::vector<LostHistory> lost_;  // described, the first LostHistory::listed
  int lost_warned_ = 0;
  int bank_overflows_ = 0;
  bool cmfd_failure_warned_ = false, cmfd_caveat_warned_ = false;
  // An active generation's estimators and leakage into the batch under way; at its last generation the
  // batch's means into k_active_ and leakage_active_. True when the batch ended.
  bool add_active(const BatchResult& generation);

  int restored_active_ = 0;
  int active_generations_ = 0;
  std::vector<BatchResult> batches_;  // one record per generation
  std::array<std::vector<double>, 3> k_active_;  // per active batch: collision, absorption, track length
  std::vector<double> leakage_active_;
  std::vector<double> population_k_;  // PopulationResults::k_generations
  std::array<double, 3> k_partial_{};  // the batch under way: its generations' sums so far
  double leakage_partial_ = 0;
  KEstimate k_running_;  // over the active batches completed so far (none, NaN, before the first)
};

}  // namespace keff
