#pragma once
// Orders a batch's fission sites by (parent history, progeny): the order one thread running every
// history in turn would produce, so the next source does not depend on scheduling.
//
// Progeny numbers are dense per parent (0, 1, ... in the order a history banks them), so the order is a
// counting sort: sites per parent (integer atomics), an exclusive scan into offsets, and a scatter to
// offset(parent) + progeny. O(n), exact, and it allocates nothing: the offsets and the output are
// preallocated State (a general sort such as Kokkos' sort_by_key allocates temporaries every call).
#include "kernels/contracts.hpp"
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

namespace keff {

// `bank` holds n sites whose parents lie in `parents` (global history indices); `offsets` has at least
// parents.count + 1 entries; `sorted` receives the n sites in order.
template <class Exec, class Mem>
void sort_bank(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t n, IndexRange parents,
               Kokkos::View<std::int64_t*, Mem> offsets, Kokkos::View<Site*, Mem> sorted) {
  Kokkos::Profiling::ScopedRegion region("keff::bank::sort");
  using Policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t first = parents.first;
  const std::int64_t n_parents = parents.count;
  Kokkos::parallel_for("keff::bank::clear_counts", Policy(exec, 0, n_parents + 1),
                       KOKKOS_LAMBDA(std::int64_t j) { offsets(j) = 0; });
  Kokkos::parallel_for(
      "keff::bank::count_progeny", Policy(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        KEFF_EXPECT(bank(i).parent >= first && bank(i).parent < first + n_parents);
        Kokkos::atomic_add(&offsets(bank(i).parent - first), std::int64_t(1));
      });
  Kokkos::parallel_scan(
      "keff::bank::offsets", Policy(exec, 0, n_parents + 1),
      KOKKOS_LAMBDA(std::int64_t j, std::int64_t& running, bool final) {
        const std::int64_t count = offsets(j);
        if (final) offsets(j) = running;
        running += count;
      });
  Kokkos::parallel_for(
      "keff::bank::scatter", Policy(exec, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
        const Site& s = bank(i);
        const std::int64_t at = offsets(s.parent - first) + s.progeny;
        KEFF_ASSERT(s.progeny >= 0 && at < offsets(s.parent - first + 1) && at < n);
        sorted(at) = s;
      });
}

}  // namespace keff
