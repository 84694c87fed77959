// [[mesh]] and [[tally]], and [settings.tally_mesh] as their shorthand: read once the materials and the
// geometry are, since filters name cells, materials and universes. Each tally is checked whole here: its
// filters and their bins, its scores and what its estimator can make of them, its trigger, its size.
#include "io/input/cell_placements.hpp"
#include "io/input/geometry_bounds.hpp"
#include "io/input/settings_rows.hpp"
#include "io/input/input_parts.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace keff::detail {

namespace {

// The keys that give filters' bins (a row's bins_key; the group filter has none), and a [[tally]]'s
// keys: those and its own.
constexpr auto filter_bins_keys = [] {
  std::array<std::string_view, tally_filter_count> keys{};
  std::size_t n = 0;
  for (const auto& f : tally_filters) {
    if (!f.bins_key.empty()) keys[n++] = f.bins_key;
  }
  return std::pair{keys, n};
}();
constexpr std::span<const std::string_view> bins_keys{filter_bins_keys.first.data(), filter_bins_keys.second};

std::vector<std::string_view> tally_keys() {
  std::vector<std::string_view> keys{"name", "filters", "scores", "estimator", "trigger"};
  keys.insert(keys.begin() + 2, bins_keys.begin(), bins_keys.end());
  return keys;
}

// A string or an array of strings, as a list.
std::vector<std::string> names_of(const Section& s, std::string_view key, std::string_view allowed) {
  if (const auto one = s.find(key); one && one->is_string()) return {one->as_string()->get()};
  const auto* arr = s.array(key);
  if (!arr || arr->empty()) s.fail(key, "expected a name or a non-empty array of names", allowed);
  std::vector<std::string> out;
  for (const auto& n : *arr) {
    if (!n.is_string()) s.fail_at(n, key, "expected a name, got " + type_name(n), allowed);
    out.push_back(n.as_string()->get());
  }
  return out;
}

// The indices of `names` in `index`, each at most once.
std::vector<int> resolve(const Section& s, std::string_view key, const std::vector<std::string>& names,
                         const std::map<std::string, int>& index, std::string_view what) {
  std::vector<std::string> defined;
  for (const auto& [name, i] : index) defined.push_back(name);
  std::vector<int> out;
  for (const auto& name : names) {
    const auto it = index.find(name);
    if (it == index.end()) {
      s.fail(key, std::string(what) + " " + in_quotes(name) + " is not defined",
             "defined " + std::string(what) + (what == "mesh" ? "es: " : "s: ") + join(defined));
    }
    if (std::find(out.begin(), out.end(), it->second) != out.end()) {
      s.fail(key, std::string(what) + " " + in_quotes(name) + " is listed twice", "each " + std::string(what) + " once");
    }
    out.push_back(it->second);
  }
  return out;
}

template <class T>
std::map<std::string, int> index_by_name(const std::vector<T>& items) {
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < items.size(); ++i) index[items[i].name] = static_cast<int>(i);
  return index;
}

// A bounds filter's bounds (`bounds` is its row): at least two, strictly ascending, within the row's range.
std::vector<double> read_bounds(const Section& s, std::string_view key, const TallyFilterInfo& bounds) {
  const BoundsRange& range = bounds.range;
  const std::string allowed = "2 to " + std::to_string(limits::max_filter_bounds) + " " + std::string(bounds.bins_allowed) +
                              " in " + std::string(bounds.units) + ", " + allowed_bounds(range, format_number) +
                              " and strictly ascending";
  const auto b = s.numbers(key, 2, static_cast<std::size_t>(limits::max_filter_bounds), allowed);
  if (b.empty()) s.fail(key, "missing required key", allowed);
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::string which = std::string(key) + "[" + std::to_string(i) + "] = " + format_number(b[i]);
    if (!(b[i] >= range.lowest && b[i] <= range.highest)) s.fail(key, which + " is out of range", allowed);
    if (i > 0 && !(b[i] > b[i - 1])) s.fail(key, which + " is out of order", allowed);
  }
  return b;
}

// [[mesh]]: lower_left, upper_right and shape of 1, 2 or 3 axes (x, then y, then z); the axes left out
// span all of space in one bin.
model::NamedMesh read_named_mesh(const Section& s) {
  s.allow_only({"name", "lower_left", "upper_right", "shape"});
  model::NamedMesh m;
  m.where = s.loc();
  m.name = s.required_string("name", name_rule);
  if (!valid_name(m.name)) s.fail("name", "invalid name " + in_quotes(m.name), name_rule);
  constexpr std::string_view axes = "1 to 3 numbers: x, or x and y, or x, y and z";
  for (const char* key : {"lower_left", "upper_right", "shape"}) {
    if (!s.has(key)) s.fail(key, "missing required key", axes);
  }
  const auto lower = s.numbers("lower_left", 1, 3, axes);
  const auto upper = s.numbers("upper_right", lower.size(), lower.size(), "as many numbers as lower_left");
  const auto shape = s.numbers("shape", lower.size(), lower.size(), "as many integers as lower_left");
  m.mesh.box.lower.fill(-constants::infinity);
  m.mesh.box.upper.fill(constants::infinity);
  const std::string bins_allowed = "integers >= 1, at most " + limits::number_text(limits::max_mesh_bins) + " bins";
  for (std::size_t a = 0; a < lower.size(); ++a) {
    if (!(upper[a] > lower[a]) || !std::isfinite(upper[a] - lower[a])) {
      s.fail("upper_right", "upper_right[" + std::to_string(a) + "] = " + format_number(upper[a]) +
                                " is not above lower_left[" + std::to_string(a) + "] = " + format_number(lower[a]),
             "upper_right > lower_left on every axis, a finite width");
    }
    if (!(shape[a] >= 1 && shape[a] <= static_cast<double>(limits::max_mesh_bins)) || shape[a] != std::floor(shape[a])) {
      s.fail("shape", "shape[" + std::to_string(a) + "] = " + format_number(shape[a]), bins_allowed);
    }
    m.mesh.box.lower[a] = lower[a];
    m.mesh.box.upper[a] = upper[a];
    m.mesh.shape[a] = static_cast<int>(shape[a]);
  }
  if (!limits::checked_product(limits::max_mesh_bins, m.mesh.shape[0], m.mesh.shape[1], m.mesh.shape[2])) {
    s.fail("shape", "the mesh has too many bins", bins_allowed);
  }
  return m;
}

// The names every filter may refer to, by name.
struct Names {
  std::map<std::string, int> meshes, cells, materials, universes;
};

// The names a cell, material or universe filter may list, and what one of them is called.
const std::map<std::string, int>& names_for(const Names& n, FilterItems items) {
  switch (items) {
    case FilterItems::materials: return n.materials;
    case FilterItems::universes: return n.universes;
    case FilterItems::cells:
    case FilterItems::none: break;
  }
  return n.cells;
}

std::string_view item_word(FilterItems items) {
  switch (items) {
    case FilterItems::materials: return "material";
    case FilterItems::universes: return "universe";
    case FilterItems::cells:
    case FilterItems::none: break;
  }
  return "cell";
}

model::TallyFilter read_filter(const Section& s, TallyFilterKind kind, const model::Problem& p, const Names& n,
                               const std::vector<std::int64_t>& placements) {
  const TallyFilterInfo& info = info_of(kind);
  model::TallyFilter f;
  f.kind = kind;
  const std::string_view key = info.bins_key;
  const bool multigroup = p.settings.mode == model::PhysicsMode::multigroup;
  if (info.physics == FilterPhysics::continuous_energy && multigroup) {
    s.fail("filters", a_filter(info.name) + " in a multigroup problem", info.instead);
  }
  if (info.physics == FilterPhysics::multigroup && !multigroup) {
    s.fail("filters", a_filter(info.name) + " in a continuous-energy problem", info.instead);
  }
  switch (info.bins) {
    case FilterBins::mesh: {
      const auto names = names_of(s, key, info.bins_allowed);
      if (names.size() != 1) s.fail(key, "expected one mesh, got " + std::to_string(names.size()), info.bins_allowed);
      f.mesh = resolve(s, key, names, n.meshes, "mesh")[0];
      break;
    }
    case FilterBins::names:
    case FilterBins::placements:
      f.items = resolve(s, key, names_of(s, key, info.bins_allowed), names_for(n, info.items), item_word(info.items));
      if (info.bins != FilterBins::placements) break;
      for (const int c : f.items) {
        if (placements[static_cast<std::size_t>(c)] == 0) {
          s.fail(key, "cell " + in_quotes(p.cells[static_cast<std::size_t>(c)].name) +
                          " is placed nowhere: no cell or lattice of the geometry holds its universe",
                 "cells of universes the root universe reaches");
        }
      }
      break;
    case FilterBins::bounds: f.bounds = read_bounds(s, key, info); break;
    case FilterBins::groups: break;
  }
  return f;
}

// Filters, in the order given: the axes of the results.
std::vector<model::TallyFilter> read_filters(const Section& s, const model::Problem& p, const Names& n,
                                             const std::vector<std::int64_t>& placements) {
  const std::string filter_names = allowed_names<TallyFilterKind>();
  std::vector<TallyFilterKind> kinds;
  if (s.has("filters")) {
    for (const auto& name : names_of(s, "filters", filter_names)) {
      const auto kind = enum_from_name<TallyFilterKind>(name);
      if (!kind) s.fail("filters", "unknown filter " + in_quotes(name), filter_names);
      if (std::find(kinds.begin(), kinds.end(), *kind) != kinds.end()) {
        s.fail("filters", "filter " + in_quotes(name) + " is listed twice", "each filter once");
      }
      kinds.push_back(*kind);
    }
  }
  if (kinds.size() > static_cast<std::size_t>(max_tally_filters)) {
    s.fail("filters", std::to_string(kinds.size()) + " filters", "at most " + std::to_string(max_tally_filters));
  }
  for (const std::string_view key : bins_keys) {
    const bool used =
        std::any_of(kinds.begin(), kinds.end(), [&](TallyFilterKind k) { return info_of(k).bins_key == key; });
    if (s.has(key) && !used) {
      s.fail(key, "the bins of a filter the tally does not have", "list its filter in filters (keys: " +
                                                                   join(bins_keys) + ")");
    }
  }
  std::vector<model::TallyFilter> filters;
  for (const TallyFilterKind kind : kinds) filters.push_back(read_filter(s, kind, p, n, placements));
  return filters;
}

// Scores, and the estimator that makes them: by default as OpenMC's, track length where every score
// allows it, else analog.
void read_scores(const Section& s, const model::Problem& p, model::Tally& t) {
  const std::string score_names = allowed_names<TallyScore>();
  if (!s.has("scores")) s.fail("scores", "missing required key", score_names);
  for (const auto& name : names_of(s, "scores", score_names)) {
    const auto score = enum_from_name<TallyScore>(name);
    if (!score) s.fail("scores", "unknown score " + in_quotes(name), score_names);
    if (info_of(*score).evaluated_only && !p.nuclear_data.ace) {
      s.fail("scores", "score " + in_quotes(name) + " is a reaction only evaluated data tell apart",
             "[nuclear_data] ace = true, or another score");
    }
    if (std::find(t.scores.begin(), t.scores.end(), *score) != t.scores.end()) {
      s.fail("scores", "score " + in_quotes(name) + " is listed twice", "each score once");
    }
    t.scores.push_back(*score);
  }
  const bool all_tracklength =
      std::all_of(t.scores.begin(), t.scores.end(), [](TallyScore sc) { return info_of(sc).tracklength; });
  t.estimator = s.choice("estimator", all_tracklength ? TallyEstimator::tracklength : TallyEstimator::analog);
  for (const TallyScore sc : t.scores) {
    if (!info_of(sc).estimated_by(t.estimator)) {
      std::string can;
      for (const auto& e : tally_estimator_names) {
        if (info_of(sc).estimated_by(e.value)) can += (can.empty() ? "" : ", ") + std::string(e.name);
      }
      s.fail(s.has("estimator") ? "estimator" : "scores",
             "the " + std::string(name_of(t.estimator)) + " estimator cannot make score " + in_quotes(info_of(sc).name),
             "for " + std::string(info_of(sc).name) + ": " + can);
    }
  }
}

std::optional<model::TallyTrigger> read_trigger(const Section& s, const model::Tally& t) {
  const auto trigger = s.table("trigger");
  if (!trigger) return std::nullopt;
  trigger->allow_only({"score", "rel_err"});
  model::TallyTrigger tr;
  const std::string name = trigger->required_string("score", "a score of the tally");
  const auto score = enum_from_name<TallyScore>(name);
  if (!score || std::find(t.scores.begin(), t.scores.end(), *score) == t.scores.end()) {
    std::vector<std::string> own;
    for (const TallyScore sc : t.scores) own.emplace_back(info_of(sc).name);
    trigger->fail("score", "score " + in_quotes(name) + " is not one the tally has", "one of its scores: " + join(own));
  }
  tr.score = *score;
  if (!trigger->has("rel_err")) trigger->fail("rel_err", "missing required key", "a relative error in (0, 1]");
  tr.rel_err = trigger->number("rel_err", 0, [](double v) { return v > 0 && v <= 1; }, "a relative error in (0, 1]");
  return tr;
}

// Its size: bins of every filter times the scores, within limits::max_tally_values.
void check_tally_size(const Section& s, const model::Problem& p, const model::Tally& t,
                      const std::vector<std::int64_t>& placements) {
  std::int64_t values = static_cast<std::int64_t>(t.scores.size());
  std::string product = std::to_string(values) + " scores";
  bool fits = true;
  for (const auto& f : t.filters) {
    const std::int64_t bins = filter_bins(p, f, placements);
    product += " x " + std::to_string(bins) + " " + std::string(name_of(f.kind)) + " bins";
    fits = fits && bins > 0 && limits::checked_product(limits::max_tally_values, values, bins);
    if (fits) values *= bins;
  }
  if (!fits) {
    s.fail(t.filters.empty() ? "scores" : "filters", product + " are too many tally values",
           "bins x scores <= " + limits::number_text(limits::max_tally_values));
  }
}

model::Tally read_tally(Section s, const model::Problem& p, const Names& n, const std::vector<std::int64_t>& placements) {
  s.allow_only(tally_keys());
  model::Tally t;
  t.where = s.loc();
  t.name = s.required_string("name", name_rule);
  if (!valid_name(t.name)) s.fail("name", "invalid name " + in_quotes(t.name), name_rule);
  // Such a name used to fail the statepoint's write after the whole run (io/names.hpp says why).
  if (!valid_tally_name(t.name)) s.fail("name", "the name " + in_quotes(t.name) + " is reserved", tally_name_rule);
  s.set_path("tally[" + t.name + "]");
  t.filters = read_filters(s, p, n, placements);
  read_scores(s, p, t);
  t.trigger = read_trigger(s, t);
  check_tally_size(s, p, t, placements);
  return t;
}

// [settings.tally_mesh]: the shorthand of earlier inputs for a mesh "tally_mesh" and a tally "mesh" of
// flux and fission on it per energy band (continuous energy: energy_bounds, by default thermal below
// 0.625 eV and fast above) or per group, with the collision estimator as before.
void read_tally_mesh_shorthand(const Section& root, model::Problem& p) {
  const auto tm = root.table("settings")->table("tally_mesh");
  if (!tm) return;
  tm->allow_only(settings::keys_of_table("tally_mesh"));
  const bool multigroup = p.settings.mode == model::PhysicsMode::multigroup;
  p.meshes.push_back({"tally_mesh", read_mesh(*tm, p.settings.source, {1, 1, 1}), tm->loc()});
  model::Tally t;
  t.name = "mesh";
  t.where = tm->loc();
  model::TallyFilter mesh;
  mesh.mesh = static_cast<int>(p.meshes.size()) - 1;
  t.filters.push_back(mesh);
  model::TallyFilter energy;
  if (multigroup) {
    if (tm->has("energy_bounds")) {
      tm->fail("energy_bounds", "energy bounds in a multigroup problem: the tally uses the problem's groups",
               "energy_bounds only with mode = \"continuous-energy\"");
    }
    energy.kind = TallyFilterKind::group;
  } else {
    energy.kind = TallyFilterKind::energy;
    energy.bounds = tm->has("energy_bounds") ? read_bounds(*tm, "energy_bounds", info_of(TallyFilterKind::energy))
                                             : std::vector<double>{1.0e-5, 0.625, 2.0e7};
  }
  t.filters.push_back(energy);
  t.scores = {TallyScore::flux, TallyScore::fission};
  t.estimator = TallyEstimator::collision;
  const auto& shape = p.meshes.back().mesh.shape;
  const std::int64_t bands = filter_bins(p, energy, {});
  if (!limits::checked_product(limits::max_tally_values, bands, shape[0], shape[1], shape[2])) {
    tm->fail(tm->has("shape") ? "shape" : "energy_bounds",
             std::to_string(bands) + " energy groups x " + std::to_string(shape[0]) + " x " + std::to_string(shape[1]) +
                 " x " + std::to_string(shape[2]) + " bins are too many mesh-tally values",
             "groups x bins <= " + limits::number_text(limits::max_tally_values));
  }
  p.tallies.push_back(std::move(t));
}

// Why tally t can never score, or "": a mesh that misses the geometry's bounding box (where it has one),
// or bounds all outside the values a neutron takes (an energy filter's beyond the continuous-energy
// range). Such a tally used to give zeros without a word, and a trigger on it was reported as held.
std::string never_scores(const model::Problem& p, const model::Tally& t, const std::optional<model::Box>& bounds) {
  for (const auto& f : t.filters) {
    if (info_of(f.kind).bins == FilterBins::mesh && bounds) {
      const model::Box& m = p.meshes[static_cast<std::size_t>(f.mesh)].mesh.box;
      for (std::size_t a = 0; a < 3; ++a) {
        if (m.upper[a] <= bounds->lower[a] || m.lower[a] >= bounds->upper[a]) {
          return "its mesh '" + p.meshes[static_cast<std::size_t>(f.mesh)].name + "' lies outside the geometry's "
                 "bounding box along " + std::string(1, "xyz"[a]) + " ([" + format_number(m.lower[a]) + ", " +
                 format_number(m.upper[a]) + "] against [" + format_number(bounds->lower[a]) + ", " +
                 format_number(bounds->upper[a]) + "] cm)";
        }
      }
    }
    const TallyFilterInfo& info = info_of(f.kind);
    if (info.bins == FilterBins::bounds && !f.bounds.empty() &&
        (f.bounds.front() >= info.range.reach_high || f.bounds.back() <= info.range.reach_low)) {
      return "its " + std::string(info.name) + " bins [" + format_number(f.bounds.front()) + ", " +
             format_number(f.bounds.back()) + "] " + std::string(info.units) + " lie outside the neutrons' range [" +
             format_number(info.range.reach_low) + ", " + format_number(info.range.reach_high) + "] " +
             std::string(info.units);
    }
  }
  return {};
}

}  // namespace

void read_tallies(const Section& root, model::Problem& p) {
  read_tally_mesh_shorthand(root, p);
  const std::vector<std::int64_t> placements = placement_counts(p);
  Names n;
  for (const auto& m : p.meshes) n.meshes[m.name] = static_cast<int>(&m - p.meshes.data());
  for (Section s : array_of_tables(root, "mesh")) {
    model::NamedMesh m = read_named_mesh(s);
    if (n.meshes.count(m.name)) s.fail("name", "duplicate mesh name " + in_quotes(m.name), "a unique name");
    n.meshes[m.name] = static_cast<int>(p.meshes.size());
    p.meshes.push_back(std::move(m));
  }
  n.cells = index_by_name(p.cells);
  n.materials = index_by_name(p.materials);
  n.universes = index_by_name(p.universes);
  std::set<std::string> names;
  for (const auto& t : p.tallies) names.insert(t.name);  // the shorthand's
  for (Section s : array_of_tables(root, "tally")) {
    model::Tally t = read_tally(s, p, n, placements);
    if (!names.insert(t.name).second) s.fail("name", "duplicate tally name " + in_quotes(t.name), "a unique name");
    p.tallies.push_back(std::move(t));
  }
  const auto bounds = geometry_bounding_box(p);
  for (const auto& t : p.tallies) {
    if (const std::string why = never_scores(p, t, bounds); !why.empty()) {
      p.warnings.push_back(printable(t.where.str() + ": tally[" + t.name + "]: it can never score: " + why));
    }
  }
  std::int64_t values = 0;
  for (const auto& t : p.tallies) values += tally_values(p, t, placements);
  if (values > limits::max_tally_values) {
    root.fail("tally", "the tallies hold " + std::to_string(values) + " values together",
              "at most " + limits::number_text(limits::max_tally_values));
  }
}

void check_triggers(const Section& root, const model::Problem& p) {
  const auto settings = root.table("settings");
  const bool triggered = std::any_of(p.tallies.begin(), p.tallies.end(), [](const model::Tally& t) { return t.trigger; });
  if (triggered && p.settings.max_batches == 0) {
    const auto it = std::find_if(p.tallies.begin(), p.tallies.end(), [](const model::Tally& t) { return t.trigger; });
    root.source().fail(it->where.line, "tally[" + it->name + "].trigger", "a trigger without settings.max_batches",
                       "settings.max_batches, the most batches the run may go on to until its triggers hold");
  }
  if (!triggered && p.settings.max_batches > 0) {
    settings->fail("max_batches", "settings.max_batches without a tally trigger",
                   "max_batches with [[tally]] trigger = { score = ..., rel_err = ... }; without triggers the run "
                   "stops at batches");
  }
}

}  // namespace keff::detail
