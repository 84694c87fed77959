#pragma once
// The transporter: the TransportState that transport writes (kernels/transport/transport_state.hpp)
// over the problem's Params, and history- or event-based transport as the plan says. It runs the
// histories of one batch's source and, when any rank's fission bank overflowed, grows the bank and
// reruns the batch on every rank: histories are reproducible, so nothing is dropped and the rerun gives
// what an unbounded bank would have. Under domain decomposition event-based transport moves particles
// with the domains' particle exchange. The Params, the plan and the domains are the Simulation's, built
// before any owner and handed to each.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "kernels/batch_counters.hpp"
#include "kernels/transport/transport_event.hpp"
#include "kernels/transport/transport_state.hpp"
#include "mpi/communicator.hpp"
#include "src/driver/batch_watch.hpp"
#include "src/driver/domain_decomposition.hpp"
#include "src/driver/run.hpp"
#include "src/driver/source_feed.hpp"
#include "src/params/build_problem.hpp"

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>

namespace keff {

// What transporting one batch gave on this rank.
struct TransportedBatch {
  BatchCounters sums;         // counters of the histories that ended here
  std::int64_t banked = 0;    // fission sites in the bank
  int reruns = 0;             // the batch was rerun this often with a larger bank or secondary records
  double exchange_wait = 0;   // seconds spent inside transport waiting for the previous bank exchange
  bool abandoned = false;     // some rank stopped it part-way (src/driver/batch_watch.hpp); the rest is meaningless
  std::int64_t lost = 0;      // abandoned: particles this rank lost in it
};

// How a rank transports: history-based (no slots) or event-based with this many slots of this size.
struct TransportPlan {
  std::size_t bytes_per_slot = 0;  // event-based transport: of one slot
  std::int64_t event_slots = 0;    // 0: history-based transport
};

// Event-based when asked for, or implied by domain decomposition; slots from settings.event.slots, or as
// many as a quarter of the free device memory holds, never more than the rank's `histories`.
TransportPlan plan_transport(const DeviceExec& exec, const model::Problem& problem, const ProblemParams& params,
                             std::int64_t histories);

class Transporter {
 public:
  // Allocates the State once its memory is known to be there (collective). `domains`: null without
  // [domains].
  Transporter(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, const EvenSplit& split,
              const ProblemParams& params, const TransportPlan& plan, DomainDecomposition* domains, std::ostream* log);

  std::int64_t bank_capacity() const { return state_.bank_capacity(); }

  // Runs the histories of `source`, batch `batch`, fission sites normalised by `k_prev` (each
  // population's last k, BatchRecord::k_prev), while the run
  // may still lose `lost_allowed` particles. Collective: whether any rank's bank overflowed (all rerun)
  // and whether any rank stopped part-way (all abandon the batch) are agreed. Allocates nothing unless
  // the bank overflows.
  TransportedBatch transport(int batch, std::span<const Real> k_prev, const BatchSource& source, std::int64_t lost_allowed);

  // After transport: the banked sites, the batch's tally sums and, in batches CMFD tallies, its scores.
  Kokkos::View<const Site*, DeviceMem> bank() const { return state_.bank.sites; }
  Kokkos::View<const Fixed*, DeviceMem> tally_sums() const { return state_.tally_sums; }
  const CmfdTally<DeviceMem>& cmfd_scores() const { return state_.cmfd; }
  // Whether CMFD tallies generation `generation` (counted over the run): [cmfd] is on and the generation
  // is in a batch from its begin to its end.
  bool scores_cmfd(int generation) const {
    const auto& s = problem_.settings;
    return problem_.cmfd_on() && generation >= model::first_generation(s, problem_.cmfd->begin) &&
           generation < model::first_generation(s, problem_.cmfd_end() + 1);
  }

  // With settings.populations > 1, after transport: each population's sums over ranks,
  // [population * population_sum_count + PopulationSum] (empty with one). Collective.
  std::span<const Fixed> population_sums();

  // The batch's global counters: every history started ends absorbed, leaked or lost, with its weight;
  // under domain decomposition every particle sent arrives. Throws RunError otherwise. Collective.
  void check_conservation(int batch, const BatchCounters& global) const;
  // The batch's lost particles (the first few of each rank, kernels/lost_record.hpp), gathered to rank 0
  // in the order of their histories; other ranks get none. Collective.
  std::vector<LostParticle> lost_in_batch() const;
  // Why a run with too many lost particles stops: the counts per reason and where the first was lost.
  // Collective.
  std::string lost_report(int batch, std::int64_t lost_total) const;

  // Collective: event-based transport's queue statistics summed over ranks.
  TransportReport report() const;
  // This rank's share of what the run header prints.
  RunSetup setup() const;

 private:
  template <class Physics>
  BatchCounters transport_with(const Physics& physics, const BatchControl& control, const CmfdTally<DeviceMem>& cmfd,
                               const BatchSource& source);
  std::int64_t read_bank_count() const;
  std::int64_t read_secondary_count() const;
  void grow_bank(std::int64_t needed);
  void grow_secondaries(std::int64_t needed);

  DeviceExec exec_;
  const model::Problem& problem_;
  const Communicator& comm_;
  const EvenSplit& split_;
  const ProblemParams& params_;
  const TransportPlan plan_;
  DomainDecomposition* domains_;
  std::ostream* log_;
  TransportState<DeviceExec> state_;
  BatchWatch watch_;
  Kokkos::View<std::int64_t, Kokkos::HostSpace> bank_count_host_;
  Kokkos::View<std::int64_t, Kokkos::HostSpace> secondary_count_host_;
  std::int64_t secondary_high_water_ = 0;  // the most secondary neutrons a batch made on this rank
  Kokkos::View<Fixed* [population_sum_count], Kokkos::LayoutRight, Kokkos::HostSpace> population_sums_host_;
  PopulationSplit populations_;  // settings.populations over the batch's histories
  EventStatistics event_stats_;     // summed over the batches run
};

}  // namespace keff
