#pragma once
// Next batch's source: exactly N sites combed from the M sorted fission sites. Site i of the new source
// is bank site floor((i + xi) * M / N) with one random xi per batch, the same on every rank, so the
// selection depends only on the global bank order, never on how it is split. The comb picks by index and
// each site keeps its weight: 1 as banked, or the factor CMFD feedback gave it (src/driver/source_cycle.cpp),
// which so reaches the next batch's histories.
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

KOKKOS_INLINE_FUNCTION std::int64_t comb_index(std::int64_t i, Real xi, std::int64_t m, std::int64_t n) {
  const auto j = static_cast<std::int64_t>((static_cast<Real>(i) + xi) * static_cast<Real>(m) / static_cast<Real>(n));
  return j < m ? j : m - 1;
}

// Copies into `next` the combed sites of new-source indices `selected` (of n_global) from a bank holding
// global sites [bank_first, bank_first + bank.extent(0)) of m. Single rank: bank_first is 0, the bank
// is whole and `selected` covers [0, n_global).
template <class Exec, class Mem>
void comb_source(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t bank_first, std::int64_t m,
                 Kokkos::View<Site*, Mem> next, IndexRange selected, std::int64_t n_global, Real xi) {
  const std::int64_t first = selected.first;
  Kokkos::parallel_for(
      "keff::source::comb", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, selected.count),
      KOKKOS_LAMBDA(std::int64_t i) {
        next(i) = bank(comb_index(first + i, xi, m, n_global) - bank_first);
      });
}

}  // namespace keff
