#pragma once
// Next batch's source: exactly N sites combed from the M sorted fission sites. Site i of the new source
// is bank site floor((i + xi) * M / N) with one random xi per batch, the same on every rank, so the
// selection depends only on the global bank order, never on how it is split. The comb picks by index and
// each site keeps its weight: 1 as banked, or the factor CMFD feedback gave it (src/driver/source_cycle.cpp),
// which so reaches the next batch's histories. With P independent populations
// (kernels/vocabulary/populations.hpp) each population's N / P sites are combed so from its own M_p sites,
// each with its own xi: with one xi for all, the populations' leakage was anti-correlated over tens of
// generations and 16 populations quoted twice the seed-to-seed spread (perf/RESULTS.md, "Independent
// populations").
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/populations.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

KOKKOS_INLINE_FUNCTION std::int64_t comb_index(std::int64_t i, Real xi, std::int64_t m, std::int64_t n) {
  const auto j = static_cast<std::int64_t>((static_cast<Real>(i) + xi) * static_cast<Real>(m) / static_cast<Real>(n));
  return j < m ? j : m - 1;
}

// The whole comb of one batch: n new-source sites from the global bank, whose sites are ordered by
// parent so that each population's form one range, [bank_first[q], bank_first[q + 1]) (one population:
// the whole bank, and index() is comb_index). Population q's new sites are [q n / P, (q + 1) n / P).
// index() is monotone in i: each population's part is, and their ranges follow one another.
struct Comb {
  Real xi[max_populations] = {};  // each population's random number (one population: xi[0])
  PopulationSplit split;          // the new source's n sites in populations, as the histories were
  std::int64_t bank_first[max_populations + 1] = {};  // bank_first[split.count]: M, the global bank's size

  KOKKOS_INLINE_FUNCTION std::int64_t n() const { return split.histories; }
  KOKKOS_INLINE_FUNCTION std::int64_t m() const { return bank_first[split.count]; }
  // The bank site new-source site i (< n) is combed from: population q's comb over its own sites. Every
  // population banked a site (the caller checks). One population: comb_index over the whole bank.
  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t i) const {
    const int q = split.of(i);
    const std::int64_t size = split.size();
    return bank_first[q] + comb_index(i - q * size, xi[q], bank_first[q + 1] - bank_first[q], size);
  }
};

// The comb of one population over the whole bank of m sites.
inline Comb whole_bank_comb(Real xi, std::int64_t m, std::int64_t n) {
  Comb c;
  c.xi[0] = xi;
  c.split = PopulationSplit{1, n};
  c.bank_first[1] = m;
  return c;
}

// Where each population's sites begin in this rank's ordered bank, from the first ordered site of each
// of its parents (`bank_offsets`, [local.count + 1], kernels/bank_sort.hpp): starts(q) for q in
// [0, populations], starts(populations) the bank's size. Populations hold whole ranges of histories, so
// a rank's ordered bank holds each one's sites in one range.
template <class Exec, class Mem>
void population_bank_starts(const Exec& exec, Kokkos::View<const std::int64_t*, Mem> bank_offsets, IndexRange local,
                            PopulationSplit split, Kokkos::View<std::int64_t*, Mem> starts) {
  Kokkos::parallel_for(
      "keff::source::population_starts", Kokkos::RangePolicy<Exec>(exec, 0, split.count + 1), KOKKOS_LAMBDA(int q) {
        const std::int64_t parent = q * split.size() - local.first;
        starts(q) = bank_offsets(parent < 0 ? 0 : (parent > local.count ? local.count : parent));
      });
}

// Copies into `next` the combed sites of new-source indices `selected` from a bank holding global sites
// [bank_first, bank_first + bank.extent(0)). Single rank: bank_first is 0, the bank is whole and
// `selected` covers [0, comb.n()).
template <class Exec, class Mem>
void comb_source(const Exec& exec, Kokkos::View<const Site*, Mem> bank, std::int64_t bank_first, const Comb& comb,
                 Kokkos::View<Site*, Mem> next, IndexRange selected) {
  const std::int64_t first = selected.first;
  Kokkos::parallel_for(
      "keff::source::comb", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, selected.count),
      KOKKOS_LAMBDA(std::int64_t i) { next(i) = bank(comb.index(first + i) - bank_first); });
}

}  // namespace keff
