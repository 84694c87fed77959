// Reading and validating a TOML problem. Every check that needs no nuclear data happens here, so a
// mistake is reported with its file, line and key before any device memory is touched. The schema is
// documented in examples/INPUT.md; messages have one shape:
//   <file>:<line>: <table>[<name>].<key>: <what is wrong> (allowed: <what is allowed>)
#include "io/input/geometry_bounds.hpp"
#include "io/input/input_parts.hpp"
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
// [settings]

model::Settings read_settings(const Section& root) {
  const auto st = root.table("settings");
  if (!st) root.fail("settings", "missing required table [settings]", "a [settings] table with at least [settings.source]");
  const Section& s = *st;
  s.allow_only({"particles", "batches", "inactive", "seed", "mode", "transport", "energy_grid", "thermal",
                "temperature", "thermal_tables", "thermal_table_energies", "thermal_table_samples", "thermal_table_draws",
                "hash_bins", "bank_capacity_factor", "initial_k", "max_events", "max_lost", "statepoint",
                "statepoint_interval", "allow_oversubscribed_memory", "geometry_check_points", "source",
                "entropy_mesh", "tally_mesh", "event", "max_batches", "generations_per_batch",
                "populations"});
  model::Settings out;
  out.particles = s.integer("particles", out.particles, 1, limits::max_particles);
  out.batches = static_cast<int>(s.integer("batches", out.batches, 1, limits::max_batches));
  out.inactive = static_cast<int>(s.integer("inactive", out.inactive, 0, limits::max_batches - 1));
  if (out.inactive >= out.batches) {
    s.fail(s.has("inactive") ? "inactive" : "batches",
           "inactive = " + std::to_string(out.inactive) + " leaves no active batch of batches = " + std::to_string(out.batches),
           "0 <= inactive < batches");
  }
  out.seed = static_cast<std::uint64_t>(s.integer("seed", static_cast<std::int64_t>(out.seed), 1, int64_max));
  out.mode = s.choice("mode", out.mode);
  out.energy_grid = s.choice("energy_grid", out.energy_grid);
  if (out.mode == model::PhysicsMode::multigroup) {
    for (const char* key : {"thermal", "temperature", "thermal_tables", "thermal_table_energies", "thermal_table_samples",
                            "thermal_table_draws"}) {
      if (s.has(key)) {
        s.fail(key, "a thermal setting in a multigroup problem, whose cross sections hold their temperature",
               "thermal, temperature, thermal_tables and thermal_table_* only with mode = \"continuous-energy\"");
      }
    }
  }
  out.thermal = s.choice("thermal", out.thermal);
  out.temperature = read_temperature(s, out.temperature);
  out.thermal_tables = s.boolean("thermal_tables").value_or(out.thermal_tables);
  out.thermal_table_energies = static_cast<int>(
      s.integer("thermal_table_energies", out.thermal_table_energies, 2, limits::max_thermal_table_energies));
  out.thermal_table_samples = static_cast<int>(
      s.integer("thermal_table_samples", out.thermal_table_samples, 1, limits::max_thermal_table_samples));
  out.thermal_table_draws = static_cast<int>(
      s.integer("thermal_table_draws", out.thermal_table_draws, 1, limits::max_thermal_table_draws));
  if (std::int64_t{out.thermal_table_energies} * out.thermal_table_samples > limits::max_thermal_table_outcomes) {
    s.fail(s.has("thermal_table_samples") ? "thermal_table_samples" : "thermal_table_energies",
           std::to_string(out.thermal_table_energies) + " energies x " + std::to_string(out.thermal_table_samples) +
               " samples per NCrystal material",
           "thermal_table_energies x thermal_table_samples <= " + std::to_string(limits::max_thermal_table_outcomes));
  }
  out.hash_bins = static_cast<int>(s.integer("hash_bins", out.hash_bins, 1, limits::max_hash_bins));
  if (s.has("transport")) {
    out.transport = s.choice("transport", TransportMode::history);
  }
  if (const auto ev = s.table("event")) {
    ev->allow_only({"slots", "sort", "sorter", "reorder"});
    out.event_slots = ev->integer("slots", out.event_slots, 0, std::int64_t(1) << 31);
    if (ev->has("sort")) out.event_sort = ev->choice("sort", EventSort::none);
    out.event_sorter = ev->choice("sorter", out.event_sorter);
    if (ev->has("reorder")) out.event_reorder = ev->choice("reorder", EventReorder::particles);
  }
  out.bank_capacity_factor = s.number(
      "bank_capacity_factor", out.bank_capacity_factor,
      [](double v) { return v >= 1.0 && v <= limits::max_bank_capacity_factor; },
      "a number in [1, " + format_number(limits::max_bank_capacity_factor) + "]: fission sites per source particle");
  out.initial_k = s.number(
      "initial_k", out.initial_k,
      [](double v) { return v >= limits::min_initial_k && v <= limits::max_initial_k; },
      "a number in [" + format_number(limits::min_initial_k) + ", " + format_number(limits::max_initial_k) + "]");
  out.max_events = static_cast<int>(s.integer("max_events", out.max_events, 1, int_max));
  out.max_lost = s.integer("max_lost", out.max_lost, 0, int64_max);
  if (auto v = s.string("statepoint")) out.statepoint = *v;
  out.statepoint_interval = static_cast<int>(s.integer("statepoint_interval", out.statepoint_interval, 0, int_max));
  out.max_batches = static_cast<int>(s.integer("max_batches", out.max_batches, 0, limits::max_batches));
  if (out.max_batches > 0 && out.max_batches < out.batches) {
    s.fail("max_batches", "max_batches = " + std::to_string(out.max_batches) + " is below batches = " +
                              std::to_string(out.batches),
           "0 (none), or at least batches: the run goes on past batches until its tally triggers hold");
  }
  out.generations_per_batch = static_cast<int>(
      s.integer("generations_per_batch", out.generations_per_batch, 1, limits::max_generations_per_batch));
  if (model::last_generation(out) > limits::max_batches) {
    s.fail("generations_per_batch",
           std::to_string(model::last_batch(out)) + " batches x " +
               std::to_string(out.generations_per_batch) + " generations",
           "at most " + limits::number_text(limits::max_batches) + " generations in a run (each keeps its record)");
  }
  out.populations_automatic = !s.has("populations") || s.find("populations")->is_string();
  if (out.populations_automatic) {
    if (const auto v = s.string("populations"); v && *v != "auto") {
      s.fail("populations", "invalid value " + in_quotes(*v), model::populations_allowed());
    }
  } else {
    out.populations = static_cast<int>(s.integer("populations", out.populations, 1, limits::max_populations));
    if (const std::string why = model::populations_problem(out); !why.empty()) {
      s.fail("populations", why, model::populations_allowed());
    }
  }
  out.allow_oversubscribed_memory = s.boolean("allow_oversubscribed_memory").value_or(false);
  out.geometry_check_points =
      s.integer("geometry_check_points", out.geometry_check_points, 0, limits::max_geometry_check_points);

  const auto src = s.table("source");
  if (!src) s.fail("source", "missing required table [settings.source]", "lower_left = [x, y, z] and upper_right = [x, y, z]");
  src->allow_only({"lower_left", "upper_right"});
  for (auto key : {"lower_left", "upper_right"}) {
    if (!src->has(key)) src->fail(key, "missing required key", "[x, y, z] in cm");
  }
  out.source = read_box(*src, {});

  out.entropy_mesh = {out.source, {8, 8, 1}};
  if (const auto em = s.table("entropy_mesh")) {
    em->allow_only({"lower_left", "upper_right", "shape"});
    out.entropy_mesh = read_mesh(*em, out.source, {8, 8, 1});
  }

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
  if (!p.nuclear_data.library.empty()) return;
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
