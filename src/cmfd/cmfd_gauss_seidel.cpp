// Two-colour symmetric Gauss-Seidel for CMFD (cmfd_gauss_seidel.hpp).
#include "src/cmfd/cmfd_gauss_seidel.hpp"

#include "src/params/to_device.hpp"

#include <vector>

namespace keff {
// Named, not anonymous: nvcc refuses an extended lambda whose enclosing function has internal linkage.
namespace detail {

// y(g, c) = (x(g, c) - the row's other entries times y) / diagonal, for every cell c in `cells`, its
// groups one after another (descending: the last group first). y starts at 0, so a value not yet
// updated in this application (the other colour's cells in the first half sweep, a cell's later groups
// on its first visit) enters as 0: one test per entry, the diagonal's.
void gauss_seidel_half_sweep(const DeviceExec& exec, const CmfdMatrix& a, const Kokkos::View<const int*, DeviceMem>& cells,
                             int n_cells, int groups, bool descending, const CmfdVector& x, const CmfdVector& y) {
  const auto rows = a.graph.row_map;
  const auto columns = a.graph.entries;
  const auto values = a.values;
  Kokkos::parallel_for(
      "keff::cmfd::gauss_seidel", Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(cells.extent(0))),
      KOKKOS_LAMBDA(int i) {
        const int c = cells(i);
        for (int k = 0; k < groups; ++k) {
          const int row = (descending ? groups - 1 - k : k) * n_cells + c;
          Real s = x(row), diagonal = 0;
          for (int e = rows(row); e < rows(row + 1); ++e) {
            const int j = columns(e);
            if (j == row) {
              diagonal = values(e);
            } else {
              s -= values(e) * y(j);
            }
          }
          y(row) = diagonal != 0 ? s / diagonal : s;
        }
      });
}

}  // namespace detail

CmfdGaussSeidel::CmfdGaussSeidel(const DeviceExec& exec, const CmfdMesh& mesh, int groups)
    : cells_(mesh.n_cells()), groups_(groups) {
  std::vector<int> colour[2];
  for (int c = 0; c < cells_; ++c) {
    int idx[3];
    mesh.cell_indices(c, idx);
    colour[(idx[0] + idx[1] + idx[2]) % 2].push_back(c);
  }
  first_ = to_device(exec, "keff::cmfd::gauss_seidel_first_colour", colour[0]);
  second_ = to_device(exec, "keff::cmfd::gauss_seidel_second_colour", colour[1]);
}

void CmfdGaussSeidel::apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const {
  Kokkos::deep_copy(exec, y, 0.0);
  detail::gauss_seidel_half_sweep(exec, a, first_, cells_, groups_, false, x, y);
  detail::gauss_seidel_half_sweep(exec, a, second_, cells_, groups_, false, x, y);
  detail::gauss_seidel_half_sweep(exec, a, first_, cells_, groups_, true, x, y);
}

void CmfdGaussSeidel::smooth(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& rhs, const CmfdVector& y,
                             bool forward) const {
  detail::gauss_seidel_half_sweep(exec, a, forward ? first_ : second_, cells_, groups_, !forward, rhs, y);
  detail::gauss_seidel_half_sweep(exec, a, forward ? second_ : first_, cells_, groups_, !forward, rhs, y);
}

}  // namespace keff
