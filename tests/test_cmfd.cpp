// The CMFD solver against answers known without it: k_inf of infinite media (one and two groups), the
// eigenvalue of the finite-difference operator of a bare slab and the diffusion eigenvalue it tends
// to, and the nonlinear correction dhat, which must make the tallied flux and the tallies' own
// balance k an exact eigenpair.
#include <gtest/gtest.h>
#include <mpi.h>

#include "cmfd_fixture.hpp"
#include "src/cmfd/cmfd_multigrid.hpp"
#include "src/cmfd/cmfd_solver.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

namespace keff {
namespace {

using test::CellXs;
using test::TallyBuilder;
using test::to_host;

constexpr Real vacuum = 0;
constexpr Real reflective = 1;

CmfdOptions tight(bool use_dhat = true) {
  CmfdOptions o;
  o.use_dhat = use_dhat;
  o.k_tolerance = 1e-12;
  o.source_tolerance = 1e-10;
  o.max_outer = 5000;
  return o;
}

// Every cell holds the same material and flux; every face sees as many neutrons go one way as the other.
void fill_uniform(TallyBuilder& t, const CellXs& xs, const std::vector<Real>& phi) {
  for (int c = 0; c < t.mesh.n_cells(); ++c) t.set_cell(c, xs, phi);
  for (int g = 0; g < t.groups; ++g) {
    for (int f = 0; f < t.mesh.n_faces(); ++f) t.set_current(g, f, phi[g] / 4, phi[g] / 4);
  }
}

// A solver for t's mesh and groups, and its result on t.
struct Solved {
  std::unique_ptr<CmfdSolver> solver;
  CmfdResult result;
};
Solved solve(TallyBuilder& t, const CmfdOptions& options) {
  auto solver = std::make_unique<CmfdSolver>(DeviceExec(), t.mesh, t.groups, options);
  const CmfdResult r = solver->solve(DeviceExec(), t.upload());
  return {std::move(solver), r};
}

// --- Infinite media: all faces reflective ----------------------------------------------------------

TEST(CmfdInfiniteMedium, OneGroupGivesNuSigmaFOverSigmaA) {
  const CmfdMesh mesh = test::cmfd_mesh(3, 3, 3, 1.0, 2.0, 0.5, std::vector<Real>(6, reflective));
  const CellXs xs{{0.8}, {{0.5}}, {{0.39}}};  // sigma_a = 0.3
  for (const bool dhat : {true, false}) {
    for (const CmfdPreconditioning p : {CmfdPreconditioning::none, CmfdPreconditioning::ilu,
                                        CmfdPreconditioning::gauss_seidel, CmfdPreconditioning::multigrid,
                                        CmfdPreconditioning::automatic}) {
      TallyBuilder t(mesh, 1);
      fill_uniform(t, xs, {2.0});
      CmfdOptions o = tight(dhat);
      o.preconditioner = p;
      const auto [solver, r] = solve(t, o);
      EXPECT_TRUE(r.converged) << r.failure;
      EXPECT_NEAR(r.k, 0.39 / 0.3, 1e-10 * 1.3) << "dhat " << dhat << " preconditioner " << name_of(p);
      for (const Real s : to_host(solver->cell_source())) EXPECT_NEAR(s, 1.0 / 27, 1e-12);
      EXPECT_NEAR(r.entropy, std::log2(27.0), 1e-10);
    }
  }
}

// Two groups with up- and down-scattering and fission neutrons born in both: with production
// F(g, h) = chi_g nuSigma_f,h of rank one, k_inf = nuSigma_f^T M^-1 chi, M(g, h) = delta_gh Sigma_t,g -
// Sigma_s(h -> g). The tallied flux is not the infinite-medium spectrum: the power iteration finds it.
TEST(CmfdInfiniteMedium, TwoGroupsGiveTheSpectrumEigenvalue) {
  const Real sigma_t[2] = {0.5, 1.2};
  const Real sigma_s[2][2] = {{0.3, 0.15}, {0.02, 1.0}};  // [from][to]
  const Real nu_sigma_f[2] = {0.01, 0.25};
  const Real chi[2] = {0.9, 0.1};
  CellXs xs{{sigma_t[0], sigma_t[1]}, {{0.3, 0.15}, {0.02, 1.0}}, {{0, 0}, {0, 0}}};
  for (int h = 0; h < 2; ++h) {
    for (int g = 0; g < 2; ++g) xs.nu_fission[h][g] = nu_sigma_f[h] * chi[g];
  }
  const Real m00 = sigma_t[0] - sigma_s[0][0], m01 = -sigma_s[1][0];
  const Real m10 = -sigma_s[0][1], m11 = sigma_t[1] - sigma_s[1][1];
  const Real det = m00 * m11 - m01 * m10;
  const Real y0 = (m11 * chi[0] - m01 * chi[1]) / det;  // y = M^-1 chi
  const Real y1 = (-m10 * chi[0] + m00 * chi[1]) / det;
  const Real k_inf = nu_sigma_f[0] * y0 + nu_sigma_f[1] * y1;

  const CmfdMesh mesh = test::cmfd_mesh(2, 3, 2, 1.0, 1.0, 1.0, std::vector<Real>(6, reflective));
  TallyBuilder t(mesh, 2);
  fill_uniform(t, xs, {1.0, 1.0});
  const auto [solver, r] = solve(t, tight());
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_GT(r.outer_iterations, 1);
  EXPECT_NEAR(r.k, k_inf, 1e-10 * k_inf);
  const auto phi = to_host(solver->flux());  // the spectrum phi_1 / phi_0 = y1 / y0
  EXPECT_NEAR(phi[mesh.n_cells()] / phi[0], y1 / y0, 1e-9);
}

// --- A bare slab: vacuum on the x faces, reflective on the others, no dhat ------------------------

struct Slab {
  Real sigma_t = 1.0, sigma_s = 0.7, nu_sigma_f = 0.45, length = 20.0;
  Real diffusion() const { return 1 / (3 * sigma_t); }
};

// The smallest eigenvalue of the slab's finite-difference loss operator (symmetric tridiagonal, per unit
// volume), by bisection on Sturm counts: k = nuSigma_f / lambda_min, exact to rounding.
Real discrete_slab_k(const Slab& s, int cells) {
  const Real h = s.length / cells, d = s.diffusion();
  const Real couple = d / (h * h);  // dtilde / h between cells: D / h^2
  const Real edge = 2 * d / (4 * d + h) / h;  // vacuum albedo dtilde / h
  std::vector<Real> diag(static_cast<std::size_t>(cells), s.sigma_t - s.sigma_s);
  for (int i = 0; i < cells; ++i) {
    diag[static_cast<std::size_t>(i)] += (i > 0 ? couple : edge) + (i + 1 < cells ? couple : edge);
  }
  const auto below = [&](Real x) {  // eigenvalues below x: negative pivots of LDL^T of (M - x I)
    int count = 0;
    Real q = 1;
    for (int i = 0; i < cells; ++i) {
      q = diag[static_cast<std::size_t>(i)] - x - (i > 0 ? couple * couple / q : 0);
      if (q < 0) ++count;
    }
    return count;
  };
  Real lo = 0, hi = s.sigma_t + 4 * couple + 2 * edge;
  for (int it = 0; it < 200 && hi - lo > 0; ++it) {
    const Real mid = (lo + hi) / 2;
    (below(mid) >= 1 ? hi : lo) = mid;
    if (mid == lo && mid == hi) break;
  }
  return s.nu_sigma_f / ((lo + hi) / 2);
}

CmfdResult solve_slab(const Slab& s, int cells, CmfdOptions options) {
  const CmfdMesh mesh = test::cmfd_mesh(cells, 1, 1, s.length / cells, 1.0, 1.0,
                                        {vacuum, vacuum, reflective, reflective, reflective, reflective});
  TallyBuilder t(mesh, 1);
  fill_uniform(t, CellXs{{s.sigma_t}, {{s.sigma_s}}, {{s.nu_sigma_f}}}, {1.0});
  return solve(t, options).result;
}

TEST(CmfdBareSlab, GivesTheEigenvalueOfTheDifferenceOperator) {
  const Slab s;
  for (const int cells : {1, 2, 20}) {
    const CmfdResult r = solve_slab(s, cells, tight(false));
    EXPECT_TRUE(r.converged) << r.failure;
    const Real k = discrete_slab_k(s, cells);
    EXPECT_NEAR(r.k, k, 1e-10 * k) << cells << " cells";
  }
}

// With the default options (adaptive shift, inexact inner solves: kernels/vocabulary/cmfd_options.hpp)
// k lies within the stated k_tolerance of the exact eigenvalue, on slabs of 2 to 200 cells.
TEST(CmfdBareSlab, DefaultOptionsMeetTheStatedTolerance) {
  const Slab s;
  const CmfdOptions defaults = [] {
    CmfdOptions o;
    o.use_dhat = false;
    return o;
  }();
  for (const int cells : {2, 20, 100, 200}) {
    const CmfdResult r = solve_slab(s, cells, defaults);
    EXPECT_TRUE(r.converged) << r.failure;
    const Real k = discrete_slab_k(s, cells);
    std::cout << "  bare slab, " << cells << " cells, default options: " << r.outer_iterations << " outer, "
              << r.inner_iterations << " GMRES iterations, k - exact " << (r.k - k) / k << " (relative)\n";
    EXPECT_NEAR(r.k, k, defaults.k_tolerance * k) << cells << " cells";
  }
}

// As the mesh is refined the discrete eigenvalue tends, at second order, to diffusion theory's,
// k = nuSigma_f / (Sigma_a + D B^2), where the vacuum (Marshak) condition J_in = 0, phi = 2 D |dphi/dx| at
// each face, makes B the root of cot(B L / 2) = 2 D B in (0, pi / L) (B ~ pi / (L + 4 D)).
TEST(CmfdBareSlab, TendsToTheDiffusionEigenvalue) {
  const Slab s;
  const Real d = s.diffusion();
  Real lo = 0, hi = constants::pi / s.length;
  for (int it = 0; it < 200; ++it) {
    const Real mid = (lo + hi) / 2;
    (1 / std::tan(mid * s.length / 2) > 2 * d * mid ? lo : hi) = mid;
  }
  const Real buckling = (lo + hi) / 2;
  const Real k_diffusion = s.nu_sigma_f / (s.sigma_t - s.sigma_s + d * buckling * buckling);
  Real previous_error = 1;
  for (const int cells : {25, 50, 100}) {
    const CmfdResult r = solve_slab(s, cells, tight(false));
    EXPECT_TRUE(r.converged) << r.failure;
    const Real error = std::abs(r.k - k_diffusion) / k_diffusion;
    std::cout << "  bare slab, " << cells << " cells: k " << r.k << " (diffusion " << k_diffusion << ", relative "
              << error << "), " << r.outer_iterations << " outer / " << r.inner_iterations << " GMRES iterations\n";
    EXPECT_LT(error, 0.3 * previous_error) << cells << " cells: the error should quarter";
    previous_error = error;
  }
  EXPECT_LT(previous_error, 2.5e-6);
}

// --- dhat: the tallies' own balance -----------------------------------------------------------------

// The cell of the problem beside face f when only one cell is (a mesh edge, or beside `left_out`), and
// whether the face is its upper one; -1 for a face between two cells of the problem.
std::pair<int, bool> one_sided_cell(const CmfdMesh& mesh, int f, int left_out) {
  int idx[3];
  const int axis = mesh.face_indices(f, idx);
  const int k = idx[axis];
  const int upper = k < mesh.grid.shape[axis] ? mesh.cell(idx) : -1;
  idx[axis] = k - 1;
  const int lower = k > 0 ? mesh.cell(idx) : -1;
  const bool lower_in = lower >= 0 && lower != left_out, upper_in = upper >= 0 && upper != left_out;
  if (lower_in == upper_in) return {-1, false};
  return lower_in ? std::pair{lower, true} : std::pair{upper, false};
}

// Tallies from an arbitrary positive flux, cross sections and partial currents, with the production
// chosen so that every cell and group balances with k0: leakage + collisions - in-scattering =
// production / k0. With dhat the tallied flux is then an eigenvector of the CMFD problem for k0.
// `left_out` (>= 0) is a cell with no flux at all; its faces keep their currents, as a reflector's would.
// Through a face that only one cell of the problem sees, group 0 leaves and the others may come back,
// less in all than left, as from a reflector (the operator returns them from group 0).
TallyBuilder balanced_tallies(const CmfdMesh& mesh, int groups, Real k0, int left_out) {
  TallyBuilder t(mesh, groups);
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<Real> u(0, 1);
  for (int c = 0; c < mesh.n_cells(); ++c) {
    CellXs xs{std::vector<Real>(groups), std::vector<std::vector<Real>>(groups, std::vector<Real>(groups)),
              std::vector<std::vector<Real>>(groups, std::vector<Real>(groups))};
    std::vector<Real> phi(groups);
    for (int g = 0; g < groups; ++g) {
      xs.total[g] = 0.5 + u(rng);
      phi[g] = c == left_out ? 0 : 0.5 + 1.5 * u(rng);
      for (int h = 0; h < groups; ++h) xs.scatter[g][h] = 0.4 * xs.total[g] * u(rng) / groups;
    }
    t.set_cell(c, xs, phi);
  }
  for (int g = 0; g < groups; ++g) {
    for (int f = 0; f < mesh.n_faces(); ++f) {
      const Real a = 0.02 + 0.1 * u(rng), b = 0.02 + 0.1 * u(rng);
      const auto [cell, upper_face] = one_sided_cell(mesh, f, left_out);
      if (cell >= 0 && g == 0) {  // out of the cell: +axis through its upper face
        upper_face ? t.set_current(g, f, 0.1 * groups + a, b) : t.set_current(g, f, b, 0.1 * groups + a);
      } else {
        t.set_current(g, f, a, b);
      }
    }
  }
  // Losses per (g, c), integrated over the cell; the production into g splits 30:70 over source groups.
  for (int c = 0; c < mesh.n_cells(); ++c) {
    if (c == left_out) continue;
    int idx[3];
    mesh.cell_indices(c, idx);
    for (int g = 0; g < groups; ++g) {
      Real loss = t.total(g, c);
      for (int h = 0; h < groups; ++h) loss -= t.scatter(h, g, c);
      for (int axis = 0; axis < 3; ++axis) {
        const int lower = mesh.face(axis, idx);
        ++idx[axis];
        const int upper = mesh.face(axis, idx);
        --idx[axis];
        loss += (t.current(0, g, upper) - t.current(1, g, upper)) + (t.current(1, g, lower) - t.current(0, g, lower));
      }
      EXPECT_GT(loss, 0) << "the test's own data: cell " << c << " group " << g;
      for (int h = 0; h < groups; ++h) {
        t.nu_fission(h, g, c) = k0 * loss * (groups == 1 ? 1.0 : (h == 0 ? 0.3 : 0.7 / (groups - 1)));
      }
    }
  }
  return t;
}

void expect_tallied_eigenpair(int left_out) {
  const Real k0 = 1.234;
  const CmfdMesh mesh = test::cmfd_mesh(4, 3, 2, 1.0, 1.5, 2.0, {vacuum, reflective, 0.5, vacuum, reflective, 0.2});
  const int groups = 2;
  TallyBuilder t = balanced_tallies(mesh, groups, k0, left_out);
  const auto [solver, r] = solve(t, tight());
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_NEAR(r.k, k0, 1e-10 * k0);
  EXPECT_TRUE(r.warning.empty()) << r.warning;

  // The operator itself: M phi_tallied = F phi_tallied / k0, row by row.
  const int rows = groups * mesh.n_cells();
  Kokkos::View<Real*, DeviceMem> phi("phi", rows), m_phi("m_phi", rows), f_phi("f_phi", rows);
  auto phi_host = Kokkos::create_mirror_view(phi);
  for (int g = 0; g < groups; ++g) {
    for (int c = 0; c < mesh.n_cells(); ++c) phi_host(g * mesh.n_cells() + c) = t.flux(g, c) / mesh.volume();
  }
  Kokkos::deep_copy(phi, phi_host);
  solver->apply_loss(DeviceExec(), phi, m_phi);
  solver->apply_production(DeviceExec(), phi, f_phi);
  const auto m = to_host(m_phi), f = to_host(f_phi);
  for (int i = 0; i < rows; ++i) EXPECT_NEAR(m[i], f[i] / k0, 1e-12 * (std::abs(m[i]) + 1)) << "row " << i;

  // Its eigenvector is the tallied flux (the solver's is normalised to sum(F phi) = 1).
  const auto solved = to_host(solver->flux());
  Real f_sum = 0;
  for (const Real x : f) f_sum += x;
  for (int i = 0; i < rows; ++i) EXPECT_NEAR(solved[i], phi_host(i) / f_sum, 1e-10 * phi_host(i) / f_sum + 1e-300);
}

TEST(CmfdDhat, TalliedFluxAndBalanceKAreTheEigenpair) { expect_tallied_eigenpair(-1); }

// A cell without flux is left out: its neighbours see an albedo boundary with the tallied albedo.
TEST(CmfdDhat, CellsWithoutFluxAreLeftOut) { expect_tallied_eigenpair(5); }

// Noisy tallies can show more coming in through a face that only one cell of the problem sees than going
// out, in every group: as a loss of the cell's own flux that would be a negative entry on M's diagonal
// (on C5G7 3-D, GMRES stalled on such an M). It is dropped instead, and M stays an M-matrix: a positive
// diagonal, no positive entry off it, and no column summing below zero. Read column by column (M e_j).
TEST(CmfdDhat, NetInflowBeyondAFaceKeepsMAnMMatrix) {
  const CmfdMesh mesh = test::cmfd_mesh(4, 3, 2, 1.0, 1.5, 2.0, {vacuum, reflective, 0.5, vacuum, reflective, 0.2});
  const int groups = 2, left_out = 5;
  TallyBuilder t = balanced_tallies(mesh, groups, 1.234, left_out);
  int inflow_faces = 0;
  for (int f = 0; f < mesh.n_faces(); ++f) {
    const auto [cell, upper_face] = one_sided_cell(mesh, f, left_out);
    if (cell < 0) continue;
    for (int g = 0; g < groups; ++g) upper_face ? t.set_current(g, f, 0.01, 0.5) : t.set_current(g, f, 0.5, 0.01);
    ++inflow_faces;
  }
  ASSERT_GT(inflow_faces, 0);
  const auto [solver, r] = solve(t, tight());
  EXPECT_TRUE(r.converged) << r.failure;
  const int rows = groups * mesh.n_cells();
  Kokkos::View<Real*, DeviceMem> e("e", rows), column("column", rows);
  for (int j = 0; j < rows; ++j) {
    Kokkos::deep_copy(e, Real(0));
    Kokkos::deep_copy(Kokkos::subview(e, j), Real(1));
    solver->apply_loss(DeviceExec(), e, column);
    const auto m = to_host(column);
    if (j % mesh.n_cells() == left_out) continue;  // left out: the identity's column
    Real sum = 0;
    for (int i = 0; i < rows; ++i) {
      sum += m[i];
      if (i == j) EXPECT_GT(m[i], 0) << "diagonal " << j;
      else EXPECT_LE(m[i], 0) << "M(" << i << ", " << j << ")";
    }
    EXPECT_GE(sum, -1e-12 * m[j]) << "column " << j;
  }
  for (const Real phi : to_host(solver->flux())) EXPECT_GE(phi, 0);
}

// Without dhat the operator is plain finite-difference diffusion: on a mesh whose edges have given albedos
// the currents the tallies measured do not enter it, those coming in through its edges (which with dhat
// return through other groups) included.
TEST(CmfdDhat, WithoutDhatTheCurrentsDoNotEnter) {
  const CmfdMesh mesh = test::cmfd_mesh(4, 3, 2, 1.0, 1.5, 2.0, {vacuum, reflective, 0.5, vacuum, reflective, 0.2});
  const int groups = 2, left_out = -1;
  TallyBuilder t = balanced_tallies(mesh, groups, 1.234, left_out);
  const int rows = groups * mesh.n_cells();
  Kokkos::View<Real*, DeviceMem> phi("phi", rows), m_phi("m_phi", rows);
  Kokkos::deep_copy(phi, Real(1));
  const auto loss = [&](TallyBuilder& tallies) {
    auto solver = std::make_unique<CmfdSolver>(DeviceExec(), mesh, groups, tight(false));
    solver->solve(DeviceExec(), tallies.upload());
    solver->apply_loss(DeviceExec(), phi, m_phi);
    return to_host(m_phi);
  };
  const auto before = loss(t);
  for (int f = 0; f < mesh.n_faces(); ++f) {
    const auto [cell, upper_face] = one_sided_cell(mesh, f, left_out);
    if (cell < 0) continue;
    for (int g = 0; g < groups; ++g) upper_face ? t.set_current(g, f, 0.01, 0.5) : t.set_current(g, f, 0.5, 0.01);
  }
  const auto after = loss(t);
  for (int i = 0; i < rows; ++i) EXPECT_EQ(before[i], after[i]) << "row " << i;
}

// Without dhat the same tallies give a different k: the correction is doing the work.
TEST(CmfdDhat, WithoutDhatTheBalanceIsNotReproduced) {
  const CmfdMesh mesh = test::cmfd_mesh(4, 3, 2, 1.0, 1.5, 2.0, {vacuum, reflective, 0.5, vacuum, reflective, 0.2});
  TallyBuilder t = balanced_tallies(mesh, 2, 1.234, -1);
  const CmfdResult r = solve(t, tight(false)).result;
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_GT(std::abs(r.k - 1.234), 1e-3);
}

// Two cells 100 cm wide, all but uncoupled, one with nuSigma_f / Sigma_a = 3 and one with 0.5, tallied
// with the same flux: the tallies' balance is 1.75, the fundamental mode lives in the first cell with k
// near 3. A converged k that far (71%) from the balance is kept, with a warning.
TEST(CmfdDhat, KFarFromTheTalliesBalanceIsWarnedAbout) {
  const CmfdMesh mesh = test::cmfd_mesh(2, 1, 1, 100.0, 1.0, 1.0, std::vector<Real>(6, reflective));
  TallyBuilder t(mesh, 1);
  t.set_cell(0, CellXs{{1.0}, {{0.7}}, {{0.9}}}, {1.0});
  t.set_cell(1, CellXs{{1.0}, {{0.7}}, {{0.15}}}, {1.0});
  for (int f = 0; f < mesh.n_faces(); ++f) t.set_current(0, f, 0.25, 0.25);
  const CmfdResult r = solve(t, tight()).result;
  EXPECT_TRUE(r.converged) << r.failure;
  EXPECT_GT(r.k, 2.9);
  EXPECT_LT(r.k, 3.0);
  EXPECT_NE(r.warning.find("from the balance of the tallies it was built from (1.75"), std::string::npos) << r.warning;
}

// --- Solver variants --------------------------------------------------------------------------------

// A bare 2-group cube from a flat guess: ILU(0) and the Wielandt shift change the work, not the answer.
TallyBuilder bare_cube(int n) {
  const CmfdMesh mesh = test::cmfd_mesh(n, n, n, 2.0, 2.0, 2.0, std::vector<Real>(6, vacuum));
  TallyBuilder t(mesh, 2);
  fill_uniform(t, CellXs{{0.5, 1.2}, {{0.3, 0.15}, {0.02, 1.0}}, {{0.009, 0.001}, {0.225, 0.025}}}, {1.0, 1.0});
  return t;
}

// No shift, a fixed shift of 0.1 and the adaptive shift (the default), each with every preconditioner and
// with inner solves to the tolerance or inexact (the default): the same k. The adaptive shift takes
// fewer outer iterations than either other, and inexact inner solves fewer GMRES iterations; solved to
// the tolerance, the multigrid takes fewer than Gauss-Seidel even on this cube of 2 cm cells, which
// Gauss-Seidel alone handles well (the multigrid's case is ReachesAcrossAWideMesh below).
TEST(CmfdSolverVariants, PreconditionersAndShiftGiveTheSameK) {
  const int n = 10;
  Real k_reference = 0;
  struct Shift {
    const char* name;
    bool adaptive;
    double fixed;
  };
  int outer[3] = {0, 0, 0}, inner[3][4][2] = {};  // [shift][preconditioner][inexact]
  const Shift shifts[3] = {{"none", false, 0.0}, {"0.1", false, 0.1}, {"adaptive", true, 0.0}};
  using P = CmfdPreconditioning;
  for (int i = 0; i < 3; ++i) {
    for (const P p : {P::none, P::ilu, P::gauss_seidel, P::multigrid}) {
      for (const double reduction : {0.0, 0.1}) {
        TallyBuilder t = bare_cube(n);
        CmfdOptions o = tight(false);
        o.preconditioner = p;
        o.adaptive_shift = shifts[i].adaptive;
        o.shift = shifts[i].fixed;
        o.gmres_reduction = reduction;
        const auto start = std::chrono::steady_clock::now();
        const CmfdResult r = solve(t, o).result;
        const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        EXPECT_TRUE(r.converged) << r.failure;
        std::cout << "  bare cube " << n << "^3 x 2 groups, preconditioner " << name_of(p) << ", shift "
                  << shifts[i].name << ", GMRES reduction " << reduction << ": k " << r.k << ", "
                  << r.outer_iterations << " outer, " << r.inner_iterations << " GMRES iterations, "
                  << seconds.count() << " s\n";
        if (k_reference == 0) k_reference = r.k;
        EXPECT_NEAR(r.k, k_reference, 1e-10 * k_reference);
        inner[i][static_cast<int>(p)][reduction > 0] = r.inner_iterations;
        if (p == P::none && reduction == 0) outer[i] = r.outer_iterations;
      }
    }
  }
  const int none = static_cast<int>(P::none), ilu = static_cast<int>(P::ilu), gs = static_cast<int>(P::gauss_seidel);
  const int mg = static_cast<int>(P::multigrid);
  for (int i = 0; i < 3; ++i) {
    EXPECT_LT(inner[i][ilu][0], inner[i][none][0]) << shifts[i].name;
    EXPECT_LT(inner[i][gs][0], inner[i][none][0]) << shifts[i].name;
    EXPECT_LT(inner[i][mg][0], inner[i][gs][0]) << shifts[i].name;
    EXPECT_LT(inner[i][gs][1], inner[i][none][1]) << shifts[i].name;
    EXPECT_LT(inner[i][none][1], inner[i][none][0]) << shifts[i].name;
  }
  EXPECT_LT(outer[2], outer[0]);
  EXPECT_LT(outer[2], outer[1]);
  EXPECT_LT(inner[2][gs][1], inner[0][none][1]);  // the defaults against plain power iteration
}

TEST(CmfdSolverVariants, ReportsOuterNonConvergence) {
  TallyBuilder t = bare_cube(4);
  CmfdOptions o = tight(false);
  o.max_outer = 2;
  const CmfdResult r = solve(t, o).result;
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.outer_iterations, 2);
  EXPECT_NE(r.failure.find("outer iterations"), std::string::npos) << r.failure;
  // Its last iterate is no result: no k and no entropy in any output.
  EXPECT_TRUE(std::isnan(r.k));
  EXPECT_TRUE(std::isnan(r.entropy));
}

// The caller's stop is asked before each outer iteration and between GMRES cycles (restart 2 here, so
// an inner solve takes several); the first true abandons the solve: no k, no entropy, marked interrupted.
TEST(CmfdSolverVariants, StopAbandonsTheSolveBetweenGmresCycles) {
  TallyBuilder t = bare_cube(4);
  CmfdOptions o = tight(false);
  o.gmres_restart = 2;
  o.gmres_max_restarts = 2000;
  CmfdSolver solver(DeviceExec(), t.mesh, t.groups, o);
  int asked = 0;
  const CmfdResult r = solver.solve(DeviceExec(), t.upload(), [&] { return ++asked == 5; });
  EXPECT_EQ(asked, 5);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, "interrupted");
  EXPECT_TRUE(std::isnan(r.k));
  EXPECT_TRUE(std::isnan(r.entropy));
  EXPECT_LT(r.outer_iterations, 4);  // some stops came between cycles, not only between outer iterations
  // A stop that never stops changes nothing: the same bits as no stop at all.
  CmfdSolver again(DeviceExec(), t.mesh, t.groups, o);
  const CmfdResult never = again.solve(DeviceExec(), t.upload(), [] { return false; });
  const CmfdResult plain = solve(t, o).result;
  EXPECT_TRUE(plain.converged) << plain.failure;
  EXPECT_EQ(never.k, plain.k);
  EXPECT_EQ(never.inner_iterations, plain.inner_iterations);
}

// A warm start: the second solve of the same tallies starts from the first's flux, the answer, and
// converges at once to the same k; without warm_start it repeats the first's iterations. The warm flux
// comes back out and goes into another solver (a restart), which then starts warm too; taking a solve
// back restores the warm start before it.
TEST(CmfdSolverVariants, WarmStartBeginsFromTheLastFlux) {
  TallyBuilder t = bare_cube(6);
  CmfdOptions cold_options = tight(false);
  cold_options.warm_start = false;
  CmfdSolver cold(DeviceExec(), t.mesh, 2, cold_options);
  const CmfdResult c1 = cold.solve(DeviceExec(), t.upload());
  const CmfdResult c2 = cold.solve(DeviceExec(), t.upload());
  EXPECT_EQ(c1.inner_iterations, c2.inner_iterations);

  CmfdSolver warm(DeviceExec(), t.mesh, 2, tight(false));
  EXPECT_FALSE(warm.warm_start().has_value());
  const CmfdResult w1 = warm.solve(DeviceExec(), t.upload());
  EXPECT_EQ(w1.inner_iterations, c1.inner_iterations);  // nothing to start from yet
  const auto saved = warm.warm_start();
  ASSERT_TRUE(saved.has_value());
  const CmfdResult w2 = warm.solve(DeviceExec(), t.upload());
  EXPECT_TRUE(w2.converged) << w2.failure;
  EXPECT_LT(w2.inner_iterations * 5, w1.inner_iterations);
  EXPECT_NEAR(w2.k, w1.k, 1e-10 * w1.k);

  CmfdSolver restarted(DeviceExec(), t.mesh, 2, tight(false));
  restarted.set_warm_start(*saved);
  const CmfdResult r2 = restarted.solve(DeviceExec(), t.upload());
  EXPECT_EQ(r2.inner_iterations, w2.inner_iterations);
  EXPECT_EQ(r2.k, w2.k);

  restarted.take_back_solve();  // the warm start is saved's again, not r2's flux
  const auto back = restarted.warm_start();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->flux, saved->flux);
  EXPECT_THROW(restarted.set_warm_start(CmfdWarmStart{std::vector<double>(3, 1.0)}), std::invalid_argument);
}

TEST(CmfdSolverVariants, RefusesBadOptionsAndShapes) {
  const CmfdMesh mesh = test::cmfd_mesh(2, 2, 2, 1, 1, 1, std::vector<Real>(6, vacuum));
  CmfdOptions o;
  o.k_tolerance = 0;
  EXPECT_THROW(CmfdSolver(DeviceExec(), mesh, 1, o), std::invalid_argument);
  o = CmfdOptions();
  o.shift = -1;
  EXPECT_THROW(CmfdSolver(DeviceExec(), mesh, 1, o), std::invalid_argument);
  EXPECT_THROW(CmfdSolver(DeviceExec(), mesh, 0, CmfdOptions()), std::invalid_argument);
  CmfdSolver solver(DeviceExec(), mesh, 2, CmfdOptions());
  TallyBuilder one_group(mesh, 1);
  EXPECT_THROW(solver.solve(DeviceExec(), one_group.upload()), std::invalid_argument);
}

TEST(CmfdSolverVariants, NoFissionIsAFailureNotACrash) {
  const CmfdMesh mesh = test::cmfd_mesh(2, 2, 2, 1, 1, 1, std::vector<Real>(6, vacuum));
  TallyBuilder t(mesh, 1);
  fill_uniform(t, CellXs{{1.0}, {{0.5}}, {{0.0}}}, {1.0});
  const CmfdResult r = solve(t, CmfdOptions()).result;
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.failure.find("no fission source in the CMFD tallies"), std::string::npos) << r.failure;
  EXPECT_TRUE(std::isnan(r.k));
  EXPECT_TRUE(std::isnan(r.entropy));
}

// --- Determinism -------------------------------------------------------------------------------------

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The solve is redundant on every rank: with the same tallies and thread count, every rank must get
// the same bits (k, iteration counts, every entry of the source), and so must a repeated solve from the
// same start (a solver of its own: the first's next solve starts warm).
TEST(CmfdDeterminism, SameBitsOnEveryRankAndRepeat) {
  TallyBuilder t = bare_cube(6);
  CmfdSolver solver(DeviceExec(), t.mesh, 2, tight(false));
  const CmfdResult first = solver.solve(DeviceExec(), t.upload());
  const auto first_source = to_host(solver.source());
  CmfdSolver repeat(DeviceExec(), t.mesh, 2, tight(false));
  const CmfdResult again = repeat.solve(DeviceExec(), t.upload());
  EXPECT_EQ(bits(first.k), bits(again.k));
  EXPECT_EQ(first.inner_iterations, again.inner_iterations);
  const auto source = to_host(repeat.source());
  std::vector<std::uint64_t> mine{bits(first.k), bits(first.entropy),
                                  static_cast<std::uint64_t>(first.inner_iterations)};
  for (std::size_t i = 0; i < source.size(); ++i) {
    EXPECT_EQ(bits(source[i]), bits(first_source[i])) << i;
    mine.push_back(bits(source[i]));
  }
  std::vector<std::uint64_t> lowest(mine.size()), highest(mine.size());
  MPI_Allreduce(mine.data(), lowest.data(), static_cast<int>(mine.size()), MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine.data(), highest.data(), static_cast<int>(mine.size()), MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(lowest, highest) << "ranks disagree";
}

// The multigrid's levels: cells merged two by two along the axes whose cells are at most twice as wide
// as the narrowest, so that C5G7 3-D's 16 cm axial layers over 1.26 cm pin cells stay apart until the
// pin cells have been merged to a comparable width; a single cell along an axis is never merged.
TEST(CmfdMultigrid, MergesAlongTheNarrowAxesFirst) {
  const auto shape_of = [](const CmfdMesh& m) {
    return std::array<int, 3>{m.grid.shape[0], m.grid.shape[1], m.grid.shape[2]};
  };
  CmfdMesh m = test::cmfd_mesh(34, 34, 4, 1.26, 1.26, 16.065, std::vector<Real>(6, vacuum));
  std::vector<std::array<int, 3>> shapes;
  while (m.n_cells() > CmfdMultigrid::max_coarsest_cells) {
    m = coarser_cmfd_mesh(m);
    shapes.push_back(shape_of(m));
  }
  const std::vector<std::array<int, 3>> expected = {{17, 17, 4}, {9, 9, 4}, {5, 5, 4}, {3, 3, 2}, {2, 2, 2}};
  EXPECT_EQ(shapes, expected);
  const CmfdMesh c5g7 = test::cmfd_mesh(34, 34, 4, 1.26, 1.26, 16.065, std::vector<Real>(6, vacuum));
  EXPECT_EQ(CmfdMultigrid(DeviceExec(), c5g7, 7, allocate_cmfd_matrix(DeviceExec(), c5g7, 7, "test")).levels(), 6);
  EXPECT_EQ(shape_of(coarser_cmfd_mesh(test::cmfd_mesh(20, 1, 1, 10, 10, 10, std::vector<Real>(6, vacuum)))),
            (std::array<int, 3>{10, 1, 1}));
  EXPECT_EQ(shape_of(coarser_cmfd_mesh(test::cmfd_mesh(5, 5, 5, 1, 1, 1, std::vector<Real>(6, vacuum)))),
            (std::array<int, 3>{3, 3, 3}));
}

// On a mesh of thin layers, many cells across (the shape of C5G7 3-D's CMFD mesh, two groups), the
// V-cycle reaches across the layers in one application where Gauss-Seidel moves one cell per sweep: the
// same k to the tolerance in less than half of Gauss-Seidel's GMRES iterations.
TEST(CmfdMultigrid, ReachesAcrossAWideMesh) {
  const CmfdMesh mesh = test::cmfd_mesh(32, 32, 4, 1.26, 1.26, 16.0, std::vector<Real>(6, vacuum));
  int iterations[2] = {};
  Real k[2] = {};
  for (const CmfdPreconditioning p : {CmfdPreconditioning::gauss_seidel, CmfdPreconditioning::multigrid}) {
    TallyBuilder t(mesh, 2);
    fill_uniform(t, CellXs{{0.5, 1.2}, {{0.3, 0.15}, {0.02, 1.0}}, {{0.009, 0.001}, {0.225, 0.025}}}, {1.0, 1.0});
    CmfdOptions o = tight(false);
    o.preconditioner = p;
    const CmfdResult r = solve(t, o).result;
    EXPECT_TRUE(r.converged) << r.failure;
    const int i = p == CmfdPreconditioning::multigrid;
    iterations[i] = r.inner_iterations;
    k[i] = r.k;
    std::cout << "  32 x 32 x 4 layers x 2 groups, preconditioner " << name_of(p) << ": k " << r.k << ", "
              << r.outer_iterations << " outer, " << r.inner_iterations << " GMRES iterations\n";
  }
  EXPECT_NEAR(k[1], k[0], 1e-10 * k[0]);
  EXPECT_LT(2 * iterations[1], iterations[0]);
}

// preconditioner = "auto" (the default) takes the multigrid where most of M's rows couple to their
// neighbours at least 0.9 times as strongly as to themselves (cmfd_multigrid_pays): on the thin layers
// above (median row 0.90), not on the bare cube of 2 cm cells (0.85), where Gauss-Seidel alone solves in
// half the multigrid's time. The same solve as the one chosen, iteration for iteration, and each solve says
// whether the multigrid preconditioned it (CmfdResult::multigrid, which the outputs carry).
TEST(CmfdMultigrid, AutoChoosesItForThinCellsOnly) {
  using P = CmfdPreconditioning;
  EXPECT_EQ(CmfdOptions{}.preconditioner, P::automatic);
  const auto iterations = [](TallyBuilder t, P p) {
    CmfdOptions o = tight(false);
    o.preconditioner = p;
    const CmfdResult r = solve(t, o).result;
    EXPECT_TRUE(r.converged) << r.failure;
    return std::array<Real, 4>{static_cast<Real>(r.inner_iterations), static_cast<Real>(r.outer_iterations), r.k,
                               r.multigrid ? 1.0 : 0.0};
  };
  const auto thin = [] {
    TallyBuilder t(test::cmfd_mesh(32, 32, 4, 1.26, 1.26, 16.0, std::vector<Real>(6, vacuum)), 2);
    fill_uniform(t, CellXs{{0.5, 1.2}, {{0.3, 0.15}, {0.02, 1.0}}, {{0.009, 0.001}, {0.225, 0.025}}}, {1.0, 1.0});
    return t;
  };
  EXPECT_EQ(iterations(thin(), P::automatic), iterations(thin(), P::multigrid));
  EXPECT_NE(iterations(thin(), P::automatic), iterations(thin(), P::gauss_seidel));
  EXPECT_EQ(iterations(bare_cube(10), P::automatic), iterations(bare_cube(10), P::gauss_seidel));
  EXPECT_NE(iterations(bare_cube(10), P::automatic), iterations(bare_cube(10), P::multigrid));
  EXPECT_EQ(iterations(thin(), P::automatic)[3], 1.0);
  EXPECT_EQ(iterations(bare_cube(10), P::automatic)[3], 0.0);
  EXPECT_EQ(iterations(bare_cube(10), P::multigrid)[3], 1.0);
  for (const P p : {P::none, P::ilu, P::gauss_seidel}) EXPECT_EQ(iterations(bare_cube(4), p)[3], 0.0) << name_of(p);
}

}  // namespace
}  // namespace keff
