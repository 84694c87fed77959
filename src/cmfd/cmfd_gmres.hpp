#pragma once
// CMFD's inner solver: restarted GMRES, preconditioned on the right (cmfd_preconditioner.hpp), with
// everything it needs allocated once and a result that does not depend on the order threads finish in.
//
//   CmfdGmres gmres(exec, rows, restart);            // Krylov basis and work vectors, once
//   CmfdIlu ilu(exec, lower, upper);                 // level sets of L and U, once per pattern
//   auto c = gmres.cycle(exec, a, &ilu, b, x, tol);  // one restart cycle from x; repeat until c.converged
//                                                    // (or &gauss_seidel, or no preconditioner: nullptr)
//
// Why keff's own and not KokkosSparse's gmres: on a GPU that one's gemv (KokkosBlas' two-level kernel for
// a column-major basis) adds partial sums with floating-point atomics, so two solves of the same system
// differed in their last bits and a CMFD run with feedback was not reproducible (seen on an H100); it
// also allocated its basis on every call, and LUPrec redid its triangular-solve analysis on every
// application. Here the projections are one reduction over rows, V(:, 0..j)^T w (as deterministic as any
// Kokkos reduction: the same bits for the same thread count or device), and w - V h a loop per row over
// the columns; orthogonalisation is classical Gram-Schmidt done twice (CGS2), so a step costs four passes
// over the basis and two small copies to the host, not one reduction per basis vector.
#include "src/cmfd/cmfd_preconditioner.hpp"

#include <KokkosKernels_Handle.hpp>

#include <string>
#include <vector>

namespace keff {

// y = U^-1 L^-1 x for ILU(0) factors L and U: two level-scheduled triangular solves whose level sets
// are computed here, once (they depend on the pattern only; the factors' values change every solve).
class CmfdIlu final : public CmfdPreconditioner {
 public:
  CmfdIlu(const DeviceExec& exec, const CmfdMatrix& lower, const CmfdMatrix& upper);
  ~CmfdIlu();
  CmfdIlu(const CmfdIlu&) = delete;
  CmfdIlu& operator=(const CmfdIlu&) = delete;

  // `a` is the matrix the solver factored into L and U.
  void apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const override;

 private:
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<int, int, Real, DeviceExec, DeviceMem, DeviceMem>;
  CmfdMatrix lower_, upper_;
  CmfdVector between_;  // L^-1 x
  mutable Handle lower_handle_, upper_handle_;
};

class CmfdGmres {
 public:
  struct Cycle {
    int iterations = 0;
    bool converged = false;         // the true residual ||b - A x|| / ||b|| is below `target`
    double relative_residual = 0;  // that ratio after the cycle
    double target = 0;              // what the cycle aimed at: max(tolerance, reduction x the start's ratio)
    std::string failure;            // a NaN in the Arnoldi process
  };

  CmfdGmres(const DeviceExec& exec, int rows, int restart);

  // One cycle of GMRES(restart) on a x = b from the x given, preconditioned on the right by
  // `preconditioner` when there is one: at most `restart` Arnoldi steps, fewer once the estimated
  // residual is below `tolerance` (relative to ||b||) or below `reduction` times the residual the cycle
  // started from; x is then updated and the true residual computed, and `converged` says whether it is
  // below the larger of the two. b = 0 gives x = 0.
  Cycle cycle(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner,
              const CmfdVector& b, const CmfdVector& x, double tolerance, double reduction = 0);

 private:
  int restart_;
  Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceMem> basis_;  // [row][j]: a column per Krylov vector
  CmfdVector w_, z_, residual_;
  Kokkos::View<Real*, DeviceMem> projection_, coefficients_;
  Kokkos::View<Real*, Kokkos::HostSpace> projection_host_, coefficients_host_;
  std::vector<double> hessenberg_;  // (restart + 1) x restart, column-major
  std::vector<double> cosines_, sines_, rhs_;

  double& h(int i, int j) { return hessenberg_[static_cast<std::size_t>(j) * (restart_ + 1) + i]; }
  // Arnoldi step j: column j of the Hessenberg matrix, and the next basis vector unless the Krylov space
  // stopped growing (then true).
  bool arnoldi(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner, int j);
  // The Givens rotations on column j, the last zeroing h(j + 1, j): the residual's estimate is |rhs_[j + 1]|.
  void rotate(int j);
  // x += M^-1 V y, y solving the triangular system of the first `steps` columns.
  void update(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner, int steps,
              const CmfdVector& x);
};

}  // namespace keff
