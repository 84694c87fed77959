// The JSON run summary, for scripts that compare runs and machines. nlohmann::json prints each double
// as the shortest text that reads back to the same bits, so values compare exactly after a round trip.
#include "io/atomic_write.hpp"
#include "io/output/output.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <type_traits>

namespace keff {
namespace {

// Ordered: keys appear as listed here ("k" first) and timing phases in report order.
using json = nlohmann::ordered_json;

// A value that is not defined (a deviation of fewer than two batches, a running k before the first
// active batch) is null, never a number that would claim a value.
json defined(double v) { return v == v ? json(v) : json(nullptr); }

// A field of a record's list (run_results.hpp): a real through defined(), an integer or a flag as it is.
template <class T>
json field_json(const T& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return defined(v);
  } else if constexpr (std::is_same_v<T, SettingValues>) {
    json out = json::object();
    for (const auto& [key, value] : v) out[key] = value;
    return out;
  } else {
    return v;
  }
}

// A record as an object of its fields, in the order of its list (run_results.hpp).
template <class R>
json record_json(const R& record) {
  json out = json::object();
  for_each_field(record, [&](const char* name, const auto& v) { out[name] = field_json(v); });
  return out;
}

json mean_std(const MeanStd& m) { return {{"mean", defined(m.mean)}, {"std", defined(m.std)}}; }

// The batch correlation of an estimate: null where it was not estimated.
json correlation_json(const BatchCorrelation& c) {
  return {{"std_corrected", defined(c.std_corrected)},
          {"autocorrelation_time", defined(c.autocorrelation_time)},
          {"window", c.window},
          {"reliable", c.reliable}};
}

json mean_std(const MeanStd& m, const BatchCorrelation& c) {
  json out = mean_std(m);
  out["correlation"] = correlation_json(c);
  return out;
}

// The run's k: mean, std, how it was formed and, when it is not the combination, why; its batch correlation.
// The source's stationarity (src/host/stationarity.hpp); stationary_from null when no tail passed.
json stationarity_json(const Stationarity& s) {
  return {{"tested", s.tested},
          {"stationary", s.stationary},
          {"first_active", s.first_active},
          {"stationary_from", s.stationary_from > 0 ? json(s.stationary_from) : json(nullptr)},
          {"entropy_drift", defined(s.entropy_drift)},
          {"k_drift", defined(s.k_drift)},
          {"message", s.message}};
}

json k_estimate(const KEstimate& k) {
  return {{"mean", defined(k.mean)},
          {"std", defined(k.std)},
          {"estimate", std::string(name_of(k.kind))},
          {"reason", k.reason},
          {"correlation", correlation_json(k.correlation)}};
}

// The key of a CMFD solve's field (run_results.hpp), beside the batch's own: its k named as the batch's
// estimators are (k_collision, ...), the rest prefixed.
std::string cmfd_key(std::string_view field) { return field == "k" ? "k_cmfd" : "cmfd_" + std::string(field); }

// A batch's fields in the order of their list (run_results.hpp), then those of its CMFD solve (batches from
// [cmfd] begin). Its running k is not defined before the first active batch: null there, where the
// statepoint keeps the values as held.
json batch_json(const BatchResult& b) {
  json out = json::object();
  for_each_field(b, [&](const char* name, const auto& v) { out[name] = field_json(v); });
  if (!b.active) out["k_mean"] = out["k_std"] = nullptr;
  if (b.cmfd) {
    for_each_field(*b.cmfd, [&](const char* name, const auto& v) { out[cmfd_key(name)] = field_json(v); });
    if (!b.cmfd->converged) out["cmfd_failure"] = b.cmfd->failure.empty() ? "failed (restored from an older statepoint, which kept no reason)" : b.cmfd->failure;
  }
  return out;
}

json cmfd_json(const std::optional<CmfdReport>& c) { return c ? record_json(*c) : json(nullptr); }

json batches_json(const std::vector<BatchResult>& batches) {
  json out = json::array();
  for (const auto& b : batches) out.push_back(batch_json(b));
  return out;
}

// A filter's description: its kind and bins, and what its kind says of them.
json filter_json(const TallyFilterResult& f) {
  json out = {{"kind", f.kind}, {"form", f.form}, {"bins", f.bins}};
  if (!f.units.empty()) out["units"] = f.units;
  if (carries_mesh_box(f.kind)) {
    out["shape"] = f.shape;
    out["lower"] = f.lower;
    out["upper"] = f.upper;
  }
  if (!f.bounds.empty()) out["bounds"] = f.bounds;
  if (!f.names.empty()) out["names"] = f.names;
  if (!f.positions.empty()) out["positions"] = f.positions;
  return out;
}

// The tallies in input order, each with its results flattened as in the statepoint ([filter bins...,
// scores], the last fastest) and that shape.
json tallies_json(const std::vector<TallyResult>& tallies) {
  json out = json::array();
  for (const auto& t : tallies) {
    json filters = json::array();
    std::vector<std::int64_t> shape;
    for (const auto& f : t.filters) {
      filters.push_back(filter_json(f));
      shape.push_back(f.bins);
    }
    shape.push_back(static_cast<std::int64_t>(t.scores.size()));
    out.push_back({{"name", t.name},
                   {"estimator", t.estimator},
                   {"scores", t.scores},
                   {"units", t.units},
                   {"filters", filters},
                   {"shape", shape},
                   {"mean", t.mean},
                   {"std_dev", t.std_dev}});
  }
  return out;
}

json timing_json(const PhaseTiming& t) { return {{"min", t.min}, {"mean", t.mean}, {"max", t.max}}; }

// The domain mesh and its counts, then per phase the seconds over ranks.
json domains_json(const std::optional<DomainReport>& d) {
  if (!d) return nullptr;
  json out = record_json(*d), seconds = json::object();
  for_each_timing(*d, [&](const char* phase, const PhaseTiming& t) { seconds[phase] = timing_json(t); });
  out["seconds"] = seconds;
  return out;
}

// The run's lost particles as it described them: batch, history, why and where.
json lost_json(const std::vector<LostHistory>& lost) {
  json out = json::array();
  for (const LostHistory& l : lost) {
    const LostParticle& p = l.particle;
    out.push_back({{"batch", l.batch},
                   {"history", p.history},
                   {"reason", std::string(name_of(p.reason))},
                   {"position", {p.r.x, p.r.y, p.r.z}},
                   {"direction", {p.u.x, p.u.y, p.u.z}},
                   {"what", l.what}});
  }
  return out;
}

json summary(const RunResults& r) {
  // Per phase, seconds over the run on the fastest rank, on average and on the slowest.
  json timing = json::object();
  for (const auto& t : r.timing) timing[t.phase] = timing_json(t);
  json estimators = json::object(), run = json::object();
  for_each_estimator(r, [&](const char* name, const MeanStd& m, const BatchCorrelation& c) { estimators[name] = mean_std(m, c); });
  estimators["combined"] = mean_std(r.k_combined);
  for_each_run_field(r, [&](const char* name, const auto& v) { run[name] = field_json(v); });
  json populations = nullptr;
  if (r.populations.count > 1) {
    json each = json::array();
    for (const double k : r.populations.k_each) each.push_back(defined(k));
    populations = {{"count", r.populations.count}, {"k", mean_std(r.populations.k)}, {"k_each", each}};
  }
  return {{"k", k_estimate(r.k_combined)},
          {"populations", populations},
          {"estimators", estimators},
          {"leakage", mean_std(r.leakage)},
          {"stationarity", stationarity_json(r.stationarity)},
          {"batches", batches_json(r.batch)},
          {"particles_per_second", r.particles_per_second},
          {"batch_particles_per_second", r.batch_particles_per_second},
          {"timing", timing},
          {"timing_synchronized", r.synchronized_timers},
          {"bank_exchange", record_json(r.exchange)},
          {"transport", record_json(r.transport)},
          {"domains", domains_json(r.domains)},
          {"cmfd", cmfd_json(r.cmfd)},
          {"run", run},
          {"lost_particles", r.lost_particles},
          {"lost", lost_json(r.lost)},
          {"bank_overflows", r.bank_overflows},
          {"tallies", tallies_json(r.tallies)},
          {"triggers", r.triggers}};
}

}  // namespace

void write_summary_json(const std::string& path, const RunResults& results) {
  // Built before the temporary file exists, so a failure here leaves nothing behind.
  // Invalid UTF-8 (an odd input path) is replaced rather than thrown.
  const std::string text = summary(results).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  detail::write_file_atomically(path, text, "the JSON summary");
}

}  // namespace keff
