// The multigrid V-cycle preconditioner for CMFD (cmfd_multigrid.hpp).
#include "src/cmfd/cmfd_multigrid.hpp"

#include <KokkosBlas1_axpby.hpp>
#include <KokkosSparse_spmv.hpp>

#include <string>
#include <utility>

namespace keff {
// Named, not anonymous: nvcc refuses an extended lambda whose enclosing function has internal linkage.
namespace detail {

// Calls visit(fine cell) for the cells of `fine` in block C of `coarse`, in ascending order.
template <class Visit>
KOKKOS_INLINE_FUNCTION void for_each_block_cell(const CmfdMesh& fine, const CmfdMesh& coarse, int c, Visit&& visit) {
  int factor[3];  // 2 along the axes merged, 1 along the others
  for (int a = 0; a < 3; ++a) factor[a] = coarse.grid.shape[a] == fine.grid.shape[a] ? 1 : 2;
  int block[3];
  coarse.cell_indices(c, block);
  for (int k = 0; k < factor[2]; ++k) {
    for (int j = 0; j < factor[1]; ++j) {
      for (int i = 0; i < factor[0]; ++i) {
        const int idx[3] = {block[0] * factor[0] + i, block[1] * factor[1] + j, block[2] * factor[2] + k};
        if (idx[0] < fine.grid.shape[0] && idx[1] < fine.grid.shape[1] && idx[2] < fine.grid.shape[2]) {
          visit(fine.cell(idx));
        }
      }
    }
  }
}

void fill_block_map(const DeviceExec& exec, const CmfdMesh& fine, const CmfdMesh& coarse,
                    const Kokkos::View<int*, DeviceMem>& up) {
  Kokkos::parallel_for(
      "keff::cmfd::multigrid_blocks", Kokkos::RangePolicy<DeviceExec>(exec, 0, coarse.n_cells()),
      KOKKOS_LAMBDA(int c) { for_each_block_cell(fine, coarse, c, [&](int f) { up(f) = c; }); });
}

// Where each entry of the fine matrix goes in the coarse one: the fine row (g, c)'s entry in column (h, c')
// lands in the coarse row (g, block of c) at column (h, block of c'), which the coarse graph holds (a
// neighbour's block is the block or its neighbour). Found once per level, so that the product below, redone
// for every shift, only adds.
void map_galerkin_entries(const DeviceExec& exec, const CmfdMesh& fine, const CmfdMatrix& a_fine,
                          const CmfdMesh& coarse, const Kokkos::View<const int*, DeviceMem>& up,
                          const CmfdMatrix& a_coarse, const Kokkos::View<int*, DeviceMem>& to_coarse) {
  const int nf = fine.n_cells(), nc = coarse.n_cells();
  const auto f_rows = a_fine.graph.row_map;
  const auto f_cols = a_fine.graph.entries;
  const auto c_rows = a_coarse.graph.row_map;
  const auto c_cols = a_coarse.graph.entries;
  Kokkos::parallel_for(
      "keff::cmfd::multigrid_galerkin_map", Kokkos::RangePolicy<DeviceExec>(exec, 0, a_fine.numRows()),
      KOKKOS_LAMBDA(int fine_row) {
        const int g = fine_row / nf, f = fine_row % nf;
        const int row = g * nc + up(f);
        for (int e = f_rows(fine_row); e < f_rows(fine_row + 1); ++e) {
          const int j = f_cols(e);
          const int column = (j / nf) * nc + up(j % nf);
          int p = c_rows(row);
          while (p < c_rows(row + 1) && c_cols(p) != column) ++p;
          to_coarse(e) = p < c_rows(row + 1) ? p : -1;
        }
      });
}

// The coarse matrix's row (g, C): the fine rows (g, c) of C's cells summed, each entry where
// map_galerkin_entries put it; a thread per coarse row, the fine rows in ascending order.
void galerkin_cmfd_matrix(const DeviceExec& exec, const CmfdMesh& fine, const CmfdMatrix& a_fine,
                          const CmfdMesh& coarse, const Kokkos::View<const int*, DeviceMem>& to_coarse,
                          const CmfdMatrix& a_coarse, int groups) {
  const int nf = fine.n_cells(), nc = coarse.n_cells();
  const auto f_rows = a_fine.graph.row_map;
  const auto f_values = a_fine.values;
  const auto c_rows = a_coarse.graph.row_map;
  const auto c_values = a_coarse.values;
  Kokkos::parallel_for(
      "keff::cmfd::multigrid_galerkin", Kokkos::RangePolicy<DeviceExec>(exec, 0, groups * nc), KOKKOS_LAMBDA(int row) {
        const int g = row / nc, c = row % nc;
        for (int e = c_rows(row); e < c_rows(row + 1); ++e) c_values(e) = 0;
        for_each_block_cell(fine, coarse, c, [&](int f) {
          const int fine_row = g * nf + f;
          for (int e = f_rows(fine_row); e < f_rows(fine_row + 1); ++e) {
            const int p = to_coarse(e);
            if (p >= 0) c_values(p) += f_values(e);
          }
        });
      });
}

// x_coarse(g, C) = the sum of r(g, c) over C's cells.
void restrict_cmfd_vector(const DeviceExec& exec, const CmfdMesh& fine, const CmfdMesh& coarse, int groups,
                          const CmfdVector& r, const CmfdVector& x_coarse) {
  const int nf = fine.n_cells(), nc = coarse.n_cells();
  Kokkos::parallel_for(
      "keff::cmfd::multigrid_restrict", Kokkos::RangePolicy<DeviceExec>(exec, 0, groups * nc), KOKKOS_LAMBDA(int row) {
        const int g = row / nc;
        Real s = 0;
        for_each_block_cell(fine, coarse, row % nc, [&](int f) { s += r(g * nf + f); });
        x_coarse(row) = s;
      });
}

// y(g, c) += y_coarse(g, block of c).
void prolong_cmfd_vector(const DeviceExec& exec, int n_fine, int n_coarse, int groups,
                         const Kokkos::View<const int*, DeviceMem>& up, const CmfdVector& y_coarse,
                         const CmfdVector& y) {
  Kokkos::parallel_for(
      "keff::cmfd::multigrid_prolong", Kokkos::RangePolicy<DeviceExec>(exec, 0, groups * n_fine),
      KOKKOS_LAMBDA(int row) {
        const int g = row / n_fine;
        y(row) += y_coarse(g * n_coarse + up(row % n_fine));
      });
}

}  // namespace detail

bool cmfd_multigrid_pays(const DeviceExec& exec, const CmfdMatrix& m) {
  const auto rows = m.graph.row_map;
  const auto cols = m.graph.entries;
  const auto values = m.values;
  const double coupling = multigrid_coupling;
  int coupled = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::multigrid_pays", Kokkos::RangePolicy<DeviceExec>(exec, 0, m.numRows()),
      KOKKOS_LAMBDA(int row, int& count) {
        Real diagonal = 0, off = 0;
        for (int e = rows(row); e < rows(row + 1); ++e) {
          if (cols(e) == row) {
            diagonal = values(e);
          } else {
            off += Kokkos::fabs(values(e));
          }
        }
        if (off >= coupling * diagonal) ++count;
      },
      coupled);
  return 2 * static_cast<long long>(coupled) >= m.numRows();
}

CmfdMesh coarser_cmfd_mesh(const CmfdMesh& fine) {
  Real narrowest = constants::infinity;
  for (int a = 0; a < 3; ++a) {
    if (fine.grid.shape[a] > 1) narrowest = Kokkos::fmin(narrowest, fine.width(a));
  }
  CmfdMesh coarse = fine;
  for (int a = 0; a < 3; ++a) {
    if (fine.grid.shape[a] > 1 && fine.width(a) <= 2 * narrowest) {
      coarse.grid.shape[a] = (fine.grid.shape[a] + 1) / 2;
      coarse.grid.inv_width[a] = fine.grid.inv_width[a] * coarse.grid.shape[a] / fine.grid.shape[a];
    }
  }
  return coarse;
}

CmfdMultigrid::CmfdMultigrid(const DeviceExec& exec, const CmfdMesh& mesh, int groups, const CmfdMatrix& a)
    : groups_(groups), mesh_(mesh), smoother_(exec, mesh, groups) {
  CmfdMesh above = mesh;
  CmfdMatrix a_above = a;
  while (above.n_cells() > max_coarsest_cells) {
    const CmfdMesh coarse = coarser_cmfd_mesh(above);
    const std::string name = "multigrid_" + std::to_string(levels_.size() + 1) + "_";
    const int rows = groups * coarse.n_cells();
    Level level{coarse,
                detail::cmfd_view<Kokkos::View<int*, DeviceMem>>(exec, name + "blocks", above.n_cells()),
                detail::cmfd_view<Kokkos::View<int*, DeviceMem>>(exec, name + "entries_below", a_above.nnz()),
                allocate_cmfd_matrix(exec, coarse, groups, name + "matrix"),
                CmfdGaussSeidel(exec, coarse, groups),
                detail::cmfd_view<CmfdVector>(exec, name + "x", rows),
                detail::cmfd_view<CmfdVector>(exec, name + "y", rows),
                detail::cmfd_view<CmfdVector>(exec, name + "residual", groups * above.n_cells())};
    detail::fill_block_map(exec, above, coarse, level.up);
    detail::map_galerkin_entries(exec, above, a_above, coarse, level.up, level.a, level.to_coarse);
    a_above = level.a;
    levels_.push_back(std::move(level));
    above = coarse;
  }
}

void CmfdMultigrid::prepare(const DeviceExec& exec, const CmfdMatrix& a) {
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const CmfdMesh& above = l == 0 ? mesh_ : levels_[l - 1].mesh;
    const CmfdMatrix& a_above = l == 0 ? a : levels_[l - 1].a;
    detail::galerkin_cmfd_matrix(exec, above, a_above, levels_[l].mesh, levels_[l].to_coarse, levels_[l].a, groups_);
  }
}

void CmfdMultigrid::apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const {
  cycle(exec, 0, a, smoother_, x, y);
}

void CmfdMultigrid::cycle(const DeviceExec& exec, std::size_t level, const CmfdMatrix& a,
                          const CmfdGaussSeidel& smoother, const CmfdVector& x, const CmfdVector& y) const {
  Kokkos::deep_copy(exec, y, 0.0);
  if (level == levels_.size()) {
    for (int s = 0; s < coarsest_sweeps; ++s) {
      smoother.smooth(exec, a, x, y, true);
      smoother.smooth(exec, a, x, y, false);
    }
    return;
  }
  smoother.smooth(exec, a, x, y, true);
  const Level& below = levels_[level];
  const CmfdMesh& mesh = level == 0 ? mesh_ : levels_[level - 1].mesh;
  KokkosSparse::spmv(exec, "N", -1.0, a, y, 0.0, below.residual);
  KokkosBlas::axpy(exec, 1.0, x, below.residual);
  detail::restrict_cmfd_vector(exec, mesh, below.mesh, groups_, below.residual, below.x);
  cycle(exec, level + 1, below.a, below.smoother, below.x, below.y);
  detail::prolong_cmfd_vector(exec, mesh.n_cells(), below.mesh.n_cells(), groups_, below.up, below.y, y);
  smoother.smooth(exec, a, x, y, false);
}

}  // namespace keff
