#pragma once
// Everything a finished (or interrupted) run reports: filled by src/driver/simulation, written by io/ as the
// JSON summary and the HDF5 statepoint. Plain host data.
#include "kernels/vocabulary/cmfd_options.hpp"
#include "kernels/vocabulary/geometry_faults.hpp"
#include "kernels/vocabulary/site.hpp"

#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace keff {

struct MeanStd {
  double mean = 0;
  // Standard deviation of the mean: NaN (undefined; JSON null, printed "-") with fewer than two
  // batches, never a 0 that would claim an exact value.
  double std = std::numeric_limits<double>::quiet_NaN();
  bool has_std() const { return std == std; }  // not NaN
};

// How much the correlation of successive active batches widens a mean's uncertainty
// (src/host/statistics.hpp, batch_correlation). The naive std assumes independent batches; power
// iteration's batches are not (each batch's source is the last one's fission sites).
struct BatchCorrelation {
  // Integrated autocorrelation time of the batch series, in batches: 1 + 2 x the sum of its
  // autocorrelations over `window` lags; 1 for independent batches. NaN: not estimated (too few batches).
  double autocorrelation_time = std::numeric_limits<double>::quiet_NaN();
  int window = 0;
  // The naive std x sqrt(max(1, autocorrelation_time)): never below the naive std.
  double std_corrected = std::numeric_limits<double>::quiet_NaN();
  // Whether the series is long enough for the estimate itself to be firm: at least
  // reliable_correlation_batches autocorrelation times, with the window closed (statistics.hpp).
  bool reliable = false;
  bool estimated() const { return autocorrelation_time == autocorrelation_time; }
  double factor() const { return estimated() && autocorrelation_time > 1 ? std::sqrt(autocorrelation_time) : 1.0; }
};

// The batches per autocorrelation time from which a correlation estimate is firm (Sokal: a series of at
// least 50 tau; src/host/statistics.hpp sets `reliable` by it), and how much wider than the naive std the
// corrected one must be for the run to warn: the statistics and the reports both read these.
inline constexpr double reliable_correlation_batches = 50;
inline constexpr double correlation_warning_factor = 1.2;

// How a k over active batches was formed; src/host/statistics.hpp (combine_estimators) says when each is used.
enum class KEstimateKind : int { none, combined, mean_of_estimators, collision, absorption, tracklength };
inline constexpr EnumName<KEstimateKind> k_estimate_kind_names[] = {
    {KEstimateKind::none, "none"},
    {KEstimateKind::combined, "combined"},
    {KEstimateKind::mean_of_estimators, "mean_of_estimators"},
    {KEstimateKind::collision, "collision"},
    {KEstimateKind::absorption, "absorption"},
    {KEstimateKind::tracklength, "tracklength"}};
constexpr std::span<const EnumName<KEstimateKind>> enum_names(KEstimateKind) { return k_estimate_kind_names; }

// k over active batches with how it was formed, and why not by the combination when it was not.
struct KEstimate : MeanStd {
  KEstimateKind kind = KEstimateKind::none;
  int batches = 0;     // active batches it is made of
  std::string reason;  // one line; "" when kind is combined
  // The weight of the collision, absorption and track-length estimators in each batch's value: its
  // series is sum_e weights[e] x[e][batch] (the correlation is that series').
  std::array<double, 3> weights{};
  BatchCorrelation correlation;  // estimated for the run's k (BatchRecord::collect), not per batch
  bool combined() const { return kind == KEstimateKind::combined; }
};

// One generation's record (with settings.generations_per_batch = 1, the batch's): its k, entropy and
// fission sites are the generation's; the running k is over the active batches completed so far.
struct BatchResult {
  int batch = 0;       // 1-based
  int generation = 1;  // 1-based within the batch
  bool active = false;
  double k = 0;      // the batch's combined estimate (the collision estimator while the run is inactive)
  double k_collision = 0, k_absorption = 0, k_tracklength = 0;
  double entropy = 0;  // bits
  KEstimate k_running;  // over active batches so far (none while inactive)
  std::int64_t fission_sites = 0;
  double leakage = 0;  // the weight that leaked per unit of the batch's source weight
  // The CMFD solve after this batch (batches from [cmfd] begin): k_cmfd, the entropy of the CMFD
  // source, the solver's iterations. A statepoint keeps k, entropy, iterations and convergence.
  std::optional<CmfdResult> cmfd;
};

// One list of a batch's fields, as f(name, value) in the order the outputs hold them: the statepoint's
// /batches datasets (written, read and checksummed in io/output/statepoint.cpp) and a batch's keys in the
// JSON summary (io/output/summary_json.cpp) iterate it, so a new field is declared above and named here.
// B is BatchResult (readers) or const BatchResult (writers). Of the running k only its value and
// deviation are kept: how it was formed is not, since the estimators' values rebuild it. `cmfd`, there
// only in the batches CMFD solved, has a list of its own.
template <class B, class F>
  requires std::same_as<std::remove_const_t<B>, BatchResult>
void for_each_field(B& b, F&& f) {
  f("batch", b.batch), f("generation", b.generation), f("active", b.active);
  f("k", b.k), f("k_collision", b.k_collision), f("k_absorption", b.k_absorption);
  f("k_tracklength", b.k_tracklength), f("entropy", b.entropy);
  f("k_mean", b.k_running.mean), f("k_std", b.k_running.std);
  f("fission_sites", b.fission_sites), f("leakage", b.leakage);
}

// The fields of a CMFD solve the outputs keep, the same way: the statepoint's /cmfd datasets by these
// names, after the batch each solve belongs to, and a batch's JSON keys after its own. The convergence
// measures and the failure message are the log's.
template <class C, class F>
  requires std::same_as<std::remove_const_t<C>, CmfdResult>
void for_each_field(C& c, F&& f) {
  f("k", c.k), f("entropy", c.entropy);
  f("outer_iterations", c.outer_iterations), f("inner_iterations", c.inner_iterations);
  f("converged", c.converged), f("multigrid", c.multigrid);
}

// One filter of a tally as the outputs describe it: its kind, its row's form and units (written so that
// a reader knows the bins without knowing the kind), its bins and what each bin is.
struct TallyFilterResult {
  std::string kind;                          // kernels/vocabulary/tally_kinds.hpp's name
  std::string form;                          // its row's FilterBins, by name
  std::string units;                         // its row's units ("" but for bounds)
  std::int64_t bins = 1;
  std::array<int, 3> shape{1, 1, 1};         // mesh: bins per axis (x fastest in the bin number)
  std::array<double, 3> lower{}, upper{};    //       its box (+-1e300 on an axis the mesh spans whole)
  std::vector<double> bounds;                // bounds (energy): the bins' edges in `units`, ascending
  std::vector<std::string> names;            // cell, material, universe, cell_instance: each bin's cell (...)
  std::vector<std::array<double, 3>> positions;  // cell_instance: each placement's origin
};

// A tally's results over the active batches: per bin and score, per source particle (like k), the mean
// and the standard deviation of the mean (NaN below two batches), and the raw sums a restart continues
// from. Arrays are shaped [bins of the first filter, ..., bins of the last, scores], the last fastest.
struct TallyResult {
  std::string name;
  std::string estimator;
  std::vector<std::string> scores, units;
  std::vector<TallyFilterResult> filters;
  std::vector<double> mean, std_dev;
  std::vector<double> sum, sum_sq;  // of the per-source-particle batch values
};

// Seconds one phase took over the whole run, across ranks (rank 0's copy; other ranks hold their own
// time in all three).
struct PhaseTiming {
  std::string phase;
  double min = 0, mean = 0, max = 0;
};

// MPI calls of the fission-bank exchange, summed over ranks (the communication benchmark reads these),
// and the source sites the next batch transported while the exchange was still in flight.
struct ExchangeCounts {
  std::string mode;  // "overlapped" | "blocking"
  std::int64_t exchanges = 0, irecv = 0, isend = 0, testsome = 0, arrived_early = 0, waitall = 0, sites_sent = 0;
  std::int64_t sites_transported_early = 0;
};

// The field lists of the reports' records, f(name, value) in the order they are reported: the JSON
// summary's keys (io/output/summary_json.cpp) and the text summary's "name value" lists
// (io/output/summary_text.cpp) both iterate them, so a new field is declared in its record and named in
// its list.
template <class X, class F>
  requires std::same_as<std::remove_const_t<X>, ExchangeCounts>
void for_each_field(X& x, F&& f) {
  f("mode", x.mode), f("exchanges", x.exchanges), f("irecv", x.irecv), f("isend", x.isend);
  f("testsome", x.testsome), f("arrived_early", x.arrived_early), f("waitall", x.waitall);
  f("sites_sent", x.sites_sent), f("sites_transported_early", x.sites_transported_early);
}

// How a run transported: "history" or "event"; for event-based transport, the slots per rank and,
// summed over ranks and batches, the rounds and the queue lengths (particles per event kernel).
struct TransportReport {
  std::string mode = "history";
  std::string sort;    // event-based: the lookup-queue order
  std::string sorter;   // sorted: how (settings.event.sorter)
  std::string reorder;  // sorted: what moved (settings.event.reorder)
  std::int64_t slots = 0;
  std::int64_t rounds = 0, lookups = 0, flights = 0, crossings = 0, collisions = 0;
  // Evaluated data: the most (n,xn) neutrons one batch made on a rank (the secondary stack's high-water
  // mark) and the room for them (kernels/transport/secondary_stack.hpp); 0 and 0 otherwise.
  std::int64_t secondaries_most = 0, secondary_capacity = 0;
};

template <class T, class F>
  requires std::same_as<std::remove_const_t<T>, TransportReport>
void for_each_field(T& t, F&& f) {
  f("mode", t.mode), f("sort", t.sort), f("sorter", t.sorter), f("reorder", t.reorder), f("slots", t.slots);
  f("rounds", t.rounds), f("lookups", t.lookups), f("flights", t.flights), f("crossings", t.crossings);
  f("collisions", t.collisions), f("secondaries_most", t.secondaries_most);
  f("secondary_capacity", t.secondary_capacity);
}

// Domain decomposition: the mesh, and per rank (min / mean / max over ranks) what crossed domain
// borders and where the time went.
struct DomainReport {
  std::array<int, 3> mesh{1, 1, 1};
  int replicas = 1;                 // ranks per domain
  std::int64_t particles_sent = 0;  // over ranks and batches
  std::int64_t messages_sent = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t sites_routed = 0;    // fission and source sites moved between batches
  std::int64_t termination_checks = 0, confirmations = 0;
  PhaseTiming pack, mpi, idle;      // seconds: packing/unpacking, in MPI calls, idle waiting
};

// Its counts; the three timings are listed apart (for_each_timing), as the reports print them as a table.
template <class D, class F>
  requires std::same_as<std::remove_const_t<D>, DomainReport>
void for_each_field(D& d, F&& f) {
  f("mesh", d.mesh), f("replicas", d.replicas), f("particles_sent", d.particles_sent);
  f("messages_sent", d.messages_sent), f("bytes_sent", d.bytes_sent), f("sites_routed", d.sites_routed);
  f("termination_checks", d.termination_checks), f("confirmations", d.confirmations);
}

template <class D, class F>
  requires std::same_as<std::remove_const_t<D>, DomainReport>
void for_each_timing(D& d, F&& f) {
  f("pack", d.pack), f("mpi", d.mpi), f("idle", d.idle);
}

// A run with CMFD: its coarse mesh, groups and settings ([cmfd]), for the outputs.
struct CmfdReport {
  std::array<int, 3> shape{1, 1, 1};
  std::array<double, 3> lower{}, upper{};
  std::array<double, 6> albedo{};     // -x, +x, -y, +y, -z, +z; negative: measured
  int groups = 1;
  std::vector<double> energy_bounds;  // continuous energy
  std::vector<int> collapse;          // multigroup
  int begin = 1;
  int end = 0;                        // the last batch CMFD ran in (or would have)
  bool feedback = false;
  std::string window;                 // "none" | "expanding" | "rolling"
  int window_size = 0;                // rolling
};

template <class C, class F>
  requires std::same_as<std::remove_const_t<C>, CmfdReport>
void for_each_field(C& c, F&& f) {
  f("shape", c.shape), f("lower", c.lower), f("upper", c.upper), f("albedo", c.albedo), f("groups", c.groups);
  f("energy_bounds", c.energy_bounds), f("collapse", c.collapse), f("begin", c.begin), f("end", c.end);
  f("feedback", c.feedback), f("window", c.window), f("window_size", c.window_size);
}

// CMFD's tally window, as a restart needs it (src/cmfd/cmfd_accelerator.hpp): the sum over the window
// and, for a window that drops its oldest batches, the batches in it (oldest first) with their scores,
// each batch's summed over ranks (fixed point, in the order of kernels/cmfd_data.hpp's CmfdTallies).
struct CmfdWindowData {
  std::vector<std::int64_t> sum;
  // The window's parts, oldest first: each one's last batch, the batches it sums (empty: one each, as a
  // rolling window keeps them; an expanding window keeps two parts, model::expanding_window) and its scores.
  std::vector<std::int64_t> batches;
  std::vector<std::int64_t> lengths;
  std::vector<std::int64_t> scores;  // [batches.size()][sum.size()]
  // The last converged solve's flux [g * cells + c], where the next solve starts ([cmfd.solver]
  // warm_start); empty before any solve converged.
  std::vector<double> flux;
};

// What a statepoint holds beyond the results so that a restart continues bit for bit.
// Settings by key, each value as its text ("particles" = "10000"), in the order of their rows.
using SettingValues = std::vector<std::pair<std::string, std::string>>;

struct RestartData {
  std::uint64_t fingerprint = 0;  // of the input (see src/host/fingerprint.hpp); a restart must match it
  double k_prev = 1.0;            // k of the last batch: normalises the next batch's fission sites
  std::optional<CmfdWindowData> cmfd;  // a run with CMFD, once it has tallied
  // The tallies of an active batch under way (settings.generations_per_batch > 1; empty between
  // batches): the sums of its generations' values, every tally's in order, and of their source weights.
  std::vector<double> tally_partial;
  double tally_partial_weight = 0;
};

// Independent populations (settings.populations > 1, kernels/vocabulary/populations.hpp): each
// generation's k estimators per population, and k from the spread of the populations' own k's. A run's
// batches are correlated over more generations than their own series shows; the populations never
// exchange a neutron, so their k's are independent and their spread is an honest uncertainty.
struct PopulationResults {
  int count = 1;
  // [generation][population][collision, absorption, track length], every generation recorded, each per
  // unit of its population's source weight
  std::vector<double> k_generations;
  // Over the active batches: each population's k, weighting its estimators as the run's k does
  // (KEstimate::weights), and their mean with the std of that mean (none before an active batch)
  std::vector<double> k_each;
  MeanStd k;
};

// A lost particle, as the summary lists it (the run keeps the first LostHistory::listed of its own).
struct LostHistory {
  static constexpr std::size_t listed = 100;
  int batch = 0;
  LostParticle particle;
  std::string what;  // why, in words naming the model's cells and surfaces (src/host/geometry_report.hpp)
};

// Whether the fission source was stationary when the active batches began (src/host/stationarity.hpp):
// the drift test of the source entropy's and k's batch series from the first active batch, and the first
// batch from which both series are stationary.
struct Stationarity {
  bool tested = false;          // the run has the batches the test needs from its first active batch
  bool stationary = true;       // the series from the first active batch passed (true when not tested)
  int first_active = 1;         // the batch the test starts from
  int stationary_from = 0;      // the first batch whose tail passes; 0 when none does (or not tested)
  double entropy_drift = std::numeric_limits<double>::quiet_NaN();  // the test's z from first_active
  double k_drift = std::numeric_limits<double>::quiet_NaN();
  std::string message;          // the summary's line: the verdict, and what to set when it fails
};

struct RunResults {
  std::string input;        // input file, or "<default>"
  std::string mode;         // "continuous-energy" | "multigroup"
  std::string energy_grid;  // "hash" | "unionized" | "nuclide" (continuous energy)
  std::string thermal;      // "free_gas" | "none" (continuous energy)
  std::string ncrystal;     // the NCrystal version that evaluated the run's NCrystal materials; "" without any
  std::string ncrystal_data;  // their data: a line "<material>\t<digest>\t<file>" each (ncrystal_data_of)
  // The settings a restart must match (io/input/settings_rows.hpp, settings::restart_values), by key.
  SettingValues settings;
  std::string execution_space;
  int threads = 1, ranks = 1;
  std::uint64_t seed = 0;
  std::int64_t particles = 0;
  int batches = 0, inactive = 0, generations_per_batch = 1;
  int nuclides = 0, gridpoints = 0;

  std::vector<BatchResult> batch;
  MeanStd k_collision, k_absorption, k_tracklength;
  std::array<BatchCorrelation, 3> estimator_correlation;  // collision, absorption, track length
  KEstimate k_combined;  // the run's k: the combination of the three, or the fallback it names
  PopulationResults populations;
  MeanStd leakage;       // the leakage fraction over active batches
  Stationarity stationarity;
  double particles_per_second = 0;        // active batches' transport alone
  double batch_particles_per_second = 0;  // active batches whole: transport, bank phases and reductions
  std::vector<PhaseTiming> timing;  // in report order
  bool synchronized_timers = false; // a barrier before each timed phase (scaling studies)
  ExchangeCounts exchange;
  TransportReport transport;
  std::optional<DomainReport> domains;
  std::optional<CmfdReport> cmfd;
  std::int64_t lost_particles = 0;
  std::vector<LostHistory> lost;  // this run's lost particles, the first LostHistory::listed
  int bank_overflows = 0;  // batches rerun with a larger bank

  std::vector<TallyResult> tallies;  // in input order
  std::string triggers;              // with tally triggers: whether they held, or which did not (one line)
  std::vector<Site> source_bank;  // the source for the batch after the last, in global order
  RestartData restart;
  // The last statepoint's write failed (its message, agreed on every rank): the run's other outputs are
  // still written, then the run ends with this error. Never written itself.
  std::string statepoint_failure;
};

// What ran: the fields of the JSON summary's "run" object and of the statepoint's attributes, in their
// order (the text report prints them in its header, from the problem, before the run).
template <class R, class F>
  requires std::same_as<std::remove_const_t<R>, RunResults>
void for_each_run_field(R& r, F&& f) {
  f("input", r.input), f("mode", r.mode), f("energy_grid", r.energy_grid), f("thermal", r.thermal);
  f("ncrystal", r.ncrystal), f("ncrystal_data", r.ncrystal_data);
  f("execution_space", r.execution_space), f("threads", r.threads), f("ranks", r.ranks), f("seed", r.seed);
  f("particles", r.particles), f("batches", r.batches), f("inactive", r.inactive);
  f("generations_per_batch", r.generations_per_batch), f("nuclides", r.nuclides);
  f("gridpoints", r.gridpoints), f("settings", r.settings);
}

// The run's k by each estimator, f(name, estimate, its batch correlation): the JSON summary's
// "estimators" keys and the text summary's rows, in this order.
template <class R, class F>
  requires std::same_as<std::remove_const_t<R>, RunResults>
void for_each_estimator(R& r, F&& f) {
  f("collision", r.k_collision, r.estimator_correlation[0]);
  f("absorption", r.k_absorption, r.estimator_correlation[1]);
  f("tracklength", r.k_tracklength, r.estimator_correlation[2]);
}

}  // namespace keff
