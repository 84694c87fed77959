#include "src/cli/run_report.hpp"

#include "io/thermal/ncrystal.hpp"
#include "src/host/batch_table.hpp"
#include "src/host/memory_check.hpp"

#include <algorithm>
#include <cstdio>

namespace keff {

namespace {

std::string format_bytes(std::size_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1e9) std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  else std::snprintf(text, sizeof text, "%.1f kB", b / 1e3);
  return text;
}

// The run header's line for [cmfd], or nothing without CMFD.
std::string cmfd_description(const model::Problem& p, const CmfdFootprint& f) {
  if (!p.cmfd_on()) return {};
  const model::Cmfd& c = *p.cmfd;
  const auto& n = c.mesh.shape;
  std::string text = "  cmfd            " + std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " +
                     std::to_string(n[2]) + " cells x " + std::to_string(c.n_groups()) + " group(s) from batch " +
                     std::to_string(c.begin) + ", feedback " + (c.feedback ? "on" : "off") + ", window " +
                     std::string(name_of(c.window));
  if (c.window == model::CmfdWindow::rolling) text += " of " + std::to_string(c.window_size);
  // Each GMRES iteration multiplies by M: its entries say what one costs, and the solve does at most
  // max_iterations x (gmres_max_restarts + 1) x gmres_restart of them.
  char size[200];
  std::snprintf(size, sizeof size, "\n                  %.0f unknowns, %.3g matrix entries; on every rank %s for the window (host), %s for the solver",
                f.unknowns, f.entries, memory_text(f.host_bytes).c_str(), memory_text(f.device_bytes).c_str());
  return text + size + "\n";
}

// How elastic scattering sees its targets: "free-gas targets at 293.6 K" (or a range of temperatures),
// or "targets at rest".
std::string thermal_text(const model::Problem& p) {
  if (p.settings.thermal == model::ThermalModel::none || p.materials.empty()) return "targets at rest (thermal = \"none\")";
  double lo = p.materials.front().temperature, hi = lo;
  for (const model::Material& m : p.materials) lo = std::min(lo, m.temperature), hi = std::max(hi, m.temperature);
  char text[80];
  if (hi > lo) std::snprintf(text, sizeof text, "free-gas targets at %g to %g K", lo, hi);
  else std::snprintf(text, sizeof text, "free-gas targets at %g K", lo);
  return text;
}

// The NCrystal materials and their tables: "  thermal tables  2 NCrystal materials (water: ...), 500
// energies x 128 elastic and inelastic outcomes (1 of 4 draws each) below 5 eV: 2.93 MiB, built in 0.21 s\n",
// or "" without any.
std::string thermal_tables_text(const model::Problem& p, const RunSetup& run) {
  if (run.thermal_tables == 0) return "";
  std::string names;
  for (const model::Material& m : p.materials) {
    if (!m.ncrystal.empty()) names += (names.empty() ? "" : ", ") + m.name + ": \"" + m.ncrystal + "\"";
  }
  char text[200];
  if (p.settings.thermal_tables) {
    std::snprintf(text, sizeof text, ", %d energies x %d elastic and inelastic outcomes (1 of %d draws each) below %g eV: %s, built in %.2f s",
                  p.settings.thermal_table_energies, p.settings.thermal_table_samples, p.settings.thermal_table_draws,
                  ThermalTableSpec{}.cutoff_ev,
                  format_bytes(static_cast<std::size_t>(run.thermal_table_bytes)).c_str(), run.thermal_table_seconds);
  } else {
    std::snprintf(text, sizeof text, ", asked in transport below %g eV (thermal_tables = false), one cache per thread and material",
                  ThermalTableSpec{}.cutoff_ev);
  }
  return "  thermal tables  " + std::to_string(run.thermal_tables) + " distinct NCrystal " + ncrystal_version() +
         " material(s) (" + names + ")" + text + "\n";
}

}  // namespace

void print_problem(std::ostream& os, const model::Problem& p, const RunSetup& run, int ranks,
                   const std::string& geometry_check) {
  const auto& s = p.settings;
  os << "keff: k-eigenvalue power iteration\n"
     << "  input           " << p.source_name << "\n"
     << "  physics         "
     << (s.mode == model::PhysicsMode::multigroup
             ? "multigroup, " + std::to_string(p.groups) + " groups"
             : "continuous energy, " + std::to_string(run.nuclides) + " nuclides x " + std::to_string(run.gridpoints) +
                   " points; " + thermal_text(p))
     << "\n"
     << thermal_tables_text(p, run)
     << "  geometry        " << p.cells.size() << " cells, " << p.universes.size() << " universes, "
     << p.lattices.size() << " lattices, " << p.surfaces.size() << " surfaces\n"
     << "  geometry check  " << geometry_check << "\n"
     << "  particles       " << s.particles << " per batch, " << s.batches << " batches (" << s.inactive
     << " inactive), seed " << s.seed << "\n"
     << "  parallelism     " << ranks << " rank(s) x " << run.concurrency << " " << run.execution_space
     << " thread(s)\n"
     << "  transport       "
     << (run.event_slots > 0 ? "event-based, " + std::to_string(run.event_slots) + " slots of " +
                                   format_bytes(run.bytes_per_slot) + " on rank 0"
                             : std::string("history-based"))
     << "\n"
     << cmfd_description(p, run.cmfd)
     << "  state           " << format_bytes(run.state_bytes) << " on rank 0, of which per-thread micro-XS scratch "
     << format_bytes(run.scratch_bytes) << "\n";
  if (!p.tallies.empty()) {
    os << "  tallies         " << p.tallies.size() << " tallies, " << run.tally_values << " values: "
       << format_bytes(static_cast<std::size_t>(run.tally_values) * sizeof(std::int64_t)) << " in the state, "
       << format_bytes(run.tally_host_bytes) << " of sums on the host\n";
  }
  for (const std::string& note : p.notes) os << "  note            " << note << "\n";
  os << "\n";
}

namespace {

// CMFD's solves over the run: k_cmfd of the last, and the solver's work per solve.
void print_cmfd_summary(std::ostream& os, const RunResults& r) {
  if (!r.cmfd) return;
  int solves = 0, failed = 0, last_good = 0;
  double outer = 0, inner = 0, k = 0;
  std::string first_failure;
  for (const auto& b : r.batch) {
    if (!b.cmfd) continue;
    ++solves;
    outer += b.cmfd->outer_iterations;
    inner += b.cmfd->inner_iterations;
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
  std::snprintf(line, sizeof line, "%d solves (%d failed), per solve %.3g power and %.3g GMRES iterations\n", solves,
                failed, outer / solves, inner / solves);
  os << line;
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

void print_summary(std::ostream& os, const RunResults& r) {
  char line[200];
  const auto active = std::count_if(r.batch.begin(), r.batch.end(), [](const BatchResult& b) { return b.active; });
  os << "\n Results over " << active << " active batches\n";
  const auto row = [&](const std::string& name, const MeanStd& m, const BatchCorrelation& c = {}) {
    std::snprintf(line, sizeof line, "   %-16s %s%s\n", name.c_str(), format_k(m).c_str(), format_correlation(c).c_str());
    os << line;
  };
  // The run's k: the combination, or the fallback it names with the reason (src/host/statistics.hpp).
  const auto& k = r.k_combined;
  row(k.combined() ? std::string("k (combined)")
                   : "k (" + std::string(k.kind == KEstimateKind::mean_of_estimators ? "mean" : name_of(k.kind)) + ")",
      k, k.correlation);
  if (!k.reason.empty()) os << "     " << (k.combined() ? "" : "not combined: ") << k.reason << "\n";
  row("k (collision)", r.k_collision, r.estimator_correlation[0]);
  row("k (absorption)", r.k_absorption, r.estimator_correlation[1]);
  row("k (track-length)", r.k_tracklength, r.estimator_correlation[2]);
  if (const std::string w = correlation_warning(k); !w.empty()) os << "   warning: " << w << "\n";
  if (const std::string n = correlation_note(k); !n.empty()) os << "   note: " << n << "\n";
  row("leakage fraction", r.leakage);
  os << "   lost particles   " << r.lost_particles << "\n"
     << "   bank overflows   " << r.bank_overflows << "\n\n Time by phase (s, over " << r.ranks << " rank(s)"
     << (r.synchronized_timers ? ", synchronized" : "") << ")\n";
  std::snprintf(line, sizeof line, "   %-20s %10s %10s %10s\n", "", "min", "mean", "max");
  os << line;
  for (const auto& t : r.timing) {
    std::snprintf(line, sizeof line, "   %-20s %10.4f %10.4f %10.4f\n", t.phase.c_str(), t.min, t.mean, t.max);
    os << line;
  }
  const auto& x = r.exchange;
  if (r.ranks == 1) {
    os << "\n Bank exchange: none (1 rank)\n";
  } else {
    os << "\n Bank exchange (" << x.mode << "): " << x.exchanges << " exchanges, " << x.irecv << " Irecv, " << x.isend
       << " Isend, " << x.testsome << " Testsome (" << x.arrived_early << " completed before the wait), " << x.waitall
       << " Waitall, " << x.sites_sent << " sites sent; " << x.sites_transported_early
       << " source sites transported before the exchange finished\n";
  }
  if (const auto& t = r.transport; t.mode == "event" && t.rounds > 0) {
    std::string how;  // sorted: the sorter and what it reordered
    if (!t.sorter.empty()) how.append(" (").append(t.sorter).append(" sort, ").append(t.reorder).append(" reordered)");
    std::snprintf(line, sizeof line,
                  "\n Event-based transport: %lld slots, lookups sorted by %s%s, %lld rounds; per round %.4g lookups,"
                  " %.4g flights, %.4g crossings, %.4g collisions\n",
                  static_cast<long long>(t.slots), t.sort == "none" ? "nothing" : t.sort.c_str(),
                  how.c_str(),
                  static_cast<long long>(t.rounds),
                  static_cast<double>(t.lookups) / static_cast<double>(t.rounds),
                  static_cast<double>(t.flights) / static_cast<double>(t.rounds),
                  static_cast<double>(t.crossings) / static_cast<double>(t.rounds),
                  static_cast<double>(t.collisions) / static_cast<double>(t.rounds));
    os << line;
  }
  if (const auto& d = r.domains) {
    std::snprintf(line, sizeof line,
                  "\n Domains %d x %d x %d (%d rank(s) each): %lld particles crossed domains in %lld messages (%.3g MB);"
                  " %lld sites routed between batches\n",
                  d->mesh[0], d->mesh[1], d->mesh[2], d->replicas, static_cast<long long>(d->particles_sent),
                  static_cast<long long>(d->messages_sent), 1e-6 * static_cast<double>(d->bytes_sent),
                  static_cast<long long>(d->sites_routed));
    os << line;
    for (const auto* t : {&d->pack, &d->mpi, &d->idle}) {
      std::snprintf(line, sizeof line, "   %-20s %10.4f %10.4f %10.4f\n", (t->phase + " (s)").c_str(), t->min, t->mean,
                    t->max);
      os << line;
    }
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
