// Input reading: every example parses into the model it describes, the default embedded at build time
// carries the example file's bytes unchanged, and lattices, defaults and references read as meant. Bad
// inputs: test_input_errors.cpp.
#include "input_files.hpp"
#include "io/input/input.hpp"
#include "uses_ncrystal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace keff {
namespace {

using test_inputs::examples;
using test_inputs::inputs;
using test_inputs::minimal;
using test_inputs::read_text;

int count_if_material(const model::Problem& p, const std::string& universe, const std::string& material) {
  int n = 0;
  for (const auto& c : p.cells) {
    if (p.universes[c.universe].name == universe && c.fill_kind == FillKind::material && c.fill >= 0 &&
        p.materials[c.fill].name == material) {
      ++n;
    }
  }
  return n;
}

const model::Material& material(const model::Problem& p, const std::string& name) {
  const auto it = std::find_if(p.materials.begin(), p.materials.end(), [&](const auto& m) { return m.name == name; });
  EXPECT_NE(it, p.materials.end()) << name;
  return *it;
}

int universe(const model::Problem& p, const std::string& name) {
  for (std::size_t u = 0; u < p.universes.size(); ++u) {
    if (p.universes[u].name == name) return static_cast<int>(u);
  }
  ADD_FAILURE() << "no universe " << name;
  return -1;
}

// ---------------------------------------------------------------------------------------------------
// Examples and the default problem

// Without NCrystal an example with an NCrystal material is refused at its `ncrystal` key, with the
// install line.
TEST(Input, EveryExampleParses) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(examples)) {
    if (entry.path().extension() != ".toml") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    if (!ncrystal_built() && test::uses_ncrystal(entry.path().string())) {
      try {
        read_problem_file(entry.path().string());
        ADD_FAILURE() << "read without NCrystal";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(".ncrystal: this keff was built without NCrystal"), std::string::npos) << e.what();
      }
      continue;
    }
    const auto p = read_problem_file(entry.path().string());
    EXPECT_EQ(p.source_name, entry.path().string());
    EXPECT_FALSE(p.cells.empty());
    EXPECT_GE(p.root_universe, 0);
  }
  EXPECT_GE(count, 8);
}

TEST(Input, DefaultProblemIsTheExampleFile) {
  EXPECT_EQ(std::string(default_problem_toml()), read_text(examples + "/default.toml"));
}

TEST(Input, DefaultProblem) {
  const auto p = default_problem();
  EXPECT_EQ(p.source_name, "<default>");
  EXPECT_EQ(p.settings.mode, model::PhysicsMode::continuous_energy);
  EXPECT_EQ(p.settings.energy_grid, EnergyGridKind::hash);
  EXPECT_EQ(p.settings.particles, 10000);
  EXPECT_EQ(p.settings.batches, 30);
  EXPECT_EQ(p.settings.inactive, 10);
  EXPECT_EQ(p.settings.statepoint, "statepoint.h5");
  EXPECT_EQ(p.nuclear_data.nuclides, 68);
  EXPECT_EQ(p.nuclear_data.gridpoints, 11303);
  EXPECT_TRUE(p.nuclear_data.library.empty());
  EXPECT_EQ(p.nuclear_data.where.str(), "<default>:" + std::to_string(p.nuclear_data.where.line));
  EXPECT_GT(p.nuclear_data.where.line, 0);

  ASSERT_EQ(p.lattices.size(), 1u);
  const auto& lat = p.lattices[0];
  EXPECT_EQ(lat.shape, (std::array<int, 3>{9, 9, 1}));
  const int pin = universe(p, "pin"), gt = universe(p, "gt");
  EXPECT_EQ(std::count(lat.universes.begin(), lat.universes.end(), pin), 76);
  EXPECT_EQ(std::count(lat.universes.begin(), lat.universes.end(), gt), 5);
  EXPECT_EQ(lat.universes[4 + 9 * 4], gt);  // the centre

  const auto& fuel = material(p, "fuel");
  EXPECT_EQ(fuel.nuclides.size(), 34u);
  EXPECT_EQ(fuel.nuclides[0].name, "U235");  // input order is kept
  EXPECT_EQ(fuel.nuclides[1].name, "U238");
  EXPECT_EQ(fuel.nuclides[2].name, "O16");
  EXPECT_EQ(fuel.nuclides[3].name, "FP001");
  EXPECT_EQ(fuel.nuclides.back().name, "FP031");
  EXPECT_EQ(fuel.nuclides.back().density, 1.0e-6);
  EXPECT_EQ(count_if_material(p, "pin", "fuel"), 1);

  // Reflective on all six sides; the root cell holds the lattice.
  int reflective = 0;
  for (const auto& s : p.surfaces) reflective += s.boundary == BoundaryKind::reflective;
  EXPECT_EQ(reflective, 6);
  const auto& root_cells = p.universes[p.root_universe].cells;
  ASSERT_EQ(root_cells.size(), 1u);
  EXPECT_EQ(p.cells[root_cells[0]].fill_kind, FillKind::lattice);

  EXPECT_EQ(p.settings.entropy_mesh.shape, (std::array<int, 3>{9, 9, 1}));
  // [settings.tally_mesh]: the mesh "tally_mesh" and the tally "mesh" of flux and fission on it by energy.
  ASSERT_EQ(p.tallies.size(), 1u);
  const model::Tally& t = p.tallies[0];
  EXPECT_EQ(t.name, "mesh");
  ASSERT_EQ(t.filters.size(), 2u);
  EXPECT_EQ(p.meshes.at(static_cast<std::size_t>(t.filters[0].mesh)).mesh.shape, (std::array<int, 3>{9, 9, 1}));
  EXPECT_EQ(t.filters[1].bounds, (std::vector<double>{1.0e-5, 0.625, 2.0e7}));
  EXPECT_EQ(t.scores, (std::vector<TallyScore>{TallyScore::flux, TallyScore::fission}));
  EXPECT_EQ(t.estimator, TallyEstimator::collision);
}

TEST(Input, HoogenboomMartinLarge) {
  const auto p = read_problem_file(examples + "/hm_large.toml");
  EXPECT_EQ(p.nuclear_data.nuclides, 355);
  EXPECT_EQ(material(p, "fuel").nuclides.size(), 321u);
  EXPECT_EQ(material(p, "fuel").nuclides.back().name, "FP318");
  ASSERT_EQ(p.lattices.size(), 2u);
  EXPECT_EQ(p.lattices[0].shape, (std::array<int, 3>{3, 3, 1}));
  EXPECT_EQ(p.lattices[1].shape, (std::array<int, 3>{17, 17, 1}));
  const int gt = universe(p, "gt");
  EXPECT_EQ(std::count(p.lattices[1].universes.begin(), p.lattices[1].universes.end(), gt), 25);
  int vacuum = 0;
  for (const auto& s : p.surfaces) vacuum += s.boundary == BoundaryKind::vacuum;
  EXPECT_EQ(vacuum, 6);
}

TEST(Input, MultigroupExamples) {
  const auto two = read_problem_file(examples + "/inf_medium_2g.toml");
  EXPECT_EQ(two.settings.mode, model::PhysicsMode::multigroup);
  EXPECT_EQ(two.groups, 2);
  const auto& m = two.materials.at(0);
  EXPECT_EQ(m.sigma_s, (std::vector<std::vector<double>>{{0.52, 0.05}, {0.0, 1.30}}));
  EXPECT_EQ(m.chi, (std::vector<double>{1.0, 0.0}));
  // k_inf from the formula in the file's header.
  const double sa1 = m.sigma_t[0] - m.sigma_s[0][0] - m.sigma_s[0][1];
  const double s12 = m.sigma_s[0][1], sa2 = m.sigma_t[1] - m.sigma_s[1][1];
  const double k = (m.nu_sigma_f[0] * sa2 + m.nu_sigma_f[1] * s12) / ((sa1 + s12) * sa2);
  EXPECT_NEAR(k, 1.125, 1e-12);

  const auto slab = read_problem_file(examples + "/la13511_pua_slab.toml");
  EXPECT_EQ(slab.groups, 1);
  EXPECT_NEAR(slab.materials.at(0).nu_sigma_f[0], 3.24 * 0.0816, 1e-15);
  const auto ua = read_problem_file(examples + "/la13511_ua_sphere.toml");
  EXPECT_EQ(ua.surfaces.at(0).kind, SurfaceKind::sphere);
  EXPECT_EQ(ua.surfaces.at(0).coeffs[3], 7.428998);
  EXPECT_EQ(ua.surfaces.at(0).boundary, BoundaryKind::vacuum);

  const auto flat = read_problem_file(examples + "/inf_medium_ce_flat.toml");
  EXPECT_TRUE(flat.nuclear_data.flat);
  EXPECT_EQ(flat.settings.energy_grid, EnergyGridKind::nuclide);
}

TEST(Input, ReadmeExampleParses) {
  // The complete example in examples/INPUT.md: the ```toml block under "A complete example".
  const std::string readme = read_text(examples + "/INPUT.md");
  const auto start = readme.find("```toml\n", readme.find("## A complete example"));
  ASSERT_NE(start, std::string::npos);
  const auto body = start + 8;
  const auto end = readme.find("```", body);
  const auto p = read_problem_string(readme.substr(body, end - body), "INPUT.md");
  EXPECT_EQ(p.settings.energy_grid, EnergyGridKind::unionized);
  EXPECT_EQ(p.tallies.at(0).filters.at(1).bounds.size(), 4u);
  EXPECT_EQ(p.settings.entropy_mesh.box.upper, p.settings.source.upper);
  EXPECT_EQ(p.lattices.at(0).shape, (std::array<int, 3>{2, 2, 1}));
  EXPECT_EQ(p.materials.at(0).nuclides.size(), 23u);
}

// The tally examples of examples/README.md and examples/INPUT.md, each added to the default benchmark (with
// settings.max_batches, which their triggers need): they parse, their tallies as written.
TEST(Input, ReadmeTallyExamplesParse) {
  std::string base = read_text(examples + "/default.toml");
  base.insert(base.find("[settings]\n") + 11, "max_batches = 400\n");
  const std::pair<const char*, const char*> blocks[] = {{"/README.md", "Tallies say what else"},
                                                        {"/INPUT.md", "## `[[mesh]]` and `[[tally]]`"}};
  for (const auto& [file, heading] : blocks) {
    const std::string readme = read_text(examples + file);
    const auto start = readme.find("```toml\n", readme.find(heading));
    ASSERT_NE(start, std::string::npos) << file;
    const auto body = start + 8;
    const auto p = read_problem_string(base + "\n" + readme.substr(body, readme.find("```", body) - body), file);
    ASSERT_GE(p.tallies.size(), 2u) << file;  // the default's [settings.tally_mesh] and the example's
    EXPECT_EQ(p.tallies.at(1).name, "pin_power") << file;
    EXPECT_TRUE(p.tallies.at(1).trigger.has_value()) << file;
  }
}

// ---------------------------------------------------------------------------------------------------
// Details of the model

TEST(Input, LatticeRowsAreTopFirstAndLayersBottomFirst) {
  const auto p = read_problem_file(inputs + "/lattice_3d.toml");
  ASSERT_EQ(p.lattices.size(), 1u);
  const auto& lat = p.lattices[0];
  EXPECT_EQ(lat.shape, (std::array<int, 3>{2, 3, 2}));
  EXPECT_EQ(lat.outer, universe(p, "water"));
  for (int iz = 0; iz < 2; ++iz) {
    for (int iy = 0; iy < 3; ++iy) {
      for (int ix = 0; ix < 2; ++ix) {
        const std::string name = std::to_string(ix) + std::to_string(iy) + std::to_string(iz);
        EXPECT_EQ(p.universes[lat.universes[ix + 2 * (iy + 3 * iz)]].name, name);
      }
    }
  }
  EXPECT_EQ(lat.lower_left, (std::array<double, 3>{0.0, 0.0, 0.0}));
  EXPECT_EQ(lat.pitch, (std::array<double, 3>{1.0, 1.0, 1.0}));
}

TEST(Input, TwoDimensionalLatticeSpansAllZ) {
  const auto lat = default_problem().lattices.at(0);
  EXPECT_EQ(lat.shape[2], 1);
  EXPECT_EQ(lat.lower_left[2], -constants::infinity);
  EXPECT_EQ(lat.pitch[2], 2 * constants::infinity);
  EXPECT_EQ(lat.lower_left[2] + 0.5 * lat.pitch[2], 0.0);  // element centre: local z = global z
}

TEST(Input, DefaultsAndResolvedReferences) {
  const auto p = read_problem_string(minimal, "mini.toml");
  EXPECT_EQ(p.settings.particles, 7);
  EXPECT_EQ(p.settings.batches, 50);
  EXPECT_TRUE(p.settings.inactive_automatic);
  EXPECT_EQ(p.settings.inactive, 25);  // "auto": its bound, half the batches
  EXPECT_EQ(p.settings.max_inactive, 0);
  EXPECT_EQ(p.settings.seed, 1u);
  EXPECT_EQ(p.settings.hash_bins, 8000);
  EXPECT_EQ(p.settings.max_lost, 10);
  EXPECT_EQ(p.settings.entropy_mesh.shape, (std::array<int, 3>{8, 8, 1}));
  EXPECT_EQ(p.settings.entropy_mesh.box.upper, (std::array<double, 3>{1, 2, 3}));
  EXPECT_TRUE(p.tallies.empty());  // none asked for
  EXPECT_FALSE(p.settings.event_sort.has_value());  // chosen per backend
  EXPECT_EQ(p.settings.event_sorter, EventSorter::counting);
  EXPECT_FALSE(p.settings.event_reorder.has_value());  // chosen per backend

  ASSERT_EQ(p.surfaces.size(), 2u);
  EXPECT_EQ(p.surfaces[0].user_id, 4);
  EXPECT_EQ(p.surfaces[0].boundary, BoundaryKind::transmission);
  EXPECT_EQ(p.surfaces[0].where.str(), "mini.toml:8");
  ASSERT_EQ(p.cells.size(), 2u);
  // "-9 4": negative side of surface index 1, positive side of index 0.
  ASSERT_EQ(p.cells[0].region.size(), 2u);
  EXPECT_EQ(p.cells[0].region[0].surface, 1);
  EXPECT_FALSE(p.cells[0].region[0].positive);
  EXPECT_EQ(p.cells[0].region[1].surface, 0);
  EXPECT_TRUE(p.cells[0].region[1].positive);
  EXPECT_EQ(p.cells[0].fill, -1);
  EXPECT_EQ(p.cells[1].fill, 0);
  EXPECT_EQ(p.universes.size(), 1u);
  EXPECT_EQ(p.universes[0].name, "root");
  EXPECT_EQ(p.universes[0].cells, (std::vector<int>{0, 1}));

  ASSERT_EQ(p.materials.size(), 2u);  // unused materials are allowed
  ASSERT_EQ(p.materials[0].nuclides.size(), 2u);
  EXPECT_EQ(p.materials[0].nuclides[1].name, "FP002");
  EXPECT_EQ(p.materials[0].nuclides[1].density, 3e-5);
}

}  // namespace
}  // namespace keff
