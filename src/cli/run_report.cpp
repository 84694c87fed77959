#include "src/cli/run_report.hpp"

#include "io/printable.hpp"
#include "io/thermal/ncrystal.hpp"
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
                     std::to_string(n[2]) + " cells x " + std::to_string(c.n_groups()) + " group(s) in batches " +
                     std::to_string(c.begin) + " to " + std::to_string(p.cmfd_end()) + ", feedback " + (c.feedback ? "on" : "off") + ", window " +
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

// The NCrystal materials, the data each was read from, and their tables: "  thermal tables  2 NCrystal
// materials (water: "LiquidWaterH2O_T293.6K.ncmat" from NCrystal's standard library, ...), 500
// energies x 128 elastic and inelastic outcomes (1 of 4 draws each) below 5 eV: 2.93 MiB, built in 0.21 s\n",
// or "" without any.
std::string thermal_tables_text(const model::Problem& p, const RunSetup& run) {
  if (run.thermal_tables == 0) return "";
  std::string names;
  for (const model::Material& m : p.materials) {
    if (!m.ncrystal.empty()) {
      const NCrystalMaterial& opened = m.ncrystal_opened;
      if (!names.empty()) names += ", ";
      names.append(m.name).append(": \"").append(printable_cut(m.ncrystal)).append("\" from ");
      if (opened.data_in_file) {
        names.append("'").append(printable(opened.data_source)).append("'");
      } else {
        names.append(opened.data_source);
      }
    }
  }
  char text[200];
  if (p.settings.thermal_tables) {
    std::snprintf(text, sizeof text, ", %d energies x %d elastic and inelastic outcomes (1 of %d draws each) below %g eV: %s, built in %.2f s",
                  p.settings.thermal_table_energies, p.settings.thermal_table_samples, p.settings.thermal_table_draws,
                  thermal_cutoff_ev,
                  format_bytes(static_cast<std::size_t>(run.thermal_table_bytes)).c_str(), run.thermal_table_seconds);
  } else {
    std::snprintf(text, sizeof text, ", asked in transport below %g eV (thermal_tables = false), one cache per thread and material",
                  thermal_cutoff_ev);
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
             : !run.evaluated_library.empty()
                 ? "continuous energy, evaluated data; " + thermal_text(p) + "\n  library         " +
                       printable(run.evaluated_library)
                 : "continuous energy, " + std::to_string(run.nuclides) + " nuclides x " + std::to_string(run.gridpoints) +
                       " points; " + thermal_text(p))
     << "\n"
     << thermal_tables_text(p, run)
     << "  geometry        " << p.cells.size() << " cells, " << p.universes.size() << " universes, "
     << p.lattices.size() << " lattices, " << p.surfaces.size() << " surfaces\n"
     << "  geometry check  " << geometry_check << "\n"
     << "  particles       " << s.particles << " per generation, " << s.batches << " batches ("
     << (s.inactive_automatic ? "inactive auto: " + std::to_string(limits::min_automatic_inactive) + " to " +
                                    std::to_string(s.inactive) + ", until the source is stationary"
                              : std::to_string(s.inactive) + " inactive")
     << ")"
     << (s.generations_per_batch > 1 ? " of " + std::to_string(s.generations_per_batch) + " generations" : std::string())
     << (s.populations > 1 ? ", " + std::to_string(s.populations) + " independent populations" +
                                 (s.populations_automatic ? " (auto)" : "")
                           : std::string())
     << ", seed " << s.seed << "\n"
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

}  // namespace keff
