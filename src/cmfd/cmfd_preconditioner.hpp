#pragma once
// What CMFD's GMRES (cmfd_gmres.hpp) is preconditioned by, on the right: y = P^-1 x for the system's
// matrix `a` (M, or M - F / k_s with the Wielandt shift, on M's graph). The solver picks one per
// [cmfd.solver] preconditioner: ILU(0) (cmfd_gmres.hpp, factored from `a` by the solver before),
// two-colour Gauss-Seidel (cmfd_gauss_seidel.hpp, which reads `a` itself) or a multigrid V-cycle
// (cmfd_multigrid.hpp, whose coarser levels `prepare` sums from `a`).
#include "src/cmfd/cmfd_operator.hpp"

namespace keff {

class CmfdPreconditioner {
 public:
  virtual ~CmfdPreconditioner() = default;
  // What the preconditioner derives from the matrix, each time the solver's matrix changes.
  virtual void prepare(const DeviceExec& /*exec*/, const CmfdMatrix& /*a*/) {}
  virtual void apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const = 0;
};

}  // namespace keff
