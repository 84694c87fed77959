// [nuclear_data], [multigroup] and [[material]]: where cross sections come from and what each material holds.
#include "io/input_parts.hpp"

#include <filesystem>

namespace keff::detail {

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
    out.load.strategy = nd->choice("load", LoadStrategy::root);
    if (nd->has("readers") && out.load.strategy != LoadStrategy::readers) {
      nd->fail("readers", "only with load = \"readers\"", "load = \"readers\" and readers = K");
    }
    out.load.readers = static_cast<int>(nd->integer("readers", out.load.readers, 1, int_max));
  } else {
    for (const char* key : {"load", "readers"}) {
      if (nd->has(key)) nd->fail(key, "only with a library", "library = \"<HDF5 file or text directory>\"");
    }
  }
  out.nuclides = static_cast<int>(nd->integer("nuclides", out.nuclides, 1, limits::max_nuclides));
  out.gridpoints = static_cast<int>(nd->integer("gridpoints", out.gridpoints, 2, limits::max_gridpoints));
  if (!limits::checked_product(limits::max_total_gridpoints, out.nuclides, out.gridpoints)) {
    nd->fail(nd->has("gridpoints") ? "gridpoints" : "nuclides",
             std::to_string(out.nuclides) + " nuclides x " + std::to_string(out.gridpoints) + " points are too many",
             "nuclides x gridpoints <= " + limits::number_text(limits::max_total_gridpoints));
  }
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
  return static_cast<int>(mg->required_integer("groups", 1, limits::max_groups));
}

namespace {

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

}  // namespace

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

}  // namespace keff::detail
