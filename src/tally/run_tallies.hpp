#pragma once
// The run's tallies on the host. The device scores each generation into fixed-point sums
// (kernels/tally/tally_score.hpp); here they are summed over all ranks (integers: exact, in any order),
// added up over the batch's generations, divided by their source weight (per source particle, like k)
// and, in active batches, added to running sums, from which the means, standard deviations and triggers come. Every rank holds every
// bin, so the results do not depend on the rank count, the thread count, the transport mode or domain
// decomposition, bit for bit. With domain decomposition every rank holds the whole tally: tallies are
// replicated, not split over domains.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "kernels/fixed_point.hpp"
#include "mpi/communicator.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace keff {

// Whether a run's tally triggers hold, and if not, the one furthest from holding.
struct TriggerStatus {
  bool met = true;
  std::string worst;  // "tally 'pins', fission: max relative error 0.023 (> 0.01)"
};

class RunTallies {
 public:
  RunTallies(const model::Problem& problem, const Communicator& comm, std::int64_t n_values);

  bool empty() const { return sum_.empty(); }
  // Host memory on each rank: the batch's sums and the running sums.
  std::size_t bytes() const;

  // An active generation's device sums, over ranks, and its `source_weight` into the batch under way;
  // with `ends_batch`, the batch's values (its sums over its source weight) into the running sums.
  // Collective; `progress` runs between the copy and the MPI call (the bank exchange polls there).
  void add_generation(const DeviceExec& exec, const Kokkos::View<const Fixed*, DeviceMem>& sums, double source_weight,
                      bool ends_batch, const std::function<void()>& progress);
  // The batch under way, for a statepoint (none between batches).
  void save_partial(RestartData& restart) const;
  // Over `active` batches: met when every trigger's score has a relative error within its bound in every
  // bin it scored in (bins with nothing scored are left out, as OpenMC does).
  TriggerStatus triggers(int active) const;

  // Means, standard deviations, raw sums and the filters' description, over `active` batches.
  std::vector<TallyResult> collect(int active) const;
  // The running sums of a statepoint's tallies and its batch under way (checked against this problem:
  // io/output/restart_check.cpp).
  void restore(const std::vector<TallyResult>& tallies, const RestartData& restart);

 private:
  const model::Problem& problem_;
  const Communicator& comm_;
  std::vector<TallyResult> described_;  // names, scores, filters: what collect() fills in
  std::vector<std::int64_t> first_;     // each tally's first value
  Kokkos::View<Fixed*, Kokkos::HostSpace> batch_;
  std::vector<double> sum_, sum_sq_;
  std::vector<double> partial_;  // the batch under way: its generations' sums, not yet divided
  double partial_weight_ = 0;    // and their source weight
};

// What `problem`'s tallies are, for the outputs: names, scores, units and filters (no values).
std::vector<TallyResult> describe_tallies(const model::Problem& problem);

}  // namespace keff
