#pragma once
// CMFD feedback on the fission source (OpenMC's cmfd_reweight): the Monte Carlo source's weight per
// coarse cell and group is moved to the CMFD source's shape by one factor per (group, cell).
//
//   score_cmfd_source   site weights per (group, cell), fixed point (exact sums, any order)
//   cmfd_weight_factors f(g, c) = (S_cmfd(g, c) / sum' S_cmfd) / (S_mc(g, c) / sum' S_mc), where sum' runs
//                       over the (g, c) that hold Monte Carlo sites and a CMFD source; 1 elsewhere
//   cmfd_reweight_sites w <- w f(g, c) of the site's coarse cell and group; sites outside the mesh or
//                       the groups keep their weight
//
// Conserved: the total weight of the sites (to rounding), because the CMFD source is renormalised over
// the bins that hold sites. The weight per bin becomes sum' S_mc times the renormalised CMFD source.
// A bin with sites where the CMFD source is zero keeps its weight (factor 1): CMFD left it out of the
// solve (too few collisions yet, src/cmfd/cmfd_accelerator.cpp), which says nothing about its source. A
// factor 0 there would stop the fission source from ever spreading into the cells it is just reaching.
#include "kernels/cmfd_data.hpp"
#include "kernels/fixed_point.hpp"
#include "kernels/vocabulary/site.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// Adds the weights of sites [0, n) into counts(g * n_cells + c) (fixed point, cmfd_fraction_bits).
// `counts` is not zeroed first: ranks and batches of sites can be added in.
template <class Exec, class Mem>
void score_cmfd_source(const Exec& exec, const CmfdMesh& mesh, const CmfdEnergyGroups<Mem>& groups,
                       Kokkos::View<const Site*, Mem> sites, std::int64_t n, Kokkos::View<Fixed*, Mem> counts) {
  const int cells = mesh.n_cells();
  Kokkos::parallel_for(
      "keff::cmfd::score_source", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        const Site s = sites(i);
        const int c = mesh.grid.bin(s.r);
        const int g = groups.group_of(s.energy, s.group);
        if (c >= 0 && g >= 0) Kokkos::atomic_add(&counts(g * cells + c), to_fixed<cmfd_fraction_bits>(s.weight));
      });
}

// factors(i) from the CMFD source and the Monte Carlo source counts, both indexed g * n_cells + c.
template <class Exec, class Mem>
void cmfd_weight_factors(const Exec& exec, Kokkos::View<const Real*, Mem> cmfd_source,
                         Kokkos::View<const Fixed*, Mem> mc_counts, Kokkos::View<Real*, Mem> factors) {
  const auto n = static_cast<int>(factors.extent(0));
  using Policy = Kokkos::RangePolicy<Exec>;
  Fixed mc_total = 0;  // an integer sum: exact in any order
  Real cmfd_total = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::weight_totals", Policy(exec, 0, n),
      KOKKOS_LAMBDA(int i, Fixed& mc, Real& cmfd) {
        if (mc_counts(i) > 0 && cmfd_source(i) > 0) {
          mc += mc_counts(i);
          cmfd += cmfd_source(i);
        }
      },
      mc_total, cmfd_total);
  const bool reweight = mc_total > 0 && cmfd_total > 0;
  const Real scale = reweight ? static_cast<Real>(mc_total) / cmfd_total : 0;
  Kokkos::parallel_for(
      "keff::cmfd::weight_factors", Policy(exec, 0, n), KOKKOS_LAMBDA(int i) {
        const Fixed mc = mc_counts(i);
        factors(i) = reweight && mc > 0 && cmfd_source(i) > 0 ? scale * cmfd_source(i) / static_cast<Real>(mc) : Real(1);
      });
}

// Multiplies the weight of sites [0, n) by the factor of their coarse cell and group.
template <class Exec, class Mem>
void cmfd_reweight_sites(const Exec& exec, const CmfdMesh& mesh, const CmfdEnergyGroups<Mem>& groups,
                         Kokkos::View<const Real*, Mem> factors, Kokkos::View<Site*, Mem> sites, std::int64_t n) {
  const int cells = mesh.n_cells();
  Kokkos::parallel_for(
      "keff::cmfd::reweight", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
      KOKKOS_LAMBDA(std::int64_t i) {
        const int c = mesh.grid.bin(sites(i).r);
        const int g = groups.group_of(sites(i).energy, sites(i).group);
        if (c >= 0 && g >= 0) sites(i).weight *= factors(g * cells + c);
      });
}

}  // namespace keff
