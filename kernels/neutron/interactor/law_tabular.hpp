#pragma once
// ACE laws 4 (continuous tabular), 44 (Kalbach-Mann) and 61 (tabular cosines per outgoing energy): the
// outgoing energy from the tables at the two incident energies around E. One of the two tables is chosen
// with the interpolation factor's probability, E' is drawn from it, and a continuum E' is scaled from that
// table's range to the range interpolated at E ("unit-base interpolation", as MCNP and NJOY do it);
// discrete lines are not scaled. Laws 44 and 61 also give the cosine, correlated with E'.
#include "kernels/neutron/interactor/sample_cosine.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff::neutron {

struct SecondaryDraw {
  Real energy = 0;      // eV
  Real mu = 0;          // cosine, when mu_drawn
  bool mu_drawn = false;
};

// Kalbach-Mann's cosine: p(mu) = A / (2 sinh A) [cosh(A mu) + R sinh(A mu)].
KOKKOS_INLINE_FUNCTION Real sample_kalbach_cosine(Real r, Real a, Lcg63& rng) {
  const Real xi1 = rng.next(), xi2 = rng.next();
  if (a <= 0) return 2 * xi2 - 1;
  if (xi1 > r) {
    const Real t = (2 * xi2 - 1) * Kokkos::sinh(a);
    return Kokkos::log(t + Kokkos::sqrt(t * t + 1)) / a;
  }
  return Kokkos::log(xi2 * Kokkos::exp(a) + (1 - xi2) * Kokkos::exp(-a)) / a;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION SecondaryDraw sample_tabular_law(const SecondaryParams<Mem>& d, const LawRecord& law, Real energy,
                                                        Lcg63& rng) {
  Real r;
  const int i = grid_interval(&d.reals(law.energy_offset), law.energies, energy, d.guide(law.energy_guide), &r);
  const bool histogram = law.incident_interpolation == 1 || law.energies < 2;
  const int l = (!histogram && rng.next() < r) ? i + 1 : i;

  // The continuum's ends at E: interpolated between the two tables' first and last continuum energies.
  const OutgoingRecord& ti = d.outgoing(law.first_table + i);
  const OutgoingRecord& tj = d.outgoing(law.first_table + Kokkos::min(i + 1, law.energies - 1));
  const Real* ei = &d.reals(ti.offset);
  const Real* ej = &d.reals(tj.offset);
  const Real lo_i = ei[ti.discrete], hi_i = ei[ti.points - 1];
  const Real lo_j = ej[tj.discrete], hi_j = ej[tj.points - 1];
  const Real lo = lo_i + r * (lo_j - lo_i), hi = hi_i + r * (hi_j - hi_i);

  const OutgoingRecord& t = d.outgoing(law.first_table + l);
  const Real* e = &d.reals(t.offset);
  const Real* p = e + t.points;
  const Real* c = p + t.points;
  const Real xi = rng.next();
  SecondaryDraw out;
  int k = t.points - 1;
  for (int line = 0; line < t.discrete; ++line) {
    if (xi < c[line]) { k = line; break; }
  }
  const bool discrete = k < t.discrete;
  if (discrete) {
    out.energy = e[k];
  } else if (t.points == 1) {
    k = 0;
    out.energy = e[0];
  } else {
    k = t.discrete + cdf_bin(c + t.discrete, t.points - t.discrete, xi, d.guide(t.guide));
    k = Kokkos::min(k, t.points - 2);
    out.energy = invert_bin(e, p, c, k, t.interpolation, xi);
  }
  const Real drawn = out.energy;  // on table l's own scale, for the correlated quantities
  if (!discrete && !histogram && t.points > 1) {
    const Real lo_l = l == i ? lo_i : lo_j, hi_l = l == i ? hi_i : hi_j;
    if (hi_l > lo_l) out.energy = lo + (out.energy - lo_l) * (hi - lo) / (hi_l - lo_l);
  }
  out.energy = at_least(Real(0), out.energy);

  if (law.tag == LawTag::kalbach_mann) {
    const Real* rr = c + t.points;
    const Real* aa = rr + t.points;
    Real kr = rr[k], ka = aa[k];
    if (!discrete && t.interpolation == 2 && k + 1 < t.points && e[k + 1] > e[k]) {
      const Real f = (drawn - e[k]) / (e[k + 1] - e[k]);
      kr += f * (rr[k + 1] - rr[k]);
      ka += f * (aa[k + 1] - aa[k]);
    }
    out.mu = sample_kalbach_cosine(kr, ka, rng);
    out.mu_drawn = true;
  } else if (law.tag == LawTag::correlated_tabular) {
    // The cosine table of the nearer tabulated E' (by CDF), or of the bin for a histogram.
    int j = k;
    if (!discrete && t.interpolation == 2 && k + 1 < t.points && xi - c[k] >= c[k + 1] - xi) j = k + 1;
    out.mu = sample_cosine(d, d.angles(t.first_angle + j), rng);
    out.mu_drawn = true;
  }
  return out;
}

}  // namespace keff::neutron
