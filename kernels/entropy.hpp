#pragma once
// Shannon entropy of the fission source: sites counted per mesh bin (integer atomics, so the counts
// are exact), H = -sum p log2 p computed on the host from the counts.
#include "kernels/regular_mesh.hpp"
#include "kernels/vocabulary/site.hpp"

namespace keff {

template <class Exec, class Mem>
void count_sites_per_bin(const Exec& exec, const RegularMesh& mesh, Kokkos::View<const Site*, Mem> sites,
                         std::int64_t n, Kokkos::View<std::int64_t*, Mem> counts) {
  Kokkos::deep_copy(exec, counts, 0);
  Kokkos::parallel_for(
      "keff::entropy::count", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        const int b = mesh.bin(sites(i).r);
        if (b >= 0) Kokkos::atomic_add(&counts(b), std::int64_t(1));
      });
}

}  // namespace keff
