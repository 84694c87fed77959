#pragma once
// Domain decomposition between batches: where each site goes. A source site goes to the rank of the
// domain that contains it (kernels/domain_mesh.hpp); a fission site goes to the rank that ran its
// parent's history under the batch's even split, so the ranks' banks, ordered there, concatenate into
// the global (parent, progeny) order the comb needs.
#include "kernels/domain_mesh.hpp"
#include "kernels/vocabulary/batch.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

namespace keff {

// dest(i) = the rank whose domain holds site i, index(i) = its global history index (range.first + i).
template <class Exec, class Mem>
void source_destinations(const Exec& exec, Kokkos::View<const Site*, Mem> sites, IndexRange range,
                         const DomainMesh& domains, Kokkos::View<int*, Mem> dest, Kokkos::View<std::int64_t*, Mem> index) {
  const std::int64_t first = range.first;
  Kokkos::parallel_for(
      "keff::domains::source_destinations", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, range.count),
      KOKKOS_LAMBDA(std::int64_t i) {
        index(i) = first + i;
        dest(i) = domains.rank_of(sites(i).r, first + i);
      });
}

// dest(i) = the rank that ran the parent of fission site i: part of n_histories split over `ranks`.
template <class Exec, class Mem>
void bank_destinations(const Exec& exec, Kokkos::View<const Site*, Mem> sites, std::int64_t n, std::int64_t n_histories,
                       int ranks, Kokkos::View<int*, Mem> dest, Kokkos::View<std::int64_t*, Mem> index) {
  Kokkos::parallel_for(
      "keff::domains::bank_destinations", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        index(i) = sites(i).parent;
        dest(i) = even_split_part_of(sites(i).parent, n_histories, ranks);
      });
}

}  // namespace keff
