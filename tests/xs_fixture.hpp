#pragma once
// What the continuous-energy data tests share: small synthetic libraries, reference lookups by linear
// search, lookups run on the device, the energies they are asked at, and small problems.
#include "io/input/input.hpp"
#include "io/library/data_error.hpp"
#include "kernels/neutron/xs/nuclide_lookup.hpp"
#include "kernels/rng.hpp"
#include "kernels/sample_nuclide.hpp"
#include "src/host/synthetic_data.hpp"
#include "src/params/build_nuclide_tables.hpp"
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

inline NuclideLibrary small_library(std::uint64_t seed = 7, bool flat = false, int nuclides = 12, int points = 2000) {
  SyntheticDataSpec spec;
  spec.nuclides = nuclides;
  spec.gridpoints = points;
  spec.seed = seed;
  spec.flat = flat;
  return generate_synthetic_library(spec);
}

// Host reference: the local index by std::upper_bound.
inline int reference_index(const NuclideData& d, double e) {
  const int npts = static_cast<int>(d.energy.size());
  const int i = static_cast<int>(std::upper_bound(d.energy.begin(), d.energy.end(), e) - d.energy.begin()) - 1;
  return std::clamp(i, 0, npts - 2);
}

// A nuclide's cross sections at one energy (barns), and nu.
struct ReferenceXs {
  double total = 0, elastic = 0, capture = 0, fission = 0, nu = 0;
};

// Host reference interpolation, the same formula as the device lookup's (NuclideParams::lookup).
inline ReferenceXs reference_micro(const NuclideData& d, double e) {
  const auto i = static_cast<std::size_t>(reference_index(d, e));
  double f = (e - d.energy[i]) / (d.energy[i + 1] - d.energy[i]);
  f = std::clamp(f, 0.0, 1.0);
  ReferenceXs xs;
  xs.elastic = d.elastic[i] + f * (d.elastic[i + 1] - d.elastic[i]);
  xs.capture = d.capture[i] + f * (d.capture[i + 1] - d.capture[i]);
  xs.fission = d.fission[i] + f * (d.fission[i + 1] - d.fission[i]);
  xs.total = xs.elastic + xs.capture + xs.fission;
  xs.nu = d.fissile ? d.nu0 + d.nu1 * (e * 1.0e-6) : 0.0;
  return xs;
}

// Energies that stress the searches: log-uniform random ones, every grid point of every nuclide (up to
// a stride), midpoints, points one ulp either side, both endpoints, and values outside the range.
inline std::vector<double> test_energies(const NuclideLibrary& lib, int random_count, int stride) {
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

inline Kokkos::View<Real*, DeviceMem> to_device_view(const std::vector<double>& v) {
  Kokkos::View<Real*, HostMem> h("keff::test::energies", v.size());
  std::copy(v.begin(), v.end(), h.data());
  return Kokkos::create_mirror_view_and_copy(DeviceMem{}, h);
}

struct LookupResults {
  Kokkos::View<int**, Kokkos::LayoutRight, HostMem> bisect, accel;
  Kokkos::View<Real***, Kokkos::LayoutRight, HostMem> micro;  // [e][n][5]
};

// For every (energy, nuclide): the bisect index, the accelerated index, and the micro cross sections.
inline LookupResults run_lookups(const neutron::NuclideParams<DeviceMem>& p,
                                 const Kokkos::View<Real*, DeviceMem>& energies) {
  const int n_e = static_cast<int>(energies.extent(0));
  const int n_nuc = p.n_nuclides();
  Kokkos::View<int**, Kokkos::LayoutRight, DeviceMem> bisect("keff::test::bisect", n_e, n_nuc);
  Kokkos::View<int**, Kokkos::LayoutRight, DeviceMem> accel("keff::test::accel", n_e, n_nuc);
  Kokkos::View<Real***, Kokkos::LayoutRight, DeviceMem> micro("keff::test::micro", n_e, n_nuc, 5);
  Kokkos::parallel_for(
      "keff::test::lookups", Kokkos::RangePolicy<DeviceExec>(0, n_e), KOKKOS_LAMBDA(int i) {
        const Real e = energies(i);
        const int search = p.grid_search(e);
        for (int n = 0; n < n_nuc; ++n) {
          bisect(i, n) = nuclide_grid_index_bisect(p.grid, n, e);
          accel(i, n) = nuclide_grid_index(p.grid, n, e, search);
          const neutron::NuclideXs xs = p.lookup(n, e, search);
          micro(i, n, 0) = xs.total;
          micro(i, n, 1) = xs.elastic;
          micro(i, n, 2) = xs.absorption;
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

inline MacroResults run_macro(const neutron::NuclideParams<DeviceMem>& p, const MaterialParams<DeviceMem>& mats,
                              int n_mat, const Kokkos::View<Real*, DeviceMem>& energies) {
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
        const MacroXs x = neutron::material_macro_xs(p, mats, false, m, e, 0, row);
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

inline bool same_nuclide(const NuclideData& a, const NuclideData& b) {
  return a.name == b.name && a.id == b.id && a.awr == b.awr && a.fissile == b.fissile && a.nu0 == b.nu0 &&
         a.nu1 == b.nu1 && a.watt_a == b.watt_a && a.watt_b == b.watt_b && a.energy == b.energy &&
         a.elastic == b.elastic && a.capture == b.capture && a.fission == b.fission;
}

inline std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001B3ULL;
  return h;
}

inline std::uint64_t library_hash(const NuclideLibrary& lib) {
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

inline model::Material ce_material(const std::string& name, std::vector<model::NuclideAmount> nuclides, int line) {
  model::Material m;
  m.name = name;
  m.where = {"bench.toml", line};
  m.nuclides = std::move(nuclides);
  return m;
}

inline model::Problem three_material_problem() {
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
