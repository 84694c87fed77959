#pragma once
// The fission bank: a preallocated View of sites and an atomic counter (a bump allocator). A kernel never
// grows it: a push past capacity only counts, and the host sees count > capacity after the batch,
// enlarges the bank and reruns the batch (its histories are reproducible from their RNG streams).
#include "kernels/particle.hpp"
#include "kernels/vocabulary/site.hpp"

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

// Banks floor(expected + xi) fission neutrons at the particle's position: isotropic, unit weight, keyed
// by (parent, progeny). `born(site, rng)` sets each one's energy or group. `bank` is anything with
// push(site): a FissionBank, or the bank as a collision sees it (kernels/transport/step_collide.hpp).
template <class Bank, class Born>
KOKKOS_INLINE_FUNCTION void bank_fission_sites(Particle& p, Real expected, const Bank& bank, const Born& born) {
  const int n_sites = static_cast<int>(expected + p.rng.next());
  for (int i = 0; i < n_sites; ++i) {
    Site s;
    s.r = p.r;
    s.u = sample_isotropic(p.rng);
    born(s, p.rng);
    s.weight = 1.0;
    s.parent = p.index;
    s.progeny = p.n_progeny++;
    bank.push(s);
  }
}

}  // namespace keff
