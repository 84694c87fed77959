// Bad input: every mistake fails with a message naming its file, exact line and the offending key or
// name, and what is allowed; the model's own checks (data, validation, sorter, temperatures) likewise.
#include "input_files.hpp"
#include "io/input/input.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace keff {
namespace {

using test_inputs::examples;
using test_inputs::inputs;
using test_inputs::minimal;
using test_inputs::read_text;

// ---------------------------------------------------------------------------------------------------
// Bad inputs: file, exact line and the offending key or name

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

struct BadInput {
  std::string file;  // under tests/inputs/bad
  int line;
  std::vector<std::string> fragments;
};

class BadInputs : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputs, FailWithFileLineAndKey) {
  const auto& bad = GetParam();
  const std::string path = inputs + "/bad/" + bad.file + ".toml";
  const std::string msg = error_of([&] { read_problem_file(path); });
  EXPECT_EQ(msg.rfind(path + ":" + std::to_string(bad.line) + ":", 0), 0u) << msg;
  for (const auto& f : bad.fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
}

INSTANTIATE_TEST_SUITE_P(
    Input, BadInputs,
    ::testing::Values(
        BadInput{"syntax_error", 5, {"TOML syntax error"}},
        BadInput{"unknown_key", 3, {"settings.particle:", "unknown key", "allowed: particles, batches"}},
        BadInput{"undefined_material", 20, {"cell[fuel].material:", "'fule' is not defined", "void, fuel"}},
        BadInput{"undefined_universe", 20, {"cell[fuel].fill:", "'pins' is not defined", "universes: root"}},
        BadInput{"cell_without_region", 17, {"cell[fuel].region:", "missing required key", "root universe 'root'"}},
        BadInput{"cell_everywhere_beside_another", 33, {"cell[everything].region:", "fills all of universe 'inner'", "cell 'pellet' (line 27)"}},
        BadInput{"negative_density", 24, {"material[fuel].nuclides.U238:", "-0.02 is not positive"}},
        BadInput{"zero_particles", 3, {"settings.particles:", "invalid value 0", "an integer in [1, 2^40]"}},
        BadInput{"inactive_not_below_batches", 5, {"settings.inactive:", "0 <= inactive < batches"}},
        BadInput{"wrong_type", 4, {"settings.batches:", "expected an integer, got a string"}},
        BadInput{"duplicate_surface_id", 18, {"surface[1].id:", "duplicate surface id 1", "line 11"}},
        BadInput{"sphere_coeff_count", 14, {"surface[1].coeffs:", "expected 4 numbers, got 3", "sphere"}},
        BadInput{"undefined_surface", 19, {"cell[fuel].region:", "surface 7 is not defined", "defined surfaces: 1"}},
        BadInput{"union_region", 19, {"cell[fuel].region:", "only intersections"}},
        BadInput{"duplicate_cell_name", 23, {"cell[#2].name:", "duplicate cell name 'fuel'", "line 17"}},
        BadInput{"missing_source", 2, {"settings.source:", "missing required table"}},
        BadInput{"both_material_and_fill", 21, {"cell[fuel].fill:", "both a material and a fill"}},
        BadInput{"library_with_synthetic_keys", 27, {"nuclear_data.nuclides:", "only for synthetic data, but library is set"}},
        BadInput{"ce_material_with_mg_data", 25, {"material[fuel].sigma_t:", "multigroup data in a continuous-energy problem"}},
        BadInput{"lattice_undefined_universe", 38, {"lattice[grid].universes:", "'pni' is not defined", "pin, root"}},
        BadInput{"lattice_ragged", 38, {"lattice[grid].universes:", "row 2 from the top has 1 elements"}},
        BadInput{"universe_cycle", 26, {"cell[inner].fill:", "universe 'a' contains itself"}},
        BadInput{"mg_chi_sum", 31, {"material[fuel].chi:", "sums to 0.9"}},
        BadInput{"mg_scatter_exceeds_total", 30, {"material[fuel].sigma_s:", "sigma_s[1] sums to 2.5", "sigma_t[1] = 2"}},
        BadInput{"energy_bounds_in_multigroup", 17, {"settings.tally_mesh.energy_bounds:", "multigroup"}},
        BadInput{"unknown_root_universe", 27, {"geometry.root:", "'core' is not defined", "defined universes: root"}}),
    [](const auto& test_info) { return test_info.param.file; });

// Multigroup data that lets no history end is refused (bad_input_mg_fuel_*); a pure scatterer is not:
// its neutrons leak through vacuum boundaries, and only fissionable materials must absorb.
TEST(Input, PureScattererIsValidMultigroupData) {
  const std::string text = read_text(examples + "/la13511_ua_sphere.toml") +
                           "\n[[material]]\nname = \"reflector\"\nsigma_t = [1.0]\nsigma_s = [[1.0]]\n";
  EXPECT_NO_THROW(read_problem_string(text, "scatterer.toml"));
  const std::string fuel = read_text(examples + "/la13511_ua_sphere.toml");
  const auto at = fuel.find("nu_sigma_f = [");
  ASSERT_NE(at, std::string::npos);
  // nu_sigma_f above 10 x absorption: more than 10 neutrons per fission.
  const std::string greedy = fuel.substr(0, at) + "nu_sigma_f = [0.8]" + fuel.substr(fuel.find(']', at) + 1);
  const std::string msg = error_of([&] { read_problem_string(greedy, "greedy.toml"); });
  EXPECT_NE(msg.find("material[u235_a].nu_sigma_f: nu_sigma_f[0] = 0.8 but the absorption"), std::string::npos) << msg;
}

// [[mesh]] and [[tally]] mistakes, each named with its key and what is allowed.
TEST(Input, TallyMistakes) {
  const auto fails = [](const std::string& text, const std::string& fragment) {
    const std::string msg = error_of([&] { read_problem_string(text, "t.toml"); });
    EXPECT_NE(msg.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << msg;
  };
  const std::string ce = minimal + std::string("\n[[mesh]]\nname = \"m1\"\nlower_left = [-1]\nupper_right = [1]\nshape = [4]\n");
  const auto tally = [&](const std::string& body) { return ce + "\n[[tally]]\nname = \"t\"\n" + body + "\n"; };
  fails(tally("scores = [\"flux\", \"heating\"]"), "tally[t].scores: unknown score 'heating' (allowed: flux, total, absorption, scatter, fission, nu-fission, events, inelastic, (n,2n))");
  fails(tally("scores = [\"(n,2n)\"]"), "tally[t].scores: score '(n,2n)' is a reaction only evaluated data tell apart (allowed: [nuclear_data] ace = true, or another score)");
  fails(tally("filters = [\"zone\"]\nscores = [\"flux\"]"),
        "tally[t].filters: unknown filter 'zone' (allowed: " + allowed_names<TallyFilterKind>() + ")");
  fails(tally("scores = [\"flux\"]\nestimator = \"analog\""), "tally[t].estimator: the analog estimator cannot make score 'flux' (allowed: for flux: tracklength, collision)");
  fails(tally("scores = [\"events\"]\nestimator = \"collision\""), "the collision estimator cannot make score 'events' (allowed: for events: analog)");
  fails(tally("filters = [\"cell\"]\ncells = [\"a\", \"nope\"]\nscores = [\"flux\"]"), "tally[t].cells: cell 'nope' is not defined (allowed: defined cells: a, b)");
  fails(tally("filters = [\"material\"]\nmaterials = [\"steel\"]\nscores = [\"flux\"]"), "tally[t].materials: material 'steel' is not defined");
  fails(tally("filters = [\"mesh\"]\nmesh = \"m2\"\nscores = [\"flux\"]"), "tally[t].mesh: mesh 'm2' is not defined (allowed: defined meshes: m1)");
  fails(tally("filters = [\"energy\"]\nenergy = [1.0, 0.5]\nscores = [\"flux\"]"), "tally[t].energy: energy[1] = 0.5 is out of order (allowed: 2 to 100000 energies in eV, >= 0, at most 1e+300 and strictly ascending)");
  fails(tally("filters = [\"group\"]\nscores = [\"flux\"]"), "tally[t].filters: a group filter in a continuous-energy problem");
  fails(tally("filters = [\"polar\"]\npolar = [-1.0, 1.0]\nscores = [\"flux\"]"),
        "tally[t].polar: polar[0] = -1 is out of range (allowed: 2 to 100000 polar angles in rad, in [0, 3.141592653589793] and strictly ascending)");
  fails(tally("cells = [\"a\"]\nscores = [\"flux\"]"), "tally[t].cells: the bins of a filter the tally does not have");
  fails(tally("scores = [\"flux\"]\ntrigger = { score = \"fission\", rel_err = 0.01 }"), "tally[t].trigger.score: score 'fission' is not one the tally has (allowed: one of its scores: flux)");
  fails(tally("scores = [\"flux\"]\ntrigger = { score = \"flux\", rel_err = 0.01 }"), "tally[t].trigger: a trigger without settings.max_batches");
  fails(tally("scores = [\"flux\"]") + "\n[[tally]]\nname = \"t\"\nscores = [\"total\"]\n", "tally[#2].name: duplicate tally name 't' (allowed: a unique name)");
  fails(ce + "\n[[mesh]]\nname = \"big\"\nlower_left = [-1, -1, -1]\nupper_right = [1, 1, 1]\nshape = [4096, 4096, 1]\n"
             "\n[[tally]]\nname = \"t\"\nfilters = [\"mesh\", \"energy\"]\nmesh = \"big\"\nenergy = [1e-5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2e7]\nscores = [\"flux\"]\n",
        "tally[t].filters: 1 scores x 16777216 mesh bins x 10 energy bins are too many tally values (allowed: bins x scores <= 2^27)");
  fails(ce + "\n[[mesh]]\nname = \"m1\"\nlower_left = [0]\nupper_right = [1]\nshape = [1]\n", "mesh[#2].name: duplicate mesh name 'm1'");
  const std::string mg = read_text(examples + "/inf_medium_1g.toml");
  fails(mg + "\n[[tally]]\nname = \"t\"\nfilters = [\"energy\"]\nenergy = [1.0, 2.0]\nscores = [\"flux\"]\n",
        "tally[t].filters: an energy filter in a multigroup problem (allowed: the group filter: one bin per group of the data)");
  fails(mg + "\n[settings.tally_mesh]\nenergy_bounds = [1.0, 2.0]\n", "settings.tally_mesh");
}

// A chi that sums to 1 only to a published table's six digits is normalised and said once; one further
// off than 1e-4 is refused.
TEST(Input, ChiWithinPublishedDigitsIsNormalised) {
  const std::string text = read_text(examples + "/inf_medium_2g.toml");
  const auto with_chi = [&](const std::string& chi) {
    const auto at = text.find("\nchi = [") + 1;
    return text.substr(0, at) + "chi = " + chi + text.substr(text.find(']', at) + 1);
  };
  const auto p = read_problem_string(with_chi("[0.99, 0.01001]"), "chi.toml");
  const auto& chi = p.materials.at(0).chi;
  EXPECT_NEAR(chi[0] + chi[1], 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(chi[0], 0.99 / 1.00001);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("chi.toml:"), std::string::npos) << p.notes[0];
  EXPECT_NE(p.notes[0].find("material[medium].chi: chi sums to 1.00001; normalised to 1"), std::string::npos) << p.notes[0];
  EXPECT_TRUE(read_problem_string(text, "exact.toml").notes.empty());
  const std::string msg = error_of([&] { read_problem_string(with_chi("[1.0, 0.01]"), "chi.toml"); });
  EXPECT_NE(msg.find("material[medium].chi: chi sums to 1.01 (allowed: chi summing to 1 within 1e-04, normalised)"),
            std::string::npos) << msg;
}

TEST(Input, MissingFileNamesThePath) {
  const std::string path = inputs + "/bad/does_not_exist.toml";
  const std::string msg = error_of([&] { read_problem_file(path); });
  EXPECT_EQ(msg, "cannot open input file '" + path +
                     "': it does not exist (allowed: a regular file; symbolic links are followed)");
}

TEST(Input, SyntaxErrorHasLineAndColumn) {
  const std::string msg = error_of([] { read_problem_string("[settings]\nparticles = = 3\n", "x.toml"); });
  EXPECT_EQ(msg.rfind("x.toml:2:", 0), 0u) << msg;
  EXPECT_NE(msg.find("TOML syntax error"), std::string::npos) << msg;
}

// Small inline cases for checks with no file of their own.
TEST(Input, MoreValidation) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string text = minimal;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  auto fails = [](const std::string& text, const std::string& fragment) {
    const std::string msg = error_of([&] { read_problem_string(text, "m.toml"); });
    EXPECT_NE(msg.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << msg;
  };
  fails(with("particles = 7", "particles = 7\nmode = \"diffusion\""), "settings.mode: invalid value 'diffusion' (allowed: continuous-energy, multigroup)");
  fails(with("particles = 7", "particles = 7\ngenerations_per_batch = 0"), "settings.generations_per_batch: invalid value 0");
  fails(with("particles = 7", "particles = 7\nbatches = 1000\ngenerations_per_batch = 5000"),
        "settings.generations_per_batch: 1000 batches x 5000 generations (allowed: at most 1000000 generations in a run");
  EXPECT_EQ(read_problem_string(with("particles = 7", "particles = 7\ngenerations_per_batch = 4"), "m.toml")
                .settings.generations_per_batch, 4);
  fails(with("upper_right = [1, 2, 3]", "upper_right = [1, -2, 3]"), "settings.source.upper_right:");
  fails(with("coeffs = [0, 0, 1]", "coeffs = [0, 0, -1]"), "surface[9].coeffs: radius -1 is not positive");
  fails(with("coeffs = [1, 1, 0, 0.5]", "coeffs = [0, 0, 0, 0.5]"), "normal");
  fails(with("coeffs = [1, 1, 0, 0.5]", "coeffs = [1.5e308, 1.5e308, 0, 0.5]"), "surface[4].coeffs: the plane's normal (a, b, c) is too long to normalise");
  fails(with("coeffs = [1, 1, 0, 0.5]", "coeffs = [0, 1e-300, 0, 1e10]"),
        "surface[4].coeffs: the plane's distance from the origin, d / |(a, b, c)|, is not a finite number");
  // A tiny or a huge normal is a direction like any other (its squares underflow or overflow; its length
  // does not).
  EXPECT_NO_THROW(read_problem_string(with("coeffs = [1, 1, 0, 0.5]", "coeffs = [1e-300, 1e-300, 0, 0.5e-300]"), "m.toml"));
  EXPECT_NO_THROW(read_problem_string(with("coeffs = [1, 1, 0, 0.5]", "coeffs = [1e200, 1e200, 0, 0.5e200]"), "m.toml"));
  fails(with("type = \"plane\"", "type = \"cone\""), "surface[4].type: invalid value 'cone'");
  fails(with("region = \"-9 4\"", "region = \"-9 9\""), "both sides of surface 9");
  fails(with("region = \"-9 4\"", "region = \"   \""), "cell[a].region: the region is empty");
  fails(with("region = \"-9 4\"", "region = \"-9 x4\""), "invalid half-space 'x4'");
  fails(with("name = \"unused\"", "name = \"m\""), "duplicate material name 'm'");
  fails(with("name = \"unused\"", "name = \"void\""), "'void' is reserved");
  fails(with("trace_nuclides = 2\n", ""), "material[m].nuclides: material has no nuclides");
  fails(with("trace_nuclides = 2", "trace_nuclides = 2\nnuclides = { FP001 = 1e-3 }"), "also listed in nuclides");
  fails(with("[settings]", "[settings]\nmax_lost = -1"), "settings.max_lost: invalid value -1");
  fails(with("[settings]", "[settings]\nbank_capacity_factor = 0.5"), "settings.bank_capacity_factor");
  // Upper limits, named in the message (io/limits.hpp).
  fails(with("particles = 7", "particles = 1099511627777"), "settings.particles: invalid value 1099511627777 (allowed: an integer in [1, 2^40])");
  fails(with("[settings]", "[settings]\nbatches = 1000001"), "settings.batches: invalid value 1000001 (allowed: an integer in [1, 1000000])");
  fails(with("[settings]", "[settings]\nhash_bins = 16777217"), "settings.hash_bins: invalid value 16777217 (allowed: an integer in [1, 2^24])");
  fails(with("[settings]", "[settings]\ninitial_k = 1000"), "settings.initial_k: invalid value 1000 (allowed: a number in [0.01, 100])");
  fails(with("[[surface]]\nid = 4", "[settings.entropy_mesh]\nshape = [4096, 4096, 2]\n[[surface]]\nid = 4"),
        "settings.entropy_mesh.shape: 4096 x 4096 x 2 bins are too many");
  fails(with("[[surface]]\nid = 4", "[settings.tally_mesh]\nshape = [4096, 4096, 1]\nenergy_bounds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n[[surface]]\nid = 4"),
        "settings.tally_mesh.shape: 9 energy groups x 4096 x 4096 x 1 bins are too many mesh-tally values (allowed: groups x bins <= 2^27)");
  fails(with("lower_left = [-1, -2, -3]\nupper_right = [1, 2, 3]", "lower_left = [-1.7e308, -2, -3]\nupper_right = [1.7e308, 2, 3]"),
        "settings.source.upper_right: the width upper_right[0] - lower_left[0] overflows a double");
  fails(minimal + std::string("\n[nuclear_data]\nnuclides = 65537\n"), "nuclear_data.nuclides: invalid value 65537 (allowed: an integer in [1, 2^16])");
  // Control characters in keys are escaped: the message goes on past a NUL.
  fails(with("[settings]", "[settings]\n\"a\\u0000b\\u001b\" = 1"), "settings.a\\0b\\x1b: unknown key (allowed: particles,");
  fails(with("[[surface]]\nid = 4", "[settings.entropy_mesh]\nshape = [8, 0, 1]\n[[surface]]\nid = 4"), "settings.entropy_mesh.shape: invalid value 0");
  fails(with("[[surface]]\nid = 4", "[settings.tally_mesh]\nenergy_bounds = [1.0, 0.5]\n[[surface]]\nid = 4"), "energy_bounds[1] = 0.5 is out of order");
  fails(minimal + std::string("\n[multigroup]\ngroups = 2\n"), "multigroup: multigroup data in a continuous-energy problem");
  fails(minimal + std::string("\n[geometry]\nroot = \"root\"\nextra = 1\n"), "geometry.extra: unknown key (allowed: root)");
  fails(minimal + std::string("\nsurfaces = 3\n"), "surfaces: unknown key");
  fails(with("id = 9", "id = 0"), "surface[#2].id: invalid value 0");
  fails(with("[[cell]]\nname = \"a\"", "[cell]\nname = \"a\""), "");  // a TOML error or a type error, never accepted
}

// settings.populations = "auto", the default: 8 populations where the particles divide into populations
// of at least 2000 histories (io/limits.hpp) and no CMFD feedback couples them; else one.
TEST(Input, AutomaticPopulations) {
  const auto read = [](std::string text, const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
    return read_problem_string(text, "m.toml").settings;
  };
  const auto chosen = [&](const std::string& settings) { return read(minimal, "particles = 7", settings).populations; };
  EXPECT_EQ(chosen("particles = 16000"), 8);
  EXPECT_EQ(chosen("particles = 16000\npopulations = \"auto\""), 8);
  EXPECT_EQ(chosen("particles = 15992"), 1);  // 1999 histories in each of 8
  EXPECT_EQ(chosen("particles = 20004"), 1);  // not a multiple of 8
  EXPECT_EQ(chosen("particles = 16000\npopulations = 1"), 1);
  EXPECT_EQ(chosen("particles = 16000\npopulations = 4"), 4);
  EXPECT_TRUE(read(minimal, "particles = 7", "particles = 16000").populations_automatic);
  EXPECT_FALSE(read(minimal, "particles = 7", "particles = 16000\npopulations = 8").populations_automatic);
  const std::string error = error_of([&] { read(minimal, "particles = 7", "particles = 7\npopulations = \"many\""); });
  EXPECT_NE(error.find("settings.populations: invalid value 'many' (allowed: \"auto\", or 1 to 32"), std::string::npos) << error;

  // CMFD feedback reweights every population by the source of all: automatic populations are one there.
  std::string cmfd = read_text(inputs + "/bad/cmfd_feedback_with_populations.toml");
  cmfd.replace(cmfd.find("particles = 1000"), 16, "particles = 16000");
  cmfd.replace(cmfd.find("populations = 4"), 15, "populations = \"auto\"");
  EXPECT_EQ(read(cmfd, "feedback = true", "feedback = true").populations, 1);
  EXPECT_EQ(read(cmfd, "feedback = true", "feedback = false").populations, 8);
}

// settings.inactive = "auto", the default: its bound is max_inactive, or half the batches; at least 20 batches
// (io/limits.hpp) and fewer than batches. An explicit [cmfd] end that could outlast the inactive batches
// the run chooses is refused where the command line meets the problem (src/cli/run_options.cpp).
TEST(Input, AutomaticInactive) {
  const auto read = [](const std::string& settings) {
    std::string text = minimal;
    text.replace(text.find("particles = 7"), 13, "particles = 7\n" + settings);
    return read_problem_string(text, "m.toml").settings;
  };
  const model::Settings half = read("batches = 100\ninactive = \"auto\"");
  EXPECT_TRUE(half.inactive_automatic);
  EXPECT_EQ(half.inactive, 50);
  EXPECT_EQ(read("batches = 100\ninactive = \"auto\"\nmax_inactive = 30").inactive, 30);
  EXPECT_FALSE(read("batches = 100\ninactive = 12").inactive_automatic);
  const auto fails = [&](const std::string& settings, const std::string& fragment) {
    const std::string msg = error_of([&] { read(settings); });
    EXPECT_NE(msg.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << msg;
  };
  fails("batches = 39\ninactive = \"auto\"", "settings.inactive: inactive = \"auto\", the default, may take up to 19 inactive batches of batches = 39 (half of them)");
  fails("batches = 100\ninactive = \"auto\"\nmax_inactive = 19", "settings.max_inactive: inactive = \"auto\", the default, may take up to 19");
  // The default: an input that says nothing of inactive has "auto", and one too short for it is refused at
  // its batches, naming the ways out.
  const model::Settings unsaid = read("batches = 40");
  EXPECT_TRUE(unsaid.inactive_automatic);
  EXPECT_EQ(unsaid.inactive, 20);
  fails("batches = 30", "m.toml:4: settings.batches: inactive = \"auto\", the default, may take up to 15 inactive batches of "
        "batches = 30 (half of them) (allowed: a bound of at least 20 batches (from there on the run tests its source) and "
        "fewer than batches: batches >= 40, or max_inactive in [20, batches - 1], or an integer inactive)");
  EXPECT_FALSE(read("batches = 30\ninactive = 10").inactive_automatic);
  fails("batches = 100\ninactive = \"auto\"\nmax_inactive = 100", "(allowed: a bound of at least 20 batches");
  fails("inactive = \"later\"", "settings.inactive: invalid value 'later' (allowed: an integer in [0, 999999], fewer than batches, or \"auto\")");
}

TEST(Input, EventSortAndSorter) {
  std::string text = minimal;
  text.replace(text.find("particles = 7"), 13, "particles = 7\n[settings.event]\nsort = \"material\"\nsorter = \"kokkos\"\nreorder = \"index\"");
  const auto p = read_problem_string(text, "m.toml");
  EXPECT_EQ(p.settings.event_sort, EventSort::material);
  EXPECT_EQ(p.settings.event_sorter, EventSorter::kokkos);
  EXPECT_EQ(p.settings.event_reorder, EventReorder::index);
}

// settings.temperature is every material's unless it gives its own; free gas unless thermal = "none".
TEST(Input, TemperaturesAndThermalModel) {
  const auto defaults = read_problem_string(minimal, "m.toml");
  EXPECT_EQ(defaults.settings.thermal, model::ThermalModel::free_gas);
  for (const auto& m : defaults.materials) EXPECT_EQ(m.temperature, 293.6) << m.name;
  std::string text = minimal;
  text.replace(text.find("particles = 7"), 13, "particles = 7\ntemperature = 600.0\nthermal = \"none\"");
  text.replace(text.find("trace_density = 3e-5"), 20, "trace_density = 3e-5\ntemperature = 900");
  const auto p = read_problem_string(text, "m.toml");
  EXPECT_EQ(p.settings.thermal, model::ThermalModel::none);
  ASSERT_EQ(p.materials.size(), 2u);
  EXPECT_EQ(p.materials[0].temperature, 900.0);
  EXPECT_EQ(p.materials[1].temperature, 600.0);
}

TEST(Input, ReadingADirectoryFails) {
  const std::string msg = error_of([] { read_problem_file(inputs); });
  EXPECT_NE(msg.find("it is a directory"), std::string::npos) << msg;
}

}  // namespace
}  // namespace keff
