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
//
// Bounded: no factor exceeds max_cmfd_weight_factor. A bin that the Monte Carlo source has barely reached
// (a site or two) can be given a CMFD share hundreds of times its own, and its few sites then carry most
// of the next batch's weight: on the slab of examples/cmfd_slab_2g.toml at 2000 particles one site held
// 64 % of it, and that batch's k was 3.66. The factors are min(F, lambda r) for the raw ratios r above,
// with lambda >= 1 found by bisection so that the total weight is still conserved: the bins CMFD wants
// filled fastest grow by F per batch, and the weight they could not take goes to the others in the
// CMFD's proportions.
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

// The most a site's weight is multiplied by in one feedback (see above).
constexpr Real max_cmfd_weight_factor = 10;

namespace detail {

// sum_i mc_counts(i) min(cap, lambda raw(i)) over the reweighted bins (raw > 0).
template <class Exec, class Mem>
Real capped_weight(const Exec& exec, Kokkos::View<const Real*, Mem> raw, Kokkos::View<const Fixed*, Mem> mc_counts,
                   Real lambda, Real cap) {
  Real total = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::capped_weight", Kokkos::RangePolicy<Exec>(exec, 0, static_cast<int>(raw.extent(0))),
      KOKKOS_LAMBDA(int i, Real& sum) {
        if (raw(i) > 0) sum += static_cast<Real>(mc_counts(i)) * Kokkos::min(cap, lambda * raw(i));
      },
      total);
  return total;
}

}  // namespace detail

// factors(i) from the CMFD source and the Monte Carlo source counts, both indexed g * n_cells + c, each
// at most `cap` (>= 1).
template <class Exec, class Mem>
void cmfd_weight_factors(const Exec& exec, Kokkos::View<const Real*, Mem> cmfd_source,
                         Kokkos::View<const Fixed*, Mem> mc_counts, Kokkos::View<Real*, Mem> factors,
                         Real cap = max_cmfd_weight_factor) {
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
  // The raw ratios first (0 marks a bin that keeps its weight), in `factors` itself.
  Real r_min = 0, r_max = 0;
  Kokkos::parallel_reduce(
      "keff::cmfd::weight_ratios", Policy(exec, 0, n),
      KOKKOS_LAMBDA(int i, Real& lo, Real& hi) {
        const Fixed mc = mc_counts(i);
        const Real r = reweight && mc > 0 && cmfd_source(i) > 0 ? scale * cmfd_source(i) / static_cast<Real>(mc) : Real(0);
        factors(i) = r;
        if (r > 0) {
          lo = Kokkos::min(lo, r);
          hi = Kokkos::max(hi, r);
        }
      },
      Kokkos::Min<Real>(r_min), Kokkos::Max<Real>(r_max));
  Real lambda = 1;
  if (reweight && r_max > cap) {
    // g(lambda) = capped_weight: g(1) <= the total (capping only removes weight), g(cap / r_min) = cap
    // times the total >= the total; g rises with lambda, so bisection finds the lambda that conserves it.
    const Real target = static_cast<Real>(mc_total);
    Real lo = 1, hi = cap / r_min;
    for (int step = 0; step < 100 && hi - lo > 1e-15 * hi; ++step) {
      const Real mid = lo + (hi - lo) / 2;
      (detail::capped_weight(exec, Kokkos::View<const Real*, Mem>(factors), mc_counts, mid, cap) < target ? lo : hi) = mid;
    }
    lambda = hi;
  }
  Kokkos::parallel_for(
      "keff::cmfd::weight_factors", Policy(exec, 0, n), KOKKOS_LAMBDA(int i) {
        const Real r = factors(i);
        factors(i) = r > 0 ? Kokkos::min(cap, lambda * r) : Real(1);
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
