#pragma once
// The source cycle: how one batch's fission sites become the next batch's source. It owns every site
// buffer outside the TransportState (kernels/source_state.hpp) and every step that moves sites between
// batches:
//
//   bank (transport) -> [domains: route to the ranks that ran the parents] -> order by (parent, progeny)
//   -> [CMFD feedback: reweight to the CMFD source's shape]
//   -> comb N sites with one shared random number and post their exchange between ranks (mpi/bank_exchange)
//   -> the next batch transports the sites as they land (SourceFeed)
//   -> [domains: route the new source to the ranks whose domains hold its sites]
//
// The batch's histories are split evenly over ranks (the driver's EvenSplit): rank r's share of the
// source is the histories it orders the bank for and receives combed sites for. The exchange writes
// straight into this rank's one source buffer; nothing else holds it.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"
#include "kernels/device.hpp"
#include "kernels/source_state.hpp"
#include "mpi/bank_exchange.hpp"
#include "mpi/communicator.hpp"
#include "mpi/site_router.hpp"
#include "src/driver/domain_decomposition.hpp"
#include "src/driver/run.hpp"
#include "src/driver/source_feed.hpp"
#include "src/params/build_problem.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace keff {

class SourceCycle {
 public:
  // Allocates the source State once its memory is known to be there (collective). `bank_capacity`:
  // the fission bank's, which the ordered bank follows.
  SourceCycle(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, const EvenSplit& split,
              const ProblemParams& params, const DomainDecomposition* domains, std::int64_t bank_capacity);

  // The first batch's source: sites sampled uniformly in [settings.source] where the material is
  // fissionable. Throws RunError when the box holds too little of it. Collective.
  void sample_initial();
  // Before the first batch: refuses (RunError) a [cmfd] mesh that leaves fissionable material out, by the
  // pilot sample over the geometry's bounding box; fission sites banked outside it would stop the run at
  // CMFD's first batch. A geometry without a bounding box is left to that check. Collective.
  void check_cmfd_covers_fuel(const model::Cmfd& cmfd) const;
  // A restart: this rank's share of a statepoint's source (global order), refused unless every site lies
  // in fissionable material. Collective.
  void restore(const std::vector<Site>& global_source);

  // The next batch's source, handed out as it lands (the previous exchange may still be in flight).
  BatchSource batch_source();
  // After transport: this rank's `n` banked sites, ordered by (parent, progeny); under domain
  // decomposition first routed to the ranks that ran their parents. Collective.
  void order_bank(Kokkos::View<const Site*, DeviceMem> bank, std::int64_t n);
  // CMFD feedback, after order_bank: each ordered site's weight times the factor of its coarse group and
  // cell that moves the bank's weight per bin to `cmfd_source`'s shape ([g * n_cells + c], any
  // normalisation; kernels/cmfd_reweight.hpp), keeping the total. The comb carries the weights into the
  // next source. Collective (the bank's weight per bin is summed over ranks).
  void reweight(Kokkos::View<const Real*, DeviceMem> cmfd_source);
  // Combs the next source from the ordered banks of all ranks (each of settings.populations populations
  // from its own sites) and posts its exchange; returns the global bank size. Throws RunError (on every
  // rank) when no rank banked a site, or no rank a site of some population. Collective.
  std::int64_t post_exchange(int batch);
  // Shannon entropy of the ordered bank on the entropy mesh, counted on the device and summed over
  // ranks, polling the exchange between steps; the first batch whose `sites` (the global bank) the mesh
  // does not all hold gets one warning on rank 0 (src/host/statistics.hpp). Collective.
  double entropy(int batch, std::int64_t sites);
  void progress() { exchange_.progress(); }
  void finish_exchange() { exchange_.finish(); }
  // Domain decomposition, once the exchange has finished: the new source to the ranks whose domains
  // hold its sites. Collective.
  void route_to_domains();

  // Collective: the exchange's MPI calls summed over ranks.
  ExchangeCounts exchange_report(ExchangeMode mode) const;
  // Collective: the next batch's source in global order, on rank 0 (empty elsewhere), once its exchange
  // has finished.
  std::vector<Site> gather();
  // Sites this rank routed to other ranks under domain decomposition, over the run.
  std::int64_t sites_routed() const { return router_ ? router_->sites_sent() : 0; }
  std::size_t bytes() const { return state_.bytes(); }

 private:
  void check_source_box(const Real lower[3], const Real upper[3]) const;
  Comb comb(int batch);
  template <class Physics>
  void sample_initial_with(const Physics& physics);

  DeviceExec exec_;
  const model::Problem& problem_;
  const Communicator& comm_;
  const EvenSplit& split_;
  const ProblemParams& params_;
  const DomainDecomposition* domains_;
  IndexRange local_;                      // this rank's share of the histories
  SourceState<DeviceExec> state_;
  BankExchange exchange_;
  SourceFeed feed_;                       // the next batch's sites, as the exchange lands them
  std::unique_ptr<SiteRouter> router_;    // domain decomposition only
  std::int64_t ordered_ = 0;              // sites in the ordered bank this batch
  std::int64_t domain_source_count_ = 0;  // domain decomposition: sites routed here to transport
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> entropy_host_;
  Kokkos::View<Fixed*, Kokkos::HostSpace> cmfd_counts_host_;  // CMFD feedback: the bank's weight per bin
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> population_counts_host_;  // the comb: sites per population
  bool entropy_warned_ = false;  // once per run
};

}  // namespace keff
