// Two-colour symmetric Gauss-Seidel for CMFD (cmfd_gauss_seidel.hpp).
#include "src/cmfd/cmfd_gauss_seidel.hpp"

#include <string>
#include <vector>

namespace keff {
// Named, not anonymous: nvcc refuses an extended lambda whose enclosing function has internal linkage.
namespace detail {

// How a half sweep treats what it reads besides its own row.
struct HalfSweep {
  bool first_visit;  // the cells' later groups hold nothing of this application yet: read as 0
  bool neighbours;   // the other colour's cells have been updated: read them (else read as 0)
  bool descending;   // the groups of a cell in descending order
};

// y(g, c) = (x(g, c) - sum of the row's other entries times y) / diagonal, for every cell c in `cells`,
// its groups one after another. Row (g, c) is g * n_cells + c: a column j = h * n_cells + c' lies in the
// same cell when j - row is a multiple of n_cells (group h - g) and is a spatial neighbour in group g
// when |j - row| < n_cells.
void gauss_seidel_half_sweep(const DeviceExec& exec, const CmfdMatrix& a, const Kokkos::View<const int*, DeviceMem>& cells,
                             int n_cells, int groups, HalfSweep how, const CmfdVector& x, const CmfdVector& y) {
  const auto rows = a.graph.row_map;
  const auto columns = a.graph.entries;
  const auto values = a.values;
  Kokkos::parallel_for(
      "keff::cmfd::gauss_seidel", Kokkos::RangePolicy<DeviceExec>(exec, 0, static_cast<int>(cells.extent(0))),
      KOKKOS_LAMBDA(int i) {
        const int c = cells(i);
        for (int k = 0; k < groups; ++k) {
          const int row = (how.descending ? groups - 1 - k : k) * n_cells + c;
          Real s = x(row), diagonal = 0;
          for (int e = rows(row); e < rows(row + 1); ++e) {
            const int d = columns(e) - row;
            if (d == 0) {
              diagonal = values(e);
              continue;
            }
            const bool spatial = d > -n_cells && d < n_cells;
            if (spatial ? !how.neighbours : (how.first_visit && d > 0)) continue;
            s -= values(e) * y(columns(e));
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
  const auto to_device = [&](const std::vector<int>& v, const char* what) {
    Kokkos::View<int*, DeviceMem> d(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::cmfd::") + what),
                                    v.size());
    Kokkos::deep_copy(exec, d, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
    exec.fence();  // `v` dies here
    return d;
  };
  first_ = to_device(colour[0], "gauss_seidel_first_colour");
  second_ = to_device(colour[1], "gauss_seidel_second_colour");
}

void CmfdGaussSeidel::apply(const DeviceExec& exec, const CmfdMatrix& a, const CmfdVector& x, const CmfdVector& y) const {
  detail::gauss_seidel_half_sweep(exec, a, first_, cells_, groups_, {true, false, false}, x, y);
  detail::gauss_seidel_half_sweep(exec, a, second_, cells_, groups_, {true, true, false}, x, y);
  detail::gauss_seidel_half_sweep(exec, a, first_, cells_, groups_, {false, true, true}, x, y);
}

}  // namespace keff
