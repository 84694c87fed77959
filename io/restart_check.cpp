#include "io/restart_check.hpp"

#include "io/geometry_bounds.hpp"
#include "io/input.hpp"
#include "io/printable.hpp"
#include "kernels/vocabulary/types.hpp"

#include <cmath>
#include <cstdio>

namespace keff {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string vec_text(const Vec3& v) { return "(" + number(v.x) + ", " + number(v.y) + ", " + number(v.z) + ")"; }

// A site's problem, or "" when it is one a fission in this problem can have made.
std::string site_problem(const Site& s, const model::Problem& p, const std::optional<model::Box>& bounds) {
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
  if (!(s.weight > 0.0 && std::isfinite(s.weight))) return "weight " + number(s.weight) + " is not a finite positive number";
  if (p.settings.mode == model::PhysicsMode::multigroup) {
    if (s.group < 0 || s.group >= p.groups) {
      return "group " + std::to_string(s.group) + " is not one of the problem's groups (allowed: 0 to " +
             std::to_string(p.groups - 1) + ")";
    }
  } else if (!(s.energy >= constants::energy_min_ev && s.energy <= constants::energy_max_ev)) {
    return "energy " + number(s.energy) + " eV is outside the continuous-energy range (allowed: " +
           number(constants::energy_min_ev) + " to " + number(constants::energy_max_ev) + " eV)";
  }
  if (s.parent < 0 || s.progeny < 0) return "history keys (parent, progeny) are negative";
  return {};
}

}  // namespace

void check_restart_data(const std::string& path, const RunResults& sp, const model::Problem& p) {
  const auto fail = [&](const std::string& what) {
    throw InputError("cannot restart from '" + printable(path) + "': " + what);
  };
  const auto& s = p.settings;
  for (std::size_t i = 0; i < sp.batch.size(); ++i) {
    const BatchResult& b = sp.batch[i];
    const int expected = static_cast<int>(i) + 1;
    if (b.batch != expected || b.active != (expected > s.inactive)) {
      fail("batch record " + std::to_string(i) + " is batch " + std::to_string(b.batch) +
           (b.active ? " (active)" : " (inactive)") + " (allowed: batch " + std::to_string(expected) +
           (expected > s.inactive ? ", active)" : ", inactive)"));
    }
    for (const double v : {b.k, b.k_collision, b.k_absorption, b.k_tracklength, b.entropy}) {
      if (!std::isfinite(v) || v < 0.0) fail("batch " + std::to_string(b.batch) + " holds a k or entropy that is not a finite non-negative number");
    }
  }
  if (!(sp.restart.k_prev > 0.0 && std::isfinite(sp.restart.k_prev))) {
    fail("the last batch's k, " + number(sp.restart.k_prev) + ", is not a finite positive number");
  }
  for (const auto* v : {&sp.restart.flux_sum, &sp.restart.flux_sq, &sp.restart.fission_sum, &sp.restart.fission_sq}) {
    for (const double x : *v) {
      if (!(x >= 0.0 && std::isfinite(x))) fail("a mesh-tally accumulator holds " + number(x) + " (allowed: finite, >= 0)");
    }
  }
  const auto bounds = geometry_bounding_box(p);
  for (std::size_t i = 0; i < sp.source_bank.size(); ++i) {
    if (const std::string what = site_problem(sp.source_bank[i], p, bounds); !what.empty()) {
      fail("source site " + std::to_string(i) + ": " + what);
    }
  }
}

}  // namespace keff
