#include "src/simulation.hpp"

#include "kernels/bank_sort.hpp"
#include "kernels/entropy.hpp"
#include "kernels/grow_only.hpp"
#include "kernels/initial_source.hpp"
#include "kernels/site_check.hpp"
#include "kernels/source_select.hpp"
#include "kernels/transport_event.hpp"
#include "kernels/transport_history.hpp"
#include "io/output.hpp"
#include "src/device_memory.hpp"
#include "src/geometry_report.hpp"
#include "src/interrupt.hpp"
#include "src/memory_check.hpp"
#include "src/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <cstring>
#include <string_view>

namespace keff {

namespace {

std::int64_t bank_capacity(double factor, std::int64_t n_local) {
  return static_cast<std::int64_t>(std::ceil(factor * static_cast<double>(n_local))) + 64;
}

// History-based transport runs a batch in this many kernel launches at least, polling the bank
// exchange in between.
constexpr std::int64_t history_chunks = 8;

// Integer sums, exact in any order.
BatchCounters sum_over_ranks(const Communicator& comm, const BatchCounters& c) {
  std::int64_t v[] = {c.k_collision, c.k_absorption, c.k_tracklength, c.collisions,     c.histories,
                      c.absorbed,    c.leaked,       c.lost,          c.weight_started, c.weight_ended};
  comm.sum(v, static_cast<int>(std::size(v)));
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]};
}

MeshWindow full_window(const MeshSpec& mesh) {
  MeshWindow w;
  for (int a = 0; a < 3; ++a) w.shape[a] = mesh.shape[a];
  return w;
}

std::unique_ptr<DomainDecomposition> make_domains(const model::Problem& p, const Communicator& comm,
                                                  std::int64_t slots, ExchangeMode mode) {
  if (!p.domains) return nullptr;
  return std::make_unique<DomainDecomposition>(
      *p.domains, comm, static_cast<int>(slots),
      mode == ExchangeMode::blocking ? ParticleExchange::Mode::blocking : ParticleExchange::Mode::overlapped);
}

// The lookup-queue order: the input's, or by default sorted on a GPU and unsorted on a CPU.
EventSort event_sort(const model::Settings& s) {
  if (s.event_sort) return *s.event_sort;
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible ? EventSort::none
                                                                               : EventSort::material_energy;
}

TransportStateSizes state_sizes(const model::Settings& s, const ProblemParams& params, std::int64_t histories,
                                std::int64_t event_slots, const DomainDecomposition* domains) {
  TransportStateSizes n;
  n.histories = histories;
  n.bank_capacity = bank_capacity(s.bank_capacity_factor, histories);
  n.tally_mesh = params.tally_mesh;
  n.tally_window = domains ? domains->tally_window(params.tally_mesh) : full_window(params.tally_mesh);
  n.tally_groups = params.tally_groups;
  n.entropy_bins = params.entropy_mesh.n_bins();
  n.max_nuclides = params.materials.max_nuclides;
  n.event_slots = static_cast<int>(event_slots);
  n.event_sort = event_sort(s);
  n.n_materials = static_cast<int>(params.materials.offsets.extent(0)) - 1;
  n.n_groups = params.mode == model::PhysicsMode::multigroup ? params.multigroup.n_groups : 0;
  return n;
}

// The State, once the memory it needs is known to be there (agreed over ranks).
TransportState<DeviceExec> allocate_state(const DeviceExec& exec, const TransportStateSizes& sizes,
                                          std::size_t bytes_per_slot, const ProblemParams& params,
                                          const Communicator& comm, bool allow_oversubscribed) {
  const double sites = (2.0 * static_cast<double>(sizes.histories) + 2.0 * static_cast<double>(sizes.bank_capacity)) *
                       sizeof(Site);
  const double total = transport_state_bytes(sizes, exec.concurrency(), static_cast<double>(bytes_per_slot));
  check_memory(comm, "the transport state", {{"source and fission banks", sites}, {"tallies, scratch and slots", total - sites}},
               static_cast<double>(device_memory_available(exec)), allow_oversubscribed);
  return allocate_transport_state(exec, sizes, params.tally_energy_bounds);
}

// Bytes one event slot takes: its particle, micro-XS row and queue entries.
std::size_t slot_bytes(const DeviceExec& exec, const model::Settings& s, const ProblemParams& params) {
  const auto one = allocate_particle_slots(exec, 1, params.materials.max_nuclides);
  return one.bytes() + sizeof(int) * (event_sort(s) == EventSort::none ? 1 : 3);  // queue, sorted queue, key
}

// Particles in flight per rank: settings.event.slots, or as many as a quarter of the free device
// memory holds, and never more than the rank's histories.
// Event-based transport: asked for, or implied by domain decomposition.
bool event_based(const model::Problem& p) {
  return p.settings.transport == TransportMode::event || (p.domains && !p.settings.transport);
}

std::int64_t event_slot_count(const DeviceExec& exec, const model::Problem& p, std::int64_t histories,
                              std::size_t bytes_per_slot) {
  const auto& s = p.settings;
  if (!event_based(p)) return 0;
  std::int64_t slots = s.event_slots;
  if (slots == 0) {
    const std::size_t budget = device_memory_available(exec) / 4;
    slots = static_cast<std::int64_t>(budget / std::max<std::size_t>(bytes_per_slot, 1));
  }
  return std::clamp<std::int64_t>(slots, 1, std::max<std::int64_t>(histories, 1));
}

// Every phase the summary reports, in report order. Fixed, so that every rank reduces the same list.
constexpr const char* reported_phases[] = {"setup",
                                           "initial source",
                                           "transport inactive",
                                           "transport active",
                                           "bank sort",
                                           "bank exchange post",
                                           "bank exchange wait",
                                           "source routing",
                                           "reductions",
                                           "io"};

}  // namespace

Simulation::Simulation(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                       std::ostream* log, SimulationOptions options)
    : exec_(exec), problem_(problem), comm_(comm), log_(comm.is_root() ? log : nullptr), options_(options),
      params_(build_problem(exec, problem, comm)),
      ce_physics_{params_.nuclides, params_.materials},
      mg_physics_{params_.multigroup},
      split_(problem.settings.particles, comm.size()),
      local_(split_.part(comm.rank())),
      bytes_per_slot_(event_based(problem) ? slot_bytes(exec, problem.settings, params_) : 0),
      event_slots_(event_slot_count(exec, problem, local_.count, bytes_per_slot_)),
      domains_(make_domains(problem, comm, event_slots_, options.exchange)),
      state_(allocate_state(exec, state_sizes(problem.settings, params_, local_.count, event_slots_, domains_.get()),
                            bytes_per_slot_, params_, comm, problem.settings.allow_oversubscribed_memory)),
      exchange_(comm),
      feed_(exchange_),
      tally_(comm, domains_ ? domains_->replicas() : comm.get(), domains_ ? domains_->mesh() : DomainMesh{},
             params_.tally_mesh, state_.mesh.window, params_.tally_groups),
      bank_count_host_("keff::host::bank_count"),
      flux_host_("keff::host::tally_flux", params_.tally_groups, state_.mesh.window.n_bins()),
      fission_host_("keff::host::tally_fission", params_.tally_groups, state_.mesh.window.n_bins()),
      entropy_host_("keff::host::entropy_counts", params_.entropy_mesh.n_bins()),
      k_prev_(problem.settings.initial_k) {
  exec.fence();
  timers_.add("setup", std::chrono::duration<double>(std::chrono::steady_clock::now() - created_).count());
}

RunSetup Simulation::setup() const {
  RunSetup r;
  r.execution_space = DeviceExec::name();
  r.concurrency = exec_.concurrency();
  r.nuclides = params_.n_nuclides;
  r.gridpoints = params_.gridpoints;
  r.local_histories = local_.count;
  r.state_bytes = state_.bytes();
  r.scratch_bytes = state_.workspace.bytes();
  r.event_slots = event_slots_;
  r.bytes_per_slot = bytes_per_slot_;
  return r;
}

BatchCoordinates Simulation::coordinates(int batch) const {
  return {problem_.settings.seed, static_cast<std::uint64_t>(batch), split_.total(), local_};
}

template <class Physics>
void Simulation::sample_initial_source_with(const Physics& physics) {
  const auto& box = problem_.settings.source;
  const Kokkos::View<std::int64_t, DeviceMem> failures(Kokkos::view_alloc(exec_, std::string("keff::source::failures")));
  SampleInitialSource<DeviceExec, Physics> k{params_.geometry, physics, params_.materials.fissionable, state_.source,
                                             failures, {}, {}, coordinates(0)};
  for (int d = 0; d < 3; ++d) {
    k.lower[d] = box.lower[static_cast<std::size_t>(d)];
    k.upper[d] = box.upper[static_cast<std::size_t>(d)];
  }
  keff::sample_initial_source(exec_, k);
  std::int64_t n_failed = 0;
  Kokkos::deep_copy(exec_, n_failed, failures);
  exec_.fence();
  const std::int64_t failed = comm_.sum(n_failed);
  if (failed == split_.total()) {
    throw RunError("initial source: no fissionable material found in the source box of " + problem_.source_name +
                   " (" + std::to_string(k.max_tries) + " points tried for each of " + std::to_string(failed) +
                   " sites; [settings.source] lower_left/upper_right must overlap a cell filled with fissionable material)");
  }
  if (failed > 0) {
    // Sites that found fuel took at least one try each, those that did not took max_tries: an upper bound
    // of the share of the box that is fissionable.
    const auto found = static_cast<double>(split_.total() - failed);
    const double share = found / (found + static_cast<double>(failed) * k.max_tries);
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", share);
    throw RunError("initial source: fissionable material fills only a small part of the source box of " +
                   problem_.source_name + " (at most about " + text + " of it): " + std::to_string(failed) + " of " +
                   std::to_string(split_.total()) + " sites found none in " + std::to_string(k.max_tries) +
                   " tries (allowed: a [settings.source] box in which fissionable material fills at least about 1e-3; "
                   "fit lower_left/upper_right to the fuel)");
  }
}

void Simulation::sample_initial_source() {
  ScopedPhase phase(timers_, "initial source");
  Kokkos::Profiling::ScopedRegion region("keff::source::initial");
  if (params_.mode == model::PhysicsMode::multigroup) {
    sample_initial_source_with(mg_physics_);
  } else {
    sample_initial_source_with(ce_physics_);
  }
  if (domains_) domains_->route_source(exec_, state_.source, local_);
}

template <class Physics>
BatchCounters Simulation::transport_with(const Physics& physics, const BatchControl& control) {
  const TransportContext<DeviceMem, Physics> ctx{params_.geometry, physics,   state_.bank,
                                                 state_.mesh,      state_.lost, control};
  if (event_slots_ > 0) {
    EventStatistics batch;
    BatchCounters sums;
    if (domains_) {
      feed_.reset(domains_->source_count());
      sums = transport_events(exec_,
                              EventTransport<DeviceExec, Physics>{ctx, domains_->source(), domains_->source_index(),
                                                                  state_.slots, state_.queues},
                              feed_, &batch, domains_->particles());
    } else {
      feed_.reset(local_.count);
      sums = transport_events(
          exec_, EventTransport<DeviceExec, Physics>{ctx, state_.source, {}, state_.slots, state_.queues}, feed_, &batch);
    }
    event_stats_.rounds += batch.rounds;
    event_stats_.lookups += batch.lookups;
    event_stats_.flights += batch.flights;
    event_stats_.crossings += batch.crossings;
    event_stats_.collisions += batch.collisions;
    event_stats_.departures += batch.departures;
    return sums;
  }
  feed_.reset(local_.count);
  // Chunks, so that the bank exchange is polled while the sites already here are transported.
  const HistoryTransport<DeviceExec, Physics> kernel{ctx, state_.source, state_.workspace};
  const std::int64_t chunk = std::max<std::int64_t>(1, (local_.count + history_chunks - 1) / history_chunks);
  BatchCounters sums;
  while (!feed_.exhausted()) sums += transport_histories(exec_, kernel, feed_.take(chunk, true));
  return sums;
}

BatchCounters Simulation::transport_batch(int batch) {
  Kokkos::deep_copy(exec_, state_.bank.count, std::int64_t(0));
  Kokkos::deep_copy(exec_, state_.mesh.flux, Fixed(0));
  Kokkos::deep_copy(exec_, state_.mesh.fission, Fixed(0));
  Kokkos::deep_copy(exec_, state_.mesh.outside_window, std::int64_t(0));
  const BatchControl control{coordinates(batch), k_prev_, problem_.settings.max_events};
  const BatchCounters sums = params_.mode == model::PhysicsMode::multigroup ? transport_with(mg_physics_, control)
                                                                           : transport_with(ce_physics_, control);
  exec_.fence();
  return sums;
}

std::int64_t Simulation::read_bank_count() {
  Kokkos::deep_copy(exec_, bank_count_host_, state_.bank.count);
  exec_.fence();
  return bank_count_host_();
}

// The batch's global counters: every history started ends absorbed, leaked or lost, and too many lost
// particles end the run with where one of them was.
void Simulation::check_batch(int batch, const BatchCounters& global) {
  if (global.histories != global.absorbed + global.leaked + global.lost) {
    throw RunError("batch " + std::to_string(batch) + ": " + std::to_string(global.histories) +
                   " histories started but " + std::to_string(global.absorbed) + " absorbed + " +
                   std::to_string(global.leaked) + " leaked + " + std::to_string(global.lost) +
                   " lost ended (particles were not conserved)");
  }
  if (global.weight_started != global.weight_ended) {
    throw RunError("batch " + std::to_string(batch) + ": histories started with weight " +
                   std::to_string(from_fixed<estimator_fraction_bits>(global.weight_started)) + " but ended with " +
                   std::to_string(from_fixed<estimator_fraction_bits>(global.weight_ended)) +
                   " (weight was not conserved)");
  }
  std::int64_t outside = 0;
  Kokkos::deep_copy(exec_, outside, state_.mesh.outside_window);
  exec_.fence();
  if (comm_.sum(outside) != 0) {
    throw RunError("batch " + std::to_string(batch) + ": collisions scored outside the mesh-tally window of their " +
                   "domain (a domain-decomposition bug; nothing was dropped silently)");
  }
  if (domains_) {
    const auto& c = domains_->particles().counters();
    std::int64_t moved[] = {c.particles_sent, c.particles_received};
    comm_.sum(moved, 2);
    if (moved[0] != moved[1]) {
      throw RunError("batch " + std::to_string(batch) + ": " + std::to_string(moved[0]) + " particles sent between " +
                     "domains but " + std::to_string(moved[1]) + " received (particles were not conserved)");
    }
  }
  lost_total_ += global.lost;
  if (lost_total_ <= problem_.settings.max_lost) return;
  // Counts per reason over ranks; the first lost particle of the lowest rank that lost one.
  LostParticles lost = read_lost_record(exec_, state_.lost);
  comm_.sum(lost.per_reason.data(), lost_reason_count);
  const std::string first = comm_.first_error(lost.recorded ? lost_particles_message(problem_, batch, lost_total_, lost) : "");
  throw RunError(first.empty() ? lost_particles_message(problem_, batch, lost_total_, lost) : first);
}

ScopedPhase Simulation::timed(const char* phase) {
  if (options_.sync_timers) comm_.barrier();
  return ScopedPhase(timers_, phase);
}

// Each step below is a kernel launch or a collective; between steps the bank exchange gets a chance to
// progress, so its messages move while this runs rather than only once finish() waits for them.
double Simulation::entropy_of_bank(std::int64_t local_sites) {
  Kokkos::Profiling::ScopedRegion region("keff::entropy::compute");
  count_sites_per_bin(exec_, params_.entropy_mesh, Kokkos::View<const Site*, DeviceMem>(state_.bank_sorted),
                      local_sites, state_.entropy_counts);
  exchange_.progress();
  Kokkos::deep_copy(exec_, entropy_host_, state_.entropy_counts);
  exec_.fence();
  comm_.sum(entropy_host_.data(), static_cast<int>(entropy_host_.size()));
  exchange_.progress();
  return shannon_entropy({entropy_host_.data(), entropy_host_.size()});
}

void Simulation::accumulate_mesh_tally() {
  Kokkos::Profiling::ScopedRegion region("keff::tally::accumulate");
  Kokkos::deep_copy(exec_, flux_host_, state_.mesh.flux);
  Kokkos::deep_copy(exec_, fission_host_, state_.mesh.fission);
  exec_.fence();
  tally_.add_batch(flux_host_, fission_host_, 1.0 / static_cast<double>(problem_.settings.particles),
                   [this] { exchange_.progress(); });
}

BatchResult Simulation::run_batch(int batch) {
  const auto& s = problem_.settings;
  const bool active = batch > s.inactive;
  BatchCounters sums;
  std::int64_t local_sites = 0;
  {
    // Waiting for the previous batch's bank exchange counts as exchange time, not transport time.
    if (options_.sync_timers) comm_.barrier();
    const auto start = std::chrono::steady_clock::now();
    double waited = 0;
    for (;;) {
      sums = transport_batch(batch);
      waited += feed_.wait_seconds();
      sites_transported_early_ += feed_.taken_early();
      local_sites = read_bank_count();
      // Decided on the maximum over ranks, so every rank reruns or none does.
      const std::int64_t worst = comm_.max(local_sites - state_.bank_capacity());
      if (worst <= 0) break;
      // Never silently dropped: every rank reruns the batch with room for what it produced.
      ++bank_overflows_;
      if (log_) {
        *log_ << "  batch " << batch << ": fission bank overflow (" << local_sites << " sites, capacity "
              << state_.bank_capacity() << " on rank 0); rerunning the batch with a larger bank\n";
      }
      const std::int64_t needed = std::max(local_sites, state_.bank_capacity() + worst);
      grow_bank(exec_, state_, grown_capacity(needed));
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timers_.add(active ? "transport active" : "transport inactive", elapsed - waited);
    timers_.add("bank exchange wait", waited);
  }
  {
    const auto t = timed("bank sort");
    Kokkos::View<const Site*, DeviceMem> bank = state_.bank.sites;
    if (domains_) {  // the sites go to the ranks that ran their parents, then are ordered there
      local_sites = domains_->route_bank(exec_, bank, local_sites, split_.total());
      bank = domains_->bank();
      reserve_sorted_bank(exec_, state_, local_sites);
    }
    sort_bank(exec_, bank, local_sites, local_, state_.bank_offsets, state_.bank_sorted);
    exec_.fence();
  }
  // One random number per batch, the same on every rank: the comb depends only on the global bank.
  Lcg63 rng = history_rng(s.seed, RngStream::selection, static_cast<std::uint64_t>(batch), 1, 0);
  const Real xi = rng.next();
  std::int64_t m = 0;
  {
    const auto t = timed("bank exchange post");
    Kokkos::Profiling::ScopedRegion region("keff::source::select");
    m = exchange_.post(exec_, state_.bank_sorted, local_sites, state_.next_source, split_, xi);
  }
  // The next source is the buffer the exchange is filling; the next batch transports its sites as they
  // land (src/source_feed.hpp) and finishes the exchange.
  std::swap(state_.source, state_.next_source);
  if (m == 0) {  // the global count: every rank throws
    throw RunError("batch " + std::to_string(batch) +
                   " produced no fission sites: the system has no fissionable material reachable by neutrons");
  }
  if (options_.exchange == ExchangeMode::blocking) {
    const auto t = timed("bank exchange wait");
    exchange_.finish();
  }
  // Under domain decomposition the next source moves once more, to the domains that contain its sites,
  // after the batch's reductions.

  BatchResult r;
  r.batch = batch;
  r.active = active;
  r.fission_sites = m;
  BatchCounters global;
  {
    const auto t = timed("reductions");
    Kokkos::Profiling::ScopedRegion region("keff::batch::reductions");
    global = sum_over_ranks(comm_, sums);
    exchange_.progress();
    r.entropy = entropy_of_bank(local_sites);
    if (active) accumulate_mesh_tally();
  }
  if (domains_) {
    {
      const auto t = timed("bank exchange wait");
      exchange_.finish();
    }
    const auto t = timed("source routing");
    domains_->route_source(exec_, state_.source, local_);
  }
  check_batch(batch, global);

  const double n = static_cast<double>(s.particles);
  r.k_collision = from_fixed<estimator_fraction_bits>(global.k_collision) / n;
  r.k_absorption = from_fixed<estimator_fraction_bits>(global.k_absorption) / n;
  r.k_tracklength = from_fixed<estimator_fraction_bits>(global.k_tracklength) / n;
  r.k = r.k_collision;
  if (active) {
    ++active_batches_;
    k_active_[0].push_back(r.k_collision);
    k_active_[1].push_back(r.k_absorption);
    k_active_[2].push_back(r.k_tracklength);
    r.k_running = combine_estimators(k_active_);
  }
  k_prev_ = r.k_collision;
  batches_.push_back(r);
  return r;
}

void Simulation::print_header() const {
  if (!log_) return;
  *log_ << " batch   k(batch)    entropy    k(mean) +/- std\n"
        << " -----   --------    -------    ---------------\n";
}

void Simulation::print_row(const BatchResult& r) const {
  if (!log_) return;
  char line[160];
  if (r.active && r.k_running.std > 0) {
    std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f    %8.5f +/- %7.5f\n", r.batch, r.k, r.entropy,
                  r.k_running.mean, r.k_running.std);
  } else if (r.active) {
    std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f    %8.5f\n", r.batch, r.k, r.entropy, r.k_running.mean);
  } else {
    std::snprintf(line, sizeof line, " %5d   %8.5f   %8.4f\n", r.batch, r.k, r.entropy);
  }
  *log_ << line << std::flush;
}

RunResults Simulation::run() {
  Kokkos::Profiling::ScopedRegion region("keff::run");
  if (first_batch_ == 1) sample_initial_source();
  print_header();
  for (int b = first_batch_; b <= problem_.settings.batches; ++b) {
    Kokkos::Profiling::ScopedRegion batch_region("keff::batch");
    print_row(run_batch(b));
    if (statepoint_due(b)) write_statepoint_now();
    if (const int sig = agreed_interrupt(comm_)) {  // SIGINT/SIGTERM on any rank: all stop after this batch
      if (!problem_.settings.statepoint.empty() && !statepoint_due(b)) write_statepoint_now();
      exchange_.finish();  // no message may be left in flight when MPI finalizes
      throw Interrupted(sig, b, problem_.settings.batches, problem_.settings.statepoint);
    }
  }
  {
    const auto t = timed("bank exchange wait");
    exchange_.finish();  // the source after the last batch
  }
  return collect_results(false);
}

void Simulation::restart_from(const RunResults& sp) {
  ScopedPhase phase(timers_, "io");
  const auto n_tally = static_cast<std::size_t>(params_.tally_groups) * static_cast<std::size_t>(params_.tally_mesh.n_bins());
  if (sp.source_bank.size() != static_cast<std::size_t>(problem_.settings.particles) ||
      sp.restart.flux_sum.size() != n_tally || sp.restart.flux_sq.size() != n_tally ||
      sp.restart.fission_sum.size() != n_tally || sp.restart.fission_sq.size() != n_tally) {
    throw RunError("the statepoint's source bank or mesh tally does not match this problem's sizes");
  }
  batches_ = sp.batch;
  first_batch_ = static_cast<int>(batches_.size()) + 1;
  for (auto& k : k_active_) k.clear();
  active_batches_ = 0;
  for (const auto& b : batches_) {
    if (!b.active) continue;
    ++active_batches_;
    k_active_[0].push_back(b.k_collision);
    k_active_[1].push_back(b.k_absorption);
    k_active_[2].push_back(b.k_tracklength);
  }
  k_prev_ = sp.restart.k_prev;
  lost_total_ = sp.lost_particles;
  bank_overflows_ = sp.bank_overflows;
  tally_.restore(sp.restart);
  // This rank's slice of the source, in global order as written.
  Kokkos::View<const Site*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> mine(
      sp.source_bank.data() + local_.first, static_cast<std::size_t>(local_.count));
  Kokkos::deep_copy(exec_, state_.source, mine);
  const std::int64_t outside = comm_.sum(count_sites_outside_fissionable(
      exec_, params_.geometry, params_.materials.fissionable, Kokkos::View<const Site*, DeviceMem>(state_.source)));
  if (outside != 0) {
    throw RunError("the statepoint's source bank has " + std::to_string(outside) +
                   " site(s) outside every cell filled with fissionable material: it is not a bank this problem's "
                   "fissions can have made (allowed: a statepoint written by a run of this input)");
  }
  if (domains_) domains_->route_source(exec_, state_.source, local_);
}

// Collective: min / mean / max of per-rank times, sums of counts.
DomainReport Simulation::domain_report() const {
  DomainReport d;
  const auto& mesh = domains_->mesh();
  d.mesh = {mesh.shape[0], mesh.shape[1], mesh.shape[2]};
  d.replicas = mesh.replicas;
  const auto& c = domains_->particles().counters();
  std::int64_t counts[] = {c.particles_sent, c.messages_sent, c.bytes_sent, domains_->sites_routed(),
                           c.termination_checks, c.confirmations};
  comm_.sum(counts, static_cast<int>(std::size(counts)));
  d.particles_sent = counts[0];
  d.messages_sent = counts[1];
  d.bytes_sent = counts[2];
  d.sites_routed = counts[3];
  d.termination_checks = counts[4] / comm_.size();
  d.confirmations = counts[5] / comm_.size();
  const double local[] = {c.pack_seconds, c.mpi_seconds, c.idle_seconds};
  double lo[3], hi[3], sum[3];
  comm_.reduce_min_max_sum(local, 3, lo, hi, sum);
  d.pack = {"pack", lo[0], sum[0] / comm_.size(), hi[0]};
  d.mpi = {"mpi", lo[1], sum[1] / comm_.size(), hi[1]};
  d.idle = {"idle", lo[2], sum[2] / comm_.size(), hi[2]};
  // Mesh tally memory: device scores and their host copies for the window, statistics for owned bins.
  const auto groups = static_cast<std::size_t>(params_.tally_groups);
  const auto window = static_cast<std::size_t>(state_.mesh.window.n_bins());
  const std::size_t mine = 4 * groups * window * sizeof(Fixed) + tally_.bytes();
  const auto all = static_cast<std::size_t>(params_.tally_mesh.n_bins());
  d.tally_bins_all = static_cast<std::int64_t>(all);
  d.tally_bins_max = comm_.max(static_cast<std::int64_t>(window));
  d.tally_bytes_max = static_cast<std::size_t>(comm_.max(static_cast<std::int64_t>(mine)));
  d.tally_bytes_replicated = 4 * groups * all * sizeof(Fixed) + groups * all * (2 * sizeof(Fixed) + 4 * sizeof(double));
  return d;
}

bool Simulation::statepoint_due(int batch) const {
  const auto& s = problem_.settings;
  if (s.statepoint.empty()) return false;
  return batch == s.batches || (s.statepoint_interval > 0 && batch % s.statepoint_interval == 0);
}

// Rank 0 writes (the bank gathered to it); every rank learns whether that worked before going on, so a
// failed write ends all ranks with rank 0's message instead of leaving them in the next collective.
void Simulation::write_statepoint_now() {
  const auto t = timed("io");
  Kokkos::Profiling::ScopedRegion region("keff::io::statepoint");
  const RunResults res = collect_results(true);
  std::string failure;
  if (comm_.is_root()) {
    try {
      write_statepoint(problem_.settings.statepoint, res);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  failure = comm_.first_error(failure);
  if (!failure.empty()) throw OutputError(failure);
}

RunResults Simulation::collect_results(bool with_bank) {
  const auto& s = problem_.settings;
  RunResults res;
  res.input = problem_.source_name;
  res.mode = name_of(s.mode);
  res.energy_grid = s.mode == model::PhysicsMode::multigroup ? "" : name_of(s.energy_grid);
  res.execution_space = DeviceExec::name();
  res.threads = exec_.concurrency();
  res.ranks = comm_.size();
  res.seed = s.seed;
  res.particles = s.particles;
  res.batches = s.batches;
  res.inactive = s.inactive;
  res.nuclides = params_.n_nuclides;
  res.gridpoints = params_.gridpoints;
  res.batch = batches_;
  res.k_collision = mean_std(k_active_[0]);
  res.k_absorption = mean_std(k_active_[1]);
  res.k_tracklength = mean_std(k_active_[2]);
  res.k_combined = combine_estimators(k_active_);
  res.lost_particles = lost_total_;
  res.bank_overflows = bank_overflows_;

  // Phase times: min, mean and max over ranks, for a fixed list of phases so every rank reduces alike.
  constexpr int n_phases = static_cast<int>(std::size(reported_phases));
  double local[n_phases], lo[n_phases], hi[n_phases], sum[n_phases];
  for (int i = 0; i < n_phases; ++i) local[i] = lo[i] = hi[i] = sum[i] = timers_.get(reported_phases[i]);
  comm_.reduce_min_max_sum(local, n_phases, lo, hi, sum);
  for (int i = 0; i < n_phases; ++i) {
    if (hi[i] > 0) res.timing.push_back({reported_phases[i], lo[i], sum[i] / comm_.size(), hi[i]});
  }
  res.synchronized_timers = options_.sync_timers;
  // The slowest rank sets the pace of a batch.
  double active_time = 0;
  for (int i = 0; i < n_phases; ++i) {
    if (std::string_view(reported_phases[i]) == "transport active") active_time = comm_.is_root() ? hi[i] : local[i];
  }
  res.particles_per_second =
      active_time > 0 ? static_cast<double>(s.particles) * active_batches_ / active_time : 0.0;

  const auto& c = exchange_.counters();
  std::int64_t counts[] = {c.exchanges, c.irecv, c.isend, c.testsome, c.arrived_early, c.waitall, c.sites_sent,
                           sites_transported_early_};
  comm_.sum(counts, static_cast<int>(std::size(counts)));
  res.exchange = {std::string(name_of(options_.exchange)),
                  counts[0] / comm_.size(), counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7]};

  res.transport.mode = name_of(event_slots_ > 0 ? TransportMode::event : TransportMode::history);
  if (event_slots_ > 0) {
    const auto& e = event_stats_;
    std::int64_t v[] = {event_slots_, e.rounds, e.lookups, e.flights, e.crossings, e.collisions};
    comm_.sum(v, static_cast<int>(std::size(v)));
    res.transport = {"event", std::string(name_of(state_.queues.sort)), v[0], v[1], v[2], v[3], v[4], v[5]};
  }

  if (domains_) res.domains = domain_report();

  auto& m = res.mesh;
  for (int d = 0; d < 3; ++d) {
    const auto i = static_cast<std::size_t>(d);
    m.shape[i] = s.tally_mesh.shape[i];
    m.lower[i] = s.tally_mesh.box.lower[i];
    m.upper[i] = s.tally_mesh.box.upper[i];
  }
  if (s.mode == model::PhysicsMode::continuous_energy) m.energy_bounds = s.tally_energy_bounds;
  m.groups = params_.tally_groups;
  res.restart.fingerprint = options_.fingerprint;
  res.restart.k_prev = k_prev_;
  tally_.collect(active_batches_, m, res.restart);  // on rank 0

  if (with_bank) {
    exchange_.finish();  // the source must have landed
    // The source of the next batch, gathered on rank 0 in global (rank) order.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, state_.source);
    const std::vector<char> all = comm_.gather_bytes(host.data(), local_.count * std::int64_t(sizeof(Site)));
    res.source_bank.resize(all.size() / sizeof(Site));
    std::memcpy(static_cast<void*>(res.source_bank.data()), all.data(), all.size());
  }
  return res;
}

}  // namespace keff
