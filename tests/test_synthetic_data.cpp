// Synthetic continuous-energy data: nuclide names and ids, determinism (the same library for a seed, the
// same bytes everywhere), grid shapes, flat libraries and the Hoogenboom-Martin large sizes.
#include "xs_fixture.hpp"

#include <gtest/gtest.h>

namespace keff {
namespace {

using namespace keff::test_xs;

TEST(SyntheticData, NamesAndIds) {
  const char* expected[] = {"H1", "O16", "B10", "Zr90", "Fe56", "U235", "U238", "Pu239", "Pu240", "Pu241"};
  EXPECT_EQ(synthetic_named_count(), 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(synthetic_nuclide_name(i), expected[i]);
  EXPECT_EQ(synthetic_nuclide_name(10), "FP001");
  EXPECT_EQ(synthetic_nuclide_name(11), "FP002");
  EXPECT_EQ(synthetic_nuclide_name(354), "FP345");
  const NuclideLibrary lib = small_library(7, false, 14, 100);
  ASSERT_EQ(lib.nuclides.size(), 14u);
  EXPECT_EQ(lib.nuclides[0].id, 1001);
  EXPECT_EQ(lib.nuclides[5].id, 92235);
  EXPECT_EQ(lib.nuclides[9].id, 94241);
  EXPECT_EQ(lib.nuclides[10].id, 990001);
  EXPECT_EQ(lib.find("U238"), 6);
  EXPECT_EQ(lib.find("FP004"), 13);
  EXPECT_EQ(lib.find("U236"), -1);
  for (int i = 0; i < 14; ++i) {
    const bool fissile = i >= 5 && i <= 9;
    EXPECT_EQ(lib.nuclides[i].fissile, fissile) << lib.nuclides[i].name;
  }
  EXPECT_THROW(generate_synthetic_library({0, 100, 1, false}), std::invalid_argument);
  EXPECT_THROW(generate_synthetic_library({3, 1, 1, false}), std::invalid_argument);
}

TEST(SyntheticData, Deterministic) {
  const NuclideLibrary a = small_library(7);
  const NuclideLibrary b = small_library(7);
  ASSERT_EQ(a.nuclides.size(), b.nuclides.size());
  for (std::size_t i = 0; i < a.nuclides.size(); ++i) EXPECT_TRUE(same_nuclide(a.nuclides[i], b.nuclides[i]));
  EXPECT_EQ(library_hash(a), library_hash(b));

  const NuclideLibrary c = small_library(8);
  EXPECT_NE(library_hash(a), library_hash(c));
  for (std::size_t i = 0; i < a.nuclides.size(); ++i) {
    EXPECT_NE(a.nuclides[i].energy, c.nuclides[i].energy) << a.nuclides[i].name;
    EXPECT_NE(a.nuclides[i].capture, c.nuclides[i].capture) << a.nuclides[i].name;
  }
  // A nuclide depends only on (seed, its index): a larger library starts with the smaller one.
  const NuclideLibrary big = small_library(7, false, 20, 2000);
  for (std::size_t i = 0; i < a.nuclides.size(); ++i) EXPECT_TRUE(same_nuclide(a.nuclides[i], big.nuclides[i]));
  // Nuclides' grids differ from each other.
  EXPECT_NE(a.nuclides[0].energy, a.nuclides[1].energy);
}

// The generator uses only IEEE-exact arithmetic, so its bytes are the same on every machine. Update
// this value only when the shapes are changed on purpose.
TEST(SyntheticData, SameBytesEverywhere) {
  const std::uint64_t h = library_hash(small_library(7, false, 12, 500));
  std::printf("synthetic library hash (12 x 500, seed 7): 0x%016llx\n", static_cast<unsigned long long>(h));
  EXPECT_EQ(h, 0xfa5d5ae671e58948ULL);
}

TEST(SyntheticData, GridsAndShapes) {
  const NuclideLibrary lib = small_library(7);
  for (const NuclideData& d : lib.nuclides) {
    SCOPED_TRACE(d.name);
    ASSERT_EQ(d.energy.size(), 2000u);
    ASSERT_EQ(d.elastic.size(), 2000u);
    ASSERT_EQ(d.capture.size(), 2000u);
    ASSERT_EQ(d.fission.size(), 2000u);
    EXPECT_EQ(d.energy.front(), constants::energy_min_ev);
    EXPECT_EQ(d.energy.back(), constants::energy_max_ev);
    for (std::size_t i = 1; i < d.energy.size(); ++i) ASSERT_LT(d.energy[i - 1], d.energy[i]);
    for (std::size_t i = 0; i < d.energy.size(); ++i) {
      ASSERT_GT(d.elastic[i], 0.0);
      ASSERT_GT(d.capture[i], 0.0);
      if (d.fissile) {
        ASSERT_GT(d.fission[i], 0.0);
      } else {
        ASSERT_EQ(d.fission[i], 0.0);
      }
      ASSERT_TRUE(std::isfinite(d.elastic[i] + d.capture[i] + d.fission[i]));
    }
    // 1/v below the resonances: capture(1e-4 eV) / capture(1e-2 eV) = 10.
    const double ratio = reference_micro(d, 1.0e-4).capture / reference_micro(d, 1.0e-2).capture;
    EXPECT_NEAR(ratio, 10.0, 0.01);
  }
  auto at = [&](const char* name, double e) { return reference_micro(lib.nuclides[lib.find(name)], e); };
  EXPECT_NEAR(at("H1", 0.0253).capture, 0.332, 0.001);
  EXPECT_NEAR(at("H1", 0.0253).elastic, 20.0, 1e-12);
  EXPECT_NEAR(at("B10", 0.0253).capture, 3840.0, 5.0);
  EXPECT_NEAR(at("U235", 0.0253).fission, 585.0, 1.0);
  EXPECT_NEAR(at("Pu239", 0.0253).fission, 750.0, 1.0);
  EXPECT_NEAR(at("Pu241", 0.0253).fission, 1010.0, 1.5);
  EXPECT_NEAR(at("U238", 0.0253).capture, 2.68, 0.01);
  // Threshold fission: negligible thermal, ~0.45 b fast.
  EXPECT_LT(at("U238", 0.0253).fission, 1.0e-3);
  EXPECT_NEAR(at("U238", 5.0e6).fission, 0.45, 0.01);
  EXPECT_NEAR(at("U235", 2.0e6).nu, 2.43 + 0.066 * 2.0, 1e-12);
  // Resonances: heavy nuclides' capture peaks well above the smooth 1/v background somewhere in 1 eV-100 keV.
  for (const char* name : {"U235", "U238", "Pu239", "FP001"}) {
    const NuclideData& d = lib.nuclides[lib.find(name)];
    double peak_ratio = 0;
    for (std::size_t i = 0; i < d.energy.size(); ++i) {
      if (d.energy[i] < 1.0 || d.energy[i] > 1.0e5) continue;
      const double smooth = d.capture[0] * std::sqrt(d.energy[0] / d.energy[i]);
      peak_ratio = std::max(peak_ratio, d.capture[i] / smooth);
    }
    EXPECT_GT(peak_ratio, 10.0) << name;
  }
}

TEST(SyntheticData, FlatIsConstant) {
  const NuclideLibrary lib = small_library(7, true);
  for (const NuclideData& d : lib.nuclides) {
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.nu1, 0.0);
    EXPECT_GT(d.elastic[0], 0.0);
    EXPECT_GT(d.capture[0], 0.0);
    EXPECT_EQ(d.fission[0] > 0.0, d.fissile);
    for (std::size_t i = 0; i < d.energy.size(); ++i) {
      ASSERT_EQ(d.elastic[i], d.elastic[0]);
      ASSERT_EQ(d.capture[i], d.capture[0]);
      ASSERT_EQ(d.fission[i], d.fission[0]);
    }
  }
  EXPECT_EQ(lib.nuclides[lib.find("U235")].fission[0], 585.0);
}

TEST(SyntheticData, HoogenboomMartinLargeSizes) {
  SyntheticDataSpec spec;
  spec.nuclides = 355;
  spec.gridpoints = 11303;
  const auto t0 = std::chrono::steady_clock::now();
  const NuclideLibrary lib = generate_synthetic_library(spec);
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_EQ(lib.nuclides.size(), 355u);
  std::set<std::int32_t> ids;
  std::set<std::string> names;
  for (const NuclideData& d : lib.nuclides) {
    ids.insert(d.id);
    names.insert(d.name);
    ASSERT_EQ(d.energy.size(), 11303u);
    ASSERT_EQ(d.elastic.size(), 11303u);
    ASSERT_EQ(d.capture.size(), 11303u);
    ASSERT_EQ(d.fission.size(), 11303u);
    ASSERT_EQ(d.energy.front(), constants::energy_min_ev);
    ASSERT_EQ(d.energy.back(), constants::energy_max_ev);
    for (std::size_t i = 1; i < d.energy.size(); ++i) ASSERT_LT(d.energy[i - 1], d.energy[i]) << d.name;
  }
  EXPECT_EQ(ids.size(), 355u);
  EXPECT_EQ(names.size(), 355u);
  EXPECT_EQ(lib.nuclides.back().name, "FP345");

  const auto t2 = std::chrono::steady_clock::now();
  const auto p = build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::hash, 8000);
  const auto t3 = std::chrono::steady_clock::now();
  EXPECT_EQ(p.n_nuclides(), 355);
  EXPECT_EQ(p.grid.points.extent(0), 355u * 11303u);
  EXPECT_EQ(p.grid.hash_index.extent(0), 8001u);
  EXPECT_EQ(p.grid.hash_index.extent(1), 355u);
  std::printf("HM-large (355 x 11303): generate %.3f s, build hash params %.3f s\n",
              std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t3 - t2).count());

  // The hash search agrees with bisection on the large library too.
  const LookupResults r = run_lookups(p, to_device_view(test_energies(lib, 2000, 997)));
  int mismatches = 0;
  for (std::size_t i = 0; i < r.bisect.extent(0); ++i) {
    for (std::size_t n = 0; n < r.bisect.extent(1); ++n) mismatches += r.bisect(i, n) != r.accel(i, n);
  }
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace keff
