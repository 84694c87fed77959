#pragma once
// Cross sections in the unresolved resonance range from probability tables (ACE's UNR block, NJOY's
// purr): with one uniform number xi, the band whose CDF holds xi at each of the two table energies around
// E; the band's elastic, fission and capture values interpolated between them (linear or log-log, as the
// table says); as factors of the smooth cross sections where the table holds factors. The non-elastic
// scattering stays smooth (the tables' inelastic competition is the smooth sum, ILF), and the total is
// the sum again. Outside the table's energies nothing changes. The caller keeps xi for a nuclide while
// the neutron's energy stays in that range, so its collisions see one consistent set of resonances.
#include "kernels/neutron/data/nuclide_data.hpp"
#include "kernels/vocabulary/bounds.hpp"

namespace keff::neutron {

// The first band whose cumulative probability exceeds xi at table energy `e` of `u`.
template <class Mem>
KOKKOS_INLINE_FUNCTION int probability_band(const NuclideParams<Mem>& d, const UrrRecord& u, int e, Real xi) {
  const Real* cdf = &d.secondaries.reals(u.offset + u.energies + e * 6 * u.bands);
  for (int k = 0; k < u.bands - 1; ++k) {
    if (xi < cdf[k]) return k;
  }
  return u.bands - 1;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION void apply_probability_tables(const NuclideParams<Mem>& d, int nuclide, Real energy, Real xi,
                                                     NuclideXs& xs) {
  const UrrRecord& u = d.nuclides(nuclide).urr;
  if (u.energies < 2) return;
  const Real* grid = &d.secondaries.reals(u.offset);
  if (energy < grid[0] || energy > grid[u.energies - 1]) return;
  int i = 0;
  while (i < u.energies - 2 && grid[i + 1] <= energy) ++i;
  const bool log_log = u.interpolation == 5;
  const Real f = log_log ? Kokkos::log(energy / grid[i]) / Kokkos::log(grid[i + 1] / grid[i])
                         : (energy - grid[i]) / (grid[i + 1] - grid[i]);
  const int band_lo = probability_band(d, u, i, xi), band_hi = probability_band(d, u, i + 1, xi);
  // quantity q (2 elastic, 3 fission, 4 capture) of the chosen bands, between the two energies
  auto value = [&](int q) {
    const Real lo = d.secondaries.reals(u.offset + u.energies + (i * 6 + q) * u.bands + band_lo);
    const Real hi = d.secondaries.reals(u.offset + u.energies + ((i + 1) * 6 + q) * u.bands + band_hi);
    if (log_log && lo > 0 && hi > 0) return Kokkos::exp((1 - f) * Kokkos::log(lo) + f * Kokkos::log(hi));
    return (1 - f) * lo + f * hi;
  };
  Real elastic = value(2), fission = value(3), capture = value(4);
  if (u.factors) {
    elastic *= xs.elastic;
    fission *= xs.fission;
    capture *= xs.absorption;
  }
  xs.elastic = at_least(Real(0), elastic);
  xs.fission = at_least(Real(0), fission);
  xs.absorption = at_least(Real(0), capture);
  xs.total = xs.elastic + xs.absorption + xs.fission + xs.scattering;
  xs.nu_fission = xs.fission > 0 ? d.nu(d.nuclides(nuclide).nu_total, energy) * xs.fission : Real(0);
}

}  // namespace keff::neutron
