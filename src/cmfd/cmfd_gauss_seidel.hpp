#pragma once
// A preconditioner for CMFD's inner solves that suits a diffusion operator and a GPU: symmetric
// Gauss-Seidel with the coarse cells in two colours, like the black and white squares of a chessboard
// (i + j + k even or odd). A cell's spatial neighbours all have the other colour, so the cells of one
// colour update at once, a thread per cell, each taking its cell's groups in order (its in-cell
// couplings, scattering and, shifted, fission, are where the groups meet). One application is three
// sweeps from y = 0 (and a launch that zeroes y): the first colour with groups ascending, the second,
// the first again with groups descending. That is a fixed linear operator, as right-preconditioned
// GMRES needs, and every value is written by one thread from values no other thread writes in that
// launch: the same bits on any thread count or device.
//
// ILU(0) (cmfd_gmres.hpp) cuts more iterations but solves its triangles level by level, a launch per
// level: measured in src/cmfd/README.md.
#include "src/cmfd/cmfd_preconditioner.hpp"

namespace keff {

class CmfdGaussSeidel final : public CmfdPreconditioner {
 public:
  // The cells of each colour, once per mesh.
  CmfdGaussSeidel(const DeviceExec& exec, const CmfdMesh& mesh, int groups);

  // y = P^-1 x for the matrix `a` on M's graph (M or M - F / k_s). A row whose diagonal is 0 passes its
  // residual through unscaled.
  void apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const override;

  // Two half sweeps towards a x = rhs from the current y (the multigrid's smoother, cmfd_multigrid.hpp):
  // forward, the first colour then the second with groups ascending; backward, the second colour then
  // the first with groups descending, so that a forward and a backward sweep make a symmetric pair.
  void smooth(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& rhs, const CmfdVector& y,
              bool forward) const;

 private:
  int cells_ = 0, groups_ = 0;
  Kokkos::View<int*, DeviceMem> first_, second_;  // the cells of each colour
};

}  // namespace keff
