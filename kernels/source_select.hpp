#pragma once
// Next batch's source: exactly N sites combed from the M sorted fission sites. Site i of the new source
// is bank site floor((i + xi) * M / N) with one random xi per batch, the same on every rank, so the
// selection depends only on the global bank order, never on how it is split.
#include "site.hpp"

namespace keff {

KOKKOS_INLINE_FUNCTION std::int64_t comb_index(std::int64_t i, Real xi, std::int64_t m, std::int64_t n) {
  const auto j = static_cast<std::int64_t>((static_cast<Real>(i) + xi) * static_cast<Real>(m) / static_cast<Real>(n));
  return j < m ? j : m - 1;
}

// Copies into `next` the combed sites i in [first, first + next.extent(0)) from a bank holding global
// sites [bank_first, bank_first + bank.extent(0)). Single-rank: both firsts are 0 and the bank is whole.
template <class Exec, class Mem>
void comb_source(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t bank_first, std::int64_t m,
                 Kokkos::View<Site*, Mem> next, std::int64_t first, std::int64_t n, Real xi) {
  Kokkos::parallel_for(
      "keff::source::comb", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, next.extent(0)),
      KOKKOS_LAMBDA(std::int64_t i) {
        Site s = bank(comb_index(first + i, xi, m, n) - bank_first);
        s.weight = 1.0;
        next(i) = s;
      });
}

}  // namespace keff
