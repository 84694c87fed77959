#pragma once
// Bound-atom scattering from tables (ThermalTables, kernels/xs_data.hpp): what NCrystal says of a
// material's scattering below its cutoff, sampled on the host before transport, read here on any device.
// Each part's cross section (elastic, inelastic) is interpolated linearly between the grid's energies, and
// so is the double-differential cross section: a scatter at E in [E_i, E_i+1] with fraction f picks a
// part and one of the two grid energies with probability (1 - f) xs(i) or f xs(i + 1) of that part, then
// one of that energy's equally likely outcomes of that part. An inelastic outcome moves E by its energy
// change. An elastic outcome leaves E as it is and keeps its momentum transfer, 1 - mu proportional to
// 1 / E: exact for a Bragg plane (its edge is where 1 - mu = 2) and for incoherent elastic scattering,
// whose distribution depends on the momentum transfer alone.
// With settings.thermal_tables = false (host backends) NCrystal answers instead, through the host calls
// io/thermal provides (ThermalHostCalls), with the particle's own random numbers.
#include "kernels/particle.hpp"
#include "kernels/vocabulary/bounds.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

// The grid interval [i, i + 1] around E and the fraction f of the way along it, f in [0, 1].
template <class Mem>
KOKKOS_INLINE_FUNCTION int thermal_interval(const ThermalTables<Mem>& th, Real E, Real& f) {
  const int last = static_cast<int>(th.energy.extent(0)) - 1;
  const Real x = (Kokkos::log(E) - th.log_min) * th.inv_log_step;
  int i = x > 0 ? static_cast<int>(x) : 0;
  if (i > last - 1) i = last - 1;
  // The log may round across a grid energy: step to the interval that holds E.
  if (i > 0 && E < th.energy(i)) --i;
  if (i < last - 1 && E >= th.energy(i + 1)) ++i;
  f = (E - th.energy(i)) / (th.energy(i + 1) - th.energy(i));
  f = f < Real(0) ? Real(0) : (f > Real(1) ? Real(1) : f);
  return i;
}

// The particle's stream as NCrystal's random numbers (ThermalHostCalls::draw).
inline double draw_from_particle(void* rng) { return static_cast<Lcg63*>(rng)->next(); }

// Table t's scattering cross section at E (barns per atom).
template <class Mem>
KOKKOS_INLINE_FUNCTION Real thermal_xs(const ThermalTables<Mem>& th, int t, Real E) {
  if (th.direct.self) {
    KOKKOS_IF_ON_HOST((return th.direct.xs(th.direct.self, t, E);))
    KOKKOS_IF_ON_DEVICE((Kokkos::abort("keff: NCrystal is called on the host only (settings.thermal_tables)");))
  }
  Real f = 0;
  const int i = thermal_interval(th, E, f);
  return (1 - f) * (th.xs_elastic(t, i) + th.xs_inelastic(t, i)) + f * (th.xs_elastic(t, i + 1) + th.xs_inelastic(t, i + 1));
}

// A scatter of `p` by table t: its new energy and direction.
template <class Mem>
KOKKOS_INLINE_FUNCTION void scatter_thermal(Particle& p, const ThermalTables<Mem>& th, int t) {
  if (th.direct.self) {
    KOKKOS_IF_ON_HOST((double e_out = 0, mu_out = 1;
                       th.direct.scatter(th.direct.self, t, p.energy, &draw_from_particle, &p.rng, &e_out, &mu_out);
                       p.energy = clamped(e_out, constants::energy_min_ev, constants::energy_max_ev);
                       p.u = rotate_direction(p.u, mu_out, p.rng); return;))
    KOKKOS_IF_ON_DEVICE((Kokkos::abort("keff: NCrystal is called on the host only (settings.thermal_tables)");))
  }
  Real f = 0;
  const int i = thermal_interval(th, p.energy, f);
  // The four shares of the interpolated cross section: elastic at i and i + 1, then inelastic at both.
  const Real el_lo = (1 - f) * th.xs_elastic(t, i), el_hi = f * th.xs_elastic(t, i + 1);
  const Real in_lo = (1 - f) * th.xs_inelastic(t, i), in_hi = f * th.xs_inelastic(t, i + 1);
  Real r = p.rng.next() * (el_lo + el_hi + in_lo + in_hi);
  const bool elastic = r < el_lo + el_hi;
  if (!elastic) r -= el_lo + el_hi;
  const int k = r < (elastic ? el_lo : in_lo) ? i : i + 1;
  const int samples = static_cast<int>(th.elastic_mu.extent(2));
  int j = static_cast<int>(p.rng.next() * samples);
  if (j > samples - 1) j = samples - 1;
  Real mu = 1;
  if (elastic) {
    mu = at_least(Real(-1), 1 - (1 - th.elastic_mu(t, k, j)) * th.energy(k) / p.energy);
  } else {
    mu = th.inelastic_mu(t, k, j);
    p.energy = clamped(p.energy + th.inelastic_shift(t, k, j), constants::energy_min_ev, constants::energy_max_ev);
  }
  p.u = rotate_direction(p.u, mu, p.rng);
}

}  // namespace keff
