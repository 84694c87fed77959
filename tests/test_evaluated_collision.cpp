// What a collision does to a neutron on evaluated data (kernels/neutron/interactor/scatter_evaluated.hpp),
// against kinematics that hold exactly in the mean: elastic scattering off a target at rest
// (<E'>/E = (A^2 + 2 A <mu_cm> + 1) / (A + 1)^2, <mu_lab> = 2 / (3 A) for isotropy) and off a moving one
// (<E'> = |v_cm|^2 + |v_n - v_cm|^2), a centre-of-mass level's laboratory energy (<E_lab> = E'_cm +
// E / (A + 1)^2), multiplicities, and fission neutrons: the delayed share nu_d / nu and the prompt Watt
// spectrum's mean. The tiny table of tests/ace_builder.hpp, with its mass ratio changed where A = 2 shows
// more; and the probability tables' bands. Means are held to 4.5 standard errors.
#include "ace_builder.hpp"
#include "sample_mean.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "kernels/neutron/xs/probability_tables.hpp"
#include "kernels/neutron/interactor/scatter_evaluated.hpp"
#include "src/params/build_nuclide_tables.hpp"
#include "src/params/to_device.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace keff {
namespace {

constexpr int samples = 200000;

ace::IncidentNeutron tiny(int n2n_law = 44, double awr = 0.0) {
  ace::IncidentNeutron n =
      ace::read_incident_neutron(ace::parse_ace_table(test::build_ace(n2n_law).text(), "tiny.ace"), "Es250");
  if (awr > 0) n.awr = awr;
  return n;
}

struct Outcome {
  Real energy, mu, extra;  // eV, cosine to the incident direction, what else the case records
};

enum class Case { elastic, elastic_moving, reaction, fission };

// `samples` outcomes of one kind of event for a neutron of `energy_ev` along +z.
std::vector<Outcome> run(const NuclideTables& tables, Case what, double energy_ev, Vec3 target = {0, 0, 0}) {
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  Kokkos::View<Outcome*, DeviceMem> out("keff::test::outcomes", samples);
  const Real e0 = energy_ev;
  const int reaction = tables.nuclides[0].first_reaction;
  Kokkos::parallel_for(
      "keff::test::evaluated_collision", Kokkos::RangePolicy<DeviceExec>(exec, 0, samples), KOKKOS_LAMBDA(int i) {
        Lcg63 rng = history_rng(3, RngStream::tracking, 0, static_cast<std::uint64_t>(samples), static_cast<std::uint64_t>(i));
        Real e = e0;
        Vec3 u{0, 0, 1};
        Real extra = 0;
        if (what == Case::elastic || what == Case::elastic_moving) {
          neutron::scatter_elastic_evaluated(d, 0, target, e, u, rng);
        } else if (what == Case::reaction) {
          extra = neutron::reaction_neutrons(d, reaction, e, rng);
          neutron::emit_from_reaction(d, reaction, d.nuclides(0).awr, e, u, rng);
        } else {
          int group = -2;
          e = neutron::fission_neutron_energy(d, 0, d.lookup(0, e0), e0, d.nu(d.nuclides(0).nu_total, e0), rng, &group);
          extra = group;
        }
        out(i) = Outcome{e, u.z, extra};
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {h.data(), h.data() + samples};
}

TEST(EvaluatedCollision, ElasticOffATargetAtRest) {
  NuclideTables t;
  t.add_nuclide(tiny(44, 2.0));  // the tiny table's elastic cosines are flat: isotropic
  const auto v = run(t, Case::elastic, 1.0e6);
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.energy / 1.0e6; }), 5.0 / 9);
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.mu; }), 1.0 / 3);
}

TEST(EvaluatedCollision, ElasticWithATabulatedForwardCosine) {
  ace::IncidentNeutron n = tiny(44, 2.0);
  for (ace::AngleTable& a : n.elastic_angle.tables) {  // p(mu_cm) = (1 + mu) / 2: <mu_cm> = 1/3
    a.mu = {-1.0, 1.0};
    a.pdf = {0.0, 1.0};
    a.cdf = {0.0, 1.0};
  }
  NuclideTables t;
  t.add_nuclide(n);
  const auto v = run(t, Case::elastic, 1.0e6);
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.energy / 1.0e6; }), (4.0 + 4.0 / 3 + 1) / 9);
}

TEST(EvaluatedCollision, ElasticOffAMovingTarget) {
  NuclideTables t;
  t.add_nuclide(tiny(44, 2.0));
  const Vec3 v_t{0.3, 0.0, -0.5};  // sqrt(eV)
  const double e = 1.0;            // eV: the target's motion matters
  const auto v = run(t, Case::elastic_moving, e, v_t);
  const Vec3 v_n{0, 0, std::sqrt(e)};
  const Vec3 v_cm = (1.0 / 3.0) * (v_n + 2.0 * v_t);
  const Vec3 rel = v_n - v_cm;
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.energy; }), dot(v_cm, v_cm) + dot(rel, rel));
}

TEST(EvaluatedCollision, LevelScatteringInTheCentreOfMass) {
  NuclideTables t;
  t.add_nuclide(tiny(3));  // MT 16 by law 3, centre-of-mass, isotropic there
  const double a = 247.9, e = 3.0e6;
  const double e_cm = std::pow(a / (a + 1), 2) * (e - (a + 1) / a * 0.5e6);
  const auto v = run(t, Case::reaction, e);
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.energy; }), e_cm + e / ((a + 1) * (a + 1)));
  for (const Outcome& o : v) ASSERT_EQ(o.extra, 2);  // (n,2n)
}

TEST(EvaluatedCollision, FissionNeutronsPromptAndDelayed) {
  NuclideTables t;
  t.add_nuclide(tiny());
  const auto v = run(t, Case::fission, 1.0e-5);
  const double delayed = 0.0167 / 2.42;  // nu_d / nu at 1e-5 eV
  EXPECT_MEAN(test::sample_mean(v, [](const Outcome& o) { return o.extra >= 0 ? 1.0 : 0.0; }), delayed);
  std::vector<Outcome> prompt, late;
  for (const Outcome& o : v) (o.extra >= 0 ? late : prompt).push_back(o);
  const double wa = 0.988, wb = 2.249;  // the Watt spectrum at the grid's first energy
  EXPECT_MEAN(test::sample_mean(prompt, [](const Outcome& o) { return o.energy * 1e-6; }), 1.5 * wa + wa * wa * wb / 4);
  EXPECT_MEAN(test::sample_mean(late, [](const Outcome& o) { return o.energy * 1e-6; }), 1.0);  // flat on [0, 2] MeV
  for (const Outcome& o : late) ASSERT_EQ(o.extra, 0);  // the one group
}

// The tiny table's cross sections at `energy_ev` after its probability tables, for each xi.
std::vector<neutron::NuclideXs> with_tables(const NuclideTables& tables, double energy_ev, const std::vector<double>& xis) {
  DeviceExec exec;
  const auto d = tables.to_device(exec);
  std::vector<Real> xi_values(xis.begin(), xis.end());
  const auto xi = to_device(exec, "keff::test::urr_xi", xi_values);
  Kokkos::View<neutron::NuclideXs*, DeviceMem> out("keff::test::urr_xs", xis.size());
  const Real e = energy_ev;
  Kokkos::parallel_for(
      "keff::test::probability_tables", Kokkos::RangePolicy<DeviceExec>(exec, 0, xis.size()), KOKKOS_LAMBDA(int i) {
        neutron::NuclideXs xs = d.lookup(0, e);
        neutron::apply_probability_tables(d, 0, e, xi(i), xs);
        out(i) = xs;
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {h.data(), h.data() + h.extent(0)};
}

TEST(EvaluatedCollision, ProbabilityTablesChooseABand) {
  // The tiny table's bands at 1 and 2 keV: CDF (0.4, 1), factors elastic (0.9, 1.2), fission (0.7, 1.4),
  // capture (0.6, 1.5): at 1.5 keV, xi 0.2 takes the first band at both energies, 0.7 the second.
  NuclideTables t;
  t.add_nuclide(tiny());
  const double e = 1500.0;
  const std::vector<neutron::NuclideXs> got = with_tables(t, e, {0.2, 0.7});
  const std::vector<neutron::NuclideXs> smooth = with_tables(t, 5.0e6, {0.2});  // outside: unchanged
  const ace::IncidentNeutron n = tiny();
  const double f = (e * 1e-6 - n.energy[1]) / (n.energy[2] - n.energy[1]);
  const double el = (1 - f) * n.elastic[1] + f * n.elastic[2], ab = (1 - f) * n.absorption[1] + f * n.absorption[2];
  const auto& fis = n.find(18)->xs;
  const double fi = (1 - f) * fis[1] + f * fis[2];
  EXPECT_NEAR(got[0].elastic, 0.9 * el, 1e-12);
  EXPECT_NEAR(got[0].fission, 0.7 * fi, 1e-12);
  EXPECT_NEAR(got[0].absorption, 0.6 * ab, 1e-12);
  EXPECT_NEAR(got[1].elastic, 1.2 * el, 1e-12);
  EXPECT_NEAR(got[1].total, 1.2 * el + 1.4 * fi + 1.5 * ab, 1e-12);  // no (n,2n) at 1.5 keV
  const double g = (5.0 - n.energy[2]) / (n.energy[3] - n.energy[2]);
  EXPECT_NEAR(smooth[0].total, (1 - g) * n.total[2] + g * n.total[3], 1e-12);
}

}  // namespace
}  // namespace keff
