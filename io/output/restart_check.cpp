#include "io/output/restart_check.hpp"

#include "io/input/cell_placements.hpp"
#include "io/input/geometry_bounds.hpp"
#include "io/input/input.hpp"
#include "io/input/settings_rows.hpp"
#include "io/library/nuclear_data.hpp"
#include "io/limits.hpp"
#include "io/output/results_check.hpp"
#include "io/printable.hpp"
#include "io/thermal/ncrystal.hpp"
#include "kernels/vocabulary/cmfd_layout.hpp"
#include "kernels/vocabulary/fixed_point_bits.hpp"
#include "kernels/vocabulary/types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace keff {

namespace {

std::string vec_text(const Vec3& v) {
  std::string text = "(";
  text.append(exact_number(v.x)).append(", ").append(exact_number(v.y)).append(", ").append(exact_number(v.z)).append(")");
  return text;
}

// A site's problem, or "" when it is one a fission in this problem can have made.
// `weighted`: a run with CMFD feedback, whose sites carry the weights the feedback gave them.
std::string site_problem(const Site& s, const model::Problem& p, const std::optional<model::Box>& bounds,
                         bool weighted) {
  if (!std::isfinite(s.r.x) || !std::isfinite(s.r.y) || !std::isfinite(s.r.z)) {
    return "position " + vec_text(s.r) + " is not finite";
  }
  if (bounds) {
    for (int d = 0; d < 3; ++d) {
      const auto i = static_cast<std::size_t>(d);
      if (!(s.r[d] >= bounds->lower[i] && s.r[d] <= bounds->upper[i])) {
        return "position " + vec_text(s.r) + " is outside the geometry (allowed: inside its bounding box " +
               vec_text({bounds->lower[0], bounds->lower[1], bounds->lower[2]}) + " to " +
               vec_text({bounds->upper[0], bounds->upper[1], bounds->upper[2]}) + ")";
      }
    }
  }
  const double norm = std::sqrt(s.u.x * s.u.x + s.u.y * s.u.y + s.u.z * s.u.z);
  if (!(std::fabs(norm - 1.0) <= 1e-6)) return "direction " + vec_text(s.u) + " is not a unit vector";
  if (!(s.weight > 0.0 && std::isfinite(s.weight))) return "weight " + exact_number(s.weight) + " is not a finite positive number";
  // The comb gives every source site weight 1 (kernels/source_select.hpp), so a bank of `particles` sites
  // carries the problem's normalisation exactly; one heavier site would bank that many more fission
  // sites per collision (a bank edited to large weights ran without end).
  // With CMFD feedback the sites keep the weights it gave them (src/cmfd/README.md); their total is
  // checked instead (source_problem).
  if (!weighted && !(std::fabs(s.weight - 1.0) <= limits::site_weight_tolerance)) {
    char tolerance[16];
    std::snprintf(tolerance, sizeof tolerance, "%g", limits::site_weight_tolerance);
    return "weight " + exact_number(s.weight) + " is not 1 (allowed: 1 within " + tolerance +
           ", the weight the comb gives every source site)";
  }
  if (p.settings.mode == model::PhysicsMode::multigroup) {
    if (s.group < 0 || s.group >= p.groups) {
      return "group " + std::to_string(s.group) + " is not one of the problem's groups (allowed: 0 to " +
             std::to_string(p.groups - 1) + ")";
    }
  } else if (!(s.energy >= constants::energy_min_ev && s.energy <= constants::energy_max_ev)) {
    return "energy " + exact_number(s.energy) + " eV is outside the continuous-energy range (allowed: " +
           exact_number(constants::energy_min_ev) + " to " + exact_number(constants::energy_max_ev) + " eV)";
  }
  if (s.parent < 0 || s.progeny < 0) return "history keys (parent, progeny) are negative";
  return {};
}

// The settings a restart must match (the rows marked Restart::match, io/input/settings_rows.hpp), the
// statepoint's against this run's, row by row; the fingerprint covers them too, but the file's own values
// could disagree with it.
std::string identity_problem(const RunResults& sp, const model::Settings& s) {
  if (std::string what = settings_agree_problem(sp); !what.empty()) return what;
  for (const auto& ours : settings::restart_values(s)) {
    const std::string& key = ours.first;
    const std::string& value = ours.second;
    const auto theirs = std::find_if(sp.settings.begin(), sp.settings.end(), [&](const auto& kv) { return kv.first == ours.first; });
    if (theirs == sp.settings.end()) {
      return "it holds no settings." + key + " (allowed: this run's " + value + ", a setting a restart matches)";
    }
    if (theirs->second != value) {
      return "its histories ran with settings." + key + " = " + printable_cut(theirs->second, 40) + " (allowed: this run's " +
             value + "; a restart continues the same histories: start a new run, or give the statepoint's value)";
    }
  }
  return {};
}

// Bounds every batch record is held to.
struct BatchLimits {
  double max_k;  // every k a batch can report: see limits::max_k_per_event
  std::int64_t entropy_bins;
  double max_entropy;  // log2(entropy_bins), with room for rounding
};

BatchLimits batch_limits(const model::Settings& s) {
  const std::int64_t entropy_bins = static_cast<std::int64_t>(s.entropy_mesh.shape[0]) * s.entropy_mesh.shape[1] *
                                    s.entropy_mesh.shape[2];
  return {limits::max_k_per_event * static_cast<double>(s.max_events), entropy_bins,
          std::log2(static_cast<double>(entropy_bins)) * (1 + 1e-12)};
}

// Record i: generation i % G + 1 of batch i / G + 1 (G generations per batch), active past the inactive
// batches, with k, entropy, fission sites and, where it ends an active batch, running k in range.
std::string batch_problem(const BatchResult& b, std::size_t i, const model::Settings& s, int inactive,
                          const BatchLimits& bound) {
  const int g = s.generations_per_batch;
  if (std::string what = batch_numbering_problem(b, i, g, inactive); !what.empty()) return what;
  const std::string batch = model::generation_name(static_cast<int>(i) + 1, g) + ": ";
  const std::pair<const char*, double> ks[] = {
      {"k", b.k}, {"k_collision", b.k_collision}, {"k_absorption", b.k_absorption}, {"k_tracklength", b.k_tracklength}};
  for (const auto& [name, v] : ks) {
    if (!(v >= 0.0 && v <= bound.max_k)) {
      return batch + name + " = " + exact_number(v) + " (allowed: a finite k in [0, " + exact_number(bound.max_k) + "]: at most " +
             exact_number(limits::max_k_per_event) + " per event of settings.max_events = " + std::to_string(s.max_events) + ")";
    }
  }
  if (b.k != b.k_collision) {
    return batch + "k = " + exact_number(b.k) + " differs from k_collision = " + exact_number(b.k_collision) +
           " (allowed: equal; a batch's k is its collision estimate)";
  }
  if (!(b.entropy >= 0.0 && b.entropy <= bound.max_entropy)) {
    return batch + "entropy = " + exact_number(b.entropy) + " bits (allowed: 0 to log2(" + std::to_string(bound.entropy_bins) +
           " entropy-mesh bins) = " + exact_number(std::log2(static_cast<double>(bound.entropy_bins))) + ")";
  }
  if (b.fission_sites < 1) {
    return batch + "fission_sites = " + std::to_string(b.fission_sites) +
           " (allowed: at least 1; a batch without fission sites ends the run)";
  }
  const double sd = b.k_running.std;
  const bool sd_ok = !b.k_running.has_std() || (sd >= 0.0 && std::isfinite(sd));  // undefined below 2 batches
  if (b.active && b.generation == g && (!(b.k_running.mean >= 0.0 && b.k_running.mean <= bound.max_k) || !sd_ok)) {
    return batch + "the running k " + exact_number(b.k_running.mean) + " +/- " + exact_number(b.k_running.std) +
           " is not a finite non-negative mean with a finite non-negative (or undefined) deviation";
  }
  return {};
}

// The batch records, and the k that carries on from the last of them.
std::string batches_problem(const RunResults& sp, const model::Settings& s) {
  if (sp.batch.empty()) return "it holds no batch (allowed: a statepoint written after a batch)";
  // inactive = "auto": the inactive batches the run chose (or its bound, not reached yet), which the
  // restart continues with.
  if (s.inactive_automatic && (sp.inactive < limits::min_automatic_inactive || sp.inactive >= s.batches)) {
    return "inactive = " + std::to_string(sp.inactive) + " (allowed with inactive = \"auto\": from " +
           std::to_string(limits::min_automatic_inactive) + " to batches - 1 = " + std::to_string(s.batches - 1) + ")";
  }
  const int inactive = s.inactive_automatic ? sp.inactive : s.inactive;
  const BatchLimits bound = batch_limits(s);
  for (std::size_t i = 0; i < sp.batch.size(); ++i) {
    if (std::string what = batch_problem(sp.batch[i], i, s, inactive, bound); !what.empty()) return what;
  }
  // Each population's k of each generation, in the range of a batch's k.
  const std::vector<double>& k = sp.populations.k_generations;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (!(k[i] >= 0.0 && k[i] <= bound.max_k)) {
      const std::size_t per_generation = 3 * static_cast<std::size_t>(sp.populations.count);
      return model::generation_name(static_cast<int>(i / per_generation) + 1, s.generations_per_batch) + ": population " +
             std::to_string(i % per_generation / 3 + 1) + "'s k estimate " + exact_number(k[i]) +
             " (allowed: 0 to " + exact_number(bound.max_k) + ")";
    }
  }
  // A generation banks w nu Sigma_f / Sigma_t / k_prev sites at each collision, rounded at random: as many as
  // its source weight times its k over the k before it, on average, so no more than 1e9 times that but
  // with a chance below 1e-9 (Markov's inequality). A forged k of 1e-300 in every batch, consistent
  // otherwise, banked 1e300 sites a history in the run that continued it.
  const bool weighted = sp.cmfd && sp.cmfd->feedback;
  const double source = static_cast<double>(s.particles) * (weighted ? limits::max_cmfd_source_weight_ratio : 1.0);
  double k_before = s.initial_k;
  for (std::size_t i = 0; i < sp.batch.size(); ++i) {
    const BatchResult& b = sp.batch[i];
    const double expected = source * b.k_collision / k_before;
    if (!(static_cast<double>(b.fission_sites) * 1e-9 <= expected)) {
      return model::generation_name(static_cast<int>(i) + 1, s.generations_per_batch) + ": fission_sites = " +
             std::to_string(b.fission_sites) + " where its k_collision = " + exact_number(b.k_collision) + " after " +
             exact_number(k_before) + " makes " + exact_number(expected) + " on average (allowed: sites a source of " +
             exact_number(source) + " can bank: below 1e9 times that average, which is the bound of a chance of 1e-9)";
    }
    k_before = b.k_collision;
  }
  // The next batch's fission sites are normalised by the last batch's collision estimate.
  if (sp.restart.k_prev != sp.batch.back().k_collision) {
    return "k_prev = " + exact_number(sp.restart.k_prev) + " differs from the last batch's k_collision = " +
           exact_number(sp.batch.back().k_collision) + " (allowed: equal; it normalises the next batch's fission sites)";
  }
  return {};
}

std::string counts_problem(const RunResults& sp, const model::Settings& s) {
  if (sp.lost_particles < 0 || sp.lost_particles > s.max_lost) {
    return "lost_particles = " + std::to_string(sp.lost_particles) + " (allowed: 0 to settings.max_lost = " +
           std::to_string(s.max_lost) + "; a run that lost more stopped before writing)";
  }
  if (sp.bank_overflows < 0) return "bank_overflows = " + std::to_string(sp.bank_overflows) + " (allowed: a count, >= 0)";
  return {};
}

// The most one history can add to a value of a tally scoring `score` by `estimator`, per unit of its
// source weight: it makes at most settings.max_events flights, each ending in at most one collision, and
//  - a reaction rate adds at most the flight's optical length along a flight (its distance was sampled as
//    -ln(xi) / Sigma_t, below 40 for a double xi), Sigma_x / Sigma_t <= 1 at a collision, 1 an event
//    analog; nu-fission up to max_nu times that (limits::max_k_per_event); events, 1 a collision;
//  - flux adds a flight's length by track length (at most the bounding box's diagonal) and 1 / Sigma_t by
//    collision (multigroup: the smallest Sigma_t of a material; not bounded here in continuous energy).
// Infinity where nothing here bounds it.
double history_score_bound(const model::Problem& p, TallyScore score, TallyEstimator estimator) {
  constexpr double optical_length = limits::max_k_per_event / physical_limits::max_nu;
  const double events = p.settings.max_events;
  if (score == TallyScore::flux) {
    if (estimator == TallyEstimator::tracklength) {
      const auto box = geometry_bounding_box(p);
      if (!box) return HUGE_VAL;
      double diagonal = 0;
      for (int d = 0; d < 3; ++d) {
        const double w = box->upper[static_cast<std::size_t>(d)] - box->lower[static_cast<std::size_t>(d)];
        diagonal += w * w;
      }
      return std::isfinite(diagonal) ? events * std::sqrt(diagonal) : HUGE_VAL;
    }
    if (p.settings.mode != model::PhysicsMode::multigroup) return HUGE_VAL;
    double least = HUGE_VAL;
    for (const model::Material& m : p.materials) {
      for (const double t : m.sigma_t) {
        if (t > 0) least = std::min(least, t);
      }
    }
    return events / least;
  }
  const double per_event = estimator == TallyEstimator::tracklength ? optical_length : 1.0;
  return events * per_event * (score == TallyScore::nu_fission ? physical_limits::max_nu : 1.0);
}

// Each value's bound: what a batch can add per unit of source weight, the least of the fixed-point bound
// and what its histories can score (history_score_bound); scores are a tally's innermost axis.
std::vector<double> value_bounds(const model::Problem& p, const model::Tally& t, std::size_t values) {
  const bool weighted = p.cmfd_feedback();
  const double fixed = max_tally_batch_value(p.settings.particles, weighted);
  std::vector<double> bounds(values);
  for (std::size_t i = 0; i < values; ++i) {
    const double histories = history_score_bound(p, t.scores[i % t.scores.size()], t.estimator) *
                             (weighted ? limits::max_cmfd_source_weight_ratio : 1.0);
    bounds[i] = std::min(fixed, histories);
  }
  return bounds;
}

// How history_score_bound bounds scores, for the messages.
std::string score_bound_words(const model::Problem& p) {
  return ": settings.max_events = " + std::to_string(p.settings.max_events) + " flights and collisions a history, "
         "each scoring at most a flight's optical length (< 40) or 1 a collision, times max_nu = " +
         exact_number(physical_limits::max_nu) + " for nu-fission, and for flux a flight's length, at most the "
         "geometry's diagonal";
}

// The tallies' running sums: this problem's tallies in its order, one sum and one sum of squares per
// value, each pair as the active batches' values make them (tally_sums_problem).
// The tallies of an active batch under way: there only when the last record is an active batch's
// generation other than its last, with a value per tally value, each the sum of that many generations'
// fixed-point sums (non-negative, at most 2^(63 - tally_fraction_bits) each), and their source weight
// (that many generations of settings.particles; with CMFD feedback within its bounds).
std::string partial_batch_problem(const RunResults& sp, const model::Problem& p) {
  const BatchResult& last = sp.batch.back();
  const int generations = last.active && last.generation < p.settings.generations_per_batch ? last.generation : 0;
  std::size_t values = 0;
  for (const TallyResult& t : sp.tallies) values += t.sum.size();
  const std::vector<double>& partial = sp.restart.tally_partial;
  if (generations == 0 || values == 0) {
    if (partial.empty()) return {};
    return "it holds the tallies of a batch under way, but " +
           std::string(values == 0 ? "the problem has no tally" : "its last record ends a batch or is inactive") +
           " (allowed: none)";
  }
  if (partial.size() != values) {
    return "it holds " + std::to_string(partial.size()) + " tally values of the batch under way (allowed: " +
           std::to_string(values) + ", one per tally value)";
  }
  // Each value is `generations` generations' sums over their histories (not yet per unit of weight).
  const double fixed = generations * std::ldexp(1.0, 63 - tally_fraction_bits);
  const double histories = static_cast<double>(generations) * static_cast<double>(p.settings.particles);
  std::size_t at = 0;
  for (const model::Tally& tally : p.tallies) {
    const std::size_t count = sp.tallies[static_cast<std::size_t>(&tally - p.tallies.data())].sum.size();
    const std::vector<double> per_weight = value_bounds(p, tally, count);
    for (std::size_t i = 0; i < count; ++i, ++at) {
      const double most = std::min(fixed, histories * per_weight[i]);
      if (!(partial[at] >= 0.0 && partial[at] <= most)) {
        return "tally value " + std::to_string(at) + " of the batch under way is " + exact_number(partial[at]) +
               " (allowed: 0 to " + exact_number(most) + ", what " + std::to_string(generations) + " generations of " +
               std::to_string(p.settings.particles) + " histories can score" + score_bound_words(p) + ")";
      }
    }
  }
  const bool weighted = p.cmfd_feedback();
  const double w = sp.restart.tally_partial_weight;
  if (weighted ? !(w >= histories / limits::max_cmfd_source_weight_ratio && w <= histories * limits::max_cmfd_source_weight_ratio)
               : w != histories) {
    return "the source weight of the batch under way is " + exact_number(w) + " (allowed: " +
           (weighted ? "within the bounds CMFD feedback keeps of " : "") + exact_number(histories) + ", " +
           std::to_string(generations) + " generations of " + std::to_string(p.settings.particles) + " histories)";
  }
  return {};
}

std::string tallies_problem(const RunResults& sp, const model::Problem& p) {
  if (sp.tallies.size() != p.tallies.size()) {
    return "it holds " + std::to_string(sp.tallies.size()) + " tallies (allowed: this problem's " +
           std::to_string(p.tallies.size()) + ")";
  }
  const std::vector<std::int64_t> placed = placement_counts(p);
  const int active = completed_active_batches(sp);
  for (std::size_t t = 0; t < p.tallies.size(); ++t) {
    const TallyResult& r = sp.tallies[t];
    const std::int64_t values = tally_values(p, p.tallies[t], placed);
    if (r.name != p.tallies[t].name || static_cast<std::int64_t>(r.sum.size()) != values || r.sum_sq.size() != r.sum.size()) {
      return "its tally " + std::to_string(t + 1) + " is '" + printable(r.name) + "' with " + std::to_string(r.sum.size()) +
             " values (allowed: this problem's '" + printable(p.tallies[t].name) + "' with " + std::to_string(values) + ")";
    }
    const std::vector<double> most = value_bounds(p, p.tallies[t], r.sum.size());
    const double fixed = max_tally_batch_value(p.settings.particles, p.cmfd_feedback());
    for (std::size_t i = 0; i < r.sum.size(); ++i) {
      const std::string why = most[i] < fixed ? "what its histories can score" + score_bound_words(p)
                                              : std::string("what a fixed-point batch score holds per unit of source weight");
      if (std::string what = tally_sums_problem(r.sum[i], r.sum_sq[i], active, most[i], why); !what.empty()) {
        return "its tally '" + printable(r.name) + "', value " + std::to_string(i) + " (" +
               std::string(name_of(p.tallies[t].scores[i % p.tallies[t].scores.size()])) + "), " + what;
      }
    }
  }
  return partial_batch_problem(sp, p);
}

// CMFD's window as a flat list in the one order kernels/vocabulary/cmfd_layout.hpp gives.
CmfdLayout cmfd_layout(const model::Cmfd& c) {
  return keff::cmfd_layout(static_cast<std::size_t>(c.n_groups()), c.mesh.shape);
}

// What one batch can score at most, in fixed point: its histories weigh at most `weight` in all and make
// at most settings.max_events flights each, every one a collision at most, a flight no longer than the
// geometry's bounding box (when it has one) and crossing at most every coarse plane once. Fixed point
// rounds each score up by at most one unit.
struct CmfdBounds {
  double collisions = 0, flux = 0, crossings = 0;
};

CmfdBounds cmfd_bounds(const model::Problem& p) {
  const auto& s = p.settings;
  const double weight = static_cast<double>(s.particles) * (p.cmfd->feedback ? limits::max_cmfd_source_weight_ratio : 1.0);
  const double unit = std::ldexp(1.0, cmfd_fraction_bits), flights = static_cast<double>(s.particles) * s.max_events;
  const auto& shape = p.cmfd->mesh.shape;
  const double planes = shape[0] + shape[1] + shape[2] + 3.0;
  CmfdBounds b;
  b.collisions = static_cast<double>(s.max_events) * weight * unit + flights;
  b.crossings = (static_cast<double>(s.max_events) * weight * unit + flights) * planes;
  if (const auto box = geometry_bounding_box(p)) {
    const double dx = box->upper[0] - box->lower[0], dy = box->upper[1] - box->lower[1], dz = box->upper[2] - box->lower[2];
    const double diagonal = std::sqrt(dx * dx + dy * dy + dz * dz);
    // Each segment in a coarse cell is rounded on its own: at most `planes` of them a flight.
    if (std::isfinite(diagonal)) b.flux = static_cast<double>(s.max_events) * weight * diagonal * unit + flights * planes;
  }
  return b;
}

// One set of window values (the sum, or one kept batch's scores, over `batches` batches) as transport can
// have scored them: every value a sum of non-negative scores within what `batches` batches can score
// (cmfd_bounds); per (group, cell) the collisions survived among the collisions (both score each
// collision's weight, rounded alike) and the track-length absorption within the track-length total
// (Sigma_a <= Sigma_t, each segment rounded alike).
std::string cmfd_values_problem(const std::int64_t* v, const CmfdLayout& n, const CmfdBounds& b, double batches) {
  for (std::size_t i = 0; i < n.values(); ++i) {
    if (v[i] < 0) return "value " + std::to_string(i) + " is " + std::to_string(v[i]) + " (allowed: >= 0, a sum of scores)";
  }
  const double unit = std::ldexp(1.0, cmfd_fraction_bits);
  const double most = batches * b.collisions;
  if (b.flux > 0) {
    for (std::size_t i = 0; i < n.size(CmfdArray::flux); ++i) {
      if (static_cast<double>(v[i]) > batches * b.flux) {
        return "flux value " + std::to_string(i) + " is " + exact_number(v[i] / unit) + " (allowed: at most " +
               exact_number(batches * b.flux / unit) + ", the track length " + exact_number(batches) +
               " batches of histories can make, no flight longer than the geometry's bounding box)";
      }
    }
  }
  for (std::size_t i = 0; i < n.size(CmfdArray::current); ++i) {
    const std::int64_t current = v[n.offset(CmfdArray::current) + i];
    if (static_cast<double>(current) > batches * b.crossings) {
      return "current value " + std::to_string(i) + " is " + exact_number(current / unit) + " (allowed: at most " +
             exact_number(batches * b.crossings / unit) + ", the face crossings " + exact_number(batches) +
             " batches of histories can make)";
    }
  }
  for (std::size_t g = 0; g < n.groups; ++g) {
    for (std::size_t c = 0; c < n.cells; ++c) {
      const std::int64_t collisions = v[n.offset(CmfdArray::total) + g * n.cells + c];
      if (static_cast<double>(collisions) > most) {
        return "the collision weight of group " + std::to_string(g) + ", cell " + std::to_string(c) + " is " +
               exact_number(collisions / unit) + " (allowed: at most " + exact_number(most / unit) + ", what " + exact_number(batches) +
               " batches of histories can make in settings.max_events collisions each)";
      }
      std::int64_t survived = 0;
      for (std::size_t h = 0; h < n.groups; ++h) survived += v[n.offset(CmfdArray::scatter) + (g * n.groups + h) * n.cells + c];
      if (survived > collisions) {
        return "group " + std::to_string(g) + ", cell " + std::to_string(c) + ": the collisions survived weigh " +
               exact_number(survived / unit) + ", more than all its collisions, " + exact_number(collisions / unit);
      }
      const std::size_t at = g * n.cells + c;
      if (v[n.offset(CmfdArray::track_absorption) + at] > v[n.offset(CmfdArray::track_total) + at]) {
        return "group " + std::to_string(g) + ", cell " + std::to_string(c) +
               ": the track-length absorption exceeds the track-length total";
      }
    }
  }
  return {};
}

// The parts a window keeps, each by its last batch and length, are the ones its kind keeps after `done`
// batches, CMFD's first being `first`: the last batches one by one (rolling), or the expanding window's
// two parts (model::expanding_window). "" when they are.
std::string cmfd_window_parts_problem(const CmfdWindowData& w, const model::Cmfd& c, int done, int first) {
  std::vector<std::int64_t> last, lengths;  // what the window keeps
  if (c.window == model::CmfdWindow::expanding && done >= first) {
    const int n = done - first + 1;
    const model::ExpandingWindow e = model::expanding_window(n);
    last.push_back(first - 1 + e.split);
    lengths.push_back(e.split - e.first + 1);
    if (n > e.split) {
      last.push_back(done);
      lengths.push_back(n - e.split);
    }
  } else {
    for (std::size_t b = 0; b < w.batches.size(); ++b) {
      last.push_back(done - static_cast<std::int64_t>(w.batches.size() - 1 - b));
      lengths.push_back(1);
    }
  }
  const std::vector<std::int64_t> kept_lengths = w.lengths.empty() ? std::vector<std::int64_t>(w.batches.size(), 1) : w.lengths;
  const bool rolling_too_old = !last.empty() && last.front() < first;
  if (w.batches == last && kept_lengths == lengths && !rolling_too_old) return "";
  // "3 to 4, 6": each part's batches (a forged part's last batch and count as they are).
  const auto list = [](const std::vector<std::int64_t>& ends, const std::vector<std::int64_t>& counts) {
    std::string text;
    for (std::size_t b = 0; b < ends.size(); ++b) {
      const std::int64_t end = ends[b], count = counts[b];
      text += b ? ", " : "";
      if (count == 1) {
        text += std::to_string(end);
      } else if (count > 1 && count <= end) {
        text += std::to_string(end - count + 1) + " to " + std::to_string(end);
      } else {
        text += std::to_string(count) + " ending with " + std::to_string(end);
      }
    }
    return text.empty() ? std::string("none") : text;
  };
  const std::string allowed = c.window == model::CmfdWindow::expanding
                                  ? "the expanding window's parts after batch " + std::to_string(done) + ": " + list(last, lengths)
                                  : "the last " + std::to_string(w.batches.size()) + " batches up to " + std::to_string(done);
  return "batches " + list(w.batches, kept_lengths) + " (allowed: " + allowed + ", from [cmfd] begin = " +
         std::to_string(c.begin) + " (generation " + std::to_string(first) + ") on)";
}

// A statepoint of a run with CMFD: the run continuing it feeds back when it did (its source sites carry
// CMFD's weights), and its tally window is one transport can have summed: each set of values plausible
// (cmfd_values_problem) and, for a window that keeps its batches, those batches the last ones before the
// statepoint, their scores summing to the window exactly.
std::string cmfd_problem(const RunResults& sp, const model::Problem& p) {
  if (sp.cmfd && sp.cmfd->feedback && sp.restart.cmfd && !(p.cmfd_on() && p.cmfd->feedback)) {
    return "it was written by a run with CMFD feedback, whose source sites carry the weights CMFD gave them, and "
           "this run has CMFD " + std::string(p.cmfd_on() ? "feedback off" : "off") +
           " (allowed: continue it with [cmfd] on and feedback = true; a run without CMFD feedback starts afresh)";
  }
  if (!sp.restart.cmfd || !p.cmfd_on()) return {};
  const CmfdWindowData& w = *sp.restart.cmfd;
  const CmfdLayout n = cmfd_layout(*p.cmfd);
  if (w.sum.size() != n.values() || w.scores.size() != w.batches.size() * n.values() ||
      (!w.lengths.empty() && w.lengths.size() != w.batches.size())) {
    return "its CMFD tally window holds " + std::to_string(w.sum.size()) + " values per batch (allowed: " +
           std::to_string(n.values()) + ", this problem's [cmfd] mesh and groups: 5 G C + 2 G^2 C + 2 G F)";
  }
  if (!w.flux.empty()) {  // the warm start: one finite value per group and cell
    if (w.flux.size() != n.size(CmfdArray::flux)) {
      return "its CMFD warm-start flux holds " + std::to_string(w.flux.size()) + " values (allowed: " +
             std::to_string(n.size(CmfdArray::flux)) + ", one per coarse group and cell)";
    }
    if (!std::all_of(w.flux.begin(), w.flux.end(), [](double v) { return std::isfinite(v); })) {
      return "its CMFD warm-start flux is not finite everywhere (allowed: the flux of a converged solve)";
    }
  }
  const CmfdBounds bounds = cmfd_bounds(p);
  // CMFD counts generations (its begin is its first batch's first generation): the records are generations,
  // and the window is as CMFD left it after its end batch.
  const int done = std::min(static_cast<int>(sp.batch.size()), model::first_generation(p.settings, p.cmfd_end() + 1) - 1);
  const int first = model::first_generation(p.settings, p.cmfd->begin);
  if (std::string what = cmfd_window_parts_problem(w, *p.cmfd, done, first); !what.empty()) {
    return "its CMFD tally window keeps " + what;
  }
  // The parts are the window's own (checked above): their lengths are at most the batches done.
  const auto length = [&](std::size_t b) { return w.lengths.empty() ? std::int64_t{1} : w.lengths[b]; };
  std::int64_t summed = w.batches.empty() ? std::max(0, done - first + 1) : 0;
  for (std::size_t b = 0; b < w.batches.size(); ++b) summed += length(b);
  if (std::string what = cmfd_values_problem(w.sum.data(), n, bounds, static_cast<double>(summed)); !what.empty()) {
    return "its CMFD tally window: " + what;
  }
  std::vector<std::int64_t> total(n.values(), 0);
  for (std::size_t b = 0; b < w.batches.size(); ++b) {
    const std::int64_t* scores = w.scores.data() + b * n.values();
    if (std::string what = cmfd_values_problem(scores, n, bounds, static_cast<double>(length(b))); !what.empty()) {
      return "its CMFD tally window, batch " + std::to_string(w.batches[b]) + ": " + what;
    }
    for (std::size_t i = 0; i < n.values(); ++i) total[i] += scores[i];  // each below the bound: no overflow
  }
  if (!w.batches.empty() && total != w.sum) {
    return "its CMFD tally window's sum differs from the sum of the batches it keeps (allowed: equal, exactly)";
  }
  return {};
}

// One site per history of the next batch, each one a fission in this problem can have made, and with CMFD
// feedback a total weight near `particles`.
std::string source_problem(const RunResults& sp, const model::Problem& p) {
  const auto& s = p.settings;
  if (static_cast<std::int64_t>(sp.source_bank.size()) != s.particles) {
    return "the source bank holds " + std::to_string(sp.source_bank.size()) + " sites (allowed: particles = " +
           std::to_string(s.particles) + ", one per history of the next batch)";
  }
  const auto bounds = geometry_bounding_box(p);
  // CMFD feedback reweights the bank before the comb (src/driver/source_cycle.cpp), keeping the bank's total;
  // the comb then takes `particles` of its sites with their weights, so the source's total is `particles`
  // only on average. A statepoint of a feedback run may hold such weights when this run feeds back too.
  const bool weighted = p.cmfd_on() && p.cmfd->feedback && sp.cmfd && sp.cmfd->feedback;
  double total = 0;
  for (std::size_t i = 0; i < sp.source_bank.size(); ++i) {
    if (const std::string what = site_problem(sp.source_bank[i], p, bounds, weighted); !what.empty()) {
      return "source site " + std::to_string(i) + ": " + what;
    }
    total += sp.source_bank[i].weight;
  }
  const double n = static_cast<double>(s.particles), ratio = limits::max_cmfd_source_weight_ratio;
  if (weighted && !(total >= n / ratio && total <= n * ratio)) {
    return "the source sites weigh " + exact_number(total) + " in all (allowed with CMFD feedback: from particles / " +
           exact_number(ratio) + " to particles x " + exact_number(ratio) + ", particles = " + std::to_string(s.particles) +
           ": the feedback keeps the bank's total weight, which the comb samples)";
  }
  return {};
}

}  // namespace

std::string ncrystal_of(const model::Problem& problem) {
  for (const model::Material& m : problem.materials) {
    if (!m.ncrystal.empty()) return ncrystal_version();
  }
  return "";
}

std::string ncrystal_data_of(const model::Problem& problem) {
  std::string data;
  for (const model::Material& m : problem.materials) {
    if (m.ncrystal.empty()) continue;
    char digest[24];
    std::snprintf(digest, sizeof digest, "0x%016llx", static_cast<unsigned long long>(m.ncrystal_opened.data_digest));
    data += m.name + "\t" + digest + "\t" + m.ncrystal_opened.data_source + "\n";
  }
  return data;
}

namespace {

// The lines of ncrystal_data_of as (material, digest, file).
std::vector<std::array<std::string, 3>> ncrystal_data_lines(const std::string& data) {
  std::vector<std::array<std::string, 3>> lines;
  std::size_t at = 0;
  while (at < data.size()) {
    const auto end = std::min(data.find('\n', at), data.size());
    const std::string line = data.substr(at, end - at);
    const auto tab1 = line.find('\t'), tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos) {
      lines.push_back({line, "", ""});
    } else {
      lines.push_back({line.substr(0, tab1), line.substr(tab1 + 1, tab2 - tab1 - 1), line.substr(tab2 + 1)});
    }
    at = end + 1;
  }
  return lines;
}

// Another NCrystal, or other NCrystal data, samples other tables and other scatters: the continued run
// would not be this one. The data are compared by their digests, material by material: the files may
// have moved, their bytes may not have changed.
std::string ncrystal_problem(const RunResults& sp, const model::Problem& p) {
  if (sp.ncrystal != ncrystal_of(p)) {
    const auto text = [](const std::string& v) { return v.empty() ? std::string("no NCrystal") : "NCrystal " + printable_cut(v, 40); };
    return "its histories ran with " + text(sp.ncrystal) + " (allowed: this run's " + text(ncrystal_of(p)) +
           "; continuing would mix the two: start a new run)";
  }
  const auto theirs = ncrystal_data_lines(sp.ncrystal_data), ours = ncrystal_data_lines(ncrystal_data_of(p));
  for (std::size_t i = 0; i < std::max(theirs.size(), ours.size()); ++i) {
    if (i < theirs.size() && i < ours.size() && theirs[i][0] == ours[i][0] && theirs[i][1] == ours[i][1]) continue;
    if (i >= theirs.size() || i >= ours.size() || theirs[i][0] != ours[i][0]) {
      const auto names = [](const std::vector<std::array<std::string, 3>>& lines) {
        std::string text;
        for (const auto& line : lines) text += (text.empty() ? "'" : ", '") + printable_cut(line[0], 60) + "'";
        return text.empty() ? std::string("none") : text;
      };
      return "its NCrystal materials are " + printable_cut(names(theirs), 400) + " (allowed: this run's, " + names(ours) +
             "; continuing would mix two physics: start a new run)";
    }
    // A file by its path (absolute), data NCrystal holds by its words ("NCrystal's standard library").
    const auto from = [](const std::string& source) {
      return source.starts_with("/") ? "'" + printable_cut(source) + "'" : printable_cut(source, 60);
    };
    return "material '" + printable_cut(ours[i][0], 60) + "': its histories ran with NCrystal data " + printable_cut(theirs[i][1], 24) +
           " from " + from(theirs[i][2]) + ", and this run reads " + ours[i][1] + " from " + from(ours[i][2]) +
           " (allowed: the same data, digest for digest; the file changed or another one was found since the "
           "statepoint was written: restore it, or start a new run)";
  }
  return {};
}

}  // namespace

void check_restart_data(const std::string& path, const RunResults& sp, const model::Problem& p) {
  // Each part returns its first problem, "" if none; the first part with one is the one reported.
  std::string what = identity_problem(sp, p.settings);
  if (what.empty()) what = ncrystal_problem(sp, p);
  if (what.empty()) what = batches_problem(sp, p.settings);
  if (what.empty()) what = counts_problem(sp, p.settings);
  if (what.empty()) what = tallies_problem(sp, p);
  if (what.empty()) what = cmfd_problem(sp, p);
  if (what.empty()) what = source_problem(sp, p);
  if (!what.empty()) throw InputError("cannot restart from '" + printable(path) + "': " + what);
}

}  // namespace keff
