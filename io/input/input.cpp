// Reading and validating a TOML problem. Every check that needs no nuclear data happens here, so a
// mistake is reported with its file, line and key before any device memory is touched. The schema is
// documented in examples/INPUT.md; messages have one shape:
//   <file>:<line>: <table>[<name>].<key>: <what is wrong> (allowed: <what is allowed>)
#include "io/input/geometry_bounds.hpp"
#include "io/input/input_parts.hpp"
#include "io/input/settings_rows.hpp"
#include "io/input_file.hpp"


namespace keff {
namespace detail {

// ---------------------------------------------------------------------------------------------------
// Boxes and meshes (io/input/input_parts.hpp)

model::Box read_box(const Section& s, const model::Box& fallback) {
  constexpr std::string_view xyz = "[x, y, z] in cm";
  model::Box box = fallback;
  if (s.has("lower_left")) {
    const auto v = s.numbers("lower_left", 3, 3, xyz);
    std::copy(v.begin(), v.end(), box.lower.begin());
  }
  if (s.has("upper_right")) {
    const auto v = s.numbers("upper_right", 3, 3, xyz);
    std::copy(v.begin(), v.end(), box.upper.begin());
  }
  for (int d = 0; d < 3; ++d) {
    if (!(box.upper[d] > box.lower[d])) {
      s.fail("upper_right", "upper_right[" + std::to_string(d) + "] = " + format_number(box.upper[d]) +
                                " is not above lower_left[" + std::to_string(d) + "] = " + format_number(box.lower[d]),
             "upper_right > lower_left on every axis");
    }
    if (!std::isfinite(box.upper[d] - box.lower[d])) {
      s.fail("upper_right", "the width upper_right[" + std::to_string(d) + "] - lower_left[" + std::to_string(d) +
                                "] overflows a double",
             "a finite width on every axis");
    }
  }
  return box;
}

model::Mesh read_mesh(const Section& s, const model::Box& fallback_box, std::array<int, 3> fallback_shape) {
  model::Mesh mesh;
  mesh.box = read_box(s, fallback_box);
  mesh.shape = fallback_shape;
  if (s.has("shape")) {
    const std::string allowed = "[nx, ny, nz], integers >= 1 with nx * ny * nz <= " +
                                limits::number_text(limits::max_mesh_bins) + " bins";
    const auto v = s.integers("shape", 3, allowed);
    for (int d = 0; d < 3; ++d) {
      if (v[d] < 1 || v[d] > limits::max_mesh_bins) s.fail("shape", "invalid value " + std::to_string(v[d]), allowed);
      mesh.shape[d] = static_cast<int>(v[d]);
    }
    if (!limits::checked_product(limits::max_mesh_bins, v[0], v[1], v[2])) {
      s.fail("shape", std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " + std::to_string(v[2]) +
                          " bins are too many", allowed);
    }
  }
  return mesh;
}

namespace {

// ---------------------------------------------------------------------------------------------------
// [settings]: a loop over its rows (io/input/settings_rows.hpp), each read from its table with its range.

template <auto Member>
void read_row(const Section& t, std::string_view key, const settings::IntegerRow<Member>& row, model::Settings& out) {
  const auto v = t.integer(key);
  if (v && !row.set(out, *v)) t.fail(key, "invalid value " + std::to_string(*v), row.allowed());
}

template <auto Member>
void read_row(const Section& t, std::string_view key, const settings::NumberRow<Member>& row, model::Settings& out) {
  const auto v = t.number(key);
  if (v && !row.set(out, *v)) t.fail(key, "invalid value " + format_number(*v), row.allowed());
}

template <auto Member>
void read_row(const Section& t, std::string_view key, const settings::BooleanRow<Member>& row, model::Settings& out) {
  if (const auto v = t.boolean(key)) row.set(out, *v);
}

template <auto Member>
void read_row(const Section& t, std::string_view key, const settings::StringRow<Member>& row, model::Settings& out) {
  if (auto v = t.string(key)) row.set(out, std::move(*v));
}

template <auto Member, class E>
void read_row(const Section& t, std::string_view key, const settings::ChoiceRow<Member, E>& row, model::Settings& out) {
  if (t.has(key)) row.set(out, t.choice(key, E{}));
}

// An integer, or the word "auto".
template <class Row>
  requires std::same_as<Row, settings::PopulationsRow> || std::same_as<Row, settings::InactiveRow>
void read_row(const Section& t, std::string_view key, const Row& row, model::Settings& out) {
  const toml::node* n = t.find(key);
  if (!n) return;
  if (n->is_string()) {
    const std::string v = *t.string(key);
    if (!row.set(out, v)) t.fail(key, "invalid value " + in_quotes(v), row.allowed());
  } else {
    const std::int64_t v = *t.integer(key);
    if (!row.set(out, std::to_string(v))) t.fail(key, "invalid value " + std::to_string(v), row.allowed());
  }
}

// Read by its table's own reader (the source and entropy boxes below, the tally mesh by read_tallies).
void read_row(const Section&, std::string_view, const settings::TableKeyRow&, model::Settings&) {}

// The keys that apply to continuous energy only, for the message refusing one in a multigroup problem.
std::string continuous_energy_keys() {
  std::string keys;
  settings::for_each_setting([&](const auto& row) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(row)>, settings::TableKeyRow>) {
      if (row.applies == settings::Applies::continuous_energy) keys.append(keys.empty() ? "" : ", ").append(row.key);
    }
  });
  return keys;
}

model::Settings read_settings(const Section& root) {
  const auto st = root.table("settings");
  if (!st) root.fail("settings", "missing required table [settings]", "a [settings] table with at least [settings.source]");
  const Section& s = *st;
  s.allow_only(settings::top_level_keys());
  for (const std::string_view name : settings::top_level_keys()) {
    if (const auto keys = settings::keys_of_table(name); !keys.empty()) {
      if (const auto t = s.table(name)) t->allow_only(keys);
    }
  }
  model::Settings out;
  // In the rows' order: `mode` comes before the keys that apply to continuous energy only.
  settings::for_each_setting([&](const auto& row) {
    const auto dot = row.key.find('.');
    const std::string_view key = dot == std::string_view::npos ? row.key : row.key.substr(dot + 1);
    const std::optional<Section> t = dot == std::string_view::npos ? std::optional<Section>(s) : s.table(row.key.substr(0, dot));
    if (!t || !t->has(key)) return;
    if constexpr (!std::is_same_v<std::decay_t<decltype(row)>, settings::TableKeyRow>) {
      if (row.applies == settings::Applies::continuous_energy && out.mode == model::PhysicsMode::multigroup) {
        t->fail(key, "a continuous-energy setting in a multigroup problem, whose cross sections hold their temperature",
                continuous_energy_keys() + " only with mode = \"continuous-energy\"");
      }
    }
    read_row(*t, key, row, out);
  });

  const auto src = s.table("source");
  if (!src) s.fail("source", "missing required table [settings.source]", "lower_left = [x, y, z] and upper_right = [x, y, z]");
  for (auto key : {"lower_left", "upper_right"}) {
    if (!src->has(key)) src->fail(key, "missing required key", "[x, y, z] in cm");
  }
  out.source = read_box(*src, {});
  out.entropy_mesh = {out.source, {8, 8, 1}};
  if (const auto em = s.table("entropy_mesh")) out.entropy_mesh = read_mesh(*em, out.source, {8, 8, 1});

  // The rules between settings, at the first of their keys the input gives.
  if (const auto problem = settings::settings_problem(out)) {
    const auto given = std::find_if(problem->keys.begin(), problem->keys.end(), [&](std::string_view k) { return s.has(k); });
    s.fail(given == problem->keys.end() ? problem->keys.front() : *given, problem->what, problem->allowed);
  }
  model::choose_inactive_bound(out);
  return out;
}

// [domains]: mesh = [nx, ny, nz] over the geometry's bounding box, or over lower_left/upper_right.
std::optional<model::Domains> read_domains(const Section& root, const model::Problem& p) {
  const auto d = root.table("domains");
  if (!d) return std::nullopt;
  d->allow_only({"mesh", "lower_left", "upper_right"});
  model::Domains out;
  out.where = d->loc();
  constexpr std::string_view allowed = "[nx, ny, nz], integers from 1 to 64 with nx*ny*nz <= 4096";
  if (!d->has("mesh")) d->fail("mesh", "missing required key", allowed);
  const auto v = d->integers("mesh", 3, allowed);
  for (int axis = 0; axis < 3; ++axis) {
    if (v[axis] < 1 || v[axis] > 64) d->fail("mesh", "mesh[" + std::to_string(axis) + "] = " + std::to_string(v[axis]), allowed);
    out.mesh[axis] = static_cast<int>(v[axis]);
  }
  if (out.count() > 4096) d->fail("mesh", std::to_string(out.count()) + " domains", allowed);
  if (d->has("lower_left") || d->has("upper_right")) {
    for (auto key : {"lower_left", "upper_right"}) {
      if (!d->has(key)) d->fail(key, "missing: give both lower_left and upper_right, or neither", "[x, y, z] in cm");
    }
    out.box = read_box(*d, {});
  } else if (const auto box = geometry_bounding_box(p)) {
    out.box = *box;
  } else {
    d->fail("mesh", "the geometry's bounding box cannot be read off its root cells (a root cell is unbounded, or "
                    "bounded only by planes at an angle)",
            "a bounded root universe, or [domains] lower_left and upper_right");
  }
  if (p.settings.transport == TransportMode::history) {
    const int line = root.table("settings")->line("transport");
    d->fail("mesh",
            "domain decomposition runs event-based transport, but settings.transport = \"history\" (line " +
                std::to_string(line) + ")",
            "settings.transport = \"event\", or no transport key");
  }
  return out;
}

// The hash grid's table is (hash_bins + 1) x nuclides entries, indexed with int in kernels
// (limits::max_xs_table_entries). Synthetic data's nuclide count is known here; a library's is checked
// when the library is read (src/params/build_nuclear_data.cpp).
void check_hash_grid_size(const Section& root, const model::Problem& p) {
  const auto& s = p.settings;
  if (s.mode != model::PhysicsMode::continuous_energy || s.energy_grid != EnergyGridKind::hash) return;
  if (!p.nuclear_data.library.empty() || p.nuclear_data.ace) return;
  const std::int64_t nuclides = p.nuclear_data.nuclides;
  if (limits::checked_product(limits::max_xs_table_entries, std::int64_t{s.hash_bins} + 1, nuclides)) return;
  const std::string what = "(hash_bins + 1) x nuclear_data.nuclides = (" + std::to_string(s.hash_bins) + " + 1) x " +
                           std::to_string(nuclides) + " hash-grid entries are too many";
  const std::string allowed = "(hash_bins + 1) x nuclides <= " + limits::number_text(limits::max_xs_table_entries) +
                              ": fewer hash_bins or nuclides, or energy_grid = \"nuclide\"";
  const auto settings = root.table("settings");
  if (settings->has("hash_bins")) settings->fail("hash_bins", what, allowed);
  root.table("nuclear_data")->fail("nuclides", what, allowed);
}

// toml++'s description of a syntax error. Its redefinition errors quote the key in an escaping of their
// own that garbles a key with escapes in it ("a\x1b" came out as "a\a\u001b"), so the key is named by
// the line of the file that redefines it instead, made printable and cut.
std::string syntax_error_description(std::string_view description, std::string_view text, std::size_t line) {
  constexpr std::string_view redefine = "cannot redefine existing ";
  const std::size_t at = description.find(redefine);
  const std::size_t quote = at == std::string_view::npos ? at : description.find(" '", at);
  if (quote == std::string_view::npos) return std::string(description);
  std::size_t begin = 0;
  for (std::size_t n = 1; n < line && begin != std::string_view::npos; ++n) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  std::string_view source_line = begin == std::string_view::npos ? std::string_view() : text.substr(begin);
  source_line = source_line.substr(0, source_line.find('\n'));
  return std::string(description.substr(0, quote)) + " (the line reads: " + printable_cut(source_line, 120) + ")";
}

}  // namespace
}  // namespace detail

using namespace detail;

// ---------------------------------------------------------------------------------------------------

model::Problem read_problem_string(std::string_view toml_text, const std::string& source_name) {
  const Source src{source_name};
  toml::table doc;
  try {
    doc = toml::parse(toml_text, std::string(source_name));
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw InputError(printable(source_name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                               ": TOML syntax error: " + syntax_error_description(e.description(), toml_text, at.line)));
  }
  const Section root(src, doc, "");
  root.allow_only({"settings", "nuclear_data", "multigroup", "surface", "cell", "lattice", "material", "geometry",
                   "domains", "cmfd", "mesh", "tally", "plot"});

  model::Problem p;
  p.source_name = source_name;
  p.settings = read_settings(root);
  p.nuclear_data = read_nuclear_data(root, p.settings.mode);
  check_hash_grid_size(root, p);
  p.groups = read_groups(root, p.settings.mode);
  std::map<int, int> surface_index;
  p.surfaces = read_surfaces(root, surface_index);
  std::map<std::string, int> material_index;
  p.materials = read_materials(root, p.settings, p.groups, material_index, p.notes);
  read_geometry(root, surface_index, p);
  p.domains = read_domains(root, p);
  p.cmfd = read_cmfd(root, p);
  model::choose_populations(p);
  read_tallies(root, p);
  check_triggers(root, p);
  read_plots(root, p);
  return p;
}

model::Problem read_problem_file(const std::string& path) { return read_problem_string(read_input_file(path), path); }

std::string read_input_file(const std::string& path) {
  try {
    return read_regular_file(path, limits::max_input_bytes);
  } catch (const InputFileError& e) {
    throw InputError(std::string("cannot open input file ") + e.what());
  }
}

}  // namespace keff
