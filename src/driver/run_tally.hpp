#pragma once
// The run tally: what a run accumulates from batch to batch and reports. The three k estimators of
// every batch and their statistics over active batches, the batch history, lost particles and bank
// overflows, the mesh tally's running sums (src/driver/tally_accumulator.hpp), CMFD's tally window and solve
// (src/cmfd/cmfd_accelerator.hpp), the per-batch table and the RunResults a run ends with. Host-side
// statistics of integer batch sums that are identical on every rank, so every rank holds the same
// numbers.
//
// Estimates are per unit of source weight, the weight the batch's histories started with: N without
// CMFD feedback (every site weighs 1, so the bits are those of dividing by N), and what the reweighted
// source adds up to with it, as OpenMC normalises by the total starting weight.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "kernels/tally_data.hpp"
#include "mpi/communicator.hpp"
#include "src/cmfd/cmfd_accelerator.hpp"
#include "src/driver/domain_decomposition.hpp"
#include "src/driver/tally_accumulator.hpp"
#include "src/params/build_problem.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>

namespace keff {

class RunTally {
 public:
  // `window`: the mesh-tally bins this rank's transport scores (all of them without domains).
  // `log`: the batch table (rank 0; may be null).
  RunTally(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, const ProblemParams& params,
           const DomainDecomposition* domains, const MeshWindow& window, std::ostream* log);

  // k of the last batch: normalises the next batch's fission sites.
  Real k_prev() const { return k_prev_; }
  int batches_done() const { return static_cast<int>(batches_.size()); }
  // Active batches this process transported (a restart's earlier batches are not among them).
  int active_batches_run() const { return static_cast<int>(k_active_[0].size()) - restored_active_; }

  void count_reruns(int reruns) { bank_overflows_ += reruns; }
  // Adds the batch's lost particles; true once the run has lost more than settings.max_lost.
  bool count_lost(std::int64_t lost);
  // The batch's lost particles, described (rank 0: in the order of their histories; other ranks: none):
  // a warning each on the log, the first max_lost_warnings of the run, and the run's list for the summary.
  void note_lost(int batch, const std::vector<LostParticle>& lost);
  std::int64_t lost() const { return lost_total_; }
  // Adds an active batch's mesh-tally scores, per unit of the batch's source weight (its global
  // counters'), to the running sums. Collective; `progress` runs between the MPI calls (the bank exchange
  // polls there).
  void add_mesh_scores(const DeviceExec& exec, const MeshTally<DeviceMem>& scores, const BatchCounters& global,
                       const std::function<void()>& progress);
  // CMFD, in the batches it tallies (transporter's scores_cmfd): the batch's scores into the window and
  // the solve, whose result the batch's record carries. Returns the CMFD source when feedback is on and
  // the solve converged: the source cycle reweights the bank to it. Collective.
  std::optional<Kokkos::View<const Real*, DeviceMem>> solve_cmfd(const DeviceExec& exec, int batch,
                                                                 const CmfdTally<DeviceMem>& scores);
  // The batch's k estimates from its global counters, and the running statistics over active batches.
  BatchResult record(int batch, const BatchCounters& global, double entropy, std::int64_t fission_sites);

  void print_header() const;
  void print_row(const BatchResult& r) const;

  // Continues from a statepoint: its batches, estimators, counts and mesh-tally sums.
  void restore(const RunResults& statepoint);
  // Collective: estimators, batches, counts and (on rank 0) the mesh tally's statistics and restart sums.
  void collect(RunResults& res) const;
  // Collective: the mesh tally's memory on the rank holding most, against a rank holding every bin.
  void report_memory(DomainReport& d) const;

 private:
  const model::Problem& problem_;
  const Communicator& comm_;
  std::ostream* log_;
  int groups_ = 1;
  MeshWindow window_;
  std::int64_t mesh_bins_ = 0;
  TallyAccumulator mesh_;
  // Host copies of a batch's scores, allocated once.
  Kokkos::View<Fixed**, Kokkos::LayoutRight, Kokkos::HostSpace> flux_host_, fission_host_;

  std::unique_ptr<CmfdAccelerator> cmfd_;  // [cmfd] on
  std::optional<CmfdResult> cmfd_batch_;   // the solve of the batch being recorded

  Real k_prev_ = 1.0;
  std::int64_t lost_total_ = 0;
  std::vector<LostHistory> lost_;  // described, the first LostHistory::listed
  int lost_warned_ = 0;
  int bank_overflows_ = 0;
  int restored_active_ = 0;
  std::vector<BatchResult> batches_;
  std::array<std::vector<double>, 3> k_active_;  // collision, absorption, track length
};

}  // namespace keff
