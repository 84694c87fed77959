// The run summary as text (summary_text.hpp). The exchanges, event transport and domains are printed
// from their field lists, by the JSON summary's names, so a field added to a list reaches both reports.
#include "io/output/summary_text.hpp"
#include "io/output/results_check.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <type_traits>

namespace keff {

std::string format_k(const MeanStd& k) {
  char text[64];
  if (k.has_std()) {
    std::snprintf(text, sizeof text, "%8.5f +/- %7.5f", k.mean, k.std);
  } else {
    std::snprintf(text, sizeof text, "%8.5f +/- %7s", k.mean, "-");
  }
  return text;
}

std::string format_correlation(const BatchCorrelation& c) {
  if (!c.estimated() || !(c.factor() > 1.0)) return {};
  char text[96];
  std::snprintf(text, sizeof text, "  (correlated: +/- %7.5f, autocorrelation time %.3g batches)", c.std_corrected,
                c.autocorrelation_time);
  return text;
}

std::string correlation_warning(const KEstimate& k) {
  const BatchCorrelation& c = k.correlation;
  if (!c.estimated() || !(c.factor() > correlation_warning_factor)) return {};
  char text[512];
  std::snprintf(text, sizeof text,
                "successive batches are correlated (integrated autocorrelation time %.3g batches over %d lags): "
                "+/- %.5f assumes independent batches and understates k's uncertainty; quote +/- %.5f (x%.2f)",
                c.autocorrelation_time, c.window, k.std, c.std_corrected, c.factor());
  std::string out = text;
  if (!c.reliable) {
    std::snprintf(text, sizeof text,
                  ". %d active batches are fewer than %.0f autocorrelation times (or the window did not close), so "
                  "the uncertainty may be larger still: run more batches",
                  k.batches, reliable_correlation_batches);
    out += text;
  }
  // What measures it whatever the run's length (perf/RESULTS.md, "Independent populations").
  return out + "; settings.populations = 8 (independent populations, without CMFD feedback) gives an uncertainty "
               "that covers it";
}

std::string correlation_note(const KEstimate& k) {
  const BatchCorrelation& c = k.correlation;
  if (!c.estimated() || c.reliable || c.factor() > correlation_warning_factor) return {};
  char text[320];
  std::snprintf(text, sizeof text,
                "%d active batches look independent (x%.2f found), but measuring that firmly takes %.0f "
                "autocorrelation times: if they are correlated after all, +/- is too small (more batches tell, or "
                "settings.populations = 8 measures it)",
                k.batches, c.factor(), reliable_correlation_batches);
  return text;
}

namespace {

// A field's value as the text reports print it: integers and words as they are, a mesh's shape "2 x 2 x 1".
template <class T>
std::string field_text(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) return v;
  else if constexpr (std::is_same_v<T, std::array<int, 3>>) {
    return std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " + std::to_string(v[2]);
  } else return std::to_string(v);
}

// "name value, name value, ...": a record's fields by their list (run_results.hpp), but words left empty.
template <class R>
std::string fields_text(const R& record) {
  std::string text;
  for_each_field(record, [&](const char* name, const auto& v) {
    const std::string value = field_text(v);
    if (value.empty()) return;
    if (!text.empty()) text.append(", ");
    text.append(name).append(" ").append(value);
  });
  return text;
}

void print_timing_row(std::ostream& os, const std::string& phase, const PhaseTiming& t) {
  char line[128];
  std::snprintf(line, sizeof line, "   %-20s %10.4f %10.4f %10.4f\n", phase.c_str(), t.min, t.mean, t.max);
  os << line;
}

// CMFD's solves over the run: k_cmfd of the last, the solver's work per solve, and which were preconditioned
// by the multigrid ("auto" chooses per solve).
void print_cmfd_summary(std::ostream& os, const RunResults& r) {
  if (!r.cmfd) return;
  int solves = 0, failed = 0, last_good = 0, multigrid = 0;
  double outer = 0, inner = 0, k = 0;
  std::string first_failure;
  for (const auto& b : r.batch) {
    if (!b.cmfd) continue;
    ++solves;
    outer += b.cmfd->outer_iterations;
    inner += b.cmfd->inner_iterations;
    multigrid += b.cmfd->multigrid ? 1 : 0;
    if (b.cmfd->converged) {
      k = b.cmfd->k;
      last_good = b.batch;
    } else if (++failed == 1) {
      first_failure = "batch " + std::to_string(b.batch) + ": " + b.cmfd->failure;
    }
  }
  if (solves == 0) return;
  char line[240];
  if (last_good > 0) {
    std::snprintf(line, sizeof line, "\n CMFD: k_cmfd %.5f after batch %d; ", k, last_good);
  } else {
    std::snprintf(line, sizeof line, "\n CMFD: no solve succeeded; ");
  }
  os << line;
  std::snprintf(line, sizeof line, "%d solves (%d failed), per solve %.3g power and %.3g GMRES iterations", solves,
                failed, outer / solves, inner / solves);
  os << line;
  if (multigrid == solves) {
    os << ", the multigrid preconditioner\n";
  } else if (multigrid > 0) {
    os << ", the multigrid preconditioner in " << multigrid << " of them\n";
  } else {
    os << "\n";
  }
  if (failed > 0) os << "   first failure: " << first_failure << "\n";
  if (failed == solves) {
    os << "   warning: CMFD did nothing in this run (every solve failed): the run is plain Monte Carlo\n";
  }
}

// Each tally in a line: its size and estimator, and per score the largest relative error over its bins
// (the precision a user reads first); then whether the triggers held.
void print_tally_summary(std::ostream& os, const RunResults& r) {
  if (r.tallies.empty()) return;
  os << "\n Tallies (keff tally show STATEPOINT [NAME] prints them; per source particle)\n";
  for (const TallyResult& t : r.tallies) {
    std::int64_t bins = 1;
    for (const auto& f : t.filters) bins *= f.bins;
    os << "   " << t.name << ": " << bins << " bin(s), " << t.estimator << "; max relative error";
    for (std::size_t k = 0; k < t.scores.size(); ++k) {
      double worst = 0;
      for (std::size_t v = k; v < t.mean.size(); v += t.scores.size()) {
        if (t.mean[v] > 0) worst = std::max(worst, t.std_dev[v] / t.mean[v]);
      }
      char text[64];
      std::snprintf(text, sizeof text, "%s %s %.3g", k == 0 ? "" : ",", t.scores[k].c_str(), worst);
      os << text;
    }
    os << "\n";
  }
  if (!r.triggers.empty()) os << "   triggers: " << r.triggers << "\n";
}

}  // namespace

void write_summary_text(std::ostream& os, const RunResults& r) {
  char line[200];
  os << "\n Results over " << completed_active_batches(r) << " active batches";
  if (r.generations_per_batch > 1) os << " of " << r.generations_per_batch << " generations";
  os << "\n";
  const auto row = [&](const std::string& name, const MeanStd& m, const BatchCorrelation& c = {}) {
    std::snprintf(line, sizeof line, "   %-16s %s%s\n", name.c_str(), format_k(m).c_str(), format_correlation(c).c_str());
    os << line;
  };
  // With populations their spread is the uncertainty to quote, so it comes first.
  const auto& p = r.populations;
  if (p.count > 1) {
    row("k (populations)", p.k);
    os << "     the mean and spread of " << p.count
       << " independent populations' k: quote this; the batches' std below misses their correlation\n";
  }
  // The run's k: the combination, or the fallback it names with the reason (src/host/statistics.hpp).
  const auto& k = r.k_combined;
  row(k.combined() ? std::string("k (combined)")
                   : "k (" + std::string(k.kind == KEstimateKind::mean_of_estimators ? "mean" : name_of(k.kind)) + ")",
      k, k.correlation);
  if (!k.reason.empty()) os << "     " << (k.combined() ? "" : "not combined: ") << k.reason << "\n";
  for_each_estimator(r, [&](const char* name, const MeanStd& m, const BatchCorrelation& c) {
    row(std::string("k (").append(name).append(")"), m, c);
  });
  if (p.count <= 1) {
    if (const std::string w = correlation_warning(k); !w.empty()) os << "   warning: " << w << "\n";
    if (const std::string n = correlation_note(k); !n.empty()) os << "   note: " << n << "\n";
  }
  row("leakage fraction", r.leakage);
  os << "   " << (r.stationarity.stationary ? "" : "warning: ") << r.stationarity.message << "\n";
  os << "   lost particles   " << r.lost_particles << "\n"
     << "   bank overflows   " << r.bank_overflows << "\n\n Time by phase (s, over " << r.ranks << " rank(s)"
     << (r.synchronized_timers ? ", synchronized" : "") << ")\n";
  std::snprintf(line, sizeof line, "   %-20s %10s %10s %10s\n", "", "min", "mean", "max");
  os << line;
  for (const auto& t : r.timing) print_timing_row(os, t.phase, t);
  if (r.ranks == 1) {
    os << "\n Bank exchange: none (1 rank)\n";
  } else {
    os << "\n Bank exchange: " << fields_text(r.exchange) << "\n";
  }
  if (const auto& t = r.transport; t.mode == "event" && t.rounds > 0) {
    os << "\n Transport: " << fields_text(t) << "\n";
    // What a round of event kernels carries: the queue lengths per round.
    std::snprintf(line, sizeof line, "   per round %.4g lookups, %.4g flights, %.4g crossings, %.4g collisions\n",
                  static_cast<double>(t.lookups) / static_cast<double>(t.rounds),
                  static_cast<double>(t.flights) / static_cast<double>(t.rounds),
                  static_cast<double>(t.crossings) / static_cast<double>(t.rounds),
                  static_cast<double>(t.collisions) / static_cast<double>(t.rounds));
    os << line;
  }
  if (const auto& d = r.domains) {
    os << "\n Domains: " << fields_text(*d) << "\n";
    for_each_timing(*d, [&](const char* phase, const PhaseTiming& t) { print_timing_row(os, std::string(phase) + " (s)", t); });
  }
  print_cmfd_summary(os, r);
  print_tally_summary(os, r);
  std::snprintf(line, sizeof line,
                "\n Particles/s (active batches): %.4g in transport, %.4g over whole batches (bank and reductions "
                "included)  [%d rank(s) x %d %s thread(s)]\n",
                r.particles_per_second, r.batch_particles_per_second, r.ranks, r.threads, r.execution_space.c_str());
  os << line;
}

}  // namespace keff
