#pragma once
// The fission bank: a preallocated View of sites and an atomic counter (a bump allocator). A kernel never
// grows it: a push past capacity only counts, and the host sees count > capacity after the batch,
// enlarges the bank and reruns the batch (its histories are reproducible from their RNG streams).
#include "site.hpp"

namespace keff {

template <class Mem>
struct FissionBank {
  Kokkos::View<Site*, Mem> sites;
  Kokkos::View<std::int64_t, Mem> count;  // sites pushed this batch, including those that did not fit

  KOKKOS_INLINE_FUNCTION void push(const Site& s) const {
    const std::int64_t slot = Kokkos::atomic_fetch_add(&count(), std::int64_t(1));
    if (slot < static_cast<std::int64_t>(sites.extent(0))) sites(slot) = s;
  }
};

}  // namespace keff
