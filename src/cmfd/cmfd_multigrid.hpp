#pragma once
// A preconditioner for CMFD's inner solves that reaches across the mesh in one application: a multigrid
// V-cycle. Gauss-Seidel alone (cmfd_gauss_seidel.hpp) moves information one cell per sweep, so on a mesh
// of many cells across (C5G7 3-D's 34 x 34 pin cells) GMRES spends its iterations carrying the error
// from cell to cell. Here each level merges up to 2 x 2 x 2 cells of the one above (coarser_cmfd_mesh
// below says along which axes) until at most max_coarsest_cells remain, keeping every group. A level's
// matrix is the one above summed over the merged cells (Galerkin, R A P with R summing a block's rows and
// P copying a block's value to its cells), built on that level's own mesh graph whenever the solver's
// matrix changes (prepare: with the shift, every outer iteration), each entry added where a map found once
// per level puts it. One application, from y = 0 on each level: a symmetric pair of two-colour
// Gauss-Seidel sweeps around the correction from the level below, and on the coarsest level
// coarsest_sweeps pairs. Every step is a fixed linear map and every value is written by one thread from
// values that no other thread writes in that launch: the same bits on any thread count or device.
#include "src/cmfd/cmfd_gauss_seidel.hpp"
#include "src/cmfd/cmfd_preconditioner.hpp"

#include <vector>

namespace keff {

// The mesh whose cells are blocks of `fine`'s: two cells merged along each axis whose cells are at most
// twice as wide as the narrowest (with more than one cell), so that cells far wider along one axis than
// across (C5G7 3-D's 16 cm axial layers over 1.26 cm pin cells), weakly coupled along it, are not merged
// until the others have caught up (semi-coarsening: a point smoother hardly reduces an error that
// alternates along the weak axis and is smooth along the strong ones, and merging along the weak axis
// would hide it from the coarser level too: 2.2 times the GMRES iterations on C5G7 3-D). Only its
// shape matters to the solver; its box is fine's.
CmfdMesh coarser_cmfd_mesh(const CmfdMesh& fine);

// Whether the multigrid pays for CMFD's M over Gauss-Seidel alone (preconditioner = "auto"): when in
// at least half of M's rows the off-diagonal entries add up to multigrid_coupling of the diagonal or more.
// There removal is small against the coupling to the neighbours (cells thin against a diffusion length),
// so a point smoother moves an error about one cell per sweep and GMRES carries it across the mesh. In
// the median row: C5G7 3-D's 34 x 34 x 4 pin cells 0.92-0.96 (the multigrid halves the solve), a 32 x 32
// x 4 mesh of thin layers 0.90 (a third of the iterations); LA-13511's UD2O sphere's 10^3 mesh 0.27, a
// 10^3 cube of 2 cm cells 0.85 and the 2-group slab's 10 cm cells 0 (Gauss-Seidel in half the time:
// src/cmfd/README.md, "Preconditioner"). One count over the rows, in integers: every rank and thread
// count choose alike.
inline constexpr double multigrid_coupling = 0.9;
bool cmfd_multigrid_pays(const DeviceExec& exec, const CmfdMatrix& m);

class CmfdMultigrid final : public CmfdPreconditioner {
 public:
  static constexpr int max_coarsest_cells = 16;
  static constexpr int coarsest_sweeps = 8;

  // The levels below the mesh, their graphs, colours and vectors, once per mesh; `a` has the graph of the
  // matrices it will prepare for (its values are not read).
  CmfdMultigrid(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const CmfdMatrix& a);

  // The levels' matrices from `a` (M or M - F / k_s, on the mesh's graph).
  void prepare(const DeviceExec& exec, const CmfdMatrix& a) override;

  // y = P^-1 x for the matrix last prepared.
  void apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const override;

  int levels() const { return static_cast<int>(levels_.size()) + 1; }

 private:
  struct Level {
    CmfdMesh mesh;                    // its cells: blocks of the level above's
    Kokkos::View<int*, DeviceMem> up;  // the level above's cell -> this level's cell
    Kokkos::View<int*, DeviceMem> to_coarse;  // the level above's matrix entry -> this level's (prepare)
    CmfdMatrix a;                     // the level above's matrix summed over blocks
    CmfdGaussSeidel smoother;
    CmfdVector x, y, residual;        // residual: the level above's, before it is summed here
  };
  int groups_ = 0;
  CmfdMesh mesh_;
  CmfdGaussSeidel smoother_;  // of the mesh itself
  std::vector<Level> levels_;

  void cycle(const DeviceExec& exec, std::size_t level, const CmfdMatrix& a, const CmfdGaussSeidel& smoother,
             const CmfdVector& x, const CmfdVector& y) const;
};

}  // namespace keff
