#pragma once
// The Wielandt shift of one CMFD solve: which k_s each power iteration is shifted by, decided from the
// steps so far (src/cmfd/cmfd_solver.cpp runs the steps). Host only, no Kokkos: numbers in, a number out.
//
// The shift needs k_s above the true k. Adaptive (the default): after each step, the Collatz-Wielandt
// bound of the step's operator (cmfd_growth) bounds k from above, and the next k_s lies above that bound
// by the bound's own distance from k, at least min_adaptive_shift of it: far while k is uncertain, a fixed
// ratio above it once k has settled. A fixed `shift` waits instead until k has settled: until the error
// of k estimated from its last two changes, dk rho / (1 - rho) with rho their ratio, is below half the
// shift. Should a shifted step still lose the source's sign anywhere (k_s below the true k: the bound
// holds for a nonnegative inverse, which D-hat can break), that step is undone and the shift dropped for
// the rest of the solve (drop); so is a shifted step GMRES cannot finish (k_s so near k that the system
// is too close to singular for a short restart).
#include "kernels/vocabulary/cmfd_options.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keff {

// The adaptive shift keeps k_s at least this far above its bound on k (relative). Nearer, each outer
// iteration converges faster but the shifted system is nearer singular and costs GMRES more: unpreconditioned,
// on the UD2O sphere's 10^3 mesh and a bare 10^3 x 2-group cube, 0.05 to 0.2 took the fewest GMRES iterations
// (1e-3: 1.5 to 1.6 times as many; 0.4: 1.1 times). Preconditioned, 0.03: C5G7 3-D's multigrid solves
// 0.88 of the GMRES iterations of 0.1 (0.01: 1.0), the UD2O sphere's Gauss-Seidel ones 1.01, in two thirds of
// the outer iterations (src/cmfd/README.md).
inline constexpr double min_adaptive_shift = 0.03;

class WielandtShift {
 public:
  explicit WielandtShift(const CmfdOptions& o)
      : adaptive_(o.shift <= 0 && o.adaptive_shift), fixed_(o.shift), dropped_(!adaptive_ && o.shift <= 0) {}

  // k_s for the step from `k`: infinity for an unshifted step.
  double next(double k) const {
    if (dropped_) return infinity;
    if (adaptive_ && std::isfinite(bound_)) return bound_ + std::max(bound_ - k, min_adaptive_shift * bound_);
    return fixed_on_ ? k + fixed_ : infinity;
  }
  // Whether the steps' bound on k is wanted (after_step's `bound`).
  bool adaptive() const { return adaptive_; }
  // A step from k to k_next was taken; `bound` bounds the operator's k from above after it (adaptive).
  void after_step(double k, double k_next, double bound) {
    if (adaptive_) bound_ = bound;
    const double change = std::abs(k_next - k);
    if (!adaptive_ && !fixed_on_ && !dropped_ && previous_change_ > 0) {
      const double rho = change / previous_change_;
      fixed_on_ = rho < 1 && change * rho / (1 - rho) < fixed_ / 2;
    }
    previous_change_ = change;
  }
  // A shifted step lost the source's sign, or GMRES could not finish it: unshifted for the rest.
  void drop() { dropped_ = true; }

 private:
  static constexpr double infinity = std::numeric_limits<double>::infinity();
  bool adaptive_;
  double fixed_;
  bool dropped_;
  bool fixed_on_ = false;
  double previous_change_ = 0;
  double bound_ = infinity;
};

}  // namespace keff
