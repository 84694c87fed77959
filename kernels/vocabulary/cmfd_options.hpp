#pragma once
// What the CMFD eigenvalue solve is asked to do and what it reports. Plain data, no Kokkos, in the
// vocabulary because the input reader fills CmfdOptions ([cmfd.solver], io/) and the results record
// CmfdResult per batch (io/output/run_results.hpp), both below the solver in src/cmfd/: one struct, one set of
// defaults.
#include "kernels/vocabulary/enum_names.hpp"

#include <span>
#include <string>

namespace keff {

// An outer face of the CMFD mesh with this albedo takes the one the tallies measure, partial current in
// per partial current out (kernels/cmfd_data.hpp): for a mesh edge inside the geometry.
inline constexpr double cmfd_measured_albedo = -1;

// What the inner solves are preconditioned by (src/cmfd/cmfd_preconditioner.hpp): nothing, ILU(0),
// two-colour symmetric Gauss-Seidel, a multigrid V-cycle with it as smoother, or (automatic) one of the
// last two per solve, by what M's rows say of the mesh (src/cmfd/cmfd_multigrid.hpp, cmfd_multigrid_pays).
enum class CmfdPreconditioning : int { none = 0, ilu = 1, gauss_seidel = 2, multigrid = 3, automatic = 4 };
inline constexpr EnumName<CmfdPreconditioning> cmfd_preconditioning_names[] = {
    {CmfdPreconditioning::none, "none"},
    {CmfdPreconditioning::ilu, "ilu"},
    {CmfdPreconditioning::gauss_seidel, "gauss_seidel"},
    {CmfdPreconditioning::multigrid, "multigrid"},
    {CmfdPreconditioning::automatic, "auto"}};
constexpr std::span<const EnumName<CmfdPreconditioning>> enum_names(CmfdPreconditioning) { return cmfd_preconditioning_names; }

struct CmfdOptions {
  // Nonlinear diffusion: dhat makes the operator reproduce the tallied currents exactly, so that the
  // tallied flux solves it when the tallies balance. Off: plain finite-difference diffusion.
  bool use_dhat = true;
  // Outer (power) iterations stop when both the relative change of k and the relative 2-norm change of
  // the normalised fission source fall below their tolerances, or after max_outer iterations.
  double k_tolerance = 1e-10;
  double source_tolerance = 1e-8;
  int max_outer = 1000;
  // Wielandt shift: each outer iteration solves (M - F / k_s) phi' = (1/k - 1/k_s) F phi, which
  // converges in fewer outer iterations the nearer k_s is to k (from above). Adaptive: k_s from an upper
  // bound on k that each step gives (src/cmfd/README.md). A fixed `shift` > 0 takes its place: k_s =
  // k + shift once k has settled. Neither: plain power iteration.
  bool adaptive_shift = true;
  double shift = 0;
  // Inner solves, GMRES(restart) to a relative residual of at most gmres_tolerance (or gmres_reduction
  // below), at most (gmres_max_restarts + 1) * gmres_restart iterations, preconditioned on the right.
  // Two-colour Gauss-Seidel halves the GMRES iterations in three sweeps per application; ILU(0) cuts
  // them further, but its triangular solves launch a kernel per level, which on the problems measured
  // (src/cmfd/README.md) cost more than it saved.
  double gmres_tolerance = 1e-12;
  // Inexact inner solves: each outer iteration's GMRES stops once its residual is below this fraction of
  // the residual it started from (or below gmres_tolerance). An outer iteration starts GMRES from the last
  // flux, whose residual is the eigenproblem's own, so the inner solves tighten as the outer converges
  // and the answer is the eigenpair's, not one solve's rounding of it. 0: every inner solve to
  // gmres_tolerance.
  double gmres_reduction = 0.1;
  int gmres_restart = 50;
  int gmres_max_restarts = 20;
  CmfdPreconditioning preconditioner = CmfdPreconditioning::automatic;
  // Each solve starts from the last converged solve's flux (kept in the statepoint) rather than from the
  // tallied flux: the window changes little from batch to batch, and on the UD2O sphere's 10^3 mesh and
  // the slab this took 15-26% of the GMRES iterations away (src/cmfd/README.md).
  bool warm_start = true;
};

// A solve that failed (nothing to solve, not converged, a vanished or mixed-sign source) has k and entropy
// NaN: every output shows it as failed, never as a number. A converged k far from its tallies' balance
// is not a failure, only a warning.
struct CmfdResult {
  double k = 0;              // k_cmfd
  double k_change = 0;       // |k_n - k_{n-1}| / k_n at the last outer iteration
  double source_change = 0;  // ||s_n - s_{n-1}||_2 / ||s_n||_2 of the normalised sources, at the last
  int outer_iterations = 0;
  int inner_iterations = 0;  // GMRES iterations, summed over the outer iterations
  bool converged = false;    // outer tolerances met and every inner solve converged
  bool multigrid = false;    // preconditioned by the multigrid (named, or chosen by "auto"), not another
  bool interrupted = false;  // abandoned part-way at the caller's request (a signal): not a result at all
  double entropy = 0;        // Shannon entropy (bits) of the CMFD fission source over the coarse cells
  std::string failure;       // why it failed, empty otherwise
  std::string warning;       // a converged solve's caveat (a k far from its tallies' balance), else empty
};

}  // namespace keff
