// Reading and validating a TOML problem. Every check that needs no nuclear data happens here, so a
// mistake is reported with its file, line and key before any device memory is touched. The schema is
// documented in io/README.md; messages have one shape:
//   <file>:<line>: <table>[<name>].<key>: <what is wrong> (allowed: <what is allowed>)
#include "io/input.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keff {
namespace {

using model::SourceLoc;

constexpr std::int64_t int_max = std::numeric_limits<int>::max();
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// ---------------------------------------------------------------------------------------------------
// Message helpers

std::string format_number(double v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);  // shortest text that reads back as v
  return std::string(buf, res.ptr);
}

// "a, b, c"; long lists are cut so a message stays one readable line.
std::string join(const std::vector<std::string>& items) {
  if (items.empty()) return "none defined";
  constexpr std::size_t max_listed = 20;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < max_listed; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > max_listed) out += ", ... (" + std::to_string(items.size()) + " in all)";
  return out;
}

std::string join(std::initializer_list<std::string_view> items) {
  std::vector<std::string> v;
  for (auto s : items) v.emplace_back(s);
  return join(v);
}

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

// Orders nodes as they appear in the file (toml++ tables iterate in key order).
bool before(const toml::source_region& a, const toml::source_region& b) {
  return std::pair(a.begin.line, a.begin.column) < std::pair(b.begin.line, b.begin.column);
}

// The input being read: its name, and the one way to report a problem in it.
struct Source {
  std::string name;

  [[noreturn]] void fail(int line, std::string_view path, std::string_view what,
                         std::string_view allowed) const {
    std::string msg = name + ":" + std::to_string(line) + ": " + std::string(path) + ": " + std::string(what);
    if (!allowed.empty()) msg += " (allowed: " + std::string(allowed) + ")";
    throw InputError(msg);
  }
  SourceLoc loc(int line) const { return {name, line}; }
};

// ---------------------------------------------------------------------------------------------------
// Section: one TOML table with its dotted path, typed and range-checked accessors that fail with a
// message pointing at the offending key.

class Section {
 public:
  Section(const Source& src, const toml::table& table, std::string path)
      : src_(&src), table_(&table), path_(std::move(path)) {}

  const Source& source() const { return *src_; }
  const toml::table& raw() const { return *table_; }
  const std::string& path() const { return path_; }
  void set_path(std::string path) { path_ = std::move(path); }
  int line() const { return line_of(*table_); }
  SourceLoc loc() const { return src_->loc(line()); }

  const toml::node* find(std::string_view key) const { return table_->get(key); }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  int line(std::string_view key) const {
    const auto* n = find(key);
    return n ? line_of(*n) : line();
  }
  std::string key_path(std::string_view key) const {
    if (key.empty()) return path_;
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  // At the key (or at the table's header when the key is absent).
  [[noreturn]] void fail(std::string_view key, std::string_view what, std::string_view allowed = {}) const {
    src_->fail(line(key), key_path(key), what, allowed);
  }
  // At one element of the key's array value.
  [[noreturn]] void fail_at(const toml::node& n, std::string_view key, std::string_view what,
                            std::string_view allowed = {}) const {
    src_->fail(line_of(n), key_path(key), what, allowed);
  }

  // Unknown keys are errors: a misspelt optional key would otherwise be silently ignored.
  void allow_only(std::initializer_list<std::string_view> allowed) const {
    const toml::key* first = nullptr;
    for (auto&& [k, v] : *table_) {
      (void)v;
      if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
      if (!first || before(k.source(), first->source())) first = &k;
    }
    if (first) {
      src_->fail(static_cast<int>(first->source().begin.line), key_path(first->str()), "unknown key",
                 join(allowed));
    }
  }

  // Typed access: std::nullopt when absent, an error when present with the wrong type.
  std::optional<std::int64_t> integer(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_integer()) fail(key, "expected an integer, got " + type_name(*n), "an integer");
    return n->as_integer()->get();
  }
  std::optional<double> number(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    return as_number(*n, key);
  }
  std::optional<std::string> string(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_string()) fail(key, "expected a string, got " + type_name(*n), "a string");
    return n->as_string()->get();
  }
  std::optional<bool> boolean(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_boolean()) fail(key, "expected true or false, got " + type_name(*n), "true, false");
    return n->as_boolean()->get();
  }
  const toml::array* array(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return nullptr;
    if (!n->is_array()) fail(key, "expected an array, got " + type_name(*n), "an array");
    return n->as_array();
  }
  std::optional<Section> table(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_table()) fail(key, "expected a table, got " + type_name(*n), "a table");
    return Section(*src_, *n->as_table(), key_path(key));
  }

  double as_number(const toml::node& n, std::string_view key) const {
    if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
    if (n.is_floating_point()) {
      const double v = n.as_floating_point()->get();
      if (!std::isfinite(v)) fail_at(n, key, "expected a finite number, got " + format_number(v), "a finite number");
      return v;
    }
    fail_at(n, key, "expected a number, got " + type_name(n), "a number");
  }

  // Range-checked forms with defaults.
  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max) const {
    const auto v = integer(key);
    if (!v) return fallback;
    if (*v < min || *v > max) fail(key, "invalid value " + std::to_string(*v), integer_range(min, max));
    return *v;
  }
  std::int64_t required_integer(std::string_view key, std::int64_t min, std::int64_t max) const {
    if (!has(key)) fail(key, "missing required key", integer_range(min, max));
    return integer(key, 0, min, max);
  }
  // `ok` decides, `allowed` says in words what it accepts.
  double number(std::string_view key, double fallback, const std::function<bool(double)>& ok,
                std::string_view allowed) const {
    const auto v = number(key);
    if (!v) return fallback;
    if (!ok(*v)) fail(key, "invalid value " + format_number(*v), allowed);
    return *v;
  }
  std::string choice(std::string_view key, std::string_view fallback,
                     std::initializer_list<std::string_view> options) const {
    const auto v = string(key);
    if (!v) return std::string(fallback);
    if (std::find(options.begin(), options.end(), *v) == options.end()) {
      fail(key, "invalid value " + in_quotes(*v), join(options));
    }
    return *v;
  }
  std::string required_string(std::string_view key, std::string_view allowed) const {
    const auto v = string(key);
    if (!v) fail(key, "missing required key", allowed);
    return *v;
  }

  // An array of numbers with a length in [min_len, max_len].
  std::vector<double> numbers(std::string_view key, std::size_t min_len, std::size_t max_len,
                              std::string_view allowed) const {
    const auto* arr = array(key);
    if (!arr) return {};
    if (arr->size() < min_len || arr->size() > max_len) {
      fail(key, "expected " + count_text(min_len, max_len) + " numbers, got " + std::to_string(arr->size()), allowed);
    }
    std::vector<double> out;
    for (const auto& n : *arr) out.push_back(as_number(n, key));
    return out;
  }
  std::vector<std::int64_t> integers(std::string_view key, std::size_t len, std::string_view allowed) const {
    const auto* arr = array(key);
    if (!arr) return {};
    if (arr->size() != len) {
      fail(key, "expected " + std::to_string(len) + " integers, got " + std::to_string(arr->size()), allowed);
    }
    std::vector<std::int64_t> out;
    for (const auto& n : *arr) {
      if (!n.is_integer()) fail_at(n, key, "expected an integer, got " + type_name(n), allowed);
      out.push_back(n.as_integer()->get());
    }
    return out;
  }

  static std::string integer_range(std::int64_t min, std::int64_t max) {
    if (max == int64_max || max == int_max) return "an integer >= " + std::to_string(min);
    return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  }

 private:
  static std::string count_text(std::size_t lo, std::size_t hi) {
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  }

  const Source* src_;
  const toml::table* table_;
  std::string path_;
};

// The elements of a top-level [[key]] array, each as a Section named "key[#n]" (1-based) until the
// caller renames it after its id or name.
std::vector<Section> array_of_tables(const Section& root, std::string_view key) {
  std::vector<Section> out;
  const auto* n = root.find(key);
  if (!n) return out;
  const std::string header = "[[" + std::string(key) + "]] tables";
  if (!n->is_array()) root.fail(key, "expected an array of tables, got " + type_name(*n), header);
  int index = 0;
  for (const auto& elem : *n->as_array()) {
    ++index;
    const std::string path = std::string(key) + "[#" + std::to_string(index) + "]";
    if (!elem.is_table()) root.source().fail(line_of(elem), path, "expected a table, got " + type_name(elem), header);
    out.emplace_back(root.source(), *elem.as_table(), path);
  }
  return out;
}

bool valid_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  });
}
constexpr std::string_view name_rule = "letters, digits, '_', '-' and '.'";

// ---------------------------------------------------------------------------------------------------
// [settings]

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
  }
  return box;
}

model::Mesh read_mesh(const Section& s, const model::Box& fallback_box, std::array<int, 3> fallback_shape) {
  model::Mesh mesh;
  mesh.box = read_box(s, fallback_box);
  mesh.shape = fallback_shape;
  if (s.has("shape")) {
    constexpr std::string_view allowed = "[nx, ny, nz], integers >= 1";
    const auto v = s.integers("shape", 3, allowed);
    for (int d = 0; d < 3; ++d) {
      if (v[d] < 1 || v[d] > 1000000) s.fail("shape", "invalid value " + std::to_string(v[d]), allowed);
      mesh.shape[d] = static_cast<int>(v[d]);
    }
  }
  return mesh;
}

model::Settings read_settings(const Section& root) {
  const auto st = root.table("settings");
  if (!st) root.fail("settings", "missing required table [settings]", "a [settings] table with at least [settings.source]");
  const Section& s = *st;
  s.allow_only({"particles", "batches", "inactive", "seed", "mode", "energy_grid", "hash_bins",
                "bank_capacity_factor", "initial_k", "max_events", "max_lost", "statepoint",
                "statepoint_interval", "source", "entropy_mesh", "tally_mesh"});
  model::Settings out;
  out.particles = s.integer("particles", out.particles, 1, int64_max);
  out.batches = static_cast<int>(s.integer("batches", out.batches, 1, int_max));
  out.inactive = static_cast<int>(s.integer("inactive", out.inactive, 0, int_max));
  if (out.inactive >= out.batches) {
    s.fail(s.has("inactive") ? "inactive" : "batches",
           "inactive = " + std::to_string(out.inactive) + " leaves no active batch of batches = " + std::to_string(out.batches),
           "0 <= inactive < batches");
  }
  out.seed = static_cast<std::uint64_t>(s.integer("seed", static_cast<std::int64_t>(out.seed), 1, int64_max));
  const std::string mode = s.choice("mode", "continuous-energy", {"continuous-energy", "multigroup"});
  out.mode = mode == "multigroup" ? model::PhysicsMode::multigroup : model::PhysicsMode::continuous_energy;
  const std::string grid = s.choice("energy_grid", "hash", {"hash", "unionized", "nuclide"});
  out.energy_grid = grid == "hash" ? EnergyGridKind::hash
                    : grid == "unionized" ? EnergyGridKind::unionized
                                          : EnergyGridKind::nuclide;
  out.hash_bins = static_cast<int>(s.integer("hash_bins", out.hash_bins, 1, int_max));
  out.bank_capacity_factor = s.number("bank_capacity_factor", out.bank_capacity_factor,
                                      [](double v) { return v >= 1.0; }, "a number >= 1");
  out.initial_k = s.number("initial_k", out.initial_k, [](double v) { return v > 0.0; }, "a number > 0");
  out.max_events = static_cast<int>(s.integer("max_events", out.max_events, 1, int_max));
  out.max_lost = s.integer("max_lost", out.max_lost, 0, int64_max);
  if (auto v = s.string("statepoint")) out.statepoint = *v;
  out.statepoint_interval = static_cast<int>(s.integer("statepoint_interval", out.statepoint_interval, 0, int_max));

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

  out.tally_mesh = {out.source, {1, 1, 1}};
  if (out.mode == model::PhysicsMode::continuous_energy) out.tally_energy_bounds = {1.0e-5, 0.625, 2.0e7};
  if (const auto tm = s.table("tally_mesh")) {
    tm->allow_only({"lower_left", "upper_right", "shape", "energy_bounds"});
    out.tally_mesh = read_mesh(*tm, out.source, {1, 1, 1});
    if (tm->has("energy_bounds")) {
      if (out.mode == model::PhysicsMode::multigroup) {
        tm->fail("energy_bounds", "energy bounds in a multigroup problem: the tally uses the problem's groups",
                 "energy_bounds only with mode = \"continuous-energy\"");
      }
      constexpr std::string_view allowed = "at least 2 energies in eV, >= 0 and strictly ascending";
      const auto b = tm->numbers("energy_bounds", 2, 100000, allowed);
      for (std::size_t i = 0; i < b.size(); ++i) {
        if (b[i] < 0 || (i > 0 && !(b[i] > b[i - 1]))) {
          tm->fail("energy_bounds", "energy_bounds[" + std::to_string(i) + "] = " + format_number(b[i]) + " is out of order", allowed);
        }
      }
      out.tally_energy_bounds = b;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// [nuclear_data] and [multigroup]

model::NuclearDataSpec read_nuclear_data(const Section& root, model::PhysicsMode mode) {
  model::NuclearDataSpec out;
  out.where = root.source().loc(0);
  const auto nd = root.table("nuclear_data");
  if (!nd) return out;
  if (mode == model::PhysicsMode::multigroup) {
    root.fail("nuclear_data", "continuous-energy data in a multigroup problem",
              "[nuclear_data] only with settings.mode = \"continuous-energy\"; multigroup data goes in [multigroup] and the materials");
  }
  nd->allow_only({"library", "load", "readers", "nuclides", "gridpoints", "seed", "flat"});
  out.where = nd->loc();
  out.library = nd->string("library").value_or("");
  if (!out.library.empty()) {
    // Synthetic-data keys would be silently ignored next to a library: say so instead.
    for (const char* key : {"nuclides", "gridpoints", "seed", "flat"}) {
      if (nd->has(key)) {
        nd->fail(key, "only for synthetic data, but library is set",
                 "library, load, readers; or no library and nuclides, gridpoints, seed, flat");
      }
    }
    const std::filesystem::path path(out.library);
    const std::string& source = root.source().name;
    // Relative to the input file, so an input and its library move together; "<default>" has no directory.
    if (path.is_relative() && !source.starts_with("<")) {
      out.library = (std::filesystem::path(source).parent_path() / path).lexically_normal().string();
    }
    const std::string load = nd->choice("load", "root", {"all", "root", "readers", "node"});
    out.load.strategy = *parse_load_strategy(load);
    if (nd->has("readers") && out.load.strategy != LoadStrategy::readers) {
      nd->fail("readers", "only with load = \"readers\"", "load = \"readers\" and readers = K");
    }
    out.load.readers = static_cast<int>(nd->integer("readers", out.load.readers, 1, int_max));
  } else {
    for (const char* key : {"load", "readers"}) {
      if (nd->has(key)) nd->fail(key, "only with a library", "library = \"<HDF5 file or text directory>\"");
    }
  }
  out.nuclides = static_cast<int>(nd->integer("nuclides", out.nuclides, 1, int_max));
  out.gridpoints = static_cast<int>(nd->integer("gridpoints", out.gridpoints, 2, int_max));
  out.seed = static_cast<std::uint64_t>(nd->integer("seed", static_cast<std::int64_t>(out.seed), 0, int64_max));
  out.flat = nd->boolean("flat").value_or(out.flat);
  return out;
}

int read_groups(const Section& root, model::PhysicsMode mode) {
  const auto mg = root.table("multigroup");
  if (mode == model::PhysicsMode::continuous_energy) {
    if (mg) {
      root.fail("multigroup", "multigroup data in a continuous-energy problem",
                "[multigroup] only with settings.mode = \"multigroup\"");
    }
    return 0;
  }
  if (!mg) root.fail("multigroup", "missing required table [multigroup] in a multigroup problem", "[multigroup] groups = G");
  mg->allow_only({"groups"});
  return static_cast<int>(mg->required_integer("groups", 1, 10000));
}

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
    if (surf.kind == SurfaceKind::plane && c[0] == 0 && c[1] == 0 && c[2] == 0) {
      s.fail("coeffs", "the plane's normal (a, b, c) is zero", layout);
    }

    const std::string boundary = s.choice("boundary", "transmission", {"transmission", "vacuum", "reflective"});
    surf.boundary = boundary == "vacuum"       ? BoundaryKind::vacuum
                    : boundary == "reflective" ? BoundaryKind::reflective
                                               : BoundaryKind::transmission;
    index_of_id[surf.user_id] = static_cast<int>(out.size());
    out.push_back(surf);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// [[material]]

constexpr std::string_view mg_keys_text = "name, sigma_t, sigma_s, nu_sigma_f, sigma_f, chi";
constexpr std::string_view ce_keys_text = "name, nuclides, trace_nuclides, trace_density";

void read_ce_material(const Section& s, model::Material& mat) {
  for (auto key : {"sigma_t", "sigma_s", "nu_sigma_f", "sigma_f", "chi"}) {
    if (s.has(key)) s.fail(key, "multigroup data in a continuous-energy problem", ce_keys_text);
  }
  s.allow_only({"name", "nuclides", "trace_nuclides", "trace_density"});
  if (const auto nuc = s.table("nuclides")) {
    // In file order, so a material's nuclides keep the order the user wrote.
    std::vector<std::pair<const toml::key*, const toml::node*>> entries;
    for (auto&& [k, v] : nuc->raw()) entries.emplace_back(&k, &v);
    std::sort(entries.begin(), entries.end(),
              [](const auto& a, const auto& b) { return before(a.first->source(), b.first->source()); });
    for (const auto& [k, v] : entries) {
      const std::string name(k->str());
      const std::string key = "nuclides." + name;
      if (!valid_name(name)) s.fail_at(*v, key, "invalid nuclide name " + in_quotes(name), name_rule);
      const double density = s.as_number(*v, key);
      if (!(density > 0)) {
        s.fail_at(*v, key, "density " + format_number(density) + " is not positive", "atoms/barn-cm > 0");
      }
      mat.nuclides.push_back({name, density});
    }
  }
  const auto traces = s.integer("trace_nuclides", 0, 0, 999);
  const double trace_density = s.number("trace_density", 1.0e-6, [](double v) { return v > 0; }, "atoms/barn-cm > 0");
  for (std::int64_t i = 1; i <= traces; ++i) {
    char name[16];
    std::snprintf(name, sizeof(name), "FP%03d", static_cast<int>(i));
    for (const auto& n : mat.nuclides) {
      if (n.name == name) {
        s.fail("trace_nuclides", "trace nuclide " + in_quotes(name) + " is also listed in nuclides",
               "trace nuclides FP001..FPnnn not listed in nuclides");
      }
    }
    mat.nuclides.push_back({name, trace_density});
  }
  if (mat.nuclides.empty()) {
    s.fail("nuclides", "material has no nuclides",
           "nuclides = { NAME = atoms/barn-cm, ... } and/or trace_nuclides > 0");
  }
}

std::vector<double> read_group_vector(const Section& s, std::string_view key, int groups) {
  const std::string allowed = std::to_string(groups) + " numbers >= 0, one per group";
  const auto v = s.numbers(key, static_cast<std::size_t>(groups), static_cast<std::size_t>(groups), allowed);
  for (std::size_t g = 0; g < v.size(); ++g) {
    if (v[g] < 0) s.fail(key, std::string(key) + "[" + std::to_string(g) + "] = " + format_number(v[g]) + " is negative", allowed);
  }
  return v;
}

void read_mg_material(const Section& s, model::Material& mat, int groups) {
  for (auto key : {"nuclides", "trace_nuclides", "trace_density"}) {
    if (s.has(key)) s.fail(key, "continuous-energy data in a multigroup problem", mg_keys_text);
  }
  s.allow_only({"name", "sigma_t", "sigma_s", "nu_sigma_f", "sigma_f", "chi"});
  const auto G = static_cast<std::size_t>(groups);
  const std::vector<double> zeros(G, 0.0);
  for (auto key : {"sigma_t", "sigma_s"}) {
    if (!s.has(key)) s.fail(key, "missing required key", mg_keys_text);
  }
  mat.sigma_t = read_group_vector(s, "sigma_t", groups);
  mat.nu_sigma_f = s.has("nu_sigma_f") ? read_group_vector(s, "nu_sigma_f", groups) : zeros;
  mat.sigma_f = s.has("sigma_f") ? read_group_vector(s, "sigma_f", groups) : zeros;

  const std::string matrix = std::to_string(G) + " rows of " + std::to_string(G) +
                             " numbers >= 0, sigma_s[from][to], each row summing to <= sigma_t[from]";
  const auto* rows = s.array("sigma_s");
  if (rows->size() != G) s.fail("sigma_s", "expected " + std::to_string(G) + " rows, got " + std::to_string(rows->size()), matrix);
  for (std::size_t g = 0; g < G; ++g) {
    const auto& row_node = *rows->get(g);
    if (!row_node.is_array() || row_node.as_array()->size() != G) {
      s.fail_at(row_node, "sigma_s", "sigma_s[" + std::to_string(g) + "] is not an array of " + std::to_string(G) + " numbers", matrix);
    }
    std::vector<double> row;
    double sum = 0;
    for (const auto& x : *row_node.as_array()) {
      const double v = s.as_number(x, "sigma_s");
      if (v < 0) s.fail_at(x, "sigma_s", "sigma_s[" + std::to_string(g) + "][" + std::to_string(row.size()) + "] is negative", matrix);
      row.push_back(v);
      sum += v;
    }
    if (sum > mat.sigma_t[g] * (1 + 1e-12)) {
      s.fail_at(row_node, "sigma_s", "sigma_s[" + std::to_string(g) + "] sums to " + format_number(sum) +
                                         ", more than sigma_t[" + std::to_string(g) + "] = " + format_number(mat.sigma_t[g]),
                matrix);
    }
    // Fission is part of absorption, which is what scattering leaves of the total.
    const double absorption = mat.sigma_t[g] - sum;
    if (mat.sigma_f[g] > absorption + 1e-12 * mat.sigma_t[g]) {
      s.fail("sigma_f", "sigma_f[" + std::to_string(g) + "] = " + format_number(mat.sigma_f[g]) +
                            " exceeds the absorption sigma_t - sum(sigma_s) = " + format_number(absorption),
             "sigma_f <= sigma_t - sum of sigma_s[g][:]");
    }
    mat.sigma_s.push_back(std::move(row));
  }

  const bool fissile = std::any_of(mat.nu_sigma_f.begin(), mat.nu_sigma_f.end(), [](double v) { return v > 0; });
  if (fissile && !s.has("chi")) s.fail("chi", "missing required key in a fissile material", "chi: one number >= 0 per group, summing to 1");
  mat.chi = s.has("chi") ? read_group_vector(s, "chi", groups) : zeros;
  if (fissile) {
    double sum = 0;
    for (double c : mat.chi) sum += c;
    if (std::abs(sum - 1.0) > 1e-6) s.fail("chi", "chi sums to " + format_number(sum), "chi summing to 1 within 1e-6");
  }
}

std::vector<model::Material> read_materials(const Section& root, model::PhysicsMode mode, int groups,
                                            std::map<std::string, int>& index_of_name) {
  std::vector<model::Material> out;
  for (Section s : array_of_tables(root, "material")) {
    model::Material mat;
    mat.where = s.loc();
    mat.name = s.required_string("name", name_rule);
    if (!valid_name(mat.name)) s.fail("name", "invalid name " + in_quotes(mat.name), name_rule);
    if (mat.name == "void") s.fail("name", "'void' is reserved for cells with no material", "any other name");
    if (index_of_name.count(mat.name)) {
      s.fail("name", "duplicate material name " + in_quotes(mat.name) + " (first defined at line " +
                         std::to_string(out[index_of_name[mat.name]].where.line) + ")",
             "a unique name");
    }
    s.set_path("material[" + mat.name + "]");
    if (mode == model::PhysicsMode::multigroup) {
      read_mg_material(s, mat, groups);
    } else {
      read_ce_material(s, mat);
    }
    index_of_name[mat.name] = static_cast<int>(out.size());
    out.push_back(std::move(mat));
  }
  return out;
}

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
  if (!text) s.fail("region", "missing required key", allowed);
  std::vector<model::HalfSpace> out;
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
  if (out.empty()) s.fail("region", "the region is empty", allowed);
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

// Converts the input's rows (first row on top, like a picture of the lattice) into model order: x
// fastest, then y upward, then z.
model::Lattice read_lattice(Section& s, const std::map<std::string, int>& universe_index) {
  s.allow_only({"name", "lower_left", "pitch", "universes", "outer"});
  model::Lattice lat;
  lat.where = s.loc();
  lat.name = s.required_string("name", name_rule);
  if (!valid_name(lat.name)) s.fail("name", "invalid name " + in_quotes(lat.name), name_rule);
  s.set_path("lattice[" + lat.name + "]");

  constexpr std::string_view grid = "universes = [[\"u\", ...], ...] (rows, top row first) or a list of such blocks, z ascending";
  const auto* blocks = s.array("universes");
  if (!blocks) s.fail("universes", "missing required key", grid);
  if (blocks->empty()) s.fail("universes", "the lattice has no elements", grid);
  // 3-D when the first element's elements are themselves arrays (rows of a z layer), not names.
  const auto* first = blocks->get(0)->as_array();
  if (!first || first->empty()) s.fail_at(*blocks->get(0), "universes", "expected a non-empty array of universe names", grid);
  const bool three_d = first->get(0)->is_array();
  const int dims = three_d ? 3 : 2;

  // Lays out one 2-D block of rows into layer iz.
  std::vector<std::vector<NameRef>> layers;
  auto read_block = [&](const toml::node& block_node) {
    const auto* rows = block_node.as_array();
    if (!rows || rows->empty()) s.fail_at(block_node, "universes", "expected a non-empty array of rows", grid);
    const int ny = static_cast<int>(rows->size());
    std::vector<NameRef> layer;
    int nx = -1;
    for (int r = 0; r < ny; ++r) {
      const auto& row_node = *rows->get(static_cast<std::size_t>(r));
      const auto* row = row_node.as_array();
      if (!row || row->empty()) s.fail_at(row_node, "universes", "expected a non-empty row of universe names", grid);
      if (nx < 0) nx = static_cast<int>(row->size());
      if (static_cast<int>(row->size()) != nx) {
        s.fail_at(row_node, "universes", "row " + std::to_string(r + 1) + " from the top has " + std::to_string(row->size()) +
                                             " elements, the first row has " + std::to_string(nx),
                  "rows of equal length");
      }
      for (const auto& e : *row) {
        if (!e.is_string()) s.fail_at(e, "universes", "expected a universe name, got " + type_name(e), grid);
        layer.push_back({e.as_string()->get(), line_of(e)});
      }
    }
    if (!layers.empty() && (ny != lat.shape[1] || nx != lat.shape[0])) {
      s.fail_at(block_node, "universes", "a z layer of " + std::to_string(nx) + " x " + std::to_string(ny) +
                                             " elements, the first is " + std::to_string(lat.shape[0]) + " x " +
                                             std::to_string(lat.shape[1]),
                "layers of equal shape");
    }
    lat.shape[0] = nx;
    lat.shape[1] = ny;
    layers.push_back(std::move(layer));
  };
  if (three_d) {
    for (const auto& block : *blocks) read_block(block);
  } else {
    read_block(*s.find("universes"));
  }
  lat.shape[2] = static_cast<int>(layers.size());

  const std::string ll_text = dims == 3 ? "[x, y, z] for a 3-D lattice" : "[x, y] for a 2-D lattice";
  const std::string pitch_text = dims == 3 ? "[px, py, pz] > 0 for a 3-D lattice" : "[px, py] > 0 for a 2-D lattice";
  if (!s.has("lower_left")) s.fail("lower_left", "missing required key", ll_text);
  if (!s.has("pitch")) s.fail("pitch", "missing required key", pitch_text);
  const auto ll = s.numbers("lower_left", static_cast<std::size_t>(dims), static_cast<std::size_t>(dims), ll_text);
  const auto pitch = s.numbers("pitch", static_cast<std::size_t>(dims), static_cast<std::size_t>(dims), pitch_text);
  for (int d = 0; d < dims; ++d) {
    if (!(pitch[d] > 0)) s.fail("pitch", "pitch[" + std::to_string(d) + "] = " + format_number(pitch[d]) + " is not positive", pitch_text);
    lat.lower_left[d] = ll[d];
    lat.pitch[d] = pitch[d];
  }
  if (dims == 2) {
    // One layer spanning all z, centred on z = 0 so that local z equals global z.
    lat.lower_left[2] = -constants::infinity;
    lat.pitch[2] = 2 * constants::infinity;
  }

  const int nx = lat.shape[0], ny = lat.shape[1];
  lat.universes.assign(static_cast<std::size_t>(nx) * ny * lat.shape[2], -1);
  auto resolve = [&](const NameRef& ref, std::string_view key) {
    const auto it = universe_index.find(ref.name);
    if (it == universe_index.end()) {
      s.source().fail(ref.line, s.key_path(key), "universe " + in_quotes(ref.name) + " is not defined",
                      "defined universes: " + join(keys_of(universe_index)));
    }
    return it->second;
  };
  for (int iz = 0; iz < lat.shape[2]; ++iz) {
    for (int r = 0; r < ny; ++r) {
      const int iy = ny - 1 - r;  // the first row is the top
      for (int ix = 0; ix < nx; ++ix) {
        const auto& ref = layers[static_cast<std::size_t>(iz)][static_cast<std::size_t>(r * nx + ix)];
        lat.universes[static_cast<std::size_t>(ix + nx * (iy + ny * iz))] = resolve(ref, "universes");
      }
    }
  }
  if (auto outer = s.string("outer")) lat.outer = resolve({*outer, s.line("outer")}, "outer");
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

// Universes must nest without cycles, and no deeper than the tracker's fixed level stack.
class HierarchyCheck {
 public:
  HierarchyCheck(const Source& src, const model::Problem& p, const std::vector<PendingCell>& pending)
      : src_(src), p_(p), pending_(pending), state_(p.universes.size(), 0), depth_(p.universes.size(), 0) {}

  // Levels (universes entered) below and including u.
  int depth(int u) {
    if (state_[u] == 2) return depth_[u];
    state_[u] = 1;
    int deepest = 0;
    for (int c : p_.universes[u].cells) {
      const auto& cell = p_.cells[c];
      const Section& s = pending_[c].section;
      if (cell.fill_kind == FillKind::universe) {
        deepest = std::max(deepest, child(cell.fill, [&](const std::string& what) {
                             s.fail("fill", what, "a fill that does not contain the cell's own universe");
                           }));
      } else if (cell.fill_kind == FillKind::lattice) {
        const auto& lat = p_.lattices[cell.fill];
        std::vector<int> children = lat.universes;
        if (lat.outer >= 0) children.push_back(lat.outer);
        for (int v : children) {
          deepest = std::max(deepest, child(v, [&](const std::string& what) {
                               src_.fail(lat.where.line, "lattice[" + lat.name + "].universes", what,
                                         "lattice elements that do not contain the lattice itself");
                             }));
        }
      }
    }
    state_[u] = 2;
    depth_[u] = 1 + deepest;
    return depth_[u];
  }

 private:
  template <class Fail>
  int child(int v, const Fail& fail) {
    if (state_[v] == 1) fail("universe " + in_quotes(p_.universes[v].name) + " contains itself");
    return depth(v);
  }

  const Source& src_;
  const model::Problem& p_;
  const std::vector<PendingCell>& pending_;
  std::vector<int> state_;  // 0 unvisited, 1 on the current path, 2 done
  std::vector<int> depth_;
};

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

  const Source& src = root.source();
  HierarchyCheck check(src, p, pending);
  for (std::size_t u = 0; u < p.universes.size(); ++u) check.depth(static_cast<int>(u));
  const int levels = check.depth(p.root_universe);
  if (levels > max_geometry_levels) {
    src.fail(root_line, "geometry.root",
             "universe " + in_quotes(root_name) + " nests " + std::to_string(levels) + " universes deep",
             "at most " + std::to_string(max_geometry_levels) + " levels");
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

model::Problem read_problem_string(std::string_view toml_text, const std::string& source_name) {
  const Source src{source_name};
  toml::table doc;
  try {
    doc = toml::parse(toml_text, std::string(source_name));
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw InputError(source_name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                     ": TOML syntax error: " + std::string(e.description()));
  }
  const Section root(src, doc, "");
  root.allow_only({"settings", "nuclear_data", "multigroup", "surface", "cell", "lattice", "material", "geometry"});

  model::Problem p;
  p.source_name = source_name;
  p.settings = read_settings(root);
  p.nuclear_data = read_nuclear_data(root, p.settings.mode);
  p.groups = read_groups(root, p.settings.mode);
  std::map<int, int> surface_index;
  p.surfaces = read_surfaces(root, surface_index);
  std::map<std::string, int> material_index;
  p.materials = read_materials(root, p.settings.mode, p.groups, material_index);
  read_geometry(root, surface_index, p);
  return p;
}

model::Problem read_problem_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("cannot open input file '" + path + "': it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open input file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError("cannot read input file '" + path + "'");
  return read_problem_string(text.str(), path);
}

}  // namespace keff
