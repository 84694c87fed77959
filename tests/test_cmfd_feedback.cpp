// CMFD feedback on the source (weight factors and site reweighting), the coarse groups of a site, that a
// repeated solve allocates nothing of keff's, and that the memory estimate covers what a solver allocates.
#include <gtest/gtest.h>

#include "cmfd_fixture.hpp"
#include "io/input/model.hpp"
#include "kernels/cmfd_reweight.hpp"
#include "src/cmfd/cmfd_accelerator.hpp"
#include "src/cmfd/cmfd_solver.hpp"

#include <atomic>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

namespace keff {
namespace {

using test::to_host;

// Sites on the device at the given x positions (y = z = 0.5), each of weight 1 and the given energy.
Kokkos::View<Site*, DeviceMem> sites_at(const std::vector<Real>& x, Real energy = 1.0) {
  Kokkos::View<Site*, DeviceMem> sites("keff::test::sites", x.size());
  auto host = Kokkos::create_mirror_view(sites);
  for (std::size_t i = 0; i < x.size(); ++i) {
    host(i).r = Vec3{x[i], 0.5, 0.5};
    host(i).energy = energy;
  }
  Kokkos::deep_copy(sites, host);
  return sites;
}

Kokkos::View<Real*, DeviceMem> device_vector(const std::vector<Real>& v) {
  Kokkos::View<Real*, DeviceMem> d("keff::test::vector", v.size());
  Kokkos::deep_copy(d, Kokkos::View<const Real*, Kokkos::HostSpace>(v.data(), v.size()));
  return d;
}

struct Reweighted {
  std::vector<Real> factors;
  std::vector<Real> weights;
};

// Scores the sites' source on a 1-group mesh of unit cells along x, reweights them to `cmfd_source`.
Reweighted reweight(int cells, const std::vector<Real>& x, const std::vector<Real>& cmfd_source) {
  const DeviceExec exec;
  const CmfdMesh mesh = test::cmfd_mesh(cells, 1, 1, 1.0, 1.0, 1.0, std::vector<Real>(6, 0));
  const CmfdEnergyGroups<DeviceMem> groups;  // one to one: multigroup site group 0
  auto sites = sites_at(x);
  Kokkos::View<Fixed*, DeviceMem> counts("keff::test::counts", cells);
  Kokkos::View<Real*, DeviceMem> factors("keff::test::factors", cells);
  const auto n = static_cast<std::int64_t>(x.size());
  score_cmfd_source(exec, mesh, groups, Kokkos::View<const Site*, DeviceMem>(sites), n, counts);
  cmfd_weight_factors(exec, Kokkos::View<const Real*, DeviceMem>(device_vector(cmfd_source)),
                      Kokkos::View<const Fixed*, DeviceMem>(counts), factors);
  cmfd_reweight_sites(exec, mesh, groups, Kokkos::View<const Real*, DeviceMem>(factors), sites, n);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sites);
  Reweighted out{to_host(factors), {}};
  for (std::size_t i = 0; i < x.size(); ++i) out.weights.push_back(host(i).weight);
  return out;
}

// 3 sites in cell 0 and 1 in cell 1 (S_mc = 3/4, 1/4), one outside the mesh; CMFD says half and half:
// f = (1/2)/(3/4) = 2/3 and (1/2)/(1/4) = 2. The weight per cell becomes the CMFD shape, the total stays 5.
TEST(CmfdReweight, MovesTheSourceToTheCmfdShapeAndKeepsTheTotal) {
  const auto r = reweight(2, {0.1, 0.5, 0.9, 1.5, 7.0}, {0.5, 0.5});
  EXPECT_NEAR(r.factors[0], 2.0 / 3, 1e-15);
  EXPECT_NEAR(r.factors[1], 2.0, 1e-15);
  const std::vector<Real> expected{2.0 / 3, 2.0 / 3, 2.0 / 3, 2.0, 1.0};
  Real total = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(r.weights[i], expected[i], 1e-15) << i;
    total += r.weights[i];
  }
  EXPECT_NEAR(total, 5.0, 1e-14);
}

// A cell the Monte Carlo source left empty keeps factor 1; the CMFD source is renormalised over the
// cells that hold sites, so the total weight is still conserved.
TEST(CmfdReweight, CellsWithoutSitesKeepFactorOne) {
  const auto r = reweight(3, {0.5, 1.5, 1.6}, {0.2, 0.4, 0.4});
  EXPECT_EQ(r.factors[2], 1.0);
  // Over cells 0 and 1 the CMFD source is 1/3 : 2/3 and the sites 1/3 : 2/3: nothing moves.
  EXPECT_NEAR(r.factors[0], 1.0, 1e-15);
  EXPECT_NEAR(r.factors[1], 1.0, 1e-15);
  EXPECT_NEAR(r.weights[0] + r.weights[1] + r.weights[2], 3.0, 1e-14);
}

// A cell with sites that CMFD left out of its solve (no CMFD source there: too few collisions yet) keeps
// its sites' weight; the rest moves to the CMFD source's shape, the total conserved.
TEST(CmfdReweight, CellsLeftOutOfTheSolveKeepTheirWeight) {
  const auto r = reweight(3, {0.5, 1.5, 2.5, 2.6}, {0.25, 0.75, 0.0});
  EXPECT_EQ(r.factors[2], 1.0);
  // Over cells 0 and 1 the sites are 1 : 1 and the CMFD source 1 : 3.
  EXPECT_NEAR(r.factors[0], 0.5, 1e-15);
  EXPECT_NEAR(r.factors[1], 1.5, 1e-15);
  EXPECT_NEAR(r.weights[0] + r.weights[1] + r.weights[2] + r.weights[3], 4.0, 1e-14);
}

// One site alone in cell 1 where CMFD puts half the source: its raw factor, (1/2)/(1/100) = 50, would
// give it half the next batch's weight. Capped at max_cmfd_weight_factor (10) it gets 10, and cell 0's 99
// sites share the other 90 in the CMFD's proportion, the total still 100. (At 2000 particles, the
// uncapped factors of examples/cmfd_slab_2g.toml with min_collisions = 0 gave one site 64 % of a
// batch's weight, whose k was 3.66.)
TEST(CmfdReweight, FactorsAreCappedAndTheTotalKept) {
  ASSERT_EQ(max_cmfd_weight_factor, 10);
  std::vector<Real> x(99, 0.5);
  x.push_back(1.5);
  const auto r = reweight(2, x, {0.5, 0.5});
  EXPECT_EQ(r.factors[1], 10.0);
  EXPECT_NEAR(r.factors[0], 90.0 / 99, 1e-12);
  Real total = 0;
  for (const Real w : r.weights) total += w;
  EXPECT_NEAR(total, 100.0, 1e-10);
  EXPECT_EQ(r.weights.back(), 10.0);
}

TEST(CmfdReweight, NoSitesAnywhereLeavesEveryFactorOne) {
  const auto r = reweight(2, {-1.0, 5.0}, {0.5, 0.5});
  for (const Real f : r.factors) EXPECT_EQ(f, 1.0);
  for (const Real w : r.weights) EXPECT_EQ(w, 1.0);
}

// The coarse groups of a few neutrons, computed on the device (a free function: CUDA refuses device
// lambdas in the private member function a TEST body is).
std::vector<int> groups_on_device(const CmfdEnergyGroups<DeviceMem>& ce, const CmfdEnergyGroups<DeviceMem>& mg,
                                  const CmfdEnergyGroups<DeviceMem>& same) {
  Kokkos::View<int[8], DeviceMem> out("keff::test::groups");
  Kokkos::parallel_for(
      "keff::test::group_of", Kokkos::RangePolicy<DeviceExec>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = ce.group_of(1e-6, 0);   // below the lowest edge: -1
        out(1) = ce.group_of(0.01, 0);   // thermal: 2
        out(2) = ce.group_of(0.625, 0);  // an edge belongs to the band above it: 1
        out(3) = ce.group_of(1e6, 0);    // fast: 0
        out(4) = ce.group_of(2e7, 0);    // the top edge: -1
        out(5) = mg.group_of(0, 1);      // collapsed: fine groups 0, 1 -> 0; 2, 3 -> 1
        out(6) = mg.group_of(0, 2);
        out(7) = same.group_of(0, 3);    // one to one
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return std::vector<int>(host.data(), host.data() + 8);
}

// Coarse groups: continuous-energy bounds (group 0 highest), a multigroup collapse, one to one.
TEST(CmfdGroups, EnergyBoundsAndCollapse) {
  const std::vector<Real> bounds{1e-5, 0.625, 1e5, 2e7};
  const std::vector<int> collapse{0, 0, 1, 1};
  Kokkos::View<Real*, DeviceMem> b("keff::test::bounds", bounds.size());
  Kokkos::deep_copy(b, Kokkos::View<const Real*, Kokkos::HostSpace>(bounds.data(), bounds.size()));
  Kokkos::View<int*, DeviceMem> map("keff::test::map", collapse.size());
  Kokkos::deep_copy(map, Kokkos::View<const int*, Kokkos::HostSpace>(collapse.data(), collapse.size()));
  EXPECT_EQ(groups_on_device({b, {}}, {{}, map}, {}), (std::vector<int>{-1, 2, 1, 0, -1, 0, 1, 3}));
}

// --- No allocation in a repeated solve -------------------------------------------------------------

std::mutex labels_mutex;
std::vector<std::string> allocation_labels;

void on_allocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const std::uint64_t) {
  const std::lock_guard<std::mutex> lock(labels_mutex);
  allocation_labels.emplace_back(label);
}

// Once a solver exists, solving again (new tallies of the same shape) allocates nothing: keff's GMRES keeps
// its Krylov basis, the ILU(0) solves their level sets, Gauss-Seidel its colours and the multigrid its
// levels (both, for "auto") from the constructor (src/cmfd/cmfd_gmres.hpp, cmfd_gauss_seidel.hpp, cmfd_multigrid.hpp).
TEST(CmfdAllocations, RepeatedSolveAllocatesNothing) {
  for (const CmfdPreconditioning p : {CmfdPreconditioning::none, CmfdPreconditioning::ilu,
                                      CmfdPreconditioning::gauss_seidel, CmfdPreconditioning::multigrid,
                                      CmfdPreconditioning::automatic}) {
    const CmfdMesh mesh = test::cmfd_mesh(5, 4, 3, 1, 1, 1, std::vector<Real>(6, 0));
    test::TallyBuilder t(mesh, 2);
    for (int c = 0; c < mesh.n_cells(); ++c) {
      t.set_cell(c, test::CellXs{{0.5, 1.2}, {{0.3, 0.15}, {0.02, 1.0}}, {{0.009, 0.001}, {0.225, 0.025}}},
                 {1.0, 1.0});
    }
    CmfdOptions options;
    options.use_dhat = false;
    options.preconditioner = p;
    options.shift = p == CmfdPreconditioning::ilu ? 0.1 : 0.0;
    CmfdSolver solver(DeviceExec(), mesh, 2, options);
    const auto& tallies = t.upload();
    solver.solve(DeviceExec(), tallies);
    allocation_labels.clear();
    Kokkos::Tools::Experimental::set_allocate_data_callback(on_allocate);
    const CmfdResult r = solver.solve(DeviceExec(), tallies);
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    EXPECT_TRUE(r.converged) << r.failure;
    EXPECT_GT(r.inner_iterations, 0);
    std::string labels;
    for (const auto& label : allocation_labels) labels += " '" + label + "'";
    EXPECT_TRUE(allocation_labels.empty()) << "preconditioner " << name_of(p) << ": " << allocation_labels.size()
                                           << " allocations in a repeated solve:" << labels;
  }
}

std::atomic<std::uint64_t> allocated_bytes{0};

void count_bytes(const Kokkos::Tools::SpaceHandle, const char*, const void*, const std::uint64_t size) {
  allocated_bytes += size;
}

// What the memory check and the run's header say CMFD's solver takes (cmfd_footprint) covers what one
// allocates, with each preconditioner: its vectors, matrices and GMRES basis, ILU(0)'s factors and Kokkos
// Kernels' work for them (a row per row of M for each row of the widest level set: 10 MB here), and the
// multigrid's levels (both Gauss-Seidel and the multigrid for "auto"), on C5G7 3-D's mesh of 34 x 34 x 4
// cells with 2 groups. The footprint also holds the solver's copy of the tallies, which the accelerator
// allocates; what is left of it is at most twice what the solver took.
TEST(CmfdAllocations, FootprintCoversTheSolver) {
  const CmfdMesh mesh = test::cmfd_mesh(34, 34, 4, 1.26, 1.26, 16.065, std::vector<Real>(6, 0));
  const int groups = 2;
  for (const CmfdPreconditioning p : {CmfdPreconditioning::none, CmfdPreconditioning::ilu,
                                      CmfdPreconditioning::gauss_seidel, CmfdPreconditioning::multigrid,
                                      CmfdPreconditioning::automatic}) {
    model::Cmfd input;
    input.solver.preconditioner = p;
    allocated_bytes = 0;
    Kokkos::Tools::Experimental::set_allocate_data_callback(count_bytes);
    { const CmfdSolver solver(DeviceExec(), mesh, groups, input.solver); }
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    const double solver = static_cast<double>(allocated_bytes.load());
    const double estimate = cmfd_footprint(input, mesh, groups).device_bytes -
                            cmfd_tally_values(mesh, groups) * sizeof(Real);
    std::cout << "  preconditioner " << name_of(p) << ": the solver allocated " << solver << " bytes, the footprint says "
              << estimate << "\n";
    EXPECT_GT(solver, 0.0);
    EXPECT_LE(solver, estimate) << name_of(p);
    EXPECT_LE(estimate, 2 * solver) << name_of(p);
  }
}

}  // namespace
}  // namespace keff
