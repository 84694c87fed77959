// CMFD over a run: the batch's scores to the host and summed over ranks (one MPI call of integers), the
// tally window kept as integer sums, the sums as the solver's tallies on the device, and the solve.
#include "src/cmfd/cmfd_accelerator.hpp"

#include "io/printable.hpp"
#include "io/test_point.hpp"
#include "src/cmfd/cmfd_solver.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/memory_check.hpp"
#include "src/host/run_error.hpp"
#include "src/params/device_memory.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace keff {
namespace {

std::string box_text(const CmfdMesh& m) {
  char text[160];
  const RegularMesh& g = m.grid;
  std::snprintf(text, sizeof text, "[%g, %g, %g] to [%g, %g, %g]", g.edge(0, 0), g.edge(1, 0), g.edge(2, 0),
                g.edge(0, g.shape[0]), g.edge(1, g.shape[1]), g.edge(2, g.shape[2]));
  return text;
}

}  // namespace

CmfdFootprint cmfd_footprint(const model::Cmfd& input, const CmfdMesh& mesh, int groups) {
  const double g = groups, cells = mesh.n_cells();
  const auto& n = mesh.grid.shape;
  const double inner_faces = double(n[0] - 1) * n[1] * n[2] + double(n[0]) * (n[1] - 1) * n[2] +
                             double(n[0]) * n[1] * (n[2] - 1);
  CmfdFootprint f;
  f.unknowns = g * cells;
  f.entries = g * g * cells + 2 * g * inner_faces;
  const double values = cmfd_tally_values(mesh, groups);
  double kept = 0;  // sets of scores a window keeps beside its sum: each batch, or an expanding one's two parts
  if (input.window == model::CmfdWindow::rolling) kept = input.window_size;
  if (input.window == model::CmfdWindow::expanding) kept = 2;
  f.host_bytes = (2 + kept) * values * sizeof(Fixed) + values * sizeof(Real);  // + the solver's copy, as Real
  const double matrix = f.entries * (sizeof(Real) + sizeof(int)) + (f.unknowns + 1) * sizeof(int);
  // The multigrid's levels (src/cmfd/cmfd_multigrid.hpp) each have at most two thirds of the rows of the
  // one above (a mesh of 3 cells along its one merged axis has 2 below): their matrices together at most
  // two more M, their three vectors each at most two, and their maps of the entries above an int per
  // entry of M and of those two.
  const bool multigrid = input.solver.preconditioner == CmfdPreconditioning::multigrid ||
                         input.solver.preconditioner == CmfdPreconditioning::automatic;
  const bool shifted = input.solver.shift > 0 || input.solver.adaptive_shift;
  const double matrices = 2 + (shifted ? 1 : 0) + (input.solver.preconditioner == CmfdPreconditioning::ilu ? 1 : 0) +
                          (multigrid ? 2 : 0);
  // flux, source, next source, rhs, scratch, two warm-start fluxes; GMRES' basis (restart + 1 columns), its
  // three work vectors and the ILU solve's intermediate one (src/cmfd/cmfd_gmres.hpp)
  const double vectors = 7 * f.unknowns + (input.solver.gmres_restart + 5.0) * f.unknowns + (multigrid ? 6 : 0) * f.unknowns;
  f.device_bytes = values * sizeof(Real) + matrices * matrix + vectors * sizeof(Real) + 6 * g * cells * sizeof(Real) +
                   (multigrid ? 3 : 0) * f.entries * sizeof(int);
  if (input.solver.preconditioner == CmfdPreconditioning::ilu) {
    // ILU(0)'s own work in Kokkos Kernels (spiluk, sptrsv): a row of ints per row of M for each row of its
    // largest level set, which in M's order (groups slowest, then z, y, x) holds at most every group's cells
    // on one diagonal plane of the mesh, G min(nx ny, ny nz, nz nx); and the level sets' bookkeeping, 21
    // arrays of an int per row and 5 of one per entry of L (counted on 34 x 34 x 4 cells, 2 groups), 24 and 6
    // here for a margin.
    const double widest_level = g * std::min({double(n[0]) * n[1], double(n[1]) * n[2], double(n[2]) * n[0]});
    const double lower_entries = (f.entries - f.unknowns) / 2 + f.unknowns;
    f.device_bytes += (widest_level * f.unknowns + 24 * (f.unknowns + 1) + 6 * lower_entries) * sizeof(int);
  }
  return f;
}

namespace {
// Throws RunError on every rank (or warns, when allowed) when CMFD would not fit; collective.
void check_cmfd_memory(const DeviceExec& exec, const model::Cmfd& input, const CmfdMesh& mesh, int groups,
                       const Communicator& comm, bool allow) {
  const CmfdFootprint f = cmfd_footprint(input, mesh, groups);
  // Every rank holds the whole coarse problem: more ranks do not help.
  const char* remedy = "fewer [cmfd] groups or cells, a shorter window (window_size, or window = \"expanding\", which keeps two sums)";
  const double device = static_cast<double>(device_memory_available(exec));
  if (std::is_same_v<DeviceMem, Kokkos::HostSpace>) {
    check_memory(comm, "CMFD", {{"tally window", f.host_bytes}, {"coarse operators and solver", f.device_bytes}},
                 device, allow, remedy);
  } else {
    check_memory(comm, "CMFD's tally window", {{"tally window", f.host_bytes}},
                 static_cast<double>(host_memory_available()), allow, remedy);
    check_memory(comm, "CMFD's solver", {{"coarse operators and solver", f.device_bytes}}, device, allow, remedy);
  }
}

// What the (group, cell)s left out of a solve take from it: their share of the window's fission production
// (track length), and of the neutrons born (analog): those born into them or scattered into them from a
// (group, cell) the solve keeps, which the solve loses.
struct LeftOut {
  double production = 0, neutrons = 0;
};

// Consecutive batches of the window, summed: a rolling window keeps each batch alone, an expanding one its
// two parts (model::expanding_window).
struct KeptBatches {
  int last = 0;   // the last batch summed
  int count = 0;  // batches summed, ending with `last`
  std::vector<Fixed> scores;
  int first() const { return last - count + 1; }
};

// a + sign * b, wrapping: exact for sums that were in range before (add_to_sum checks the window's).
void add_wrapping(std::vector<Fixed>& a, const Fixed* b, int sign) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto v = static_cast<std::uint64_t>(b[i]);
    a[i] = static_cast<Fixed>(sign > 0 ? static_cast<std::uint64_t>(a[i]) + v : static_cast<std::uint64_t>(a[i]) - v);
  }
}
}  // namespace

struct CmfdAccelerator::Impl {
  model::Cmfd input;
  const Communicator& comm;
  CmfdSolver solver;
  // The window's sums as the solver reads them, and their host mirror.
  CmfdTallies<DeviceMem> tallies;
  CmfdTallies<Kokkos::HostSpace> tallies_host;
  std::size_t values = 0;        // in CmfdTallies' arrays, in their for_each_view order
  int generations_per_batch = 1;  // for messages: the window's batches are the run's generations
  std::vector<Fixed> batch;      // [values + 1]: one batch's scores, then its fission sites outside the mesh
  std::vector<Fixed> sum;        // [values]: over the window
  std::deque<KeptBatches> kept;  // the window's batches, oldest first (none: the sum alone)

  Impl(const DeviceExec& exec, const model::Cmfd& c, const CmfdMesh& mesh, int groups, const Communicator& world)
      : input(c), comm(world), solver(exec, mesh, groups, c.solver),
        tallies(allocate_cmfd_tallies(exec, mesh, groups, "window_")),
        tallies_host(allocate_cmfd_tallies(Kokkos::DefaultHostExecutionSpace(), mesh, groups, "window_host_")),
        values(tallies.size()), batch(values + 1), sum(values) {}

  void gather_batch(const DeviceExec& exec, const CmfdTally<DeviceMem>& scores);
  void add_to_sum(int batch_number, const std::vector<Fixed>& scores, int sign);
  // Uploads the window's sums; returns what the (group, cell)s left out take from the solve.
  LeftOut upload_sum(const DeviceExec& exec);
  // Keeps batch `number`'s scores in the window's parts; true when they joined the last part.
  bool keep(int number);
  // Whether the oldest part kept has left the window that ends with batch `number`.
  bool oldest_left(int number) const;
  void take_back(int current, bool joined, std::vector<KeptBatches>& dropped);
};

bool CmfdAccelerator::Impl::keep(int number) {
  if (input.window == model::CmfdWindow::expanding) {
    const int n = number - input.begin + 1;
    const model::ExpandingWindow w = model::expanding_window(n);
    // The part this batch belongs to: the batches after split, or, when it is split, the older part.
    const int part_first = input.begin - 1 + (n > w.split ? w.split + 1 : w.first);
    if (!kept.empty() && kept.back().first() == part_first) {
      add_wrapping(kept.back().scores, batch.data(), +1);
      kept.back().last = number;
      ++kept.back().count;
      return true;
    }
  }
  kept.push_back({number, 1, std::vector<Fixed>(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(values))});
  return false;
}

bool CmfdAccelerator::Impl::oldest_left(int number) const {
  if (kept.empty()) return false;
  if (input.window == model::CmfdWindow::rolling) return kept.size() > static_cast<std::size_t>(input.window_size);
  const model::ExpandingWindow w = model::expanding_window(number - input.begin + 1);
  return kept.front().last < input.begin - 1 + w.first;
}

// This rank's scores into `batch`, array by array, then summed over ranks.
void CmfdAccelerator::Impl::gather_batch(const DeviceExec& exec, const CmfdTally<DeviceMem>& scores) {
  Fixed* at = batch.data();
  for_each_cmfd_array([&](const auto& v) {
    using View = std::decay_t<decltype(v)>;
    const Kokkos::View<typename View::data_type, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(
        at, v.layout());
    Kokkos::deep_copy(exec, host, v);
    at += v.size();
  }, scores.scores);
  Kokkos::deep_copy(exec, Kokkos::View<Fixed, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(at), scores.sites_outside);
  exec.fence("keff::cmfd::gather_batch");
  comm.sum(batch.data(), static_cast<int>(batch.size()));
}

// sum += sign * scores, exactly, or RunError when a sum leaves the fixed point's range.
void CmfdAccelerator::Impl::add_to_sum(int batch_number, const std::vector<Fixed>& scores, int sign) {
  for (std::size_t i = 0; i < values; ++i) {
    if (sign > 0 ? __builtin_add_overflow(sum[i], scores[i], &sum[i]) : __builtin_sub_overflow(sum[i], scores[i], &sum[i])) {
      throw RunError(model::generation_name(batch_number, generations_per_batch) + ": a sum of CMFD's tally window passed " +
                     std::to_string(from_fixed<cmfd_fraction_bits>(std::numeric_limits<Fixed>::max())) +
                     ", the range of its fixed point (allowed: fewer particles per batch, or [cmfd] window = "
                     "\"rolling\" or \"expanding\", which sum fewer batches)");
    }
  }
}

// The window's sums, converted from fixed point, as the solver's tallies on the device. A (group, cell)
// with less collision weight than [cmfd] min_collisions is left out of the eigenproblem (its flux set to
// 0: cmfd_operator.cpp), as a cell without any is: a cell that a few neutrons reached, early on, has
// currents and outgoing-group shares from a handful of events, and with D-hat such a cell can hold an
// eigenmode of its own, far above the core's (README.md, "Left out"). Its neighbours see the albedo the
// tallies measured on the face between them.
LeftOut CmfdAccelerator::Impl::upload_sum(const DeviceExec& exec) {
  const Fixed* at = sum.data();
  for_each_cmfd_array([&](const auto& host) {
    Real* out = host.data();
    for (std::size_t i = 0; i < host.size(); ++i) out[i] = from_fixed<cmfd_fraction_bits>(at[i]);
    at += host.size();
  }, tallies_host);
  const int groups = tallies_host.n_groups(), cells = tallies_host.n_cells();
  const auto out = [&](int g, int c) { return tallies_host.total(g, c) < input.min_collisions; };
  // A (group, cell) left out has no flux in the solve: the fissions there are lost to it, and so is every
  // neutron that enters it, born there or scattered there from a (group, cell) the solve keeps.
  double production = 0, lost_production = 0, births = 0, lost_neutrons = 0;
  for (int c = 0; c < cells; ++c) {
    for (int g = 0; g < groups; ++g) {
      production += tallies_host.track_nu_fission(g, c);
      if (out(g, c)) lost_production += tallies_host.track_nu_fission(g, c);
      for (int h = 0; h < groups; ++h) {
        births += tallies_host.nu_fission(g, h, c);
        if (!out(h, c)) continue;
        lost_neutrons += tallies_host.nu_fission(g, h, c) + (out(g, c) ? 0.0 : tallies_host.scatter(g, h, c));
      }
    }
  }
  for (int g = 0; g < groups; ++g) {
    for (int c = 0; c < cells; ++c) {
      if (out(g, c)) tallies_host.flux(g, c) = 0;
    }
  }
  for_each_cmfd_array([&](const auto& device, const auto& host) { Kokkos::deep_copy(exec, device, host); }, tallies,
                      tallies_host);
  return {production > 0 ? lost_production / production : 0, births > 0 ? lost_neutrons / births : 0};
}

// Undoes add_batch's changes to the window: the batch subtracted and the parts it pushed out added back.
// Two's-complement wrap-around makes the undo exact whatever the order (every sum was in range before).
void CmfdAccelerator::Impl::take_back(int current, bool joined, std::vector<KeptBatches>& dropped) {
  add_wrapping(sum, batch.data(), -1);
  for (const auto& d : dropped) add_wrapping(sum, d.scores.data(), +1);
  if (joined) {
    add_wrapping(kept.back().scores, batch.data(), -1);
    --kept.back().last;
    --kept.back().count;
  } else if (!kept.empty() && kept.back().last == current) {
    kept.pop_back();
  }
  for (auto d = dropped.rbegin(); d != dropped.rend(); ++d) kept.push_front(std::move(*d));
}

namespace {

// A solve whose left-out (group, cell)s hold more than this share of the window's fission production
// (track-length nu-fission), or take more than this share of its neutrons (born into them, or scattered
// into them from the groups the solve keeps), is not attempted: its eigenproblem describes a part of the
// core only, and its k_cmfd says nothing of the whole. 100 coarse groups on the default benchmark's 81 pin
// cells at 2000 particles left out 92 to 100 % of the production for the first 14 batches, and the solves
// that converged gave k_cmfd 0.0001 to 0.04 against k 0.93. At 10^4 particles the production left out
// fell below 5 % by batch 7, but the fast groups of many cells, where fission neutrons are born, were still
// left out: a quarter of the neutrons vanished from the solve, which reported k_cmfd 0.73 to 0.90 against
// k 1.03 as converged. The slab of examples/cmfd_slab_2g.toml, spreading from one end, leaves out at most
// 0.4 % (2000 particles, min_collisions 100).
constexpr double max_left_out = 0.05;

CmfdResult left_out_failure(const LeftOut& left, double min_collisions) {
  CmfdResult r;
  r.k = r.entropy = std::numeric_limits<double>::quiet_NaN();
  char shares[96];
  std::snprintf(shares, sizeof shares, "%.1f%% of the fission production tallied and %.1f%% of the neutrons born",
                100 * left.production, 100 * left.neutrons);
  r.failure = std::string("the coarse cells and groups left out of the solve (less collision weight than [cmfd] "
                          "min_collisions, ") + exact_number(min_collisions) + ") hold " + shares +
              " (born into them or scattered into them), more than " + std::to_string(static_cast<int>(100 * max_left_out)) +
              "%: fewer coarse groups or cells, more particles, or a longer window";
  return r;
}

}  // namespace

CmfdAccelerator::CmfdAccelerator(const DeviceExec& exec, const model::Cmfd& input, const CmfdMesh& mesh, int groups,
                                 const Communicator& comm, int generations_per_batch, bool allow_oversubscribed)
    : impl_((check_cmfd_memory(exec, input, mesh, groups, comm, allow_oversubscribed),
             std::make_unique<Impl>(exec, input, mesh, groups, comm))) {
  impl_->generations_per_batch = generations_per_batch;
}

CmfdAccelerator::~CmfdAccelerator() = default;

CmfdResult CmfdAccelerator::add_batch(const DeviceExec& exec, int batch, const CmfdTally<DeviceMem>& scores) {
  Kokkos::Profiling::ScopedRegion region("keff::cmfd::add_batch");
  Impl& s = *impl_;
  s.gather_batch(exec, scores);
  if (const Fixed outside = s.batch[s.values]; outside > 0) {
    throw RunError(model::generation_name(batch, s.generations_per_batch) + ": " + std::to_string(outside) +
                   " fission site(s) were banked outside the CMFD mesh, " + box_text(s.solver.mesh()) + " ([cmfd] at " +
                   s.input.where.str() + "), which must hold every fission for its balance (allowed: a mesh that "
                   "covers every fissionable region)");
  }
  s.add_to_sum(batch, s.batch, +1);
  std::vector<KeptBatches> dropped;  // oldest first
  const bool joined = s.input.window != model::CmfdWindow::none && s.keep(batch);
  while (s.oldest_left(batch)) {
    s.add_to_sum(batch, s.kept.front().scores, -1);
    dropped.push_back(std::move(s.kept.front()));
    s.kept.pop_front();
  }
  const LeftOut left_out = s.upload_sum(exec);
  bool first = true;
  const CmfdStop stop = [&] {
    if (first && test_points_enabled()) test_point("cmfd:" + std::to_string(batch));
    first = false;
    return interrupt_signal() != 0;
  };
  // Everything left out (production share 1) is the solver's to say: it has nothing to solve.
  const bool too_much = left_out.production > max_left_out || left_out.neutrons > max_left_out;
  CmfdResult result = too_much && left_out.production < 1 ? left_out_failure(left_out, s.input.min_collisions)
                                                           : s.solver.solve(exec, s.tallies, stop);
  // A signal on one rank stops its solve alone; the others finish theirs (bounded: max_outer, GMRES
  // cycles) and every rank then leaves the batch out of the window.
  if (s.comm.any(result.interrupted)) {
    s.take_back(batch, joined, dropped);
    s.solver.take_back_solve();
    result.interrupted = true;
    result.converged = false;
  }
  return result;
}

Kokkos::View<const Real*, DeviceMem> CmfdAccelerator::source() const { return impl_->solver.source(); }

CmfdWindowData CmfdAccelerator::window() const {
  const Impl& s = *impl_;
  CmfdWindowData w;
  w.sum = s.sum;
  for (const KeptBatches& part : s.kept) {
    w.batches.push_back(part.last);
    if (s.input.window == model::CmfdWindow::expanding) w.lengths.push_back(part.count);
    w.scores.insert(w.scores.end(), part.scores.begin(), part.scores.end());
  }
  if (auto warm = s.solver.warm_start()) w.flux = std::move(warm->flux);
  return w;
}

void CmfdAccelerator::restore(const CmfdWindowData& w) {
  Impl& s = *impl_;
  if (w.sum.size() != s.values || w.scores.size() != w.batches.size() * s.values ||
      (!w.lengths.empty() && w.lengths.size() != w.batches.size())) {
    throw RunError("the statepoint's CMFD tally window holds " + std::to_string(w.sum.size()) + " values per batch where "
                   "this problem's [cmfd] mesh and groups have " + std::to_string(s.values));
  }
  s.sum = w.sum;
  s.kept.clear();
  for (std::size_t b = 0; b < w.batches.size(); ++b) {
    const auto first = w.scores.begin() + static_cast<std::ptrdiff_t>(b * s.values);
    s.kept.push_back({static_cast<int>(w.batches[b]), w.lengths.empty() ? 1 : static_cast<int>(w.lengths[b]),
                      std::vector<Fixed>(first, first + static_cast<std::ptrdiff_t>(s.values))});
  }
  if (!w.flux.empty()) {
    const std::size_t unknowns = static_cast<std::size_t>(s.solver.groups() * s.solver.mesh().n_cells());
    if (w.flux.size() != unknowns) {
      throw RunError("the statepoint's CMFD warm start holds " + std::to_string(w.flux.size()) +
                     " values where this problem's [cmfd] mesh and groups have " + std::to_string(unknowns));
    }
    s.solver.set_warm_start(CmfdWarmStart{w.flux});
  }
}

}  // namespace keff
