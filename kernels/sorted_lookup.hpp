#pragma once
// Identifier -> index lookup on the device: sorted keys and binary search, in place of a std::map, which
// cannot live in device code and loses to a sorted array even on a CPU once many threads share it.
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include <string>

namespace keff {

template <class Mem>
struct SortedLookup {
  Kokkos::View<const std::int64_t*, Mem> keys;  // ascending, unique
  Kokkos::View<const std::int32_t*, Mem> values;

  // values(i) for keys(i) == key, or -1.
  KOKKOS_INLINE_FUNCTION std::int32_t find(std::int64_t key) const {
    int lo = 0, hi = keys.extent_int(0);
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (keys(mid) < key) lo = mid + 1; else hi = mid;
    }
    return (lo < keys.extent_int(0) && keys(lo) == key) ? values(lo) : -1;
  }
};

// Builds the lookup of key(i) -> i for unsorted unique keys, sorting on `exec`.
template <class Exec>
SortedLookup<typename Exec::memory_space> make_sorted_lookup(const Exec& exec,
                                                            Kokkos::View<const std::int64_t*, typename Exec::memory_space> ids,
                                                            const std::string& label) {
  using Mem = typename Exec::memory_space;
  const auto n = static_cast<std::int64_t>(ids.extent(0));
  Kokkos::View<std::int64_t*, Mem> keys(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label + "::keys"), n);
  Kokkos::View<std::int32_t*, Mem> values(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label + "::values"), n);
  Kokkos::parallel_for(
      "keff::lookup::fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        keys(i) = ids(i);
        values(i) = static_cast<std::int32_t>(i);
      });
  if (n > 1) Kokkos::Experimental::sort_by_key(exec, keys, values);
  return {keys, values};
}

}  // namespace keff
