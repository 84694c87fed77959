// Restarted, right-preconditioned GMRES for CMFD (cmfd_gmres.hpp says why keff has its own).
//
// One cycle from x0, with r0 = b - A x0, beta = ||r0||, v_0 = r0 / beta (Saad, "Iterative Methods for
// Sparse Linear Systems", 2nd ed., algorithm 9.5):
//   for j = 0, 1, ...:  w = A M^-1 v_j;  h = V_j^T w, w -= V_j h (twice);  v_{j+1} = w / ||w||
//   the Hessenberg column is rotated by the Givens rotations so far and a new one, which also gives the
//   residual estimate |g_{j+1}| without forming x;
//   x = x0 + M^-1 V y, y solving the triangular system R y = g.
#include "src/cmfd/cmfd_gmres.hpp"

#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas1_update.hpp>
#include <KokkosSparse_spmv.hpp>
#include <KokkosSparse_sptrsv.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace keff {
// Named, not anonymous: nvcc refuses an extended lambda whose enclosing function has internal linkage.
namespace detail {

using GmresBasis = Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceMem>;
using GmresCoefficients = Kokkos::View<const Real*, DeviceMem>;

// p(i) = basis(:, i) . w for i < value_count: one pass over the rows summing an array, so that the sums
// are formed the way any Kokkos reduction forms them (the same bits for the same launch), where one
// dot product per column would cost a launch and a copy to the host each.
struct GmresProjection {
  using value_type = Real[];
  using size_type = int;
  int value_count;
  GmresBasis basis;
  Kokkos::View<const Real*, DeviceMem> w;

  KOKKOS_INLINE_FUNCTION void init(value_type sums) const {
    for (int i = 0; i < value_count; ++i) sums[i] = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type sums, const value_type other) const {
    for (int i = 0; i < value_count; ++i) sums[i] += other[i];
  }
  KOKKOS_INLINE_FUNCTION void operator()(int row, value_type sums) const {
    const Real wr = w(row);
    for (int i = 0; i < value_count; ++i) sums[i] += basis(row, i) * wr;
  }
};

void gmres_project(const DeviceExec& exec, const GmresBasis& basis, int count, const CmfdVector& w,
                   const Kokkos::View<Real*, DeviceMem>& p) {
  const auto out = Kokkos::subview(p, std::make_pair(0, count));
  Kokkos::parallel_reduce("keff::cmfd::gmres_project",
                          Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(basis.extent(0))),
                          GmresProjection{count, basis, w}, out);
}

// y = beta y + alpha basis(:, 0..count) c: each row sums its own columns, in order.
void gmres_combine(const DeviceExec& exec, const GmresBasis& basis, int count, const GmresCoefficients& c,
                   Real alpha, Real beta, const CmfdVector& y) {
  Kokkos::parallel_for(
      "keff::cmfd::gmres_combine", Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(basis.extent(0))),
      KOKKOS_LAMBDA(int row) {
        Real s = 0;
        for (int i = 0; i < count; ++i) s += basis(row, i) * c(i);
        y(row) = (beta == 0 ? Real(0) : beta * y(row)) + alpha * s;
      });
}

}  // namespace detail

namespace {
template <class View>
View gmres_view(const DeviceExec& exec, const char* what, int n) {
  return detail::cmfd_view<View>(exec, std::string("gmres_") + what, n);
}

}  // namespace

CmfdIlu::CmfdIlu(const DeviceExec& exec, const CmfdMatrix& lower, const CmfdMatrix& upper)
    : lower_(lower), upper_(upper), between_(detail::cmfd_view<CmfdVector>(exec, "ilu_between", lower.numRows())) {
  using KokkosSparse::Experimental::SPTRSVAlgorithm;
  lower_handle_.create_sptrsv_handle(SPTRSVAlgorithm::SEQLVLSCHD_TP1, lower.numRows(), true);
  upper_handle_.create_sptrsv_handle(SPTRSVAlgorithm::SEQLVLSCHD_TP1, upper.numRows(), false);
  KokkosSparse::sptrsv_symbolic(exec, &lower_handle_, lower_.graph.row_map, lower_.graph.entries);
  KokkosSparse::sptrsv_symbolic(exec, &upper_handle_, upper_.graph.row_map, upper_.graph.entries);
}

CmfdIlu::~CmfdIlu() {
  lower_handle_.destroy_sptrsv_handle();
  upper_handle_.destroy_sptrsv_handle();
}

void CmfdIlu::apply(const DeviceExec& exec, const CmfdMatrix&, const CmfdVector& x, const CmfdVector& y) const {
  DeviceExec space = exec;  // sptrsv_solve takes the space by non-const reference
  KokkosSparse::sptrsv_solve(space, &lower_handle_, lower_.graph.row_map, lower_.graph.entries, lower_.values, x,
                             between_);
  KokkosSparse::sptrsv_solve(space, &upper_handle_, upper_.graph.row_map, upper_.graph.entries, upper_.values,
                             between_, y);
}

CmfdGmres::CmfdGmres(const DeviceExec& exec, int rows, int restart)
    : restart_(restart),
      basis_(Kokkos::view_alloc(exec, "keff::cmfd::gmres_basis"), rows, restart + 1),
      w_(gmres_view<CmfdVector>(exec, "w", rows)),
      z_(gmres_view<CmfdVector>(exec, "z", rows)),
      residual_(gmres_view<CmfdVector>(exec, "residual", rows)),
      projection_(gmres_view<Kokkos::View<Real*, DeviceMem>>(exec, "projection", 2 * (restart + 1))),
      coefficients_(gmres_view<Kokkos::View<Real*, DeviceMem>>(exec, "coefficients", restart)),
      projection_host_("keff::cmfd::gmres_projection_host", 2 * (restart + 1)),
      coefficients_host_("keff::cmfd::gmres_coefficients_host", restart),
      hessenberg_(static_cast<std::size_t>(restart + 1) * restart),
      cosines_(restart),
      sines_(restart),
      rhs_(restart + 1) {}

bool CmfdGmres::arnoldi(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner, int j) {
  const auto column = [&](int k) { return Kokkos::subview(basis_, Kokkos::ALL, k); };
  // w = A M^-1 v_j
  if (preconditioner) {
    preconditioner->apply(exec, a, column(j), z_);
    KokkosSparse::spmv(exec, "N", 1.0, a, z_, 0.0, w_);
  } else {
    KokkosSparse::spmv(exec, "N", 1.0, a, column(j), 0.0, w_);
  }
  // Classical Gram-Schmidt, twice: the second pass takes back what rounding left of the first.
  const auto first = Kokkos::subview(projection_, std::make_pair(0, j + 1));
  const auto second = Kokkos::subview(projection_, std::make_pair(restart_ + 1, restart_ + 2 + j));
  detail::gmres_project(exec, basis_, j + 1, w_, first);
  detail::gmres_combine(exec, basis_, j + 1, first, -1.0, 1.0, w_);
  detail::gmres_project(exec, basis_, j + 1, w_, second);
  detail::gmres_combine(exec, basis_, j + 1, second, -1.0, 1.0, w_);
  const double w_norm = KokkosBlas::nrm2(exec, w_);
  Kokkos::deep_copy(exec, projection_host_, projection_);
  exec.fence();
  double column_norm2 = w_norm * w_norm;
  for (int i = 0; i <= j; ++i) {
    h(i, j) = projection_host_(i) + projection_host_(restart_ + 1 + i);
    column_norm2 += h(i, j) * h(i, j);
  }
  h(j + 1, j) = w_norm;
  // A Krylov space that stops growing (w_norm at rounding level) holds the solution: no v_{j+1}.
  const bool breakdown = !(w_norm > 1e-14 * std::sqrt(column_norm2));
  if (!breakdown) KokkosBlas::scal(exec, column(j + 1), 1.0 / w_norm, w_);
  return breakdown;
}

void CmfdGmres::rotate(int j) {
  for (int i = 0; i < j; ++i) {
    const double t = cosines_[i] * h(i, j) + sines_[i] * h(i + 1, j);
    h(i + 1, j) = -sines_[i] * h(i, j) + cosines_[i] * h(i + 1, j);
    h(i, j) = t;
  }
  const double r = std::hypot(h(j, j), h(j + 1, j));
  cosines_[j] = r > 0 ? h(j, j) / r : 1.0;
  sines_[j] = r > 0 ? h(j + 1, j) / r : 0.0;
  h(j, j) = r;
  h(j + 1, j) = 0;
  rhs_[j + 1] = -sines_[j] * rhs_[j];
  rhs_[j] = cosines_[j] * rhs_[j];
}

void CmfdGmres::update(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner, int steps,
                       const CmfdVector& x) {
  // y from R y = g (back substitution), then x += M^-1 V y.
  for (int i = steps - 1; i >= 0; --i) {
    double s = rhs_[i];
    for (int k = i + 1; k < steps; ++k) s -= h(i, k) * coefficients_host_(k);
    coefficients_host_(i) = h(i, i) != 0 ? s / h(i, i) : 0.0;
  }
  Kokkos::deep_copy(exec, coefficients_, coefficients_host_);
  if (preconditioner) {
    detail::gmres_combine(exec, basis_, steps, coefficients_, 1.0, 0.0, w_);
    preconditioner->apply(exec, a, w_, z_);
    KokkosBlas::axpy(exec, 1.0, z_, x);
  } else {
    detail::gmres_combine(exec, basis_, steps, coefficients_, 1.0, 1.0, x);
  }
}

CmfdGmres::Cycle CmfdGmres::cycle(const DeviceExec& exec, const CmfdMatrix& a, const CmfdPreconditioner* preconditioner,
                                  const CmfdVector& b, const CmfdVector& x, double tolerance, double reduction) {
  Cycle c;
  const double b_norm = KokkosBlas::nrm2(exec, b);
  if (b_norm == 0) {
    Kokkos::deep_copy(exec, x, 0.0);
    c.converged = true;
    return c;
  }
  KokkosSparse::spmv(exec, "N", 1.0, a, x, 0.0, w_);
  KokkosBlas::update(exec, 1.0, b, -1.0, w_, 0.0, residual_);
  const double beta = KokkosBlas::nrm2(exec, residual_);
  c.relative_residual = beta / b_norm;
  tolerance = std::max(tolerance, reduction * c.relative_residual);
  c.target = tolerance;
  if (!(c.relative_residual >= tolerance)) {  // NaN falls through to the failure below
    c.converged = c.relative_residual < tolerance;
    if (!c.converged) c.failure = "GMRES: the residual is not a number";
    return c;
  }
  KokkosBlas::scal(exec, Kokkos::subview(basis_, Kokkos::ALL, 0), 1.0 / beta, residual_);
  std::fill(rhs_.begin(), rhs_.end(), 0.0);
  rhs_[0] = beta;

  int steps = 0;
  for (int j = 0; j < restart_; ++j) {
    const bool breakdown = arnoldi(exec, a, preconditioner, j);
    steps = j + 1;
    rotate(j);
    const double estimate = std::abs(rhs_[j + 1]) / b_norm;
    if (std::isnan(estimate)) {
      c.failure = "GMRES: the residual is not a number";
      c.iterations = steps;
      return c;
    }
    if (estimate < tolerance || breakdown) break;
  }
  update(exec, a, preconditioner, steps, x);
  KokkosSparse::spmv(exec, "N", 1.0, a, x, 0.0, w_);
  KokkosBlas::update(exec, 1.0, b, -1.0, w_, 0.0, residual_);
  c.iterations = steps;
  c.relative_residual = KokkosBlas::nrm2(exec, residual_) / b_norm;
  c.converged = c.relative_residual < tolerance;
  if (std::isnan(c.relative_residual)) c.failure = "GMRES: the residual is not a number";
  return c;
}

}  // namespace keff
