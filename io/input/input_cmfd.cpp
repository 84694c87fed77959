// [cmfd]: coarse-mesh finite difference acceleration. The coarse mesh (a box and its shape, or a lattice's
// elements), the albedos of its outer faces, the coarse energy groups, the first batch tallied, feedback,
// the tally window and the solver's [cmfd.solver], each checked with the file, line and key of what is
// wrong (examples/INPUT.md). Whether the mesh holds every fission is known only once fissions happen: the run
// checks that (src/cmfd/cmfd_accelerator.cpp); here a mesh that misses the source box altogether is refused.
#include "io/input/geometry_bounds.hpp"
#include "io/input/input_parts.hpp"

#include <cmath>

namespace keff::detail {
namespace {

// "[x, y, z] to [x, y, z]", appended in place (GCC 12 warns falsely, -Wrestrict, about "[" + std::string).
std::string box_text(const model::Box& b) {
  std::string out;
  for (const auto* corner : {&b.lower, &b.upper}) {
    out += corner == &b.lower ? "[" : " to [";
    for (std::size_t d = 0; d < 3; ++d) out += (d > 0 ? ", " : "") + format_number((*corner)[d]);
    out += ']';
  }
  return out;
}

// A lattice's elements as the mesh: it must fill a cell of the root universe, where its coordinates are
// the geometry's (a lattice deeper down sits in an element of another, shifted to that element's centre).
// A 2-D lattice spans all z: the mesh takes the geometry's z extent.
model::Mesh lattice_mesh(const Section& c, const model::Problem& p) {
  const std::string name = *c.string("lattice");
  std::vector<std::string> names;
  int index = -1;
  for (std::size_t i = 0; i < p.lattices.size(); ++i) {
    names.push_back(p.lattices[i].name);
    if (p.lattices[i].name == name) index = static_cast<int>(i);
  }
  if (index < 0) c.fail("lattice", "lattice " + in_quotes(name) + " is not defined", "defined lattices: " + join(names));
  const bool fills_root = std::any_of(p.cells.begin(), p.cells.end(), [&](const model::Cell& cell) {
    return cell.universe == p.root_universe && cell.fill_kind == FillKind::lattice && cell.fill == index;
  });
  if (!fills_root) {
    c.fail("lattice",
           "lattice " + in_quotes(name) + " does not fill a cell of the root universe " +
               in_quotes(p.universes[static_cast<std::size_t>(p.root_universe)].name) +
               ", so its elements are not in the geometry's coordinates",
           "a lattice that fills a root cell, or lower_left, upper_right and shape");
  }
  const model::Lattice& l = p.lattices[static_cast<std::size_t>(index)];
  model::Mesh mesh;
  mesh.shape = l.shape;
  for (std::size_t a = 0; a < 3; ++a) {
    mesh.box.lower[a] = l.lower_left[a];
    mesh.box.upper[a] = l.lower_left[a] + l.shape[a] * l.pitch[a];
  }
  if (l.pitch[2] >= constants::infinity) {  // 2-D
    const auto bounds = geometry_bounding_box(p);
    if (!bounds) {
      c.fail("lattice",
             "lattice " + in_quotes(name) + " is 2-D, and the geometry's z extent cannot be read off its root cells",
             "a 3-D lattice, or lower_left, upper_right and shape");
    }
    mesh.box.lower[2] = bounds->lower[2];
    mesh.box.upper[2] = bounds->upper[2];
  }
  return mesh;
}

// lower_left and upper_right (default: the geometry's bounding box) and shape, or a lattice.
model::Mesh read_cmfd_mesh(const Section& c, const model::Problem& p) {
  if (c.has("lattice")) {
    for (auto key : {"lower_left", "upper_right", "shape"}) {
      if (c.has(key)) {
        c.fail(key, "given with lattice, whose elements are the mesh",
               "either lattice = \"name\", or lower_left, upper_right and shape");
      }
    }
    return lattice_mesh(c, p);
  }
  if (!c.has("shape")) {
    c.fail("shape", "missing required key",
           "[nx, ny, nz], integers >= 1 with nx * ny * nz <= " + limits::number_text(limits::max_mesh_bins) +
               " cells; or lattice = \"name\"");
  }
  const auto bounds = geometry_bounding_box(p);
  if (!bounds && !(c.has("lower_left") && c.has("upper_right"))) {
    c.fail(c.has("lower_left") ? "upper_right" : "lower_left",
           "missing, and the geometry's bounding box cannot be read off its root cells",
           "lower_left and upper_right, [x, y, z] in cm");
  }
  return read_mesh(c, bounds.value_or(model::Box{}), {1, 1, 1});
}

// Given (six numbers in [0, 1]), or per face from the boundary it lies on: an axis plane with a vacuum
// boundary 0, with a reflective one 1; elsewhere (the mesh ends inside the geometry, or on a sphere or
// a cylinder) measured from the tallies.
std::array<double, 6> read_albedo(const Section& c, const model::Problem& p, const model::Box& box) {
  std::array<double, 6> albedo{};
  if (c.has("albedo")) {
    constexpr std::string_view allowed = "6 numbers in [0, 1] for the faces -x, +x, -y, +y, -z, +z";
    const auto v = c.numbers("albedo", 6, 6, allowed);
    for (std::size_t f = 0; f < 6; ++f) {
      if (!(v[f] >= 0 && v[f] <= 1)) c.fail("albedo", "albedo[" + std::to_string(f) + "] = " + format_number(v[f]), allowed);
      albedo[f] = v[f];
    }
    return albedo;
  }
  constexpr SurfaceKind planes[] = {SurfaceKind::x_plane, SurfaceKind::y_plane, SurfaceKind::z_plane};
  for (std::size_t f = 0; f < 6; ++f) {
    const std::size_t axis = f / 2;
    const double x = f % 2 == 0 ? box.lower[axis] : box.upper[axis];
    albedo[f] = cmfd_measured_albedo;
    for (const model::Surface& s : p.surfaces) {
      if (s.kind != planes[axis] || s.boundary == BoundaryKind::transmission) continue;
      if (std::fabs(s.coeffs[0] - x) <= 1e-9 * std::max(1.0, std::fabs(x))) {
        albedo[f] = s.boundary == BoundaryKind::vacuum ? 0.0 : 1.0;
        break;
      }
    }
  }
  return albedo;
}

// Continuous energy: `energy_bounds`, covering every neutron energy so that the balance of the tallies
// is whole (default: one group). Multigroup: `collapse`, the coarse group of each of the problem's
// groups, bands of neighbouring groups numbered from 0 (default: all in one).
void read_cmfd_groups(const Section& c, const model::Problem& p, model::Cmfd& out) {
  if (p.settings.mode == model::PhysicsMode::continuous_energy) {
    if (c.has("collapse")) {
      c.fail("collapse", "a group collapse in a continuous-energy problem", "energy_bounds = [...] in eV");
    }
    out.energy_bounds = {constants::energy_min_ev, constants::energy_max_ev};
    if (!c.has("energy_bounds")) return;
    const std::string allowed = "2 to " + std::to_string(limits::max_groups + 1) + " energies in eV, ascending, from <= " +
                                format_number(constants::energy_min_ev) + " to >= " +
                                format_number(constants::energy_max_ev) + " (every neutron's energy)";
    const auto b = c.numbers("energy_bounds", 2, static_cast<std::size_t>(limits::max_groups + 1), allowed);
    for (std::size_t i = 1; i < b.size(); ++i) {
      if (!(b[i] > b[i - 1])) {
        c.fail("energy_bounds", "energy_bounds[" + std::to_string(i) + "] = " + format_number(b[i]) + " is out of order", allowed);
      }
    }
    if (b.front() > constants::energy_min_ev || b.back() < constants::energy_max_ev) {
      c.fail("energy_bounds",
             "the groups span " + format_number(b.front()) + " to " + format_number(b.back()) +
                 " eV, so some neutrons would fall outside them and the tallies would not balance",
             allowed);
    }
    out.energy_bounds = b;
    return;
  }
  if (c.has("energy_bounds")) {
    c.fail("energy_bounds", "energy bounds in a multigroup problem: the coarse groups collapse the problem's groups",
           "collapse = [...], the coarse group of each of the " + std::to_string(p.groups) + " groups");
  }
  out.collapse.assign(static_cast<std::size_t>(p.groups), 0);
  if (!c.has("collapse")) return;
  const std::string allowed = std::to_string(p.groups) +
                              " integers, the coarse group of each group: 0 first, then each the one before or one more";
  const auto v = c.integers("collapse", static_cast<std::size_t>(p.groups), allowed);
  for (std::size_t g = 0; g < v.size(); ++g) {
    const std::int64_t previous = g == 0 ? 0 : v[g - 1];
    if (v[g] != previous && v[g] != previous + 1) {
      c.fail("collapse", "collapse[" + std::to_string(g) + "] = " + std::to_string(v[g]) + " after " + std::to_string(previous), allowed);
    }
    out.collapse[g] = static_cast<int>(v[g]);
  }
}

// [cmfd.solver]: CmfdOptions (kernels/vocabulary/cmfd_options.hpp), its defaults where a key is absent.
CmfdOptions read_cmfd_solver(const Section& c) {
  CmfdOptions o;
  const auto t = c.table("solver");
  if (!t) return o;
  t->allow_only({"dhat", "k_tolerance", "source_tolerance", "max_iterations", "gmres_tolerance", "gmres_restart",
                 "gmres_max_restarts", "gmres_reduction", "shift", "adaptive_shift", "preconditioner", "warm_start"});
  const auto positive = [](double v) { return v > 0 && v < 1; };
  constexpr std::string_view tolerance = "a number in (0, 1)";
  o.use_dhat = t->boolean("dhat").value_or(o.use_dhat);
  o.k_tolerance = t->number("k_tolerance", o.k_tolerance, positive, tolerance);
  o.source_tolerance = t->number("source_tolerance", o.source_tolerance, positive, tolerance);
  o.gmres_tolerance = t->number("gmres_tolerance", o.gmres_tolerance, positive, tolerance);
  o.max_outer = static_cast<int>(t->integer("max_iterations", o.max_outer, 1, 1000000));
  o.gmres_restart = static_cast<int>(t->integer("gmres_restart", o.gmres_restart, 1, 10000));
  o.gmres_max_restarts = static_cast<int>(t->integer("gmres_max_restarts", o.gmres_max_restarts, 0, 10000));
  o.gmres_reduction = t->number("gmres_reduction", o.gmres_reduction, [](double v) { return v >= 0 && v < 1; },
                                "a number in [0, 1); 0: every inner solve to gmres_tolerance");
  o.shift = t->number("shift", o.shift, [](double v) { return v >= 0 && v <= 100; },
                      "a number in [0, 100]; 0: the adaptive shift, or none with adaptive_shift = false");
  o.adaptive_shift = t->boolean("adaptive_shift").value_or(o.adaptive_shift);
  o.preconditioner = t->choice("preconditioner", o.preconditioner);
  o.warm_start = t->boolean("warm_start").value_or(o.warm_start);
  return o;
}

bool overlap(const model::Box& a, const model::Box& b) {
  for (std::size_t d = 0; d < 3; ++d) {
    if (!(a.lower[d] < b.upper[d] && b.lower[d] < a.upper[d])) return false;
  }
  return true;
}

}  // namespace

std::optional<model::Cmfd> read_cmfd(const Section& root, const model::Problem& p) {
  const auto t = root.table("cmfd");
  if (!t) return std::nullopt;
  const Section& c = *t;
  c.allow_only({"enabled", "lower_left", "upper_right", "shape", "lattice", "albedo", "energy_bounds", "collapse",
                "begin", "end", "feedback", "window", "window_size", "min_collisions", "solver"});
  model::Cmfd out;
  out.where = c.loc();
  out.enabled = c.boolean("enabled").value_or(true);
  out.mesh = read_cmfd_mesh(c, p);
  const std::string_view mesh_key = c.has("lattice") ? "lattice" : (c.has("lower_left") ? "lower_left" : "shape");
  if (!overlap(out.mesh.box, p.settings.source)) {
    c.fail(mesh_key,
           "the mesh, " + box_text(out.mesh.box) + ", misses the source box, " + box_text(p.settings.source) +
               ", where the fission source starts",
           "a mesh that holds every fissionable region");
  }
  out.albedo = read_albedo(c, p, out.mesh.box);
  read_cmfd_groups(c, p, out);

  const auto& shape = out.mesh.shape;
  const auto cells = static_cast<double>(shape[0]) * shape[1] * shape[2];
  const double groups = out.n_groups();
  const double faces = (shape[0] + 1.0) * shape[1] * shape[2] + shape[0] * (shape[1] + 1.0) * shape[2] +
                       shape[0] * static_cast<double>(shape[1]) * (shape[2] + 1.0);
  if (5 * groups * cells + 2 * groups * groups * cells + 2 * groups * faces >
      static_cast<double>(limits::max_cmfd_tally_values)) {
    c.fail(c.has("energy_bounds") ? "energy_bounds" : (c.has("collapse") ? "collapse" : mesh_key),
           std::to_string(out.n_groups()) + " coarse groups on " + std::to_string(shape[0]) + " x " +
               std::to_string(shape[1]) + " x " + std::to_string(shape[2]) + " cells are too many CMFD tally values",
           "5 G C + 2 G^2 C + 2 G F <= " + limits::number_text(limits::max_cmfd_tally_values) +
               " for G groups, C cells and F faces");
  }

  out.begin = static_cast<int>(c.integer("begin", out.begin, 1, limits::max_batches));
  if (c.has("end")) {
    out.end = static_cast<int>(c.integer("end", out.begin, 1, limits::max_batches));
    if (*out.end < out.begin) {
      c.fail("end", "invalid value " + std::to_string(*out.end) + ", before begin = " + std::to_string(out.begin),
             "an integer from begin to " + limits::number_text(limits::max_batches));
    }
  }
  out.feedback = c.boolean("feedback").value_or(out.feedback);
  if (model::cmfd_couples_populations(out, p.settings) && !p.settings.populations_automatic && p.settings.populations > 1) {
    c.fail(out.end ? "end" : "feedback", model::cmfd_populations_problem(p.settings.populations),
           "with populations, [cmfd] end at most the last inactive batch, or feedback = false");
  }
  out.window = c.choice("window", out.window);
  if (c.has("window_size") && out.window != model::CmfdWindow::rolling) {
    c.fail("window_size", "a window size without window = \"rolling\"", "window_size only with window = \"rolling\"");
  }
  out.window_size = static_cast<int>(c.integer("window_size", out.window_size, 1, limits::max_batches));
  out.min_collisions = c.number("min_collisions", out.min_collisions, [](double v) { return v >= 0 && v <= 1e15; },
                                "a number of collisions (weight) in [0, 1e15]");
  out.solver = read_cmfd_solver(c);
  return out;
}

}  // namespace keff::detail
