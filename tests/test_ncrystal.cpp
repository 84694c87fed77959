// NCrystal's scattering as keff tabulates it (io/thermal/ncrystal.hpp) and samples it in kernels
// (kernels/thermal_table.hpp), against NCrystal itself, for graphite (Bragg edges and phonons) and liquid
// water (hydrogen's bound inelastic scattering):
// - the cross section, interpolated at energies between the table's, within a stated error of NCrystal's;
// - one scatter's outgoing energy and cosine at an energy between the table's, against 20000 of NCrystal's
//   own samples there: two-sample Kolmogorov-Smirnov tests at the 0.1 % level, the table's outcomes at a
//   grid energy counting as one sample of NCrystal's (1024 by default; stratified, they are less noisy
//   than that, so the test is conservative: it detects a difference of 0.062 between the distribution
//   functions; a sign or a frame wrong is 0.2 to 1);
// - detailed balance: after many scatters without absorption, energies follow the collision density
//   sigma_s(E) E exp(-E/kT) of the material's temperature, whatever the start (chi^2 over 12 bins, 200000
//   chains: enough to fail the tables before their elastic and inelastic parts were apart, chi^2 71 by
//   the 1000000-chain run's excess scaled down);
// - in transport, the tables against NCrystal asked directly (settings.thermal_tables = false, host
//   backends): k within 3 combined sigma and the thermal flux shapes the same by a two-sample Hotelling
//   test, on the water pin lattice (examples/water_pin_ncrystal.toml) and the graphite core
//   (examples/graphite_heu.toml).
#include <gtest/gtest.h>

#include "io/input/settings_rows.hpp"
#include "io/thermal/ncrystal.hpp"
#include "run_problem.hpp"
#include "spectrum_shape.hpp"
#include "kernels/device.hpp"
#include "kernels/thermal_table.hpp"
#include "src/params/build_thermal_tables.hpp"
#include "src/params/to_device.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace keff {
namespace {

struct Tabulated {
  NCrystalMaterial material;
  ThermalTableSpec spec = settings::thermal_table_spec(model::Settings{});  // what a run tabulates by default
  ThermalTable table;
  ThermalTables<DeviceMem> device;
};

template <class T>
auto on_device(const T& host) {
  return Kokkos::create_mirror_view_and_copy(DeviceMem(), host);
}

// `cfg` at `temperature` tabulated as a run does (the settings' defaults) and copied to the device as table 0.
Tabulated tabulate(const std::string& cfg, double temperature) {
  Tabulated t;
  t.material = open_ncrystal(cfg, temperature);
  t.table = tabulate_ncrystal(t.material, t.spec, 12345, 2);
  const DeviceExec exec;
  t.device = thermal_tables_to_device(exec, to_device(exec, "keff::test::thermal_table_of", std::vector<int>{0}),
                                      {t.table}, t.spec);
  return t;
}

// The table's cross section at each of `energies`, evaluated on the device.
std::vector<double> table_xs(const Tabulated& t, const std::vector<double>& energies) {
  const int n = static_cast<int>(energies.size());
  Kokkos::View<Real*, Kokkos::HostSpace> e_host("keff::test::energies", energies.size());
  std::copy(energies.begin(), energies.end(), e_host.data());
  const auto e = on_device(e_host);
  Kokkos::View<Real*, DeviceMem> out("keff::test::table_xs", energies.size());
  const ThermalTables<DeviceMem> th = t.device;
  Kokkos::parallel_for(
      "keff::test::thermal_xs", Kokkos::RangePolicy<DeviceExec>(0, n),
      KOKKOS_LAMBDA(int i) { out(i) = thermal_xs(th, 0, e(i)); });
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<double>(host.data(), host.data() + n);
}

// `n` neutrons at `energy`, each scattered `collisions` times by the table (the start alternating between
// `energy` and `high`); the energies and the last cosines.
struct Scattered {
  std::vector<double> energy, mu;
};
Scattered table_scatters(const Tabulated& t, double energy, double high, int n, int collisions) {
  Kokkos::View<Real*, DeviceMem> e_out("keff::test::e_out", n), mu_out("keff::test::mu_out", n);
  const ThermalTables<DeviceMem> th = t.device;
  Kokkos::parallel_for(
      "keff::test::thermal_scatters", Kokkos::RangePolicy<DeviceExec>(0, n), KOKKOS_LAMBDA(int i) {
        Particle p;
        p.rng = history_rng(5, RngStream::tracking, 0, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(i));
        p.u = Vec3{0, 0, 1};
        p.energy = collisions > 1 && i % 2 == 1 ? high : energy;
        for (int c = 0; c < collisions; ++c) scatter_thermal(p, th, 0);
        e_out(i) = p.energy;
        mu_out(i) = p.u.z;
      });
  const auto e = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e_out);
  const auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mu_out);
  return {std::vector<double>(e.data(), e.data() + n), std::vector<double>(m.data(), m.data() + n)};
}

// The largest distance between the empirical distribution functions of a and b. Values are compared in
// single precision: a Bragg line is one value, which the table reaches through a rescaled cosine and
// NCrystal directly, a few ulps apart.
double ks_distance(std::vector<double> a, std::vector<double> b) {
  for (auto* v : {&a, &b}) {
    for (double& x : *v) x = static_cast<float>(x);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / a.size() - static_cast<double>(j) / b.size()));
  }
  return d;
}

struct Case {
  const char* cfg;
  double temperature;
};
const Case graphite{"C_sg194_pyrolytic_graphite.ncmat", 296.0};
const Case water{"LiquidWaterH2O_T293.6K.ncmat", 293.6};

TEST(NCrystalTables, CrossSectionFollowsNCrystal) {
  for (const Case c : {graphite, water}) {
    SCOPED_TRACE(c.cfg);
    const Tabulated t = tabulate(c.cfg, c.temperature);
    // Midway (geometrically) between the table's energies: where interpolation errs most.
    std::vector<double> energies;
    for (std::size_t i = 0; i + 1 < t.table.energy.size(); ++i) energies.push_back(std::sqrt(t.table.energy[i] * t.table.energy[i + 1]));
    const auto ours = table_xs(t, energies);
    const auto theirs = ncrystal_cross_sections(t.material, energies);
    double mean = 0;
    int beyond_1_percent = 0;
    for (std::size_t i = 0; i < energies.size(); ++i) {
      const double err = std::abs(ours[i] / theirs[i] - 1);
      mean += err / energies.size();
      if (err > 0.01) ++beyond_1_percent;
    }
    std::cout << "[ info     ] " << c.cfg << ": mean relative error " << mean << ", " << beyond_1_percent << " of "
              << energies.size() << " midpoints beyond 1 %\n";
    // Water's cross section is smooth; graphite's jumps at each Bragg edge, where a linear interpolation
    // across the jump errs in the one interval that holds it.
    EXPECT_LT(mean, 0.002);
    EXPECT_LT(beyond_1_percent, static_cast<int>(energies.size()) / 20);
  }
}

TEST(NCrystalTables, ScatterFollowsNCrystal) {
  const int n = 20000;
  for (const Case c : {graphite, water}) {
    const Tabulated t = tabulate(c.cfg, c.temperature);
    // The outcomes at one grid energy are one sample of NCrystal's of t.table.samples draws: two-sample KS
    // between it and n draws of NCrystal's, at the 0.1 % level.
    const double critical = 1.95 * std::sqrt(1.0 / t.table.samples + 1.0 / n);
    for (const double energy : {0.0037, 0.0416, 0.731}) {  // none on the table's grid
      SCOPED_TRACE(std::string(c.cfg) + " at " + std::to_string(energy) + " eV");
      const Scattered ours = table_scatters(t, energy, energy, n, 1);
      Scattered theirs;
      for (const auto& [e, mu] : ncrystal_scatters(t.material, energy, n, 777)) {
        theirs.energy.push_back(e);
        theirs.mu.push_back(mu);
      }
      const double d_energy = ks_distance(ours.energy, theirs.energy), d_mu = ks_distance(ours.mu, theirs.mu);
      std::cout << "[ info     ] " << c.cfg << " at " << energy << " eV: KS distance " << d_energy << " (E'), " << d_mu
                << " (mu), critical " << critical << "\n";
      EXPECT_LT(d_energy, critical);
      EXPECT_LT(d_mu, critical);
    }
  }
}

// chi^2 with 11 degrees of freedom at 99.9 %.
constexpr double chi2_11_999 = 31.26;

TEST(NCrystalTables, ManyScattersReachTheMaxwellian) {
  for (const Case c : {graphite, water}) {
    SCOPED_TRACE(c.cfg);
    const Tabulated t = tabulate(c.cfg, c.temperature);
    const double kt = 8.617333262e-5 * c.temperature;
    const int n = 200000;
    const Scattered ends = table_scatters(t, 0.05 * kt, 1.0, n, 400);
    // Expected: sigma_s(E) E exp(-E/kT) over 12 bins from 0.05 to 5 kT, by Simpson's rule on NCrystal's
    // cross section, normalised over those bins like the counts.
    std::vector<double> bounds;
    for (int b = 0; b <= 12; ++b) bounds.push_back(kt * 0.05 * std::pow(100.0, b / 12.0));
    std::vector<double> expected;
    for (int b = 0; b < 12; ++b) {
      const int m = 200;
      std::vector<double> e;
      for (int k = 0; k <= m; ++k) e.push_back(bounds[b] + (bounds[b + 1] - bounds[b]) * k / m);
      const auto xs = ncrystal_cross_sections(t.material, e);
      double sum = 0;
      for (int k = 0; k <= m; ++k) sum += (k == 0 || k == m ? 1 : (k % 2 ? 4 : 2)) * xs[k] * e[k] * std::exp(-e[k] / kt);
      expected.push_back(sum * (bounds[b + 1] - bounds[b]) / (3 * m));
    }
    std::vector<double> counts(12, 0.0);
    for (const double e : ends.energy) {
      const auto it = std::upper_bound(bounds.begin(), bounds.end(), e);
      if (it != bounds.begin() && it != bounds.end()) counts[static_cast<std::size_t>(it - bounds.begin() - 1)] += 1;
    }
    double in_bins = 0, expected_total = 0;
    for (int b = 0; b < 12; ++b) in_bins += counts[b], expected_total += expected[b];
    double chi2 = 0;
    for (int b = 0; b < 12; ++b) {
      const double mean = in_bins * expected[b] / expected_total;
      chi2 += (counts[b] - mean) * (counts[b] - mean) / mean;
    }
    std::cout << "[ info     ] " << c.cfg << ": chi^2 " << chi2 << " over 12 bins against sigma_s(E) E exp(-E/kT), "
              << in_bins << " of " << n << " chains in them; counts over expected:";
    for (int b = 0; b < 12; ++b) std::cout << " " << counts[b] / (in_bins * expected[b] / expected_total);
    std::cout << "\n";
    EXPECT_LT(chi2, chi2_11_999);
  }
}

// 99.9 % quantile of F(11, 108): the two-sample shape test of 12 bins over 60 active batches each.
constexpr double f_11_108_999 = 3.15;

// Tables drawn from NCrystal's whole scattering at 1024 outcomes per energy failed this in graphite with F
// 20.7 (the flux 2 % harder): its elastic part, most of the cross section, left the inelastic part a few
// dozen outcomes per energy (perf/RESULTS.md, "NCrystal").
class DirectAgreesWithTables : public ::testing::TestWithParam<const char*> {};

TEST_P(DirectAgreesWithTables, InKAndThermalSpectrum) {
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible) GTEST_SKIP() << "direct NCrystal is host-only";
  const char* example = GetParam();
  model::Problem problem = test::sized(test::example(example), 4000, 70, 10);
  problem.tallies.clear();  // the spectrum is the first tally (test::batch_spectra)
  model::Tally spectrum;
  spectrum.name = "thermal_spectrum";
  model::TallyFilter energy;
  energy.kind = TallyFilterKind::energy;
  for (int b = 0; b <= 12; ++b) energy.bounds.push_back(1e-3 * std::pow(1000.0, b / 12.0));  // 1 meV to 1 eV
  spectrum.filters.push_back(energy);
  spectrum.scores = {TallyScore::flux};
  problem.tallies.push_back(spectrum);
  const test::BatchSpectra tables = test::batch_spectra(problem);
  problem.settings.thermal_tables = false;
  const test::BatchSpectra direct = test::batch_spectra(problem);
  const test::Shape tables_shape = test::measured_shape(tables.batches);
  const test::Shape direct_shape = test::measured_shape(direct.batches);

  const auto& a = tables.results.k_combined;
  const auto& b = direct.results.k_combined;
  const double sigma = std::sqrt(a.std * a.std + b.std * b.std);
  std::cout << "[ info     ] " << example << ": k: tables " << a.mean << " +/- " << a.std << ", direct " << b.mean
            << " +/- " << b.std << " (" << (b.mean - a.mean) / sigma << " combined sigma)\n";
  EXPECT_LT(std::abs(b.mean - a.mean), 3 * sigma);

  ASSERT_EQ(tables_shape.batches, 60u);
  const double f = test::shapes_f(tables_shape, direct_shape);
  std::cout << "[ info     ] " << example << ": thermal flux shape, 12 bins from 1 meV to 1 eV: F " << f
            << " (11, 108)\n";
  EXPECT_LT(f, f_11_108_999);
}

INSTANTIATE_TEST_SUITE_P(NCrystalTransport, DirectAgreesWithTables,
                         ::testing::Values("water_pin_ncrystal.toml", "graphite_heu.toml"),
                         [](const auto& param) { return std::string(param.param).substr(0, std::string(param.param).find('.')); });

}  // namespace
}  // namespace keff
