// [[surface]], [[cell]], [[lattice]] and [geometry]: the CSG model, every reference resolved to an index and
// the universe hierarchy checked for cycles and depth.
#include "io/input/input_parts.hpp"
#include "io/input/universe_nesting.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace keff::detail {

namespace {

// ---------------------------------------------------------------------------------------------------
// [[surface]]

struct SurfaceType {
  std::string_view name;
  SurfaceKind kind;
  std::size_t coeffs;
  std::string_view layout;
};
constexpr SurfaceType surface_types[] = {
    {"x-plane", SurfaceKind::x_plane, 1, "[x0]"},
    {"y-plane", SurfaceKind::y_plane, 1, "[y0]"},
    {"z-plane", SurfaceKind::z_plane, 1, "[z0]"},
    {"plane", SurfaceKind::plane, 4, "[a, b, c, d] for a x + b y + c z = d"},
    {"sphere", SurfaceKind::sphere, 4, "[x0, y0, z0, R], R > 0"},
    {"x-cylinder", SurfaceKind::x_cylinder, 3, "[y0, z0, R], R > 0"},
    {"y-cylinder", SurfaceKind::y_cylinder, 3, "[x0, z0, R], R > 0"},
    {"z-cylinder", SurfaceKind::z_cylinder, 3, "[x0, y0, R], R > 0"},
};

}  // namespace

std::vector<model::Surface> read_surfaces(const Section& root, std::map<int, int>& index_of_id) {
  std::vector<model::Surface> out;
  std::map<int, int> line_of_id;
  for (Section s : array_of_tables(root, "surface")) {
    s.allow_only({"id", "type", "coeffs", "boundary"});
    model::Surface surf;
    surf.where = s.loc();
    surf.user_id = static_cast<int>(s.required_integer("id", 1, int_max));
    s.set_path("surface[" + std::to_string(surf.user_id) + "]");
    if (auto it = line_of_id.find(surf.user_id); it != line_of_id.end()) {
      s.fail("id", "duplicate surface id " + std::to_string(surf.user_id) + " (first defined at line " +
                       std::to_string(it->second) + ")",
             "a unique positive integer");
    }
    line_of_id[surf.user_id] = s.line();

    std::vector<std::string> type_names;
    for (const auto& t : surface_types) type_names.emplace_back(t.name);
    const std::string type = s.required_string("type", join(type_names));
    const auto* t = std::find_if(std::begin(surface_types), std::end(surface_types),
                                 [&](const SurfaceType& st) { return st.name == type; });
    if (t == std::end(surface_types)) s.fail("type", "invalid value " + in_quotes(type), join(type_names));
    surf.kind = t->kind;

    const std::string layout = type + ": " + std::string(t->layout);
    if (!s.has("coeffs")) s.fail("coeffs", "missing required key", layout);
    const auto c = s.numbers("coeffs", t->coeffs, t->coeffs, layout);
    std::copy(c.begin(), c.end(), surf.coeffs.begin());
    const bool round = surf.kind == SurfaceKind::sphere || surf.kind == SurfaceKind::x_cylinder ||
                       surf.kind == SurfaceKind::y_cylinder || surf.kind == SurfaceKind::z_cylinder;
    if (round && !(c.back() > 0)) s.fail("coeffs", "radius " + format_number(c.back()) + " is not positive", layout);
    if (surf.kind == SurfaceKind::plane) {
      const double length = model::plane_normal_length(surf.coeffs);
      if (length == 0) s.fail("coeffs", "the plane's normal (a, b, c) is zero", layout);
      if (!std::isfinite(length)) s.fail("coeffs", "the plane's normal (a, b, c) is too long to normalise", layout);
      if (!std::isfinite(c[3] / length)) {
        s.fail("coeffs", "the plane's distance from the origin, d / |(a, b, c)|, is not a finite number", layout);
      }
    }

    surf.boundary = s.choice("boundary", BoundaryKind::transmission);
    index_of_id[surf.user_id] = static_cast<int>(out.size());
    out.push_back(surf);
  }
  return out;
}

namespace {

// ---------------------------------------------------------------------------------------------------
// [[cell]], [[lattice]], universes and [geometry]

// A reference by name, kept with where it was written until every name it may refer to is known.
struct NameRef {
  std::string name;
  int line = 0;
};

struct PendingCell {
  Section section;
  bool has_material = false;
  NameRef fill;  // material or universe/lattice name
};

std::vector<std::string> keys_of(const std::map<std::string, int>& m) {
  std::vector<std::string> out;
  for (const auto& kv : m) out.push_back(kv.first);
  return out;
}

std::vector<model::HalfSpace> read_region(const Section& s, const std::map<int, int>& surface_index) {
  constexpr std::string_view allowed = "signed surface ids separated by spaces, e.g. \"-1 +2 3\" (an intersection)";
  const auto text = s.string("region");
  std::vector<model::HalfSpace> out;
  if (!text) return out;  // all of space: check_everywhere_cells says where that is allowed
  std::istringstream in(*text);
  std::string token;
  while (in >> token) {
    if (token.find_first_of("()|~") != std::string::npos) {
      s.fail("region", "only intersections of half-spaces are supported, got " + in_quotes(token), allowed);
    }
    const bool negative = token[0] == '-';
    const std::size_t start = (token[0] == '-' || token[0] == '+') ? 1 : 0;
    int id = 0;
    const auto res = std::from_chars(token.data() + start, token.data() + token.size(), id);
    if (res.ec != std::errc() || res.ptr != token.data() + token.size() || id <= 0) {
      s.fail("region", "invalid half-space " + in_quotes(token), allowed);
    }
    const auto it = surface_index.find(id);
    if (it == surface_index.end()) {
      std::vector<std::string> ids;
      for (const auto& kv : surface_index) ids.push_back(std::to_string(kv.first));
      s.fail("region", "surface " + std::to_string(id) + " is not defined", "defined surfaces: " + join(ids));
    }
    for (const auto& h : out) {
      if (h.surface == it->second && h.positive == negative) {
        s.fail("region", "the region is empty: it asks for both sides of surface " + std::to_string(id), allowed);
      }
    }
    out.push_back({it->second, !negative});
  }
  if (out.empty()) s.fail("region", "the region is empty (leave region out for a cell that fills its universe)", allowed);
  return out;
}

// Cells, pass one: everything but the fill, which may name a universe defined by a later cell.
std::vector<PendingCell> read_cells(const Section& root, const std::map<int, int>& surface_index,
                                    model::Problem& p, std::map<std::string, int>& universe_index) {
  std::vector<PendingCell> pending;
  std::map<std::string, int> cell_index;
  for (Section s : array_of_tables(root, "cell")) {
    s.allow_only({"name", "universe", "region", "material", "fill"});
    model::Cell cell;
    cell.where = s.loc();
    cell.name = s.required_string("name", name_rule);
    if (!valid_name(cell.name)) s.fail("name", "invalid name " + in_quotes(cell.name), name_rule);
    if (auto it = cell_index.find(cell.name); it != cell_index.end()) {
      s.fail("name", "duplicate cell name " + in_quotes(cell.name) + " (first defined at line " +
                         std::to_string(p.cells[it->second].where.line) + ")",
             "a unique name");
    }
    s.set_path("cell[" + cell.name + "]");
    cell_index[cell.name] = static_cast<int>(p.cells.size());

    const std::string universe = s.string("universe").value_or("root");
    if (!valid_name(universe)) s.fail("universe", "invalid name " + in_quotes(universe), name_rule);
    auto [it, inserted] = universe_index.try_emplace(universe, static_cast<int>(p.universes.size()));
    if (inserted) p.universes.push_back({universe, {}});
    cell.universe = it->second;
    p.universes[cell.universe].cells.push_back(static_cast<int>(p.cells.size()));

    cell.region = read_region(s, surface_index);

    const bool has_material = s.has("material");
    const bool has_fill = s.has("fill");
    constexpr std::string_view one_of = "exactly one of material = \"<material>\" | \"void\" and fill = \"<universe or lattice>\"";
    if (has_material && has_fill) s.fail("fill", "a cell has both a material and a fill", one_of);
    if (!has_material && !has_fill) s.fail("", "a cell has neither a material nor a fill", one_of);
    const char* key = has_material ? "material" : "fill";
    NameRef ref{*s.string(key), s.line(key)};
    pending.push_back({s, has_material, ref});
    p.cells.push_back(std::move(cell));
  }
  return pending;
}

constexpr std::string_view lattice_grid =
    "universes = [[\"u\", ...], ...] (rows, top row first) or a list of such blocks, z ascending";

// A lattice's universe names as the input writes them: layers, z ascending, of rows, the first row on
// top (like a picture of the lattice).
struct LatticeNames {
  std::vector<std::vector<NameRef>> layers;  // each row after row
  bool three_d = false;                      // a list of layers; 2-D: one layer spanning all z
};

// One 2-D block of rows. The first layer sets the lattice's x and y shape; every later one must have it.
std::vector<NameRef> read_lattice_layer(const Section& s, const toml::node& block_node, bool first_layer,
                                        model::Lattice& lat) {
  const auto* rows = block_node.as_array();
  if (!rows || rows->empty()) s.fail_at(block_node, "universes", "expected a non-empty array of rows", lattice_grid);
  const int ny = static_cast<int>(rows->size());
  std::vector<NameRef> layer;
  int nx = -1;
  for (int r = 0; r < ny; ++r) {
    const auto& row_node = *rows->get(static_cast<std::size_t>(r));
    const auto* row = row_node.as_array();
    if (!row || row->empty()) s.fail_at(row_node, "universes", "expected a non-empty row of universe names", lattice_grid);
    if (nx < 0) nx = static_cast<int>(row->size());
    if (static_cast<int>(row->size()) != nx) {
      s.fail_at(row_node, "universes", "row " + std::to_string(r + 1) + " from the top has " + std::to_string(row->size()) +
                                           " elements, the first row has " + std::to_string(nx),
                "rows of equal length");
    }
    for (const auto& e : *row) {
      if (!e.is_string()) s.fail_at(e, "universes", "expected a universe name, got " + type_name(e), lattice_grid);
      layer.push_back({e.as_string()->get(), line_of(e)});
    }
  }
  if (!first_layer && (ny != lat.shape[1] || nx != lat.shape[0])) {
    s.fail_at(block_node, "universes", "a z layer of " + std::to_string(nx) + " x " + std::to_string(ny) +
                                           " elements, the first is " + std::to_string(lat.shape[0]) + " x " +
                                           std::to_string(lat.shape[1]),
              "layers of equal shape");
  }
  lat.shape[0] = nx;
  lat.shape[1] = ny;
  return layer;
}

// The universes key, one layer or a list of them; sets lat.shape.
LatticeNames read_lattice_names(const Section& s, model::Lattice& lat) {
  const auto* blocks = s.array("universes");
  if (!blocks) s.fail("universes", "missing required key", lattice_grid);
  if (blocks->empty()) s.fail("universes", "the lattice has no elements", lattice_grid);
  // 3-D when the first element's elements are themselves arrays (rows of a z layer), not names.
  const auto* first = blocks->get(0)->as_array();
  if (!first || first->empty()) {
    s.fail_at(*blocks->get(0), "universes", "expected a non-empty array of universe names", lattice_grid);
  }
  LatticeNames names;
  names.three_d = first->get(0)->is_array();
  if (names.three_d) {
    for (const auto& block : *blocks) {
      const bool first_layer = names.layers.empty();
      names.layers.push_back(read_lattice_layer(s, block, first_layer, lat));
    }
  } else {
    names.layers.push_back(read_lattice_layer(s, *s.find("universes"), true, lat));
  }
  lat.shape[2] = static_cast<int>(names.layers.size());
  return names;
}

// lower_left and pitch, with as many axes as the lattice has (`dims`).
void read_lattice_box(const Section& s, int dims, model::Lattice& lat) {
  const std::string ll_text = dims == 3 ? "[x, y, z] for a 3-D lattice" : "[x, y] for a 2-D lattice";
  const std::string pitch_text = dims == 3 ? "[px, py, pz] > 0 for a 3-D lattice" : "[px, py] > 0 for a 2-D lattice";
  if (!s.has("lower_left")) s.fail("lower_left", "missing required key", ll_text);
  if (!s.has("pitch")) s.fail("pitch", "missing required key", pitch_text);
  const auto ll = s.numbers("lower_left", static_cast<std::size_t>(dims), static_cast<std::size_t>(dims), ll_text);
  const auto pitch = s.numbers("pitch", static_cast<std::size_t>(dims), static_cast<std::size_t>(dims), pitch_text);
  for (int d = 0; d < dims; ++d) {
    if (!(pitch[d] > 0)) s.fail("pitch", "pitch[" + std::to_string(d) + "] = " + format_number(pitch[d]) + " is not positive", pitch_text);
    if (!(pitch[d] >= limits::min_lattice_pitch)) {
      s.fail("pitch", "pitch[" + std::to_string(d) + "] = " + format_number(pitch[d]) + " cm",
             "a pitch of at least " + format_number(limits::min_lattice_pitch) + " cm: tracking tells a point inside an "
             "element from one on its walls 1e-6 cm in");
    }
    // Where the box reaches, a double resolves coordinates no finer than this: io/limits.hpp.
    const double reach = std::max(std::fabs(ll[d]), std::fabs(ll[d] + lat.shape[static_cast<std::size_t>(d)] * pitch[d]));
    if (!(reach <= limits::max_lattice_reach)) {
      s.fail(std::fabs(ll[d]) >= std::fabs(ll[d] + lat.shape[static_cast<std::size_t>(d)] * pitch[d]) ? "lower_left" : "pitch",
             "the lattice reaches " + format_number(reach) + " cm from the origin along axis " + std::to_string(d) +
                 ", where coordinates are resolved to " + format_number(std::nextafter(reach, HUGE_VAL) - reach) +
                 " cm, coarser than the " +
                 format_number(coincident_tolerance) + " cm within which tracking decides which side of a wall a point is on",
             "a lattice within " + format_number(limits::max_lattice_reach) + " cm of the origin on every axis (move the model "
             "to the origin)");
    }
    lat.lower_left[d] = ll[d];
    lat.pitch[d] = pitch[d];
  }
  if (dims == 2) {
    // One layer spanning all z, centred on z = 0 so that local z equals global z.
    lat.lower_left[2] = -constants::infinity;
    lat.pitch[2] = 2 * constants::infinity;
  }
}

int universe_named(const Section& s, const std::map<std::string, int>& universe_index, const NameRef& ref,
                   std::string_view key) {
  const auto it = universe_index.find(ref.name);
  if (it == universe_index.end()) {
    s.source().fail(ref.line, s.key_path(key), "universe " + in_quotes(ref.name) + " is not defined",
                    "defined universes: " + join(keys_of(universe_index)));
  }
  return it->second;
}

// The names as written, resolved and put into model order: x fastest, then y upward, then z.
std::vector<int> lattice_universes(const Section& s, const LatticeNames& names, const model::Lattice& lat,
                                   const std::map<std::string, int>& universe_index) {
  const int nx = lat.shape[0], ny = lat.shape[1];
  std::vector<int> universes(static_cast<std::size_t>(nx) * ny * lat.shape[2], -1);
  for (int iz = 0; iz < lat.shape[2]; ++iz) {
    for (int r = 0; r < ny; ++r) {
      const int iy = ny - 1 - r;  // the first row is the top
      for (int ix = 0; ix < nx; ++ix) {
        const auto& ref = names.layers[static_cast<std::size_t>(iz)][static_cast<std::size_t>(r * nx + ix)];
        universes[static_cast<std::size_t>(ix + nx * (iy + ny * iz))] = universe_named(s, universe_index, ref, "universes");
      }
    }
  }
  return universes;
}

model::Lattice read_lattice(Section& s, const std::map<std::string, int>& universe_index) {
  s.allow_only({"name", "lower_left", "pitch", "universes", "outer"});
  model::Lattice lat;
  lat.where = s.loc();
  lat.name = s.required_string("name", name_rule);
  if (!valid_name(lat.name)) s.fail("name", "invalid name " + in_quotes(lat.name), name_rule);
  s.set_path("lattice[" + lat.name + "]");
  const LatticeNames names = read_lattice_names(s, lat);
  read_lattice_box(s, names.three_d ? 3 : 2, lat);
  lat.universes = lattice_universes(s, names, lat, universe_index);
  if (auto outer = s.string("outer")) lat.outer = universe_named(s, universe_index, {*outer, s.line("outer")}, "outer");
  return lat;
}

void resolve_fills(const std::vector<PendingCell>& pending, model::Problem& p,
                   const std::map<std::string, int>& material_index,
                   const std::map<std::string, int>& universe_index,
                   const std::map<std::string, int>& lattice_index) {
  for (std::size_t c = 0; c < pending.size(); ++c) {
    const auto& pc = pending[c];
    auto& cell = p.cells[c];
    const Section& s = pc.section;
    if (pc.has_material) {
      cell.fill_kind = FillKind::material;
      if (pc.fill.name == "void") {
        cell.fill = -1;
        continue;
      }
      const auto it = material_index.find(pc.fill.name);
      if (it == material_index.end()) {
        auto names = keys_of(material_index);
        names.insert(names.begin(), "void");
        s.fail("material", "material " + in_quotes(pc.fill.name) + " is not defined", "defined materials: " + join(names));
      }
      cell.fill = it->second;
      continue;
    }
    if (const auto it = universe_index.find(pc.fill.name); it != universe_index.end()) {
      cell.fill_kind = FillKind::universe;
      cell.fill = it->second;
    } else if (const auto lt = lattice_index.find(pc.fill.name); lt != lattice_index.end()) {
      cell.fill_kind = FillKind::lattice;
      cell.fill = lt->second;
    } else {
      s.fail("fill", "universe or lattice " + in_quotes(pc.fill.name) + " is not defined",
             "universes: " + join(keys_of(universe_index)) + "; lattices: " + join(keys_of(lattice_index)));
    }
  }
}

// A cell without a region is all of space, as in OpenMC: the one cell of a universe that only carries a
// fill or a material into a lattice element or another cell (no surfaces to track at its level). The
// root universe's cells bound the model, and a second cell beside one that is everywhere would overlap it.
void check_everywhere_cells(const std::vector<PendingCell>& pending, const model::Problem& p) {
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    const model::Cell& cell = p.cells[c];
    if (!cell.region.empty()) continue;
    const Section& s = pending[c].section;
    const model::Universe& u = p.universes[static_cast<std::size_t>(cell.universe)];
    if (cell.universe == p.root_universe) {
      s.fail("region", "missing required key: a cell of the root universe " + in_quotes(u.name) +
                           " needs a region (the model's outer boundary)",
             "signed surface ids separated by spaces, e.g. \"-1 +2 3\"; only a cell of another universe may leave "
             "region out");
    }
    if (u.cells.size() > 1) {
      const int other = u.cells[0] == static_cast<int>(c) ? u.cells[1] : u.cells[0];
      const model::Cell& o = p.cells[static_cast<std::size_t>(other)];
      s.fail("region",
             "a cell without a region fills all of universe " + in_quotes(u.name) + ", which also has cell " +
                 in_quotes(o.name) + " (line " + std::to_string(o.where.line) + ")",
             "a region, or no other cell in the universe");
    }
  }
}

}  // namespace

void read_geometry(const Section& root, const std::map<int, int>& surface_index, model::Problem& p) {
  std::map<std::string, int> universe_index;
  const auto pending = read_cells(root, surface_index, p, universe_index);
  if (p.cells.empty()) root.fail("cell", "the problem has no cells", "at least one [[cell]] in universe \"root\"");

  std::map<std::string, int> lattice_index;
  for (Section s : array_of_tables(root, "lattice")) {
    auto lat = read_lattice(s, universe_index);
    if (universe_index.count(lat.name)) {
      s.fail("name", in_quotes(lat.name) + " is already the name of a universe", "a name no universe or lattice has");
    }
    if (lattice_index.count(lat.name)) {
      s.fail("name", "duplicate lattice name " + in_quotes(lat.name) + " (first defined at line " +
                         std::to_string(p.lattices[lattice_index[lat.name]].where.line) + ")",
             "a unique name");
    }
    lattice_index[lat.name] = static_cast<int>(p.lattices.size());
    p.lattices.push_back(std::move(lat));
  }

  std::map<std::string, int> material_index;
  for (std::size_t m = 0; m < p.materials.size(); ++m) material_index[p.materials[m].name] = static_cast<int>(m);
  resolve_fills(pending, p, material_index, universe_index, lattice_index);

  std::string root_name = "root";
  int root_line = 1;
  if (const auto g = root.table("geometry")) {
    g->allow_only({"root"});
    root_name = g->string("root").value_or(root_name);
    root_line = g->line("root");
  }
  const auto it = universe_index.find(root_name);
  if (it == universe_index.end()) {
    root.source().fail(root_line, "geometry.root", "universe " + in_quotes(root_name) + " is not defined",
                       "defined universes: " + join(keys_of(universe_index)));
  }
  p.root_universe = it->second;
  check_everywhere_cells(pending, p);

  const auto problem = find_nesting_problem(p);
  if (!problem) return;
  if (problem->kind == NestingProblem::Kind::too_deep) {
    root.source().fail(root_line, "geometry.root",
                       "universe " + in_quotes(root_name) + " nests " + std::to_string(problem->levels) +
                           " universes deep",
                       "at most " + std::to_string(max_geometry_levels) + " levels");
  }
  const std::string what = "universe " + in_quotes(p.universes[problem->universe].name) + " contains itself";
  if (problem->lattice >= 0) {
    const auto& lat = p.lattices[problem->lattice];
    // Through an element, or through the outer universe alone (`outer = "root"`).
    if (std::find(lat.universes.begin(), lat.universes.end(), problem->universe) == lat.universes.end()) {
      root.source().fail(lat.where.line, "lattice[" + lat.name + "].outer", what,
                         "an outer universe that does not contain the lattice itself");
    }
    root.source().fail(lat.where.line, "lattice[" + lat.name + "].universes", what,
                       "lattice elements that do not contain the lattice itself");
  }
  pending[problem->cell].section.fail("fill", what, "a fill that does not contain the cell's own universe");
}

}  // namespace keff::detail
