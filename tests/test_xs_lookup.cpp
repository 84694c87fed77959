// Continuous-energy data and lookup: synthetic library generation (determinism, shapes, sizes), the
// three energy-grid searches (identical indices and bit-identical cross sections), the macroscopic sum,
// nuclide sampling, and the material / multigroup builders.
#include "io/input/input.hpp"
#include "io/library/data_error.hpp"
#include "kernels/rng.hpp"
#include "kernels/xs_lookup.hpp"
#include "src/host/synthetic_data.hpp"
#include "src/params/build_nuclear_data.hpp"

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace keff::test_xs {

using HostMem = Kokkos::HostSpace;

NuclideLibrary small_library(std::uint64_t seed = 7, bool flat = false, int nuclides = 12, int points = 2000) {
  SyntheticDataSpec spec;
  spec.nuclides = nuclides;
  spec.gridpoints = points;
  spec.seed = seed;
  spec.flat = flat;
  return generate_synthetic_library(spec);
}

// Host reference: the local index by std::upper_bound.
int reference_index(const NuclideData& d, double e) {
  const int npts = static_cast<int>(d.energy.size());
  const int i = static_cast<int>(std::upper_bound(d.energy.begin(), d.energy.end(), e) - d.energy.begin()) - 1;
  return std::clamp(i, 0, npts - 2);
}

// Host reference interpolation, same formula as micro_xs.
MicroXs reference_micro(const NuclideData& d, double e) {
  const auto i = static_cast<std::size_t>(reference_index(d, e));
  double f = (e - d.energy[i]) / (d.energy[i + 1] - d.energy[i]);
  f = std::clamp(f, 0.0, 1.0);
  MicroXs xs;
  xs.elastic = d.elastic[i] + f * (d.elastic[i + 1] - d.elastic[i]);
  xs.capture = d.capture[i] + f * (d.capture[i + 1] - d.capture[i]);
  xs.fission = d.fission[i] + f * (d.fission[i + 1] - d.fission[i]);
  xs.total = xs.elastic + xs.capture + xs.fission;
  xs.nu = d.fissile ? d.nu0 + d.nu1 * (e * 1.0e-6) : 0.0;
  return xs;
}

// Energies that stress the searches: log-uniform random ones, every grid point of every nuclide (up to
// a stride), midpoints, points one ulp either side, both endpoints, and values outside the range.
std::vector<double> test_energies(const NuclideLibrary& lib, int random_count, int stride) {
  std::vector<double> e;
  Lcg63 rng;
  rng.state = 12345;
  for (int i = 0; i < random_count; ++i) e.push_back(1.0e-6 * std::pow(4.0e13, rng.next()));
  for (const NuclideData& d : lib.nuclides) {
    for (std::size_t i = 0; i < d.energy.size(); i += static_cast<std::size_t>(stride)) {
      e.push_back(d.energy[i]);
      e.push_back(std::nextafter(d.energy[i], 0.0));
      e.push_back(std::nextafter(d.energy[i], 1.0e300));
      if (i + 1 < d.energy.size()) e.push_back(0.5 * (d.energy[i] + d.energy[i + 1]));
    }
  }
  for (double v : {0.0, 1.0e-9, constants::energy_min_ev, std::nextafter(constants::energy_min_ev, 0.0),
                   std::nextafter(constants::energy_min_ev, 1.0), 0.0253, 1.0e6, constants::energy_max_ev,
                   std::nextafter(constants::energy_max_ev, 0.0), std::nextafter(constants::energy_max_ev, 1e300),
                   3.0e7, 1.0e300}) {
    e.push_back(v);
  }
  return e;
}

Kokkos::View<Real*, DeviceMem> to_device_view(const std::vector<double>& v) {
  Kokkos::View<Real*, HostMem> h("keff::test::energies", v.size());
  std::copy(v.begin(), v.end(), h.data());
  return Kokkos::create_mirror_view_and_copy(DeviceMem{}, h);
}

struct LookupResults {
  Kokkos::View<int**, Kokkos::LayoutRight, HostMem> bisect, accel;
  Kokkos::View<Real***, Kokkos::LayoutRight, HostMem> micro;  // [e][n][5]
};

// For every (energy, nuclide): the bisect index, the accelerated index, and the micro cross sections.
LookupResults run_lookups(const NuclideParams<DeviceMem>& p, const Kokkos::View<Real*, DeviceMem>& energies) {
  const int n_e = static_cast<int>(energies.extent(0));
  const int n_nuc = p.n_nuclides();
  Kokkos::View<int**, Kokkos::LayoutRight, DeviceMem> bisect("keff::test::bisect", n_e, n_nuc);
  Kokkos::View<int**, Kokkos::LayoutRight, DeviceMem> accel("keff::test::accel", n_e, n_nuc);
  Kokkos::View<Real***, Kokkos::LayoutRight, DeviceMem> micro("keff::test::micro", n_e, n_nuc, 5);
  Kokkos::parallel_for(
      "keff::test::lookups", Kokkos::RangePolicy<DeviceExec>(0, n_e), KOKKOS_LAMBDA(int i) {
        const Real e = energies(i);
        const int search = energy_search(p, e);
        for (int n = 0; n < n_nuc; ++n) {
          bisect(i, n) = nuclide_grid_index_bisect(p, n, e);
          accel(i, n) = nuclide_grid_index(p, n, e, search);
          const MicroXs xs = micro_xs(p, n, e, search);
          micro(i, n, 0) = xs.total;
          micro(i, n, 1) = xs.elastic;
          micro(i, n, 2) = xs.capture;
          micro(i, n, 3) = xs.fission;
          micro(i, n, 4) = xs.nu;
        }
      });
  Kokkos::fence();
  LookupResults r;
  r.bisect = Kokkos::create_mirror_view_and_copy(HostMem{}, bisect);
  r.accel = Kokkos::create_mirror_view_and_copy(HostMem{}, accel);
  r.micro = Kokkos::create_mirror_view_and_copy(HostMem{}, micro);
  return r;
}

struct MacroResults {
  Kokkos::View<Real**, Kokkos::LayoutRight, HostMem> macro;  // [e * n_mat + m][4]
  Kokkos::View<Real**, Kokkos::LayoutRight, HostMem> cache;  // [e * n_mat + m][max_nuclides]
  Kokkos::View<int*, HostMem> sampled;                       // [e * n_mat + m]
};

MacroResults run_macro(const NuclideParams<DeviceMem>& p, const MaterialParams<DeviceMem>& mats, int n_mat,
                       const Kokkos::View<Real*, DeviceMem>& energies) {
  const int n_e = static_cast<int>(energies.extent(0));
  const int rows = n_e * n_mat;
  Kokkos::View<Real**, Kokkos::LayoutRight, DeviceMem> macro("keff::test::macro", rows, 4);
  Kokkos::View<Real**, Kokkos::LayoutRight, DeviceMem> cache("keff::test::cache", rows, mats.max_nuclides);
  Kokkos::View<int*, DeviceMem> sampled("keff::test::sampled", rows);
  Kokkos::parallel_for(
      "keff::test::macro", Kokkos::RangePolicy<DeviceExec>(0, rows), KOKKOS_LAMBDA(int r) {
        const int m = r % n_mat - 1;  // material -1 (void) included
        const Real e = energies(r / n_mat);
        auto row = Kokkos::subview(cache, r, Kokkos::ALL);
        const MacroXs x = macro_xs(p, mats, m, e, row);
        macro(r, 0) = x.total;
        macro(r, 1) = x.absorption;
        macro(r, 2) = x.fission;
        macro(r, 3) = x.nu_fission;
        sampled(r) = m < 0 ? -1 : sample_nuclide(row, mats.offsets(m + 1) - mats.offsets(m), x.total, 0.5);
      });
  Kokkos::fence();
  MacroResults out;
  out.macro = Kokkos::create_mirror_view_and_copy(HostMem{}, macro);
  out.cache = Kokkos::create_mirror_view_and_copy(HostMem{}, cache);
  out.sampled = Kokkos::create_mirror_view_and_copy(HostMem{}, sampled);
  return out;
}

bool same_nuclide(const NuclideData& a, const NuclideData& b) {
  return a.name == b.name && a.id == b.id && a.awr == b.awr && a.fissile == b.fissile && a.nu0 == b.nu0 &&
         a.nu1 == b.nu1 && a.watt_a == b.watt_a && a.watt_b == b.watt_b && a.energy == b.energy &&
         a.elastic == b.elastic && a.capture == b.capture && a.fission == b.fission;
}

std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001B3ULL;
  return h;
}

std::uint64_t library_hash(const NuclideLibrary& lib) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const NuclideData& d : lib.nuclides) {
    h = fnv1a(h, d.name.data(), d.name.size());
    const double scalars[6] = {d.awr, d.nu0, d.nu1, d.watt_a, d.watt_b, d.fissile ? 1.0 : 0.0};
    h = fnv1a(h, scalars, sizeof(scalars));
    h = fnv1a(h, &d.id, sizeof(d.id));
    for (const auto* v : {&d.energy, &d.elastic, &d.capture, &d.fission}) {
      h = fnv1a(h, v->data(), v->size() * sizeof(double));
    }
  }
  return h;
}

model::Material ce_material(const std::string& name, std::vector<model::NuclideAmount> nuclides, int line) {
  model::Material m;
  m.name = name;
  m.where = {"bench.toml", line};
  m.nuclides = std::move(nuclides);
  return m;
}

model::Problem three_material_problem() {
  model::Problem problem;
  problem.materials.push_back(
      ce_material("fuel", {{"U235", 7.0e-4}, {"U238", 2.2e-2}, {"O16", 4.6e-2}, {"Pu239", 1.0e-5}}, 10));
  problem.materials.push_back(ce_material("water", {{"H1", 6.7e-2}, {"O16", 3.3e-2}, {"B10", 1.0e-5}}, 20));
  std::vector<model::NuclideAmount> all;
  for (int i = 0; i < 12; ++i) all.push_back({synthetic_nuclide_name(i), 1.0e-3 * (i + 1)});
  problem.materials.push_back(ce_material("everything", all, 30));
  problem.materials.push_back(ce_material("no_fissile_density", {{"U235", 0.0}, {"H1", 1.0e-2}}, 40));
  return problem;
}

}  // namespace keff::test_xs

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
  const NuclideParams<DeviceMem> p = build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::hash, 8000);
  const auto t3 = std::chrono::steady_clock::now();
  EXPECT_EQ(p.n_nuclides(), 355);
  EXPECT_EQ(p.points.extent(0), 355u * 11303u);
  EXPECT_EQ(p.hash_index.extent(0), 8001u);
  EXPECT_EQ(p.hash_index.extent(1), 355u);
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

  const LookupResults ref = run_lookups(build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0),
                                        dev_energies);
  // Bisection against std::upper_bound, and the micro XS against the host interpolation.
  for (std::size_t i = 0; i < energies.size(); ++i) {
    for (std::size_t n = 0; n < lib.nuclides.size(); ++n) {
      ASSERT_EQ(ref.bisect(i, n), reference_index(lib.nuclides[n], energies[i])) << "E=" << energies[i];
      ASSERT_EQ(ref.accel(i, n), ref.bisect(i, n));
      const MicroXs m = reference_micro(lib.nuclides[n], energies[i]);
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
    const NuclideParams<DeviceMem> p = build_nuclide_params(DeviceExec{}, lib, v.kind, v.bins);
    if (v.kind == EnergyGridKind::unionized) {
      EXPECT_GT(p.union_energy.extent(0), 2000u);  // jittered grids: the union is much larger than one grid
      EXPECT_EQ(p.union_index.extent(0), p.union_energy.extent(0));
      EXPECT_EQ(p.hash_index.extent(0), 0u);
    } else {
      EXPECT_EQ(p.hash_index.extent(0), static_cast<std::size_t>(v.bins) + 1);
      EXPECT_EQ(p.union_energy.extent(0), 0u);
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
  const MaterialParams<DeviceMem> mats = build_material_params(DeviceExec{}, problem, lib);
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
    const NuclideParams<DeviceMem> p = build_nuclide_params(DeviceExec{}, lib, kind, 8000);
    const MacroResults r = run_macro(p, mats, n_mat, to_device_view(energies));
    for (std::size_t i = 0; i < energies.size(); ++i) {
      const double e = energies[i];
      const std::size_t void_row = i * static_cast<std::size_t>(n_mat);
      for (int c = 0; c < 4; ++c) ASSERT_EQ(r.macro(void_row, c), 0.0);
      for (int m = 0; m + 1 < n_mat; ++m) {
        const std::size_t row = void_row + static_cast<std::size_t>(m) + 1;
        double expect[4] = {0, 0, 0, 0};
        std::vector<double> partial;
        // The materials are at 293.6 K with free-gas targets: below 400 kT, and for H1 at every energy,
        // the elastic cross section is sigma_0 times (1 + 1 / 2y^2) erf(y) + exp(-y^2) / (sqrt(pi) y).
        const double kt = constants::boltzmann_ev_per_k * problem.materials[m].temperature;
        for (const auto& a : problem.materials[m].nuclides) {
          const NuclideData& data = lib.nuclides[lib.find(a.name)];
          MicroXs x = reference_micro(data, e);
          if (e > 0 && (data.awr < 1 || e < 400 * kt)) {
            const double y = std::sqrt(data.awr * e / kt);
            x.elastic *= (1 + 1 / (2 * y * y)) * std::erf(y) + std::exp(-y * y) / (std::sqrt(constants::pi) * y);
            x.total = x.elastic + x.capture + x.fission;
          }
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

TEST(XsLookup, FlatLibraryInfiniteMediumK) {
  const NuclideLibrary lib = small_library(7, true);
  const model::Problem problem = three_material_problem();
  const MaterialParams<DeviceMem> mats = build_material_params(DeviceExec{}, problem, lib);
  const NuclideParams<DeviceMem> p = build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::hash, 8000);
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
  EXPECT_THROW(build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::hash, 0), std::invalid_argument);
  lib.nuclides[1].energy[4] = lib.nuclides[1].energy[3];
  EXPECT_THROW(build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0), DataError);
  lib = small_library(7, false, 2, 10);
  lib.nuclides[0].capture.pop_back();
  EXPECT_THROW(build_nuclide_params(DeviceExec{}, lib, EnergyGridKind::nuclide, 0), DataError);
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
