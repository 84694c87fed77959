#pragma once
// The CMFD eigenvalue solver: from one set of coarse-mesh tallies to k_cmfd and the CMFD fission source.
//
//   CmfdSolver cmfd(exec, mesh, groups, options);   // graph, ILU(0) pattern, vectors: once per shape
//   CmfdResult r = cmfd.solve(exec, tallies);        // each batch: operator values, power iteration
//   cmfd.source();                                   // [g * n_cells + c], sums to 1
//
// Power iteration on M phi = (1/k) F phi (optionally Wielandt-shifted), each outer iteration one GMRES
// solve (cmfd_gmres.hpp; run cycle by cycle, so that a caller's stop is heard within one cycle;
// optionally ILU(0)-preconditioned) started from the previous flux, with KokkosBlas sums and norms, all
// on the device. The tallied flux is the first guess and the balance of the tallies the first k, so with
// dhat and balanced tallies it converges at once; with warm_start, once a solve has converged, the next
// starts from its flux instead (tallies summed over batches are never balanced exactly, and the last
// answer is closer), k still from the balance.
//
// Every rank solves the same system the same way, so every rank gets the same bits for the same
// tallies and thread count (or device). Across OpenMP thread counts the reductions add in another
// order: results agree to the solver tolerances, not bit for bit (README.md).
//
// Kokkos Kernels stays out of this header (it costs compile time in every translation unit that
// includes it); callers see only Views.
#include "kernels/cmfd_data.hpp"
#include "kernels/vocabulary/cmfd_options.hpp"
#include "kernels/device.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace keff {

// Where a solve starts with [cmfd.solver] warm_start: the last converged solve's flux per unit volume
// ([g * n_cells + c], any normalisation).
struct CmfdWarmStart {
  std::vector<double> flux;
};

// Asked between outer iterations and between GMRES cycles; true abandons the solve (CmfdResult::interrupted).
using CmfdStop = std::function<bool()>;

class CmfdSolver {
 public:
  using Vector = Kokkos::View<const Real*, DeviceMem>;
  using FaceCoefficients = Kokkos::View<const Real**, Kokkos::LayoutRight, DeviceMem>;

  // Allocates everything a solve needs for `groups` groups on `mesh`; solve() allocates nothing of keff's.
  CmfdSolver(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const CmfdOptions& options);
  ~CmfdSolver();
  CmfdSolver(CmfdSolver&&) noexcept;
  CmfdSolver& operator=(CmfdSolver&&) noexcept;
  CmfdSolver(const CmfdSolver&) = delete;
  CmfdSolver& operator=(const CmfdSolver&) = delete;

  // Builds M and F from `tallies` (shaped like this solver's mesh and groups) and solves for k_cmfd.
  // `stop` (optional) can abandon the solve part-way: the result is then a failure marked interrupted,
  // and flux() and source() hold nothing to use.
  CmfdResult solve(const DeviceExec& exec, const CmfdTallies<DeviceMem>& tallies, const CmfdStop& stop = {});

  // The warm start the next solve would use (none before a solve converged), and setting it (a restart);
  // set_warm_start throws std::invalid_argument for a flux of another size. take_back_solve undoes what
  // the last solve did to it, for a solve the caller abandons after it converged.
  std::optional<CmfdWarmStart> warm_start() const;
  void set_warm_start(const CmfdWarmStart& warm);
  void take_back_solve();

  const CmfdMesh& mesh() const;
  int groups() const;
  const CmfdOptions& options() const;

  // After solve(): the flux per unit volume, normalised so that F phi sums to 1; the fission source
  // F phi per group and cell (sums to 1); the source per cell summed over groups (sums to 1).
  Vector flux() const;
  Vector source() const;
  Vector cell_source() const;
  // The coupling coefficients of the last operator, [group][face] (CmfdOperator).
  FaceCoefficients dtilde() const;
  FaceCoefficients dhat() const;
  // y = M x and y = F x with the operators of the last solve.
  void apply_loss(const DeviceExec& exec, Vector x, const Kokkos::View<Real*, DeviceMem>& y) const;
  void apply_production(const DeviceExec& exec, Vector x, const Kokkos::View<Real*, DeviceMem>& y) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace keff
