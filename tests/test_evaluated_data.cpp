// Evaluated nuclides on the device (kernels/neutron/data/nuclide_data.hpp, built by
// src/params/build_nuclide_tables): the grid's columns and each reaction's cross section looked up where
// the host interpolates them, nu, the sorting of reactions into scattering and fission, the check that a
// total is the sum of its parts, and reactions chosen in proportion to their cross sections; on the tiny
// table of tests/ace_builder.hpp and, where setup made it, on the NJOY library's seven nuclides.
#include "ace_builder.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xsdir.hpp"
#include "io/library/data_error.hpp"
#include "kernels/neutron/interactor/sample_reaction.hpp"
#include "kernels/rng.hpp"
#include "src/params/build_nuclide_tables.hpp"
#include "src/params/to_device.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace keff {
namespace {

ace::IncidentNeutron tiny() {
  return ace::read_incident_neutron(ace::parse_ace_table(test::build_ace().text(), "tiny.ace"), "Es250");
}

// For each energy: total, elastic, absorption, fission, then each scattering and fission reaction's
// cross section, as the device looks them up.
std::vector<double> device_lookups(const NuclideTables& tables, int nuclide, const std::vector<double>& energies_ev) {
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  const auto& rec = tables.nuclides[static_cast<std::size_t>(nuclide)];
  const int columns = 4 + rec.reactions + rec.fissions;
  std::vector<Real> e(energies_ev.begin(), energies_ev.end());
  const auto energy = to_device(exec, "keff::test::energies", e);
  Kokkos::View<Real**, Kokkos::LayoutRight, DeviceMem> out("keff::test::lookups", e.size(), columns);
  Kokkos::parallel_for(
      "keff::test::evaluated_lookup", Kokkos::RangePolicy<DeviceExec>(exec, 0, e.size()), KOKKOS_LAMBDA(int i) {
        const neutron::NuclideXs xs = d.lookup(nuclide, energy(i));
        out(i, 0) = xs.total;
        out(i, 1) = xs.elastic;
        out(i, 2) = xs.absorption;
        out(i, 3) = xs.fission;
        const auto& n = d.nuclides(nuclide);
        for (int r = 0; r < n.reactions + n.fissions; ++r) out(i, 4 + r) = d.reaction_xs(d.reactions(n.first_reaction + r), xs);
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {h.data(), h.data() + h.size()};
}

// How often each reaction index is chosen for a non-elastic scatter at E.
std::map<int, int> reaction_counts(const NuclideTables& tables, int nuclide, double energy_ev, int samples) {
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  Kokkos::View<int*, DeviceMem> chosen("keff::test::chosen", samples);
  const Real energy = energy_ev;
  Kokkos::parallel_for(
      "keff::test::sample_reaction", Kokkos::RangePolicy<DeviceExec>(exec, 0, samples), KOKKOS_LAMBDA(int i) {
        Lcg63 rng = history_rng(5, RngStream::tracking, 0, static_cast<std::uint64_t>(samples), static_cast<std::uint64_t>(i));
        chosen(i) = neutron::sample_scattering_reaction(d, nuclide, d.lookup(nuclide, energy), rng.next());
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, chosen);
  std::map<int, int> counts;
  for (int i = 0; i < samples; ++i) ++counts[h(i)];
  return counts;
}

// The host's answer: linear-linear between the points around E, held at the grid's ends; a reaction
// given from point `first` on is 0 below that point (the interval up to it included, as ACE codes read it).
double host_interpolate(const std::vector<double>& grid_mev, const std::vector<double>& values, int first, double e_mev) {
  auto it = std::upper_bound(grid_mev.begin(), grid_mev.end(), e_mev);
  std::size_t i = it == grid_mev.begin() ? 0 : static_cast<std::size_t>(it - grid_mev.begin()) - 1;
  i = std::min(i, grid_mev.size() - 2);
  if (i < static_cast<std::size_t>(first)) return 0.0;
  const double f = std::clamp((e_mev - grid_mev[i]) / (grid_mev[i + 1] - grid_mev[i]), 0.0, 1.0);
  const std::size_t k = i - static_cast<std::size_t>(first);
  return (1 - f) * values[k] + f * values[k + 1];
}

TEST(EvaluatedData, SortsTheTinyTablesReactions) {
  NuclideTables t;
  ASSERT_EQ(t.add_nuclide(tiny()), 0);
  const auto& n = t.nuclides[0];
  EXPECT_EQ(t.grid_offsets[1] - t.grid_offsets[0], 4);
  EXPECT_EQ(n.reactions, 1);  // (n,2n); capture is in the absorption column
  EXPECT_EQ(t.reactions[static_cast<std::size_t>(n.first_reaction)].mt, 16);
  EXPECT_EQ(t.reactions[static_cast<std::size_t>(n.first_reaction)].center_of_mass, 1);
  EXPECT_EQ(n.fissions, 1);
  EXPECT_EQ(t.reactions[static_cast<std::size_t>(n.first_fission)].mt, 18);
  EXPECT_EQ(n.groups, 1);
  EXPECT_DOUBLE_EQ(t.groups[0].decay_constant, 0.0127e8);
  EXPECT_EQ(n.urr.bands, 2);
  EXPECT_DOUBLE_EQ(t.grid_points[1].fission, 1.5);
  EXPECT_DOUBLE_EQ(t.grid_points[2].energy, 1.0e6);
}

TEST(EvaluatedData, LooksUpWhatTheHostInterpolates) {
  NuclideTables t;
  t.add_nuclide(tiny());
  const std::vector<double> e = {1e-5, 0.5, 5e5, 1e6, 3e6, 19e6, 25e6};  // eV, below and past the grid too
  const std::vector<double> got = device_lookups(t, 0, e);
  const ace::IncidentNeutron n = tiny();
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double m = e[i] * 1e-6;
    EXPECT_NEAR(got[i * 6 + 0], host_interpolate(n.energy, n.total, 0, m), 1e-12) << e[i];
    EXPECT_NEAR(got[i * 6 + 1], host_interpolate(n.energy, n.elastic, 0, m), 1e-12) << e[i];
    EXPECT_NEAR(got[i * 6 + 3], host_interpolate(n.energy, n.find(18)->xs, 0, m), 1e-12) << e[i];
    EXPECT_NEAR(got[i * 6 + 4], host_interpolate(n.energy, n.find(16)->xs, 2, m), 1e-12) << e[i];  // 0 below 1 MeV
  }
  EXPECT_DOUBLE_EQ(got[0 * 6 + 4], 0.0);
  EXPECT_NEAR(got[4 * 6 + 4], 0.5 * 2 / 19, 1e-12);  // (n,2n) at 3 MeV: 0 at 1 MeV to 0.5 at 20
}

// At each grid point and halfway to the next (2 n - 1 lookups): the lookup's nu * fission, nu(E) times
// the lookup's fission, and the mean of the two points' nu * fission (at a point: nu(E) times fission).
std::vector<std::array<double, 3>> nu_fission_lookups(const NuclideTables& tables) {
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  const int n = static_cast<int>(tables.grid_points.size());
  Kokkos::View<Real* [3], DeviceMem> out("keff::test::nu_fission", 2 * n - 1);
  Kokkos::parallel_for(
      "keff::test::nu_fission", Kokkos::RangePolicy<DeviceExec>(exec, 0, 2 * n - 1), KOKKOS_LAMBDA(int i) {
        const int k = i / 2;  // odd i: halfway between points k and k + 1
        const Real e = i % 2 == 0 ? d.grid.points(k).energy : Real(0.5) * (d.grid.points(k).energy + d.grid.points(k + 1).energy);
        const neutron::NuclideXs xs = d.lookup(0, e);
        out(i, 0) = xs.nu_fission;
        out(i, 1) = d.nu(d.nuclides(0).nu_total, e) * xs.fission;
        out(i, 2) = i % 2 == 0 ? out(i, 1) : Real(0.5) * (d.columns(k).nu_fission + d.columns(k + 1).nu_fission);
      });
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  std::vector<std::array<double, 3>> v(h.extent(0));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = {h(i, 0), h(i, 1), h(i, 2)};
  return v;
}

// nu * fission is a column of the grid (as OpenMC's): nu(E) times fission at each point, interpolated
// linearly between points, as the track-length estimator of k reads it.
TEST(EvaluatedData, NuFissionIsAColumnOfTheGrid) {
  NuclideTables t;
  t.add_nuclide(tiny());
  const auto v = nu_fission_lookups(t);
  bool some_fission = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    some_fission = some_fission || v[i][1] > 0;
    if (i % 2 == 0) {
      EXPECT_NEAR(v[i][0], v[i][1], 1e-12 * v[i][1]) << "at point " << i / 2;
    }
    EXPECT_NEAR(v[i][0], v[i][2], 1e-12 * v[i][2]) << "lookup " << i;
  }
  EXPECT_TRUE(some_fission);
}

TEST(EvaluatedData, RefusesATotalThatIsNotTheSumOfItsParts) {
  test::AceBuild a = test::build_ace();
  a.xss[static_cast<std::size_t>(a.positions["ESZ"] + 4 + 1 - 1)] = 9.0;  // total at the second point
  const ace::IncidentNeutron n = ace::read_incident_neutron(ace::parse_ace_table(a.text(), "tiny.ace"), "Es250");
  NuclideTables t;
  try {
    t.add_nuclide(n);
    FAIL() << "accepted";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("'tiny.ace': nuclide Es250 (99250.00c): at 1e-06 MeV the total cross section 9 b "
                                         "is not the sum of its parts, 8.5 b"),
              std::string::npos)
        << e.what();
  }
}

#ifdef KEFF_ACE_LIBRARY
std::vector<ace::IncidentNeutron> library() {
  const ace::Xsdir x = ace::read_xsdir(KEFF_ACE_LIBRARY);
  std::vector<ace::IncidentNeutron> out;
  for (const auto& e : x.entries) {
    if (e.neutron()) out.push_back(ace::read_incident_neutron(ace::read_ace_table(e.file, e.address, e.zaid), ace::name_of_za(e.za)));
  }
  return out;
}

TEST(EvaluatedData, TheNjoyLibraryAddsUpAndIsLookedUpExactly) {
  const std::vector<ace::IncidentNeutron> nuclides = library();
  ASSERT_EQ(nuclides.size(), 7u);
  NuclideTables t;
  for (const auto& n : nuclides) t.add_nuclide(n);  // throws where a total is not its parts' sum
  for (std::size_t k = 0; k < nuclides.size(); ++k) {
    const ace::IncidentNeutron& n = nuclides[k];
    SCOPED_TRACE(n.name);
    std::vector<double> e;
    for (double m = 1e-11; m < 20.0; m *= 1.7) e.push_back(m * 1e6);
    const std::vector<double> got = device_lookups(t, static_cast<int>(k), e);
    const auto& rec = t.nuclides[k];
    const int columns = 4 + rec.reactions + rec.fissions;
    for (std::size_t i = 0; i < e.size(); ++i) {
      const double m = e[i] * 1e-6;
      const double* xs = &got[i * static_cast<std::size_t>(columns)];
      // The total is the sum of the partials (as the synthetic library's), which the table's own total
      // matches to its seven digits.
      double parts = xs[1] + xs[2] + xs[3];
      for (int r = 0; r < rec.reactions; ++r) parts += xs[4 + r];
      EXPECT_NEAR(xs[0], parts, 1e-12 * parts) << m;
      const double total = host_interpolate(n.energy, n.total, 0, m);
      EXPECT_NEAR(xs[0], total, NuclideTables::sum_tolerance * total) << m;
      EXPECT_NEAR(xs[1], host_interpolate(n.energy, n.elastic, 0, m), 1e-12 * total) << m;
      EXPECT_NEAR(xs[2], host_interpolate(n.energy, n.absorption, 0, m), 1e-12 * total) << m;
    }
  }
}

// At how many of `energies` nuclide's lookup in `a` differs from b's: in its interval, its place in it or
// its total.
int lookups_differing(const neutron::NuclideParams<DeviceMem>& a, const neutron::NuclideParams<DeviceMem>& b,
                      int nuclide, const std::vector<Real>& energies) {
  DeviceExec exec;
  const auto energy = to_device(exec, "keff::test::energies", energies);
  int differing = 0;
  Kokkos::parallel_reduce(
      "keff::test::grid_search", Kokkos::RangePolicy<DeviceExec>(exec, 0, energies.size()),
      KOKKOS_LAMBDA(int i, int& count) {
        const neutron::NuclideXs x = a.lookup(nuclide, energy(i)), y = b.lookup(nuclide, energy(i));
        if (x.index != y.index || x.fraction != y.fraction || x.total != y.total) ++count;
      },
      differing);
  return differing;
}

// Every grid search (settings.energy_grid: hash, with the default bins and with few, and unionized)
// finds the interval the nuclide grid's bisection finds, with the same cross sections to the bit, at
// every grid point of the seven nuclides (their repeated energies at discontinuities included), one ulp
// either side of each and halfway to the next.
TEST(EvaluatedData, EveryGridSearchFindsTheBisectionsInterval) {
  const std::vector<ace::IncidentNeutron> nuclides = library();
  NuclideTables t;
  for (const auto& n : nuclides) t.add_nuclide(n);
  DeviceExec exec;
  const auto whole = t.to_device(exec, EnergyGridKind::nuclide);
  const std::vector<std::pair<EnergyGridKind, int>> searches = {
      {EnergyGridKind::hash, NuclideTables::default_hash_bins}, {EnergyGridKind::hash, 7}, {EnergyGridKind::unionized, 0}};
  for (const auto& [kind, bins] : searches) {
    const auto searched = t.to_device(exec, kind, bins);
    for (std::size_t k = 0; k < nuclides.size(); ++k) {
      SCOPED_TRACE(nuclides[k].name + (kind == EnergyGridKind::hash ? ", hash grid of " + std::to_string(bins) + " bins" : ", unionized grid"));
      std::vector<Real> e;
      for (int i = t.grid_offsets[k]; i < t.grid_offsets[k + 1]; ++i) {
        const Real p = t.grid_points[static_cast<std::size_t>(i)].energy;
        e.push_back(p);
        e.push_back(std::nextafter(p, 0.0));
        e.push_back(std::nextafter(p, 1e300));
        if (i + 1 < t.grid_offsets[k + 1]) e.push_back(0.5 * (p + t.grid_points[static_cast<std::size_t>(i + 1)].energy));
      }
      EXPECT_EQ(lookups_differing(searched, whole, static_cast<int>(k), e), 0) << "of " << e.size() << " energies";
    }
  }
}

TEST(EvaluatedData, ReactionsChosenByTheirCrossSections) {
  // U-235 at 14 MeV: (n,2n), (n,3n), levels and the continuum, each chosen with its share of the
  // scattering reactions' sum, within 4.5 standard errors of the binomial count.
  const std::vector<ace::IncidentNeutron> nuclides = library();
  std::size_t u = 0;
  while (nuclides[u].name != "U235") ++u;
  NuclideTables t;
  for (const auto& n : nuclides) t.add_nuclide(n);
  constexpr int samples = 400000;
  const double energy = 14.0e6;
  const std::map<int, int> counts = reaction_counts(t, static_cast<int>(u), energy, samples);
  const ace::IncidentNeutron& n = nuclides[u];
  const auto& rec = t.nuclides[u];
  std::vector<double> xs;
  double sum = 0;
  for (int r = 0; r < rec.reactions; ++r) {
    const ace::Reaction* reaction = n.find(t.reactions[static_cast<std::size_t>(rec.first_reaction + r)].mt);
    xs.push_back(host_interpolate(n.energy, reaction->xs, reaction->threshold_index, energy * 1e-6));
    sum += xs.back();
  }
  int checked = 0;
  for (int r = 0; r < rec.reactions; ++r) {
    const double p = xs[static_cast<std::size_t>(r)] / sum;
    const auto found = counts.find(rec.first_reaction + r);
    const double seen = found == counts.end() ? 0.0 : found->second;
    EXPECT_NEAR(seen, p * samples, 4.5 * std::sqrt(samples * p * (1 - p)) + 1e-9)
        << "MT " << t.reactions[static_cast<std::size_t>(rec.first_reaction + r)].mt;
    if (p > 0.01) ++checked;
  }
  EXPECT_GE(checked, 3);
  EXPECT_EQ(counts.count(-1), 0u);
}
#endif

}  // namespace
}  // namespace keff
