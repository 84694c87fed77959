#pragma once
// The ACE laws given by a formula: level scattering (3), the simple Maxwell fission spectrum (7), the
// evaporation spectrum (9), the Watt spectrum (11) and N-body phase space (66); and the synthetic
// library's Watt spectrum with fixed parameters. Energies in eV.
#include "kernels/neutron/interactor/law_tabular.hpp"
#include "kernels/sample_maxwell.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff::neutron {

// Law 3: the centre-of-mass energy of a neutron leaving a level, E' = (A/(A+1))^2 (E - (A+1)/A |Q|).
KOKKOS_INLINE_FUNCTION Real level_scattering_energy(const LawRecord& law, Real energy) {
  return at_least(Real(0), law.c1 * (energy - law.c0));
}

// Laws 7 and 11 are restricted to E' <= L = E - U (the restriction energy). Where L is several times the
// spectrum's temperature, drawing the whole spectrum until E' <= L is kept at least 7 times in 10. Below
// that (near a threshold, or a fission spectrum with U >= 0 at thermal energies) that acceptance falls
// as (L / theta)^1.5, so E' is drawn from sqrt(E') on [0, L] and kept with the rest of the density, at
// least 1 time in 60: either way the truncated spectrum exactly, in a bounded expected number of draws.
// L <= 0 leaves no energy: E' = 0.
inline constexpr Real restricted_direct_below = 3;  // L / theta (or L / a) from which the whole spectrum is drawn

// E' = L xi^(2/3): the density sqrt(E') on [0, L].
KOKKOS_INLINE_FUNCTION Real sample_sqrt_density(Real limit, Lcg63& rng) {
  return limit * Kokkos::pow(rng.next(), Real(2) / 3);
}

template <class Mem>
KOKKOS_INLINE_FUNCTION Real sample_maxwell_law(const SecondaryParams<Mem>& d, const LawRecord& law, Real energy, Lcg63& rng) {
  const Real theta = d.evaluate(law.f1, energy), limit = energy - law.c0;
  if (!(limit > 0) || !(theta > 0)) return 0;
  for (;;) {
    if (limit >= restricted_direct_below * theta) {
      const Real e = sample_maxwell(theta, rng);
      if (e <= limit) return e;
    } else {
      const Real e = sample_sqrt_density(limit, rng);
      if (rng.next() < Kokkos::exp(-e / theta)) return e;
    }
  }
}

// Law 9: p(E') ~ E' exp(-E'/theta) on [0, E - U], drawn exactly: x = -ln((1 - g xi1)(1 - g xi2)) with
// g = 1 - exp(-(E - U)/theta) is the sum of two truncated exponentials, kept when it is inside.
template <class Mem>
KOKKOS_INLINE_FUNCTION Real sample_evaporation_law(const SecondaryParams<Mem>& d, const LawRecord& law, Real energy,
                                                   Lcg63& rng) {
  const Real theta = d.evaluate(law.f1, energy);
  const Real y = (energy - law.c0) / theta;
  if (!(y > 0)) return 0;
  const Real g = 1 - Kokkos::exp(-y);
  for (;;) {
    const Real x = -Kokkos::log((1 - g * rng.next()) * (1 - g * rng.next()));
    if (x <= y) return x * theta;
  }
}

// Watt fission spectrum chi(E) ~ exp(-E/a) sinh(sqrt(b E)), a in MeV, b in 1/MeV, over the whole
// energy range (drawn again outside it); returns eV. The synthetic library's (LawTag::fixed_watt), and the
// initial source's on evaluated data.
KOKKOS_INLINE_FUNCTION Real sample_watt_ev(Real a, Real b, Lcg63& rng) {
  for (;;) {
    const Real w = sample_maxwell(a, rng);
    const Real e = w + 0.25 * a * a * b + (2.0 * rng.next() - 1.0) * Kokkos::sqrt(a * a * b * w);
    const Real ev = e * 1.0e6;
    if (ev > constants::energy_min_ev && ev < constants::energy_max_ev) return ev;
  }
}

// sinh(s) / s, 1 at s = 0.
KOKKOS_INLINE_FUNCTION Real sinhc(Real s) { return s < Real(1e-4) ? 1 + s * s / 6 : Kokkos::sinh(s) / s; }

template <class Mem>
KOKKOS_INLINE_FUNCTION Real sample_watt_law(const SecondaryParams<Mem>& d, const LawRecord& law, Real energy, Lcg63& rng) {
  const Real a = d.evaluate(law.f1, energy), b = d.evaluate(law.f2, energy), limit = energy - law.c0;
  if (!(limit > 0) || !(a > 0)) return 0;
  if (limit >= restricted_direct_below * a) {
    for (;;) {
      const Real w = sample_maxwell(a, rng);
      const Real e = w + 0.25 * a * a * b + (2 * rng.next() - 1) * Kokkos::sqrt(a * a * b * w);
      if (e <= limit) return e;
    }
  }
  // exp(-E/a) sinh(sqrt(b E)) = sqrt(b E) x exp(-E/a) sinhc(sqrt(b E)), and sinhc grows with E.
  const Real bound = sinhc(Kokkos::sqrt(b * limit));
  for (;;) {
    const Real e = sample_sqrt_density(limit, rng);
    if (rng.next() * bound < Kokkos::exp(-e / a) * sinhc(Kokkos::sqrt(b * e))) return e;
  }
}

// Law 66: one of n bodies sharing E_max = (A_p - 1)/A_p (A/(A+1) E + Q) in the centre of mass, E'/E_max
// with density ~ sqrt(v) (1 - v)^(3n/2 - 4), drawn as MCNP's rule does from Maxwellians; isotropic.
KOKKOS_INLINE_FUNCTION SecondaryDraw sample_n_body(const LawRecord& law, Real energy, Real awr, Real q_value, Lcg63& rng) {
  const int bodies = static_cast<int>(law.c0);
  const Real ap = law.c1;
  const Real e_max = at_least(Real(0), (ap - 1) / ap * (awr / (awr + 1) * energy + q_value));
  const Real x = sample_maxwell(1, rng);
  Real y;
  if (bodies == 3) {
    y = sample_maxwell(1, rng);
  } else if (bodies == 4) {
    const Real r1 = rng.next(), r2 = rng.next(), r3 = rng.next();
    y = -Kokkos::log(r1 * r2 * r3);
  } else {
    const Real r1 = rng.next(), r2 = rng.next(), r3 = rng.next(), r4 = rng.next(), r5 = rng.next(), r6 = rng.next();
    const Real c = Kokkos::cos(0.5 * constants::pi * r6);
    y = -Kokkos::log(r1 * r2 * r3 * r4) - Kokkos::log(r5) * c * c;
  }
  SecondaryDraw out;
  out.energy = x + y > 0 ? e_max * x / (x + y) : 0;
  out.mu = 2 * rng.next() - 1;
  out.mu_drawn = true;
  return out;
}

}  // namespace keff::neutron
