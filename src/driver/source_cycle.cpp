#include "src/driver/source_cycle.hpp"

#include "kernels/bank_sort.hpp"
#include "kernels/cmfd_reweight.hpp"
#include "kernels/domain_routing.hpp"
#include "kernels/entropy.hpp"
#include "kernels/initial_source.hpp"
#include "kernels/rng.hpp"
#include "kernels/site_check.hpp"
#include "kernels/source_pilot.hpp"
#include "io/input/geometry_bounds.hpp"
#include "src/host/memory_check.hpp"
#include "src/host/statistics.hpp"
#include "src/params/device_memory.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <span>
#include <string>

namespace keff {

namespace {

// The initial source's pilot sample: enough points that a box in which fissionable material fills the
// allowed 1e-3 of the volume shows about 100 of them, and one with a quarter of that is refused at once.
constexpr std::int64_t pilot_points = 100000;
constexpr std::int64_t pilot_points_needed = 50;

// Below this many histories per batch, a batch without fission sites may be chance rather than a system
// without reachable fuel (a near-critical system's batch of 1000 banks none with odds of about e^-1000).
constexpr std::int64_t few_histories = 1000;

// The State, once the memory it needs is known to be there (agreed over ranks).
SourceState<DeviceExec> allocate_state(const DeviceExec& exec, const SourceStateSizes& sizes, const Communicator& comm,
                                       bool allow_oversubscribed) {
  const double sites = static_cast<double>(sizes.histories + sizes.bank_capacity) * sizeof(Site);
  check_memory(comm, "the source cycle", {{"source and ordered bank", sites}, {"offsets", source_state_bytes(sizes) - sites}},
               static_cast<double>(device_memory_available(exec)), allow_oversubscribed);
  return allocate_source_state(exec, sizes);
}

SourceStateSizes state_sizes(std::int64_t histories, std::int64_t bank_capacity, const ProblemParams& params,
                             int populations) {
  SourceStateSizes n;
  n.populations = populations;
  n.histories = histories;
  n.bank_capacity = bank_capacity;
  n.entropy_bins = params.entropy_mesh.n_bins();
  n.cmfd_bins = params.cmfd_n_groups * params.cmfd_mesh.n_cells();
  return n;
}

}  // namespace

SourceCycle::SourceCycle(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                         const EvenSplit& split, const ProblemParams& params, const DomainDecomposition* domains,
                         std::int64_t bank_capacity)
    : exec_(exec), problem_(problem), comm_(comm), split_(split), params_(params), domains_(domains),
      local_(split.part(comm.rank())),
      state_(allocate_state(exec, state_sizes(local_.count, bank_capacity, params, problem.settings.populations), comm,
                            problem.settings.allow_oversubscribed_memory)),
      exchange_(comm),
      feed_(exchange_),
      router_(domains ? std::make_unique<SiteRouter>(comm) : nullptr),
      entropy_host_("keff::host::entropy_counts", params.entropy_mesh.n_bins()),
      cmfd_counts_host_("keff::host::cmfd_counts", state_.cmfd_counts.extent(0)),
      population_counts_host_("keff::host::population_counts", problem.settings.populations + 1) {}

// Refuses a source box with too little fissionable material before sampling from it: rejection
// sampling would otherwise spend every try of every site first.
void SourceCycle::check_source_box(const Real lower[3], const Real upper[3]) const {
  const IndexRange mine = EvenSplit(pilot_points, comm_.size()).part(comm_.rank());
  const std::int64_t hits = comm_.sum(count_fissionable_points(exec_, params_.geometry, params_.materials.fissionable,
                                                               lower, upper, problem_.settings.seed, mine, pilot_points)
                                           .fissionable);
  if (hits >= pilot_points_needed) return;
  char share[32];
  std::snprintf(share, sizeof share, "%.2g", static_cast<double>(std::max<std::int64_t>(hits, 1)) / pilot_points);
  throw RunError("initial source: fissionable material fills " + std::string(hits == 0 ? "less than about " : "about ") +
                 share + " of the source box of " + problem_.source_name + " (" + std::to_string(hits) + " of " +
                 std::to_string(pilot_points) + " points uniform in it lie in a cell filled with fissionable material; "
                 "allowed: a [settings.source] box in which fissionable material fills at least about 1e-3; fit "
                 "lower_left/upper_right to the fuel)");
}

void SourceCycle::check_cmfd_covers_fuel(const model::Cmfd& cmfd) const {
  const std::optional<model::Box> bounds = geometry_bounding_box(problem_);
  if (!bounds) return;
  Real lower[3], upper[3], within_lower[3], within_upper[3];
  for (std::size_t d = 0; d < 3; ++d) {
    lower[d] = bounds->lower[d];
    upper[d] = bounds->upper[d];
    within_lower[d] = cmfd.mesh.box.lower[d];
    within_upper[d] = cmfd.mesh.box.upper[d];
  }
  const IndexRange mine = EvenSplit(pilot_points, comm_.size()).part(comm_.rank());
  PilotCounts counts = count_fissionable_points(exec_, params_.geometry, params_.materials.fissionable, lower, upper,
                                                problem_.settings.seed, mine, pilot_points, within_lower, within_upper);
  counts.fissionable = comm_.sum(counts.fissionable);
  counts.fissionable_outside = comm_.sum(counts.fissionable_outside);
  if (counts.fissionable_outside == 0) return;
  char share[32];
  std::snprintf(share, sizeof share, "%.2g", static_cast<double>(counts.fissionable_outside) / counts.fissionable);
  throw RunError("the CMFD mesh ([cmfd] at " + cmfd.where.str() + ") leaves out about " + share +
                 " of the fissionable material (" + std::to_string(counts.fissionable_outside) + " of the " +
                 std::to_string(counts.fissionable) + " points in fissionable material, of " +
                 std::to_string(pilot_points) + " uniform in the geometry's bounding box, lie outside it); CMFD's "
                 "balance needs every fission inside (allowed: a mesh that covers every fissionable region)");
}

template <class Physics>
void SourceCycle::sample_initial_with(const Physics& physics) {
  const auto& box = problem_.settings.source;
  const Kokkos::View<std::int64_t, DeviceMem> failures(Kokkos::view_alloc(exec_, std::string("keff::source::failures")));
  SampleInitialSource<DeviceExec, Physics> k{params_.geometry, physics, params_.materials.fissionable, state_.source,
                                             failures, {}, {}, {problem_.settings.seed, 0, split_.total(), local_}};
  for (int d = 0; d < 3; ++d) {
    k.lower[d] = box.lower[static_cast<std::size_t>(d)];
    k.upper[d] = box.upper[static_cast<std::size_t>(d)];
  }
  check_source_box(k.lower, k.upper);
  keff::sample_initial_source(exec_, k);
  std::int64_t n_failed = 0;
  Kokkos::deep_copy(exec_, n_failed, failures);
  exec_.fence();
  const std::int64_t failed = comm_.sum(n_failed);
  const std::int64_t total = split_.total();
  if (failed == total) {
    throw RunError("initial source: no fissionable material found in the source box of " + problem_.source_name +
                   " (" + std::to_string(k.max_tries) + " points tried for each of " + std::to_string(failed) +
                   " sites; [settings.source] lower_left/upper_right must overlap a cell filled with fissionable material)");
  }
  if (failed > 0) {
    // Sites that found fuel took at least one try each, those that did not took max_tries: an upper bound
    // of the share of the box that is fissionable.
    const auto found = static_cast<double>(total - failed);
    const double share = found / (found + static_cast<double>(failed) * k.max_tries);
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", share);
    throw RunError("initial source: fissionable material fills only a small part of the source box of " +
                   problem_.source_name + " (at most about " + text + " of it): " + std::to_string(failed) + " of " +
                   std::to_string(total) + " sites found none in " + std::to_string(k.max_tries) +
                   " tries (allowed: a [settings.source] box in which fissionable material fills at least about 1e-3; "
                   "fit lower_left/upper_right to the fuel)");
  }
}

void SourceCycle::sample_initial() {
  Kokkos::Profiling::ScopedRegion region("keff::source::initial");
  with_physics(params_, [&](const auto& physics) { sample_initial_with(physics); });
  if (domains_) route_to_domains();
}

void SourceCycle::restore(const std::vector<Site>& global_source) {
  Kokkos::View<const Site*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> mine(global_source.data() + local_.first,
                                                                             static_cast<std::size_t>(local_.count));
  Kokkos::deep_copy(exec_, state_.source, mine);
  const std::int64_t outside = comm_.sum(count_sites_outside_fissionable(
      exec_, params_.geometry, params_.materials.fissionable, Kokkos::View<const Site*, DeviceMem>(state_.source)));
  if (outside != 0) {
    throw RunError("the statepoint's source bank has " + std::to_string(outside) +
                   " site(s) outside every cell filled with fissionable material: it is not a bank this problem's "
                   "fissions can have made (allowed: a statepoint written by a run of this input)");
  }
  if (domains_) route_to_domains();
}

BatchSource SourceCycle::batch_source() {
  if (domains_) return {state_.domain_source, state_.domain_source_index, domain_source_count_, &feed_};
  return {state_.source, {}, local_.count, &feed_};
}

void SourceCycle::order_bank(Kokkos::View<const Site*, DeviceMem> bank, std::int64_t n) {
  if (domains_) {  // the sites go to the ranks that ran their parents, then are ordered there
    Kokkos::Profiling::ScopedRegion region("keff::domains::route_bank");
    reserve_grow_only(state_.route_dest, n, "keff::source::route_dest");
    reserve_grow_only(state_.route_index, n, "keff::source::route_index");
    const DomainMesh& mesh = domains_->mesh();
    bank_destinations(exec_, bank, n, split_.total(), mesh.replicas * mesh.n_domains(), state_.route_dest,
                      state_.route_index);
    n = router_->route(exec_, bank, state_.route_index, state_.route_dest, n, state_.routed_bank,
                       state_.routed_bank_index);
    bank = state_.routed_bank;
  }
  reserve_sorted_bank(state_, n);
  sort_bank(exec_, bank, n, local_, state_.bank_offsets, state_.bank_sorted);
  exec_.fence();
  ordered_ = n;
}

void SourceCycle::reweight(Kokkos::View<const Real*, DeviceMem> cmfd_source) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::reweight");
  const CmfdMesh& mesh = params_.cmfd_mesh;
  const auto& groups = params_.cmfd_groups;
  Kokkos::deep_copy(exec_, state_.cmfd_counts, Fixed(0));
  score_cmfd_source(exec_, mesh, groups, Kokkos::View<const Site*, DeviceMem>(state_.bank_sorted), ordered_,
                    state_.cmfd_counts);
  Kokkos::deep_copy(exec_, cmfd_counts_host_, state_.cmfd_counts);
  exec_.fence();
  comm_.sum(cmfd_counts_host_.data(), static_cast<int>(cmfd_counts_host_.size()));
  Kokkos::deep_copy(exec_, state_.cmfd_counts, cmfd_counts_host_);
  cmfd_weight_factors(exec_, cmfd_source, Kokkos::View<const Fixed*, DeviceMem>(state_.cmfd_counts), state_.cmfd_factors);
  cmfd_reweight_sites(exec_, mesh, groups, Kokkos::View<const Real*, DeviceMem>(state_.cmfd_factors), state_.bank_sorted,
                      ordered_);
  exec_.fence();
}

// The global bank's size and, with independent populations, where each population's sites begin in it:
// the sites of every rank's population q, ranks in order, follow those of population q - 1. Collective.
Comb SourceCycle::comb(int batch) {
  // One random number per batch and population, the same on every rank: the comb depends only on the
  // global bank.
  Lcg63 rng = history_rng(problem_.settings.seed, RngStream::selection, static_cast<std::uint64_t>(batch), 1, 0);
  const int populations = problem_.settings.populations;
  if (populations == 1) return whole_bank_comb(rng.next(), comm_.sum(ordered_), split_.total());
  Comb c;
  for (int q = 0; q < populations; ++q) c.xi[q] = rng.next();
  c.split = PopulationSplit{populations, split_.total()};
  population_bank_starts(exec_, Kokkos::View<const std::int64_t*, DeviceMem>(state_.bank_offsets), local_, c.split,
                         state_.population_starts);
  Kokkos::deep_copy(exec_, population_counts_host_, state_.population_starts);
  exec_.fence();
  auto* counts = population_counts_host_.data();
  for (int q = 0; q < populations; ++q) counts[q] = counts[q + 1] - counts[q];
  comm_.sum(counts, populations);
  for (int q = 0; q < populations; ++q) c.bank_first[q + 1] = c.bank_first[q] + counts[q];
  for (int q = 0; q < populations && c.m() > 0; ++q) {
    if (counts[q] > 0) continue;
    throw RunError(model::generation_name(problem_.settings, batch) + ": population " + std::to_string(q + 1) + " of " +
                   std::to_string(populations) + " produced no fission sites from its " +
                   std::to_string(split_.total() / populations) +
                   " histories, and a population draws its next source from its own sites alone (allowed: fewer "
                   "settings.populations, or more settings.particles)");
  }
  return c;
}

std::int64_t SourceCycle::post_exchange(int batch) {
  Kokkos::Profiling::ScopedRegion region("keff::source::select");
  const Comb c = comb(batch);
  const std::int64_t m = c.m();
  exchange_.post(exec_, state_.bank_sorted, ordered_, state_.source, split_, c);
  if (m == 0) {  // the global count: every rank throws
    // A few histories can all leak or be captured by chance; thousands of them in a fissionable system
    // cannot, and then the reason is the system's.
    const std::int64_t n = split_.total();
    const std::string n_text = std::to_string(n);
    throw RunError(model::generation_name(problem_.settings, batch) + " produced no fission sites from its " + n_text +
                   " histories: " +
                   (n < few_histories ? "with " + n_text + " histories per batch none may cause a fission by chance "
                                                           "(allowed: enough settings.particles that every batch "
                                                           "banks sites, e.g. 1000), or "
                                      : std::string()) +
                   "the system has no fissionable material reachable by neutrons");
  }
  return m;
}

double SourceCycle::entropy(int batch, std::int64_t sites) {
  Kokkos::Profiling::ScopedRegion region("keff::entropy::compute");
  count_sites_per_bin(exec_, params_.entropy_mesh, Kokkos::View<const Site*, DeviceMem>(state_.bank_sorted), ordered_,
                      state_.entropy_counts);
  exchange_.progress();
  Kokkos::deep_copy(exec_, entropy_host_, state_.entropy_counts);
  exec_.fence();
  comm_.sum(entropy_host_.data(), static_cast<int>(entropy_host_.size()));
  exchange_.progress();
  const std::span<const std::int64_t> counts(entropy_host_.data(), entropy_host_.size());
  if (!entropy_warned_) {
    const std::string warning = entropy_mesh_warning(counts, sites);
    entropy_warned_ = !warning.empty();
    if (entropy_warned_ && comm_.is_root()) std::cerr << "keff: warning: batch " << batch << ": " << warning << "\n";
  }
  return shannon_entropy(counts);
}

void SourceCycle::route_to_domains() {
  Kokkos::Profiling::ScopedRegion region("keff::domains::route_source");
  reserve_grow_only(state_.route_dest, local_.count, "keff::source::route_dest");
  reserve_grow_only(state_.route_index, local_.count, "keff::source::route_index");
  source_destinations(exec_, Kokkos::View<const Site*, DeviceMem>(state_.source), local_, domains_->mesh(),
                      state_.route_dest, state_.route_index);
  domain_source_count_ = router_->route(exec_, state_.source, state_.route_index, state_.route_dest, local_.count,
                                        state_.domain_source, state_.domain_source_index);
}

ExchangeCounts SourceCycle::exchange_report(ExchangeMode mode) const {
  const auto& c = exchange_.counters();
  std::int64_t counts[] = {c.exchanges, c.irecv,      c.isend,      c.testsome,
                           c.arrived_early, c.waitall, c.sites_sent, feed_.taken_early()};
  comm_.sum(counts, static_cast<int>(std::size(counts)));
  return {std::string(name_of(mode)), counts[0] / comm_.size(), counts[1], counts[2], counts[3], counts[4], counts[5],
          counts[6], counts[7]};
}

std::vector<Site> SourceCycle::gather() {
  exchange_.finish();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, state_.source);
  const std::vector<char> all = comm_.gather_bytes(host.data(), local_.count * std::int64_t(sizeof(Site)));
  std::vector<Site> sites(all.size() / sizeof(Site));
  std::memcpy(static_cast<void*>(sites.data()), all.data(), all.size());
  return sites;
}

}  // namespace keff
