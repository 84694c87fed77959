#include "src/driver/transporter.hpp"

#include "kernels/grow_only.hpp"
#include "kernels/transport/transport_history.hpp"
#include "src/host/geometry_report.hpp"
#include "src/host/memory_check.hpp"
#include "src/params/device_memory.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>

namespace keff {

namespace {

// History-based transport runs a batch in chunks, polling the bank exchange and the batch watch in
// between: a first one of a history per thread (or 1/1024 of the batch if more), then as many histories
// as about `chunk_seconds` take, at most 1/8 of the batch. A batch of histories that cannot end is seen
// after a few of them; a signal during a big batch waits for one chunk of about a second.
constexpr std::int64_t first_chunk_share = 1024;
constexpr std::int64_t chunks_at_least = 8;
constexpr double chunk_seconds = 1.0;

std::int64_t first_bank_capacity(double factor, std::int64_t histories) {
  return static_cast<std::int64_t>(std::ceil(factor * static_cast<double>(histories))) + 64;
}

// Evaluated data's (n,xn) neutrons per batch before the first overflow: the HEU-metal sphere of
// examples/evaluated/ makes about 4 per 1000 source neutrons (JSON transport.secondaries_most); a batch
// that makes more than 1 in 16 grows the records and runs again.
std::int64_t first_secondary_capacity(const ProblemParams& params, std::int64_t histories) {
  return params.evaluated_data ? histories / 16 + 1024 : 0;
}

// Event-based transport: asked for, or implied by domain decomposition.
bool event_based(const model::Problem& p) {
  return p.settings.transport == TransportMode::event || (p.domains && !p.settings.transport);
}

// The lookup-queue order: the input's, or by default sorted on a GPU (the counting sorter, particles
// moved: the fastest of the five orders on an H100 where lookups dominate, perf/RESULTS.md "On a GPU"),
// and unsorted on a CPU (where a sort the input asks for reorders an index).
EventOrder event_order(const model::Settings& s) {
  const bool cpu = Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible;
  EventOrder order;
  order.sort = s.event_sort.value_or(cpu ? EventSort::none : EventSort::material_energy);
  order.sorter = s.event_sorter;
  order.reorder = s.event_reorder.value_or(cpu ? EventReorder::index : EventReorder::particles);
  return order;
}

TransportStateSizes state_sizes(const model::Settings& s, const ProblemParams& params, std::int64_t histories,
                                std::int64_t event_slots) {
  TransportStateSizes n;
  n.bank_capacity = first_bank_capacity(s.bank_capacity_factor, histories);
  n.secondary_capacity = first_secondary_capacity(params, histories);
  n.tally_values = params.tallies.n_values;
  n.cmfd_mesh = params.cmfd_mesh;
  n.cmfd_groups = params.cmfd_n_groups;
  n.populations = s.populations;
  n.max_nuclides = params.materials.max_nuclides;
  n.event_slots = static_cast<int>(event_slots);
  n.event_order = event_order(s);
  n.n_materials = static_cast<int>(params.materials.offsets.extent(0)) - 1;
  n.n_groups = params.mode == model::PhysicsMode::multigroup ? params.multigroup.n_groups : 0;
  return n;
}

// The State, once the memory it needs is known to be there (agreed over ranks).
TransportState<DeviceExec> allocate_state(const DeviceExec& exec, const TransportStateSizes& sizes,
                                          std::size_t bytes_per_slot, const ProblemParams& params,
                                          const Communicator& comm, bool allow_oversubscribed) {
  const double bank = static_cast<double>(sizes.bank_capacity) * sizeof(Site);
  const double total = transport_state_bytes(exec, sizes, static_cast<double>(bytes_per_slot));
  check_memory(comm, "the transport state", {{"fission bank", bank}, {"tallies, scratch and slots", total - bank}},
               static_cast<double>(device_memory_available(exec)), allow_oversubscribed);
  return allocate_transport_state(exec, sizes, params.cmfd_groups);
}

}  // namespace

TransportPlan plan_transport(const DeviceExec& exec, const model::Problem& problem, const ProblemParams& params,
                             std::int64_t histories) {
  if (!event_based(problem)) return {};
  TransportPlan plan;
  plan.bytes_per_slot = event_slot_bytes(exec, params.materials.max_nuclides, event_order(problem.settings));
  std::int64_t slots = problem.settings.event_slots;
  if (slots == 0) {
    const std::size_t budget = device_memory_available(exec) / 4;
    slots = static_cast<std::int64_t>(budget / std::max<std::size_t>(plan.bytes_per_slot, 1));
  }
  plan.event_slots = std::clamp<std::int64_t>(slots, 1, std::max<std::int64_t>(histories, 1));
  return plan;
}

Transporter::Transporter(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                         const EvenSplit& split, const ProblemParams& params, const TransportPlan& plan,
                         DomainDecomposition* domains, std::ostream* log)
    : exec_(exec), problem_(problem), comm_(comm), split_(split), params_(params), plan_(plan), domains_(domains),
      log_(log),
      state_(allocate_state(exec, state_sizes(problem.settings, params, split.part(comm.rank()).count, plan.event_slots),
                            plan.bytes_per_slot, params, comm, problem.settings.allow_oversubscribed_memory)),
      watch_(exec, state_.lost),
      bank_count_host_("keff::host::bank_count"),
      secondary_count_host_("keff::host::secondary_count"),
      population_sums_host_("keff::host::population_sums", problem.settings.populations),
      populations_{problem.settings.populations, split.total()} {}

template <class Physics>
BatchCounters Transporter::transport_with(const Physics& physics, const BatchControl& control,
                                          const CmfdTally<DeviceMem>& cmfd, const BatchSource& source) {
  const Tallies<DeviceMem> tallies{params_.tallies, state_.tally_sums, state_.tally_copies, state_.tally_per_thread};
  const TransportContext<DeviceMem, Physics> ctx{params_.geometry, physics, state_.bank,
                                                 tallies,
                                                 cmfd, state_.lost, control,
                                                 {state_.population_adds, populations_},
                                                 state_.secondaries};
  SourceFeed& feed = *source.feed;
  feed.reset(source.count);
  if (plan_.event_slots > 0) {
    const EventTransport<DeviceExec, Physics> events{ctx, source.sites, source.index,
                                                      state_.slots, state_.spare_slots, state_.queues};
    EventStatistics batch;
    const BatchCounters sums = domains_ ? transport_events(exec_, events, feed, &batch, domains_->particles(), watch_)
                                        : transport_events(exec_, events, feed, &batch, LocalRouter{}, watch_);
    event_stats_ += batch;
    return sums;
  }
  const HistoryTransport<DeviceExec, Physics> kernel{ctx, source.sites, state_.workspace};
  const std::int64_t least = std::max<std::int64_t>(exec_.concurrency(), source.count / first_chunk_share);
  const std::int64_t most = std::max<std::int64_t>(least, (source.count + chunks_at_least - 1) / chunks_at_least);
  std::int64_t chunk = least;
  BatchCounters sums;
  while (!feed.exhausted() && !watch_()) {
    const auto start = std::chrono::steady_clock::now();
    const IndexRange sites = feed.take(chunk, true);
    sums += transport_histories(exec_, kernel, sites);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double per_second = static_cast<double>(sites.count) / std::max(seconds, 1e-6);
    chunk = std::clamp(static_cast<std::int64_t>(per_second * chunk_seconds), least, most);
  }
  return sums;
}

TransportedBatch Transporter::transport(int batch, std::span<const Real> k_prev, const BatchSource& source,
                                       std::int64_t lost_allowed) {
  BatchControl control{{problem_.settings.seed, static_cast<std::uint64_t>(batch), split_.total(),
                        split_.part(comm_.rank())},
                       populations_};
  std::copy(k_prev.begin(), k_prev.end(), control.k_prev);
  control.max_events = problem_.settings.max_events;
  // CMFD tallies from its first batch on ([cmfd] begin); before it, and without CMFD, nothing is scored.
  CmfdTally<DeviceMem> cmfd = state_.cmfd;
  cmfd.active = scores_cmfd(batch);
  TransportedBatch out;
  for (;;) {
    watch_.start(batch, lost_allowed);
    Kokkos::deep_copy(exec_, state_.bank.count, std::int64_t(0));
    Kokkos::deep_copy(exec_, state_.secondaries.count, std::int64_t(0));
    Kokkos::deep_copy(exec_, state_.lost.listed, 0);
    reset_tally_sums(exec_, state_);
    if (cmfd.active) reset_cmfd_tally(exec_, cmfd);
    if (problem_.settings.populations > 1) reset_scatter_sums(exec_, state_.population_sums, state_.population_adds);
    out.sums = with_physics(params_, [&](const auto& physics) { return transport_with(physics, control, cmfd, source); });
    gather_tally_sums(exec_, state_);
    if (cmfd.active) gather_cmfd_tally(exec_, cmfd);
    if (problem_.settings.populations > 1) gather_scatter_sums(exec_, state_.population_sums, state_.population_adds);
    exec_.fence();
    out.exchange_wait += source.feed->wait_seconds();
    out.banked = read_bank_count();
    const std::int64_t secondaries = read_secondary_count();
    // Decided on the maxima over ranks, so every rank reruns or none does, and abandons or none does.
    std::int64_t agreed[] = {out.banked - state_.bank_capacity(), watch_.stopped() ? 1 : 0,
                             secondaries - state_.secondary_capacity()};
    comm_.max(agreed, 3);
    if (agreed[1] > 0) {
      out.abandoned = true;
      out.lost = watch_.lost_since_start();
      return out;
    }
    const std::int64_t worst = agreed[0], worst_secondaries = agreed[2];
    if (worst <= 0 && worst_secondaries <= 0) {
      secondary_high_water_ = std::max(secondary_high_water_, secondaries);
      return out;
    }
    ++out.reruns;
    const std::string at = "  " + model::generation_name(problem_.settings, batch);
    if (worst > 0) {
      if (log_) {
        *log_ << at << ": fission bank overflow (" << out.banked << " sites, capacity " << state_.bank_capacity()
              << " on rank 0); rerunning the batch with a larger bank\n";
      }
      grow_bank(std::max(out.banked, state_.bank_capacity() + worst));
    }
    if (worst_secondaries > 0) {
      if (log_) {
        *log_ << at << ": secondary neutrons overflow (" << secondaries << ", capacity " << state_.secondary_capacity()
              << " on rank 0); rerunning the batch with room for more\n";
      }
      grow_secondaries(std::max(secondaries, state_.secondary_capacity() + worst_secondaries));
    }
  }
}

void Transporter::grow_secondaries(std::int64_t needed) {
  const std::int64_t capacity = grown_capacity(needed);
  const double more = static_cast<double>(capacity - state_.secondary_capacity()) * sizeof(SecondaryRecord);
  check_memory(comm_, "the secondary neutrons' growth", {{"secondary neutrons", more}},
               static_cast<double>(device_memory_available(exec_)), problem_.settings.allow_oversubscribed_memory);
  keff::grow_secondaries(exec_, state_, capacity);
}

std::int64_t Transporter::read_secondary_count() const {
  Kokkos::deep_copy(exec_, secondary_count_host_, state_.secondaries.count);
  exec_.fence();
  return secondary_count_host_();
}

// The bank and, in the source cycle, its ordered copy grow together; the memory for both is checked
// first, so a bank that outgrows the machine ends the run with a message, not a failed allocation.
void Transporter::grow_bank(std::int64_t needed) {
  const std::int64_t capacity = grown_capacity(needed);
  const double more = static_cast<double>(capacity - state_.bank_capacity()) * sizeof(Site);
  check_memory(comm_, "the fission bank's growth", {{"fission bank", more}, {"its ordered copy", more}},
               static_cast<double>(device_memory_available(exec_)), problem_.settings.allow_oversubscribed_memory);
  keff::grow_bank(exec_, state_, capacity);
}

std::span<const Fixed> Transporter::population_sums() {
  if (problem_.settings.populations < 2) return {};
  Kokkos::deep_copy(exec_, population_sums_host_, state_.population_sums);
  exec_.fence();
  comm_.sum(population_sums_host_.data(), static_cast<int>(population_sums_host_.size()));
  return {population_sums_host_.data(), population_sums_host_.size()};
}

std::int64_t Transporter::read_bank_count() const {
  Kokkos::deep_copy(exec_, bank_count_host_, state_.bank.count);
  exec_.fence();
  return bank_count_host_();
}

void Transporter::check_conservation(int batch, const BatchCounters& global) const {
  const std::string at = model::generation_name(problem_.settings, batch) + ": ";
  if (global.histories + global.secondaries != global.absorbed + global.leaked + global.lost) {
    throw RunError(at + std::to_string(global.histories) + " histories and " + std::to_string(global.secondaries) +
                   " secondaries started but " + std::to_string(global.absorbed) + " absorbed + " +
                   std::to_string(global.leaked) + " leaked + " + std::to_string(global.lost) +
                   " lost ended (particles were not conserved)");
  }
  if (global.weight_started + global.weight_secondary != global.weight_ended) {
    throw RunError(at + "histories started with weight " +
                   std::to_string(from_fixed<estimator_fraction_bits>(global.weight_started)) + " and secondaries with " +
                   std::to_string(from_fixed<estimator_fraction_bits>(global.weight_secondary)) + " but ended with " +
                   std::to_string(from_fixed<estimator_fraction_bits>(global.weight_ended)) +
                   " (weight was not conserved)");
  }
  if (domains_) {
    const auto& c = domains_->particles().counters();
    std::int64_t moved[] = {c.particles_sent, c.particles_received};
    comm_.sum(moved, 2);
    if (moved[0] != moved[1]) {
      throw RunError(at + std::to_string(moved[0]) + " particles sent between domains but " + std::to_string(moved[1]) +
                     " received (particles were not conserved)");
    }
  }
}

std::vector<LostParticle> Transporter::lost_in_batch() const {
  const LostParticles mine = read_lost_record(exec_, state_.lost);
  const std::vector<char> bytes =
      comm_.gather_bytes(mine.batch.data(), static_cast<std::int64_t>(mine.batch.size() * sizeof(LostParticle)));
  if (!comm_.is_root()) return {};
  std::vector<LostParticle> all(bytes.size() / sizeof(LostParticle));
  std::memcpy(all.data(), bytes.data(), all.size() * sizeof(LostParticle));
  std::sort(all.begin(), all.end(), [](const LostParticle& a, const LostParticle& b) { return a.history < b.history; });
  return all;
}

// Counts per reason over ranks; the first lost particle of the lowest rank that lost one. Collective.
std::string Transporter::lost_report(int batch, std::int64_t lost_total) const {
  LostParticles lost = read_lost_record(exec_, state_.lost);
  comm_.sum(lost.per_reason.data(), lost_reason_count);
  const std::string first =
      comm_.first_error(lost.recorded ? lost_particles_message(problem_, batch, lost_total, lost) : "");
  return first.empty() ? lost_particles_message(problem_, batch, lost_total, lost) : first;
}

TransportReport Transporter::report() const {
  TransportReport r;
  r.mode = name_of(plan_.event_slots > 0 ? TransportMode::event : TransportMode::history);
  std::int64_t most[] = {secondary_high_water_, state_.secondary_capacity()};
  comm_.max(most, 2);
  r.secondaries_most = most[0];
  r.secondary_capacity = most[1];
  if (plan_.event_slots == 0) return r;
  const auto& e = event_stats_;
  std::int64_t v[] = {plan_.event_slots, e.rounds, e.lookups, e.flights, e.crossings, e.collisions};
  comm_.sum(v, static_cast<int>(std::size(v)));
  const auto& q = state_.queues;
  const bool sorted = q.order.sorted();
  const std::string sorter = sorted ? std::string(name_of(q.order.sorter)) : "";
  const std::string reorder = sorted ? std::string(name_of(q.order.reorder)) : "";
  return {r.mode, std::string(name_of(q.order.sort)), sorter, reorder, v[0], v[1], v[2], v[3], v[4], v[5],
          r.secondaries_most, r.secondary_capacity};
}

RunSetup Transporter::setup() const {
  RunSetup r;
  r.execution_space = DeviceExec::name();
  r.concurrency = exec_.concurrency();
  r.nuclides = params_.n_nuclides;
  r.gridpoints = params_.gridpoints;
  if (params_.evaluated_data) {
    std::string tables;
    char text[160];
    for (const EvaluatedTableUsed& u : params_.evaluated_tables) {
      std::snprintf(text, sizeof text, "%s%s (%s, %.1f K)", tables.empty() ? "" : ", ", u.name.c_str(), u.zaid.c_str(),
                    u.temperature_k);
      tables += text;
    }
    std::snprintf(text, sizeof text, "; probability tables %s, %.1f MB", params_.ptables ? "on" : "off (ptables = false)",
                  static_cast<double>(params_.evaluated_bytes) / 1e6);
    r.evaluated_library = "'" + params_.xsdir + "': " + tables + text;
  }
  r.thermal_tables = params_.thermal_tables;
  r.thermal_table_bytes = params_.thermal_table_bytes;
  r.thermal_table_seconds = params_.thermal_table_seconds;
  r.local_histories = split_.part(comm_.rank()).count;
  r.state_bytes = state_.bytes();
  r.scratch_bytes = state_.workspace.bytes();
  r.event_slots = plan_.event_slots;
  r.bytes_per_slot = plan_.bytes_per_slot;
  return r;
}

}  // namespace keff
