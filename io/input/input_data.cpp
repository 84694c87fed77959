// [nuclear_data], [multigroup] and [[material]]: where cross sections come from and what each material holds.
#include "io/input/input_parts.hpp"
#include "io/library/nuclear_data.hpp"
#include "io/printable.hpp"
#include "io/test_point.hpp"
#include "io/thermal/ncrystal.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace keff::detail {

// ---------------------------------------------------------------------------------------------------
// [nuclear_data] and [multigroup]

namespace {

// A path relative to the input file, so that an input and its data move together ("<default>" and
// "<stdin>"-like sources have no directory).
std::string relative_to_input(const Section& root, const std::string& path) {
  const std::filesystem::path p(path);
  const std::string& source = root.source().name;
  if (p.is_relative() && !source.starts_with("<")) return (std::filesystem::path(source).parent_path() / p).lexically_normal().string();
  return path;
}

// ace = true (or an xsdir given): evaluated data from an ACE library. Returns whether it is.
bool read_ace_library(const Section& root, const Section& nd, model::NuclearDataSpec& out) {
  out.ace = nd.boolean("ace").value_or(nd.has("xsdir"));
  if (!out.ace) {
    for (const char* key : {"xsdir", "temperature_tolerance"}) {
      if (nd.has(key)) nd.fail(key, "only with evaluated data, but ace = false", "ace = true, xsdir, temperature_tolerance");
    }
    return false;
  }
  for (const char* key : {"library", "load", "readers", "nuclides", "gridpoints", "seed", "flat"}) {
    if (nd.has(key)) nd.fail(key, "not with evaluated data (ace = true)", "ace, xsdir, temperature_tolerance");
  }
  if (const auto xsdir = nd.string("xsdir")) {
    if (xsdir->empty()) nd.fail("xsdir", "empty path", "the path of an xsdir");
    out.xsdir = relative_to_input(root, *xsdir);
  } else if (const char* env = std::getenv("KEFF_ACE_LIBRARY"); env && *env) {
    out.xsdir = env;
  } else {
    nd.fail("ace", "evaluated data, but no xsdir: the input names none and KEFF_ACE_LIBRARY is not set",
            "xsdir = \"<path of an xsdir>\", or KEFF_ACE_LIBRARY=<path> in the environment (scripts/README.md)");
  }
  out.temperature_tolerance = nd.number("temperature_tolerance", out.temperature_tolerance,
                                        [](double v) { return v >= 0 && v <= limits::max_temperature; },
                                        "0 to " + format_number(limits::max_temperature) + " K");
  return true;
}

}  // namespace

model::NuclearDataSpec read_nuclear_data(const Section& root, model::PhysicsMode mode) {
  model::NuclearDataSpec out;
  out.where = root.source().loc(0);
  const auto nd = root.table("nuclear_data");
  if (!nd) return out;
  if (mode == model::PhysicsMode::multigroup) {
    root.fail("nuclear_data", "continuous-energy data in a multigroup problem",
              "[nuclear_data] only with settings.mode = \"continuous-energy\"; multigroup data goes in [multigroup] and the materials");
  }
  nd->allow_only({"ace", "xsdir", "temperature_tolerance", "library", "load", "readers", "nuclides", "gridpoints",
                  "seed", "flat"});
  out.where = nd->loc();
  if (read_ace_library(root, *nd, out)) return out;
  out.library = nd->string("library").value_or("");
  if (!out.library.empty()) {
    // Synthetic-data keys would be silently ignored next to a library: say so instead.
    for (const char* key : {"nuclides", "gridpoints", "seed", "flat"}) {
      if (nd->has(key)) {
        nd->fail(key, "only for synthetic data, but library is set",
                 "library, load, readers; or no library and nuclides, gridpoints, seed, flat");
      }
    }
    out.library = relative_to_input(root, out.library);
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
constexpr std::string_view ce_keys_text = "name, nuclides, trace_nuclides, trace_density, temperature, ncrystal";

// `ncrystal`: opened with NCrystal now, so that a file it cannot find or a parameter it rejects is
// reported here, at the key. A relative file is looked up beside the input first, as a library path is
// (io/thermal/ncrystal.hpp, NCrystalLookup). One temperature: the cfg's `temp` or the material's.
void read_ncrystal(const Section& s, model::Material& mat, const model::Settings& settings) {
  constexpr std::string_view allowed =
      "an NCrystal cfg string: a file of NCrystal's data library and its parameters, e.g. "
      "\"C_sg194_pyrolytic_graphite.ncmat;temp=296K\"";
  mat.ncrystal = s.required_string("ncrystal", allowed);
  if (settings.thermal == model::ThermalModel::none) {
    s.fail("ncrystal", "an NCrystal material with settings.thermal = \"none\" (targets at rest)",
           "ncrystal with settings.thermal = \"free_gas\" (the default)");
  }
  NCrystalLookup lookup;
  const std::string& source = s.source().name;
  if (!source.starts_with("<")) lookup.input_dir = std::filesystem::path(source).parent_path().string();
  test_point("ncrystal-open");
  try {
    mat.ncrystal_opened = open_ncrystal(mat.ncrystal, mat.temperature, lookup);
  } catch (const ThermalError& e) {
    // keff's own refusals say what is allowed; NCrystal's messages about the data do not.
    const std::string what = e.what();
    s.fail("ncrystal", printable_cut(what, 600), what.find("(allowed:") == std::string::npos ? allowed : "");
  }
  const NCrystalMaterial& opened = mat.ncrystal_opened;
  if (opened.cfg_sets_temperature) {
    const double cfg_temperature = opened.temperature_k;
    if (s.has("temperature") && std::abs(cfg_temperature - mat.temperature) > 1e-9 * cfg_temperature) {
      s.fail("temperature", "temperature = " + format_number(mat.temperature) + " K, but the ncrystal cfg sets temp = " +
                                format_number(cfg_temperature) + " K",
             "one temperature: leave out one of them, or make them equal");
    }
    if (!(cfg_temperature <= limits::max_temperature)) {
      s.fail("ncrystal", "the cfg's temp = " + format_number(cfg_temperature) + " K",
             "a temperature in K above 0, at most " + format_number(limits::max_temperature));
    }
    mat.temperature = cfg_temperature;
  }
}

void read_ce_material(const Section& s, model::Material& mat, const model::Settings& settings) {
  for (auto key : {"sigma_t", "sigma_s", "nu_sigma_f", "sigma_f", "chi"}) {
    if (s.has(key)) s.fail(key, "multigroup data in a continuous-energy problem", ce_keys_text);
  }
  s.allow_only({"name", "nuclides", "trace_nuclides", "trace_density", "temperature", "ncrystal"});
  mat.temperature = read_temperature(s, settings.temperature);
  if (s.has("ncrystal")) read_ncrystal(s, mat, settings);
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

// A fissionable material's data must let the histories its fission neutrons start end in it: in a
// reflective box (an infinite medium) the only way out is absorption (kernels/physics_mg.hpp: absorbed
// with probability (sigma_t - sum of sigma_s row) / sigma_t at each collision, else scattered by the row).
//  1. Fission is part of absorption and gives at most physical_limits::max_nu neutrons, so
//     nu_sigma_f[g] <= max_nu * absorption[g]: nu_sigma_f > 0 with no absorption (sigma_s = sigma_t) made
//     every collision bank fission sites that never stopped (an overflowing bank, then "lost" particles).
//  2. Every group fission neutrons reach (from chi, through scattering) scatters, directly or through
//     other groups, into one with absorption; otherwise neutrons there can only leak, and in a reflective
//     geometry never end. A material without fission may be a pure scatterer: its neutrons leak.
// Absorption counts where it is above 1e-12 of sigma_t (the tolerance of the sigma_s rows): 0.3 + 0.7
// leaves 1e-16 of 1 by rounding, not an absorber.
void check_histories_end(const Section& s, const model::Material& mat) {
  using physical_limits::max_nu;
  const std::size_t groups = mat.sigma_t.size();
  std::vector<double> absorption(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    double out = 0;
    for (const double v : mat.sigma_s[g]) out += v;
    absorption[g] = mat.sigma_t[g] - out;
    if (mat.nu_sigma_f[g] > max_nu * absorption[g]) {
      s.fail("nu_sigma_f", "nu_sigma_f[" + std::to_string(g) + "] = " + format_number(mat.nu_sigma_f[g]) +
                               " but the absorption sigma_t - sum(sigma_s) of group " + std::to_string(g) + " is " +
                               format_number(absorption[g]),
             "nu_sigma_f[g] <= " + format_number(max_nu) + " x (sigma_t[g] - sum of sigma_s[g][:]): fission is part " +
                 "of absorption and gives at most " + format_number(max_nu) + " neutrons");
    }
  }
  // Groups from which absorption can be reached, found backwards from the absorbing ones: O(groups^2),
  // the size of sigma_s.
  std::vector<char> ends(groups, 0);
  std::vector<std::size_t> todo;
  for (std::size_t g = 0; g < groups; ++g) {
    if (absorption[g] > 1e-12 * mat.sigma_t[g]) ends[g] = 1, todo.push_back(g);
  }
  while (!todo.empty()) {
    const std::size_t h = todo.back();
    todo.pop_back();
    for (std::size_t g = 0; g < groups; ++g) {
      if (!ends[g] && mat.sigma_s[g][h] > 0) ends[g] = 1, todo.push_back(g);
    }
  }
  // Groups fission neutrons reach: born by chi, then scattered.
  std::vector<char> reached(groups, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    if (mat.chi[g] > 0) reached[g] = 1, todo.push_back(g);
  }
  while (!todo.empty()) {
    const std::size_t g = todo.back();
    todo.pop_back();
    if (!ends[g]) {
      s.fail("sigma_s", "a fission neutron reaches group " + std::to_string(g) +
                            (mat.chi[g] > 0 ? " (chi)" : " (by scattering)") +
                            ", from which no scattering leads to a group with absorption: it can only leak, and in "
                            "a reflective geometry its history never ends",
             "in a fissionable material, every group fission neutrons reach scatters, directly or through other "
             "groups, into a group with sigma_t - sum of sigma_s[g][:] > 0");
    }
    for (std::size_t h = 0; h < groups; ++h) {
      if (mat.sigma_s[g][h] > 0 && !reached[h]) reached[h] = 1, todo.push_back(h);
    }
  }
}

// Published chi spectra are printed to six digits, so their sums miss 1 by up to a few 1e-6 times the
// group count (C5G7's UO2 chi sums to 1.0000092): within chi_sum_tolerance chi is normalised and the
// note says so; further off it is a mistake, refused.
constexpr double chi_sum_tolerance = 1e-4;
constexpr double chi_sum_exact = 1e-12;  // closer than this: already normalised, nothing to say

void normalise_chi(const Section& s, model::Material& mat, std::vector<std::string>& notes) {
  double sum = 0;
  for (double c : mat.chi) sum += c;
  const std::string allowed = "chi summing to 1 within " + format_number(chi_sum_tolerance) + ", normalised";
  if (!(std::abs(sum - 1.0) <= chi_sum_tolerance)) s.fail("chi", "chi sums to " + format_number(sum), allowed);
  if (std::abs(sum - 1.0) <= chi_sum_exact) return;
  for (double& c : mat.chi) c /= sum;
  notes.push_back(printable(s.source().name + ":" + std::to_string(s.line("chi")) + ": " + s.key_path("chi") +
                            ": chi sums to " + format_number(sum) + "; normalised to 1 (" + allowed + ")"));
}

void read_mg_material(const Section& s, model::Material& mat, int groups, std::vector<std::string>& notes) {
  for (auto key : {"nuclides", "trace_nuclides", "trace_density", "temperature", "ncrystal"}) {
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
    normalise_chi(s, mat, notes);
    check_histories_end(s, mat);
  }
}

}  // namespace

double read_temperature(const Section& s, double fallback) {
  return s.number("temperature", fallback, [](double t) { return t > 0 && t <= limits::max_temperature; },
                  "a temperature in K above 0, at most " + format_number(limits::max_temperature));
}

std::vector<model::Material> read_materials(const Section& root, const model::Settings& settings, int groups,
                                            std::map<std::string, int>& index_of_name, std::vector<std::string>& notes) {
  const model::PhysicsMode mode = settings.mode;
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
      read_mg_material(s, mat, groups, notes);
    } else {
      read_ce_material(s, mat, settings);
    }
    index_of_name[mat.name] = static_cast<int>(out.size());
    out.push_back(std::move(mat));
  }
  return out;
}

}  // namespace keff::detail
