#include "src/driver/simulation.hpp"

#include "io/output/output.hpp"
#include "io/test_point.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/stationarity.hpp"
#include "src/host/run_error.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <array>
#include <limits>
#include <new>
#include <cstdint>

namespace keff {

namespace {

// Integer sums, exact in any order: the counters packed in one message, in the order of their list.
BatchCounters sum_over_ranks(const Communicator& comm, const BatchCounters& c) {
  std::array<std::int64_t, BatchCounters::count()> v;
  auto packed = v.begin();
  BatchCounters::for_each_counter([&](auto counter) { *packed++ = c.*counter; });
  comm.sum(v.data(), static_cast<int>(v.size()));
  BatchCounters sum;
  packed = v.begin();
  BatchCounters::for_each_counter([&](auto counter) { sum.*counter = *packed++; });
  return sum;
}

// CMFD runs after every generation: it corrects the source, which every generation makes anew, so a
// batch of G generations gets G corrections, as with one generation per batch (once a batch, it would
// leave the source of G - 1 generations in G uncorrected). It counts generations: [cmfd] begin is
// moved to its batch's first generation and a rolling window's batches become generations.
model::Cmfd cmfd_in_generations(const model::Problem& problem) {
  model::Cmfd c = *problem.cmfd;
  c.begin = model::first_generation(problem.settings, c.begin);
  c.window_size = static_cast<int>(std::min<std::int64_t>(std::int64_t{c.window_size} * problem.settings.generations_per_batch,
                                                          std::numeric_limits<int>::max()));
  return c;
}

}  // namespace

Simulation::Simulation(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                       std::ostream* log, SimulationOptions options)
    : exec_(exec), problem_(problem), comm_(comm), options_(options), log_(comm.is_root() ? log : nullptr),
      split_(problem_.settings.particles, comm.size()),
      params_(build_problem(exec, problem_, comm)),
      plan_(plan_transport(exec, problem_, params_, split_.part(comm.rank()).count)),
      domains_(decompose_domains(problem_, comm, plan_.event_slots, options.exchange)),
      transporter_(exec, problem_, comm, split_, params_, plan_, domains_.get(), log_),
      source_(exec, problem_, comm, split_, params_, domains_.get(), transporter_.bank_capacity()),
      record_(problem_, log_, problem_.cmfd_on()),
      tallies_(problem_, comm, params_.tallies.n_values),
      cmfd_(problem_.cmfd_on() ? std::make_unique<CmfdAccelerator>(
                                     exec, cmfd_in_generations(problem_), params_.cmfd_mesh, params_.cmfd_n_groups, comm,
                                     problem_.settings.generations_per_batch, problem_.settings.allow_oversubscribed_memory)
                               : nullptr) {
  // The input and the command line refuse these; a problem built or resized in code is held to it here,
  // before a history could score outside its population's row.
  if (const std::string why = model::cmfd_batches_problem(problem_); !why.empty()) throw RunError(why);
  if (const std::string why = model::populations_problem(problem_); !why.empty()) {
    throw RunError("settings.populations: " + why + " (allowed: " + model::populations_allowed() +
                   ", and one with [cmfd] feedback in active batches)");
  }
  if (cmfd_) source_.check_cmfd_covers_fuel(*problem_.cmfd);
  exec.fence();
  timers_.add("setup", std::chrono::duration<double>(std::chrono::steady_clock::now() - created_).count());
}

RunSetup Simulation::setup() const {
  RunSetup r = transporter_.setup();
  r.state_bytes += source_.bytes();
  r.tally_values = params_.tallies.n_values;
  r.tally_host_bytes = tallies_.bytes();
  if (cmfd_) r.cmfd = cmfd_footprint(cmfd_in_generations(problem_), params_.cmfd_mesh, params_.cmfd_n_groups);
  return r;
}

ScopedPhase Simulation::timed(const char* phase) {
  if (options_.sync_timers) comm_.barrier();
  return ScopedPhase(timers_, phase);
}

void Simulation::finish_exchange() {
  const auto t = timed("bank exchange wait");
  source_.finish_exchange();
}

void Simulation::sample_initial_source() {
  const auto t = timed("initial source");
  source_.sample_initial();
}

bool Simulation::active(int generation) const {
  return generation >= model::first_generation(problem_.settings, problem_.settings.inactive + 1);
}

bool Simulation::ends_batch(int generation) const { return generation % problem_.settings.generations_per_batch == 0; }

// Waiting inside transport for the previous generation's bank exchange counts as exchange time.
TransportedBatch Simulation::transport(int generation) {
  if (options_.sync_timers) comm_.barrier();
  const auto start = std::chrono::steady_clock::now();
  const TransportedBatch t = transporter_.transport(generation, record_.k_prev(), source_.batch_source(),
                                                    problem_.settings.max_lost - record_.lost());
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timers_.add(active(generation) ? "transport active" : "transport inactive", elapsed - t.exchange_wait);
  timers_.add("bank exchange wait", t.exchange_wait);
  record_.count_reruns(t.reruns);
  return t;
}

BatchResult Simulation::run_batch(int generation) {
  const TransportedBatch transported = transport(generation);
  if (transported.abandoned) stop_inside(generation, transported);
  {
    const auto t = timed("bank sort");
    source_.order_bank(transporter_.bank(), transported.banked);
  }
  std::optional<CmfdResult> cmfd = accelerate(generation);
  std::int64_t sites = 0;
  {
    const auto t = timed("bank exchange post");
    sites = source_.post_exchange(generation);
  }
  if (options_.exchange == ExchangeMode::blocking) finish_exchange();
  BatchCounters global;
  std::span<const Fixed> population_sums;
  double entropy = 0;
  {  // while the exchange is in flight
    const auto t = timed("reductions");
    Kokkos::Profiling::ScopedRegion region("keff::batch::reductions");
    global = sum_over_ranks(comm_, transported.sums);
    population_sums = transporter_.population_sums();
    source_.progress();
    entropy = source_.entropy(generation, sites);
    if (active(generation)) {
      tallies_.add_generation(exec_, transporter_.tally_sums(), source_weight(global), ends_batch(generation),
                              [this] { source_.progress(); });
    }
  }
  if (domains_) {
    finish_exchange();
    const auto t = timed("source routing");
    source_.route_to_domains();
  }
  transporter_.check_conservation(generation, global);
  if (global.lost > 0) record_.note_lost(generation, transporter_.lost_in_batch());
  if (record_.count_lost(global.lost)) throw RunError(transporter_.lost_report(generation, record_.lost()));
  return record_.record(generation, global, population_sums, entropy, sites, std::move(cmfd));
}

// CMFD, in the generations it tallies (cmfd_in_generations): the generation's scores over ranks into the
// window and the solve, then with feedback and a converged solve the ordered bank reweighted to the CMFD
// source (source cycle), before the comb carries it into the next source. The solve goes into the
// generation's record.
std::optional<CmfdResult> Simulation::accelerate(int generation) {
  if (!transporter_.scores_cmfd(generation)) return std::nullopt;
  const auto t = timed("cmfd");
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::batch");
  CmfdResult solved = cmfd_->add_batch(exec_, generation, transporter_.cmfd_scores());
  if (solved.interrupted) stop_before(generation, agreed_interrupt(comm_));
  if (problem_.cmfd->feedback && solved.converged) source_.reweight(cmfd_->source());
  return solved;
}

// Every rank abandoned `generation` part-way: a signal, or some rank lost more particles than the run allows.
void Simulation::stop_inside(int generation, const TransportedBatch& abandoned) {
  if (const int sig = agreed_interrupt(comm_)) stop_before(generation, sig);
  throw RunError(transporter_.lost_report(generation, record_.lost() + comm_.sum(abandoned.lost)));
}

// After signal `sig` inside `generation` (its transport or its CMFD solve) the run stops as it would have
// after the generation before: the source this generation started from is still the source buffer's
// (transport and the bank's order write elsewhere), and the generation has added nothing to the tallies
// or the CMFD window, so the statepoint is that of the previous generation and a restart runs this one
// again, bit for bit.
void Simulation::stop_before(int generation, int sig) {
  const auto& s = problem_.settings;
  const bool resumable = generation > 1 && !s.statepoint.empty();
  if (resumable) write_statepoint_now();
  source_.finish_exchange();  // no message may be left in flight when MPI finalizes
  throw Interrupted(sig, generation - 1, s.batches, resumable ? s.statepoint : "", generation, s.generations_per_batch);
}

RunResults Simulation::run() {
  Kokkos::Profiling::ScopedRegion region("keff::run");
  const auto& s = problem_.settings;
  if (record_.generations_done() == 0) sample_initial_source();
  record_.print_header();
  // b counts generations over the run: with one generation per batch, batches.
  for (int b = record_.generations_done() + 1;; ++b) {
    Kokkos::Profiling::ScopedRegion batch_region("keff::batch");
    const auto start = std::chrono::steady_clock::now();
    const BatchResult result = run_batch(b);
    if (result.active) timers_.add(detail::whole_active_batches, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    record_.print_row(result);
    decide_inactive(b);
    const bool last = !go_on(b);
    // The last statepoint failing (a full disk) loses no result the other outputs can still hold: the
    // run finishes and its caller writes them before ending with the failure. An earlier one ends the run.
    std::string statepoint_failure;
    if (statepoint_due(b, last)) {
      try {
        write_statepoint_now();
      } catch (const OutputError& e) {
        if (!last) throw;
        statepoint_failure = e.what();
      }
    }
    if (test_points_enabled()) test_point("batch:" + std::to_string(b));
    // Once every batch has run, a signal stops nothing: the outputs are finished (the caller says so).
    if (last) enter_finishing_phase();
    if (const int sig = last ? 0 : agreed_interrupt(comm_)) {  // SIGINT/SIGTERM on any rank: all stop after this batch
      if (!s.statepoint.empty() && !statepoint_due(b, last)) write_statepoint_now();
      source_.finish_exchange();  // no message may be left in flight when MPI finalizes
      if (!statepoint_failure.empty()) throw OutputError(statepoint_failure);
      throw Interrupted(sig, b, s.batches, s.statepoint, 0, s.generations_per_batch);
    }
    if (last) {
      finish_exchange();  // the source after the last batch
      RunResults results = collect_results(false);
      results.statepoint_failure = statepoint_failure;
      return results;
    }
  }
}

// Every rank holds the same batch record, so every rank decides alike, with the same bits on any number of
// ranks and threads and in either transport mode; a restart continues with the statepoint's decision.
void Simulation::decide_inactive(int generation) {
  auto& s = problem_.settings;
  if (!s.inactive_automatic || !ends_batch(generation)) return;
  const int batch = generation / s.generations_per_batch;
  if (batch < limits::min_automatic_inactive || batch >= s.inactive) return;
  if (!source_settled(record_.source_series())) return;
  s.inactive = batch;
  if (log_) *log_ << " inactive = \"auto\": the source is stationary over batches " << batch - batch / 2 + 1 << " to " << batch
                  << "; active batches begin\n" << std::flush;
}

// The statepoint was checked against this problem before (io/output/restart_check.hpp).
void Simulation::restart_from(const RunResults& sp) {
  const auto t = timed("io");
  if (problem_.settings.inactive_automatic) problem_.settings.inactive = sp.inactive;
  record_.restore(sp);
  tallies_.restore(sp.tallies, sp.restart);
  if (cmfd_) {
    if (sp.restart.cmfd) {
      cmfd_->restore(*sp.restart.cmfd);
    } else if (record_.generations_done() >= model::first_generation(problem_.settings, problem_.cmfd->begin)) {
      throw RunError("the statepoint holds no CMFD tally window, but CMFD ([cmfd] at " + problem_.cmfd->where.str() +
                     ") tallies from batch " + std::to_string(problem_.cmfd->begin) + " and the statepoint is after " +
                     std::to_string(record_.generations_done()) + " generations (allowed: a statepoint of a run with CMFD on, or --no-cmfd)");
    }
  }
  source_.restore(sp.source_bank);
}

// The run goes on to settings.batches, and past it while a tally trigger fails, to settings.max_batches
// (not when --batches set the end); a batch always to its last generation. Every rank holds the same sums
// (integers summed over ranks), so every rank decides alike.
bool Simulation::go_on(int generation) {
  const auto& s = problem_.settings;
  if (!ends_batch(generation)) return true;
  const int batch = generation / s.generations_per_batch;
  if (batch < s.batches) return true;
  if (s.max_batches == 0) return false;
  triggers_ = tallies_.triggers(record_.active_batches());
  return !triggers_.met && batch < s.max_batches && !s.batches_final;
}

// Every settings.statepoint_interval batches, after the batch's last generation.
bool Simulation::statepoint_due(int generation, bool last) const {
  const auto& s = problem_.settings;
  if (s.statepoint.empty()) return false;
  return last || (s.statepoint_interval > 0 && ends_batch(generation) &&
                  (generation / s.generations_per_batch) % s.statepoint_interval == 0);
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
    } catch (const std::bad_alloc&) {  // the whole file is built in memory before it is written
      failure = "cannot write the statepoint '" + problem_.settings.statepoint +
                "': out of memory while building it (the file is held in memory whole before it is written)";
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  failure = comm_.first_error(failure);
  if (!failure.empty()) throw OutputError(failure);
}

}  // namespace keff
