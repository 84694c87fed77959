// What a collision does to a neutron on evaluated data (kernels/neutron/interactor/scatter_evaluated.hpp),
// against kinematics that hold exactly in the mean: elastic scattering off a target at rest
// (<E'>/E = (A^2 + 2 A <mu_cm> + 1) / (A + 1)^2, <mu_lab> = 2 / (3 A) for isotropy) and off a moving one
// (<E'> = |v_cm|^2 + |v_n - v_cm|^2), a centre-of-mass level's laboratory energy (<E_lab> = E'_cm +
// E / (A + 1)^2), multiplicities, and fission neutrons: the delayed share nu_d / nu and the prompt Watt
// spectrum's mean. The tiny table of tests/ace_builder.hpp, with its mass ratio changed where A = 2 shows
// more. Means are held to 4.5 standard errors.
#include "ace_builder.hpp"
#include "io/library/ace/ace_reader.hpp"
#include "kernels/neutron/interactor/scatter_evaluated.hpp"
#include "src/params/build_evaluated_data.hpp"

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
std::vector<Outcome> run(const EvaluatedTables& tables, Case what, double energy_ev, Vec3 target = {0, 0, 0}) {
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
          e = neutron::fission_neutron_energy(d, 0, d.lookup(0, e0), e0, rng, &group);
          extra = group;
        }
        out(i) = Outcome{e, u.z, extra};
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  return {h.data(), h.data() + samples};
}

struct Mean {
  double value, error;
};
template <class F>
Mean mean_of(const std::vector<Outcome>& v, F f) {
  double s = 0, s2 = 0;
  for (const Outcome& o : v) {
    const double x = f(o);
    s += x;
    s2 += x * x;
  }
  const double n = static_cast<double>(v.size()), m = s / n;
  return {m, std::sqrt(std::fmax(0.0, s2 / n - m * m) / n)};
}
#define EXPECT_MEAN(m, expected) EXPECT_NEAR((m).value, (expected), 4.5 * (m).error + 1e-12) << "sample error " << (m).error

TEST(EvaluatedCollision, ElasticOffATargetAtRest) {
  EvaluatedTables t;
  t.add_nuclide(tiny(44, 2.0));  // the tiny table's elastic cosines are flat: isotropic
  const auto v = run(t, Case::elastic, 1.0e6);
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.energy / 1.0e6; }), 5.0 / 9);
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.mu; }), 1.0 / 3);
}

TEST(EvaluatedCollision, ElasticWithATabulatedForwardCosine) {
  ace::IncidentNeutron n = tiny(44, 2.0);
  for (ace::AngleTable& a : n.elastic_angle.tables) {  // p(mu_cm) = (1 + mu) / 2: <mu_cm> = 1/3
    a.mu = {-1.0, 1.0};
    a.pdf = {0.0, 1.0};
    a.cdf = {0.0, 1.0};
  }
  EvaluatedTables t;
  t.add_nuclide(n);
  const auto v = run(t, Case::elastic, 1.0e6);
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.energy / 1.0e6; }), (4.0 + 4.0 / 3 + 1) / 9);
}

TEST(EvaluatedCollision, ElasticOffAMovingTarget) {
  EvaluatedTables t;
  t.add_nuclide(tiny(44, 2.0));
  const Vec3 v_t{0.3, 0.0, -0.5};  // sqrt(eV)
  const double e = 1.0;            // eV: the target's motion matters
  const auto v = run(t, Case::elastic_moving, e, v_t);
  const Vec3 v_n{0, 0, std::sqrt(e)};
  const Vec3 v_cm = (1.0 / 3.0) * (v_n + 2.0 * v_t);
  const Vec3 rel = v_n - v_cm;
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.energy; }), dot(v_cm, v_cm) + dot(rel, rel));
}

TEST(EvaluatedCollision, LevelScatteringInTheCentreOfMass) {
  EvaluatedTables t;
  t.add_nuclide(tiny(3));  // MT 16 by law 3, centre-of-mass, isotropic there
  const double a = 247.9, e = 3.0e6;
  const double e_cm = std::pow(a / (a + 1), 2) * (e - (a + 1) / a * 0.5e6);
  const auto v = run(t, Case::reaction, e);
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.energy; }), e_cm + e / ((a + 1) * (a + 1)));
  for (const Outcome& o : v) ASSERT_EQ(o.extra, 2);  // (n,2n)
}

TEST(EvaluatedCollision, FissionNeutronsPromptAndDelayed) {
  EvaluatedTables t;
  t.add_nuclide(tiny());
  const auto v = run(t, Case::fission, 1.0e-5);
  const double delayed = 0.0167 / 2.42;  // nu_d / nu at 1e-5 eV
  EXPECT_MEAN(mean_of(v, [](const Outcome& o) { return o.extra >= 0 ? 1.0 : 0.0; }), delayed);
  std::vector<Outcome> prompt, late;
  for (const Outcome& o : v) (o.extra >= 0 ? late : prompt).push_back(o);
  const double wa = 0.988, wb = 2.249;  // the Watt spectrum at the grid's first energy
  EXPECT_MEAN(mean_of(prompt, [](const Outcome& o) { return o.energy * 1e-6; }), 1.5 * wa + wa * wa * wb / 4);
  EXPECT_MEAN(mean_of(late, [](const Outcome& o) { return o.energy * 1e-6; }), 1.0);  // flat on [0, 2] MeV
  for (const Outcome& o : late) ASSERT_EQ(o.extra, 0);  // the one group
}

}  // namespace
}  // namespace keff
