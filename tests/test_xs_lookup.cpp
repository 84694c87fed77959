// Continuous-energy lookup: the three energy-grid searches (identical indices and bit-identical cross
// sections), the macroscopic sum, nuclide sampling, and the material / multigroup builders. The
// synthetic data they run on: test_synthetic_data.cpp.
#include "src/params/broaden_free_gas.hpp"
#include "xs_fixture.hpp"

#include <gtest/gtest.h>

namespace keff {
namespace {

using namespace keff::test_xs;

// Grids that stop short of the energy range, as most evaluated data (and XSBench's) do: the last
// nuclide's ends below the top, the first's starts above the bottom, another's does both.
NuclideLibrary partial_range_library() {
  NuclideLibrary lib = small_library(7);
  const auto cut = [](NuclideData& d, std::size_t drop_low, std::size_t drop_high) {
    for (auto* column : {&d.energy, &d.elastic, &d.capture, &d.fission}) {
      column->erase(column->end() - static_cast<std::ptrdiff_t>(drop_high), column->end());
      column->erase(column->begin(), column->begin() + static_cast<std::ptrdiff_t>(drop_low));
    }
  };
  cut(lib.nuclides.back(), 0, 300);
  cut(lib.nuclides.front(), 300, 0);
  cut(lib.nuclides[3], 200, 200);
  return lib;
}

TEST(XsLookup, GridKindsAgreeWithBisection) {
  const NuclideLibrary lib = partial_range_library();
  const std::vector<double> energies = test_energies(lib, 20000, 3);
  const auto dev_energies = to_device_view(energies);

  const LookupResults ref = run_lookups(build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0),
                                        dev_energies);
  // Bisection against std::upper_bound, and the micro XS against the host interpolation.
  for (std::size_t i = 0; i < energies.size(); ++i) {
    for (std::size_t n = 0; n < lib.nuclides.size(); ++n) {
      ASSERT_EQ(ref.bisect(i, n), reference_index(lib.nuclides[n], energies[i])) << "E=" << energies[i];
      ASSERT_EQ(ref.accel(i, n), ref.bisect(i, n));
      const ReferenceXs m = reference_micro(lib.nuclides[n], energies[i]);
      const double expect[5] = {m.total, m.elastic, m.capture, m.fission, m.nu};
      for (int c = 0; c < 5; ++c) {
        ASSERT_NEAR(ref.micro(i, n, c), expect[c], 1e-12 * std::abs(expect[c])) << "E=" << energies[i];
      }
    }
  }

  struct Variant {
    EnergyGridKind kind;
    int bins;
  };
  for (const Variant v : {Variant{EnergyGridKind::hash, 1}, Variant{EnergyGridKind::hash, 7},
                          Variant{EnergyGridKind::hash, 8000}, Variant{EnergyGridKind::hash, 100000},
                          Variant{EnergyGridKind::unionized, 0}}) {
    SCOPED_TRACE("grid kind " + std::to_string(static_cast<int>(v.kind)) + ", bins " + std::to_string(v.bins));
    const auto p = build_synthetic_params(DeviceExec{}, lib, v.kind, v.bins);
    if (v.kind == EnergyGridKind::unionized) {
      EXPECT_GT(p.grid.union_energy.extent(0), 2000u);  // jittered grids: the union is much larger than one grid
      EXPECT_EQ(p.grid.union_index.extent(0), p.grid.union_energy.extent(0));
      EXPECT_EQ(p.grid.hash_index.extent(0), 0u);
    } else {
      EXPECT_EQ(p.grid.hash_index.extent(0), static_cast<std::size_t>(v.bins) + 1);
      EXPECT_EQ(p.grid.union_energy.extent(0), 0u);
    }
    const LookupResults r = run_lookups(p, dev_energies);
    int index_mismatch = 0, xs_mismatch = 0;
    for (std::size_t i = 0; i < energies.size(); ++i) {
      for (std::size_t n = 0; n < lib.nuclides.size(); ++n) {
        index_mismatch += r.accel(i, n) != r.bisect(i, n) || r.bisect(i, n) != ref.bisect(i, n);
        for (int c = 0; c < 5; ++c) xs_mismatch += r.micro(i, n, c) != ref.micro(i, n, c);  // bit-for-bit
      }
    }
    EXPECT_EQ(index_mismatch, 0);
    EXPECT_EQ(xs_mismatch, 0);
  }
}

TEST(XsLookup, MacroMatchesHostSum) {
  const NuclideLibrary lib = small_library(7);
  const model::Problem problem = three_material_problem();
  // The materials are at 293.6 K with free-gas targets: lookups read the elastic cross sections
  // broadened for them (src/params/broaden_free_gas.hpp), one copy of each nuclide at that temperature.
  const BroadenedNuclides broadened = broaden_free_gas(lib, problem);
  ASSERT_EQ(broadened.library.nuclides.size(), lib.nuclides.size());
  const MaterialParams<DeviceMem> mats = build_material_params(DeviceExec{}, problem, lib, &broadened);
  EXPECT_EQ(mats.max_nuclides, 12);
  const auto fissionable = Kokkos::create_mirror_view_and_copy(HostMem{}, mats.fissionable);
  EXPECT_EQ(fissionable(0), 1);
  EXPECT_EQ(fissionable(1), 0);
  EXPECT_EQ(fissionable(2), 1);
  EXPECT_EQ(fissionable(3), 0);  // U235 at density 0

  const std::vector<double> energies = test_energies(lib, 3000, 401);
  const int n_mat = static_cast<int>(problem.materials.size()) + 1;  // row 0 is void
  for (EnergyGridKind kind : {EnergyGridKind::nuclide, EnergyGridKind::hash, EnergyGridKind::unionized}) {
    SCOPED_TRACE("grid kind " + std::to_string(static_cast<int>(kind)));
    const auto p = build_synthetic_params(DeviceExec{}, broadened.library, kind, 8000);
    const MacroResults r = run_macro(p, mats, n_mat, to_device_view(energies));
    for (std::size_t i = 0; i < energies.size(); ++i) {
      const double e = energies[i];
      const std::size_t void_row = i * static_cast<std::size_t>(n_mat);
      for (int c = 0; c < 4; ++c) ASSERT_EQ(r.macro(void_row, c), 0.0);
      for (int m = 0; m + 1 < n_mat; ++m) {
        const std::size_t row = void_row + static_cast<std::size_t>(m) + 1;
        double expect[4] = {0, 0, 0, 0};
        std::vector<double> partial;
        const double kt = material_kt(problem, problem.materials[m]);
        for (const auto& a : problem.materials[m].nuclides) {
          const NuclideData& data = broadened.library.nuclides[broadened.find(a.name, kt)];
          const ReferenceXs x = reference_micro(data, e);
          expect[0] += a.density * x.total;
          expect[1] += a.density * (x.capture + x.fission);
          expect[2] += a.density * x.fission;
          expect[3] += a.density * x.nu * x.fission;
          partial.push_back(a.density * x.total);
        }
        for (int c = 0; c < 4; ++c) ASSERT_NEAR(r.macro(row, c), expect[c], 1e-12 * expect[c]) << "E=" << e;
        for (std::size_t k = 0; k < partial.size(); ++k) ASSERT_NEAR(r.cache(row, k), partial[k], 1e-12 * partial[k]);
        // xi = 0.5 picks the nuclide where the cumulative sum crosses half the total.
        double cum = 0;
        int expect_k = static_cast<int>(partial.size()) - 1;
        for (std::size_t k = 0; k < partial.size(); ++k) {
          cum += r.cache(row, k);
          if (0.5 * r.macro(row, 0) < cum) {
            expect_k = static_cast<int>(k);
            break;
          }
        }
        ASSERT_EQ(r.sampled(row), expect_k);
      }
    }
  }
}

// Broadening for free-gas targets: at each grid point where the target moves (below 400 kT, and at every
// energy for a nuclide lighter than a neutron) the elastic cross section times (1 + 1 / 2y^2) erf(y) +
// exp(-y^2) / (sqrt(pi) y), y = sqrt(A E / kT); elsewhere, and for the other channels, as tabulated. A
// nuclide at two temperatures becomes two; at rest (thermal = "none") nothing changes.
TEST(XsLookup, FreeGasBroadeningAtGridPoints) {
  const NuclideLibrary lib = small_library(7);
  model::Problem problem = three_material_problem();
  problem.materials[1].temperature = 600.0;  // a second temperature for the nuclides it shares
  const BroadenedNuclides broadened = broaden_free_gas(lib, problem);
  EXPECT_GT(broadened.library.nuclides.size(), lib.nuclides.size());
  int checked = 0;
  for (const model::Material& mat : problem.materials) {
    const double kt = material_kt(problem, mat);
    for (const auto& a : mat.nuclides) {
      const NuclideData& before = lib.nuclides[lib.find(a.name)];
      const NuclideData& after = broadened.library.nuclides[broadened.find(a.name, kt)];
      ASSERT_EQ(after.energy, before.energy);
      EXPECT_EQ(after.capture, before.capture);
      EXPECT_EQ(after.fission, before.fission);
      for (std::size_t i = 0; i < before.energy.size(); ++i) {
        const double e = before.energy[i];
        double factor = 1;
        if (before.awr < 1 || e < 400 * kt) {
          const double y = std::sqrt(before.awr * e / kt);
          factor = (1 + 1 / (2 * y * y)) * std::erf(y) + std::exp(-y * y) / (std::sqrt(constants::pi) * y);
        }
        ASSERT_NEAR(after.elastic[i], before.elastic[i] * factor, 1e-13 * before.elastic[i] * factor) << a.name << " E=" << e;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
  problem.settings.thermal = model::ThermalModel::none;
  const BroadenedNuclides at_rest = broaden_free_gas(lib, problem);
  ASSERT_EQ(at_rest.library.nuclides.size(), lib.nuclides.size());
  for (std::size_t n = 0; n < lib.nuclides.size(); ++n) EXPECT_EQ(at_rest.library.nuclides[n].elastic, lib.nuclides[n].elastic);
}

TEST(XsLookup, FlatLibraryInfiniteMediumK) {
  const NuclideLibrary lib = small_library(7, true);
  const model::Problem problem = three_material_problem();
  const MaterialParams<DeviceMem> mats = build_material_params(DeviceExec{}, problem, lib);
  const auto p = build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::hash, 8000);
  const std::vector<double> energies = {1.0e-5, 0.0253, 1.0, 1.0e3, 1.0e6, 1.9e7};
  const int n_mat = static_cast<int>(problem.materials.size()) + 1;
  const MacroResults r = run_macro(p, mats, n_mat, to_device_view(energies));
  double nsf = 0, abs = 0;
  for (const auto& a : problem.materials[0].nuclides) {
    const NuclideData& d = lib.nuclides[lib.find(a.name)];
    nsf += a.density * d.nu0 * d.fission[0];
    abs += a.density * (d.capture[0] + d.fission[0]);
  }
  for (std::size_t i = 0; i < energies.size(); ++i) {
    const std::size_t row = i * static_cast<std::size_t>(n_mat) + 1;
    EXPECT_NEAR(r.macro(row, 3) / r.macro(row, 1), nsf / abs, 1e-13) << "E=" << energies[i];
  }
}

TEST(XsLookup, SampleNuclideFrequencies) {
  Kokkos::View<Real*, HostMem> cache("keff::test::cache", 5);
  const double values[5] = {0.1, 0.0, 0.3, 0.6, 0.0};
  for (int k = 0; k < 5; ++k) cache(k) = values[k];
  const double total = 1.0;
  constexpr int samples = 100000;
  int counts[5] = {0, 0, 0, 0, 0};
  for (int s = 0; s < samples; ++s) ++counts[sample_nuclide(cache, 5, total, (s + 0.5) / samples)];
  EXPECT_NEAR(counts[0], 10000, 1);
  EXPECT_EQ(counts[1], 0);
  EXPECT_NEAR(counts[2], 30000, 1);
  EXPECT_NEAR(counts[3], 60000, 1);
  EXPECT_EQ(counts[4], 0);
  // Random draws: frequencies within 5 sigma.
  Lcg63 rng;
  rng.state = 99;
  int random_counts[5] = {0, 0, 0, 0, 0};
  for (int s = 0; s < samples; ++s) ++random_counts[sample_nuclide(cache, 5, total, rng.next())];
  for (int k = 0; k < 5; ++k) {
    const double mean = samples * values[k];
    EXPECT_NEAR(random_counts[k], mean, 5.0 * std::sqrt(mean * (1 - values[k])) + 0.5) << k;
  }
  // Round-off: a target past the cumulative sum gives the last entry.
  EXPECT_EQ(sample_nuclide(cache, 5, 1.0 + 1e-12, std::nextafter(1.0, 0.0)), 4);
  EXPECT_EQ(sample_nuclide(cache, 5, total, 0.0), 0);
}

TEST(XsLookup, UnknownNuclideThrowsInputError) {
  const NuclideLibrary lib = small_library(7, false, 12, 50);
  model::Problem problem;
  problem.materials.push_back(ce_material("water", {{"H1", 0.06}, {"O16", 0.03}}, 5));
  problem.materials.push_back(ce_material("fuel", {{"U235", 1e-3}, {"U236", 1e-4}}, 12));
  try {
    build_material_params(DeviceExec{}, problem, lib);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fuel"), std::string::npos) << msg;
    EXPECT_NE(msg.find("U236"), std::string::npos) << msg;
    EXPECT_NE(msg.find("bench.toml:12"), std::string::npos) << msg;
    EXPECT_NE(msg.find("12 nuclides"), std::string::npos) << msg;
  }
  model::Problem dup;
  dup.materials.push_back(ce_material("fuel", {{"U235", 1e-3}, {"U235", 1e-4}}, 3));
  EXPECT_THROW(build_material_params(DeviceExec{}, dup, lib), InputError);
}

TEST(XsLookup, BuildRejectsBadData) {
  NuclideLibrary lib = small_library(7, false, 2, 10);
  EXPECT_THROW(build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::hash, 0), std::invalid_argument);
  lib.nuclides[1].energy[4] = lib.nuclides[1].energy[3];
  EXPECT_THROW(build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0), DataError);
  lib = small_library(7, false, 2, 10);
  lib.nuclides[0].capture.pop_back();
  EXPECT_THROW(build_synthetic_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0), DataError);
}

TEST(XsLookup, MultigroupParams) {
  model::Problem problem;
  problem.groups = 2;
  model::Material fuel;
  fuel.name = "fuel";
  fuel.sigma_t = {0.5, 1.2};
  fuel.nu_sigma_f = {0.02, 0.3};
  fuel.sigma_f = {0.008, 0.12};
  fuel.chi = {1.0, 0.0};
  fuel.sigma_s = {{0.4, 0.05}, {0.0, 0.9}};
  model::Material water = fuel;
  water.name = "water";
  water.nu_sigma_f = {0.0, 0.0};
  water.sigma_f.clear();
  water.chi = {0.0, 0.0};
  problem.materials = {fuel, water};

  const MultigroupParams<DeviceMem> mg = build_multigroup_params(DeviceExec{}, problem);
  EXPECT_EQ(mg.n_groups, 2);
  const auto sigma_a = Kokkos::create_mirror_view_and_copy(HostMem{}, mg.sigma_a);
  const auto sigma_s_out = Kokkos::create_mirror_view_and_copy(HostMem{}, mg.sigma_s_out);
  const auto sigma_s = Kokkos::create_mirror_view_and_copy(HostMem{}, mg.sigma_s);
  const auto sigma_f = Kokkos::create_mirror_view_and_copy(HostMem{}, mg.sigma_f);
  EXPECT_DOUBLE_EQ(sigma_a(0, 0), 0.5 - 0.45);
  EXPECT_DOUBLE_EQ(sigma_a(0, 1), 1.2 - 0.9);
  EXPECT_DOUBLE_EQ(sigma_s_out(0, 0), 0.45);
  EXPECT_DOUBLE_EQ(sigma_s(0, 0, 1), 0.05);
  EXPECT_DOUBLE_EQ(sigma_f(0, 1), 0.12);
  EXPECT_EQ(sigma_f(1, 0), 0.0);
  EXPECT_EQ(sigma_f(1, 1), 0.0);

  const MaterialParams<DeviceMem> mats = build_multigroup_material_params(DeviceExec{}, problem);
  const auto fissionable = Kokkos::create_mirror_view_and_copy(HostMem{}, mats.fissionable);
  const auto offsets = Kokkos::create_mirror_view_and_copy(HostMem{}, mats.offsets);
  EXPECT_EQ(fissionable(0), 1);
  EXPECT_EQ(fissionable(1), 0);
  EXPECT_EQ(offsets(2), 0);
  EXPECT_EQ(mats.max_nuclides, 1);

  problem.materials[1].sigma_s[1].pop_back();
  EXPECT_THROW(build_multigroup_params(DeviceExec{}, problem), std::invalid_argument);
}

}  // namespace
}  // namespace keff
