// CMFD power iteration on the device: keff's restarted GMRES (cmfd_gmres.hpp) with ILU(0) from
// KokkosSparse's spiluk for the inner solves, KokkosSparse spmv and KokkosBlas for the rest. Everything
// is allocated in the constructor; a solve allocates nothing.
//
// GMRES runs one restart cycle at a time, each from the iterate the last one left, so that the solve
// can ask between cycles whether to stop. One cycle of a large system can take seconds; all of them,
// minutes.
#include "src/cmfd/cmfd_solver.hpp"

#include "src/cmfd/cmfd_gauss_seidel.hpp"
#include "src/cmfd/cmfd_gmres.hpp"
#include "src/cmfd/cmfd_multigrid.hpp"
#include "src/cmfd/cmfd_operator.hpp"
#include "src/cmfd/cmfd_shift.hpp"

#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas1_sum.hpp>
#include <KokkosBlas1_update.hpp>
#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spiluk.hpp>
#include <KokkosSparse_spmv.hpp>

#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace keff {
namespace detail {

using CmfdKernelHandle =
    KokkosKernels::Experimental::KokkosKernelsHandle<int, int, Real, DeviceExec, DeviceMem, DeviceMem>;

struct CellSource {
  double entropy = 0;   // Shannon entropy (bits) of the cells' source
  double negative = 0;  // the magnitude of the negative entries of the source, whose total is 1
};

// Per coarse cell, the source summed over groups; its Shannon entropy in bits, and how much of the
// source (per group and cell) is negative: a fundamental mode has none.
CellSource cmfd_cell_source(const DeviceExec& exec, int groups, Kokkos::View<const Real*, DeviceMem> source,
                            Kokkos::View<Real*, DeviceMem> cell_source) {
  const int n = static_cast<int>(cell_source.extent(0));
  CellSource r;
  Kokkos::parallel_reduce(
      "keff::cmfd::cell_source", Kokkos::RangePolicy<DeviceExec>(exec, 0, n),
      KOKKOS_LAMBDA(int c, double& h, double& negative) {
        Real s = 0;
        for (int g = 0; g < groups; ++g) {
          const Real v = source(g * n + c);
          s += v;
          if (v < 0) negative -= v;
        }
        cell_source(c) = s;
        if (s > 0) h -= s * Kokkos::log2(s);
      },
      r.entropy, r.negative);
  return r;
}

// The weight of the negative entries of `source` (a source normalised to a sum of 1 gives its share).
double negative_weight(const DeviceExec& exec, Kokkos::View<const Real*, DeviceMem> source) {
  double negative = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::negative_weight", Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(source.extent(0))),
      KOKKOS_LAMBDA(int i, double& sum) {
        if (source(i) < 0) sum -= source(i);
      },
      negative);
  return negative;
}

// The largest ratio now(i) / before(i) over the rows where before(i) > 0: for a step now = c B before
// with B >= 0, c B's Collatz-Wielandt bound (no eigenvalue of B exceeds it / c). 0 when no row counts.
double cmfd_growth(const DeviceExec& exec, Kokkos::View<const Real*, DeviceMem> now,
                   Kokkos::View<const Real*, DeviceMem> before) {
  double growth = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::growth", Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(now.extent(0))),
      KOKKOS_LAMBDA(int i, double& largest) {
        if (before(i) > 0) largest = Kokkos::fmax(largest, now(i) / before(i));
      },
      Kokkos::Max<double>(growth));
  return growth;
}

// A source with more negative weight than this (of a total of 1) is a mixed-sign iterate, not a mode.
constexpr double max_negative_source = 1e-9;
// What a user can do about a coarse operator that is not positive (its source vanishes or changes sign):
// it is drawn from too few events in some of its cells and groups.
constexpr const char* noisy_operator_remedy =
    " (the coarse operator is drawn from too few events in some cells and groups: more particles, a larger "
    "[cmfd] min_collisions, fewer coarse cells or groups, or a later [cmfd] begin)";
// A converged k_cmfd this far from the balance of the tallies it was built from (relative) is warned
// about: before the source converges the two differ by design (CMFD finds the fundamental mode the
// batch's source is not yet: 1.13 against 0.80 in the first batch of examples/cmfd_slab_2g.toml), but by
// half, as 100 coarse groups at small particle counts gave (0.2 against 0.51), the coarse tallies
// describe their noise more than the problem.
constexpr double max_balance_disagreement = 0.5;

}  // namespace detail

struct CmfdSolver::Impl {
  CmfdOptions options;
  CmfdOperator op;  // with the mesh and the group count
  CmfdMatrix shifted;  // M - F / k_s for the Wielandt shift: M's graph, values of its own
  detail::CmfdKernelHandle handle;  // ILU(0)'s symbolic and numeric factorisation
  CmfdMatrix ilu_lower, ilu_upper;
  std::unique_ptr<CmfdPreconditioner> named;  // what [cmfd.solver] preconditioner names; "auto": Gauss-Seidel
  std::unique_ptr<CmfdPreconditioner> multigrid;  // "auto" only: for the solves whose M asks for it
  CmfdPreconditioner* preconditioner = nullptr;  // this solve's (choose_preconditioner)
  CmfdGmres krylov;
  CmfdVector phi, source, next_source, rhs, scratch, cell_source;
  // The warm start: the last converged solve's flux, and the one before, so that a solve the caller
  // abandons after it converged (another rank's signal) can be taken back.
  struct Warm {
    CmfdVector flux;
    bool set = false;
  } warm, warm_before;
  bool warm_changed = false;  // by the last solve

  Impl(const DeviceExec& exec, const CmfdMesh& m, int g, const CmfdOptions& o);
  double first_guess(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies);
  double warm_guess(const DeviceExec& exec);
  double starting_k(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, double balance);
  void judge(const DeviceExec& exec, double balance, CmfdResult& result);
  void remember(const DeviceExec& exec);
  void choose_preconditioner(const DeviceExec& exec);
  void factor(const DeviceExec& exec, const CmfdMatrix& a);
  int gmres(const DeviceExec& exec, const CmfdMatrix& a, const CmfdStop& stop, CmfdResult& result);
};

CmfdSolver::Impl::Impl(const DeviceExec& exec, const CmfdMesh& m, int g, const CmfdOptions& o)
    : options(o), op(allocate_cmfd_operator(exec, m, g)), krylov(exec, op.n_rows(), o.gmres_restart) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::allocate");
  const int rows = op.n_rows();
  const int nnz = static_cast<int>(op.loss.nnz());
  using detail::cmfd_view;
  using Values = CmfdMatrix::values_type;
  phi = cmfd_view<CmfdVector>(exec, "flux", rows);
  source = cmfd_view<CmfdVector>(exec, "source", rows);
  next_source = cmfd_view<CmfdVector>(exec, "next_source", rows);
  rhs = cmfd_view<CmfdVector>(exec, "rhs", rows);
  scratch = cmfd_view<CmfdVector>(exec, "scratch", rows);
  cell_source = cmfd_view<CmfdVector>(exec, "cell_source", m.n_cells());
  warm.flux = cmfd_view<CmfdVector>(exec, "warm_flux", rows);
  warm_before.flux = cmfd_view<CmfdVector>(exec, "warm_flux_before", rows);
  if (options.shift > 0 || options.adaptive_shift) {
    shifted = CmfdMatrix("keff::cmfd::shifted", rows, rows, nnz, cmfd_view<Values>(exec, "shifted_values", nnz),
                         op.loss.graph.row_map, op.loss.graph.entries);
  }
  if (options.preconditioner == CmfdPreconditioning::ilu) {
    // ILU(0) keeps the pattern of M: the graph is structurally symmetric, so L (with its unit diagonal)
    // and U (with the diagonal) each hold half of the off-diagonal entries plus one per row.
    const int half = (nnz - rows) / 2 + rows;
    const auto l_rows = cmfd_view<CmfdRowMap>(exec, "ilu_lower_rows", rows + 1);
    const auto u_rows = cmfd_view<CmfdRowMap>(exec, "ilu_upper_rows", rows + 1);
    const auto l_cols = cmfd_view<CmfdEntries>(exec, "ilu_lower_entries", half);
    const auto u_cols = cmfd_view<CmfdEntries>(exec, "ilu_upper_entries", half);
    handle.create_spiluk_handle(KokkosSparse::Experimental::SPILUKAlgorithm::SEQLVLSCHD_TP1, rows, half, half);
    auto a_rows = op.loss.graph.row_map;
    auto a_cols = op.loss.graph.entries;
    exec.fence();  // Kokkos Kernels' ILU runs on the default instance
    KokkosSparse::spiluk_symbolic(&handle, 0, a_rows, a_cols, l_rows, l_cols, u_rows, u_cols);
    const auto* ilu = handle.get_spiluk_handle();
    if (static_cast<int>(ilu->get_nnzL()) != half || static_cast<int>(ilu->get_nnzU()) != half) {
      throw std::logic_error("keff::cmfd: ILU(0) pattern differs from the graph of M");
    }
    ilu_lower = CmfdMatrix("keff::cmfd::ilu_lower", rows, rows, half, cmfd_view<Values>(exec, "ilu_lower_values", half),
                           l_rows, l_cols);
    ilu_upper = CmfdMatrix("keff::cmfd::ilu_upper", rows, rows, half, cmfd_view<Values>(exec, "ilu_upper_values", half),
                           u_rows, u_cols);
    named = std::make_unique<CmfdIlu>(exec, ilu_lower, ilu_upper);
  } else if (options.preconditioner == CmfdPreconditioning::gauss_seidel) {
    named = std::make_unique<CmfdGaussSeidel>(exec, m, g);
  } else if (options.preconditioner == CmfdPreconditioning::multigrid) {
    named = std::make_unique<CmfdMultigrid>(exec, m, g, op.loss);
  } else if (options.preconditioner == CmfdPreconditioning::automatic) {
    named = std::make_unique<CmfdGaussSeidel>(exec, m, g);
    multigrid = std::make_unique<CmfdMultigrid>(exec, m, g, op.loss);
  }
}

// The tallied flux into phi and its fission source into source, both scaled so that the source sums to 1;
// returns k from the tallies' balance, sum(F phi) / sum(M phi), or 0 when nothing is produced.
double CmfdSolver::Impl::first_guess(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies) {
  tallied_cmfd_flux(exec, op.mesh, tallies, phi);
  KokkosSparse::spmv(exec, "N", 1.0, op.production, phi, 0.0, source);
  KokkosSparse::spmv(exec, "N", 1.0, op.loss, phi, 0.0, scratch);
  const double produced = KokkosBlas::sum(exec, source);
  const double lost = KokkosBlas::sum(exec, scratch);
  if (!(produced > 0)) return 0;
  KokkosBlas::scal(exec, phi, 1.0 / produced, phi);
  KokkosBlas::scal(exec, source, 1.0 / produced, source);
  return lost > 0 ? produced / lost : 1.0;
}

// The last converged flux into phi and its fission source into source, scaled so that the source sums
// to 1; returns k from that flux's balance under this operator, sum(F phi) / sum(M phi), or 0 when it
// produces or loses nothing (the cells it lived in all left out).
double CmfdSolver::Impl::warm_guess(const DeviceExec& exec) {
  Kokkos::deep_copy(exec, phi, warm.flux);
  KokkosSparse::spmv(exec, "N", 1.0, op.production, phi, 0.0, source);
  KokkosSparse::spmv(exec, "N", 1.0, op.loss, phi, 0.0, scratch);
  const double produced = KokkosBlas::sum(exec, source);
  const double lost = KokkosBlas::sum(exec, scratch);
  if (!(produced > 0) || !std::isfinite(produced) || !(lost > 0) || !std::isfinite(lost)) return 0;
  KokkosBlas::scal(exec, phi, 1.0 / produced, phi);
  KokkosBlas::scal(exec, source, 1.0 / produced, source);
  return produced / lost;
}

// sum(F phi) stays 1 from here on: sum(F phi') is then the ratio the power iteration needs. With a warm
// start the flux is the last solve's and k its balance under this window's operator: the answer's k
// where the flux is already the answer's (the window changes little from batch to batch), so that the
// first step starts from a small residual. The balance of the tallies is not: it differs from k_cmfd by
// the tallies' imbalance, and an inexact first step from the right flux with that k moves the flux away
// again. 0: no fission source.
double CmfdSolver::Impl::starting_k(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, double balance) {
  if (balance == 0 || !options.warm_start || !warm.set) return balance;
  const double warm_k = warm_guess(exec);
  if (warm_k > 0) return warm_k;
  first_guess(exec, tallies);
  return balance;
}

// The verdict on an iteration that ended: converged, and then a non-negative fission source near the
// tallies' balance (`balance`), or the failure or warning that says why not; its cell source's entropy.
void CmfdSolver::Impl::judge(const DeviceExec& exec, double balance, CmfdResult& result) {
  const CmfdOptions& o = options;
  const double k = result.k;
  result.converged =
      result.failure.empty() && result.k_change < o.k_tolerance && result.source_change < o.source_tolerance;
  if (!result.converged && result.failure.empty()) {
    result.failure = "no convergence in " + std::to_string(o.max_outer) + " outer iterations (a larger [cmfd.solver] "
                     "max_iterations, or looser k_tolerance and source_tolerance)";
  }
  const detail::CellSource cells = detail::cmfd_cell_source(exec, op.groups, source, cell_source);
  result.entropy = cells.entropy;
  if (result.converged && cells.negative > detail::max_negative_source) {
    result.failure = "the CMFD source is negative in places (" + std::to_string(cells.negative) +
                     " of its total 1): a mixed-sign iterate, not the fundamental mode" + detail::noisy_operator_remedy;
  } else if (result.converged && std::abs(k - balance) > detail::max_balance_disagreement * balance) {
    result.warning = "k_cmfd " + std::to_string(k) + " lies more than " +
                     std::to_string(static_cast<int>(100 * detail::max_balance_disagreement)) +
                     "% from the balance of the tallies it was built from (" + std::to_string(balance) +
                     "): the coarse tallies may be too noisy (fewer coarse groups or cells, or more particles)";
  }
}

// A converged solve's flux becomes the warm start; the one before is kept for take_back_solve.
void CmfdSolver::Impl::remember(const DeviceExec& exec) {
  std::swap(warm, warm_before);
  Kokkos::deep_copy(exec, warm.flux, phi);
  warm.set = true;
  warm_changed = true;
}

// This solve's preconditioner: the one named, or with "auto" the multigrid where M's rows ask for it
// (cmfd_multigrid_pays) and Gauss-Seidel elsewhere. Chosen from M, not from the shifted matrix, which is
// near singular by design.
void CmfdSolver::Impl::choose_preconditioner(const DeviceExec& exec) {
  preconditioner = multigrid && cmfd_multigrid_pays(exec, op.loss) ? multigrid.get() : named.get();
}

// What the preconditioner derives from `a` (M or the shifted matrix, on M's graph): ILU(0)'s L and U, the
// multigrid's levels.
void CmfdSolver::Impl::factor(const DeviceExec& exec, const CmfdMatrix& a) {
  if (preconditioner) preconditioner->prepare(exec, a);
  if (options.preconditioner != CmfdPreconditioning::ilu) return;
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::ilu");
  auto a_rows = a.graph.row_map;
  auto a_cols = a.graph.entries;
  auto a_values = a.values;
  auto l_rows = ilu_lower.graph.row_map;
  auto l_cols = ilu_lower.graph.entries;
  auto l_values = ilu_lower.values;
  auto u_rows = ilu_upper.graph.row_map;
  auto u_cols = ilu_upper.graph.entries;
  auto u_values = ilu_upper.values;
  exec.fence();
  KokkosSparse::spiluk_numeric(&handle, 0, a_rows, a_cols, a_values, l_rows, l_cols, l_values, u_rows, u_cols,
                               u_values);
}

// a phi = rhs by GMRES(restart) from the current phi, at most gmres_max_restarts + 1 cycles; returns
// the iterations. Notes a failure in `result`, or that `stop` asked to stop between two cycles.
int CmfdSolver::Impl::gmres(const DeviceExec& exec, const CmfdMatrix& a, const CmfdStop& stop, CmfdResult& result) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::gmres");
  int iterations = 0;
  double relative_residual = 0;
  double tolerance = options.gmres_tolerance, reduction = options.gmres_reduction;
  for (int cycle = 0; cycle <= options.gmres_max_restarts; ++cycle) {
    if (cycle > 0 && stop && stop()) {
      result.interrupted = true;
      return iterations;
    }
    const CmfdGmres::Cycle c = krylov.cycle(exec, a, preconditioner, rhs, phi, tolerance, reduction);
    tolerance = c.target;  // later cycles aim where the first did
    reduction = 0;
    iterations += c.iterations;
    if (!c.failure.empty()) {
      result.failure = "GMRES failed: " + c.failure;
      return iterations;
    }
    if (c.converged) return iterations;
    relative_residual = c.relative_residual;
  }
  result.failure = "GMRES did not reach its tolerance (relative residual " + std::to_string(relative_residual) +
                   "; a larger [cmfd.solver] gmres_max_restarts or gmres_tolerance, or another preconditioner)";
  return iterations;
}

namespace {
// A problem or options no solve could honour are a caller's error, found before anything is allocated.
const CmfdOptions& checked(const CmfdMesh& mesh, int groups, const CmfdOptions& o) {
  const auto require = [](bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("keff::cmfd: ") + what);
  };
  require(groups >= 1 && mesh.grid.shape[0] >= 1 && mesh.grid.shape[1] >= 1 && mesh.grid.shape[2] >= 1,
          "the mesh needs at least one cell along each axis and one group");
  require(o.k_tolerance > 0 && o.source_tolerance > 0 && o.gmres_tolerance > 0, "tolerances must be positive");
  require(o.max_outer >= 1, "max_outer must be at least 1");
  require(o.gmres_restart >= 1, "gmres_restart must be at least 1");
  require(o.gmres_max_restarts >= 0, "gmres_max_restarts must not be negative");
  require(o.shift >= 0, "the Wielandt shift must not be negative");
  return o;
}
}  // namespace

CmfdSolver::CmfdSolver(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const CmfdOptions& options)
    : impl_(std::make_unique<Impl>(exec, mesh, groups, checked(mesh, groups, options))) {}
CmfdSolver::~CmfdSolver() = default;
CmfdSolver::CmfdSolver(CmfdSolver&&) noexcept = default;
CmfdSolver& CmfdSolver::operator=(CmfdSolver&&) noexcept = default;

const CmfdMesh& CmfdSolver::mesh() const { return impl_->op.mesh; }
int CmfdSolver::groups() const { return impl_->op.groups; }
const CmfdOptions& CmfdSolver::options() const { return impl_->options; }
CmfdSolver::Vector CmfdSolver::flux() const { return impl_->phi; }
CmfdSolver::Vector CmfdSolver::source() const { return impl_->source; }
CmfdSolver::Vector CmfdSolver::cell_source() const { return impl_->cell_source; }
CmfdSolver::FaceCoefficients CmfdSolver::dtilde() const { return impl_->op.dtilde; }
CmfdSolver::FaceCoefficients CmfdSolver::dhat() const { return impl_->op.dhat; }

void CmfdSolver::apply_loss(const DeviceExec& exec, Vector x, const Kokkos::View<Real*, DeviceMem>& y) const {
  KokkosSparse::spmv(exec, "N", 1.0, impl_->op.loss, x, 0.0, y);
}
void CmfdSolver::apply_production(const DeviceExec& exec, Vector x, const Kokkos::View<Real*, DeviceMem>& y) const {
  KokkosSparse::spmv(exec, "N", 1.0, impl_->op.production, x, 0.0, y);
}

namespace {
// A solve that failed reports no k and no entropy (NaN: null in the JSON), never a number that looks
// like a result; its iterations, changes and failure stay for diagnosis.
CmfdResult failed(CmfdResult r) {
  r.converged = false;
  r.k = std::numeric_limits<double>::quiet_NaN();
  r.entropy = std::numeric_limits<double>::quiet_NaN();
  return r;
}
}  // namespace

CmfdResult CmfdSolver::solve(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, const CmfdStop& stop) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::solve");
  Impl& s = *impl_;
  if (tallies.n_groups() != s.op.groups || tallies.n_cells() != s.op.mesh.n_cells() ||
      static_cast<int>(tallies.current.extent(2)) != s.op.mesh.n_faces()) {
    throw std::invalid_argument("keff::cmfd: tallies shaped for another mesh or group count than the solver's");
  }
  const CmfdOptions& o = s.options;
  CmfdResult result;
  assemble_cmfd_operator(exec, tallies, o.use_dhat, s.op);

  s.warm_changed = false;
  const double balance = s.first_guess(exec, tallies);
  double k = s.starting_k(exec, tallies, balance);
  if (k == 0) {
    result.failure = "no fission source in the CMFD tallies (every coarse cell left out: fewer collisions than "
                     "[cmfd] min_collisions, or no fission scored in the mesh)";
    return failed(result);
  }
  s.choose_preconditioner(exec);
  result.multigrid = dynamic_cast<const CmfdMultigrid*>(s.preconditioner) != nullptr;
  s.factor(exec, s.op.loss);

  // The Wielandt shift (src/cmfd/cmfd_shift.hpp).
  WielandtShift shift(o);
  bool factored_shifted = false;  // the preconditioner holds the shifted matrix's factors
  while (result.outer_iterations < o.max_outer) {
    if (stop && stop()) {
      result.interrupted = true;
      break;
    }
    ++result.outer_iterations;
    // Unshifted: M phi' = (1/k) F phi. Shifted: (M - F/k_s) phi' = (1/k - 1/k_s) F phi.
    const double k_shift = shift.next(k);
    const bool shifted = std::isfinite(k_shift);
    const double coefficient = 1.0 / k - 1.0 / k_shift;
    if (shifted) {
      KokkosBlas::update(exec, 1.0, s.op.loss.values, -1.0 / k_shift, s.op.production.values, 0.0, s.shifted.values);
      s.factor(exec, s.shifted);
    } else if (factored_shifted) {
      s.factor(exec, s.op.loss);
    }
    factored_shifted = shifted;
    Kokkos::deep_copy(exec, s.scratch, s.phi);  // the step's start: for the bound, and to undo a lost shift
    KokkosBlas::scal(exec, s.rhs, coefficient, s.source);
    result.inner_iterations += s.gmres(exec, shifted ? s.shifted : s.op.loss, stop, result);
    if (result.interrupted || (!result.failure.empty() && !shifted)) break;
    if (!result.failure.empty()) {  // a shifted system too near singular for GMRES: as for a lost sign
      result.failure.clear();
      Kokkos::deep_copy(exec, s.phi, s.scratch);
      shift.drop();
      continue;
    }

    KokkosSparse::spmv(exec, "N", 1.0, s.op.production, s.phi, 0.0, s.next_source);
    const double ratio = KokkosBlas::sum(exec, s.next_source);  // sum(F phi') / sum(F phi)
    if (shifted && !(ratio > 0)) {
      Kokkos::deep_copy(exec, s.phi, s.scratch);
      shift.drop();
      continue;
    }
    if (!(ratio > 0) || !std::isfinite(ratio)) {
      result.failure = std::string("the CMFD fission source vanished") + detail::noisy_operator_remedy;
      break;
    }
    // 1/k' = 1/k_s + (1/k - 1/k_s) / ratio, which is k ratio unshifted; the bound likewise with the growth.
    const auto eigenvalue = [&](double r) { return shifted ? 1.0 / (1.0 / k_shift + coefficient / r) : k * r; };
    const double k_next = eigenvalue(ratio);
    double bound = std::numeric_limits<double>::infinity();
    if (shift.adaptive()) {
      const double growth = detail::cmfd_growth(exec, s.phi, s.scratch);
      if (growth > 0 && std::isfinite(growth)) bound = std::max(k_next, eigenvalue(growth));
    }
    KokkosBlas::scal(exec, s.phi, 1.0 / ratio, s.phi);
    KokkosBlas::scal(exec, s.next_source, 1.0 / ratio, s.next_source);
    // A shifted step whose source turned negative anywhere had k_s below the operator's k, where the
    // shifted inverse is no longer non-negative and the iteration heads for a mode of mixed sign: undone,
    // as a lost sign of the whole is. With a fixed shift (the slab's 0.02), taken once k seemed settled,
    // 9 of 20 seeds at 16000 particles ended a solve on such a mode ("a mixed-sign iterate") or lost the
    // source in the unshifted steps after it.
    if (shifted && detail::negative_weight(exec, s.next_source) > detail::max_negative_source) {
      Kokkos::deep_copy(exec, s.phi, s.scratch);
      shift.drop();
      continue;
    }
    KokkosBlas::update(exec, 1.0, s.next_source, -1.0, s.source, 0.0, s.scratch);
    result.source_change = KokkosBlas::nrm2(exec, s.scratch) / KokkosBlas::nrm2(exec, s.next_source);
    result.k_change = std::abs(k_next - k) / k_next;
    shift.after_step(k, k_next, bound);
    k = k_next;
    std::swap(s.source, s.next_source);
    if (result.k_change < o.k_tolerance && result.source_change < o.source_tolerance) break;
  }
  if (result.interrupted) {
    result.failure = "interrupted";
    return failed(result);
  }
  result.k = k;
  s.judge(exec, balance, result);
  if (!result.failure.empty()) return failed(result);
  s.remember(exec);
  return result;
}

void CmfdSolver::take_back_solve() {
  Impl& s = *impl_;
  if (!s.warm_changed) return;
  std::swap(s.warm, s.warm_before);
  s.warm_changed = false;
}

std::optional<CmfdWarmStart> CmfdSolver::warm_start() const {
  const Impl& s = *impl_;
  if (!s.warm.set) return std::nullopt;
  CmfdWarmStart w;
  w.flux.resize(s.warm.flux.extent(0));
  Kokkos::deep_copy(Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(w.flux.data(), w.flux.size()),
                    s.warm.flux);
  return w;
}

void CmfdSolver::set_warm_start(const CmfdWarmStart& w) {
  Impl& s = *impl_;
  if (w.flux.size() != s.warm.flux.extent(0)) {
    throw std::invalid_argument("keff::cmfd: a warm start of " + std::to_string(w.flux.size()) +
                                " values for a system of " + std::to_string(s.warm.flux.extent(0)));
  }
  Kokkos::deep_copy(s.warm.flux, Kokkos::View<const Real*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                     w.flux.data(), w.flux.size()));
  s.warm.set = true;
  s.warm_changed = false;
}

}  // namespace keff
