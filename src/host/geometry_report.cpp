#include "src/host/geometry_report.hpp"

#include "io/printable.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace keff {

namespace {

// A model built in code may name an index the TOML reader would have refused: say so, never index out.
template <class T>
const T* entry(const std::vector<T>& v, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < v.size() ? &v[static_cast<std::size_t>(i)] : nullptr;
}

std::string cell_name(const model::Problem& p, int c) {
  const model::Cell* cell = entry(p.cells, c);
  return cell ? "cell '" + printable(cell->name) + "' (" + printable(cell->where.str()) + ")" : "cell #" + std::to_string(c);
}

// Strings are appended in place: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string inlined.
std::string universe_name(const model::Problem& p, int u) {
  const model::Universe* universe = entry(p.universes, u);
  std::string s = u == p.root_universe ? "the root universe " : "universe ";
  if (universe) {
    s += "'";
    s += printable(universe->name);
    s += "'";
  } else {
    s += "#";
    s += std::to_string(u);
  }
  return s;
}

std::string lattice_name(const model::Problem& p, int l) {
  const model::Lattice* lattice = entry(p.lattices, l);
  return lattice ? "lattice '" + printable(lattice->name) + "'" : "lattice #" + std::to_string(l);
}

std::string point(Vec3 r) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.9g, %.9g, %.9g)", r.x, r.y, r.z);
  return text;
}

// The universe coordinates, when they differ from the global ones (below a lattice).
std::string local_point(const GeometryFinding& f) {
  const Vec3 l = f.fault.local;
  if (l.x == f.position.x && l.y == f.position.y && l.z == f.position.z) return "";
  return ", at " + point(l) + " in its coordinates";
}

std::string input_argument(const model::Problem& p) {
  std::string s;
  if (p.source_name != "<default>") {
    s += " ";
    s += printable(p.source_name);
  }
  return s;
}

std::string box_text(const model::Box& b) {
  char text[200];
  std::snprintf(text, sizeof text, "[%.9g, %.9g] x [%.9g, %.9g] x [%.9g, %.9g] cm", b.lower[0], b.upper[0], b.lower[1],
                b.upper[1], b.lower[2], b.upper[2]);
  return text;
}

std::string count_of(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// What the check found, in a few words: "overlapping cells", "a gap", "overlapping cells and a gap".
std::string kinds_found(const std::vector<GeometryFinding>& findings) {
  const auto has = [&](auto pred) { return std::any_of(findings.begin(), findings.end(), pred); };
  const bool overlap = has([](const GeometryFinding& f) { return f.fault.kind == GeometryFaultKind::overlap; });
  const bool gap = has([](const GeometryFinding& f) { return f.fault.kind != GeometryFaultKind::overlap; });
  if (overlap && gap) return "overlapping cells and gaps";
  return overlap ? "overlapping cells" : "gaps";
}

// Where location failed, for a particle lost at its source or after a crossing.
std::string where_not_located(const model::Problem& p, const LostParticle& l) {
  if (l.universe >= 0) {
    std::string s = "no cell of " + universe_name(p, l.universe) + " holds the point";
    if (l.universe == p.root_universe) {
      s += ": a gap between its cells, or the outside of a model that is not closed by vacuum or reflective surfaces";
    }
    return s;
  }
  if (l.lattice >= 0) return "it lies outside the elements of " + lattice_name(p, l.lattice) + ", which has no outer universe";
  return "no cell holds the point";
}

std::string first_lost(const model::Problem& p, const LostParticle& l) {
  const std::string in_cell = l.cell >= 0 ? " in " + cell_name(p, l.cell) : "";
  // The check searches the universes that fill cells, not the root, whose outside is the model's outside.
  const std::string check = l.universe == p.root_universe
                                ? "; keff check-geometry looks for gaps inside filled cells, not here, where the root "
                                  "universe's cells end"
                                : "; keff check-geometry" + input_argument(p) + " searches for gaps and overlaps";
  switch (l.reason) {
    case LostReason::at_source:
      return "could not be located at its source site (" + where_not_located(p, l) + check + ")";
    case LostReason::max_events:
      return "exceeded settings.max_events = " + std::to_string(p.settings.max_events) + " flights" + in_cell +
             " (raise it, or the model has a region a neutron cannot leave: reflective surfaces around a void or "
             "around material that does not absorb)";
    case LostReason::infinite_flight:
      return "streamed to infinity" + in_cell +
             " (an unbounded region: a void with no vacuum or reflective surface ahead; close the model with vacuum "
             "surfaces)";
    case LostReason::after_crossing: {
      const model::Surface* s = entry(p.surfaces, l.surface);
      const std::string crossed =
          s ? "surface " + std::to_string(s->user_id) + " (" + printable(s->where.str()) + ")" : "a lattice element wall";
      return "could not be located after crossing " + crossed + " (a gap in the geometry there: " + where_not_located(p, l) +
             check + ")";
    }
    case LostReason::none: break;
  }
  return "was lost";
}

constexpr const char* reason_counted[lost_reason_count] = {
    "", "were in no cell at their source site", "exceeded settings.max_events", "streamed to infinity",
    "could not be located after a crossing"};

}  // namespace

std::string describe(const model::Problem& p, const GeometryFinding& f) {
  const GeometryFault& x = f.fault;
  std::string s;
  switch (x.kind) {
    case GeometryFaultKind::overlap: {
      const model::Cell* a = entry(p.cells, x.a);
      s = "overlap: " + cell_name(p, x.a) + " and " + cell_name(p, x.b) + " of " +
          universe_name(p, a ? a->universe : -1) + " both hold " + point(f.position) + local_point(f);
      break;
    }
    case GeometryFaultKind::gap: {
      const model::Cell* parent = entry(p.cells, x.b);
      const bool by_lattice = parent && parent->fill_kind == FillKind::lattice;
      s = "gap: no cell of " + universe_name(p, x.a) + " holds " + point(f.position) + local_point(f) + ", inside " +
          cell_name(p, x.b) +
          (by_lattice ? ", whose " + lattice_name(p, parent->fill) + " puts the universe there" : ", which the universe fills");
      break;
    }
    case GeometryFaultKind::outside_lattice:
      s = "gap: " + point(f.position) + " lies inside " + cell_name(p, x.b) + ", filled with " + lattice_name(p, x.a) +
          ", but outside the lattice's elements, and the lattice has no outer universe";
      break;
    case GeometryFaultKind::none:
    case GeometryFaultKind::on_surface: return "no fault";
  }
  return s + " (" + count_of(f.points, "sample point", "sample points") + ")";
}

namespace {

std::string judged_none_text(const GeometryCheck& c) {
  char tolerance[16];
  std::snprintf(tolerance, sizeof tolerance, "%g", coincident_tolerance);
  return "the geometry check could judge none of its " + std::to_string(c.points) + " points: every one lies within " +
         tolerance + " cm of a surface or lattice wall, where the flight direction decides which side it is on, so "
         "nothing was checked; the model's coordinates are coarser than that tolerance (surfaces or a lattice far "
         "from the origin, or cells thinner than the tolerance)";
}

}  // namespace

void print_geometry_check(std::ostream& os, const model::Problem& p, const GeometryCheck& c) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3g s", c.seconds);
  os << "keff: geometry check\n"
     << "  input     " << printable(p.source_name) << "\n"
     << "  box       " << box_text(c.box)
     << (c.box_is_source ? " (the source box: the geometry is unbounded)" : " (the geometry's bounding box)") << "\n"
     << "  points    " << c.points << " uniform in the box; " << c.on_surface_points
     << " within the tolerance of a surface, not judged\n"
     << "  time      " << seconds << "\n\n";
  if (c.judged_none()) {
    std::string text = judged_none_text(c);
    text[0] = 'T';
    os << text << ".\n";
    return;
  }
  if (!c.found()) {
    os << "No overlap or gap found.\n";
    return;
  }
  os << count_of(static_cast<std::int64_t>(c.findings.size()), "fault", "faults") << " found at "
     << count_of(c.fault_points, "point", "points") << ":\n";
  for (const GeometryFinding& f : c.findings) os << "  " << describe(p, f) << "\n";
}

std::string geometry_refusal(const model::Problem& p, const GeometryCheck& c) {
  if (c.judged_none()) {
    return printable(p.source_name) + ": " + judged_none_text(c) + " (settings.geometry_check_points = 0 skips this "
           "check)";
  }
  constexpr std::size_t listed = 3;
  std::string s = printable(p.source_name) + ": the geometry check found " + kinds_found(c.findings) + ": ";
  for (std::size_t i = 0; i < std::min(listed, c.findings.size()); ++i) {
    if (i > 0) s += "; ";
    s += describe(p, c.findings[i]);
  }
  if (c.findings.size() > listed) s += "; and " + count_of(static_cast<std::int64_t>(c.findings.size() - listed), "more fault", "more faults");
  s += ". Found at " + count_of(c.fault_points, "point", "points") + " of " + std::to_string(c.points) +
       " sampled in " + box_text(c.box) + " (keff check-geometry" + input_argument(p) + " --points " +
       std::to_string(std::max<std::int64_t>(10 * c.points, 1000000)) +
       " searches more and lists every fault it finds; settings.geometry_check_points = 0 skips this check)";
  return s;
}

std::string geometry_check_summary(const GeometryCheck& c) {
  char text[96];
  std::snprintf(text, sizeof text, "%lld points, no overlap or gap found (%.3g s)", static_cast<long long>(c.points),
                c.seconds);
  return text;
}

std::string lost_particle_text(const model::Problem& p, int batch, const LostParticle& l) {
  return model::generation_name(p.settings, batch) + ", history " + std::to_string(l.history) + ": lost at " + point(l.r) +
         " moving " + point(l.u) + ": it " + first_lost(p, l);
}

std::string lost_particles_message(const model::Problem& p, int batch, std::int64_t lost_total, const LostParticles& lost) {
  std::string s = std::to_string(lost_total) + " particles lost by " + model::generation_name(p.settings, batch) +
                  " (more than settings.max_lost = " + std::to_string(p.settings.max_lost) + ")";
  std::string counts;
  for (int r = 1; r < lost_reason_count; ++r) {
    const std::int64_t n = lost.per_reason[static_cast<std::size_t>(r)];
    if (n == 0) continue;
    counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + reason_counted[r];
  }
  if (!counts.empty()) s += "; in this run " + counts;
  if (lost.recorded) {
    s += ". The first was at " + point(lost.first.r) + " moving " + point(lost.first.u) + " in " +
         printable(p.source_name) + ": it " + first_lost(p, lost.first);
  }
  return s;
}

}  // namespace keff
