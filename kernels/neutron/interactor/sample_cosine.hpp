#pragma once
// Cosines from ACE angular data: one table (isotropic, 32 equiprobable bins, or tabular with histogram or
// linear-linear PDF), and a reaction's distribution against incident energy, interpolated stochastically
// between the two tables around E (the next one chosen with the interpolation factor's probability).
#include "kernels/neutron/data/cdf_search.hpp"
#include "kernels/neutron/data/secondary_data.hpp"
#include "kernels/rng.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff::neutron {

// x in bin k of a piecewise PDF (histogram, or linear-linear between p[k] and p[k + 1]) where the CDF
// reaches xi: the inverse of the bin's CDF.
KOKKOS_INLINE_FUNCTION Real invert_bin(const Real* x, const Real* p, const Real* c, int k, int interpolation, Real xi) {
  const Real dc = xi - c[k];
  if (interpolation == 1 || x[k + 1] == x[k]) return p[k] > 0 ? x[k] + dc / p[k] : x[k];
  const Real slope = (p[k + 1] - p[k]) / (x[k + 1] - x[k]);
  if (slope == 0) return p[k] > 0 ? x[k] + dc / p[k] : x[k];
  return x[k] + (Kokkos::sqrt(at_least(Real(0), p[k] * p[k] + 2 * slope * dc)) - p[k]) / slope;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION Real sample_cosine(const SecondaryParams<Mem>& d, const AngleRecord& a, Lcg63& rng) {
  const Real xi = rng.next();
  Real mu;
  switch (a.tag) {
    case AngleTag::equiprobable_bins: {
      const Real* edge = &d.reals(a.offset);
      const Real bins = 32 * xi;
      const int k = Kokkos::min(static_cast<int>(bins), 31);
      mu = edge[k] + (bins - k) * (edge[k + 1] - edge[k]);
      break;
    }
    case AngleTag::tabular: {
      const Real* m = &d.reals(a.offset);
      const Real* p = m + a.points;
      const Real* c = p + a.points;
      const int* guide = d.guide(a.guide);
      mu = invert_bin(m, p, c, cdf_bin(c, a.points, xi, guide), a.interpolation, xi);
      break;
    }
    default: mu = 2 * xi - 1;
  }
  return clamped(mu, Real(-1), Real(1));
}

template <class Mem>
KOKKOS_INLINE_FUNCTION Real sample_cosine(const SecondaryParams<Mem>& d, const AngleDistributionRecord& dist, Real energy,
                                          Lcg63& rng) {
  if (dist.energies == 0) return 2 * rng.next() - 1;
  Real r;
  int i = grid_interval(&d.reals(dist.energy_offset), dist.energies, energy, d.guide(dist.energy_guide), &r);
  if (dist.energies > 1 && rng.next() < r) ++i;
  return sample_cosine(d, d.angles(dist.first_angle + i), rng);
}

}  // namespace keff::neutron
