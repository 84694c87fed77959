// The device samplers of ACE secondary distributions (kernels/neutron/interactor), each law against an
// answer of its own: the analytic mean of its spectrum (Maxwell 1.5 theta, evaporation 2 theta and its
// exact truncated mean, Watt 1.5 a + a^2 b / 4, N-body's Beta means), the CDF of the table it samples
// (continuous tabular, discrete lines, unit-base interpolation between incident energies), and the mean
// cosine of Kalbach-Mann systematics and of tabulated cosines. Laws go through the flattening
// (src/params/flatten_secondaries) and the device copy, as transport will use them. Each mean is held to
// 4.5 standard errors of its sample (a false alarm in about 1 of 150,000 checks).
#include "io/library/ace/ace_data.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "io/library/ace/xsdir.hpp"
#include "kernels/neutron/data/cdf_search.hpp"
#include "kernels/neutron/data/energy_guide.hpp"
#include "kernels/neutron/interactor/sample_secondary.hpp"
#include "src/params/flatten_secondaries.hpp"
#include "src/params/to_device.hpp"
#include "sample_mean.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace keff {
namespace {

constexpr int samples = 200000;

ace::Tab1 constant(double value) { return ace::Tab1{{}, {}, {1e-11, 20.0}, {value, value}}; }

ace::EnergyLaw law_of(ace::EnergyLawKind kind) {
  ace::EnergyLaw law;
  law.kind = kind;
  law.probability = constant(1.0);
  return law;
}

// A tabular outgoing table (MeV and per MeV, as ACE holds it).
ace::OutgoingTable outgoing(std::vector<double> e, std::vector<double> pdf, std::vector<double> cdf, int discrete = 0) {
  ace::OutgoingTable t;
  t.interpolation = 2;
  t.discrete_lines = discrete;
  t.energy = std::move(e);
  t.pdf = std::move(pdf);
  t.cdf = std::move(cdf);
  return t;
}

ace::AngleTable linear_cosines() {  // p(mu) = (1 + mu) / 2: mean 1/3
  ace::AngleTable a;
  a.form = ace::AngleForm::tabular;
  a.interpolation = 2;
  a.mu = {-1.0, 1.0};
  a.pdf = {0.0, 1.0};
  a.cdf = {0.0, 1.0};
  return a;
}

std::vector<neutron::SecondaryDraw> draw(const std::vector<ace::EnergyLaw>& laws, double energy_mev, double awr = 10.0,
                                         double q_mev = 0.0) {
  SecondaryTables tables;
  const int first = tables.add_laws(laws);
  const int count = static_cast<int>(laws.size());
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  Kokkos::View<neutron::SecondaryDraw*, DeviceMem> out("keff::test::secondary_draws", samples);
  const Real energy = energy_mev * 1e6, q = q_mev * 1e6, a = awr;
  Kokkos::parallel_for(
      "keff::test::sample_secondary", Kokkos::RangePolicy<DeviceExec>(exec, 0, samples), KOKKOS_LAMBDA(int i) {
        Lcg63 rng = history_rng(11, RngStream::tracking, 0, static_cast<std::uint64_t>(samples), static_cast<std::uint64_t>(i));
        out(i) = neutron::sample_secondary(d, first, count, energy, a, q, rng);
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {host.data(), host.data() + samples};
}

using Moments = test::SampleMean;
Moments energy_mev(const std::vector<neutron::SecondaryDraw>& draws) {
  return test::sample_mean(draws, [](const neutron::SecondaryDraw& d) { return d.energy * 1e-6; });
}
Moments cosine(const std::vector<neutron::SecondaryDraw>& draws) {
  return test::sample_mean(draws, [](const neutron::SecondaryDraw& d) { return d.mu; });
}

TEST(SecondaryLaws, MaxwellFissionSpectrum) {
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::maxwell_fission);
  law.theta = constant(1.3);
  EXPECT_MEAN(energy_mev(draw({law}, 20.0)), 1.5 * 1.3);
  law.restriction = 19.0;  // E' <= E - U = 1 MeV: never above
  for (const auto& d : draw({law}, 20.0)) ASSERT_LE(d.energy, 1.0e6);
}

TEST(SecondaryLaws, EvaporationSpectrumAndItsTruncation) {
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::evaporation);
  law.theta = constant(1.0);
  EXPECT_MEAN(energy_mev(draw({law}, 20.0)), 2.0);
  law.restriction = 19.0;  // E' e^-E' on [0, 1]: mean (2 - 5/e) / (1 - 2/e)
  EXPECT_MEAN(energy_mev(draw({law}, 20.0)), (2 - 5 / std::exp(1.0)) / (1 - 2 / std::exp(1.0)));
}

// The mean of a density on [0, limit] by Simpson's rule.
template <class F>
double truncated_mean(F density, double limit) {
  const int n = 20000;
  double s0 = 0, s1 = 0;
  for (int i = 0; i <= n; ++i) {
    const double x = limit * i / n, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    s0 += w * density(x);
    s1 += w * x * density(x);
  }
  return s1 / s0;
}

TEST(SecondaryLaws, RestrictedSpectraNearTheirLimit) {
  // E' <= E - U with E - U from far below the temperature to a few times it: the truncated spectrum's
  // mean, by quadrature, through both ways of drawing it (never an endless rejection).
  for (double limit : {1e-6, 0.2, 1.5, 3.5}) {  // MeV
    SCOPED_TRACE("E - U = " + std::to_string(limit) + " MeV");
    ace::EnergyLaw maxwell = law_of(ace::EnergyLawKind::maxwell_fission);
    maxwell.theta = constant(1.0);
    maxwell.restriction = 5.0 - limit;
    EXPECT_MEAN(energy_mev(draw({maxwell}, 5.0)),
                truncated_mean([](double x) { return std::sqrt(x) * std::exp(-x); }, limit));
    ace::EnergyLaw watt = law_of(ace::EnergyLawKind::watt);
    watt.watt_a = constant(1.0);
    watt.watt_b = constant(2.5);
    watt.restriction = 5.0 - limit;
    EXPECT_MEAN(energy_mev(draw({watt}, 5.0)),
                truncated_mean([](double x) { return std::exp(-x) * std::sinh(std::sqrt(2.5 * x)); }, limit));
  }
}

TEST(SecondaryLaws, WattSpectrum) {
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::watt);
  law.watt_a = constant(0.988);
  law.watt_b = constant(2.249);
  EXPECT_MEAN(energy_mev(draw({law}, 20.0)), 1.5 * 0.988 + 0.988 * 0.988 * 2.249 / 4);
}

TEST(SecondaryLaws, LevelScatteringIsExact) {
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::level_scattering);
  law.level_threshold = 1.1;
  law.level_mass_ratio = 0.8;
  for (const auto& d : draw({law}, 3.0)) ASSERT_NEAR(d.energy, 0.8 * (3.0 - 1.1) * 1e6, 1e-6);
}

TEST(SecondaryLaws, NBodyPhaseSpace) {
  // E'/E_max ~ Beta(3/2, 3n/2 - 3): means 1/2, 1/3, 1/4 for 3, 4, 5 bodies; E_max = (Ap-1)/Ap (A/(A+1) E + Q).
  const double awr = 10.0, e = 14.0, q = -2.0, ap = 2.0, e_max = (ap - 1) / ap * (awr / (awr + 1) * e + q);
  const double means[] = {0.5, 1.0 / 3, 0.25};
  for (int bodies = 3; bodies <= 5; ++bodies) {
    ace::EnergyLaw law = law_of(ace::EnergyLawKind::n_body);
    law.bodies = bodies;
    law.total_mass_ratio = ap;
    const auto draws = draw({law}, e, awr, q);
    EXPECT_MEAN(test::sample_mean(draws, [&](const auto& d) { return d.energy * 1e-6 / e_max; }), means[bodies - 3]) << bodies;
    EXPECT_MEAN(cosine(draws), 0.0);
  }
}

// p = (0.8, 0.4, 0) per MeV at E' = (0, 1, 3) MeV: CDF 0.6 at 1 MeV, mean 14/15 MeV.
ace::EnergyLaw tabular_law(ace::EnergyLawKind kind, double scale_second = 1.0) {
  ace::EnergyLaw law = law_of(kind);
  law.laws = {2};
  law.breakpoints = {2};
  law.incident_energy = {1.0, 3.0};
  law.outgoing = {outgoing({0, 1, 3}, {0.8, 0.4, 0}, {0, 0.6, 1}),
                  outgoing({0, scale_second, 3 * scale_second}, {0.8 / scale_second, 0.4 / scale_second, 0}, {0, 0.6, 1})};
  return law;
}

TEST(SecondaryLaws, ContinuousTabularFollowsItsCdf) {
  const auto draws = draw({tabular_law(ace::EnergyLawKind::continuous_tabular)}, 1.0);
  EXPECT_MEAN(energy_mev(draws), 14.0 / 15);
  EXPECT_MEAN(test::sample_mean(draws, [](const auto& d) { return d.energy < 1e6 ? 1.0 : 0.0; }), 0.6);
}

TEST(SecondaryLaws, UnitBaseInterpolationBetweenIncidentEnergies) {
  // Halfway between a table and the same table stretched 2x: every E' scales by 1.5.
  const auto draws = draw({tabular_law(ace::EnergyLawKind::continuous_tabular, 2.0)}, 2.0);
  EXPECT_MEAN(energy_mev(draws), 1.5 * 14.0 / 15);
  for (const auto& d : draws) ASSERT_LE(d.energy, 4.5e6 * (1 + 1e-12));
}

TEST(SecondaryLaws, DiscreteLinesBeforeTheContinuum) {
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::continuous_tabular);
  law.incident_energy = {1.0, 3.0};
  // A line at 0.5 MeV with probability 0.3, then a flat continuum on [1, 2] MeV.
  const ace::OutgoingTable t = outgoing({0.5, 1.0, 2.0}, {0.3, 0.7, 0.7}, {0.3, 0.3, 1.0}, 1);
  law.outgoing = {t, t};
  const auto draws = draw({law}, 2.0);
  EXPECT_MEAN(test::sample_mean(draws, [](const auto& d) { return d.energy == 0.5e6 ? 1.0 : 0.0; }), 0.3);
  EXPECT_MEAN(energy_mev(draws), 0.3 * 0.5 + 0.7 * 1.5);
}

TEST(SecondaryLaws, KalbachMannCosine) {
  // R = 0.3, A = 2 everywhere: <mu> = R (coth A - 1/A).
  ace::EnergyLaw law = tabular_law(ace::EnergyLawKind::kalbach_mann);
  for (auto& t : law.outgoing) {
    t.kalbach_r = {0.3, 0.3, 0.3};
    t.kalbach_a = {2.0, 2.0, 2.0};
  }
  const auto draws = draw({law}, 1.0);
  EXPECT_MEAN(cosine(draws), 0.3 * (1 / std::tanh(2.0) - 0.5));
  EXPECT_MEAN(energy_mev(draws), 14.0 / 15);
}

TEST(SecondaryLaws, CorrelatedTabularCosines) {
  ace::EnergyLaw law = tabular_law(ace::EnergyLawKind::correlated_tabular);
  // Each E' takes the cosine table of the tabulated E' nearer in CDF: from CDF 0.8 on (halfway between 0.6
  // at 1 MeV and 1 at 3 MeV) the isotropic table of 3 MeV, below it the linear one of mean 1/3.
  for (auto& t : law.outgoing) t.angles = {linear_cosines(), linear_cosines(), ace::AngleTable{}};
  EXPECT_MEAN(cosine(draw({law}, 1.0)), 0.8 / 3);
}

TEST(SecondaryLaws, LawsChosenByTheirProbabilities) {
  ace::EnergyLaw level = law_of(ace::EnergyLawKind::level_scattering);
  level.level_threshold = 0.0;
  level.level_mass_ratio = 0.5;
  level.probability = ace::Tab1{{}, {}, {1e-11, 20.0}, {0.25, 0.25}};
  ace::EnergyLaw maxwell = law_of(ace::EnergyLawKind::maxwell_fission);
  maxwell.theta = constant(1.0);
  maxwell.probability = ace::Tab1{{}, {}, {1e-11, 20.0}, {0.75, 0.75}};
  const auto draws = draw({level, maxwell}, 4.0);
  EXPECT_MEAN(test::sample_mean(draws, [](const auto& d) { return d.energy == 2.0e6 ? 1.0 : 0.0; }), 0.25);
}

// f(x) at each x (MeV) of a TAB1 flattened and evaluated on the device, in eV.
std::vector<double> evaluate_on_device(const ace::Tab1& f, const std::vector<double>& x_mev) {
  SecondaryTables tables;
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::evaporation);
  law.theta = f;
  tables.add_laws({law});
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  const neutron::Tab1Record record = tables.laws[0].f1;
  std::vector<Real> x_ev;
  for (double x : x_mev) x_ev.push_back(x * 1e6);
  const auto x = to_device(exec, "keff::test::tab1_x", x_ev);
  Kokkos::View<Real*, DeviceMem> out("keff::test::tab1_y", x_ev.size());
  Kokkos::parallel_for(
      "keff::test::tab1_evaluate", Kokkos::RangePolicy<DeviceExec>(exec, 0, x_ev.size()),
      KOKKOS_LAMBDA(int i) { out(i) = d.evaluate(record, x(i)); });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {h.data(), h.data() + h.extent(0)};
}

TEST(SecondaryLaws, Tab1InterpolationLaws) {
  const ace::Tab1 f{{2, 3}, {5, 1}, {1.0, 2.0, 4.0}, {1.0, 4.0, 9.0}};  // log-log to 2 MeV, then histogram
  const std::vector<double> y = evaluate_on_device(f, {1.5, 3.0, 0.5, 5.0});
  EXPECT_NEAR(y[0], 1.5 * 1.5 * 1e6, 1e-3);  // y = x^2 between (1, 1) and (2, 4): log-log is exact
  EXPECT_DOUBLE_EQ(y[1], 4.0e6);             // histogram: the left value
  EXPECT_DOUBLE_EQ(y[2], 1.0e6);             // held at the ends
  EXPECT_DOUBLE_EQ(y[3], 9.0e6);
}

// A long CDF's guide narrows the bisection to the bin the whole bisection finds: at every guide point
// j / B and its neighbours in Real, and at random numbers, over CDFs with flat runs (zero-probability
// bins), steps and a continuum that starts above 0 (after discrete lines); B the most powers of two that
// hold a point each, from 64 to 1024; flattening gives a guide to the long continua only.
TEST(SecondaryLaws, GuidedCdfSearchFindsTheBisectionsBin) {
  using neutron::cdf_bin;
  EXPECT_EQ(neutron::cdf_guide_bins(64), 64);
  EXPECT_EQ(neutron::cdf_guide_bins(255), 128);
  EXPECT_EQ(neutron::cdf_guide_bins(647), 512);
  EXPECT_EQ(neutron::cdf_guide_bins(3000), 1024);
  std::vector<std::vector<Real>> cdfs;
  for (int n : {64, 65, 200, 647, 3000}) {
    std::vector<Real> c(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) c[k] = std::pow(static_cast<Real>(k) / (n - 1), 2.5);
    for (int k = n / 3; k < n / 2; ++k) c[k] = c[n / 3];  // a flat run
    for (int k = 0; k < n / 8; ++k) c[k] = 0;
    c[n / 2 + 1] = 17.0 / 64;  // a value on a guide point; the values around it clamped to stay monotone
    for (int k = n / 2 + 2; k < n; ++k) c[k] = std::max(c[k], c[k - 1]);
    for (int k = 0; k <= n / 2 + 1; ++k) c[k] = std::min(c[k], Real(17.0 / 64));
    cdfs.push_back(c);
    std::vector<Real> after_lines(c);  // a continuum after discrete lines: from 0.3
    for (Real& v : after_lines) v = 0.3 + 0.7 * v;
    cdfs.push_back(after_lines);
  }
  Lcg63 rng;
  for (const std::vector<Real>& c : cdfs) {
    const int n = static_cast<int>(c.size());
    std::vector<int> guide;
    const int bins = neutron::cdf_guide_bins(n);
    for (int j = 0; j <= bins; ++j) guide.push_back(neutron::cdf_guide_entry(c.data(), n, j));
    std::vector<Real> numbers;
    for (int j = 0; j < bins; ++j) {
      const Real u = static_cast<Real>(j) / bins;
      numbers.insert(numbers.end(), {u, std::nextafter(u, Real(1)), std::nextafter(u, Real(0))});
    }
    for (Real v : c) numbers.insert(numbers.end(), {v, std::nextafter(v, Real(1)), std::nextafter(v, Real(0))});
    for (int i = 0; i < 20000; ++i) numbers.push_back(rng.next());
    for (const Real xi : numbers) {
      if (!(xi >= 0 && xi < 1)) continue;
      ASSERT_EQ(cdf_bin(c.data(), n, xi, guide.data()), cdf_bin(c.data(), n, xi)) << "n " << n << " xi " << xi;
    }
  }

  SecondaryTables tables;
  std::vector<double> e, pdf, cdf;
  for (int k = 0; k < 100; ++k) {
    e.push_back(k < 2 ? 0.1 * (k + 1) : 0.01 * k);
    pdf.push_back(1.0);
    cdf.push_back(k < 2 ? 0.1 * (k + 1) : 0.2 + 0.8 * (k - 2) / 97.0);
  }
  ace::EnergyLaw law = law_of(ace::EnergyLawKind::continuous_tabular);
  law.incident_energy = {1.0, 3.0};
  law.outgoing = {outgoing(e, pdf, cdf, 2), outgoing({0, 1, 3}, {0.8, 0.4, 0}, {0, 0.6, 1})};
  tables.add_laws({law});
  EXPECT_GE(tables.outgoing[0].guide, 0);  // 98 continuum points
  EXPECT_EQ(tables.outgoing[1].guide, -1);
}

// An energy grid's guide narrows the bisection to the interval the whole bisection finds: at every point
// and every slice edge and their neighbours in Real, and at random energies, over grids as evaluated data
// hold them (ν(E) from 1e-5 eV to 20 MeV with repeated energies at discontinuities, dense runs of many
// points in one slice, points on slice edges); flattening guides the grids of 16 points or more.
TEST(SecondaryLaws, GuidedEnergySearchFindsTheBisectionsInterval) {
  using neutron::energy_guide_edge;
  using neutron::energy_guide_key;
  std::vector<std::vector<Real>> grids;
  for (int n : {16, 79, 300}) {
    std::vector<Real> x;
    for (int k = 0; k < n; ++k) x.push_back(1e-5 * std::pow(2e12, static_cast<Real>(k) / (n - 1)));
    x[n / 3] = x[n / 3 + 1] = energy_guide_edge(energy_guide_key(x[n / 3 + 1]));  // a discontinuity on an edge
    x[n / 2] = x[n / 2 - 1];                                                      // and one inside a slice
    grids.push_back(x);
  }
  std::vector<Real> dense;  // 200 points within a factor of two, then a jump of six decades
  for (int k = 0; k < 200; ++k) dense.push_back(1.0e6 + 1.0e6 * k / 200);
  dense.push_back(3.0e12);
  grids.push_back(dense);
  Lcg63 rng;
  for (const std::vector<Real>& x : grids) {
    const int n = static_cast<int>(x.size());
    SecondaryTables tables;
    const int offset = static_cast<int>(tables.reals.size());
    tables.reals.insert(tables.reals.end(), x.begin(), x.end());
    const int at = tables.add_energy_guide(offset, n);
    ASSERT_GE(at, 0) << "n " << n;
    const int* guide = &tables.ints[at];
    std::vector<Real> energies;
    for (Real v : x) energies.insert(energies.end(), {v, std::nextafter(v, Real(0)), std::nextafter(v, Real(1e30))});
    for (int key = energy_guide_key(x[0]); key <= energy_guide_key(x[n - 1]) + 1; ++key) {
      const Real edge = energy_guide_edge(key);
      energies.insert(energies.end(), {edge, std::nextafter(edge, Real(0)), std::nextafter(edge, Real(1e30))});
    }
    for (int i = 0; i < 20000; ++i) energies.push_back(x[0] * std::pow(x[n - 1] / x[0], rng.next()));
    for (const Real e : energies) {
      if (!(e > x[0] && e < x[n - 1])) continue;
      ASSERT_EQ(neutron::energy_interval(x.data(), n, e, guide), neutron::cdf_bin(x.data(), n, e))
          << "n " << n << " e " << e;
    }
  }

  SecondaryTables tables;
  std::vector<double> x(16), y(16, 1.0);
  for (int k = 0; k < 16; ++k) x[k] = 1e-11 * std::pow(10.0, k);  // MeV
  EXPECT_GE(tables.add_tab1({{}, {}, x, y}, 1e6, 1.0).guide, 0);
  x.pop_back();
  y.pop_back();
  EXPECT_EQ(tables.add_tab1({{}, {}, x, y}, 1e6, 1.0).guide, -1);  // 15 points: bisected whole
  x.insert(x.begin(), 0.0);
  y.push_back(1.0);
  EXPECT_EQ(tables.add_tab1({{}, {}, x, y}, 1e6, 1.0).guide, -1);  // from 0: keys order positive energies only
}

#ifdef KEFF_ACE_LIBRARY
// The evaluated laws themselves: at an incident energy of the table, each law 4 and 44 of U-235 must
// reproduce its own CDF at the tabulated outgoing energies (no interpolation between incident energies
// there, so the table is the answer).
TEST(SecondaryLaws, EvaluatedTablesReproduceTheirCdf) {
  const ace::Xsdir x = ace::read_xsdir(KEFF_ACE_LIBRARY);
  const ace::XsdirEntry& e = ace::select_table(x, 92235, "U235", 293.6, 1.0);
  const ace::IncidentNeutron u235 = ace::read_incident_neutron(ace::read_ace_table(e.file, e.address, e.zaid), "U235");
  for (int mt : {16, 18, 91}) {
    const ace::EnergyLaw& law = u235.find(mt)->energy.at(0);
    ASSERT_TRUE(law.kind == ace::EnergyLawKind::continuous_tabular || law.kind == ace::EnergyLawKind::kalbach_mann);
    const std::size_t i = law.incident_energy.size() / 2;
    const ace::OutgoingTable& t = law.outgoing[i];
    const auto draws = draw({law}, law.incident_energy[i]);
    for (std::size_t k = t.discrete_lines + 1; k + 1 < t.energy.size(); k += (t.energy.size() / 6) + 1) {
      const double edge = t.energy[k] * 1e6;
      const Moments below = test::sample_mean(draws, [&](const auto& d) { return d.energy < edge ? 1.0 : 0.0; });
      EXPECT_NEAR(below.mean, t.cdf[k], 4.5 * std::max(below.error, 1e-4))
          << "MT " << mt << " at E = " << law.incident_energy[i] << " MeV, E' = " << t.energy[k] << " MeV";
    }
  }
}
#endif

}  // namespace
}  // namespace keff
