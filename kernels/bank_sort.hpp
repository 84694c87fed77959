#pragma once
// Orders a batch's fission sites by (parent history, progeny): the order one thread running every
// history in turn would produce, so the next source does not depend on scheduling.
#include <Kokkos_Sort.hpp>

#include "site.hpp"

namespace keff {

// keys must hold at least n entries; Kokkos' sort_by_key allocates its own temporaries, once per batch.
template <class Exec, class Mem>
void sort_bank(const Exec& exec, Kokkos::View<Site*, Mem> sites, Kokkos::View<std::int64_t*, Mem> keys,
               std::int64_t n) {
  Kokkos::Profiling::ScopedRegion region("keff::bank::sort");
  const auto s = Kokkos::subview(sites, Kokkos::make_pair(std::int64_t(0), n));
  const auto k = Kokkos::subview(keys, Kokkos::make_pair(std::int64_t(0), n));
  Kokkos::parallel_for("keff::bank::sort_keys",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       KOKKOS_LAMBDA(std::int64_t i) { k(i) = site_key(s(i)); });
  Kokkos::Experimental::sort_by_key(exec, k, s);
}

}  // namespace keff
