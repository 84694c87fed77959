#pragma once
// Evaluated cross sections where a neutron is: a nuclide's at its energy, with its unresolved-range
// probability-table band (settings.ptables) and, below an NCrystal material's cutoff, the material's
// bound-atom scattering in place of its free-atom elastic; a material's macroscopic ones, which fill
// the micro-XS cache the collision samples its nuclide from.
//
// The band's uniform number for nuclide n is the n-th number of the particle's urr stream
// (Particle::urr_seed). The stream moves on only at collisions (kernels/neutron/continuous_energy_physics.hpp),
// so the lookup before a flight and the collision after it see the same resonances, as in OpenMC.
#include "kernels/neutron/xs/probability_tables.hpp"
#include "kernels/particle.hpp"
#include "kernels/rng.hpp"
#include "kernels/thermal_table.hpp"

namespace keff::neutron {

KOKKOS_INLINE_FUNCTION Real urr_draw(std::uint64_t urr_seed, int nuclide) {
  Lcg63 r;
  r.state = Lcg63::skip(urr_seed, static_cast<std::uint64_t>(nuclide));
  return r.next();
}

// `search`: E's place in the grid search (NuclideParams::grid_search); `bound`: the material's
// bound-atom scattering cross section per atom at E, or < 0 (none). NuLines: the data's form
// (NuclideParams::lookup_as); the synthetic library has no probability tables.
template <bool NuLines, class Mem>
KOKKOS_FORCEINLINE_FUNCTION NuclideXs nuclide_xs_as(const NuclideParams<Mem>& d, int nuclide, Real energy, int search,
                                                    std::uint64_t urr_seed, bool ptables, Real bound) {
  NuclideXs xs = d.template lookup_as<NuLines>(nuclide, energy, search);
  if constexpr (!NuLines) {
    if (ptables && d.nuclides(nuclide).urr.energies > 1) {
      apply_probability_tables(d, nuclide, energy, urr_draw(urr_seed, nuclide), xs);
    }
  }
  if (bound >= 0) {
    xs.elastic = bound;
    xs.total = xs.elastic + xs.absorption + xs.fission + xs.scattering;
  }
  return xs;
}

template <class Mem>
KOKKOS_INLINE_FUNCTION NuclideXs nuclide_xs(const NuclideParams<Mem>& d, int nuclide, Real energy, int search,
                                            std::uint64_t urr_seed, bool ptables, Real bound) {
  return d.nu_per_lookup() ? nuclide_xs_as<true>(d, nuclide, energy, search, urr_seed, ptables, bound)
                           : nuclide_xs_as<false>(d, nuclide, energy, search, urr_seed, ptables, bound);
}

// The material's bound-atom scattering per atom at E, or -1 outside its NCrystal table (or without one).
template <class Mem>
KOKKOS_INLINE_FUNCTION Real bound_scattering(const MaterialParams<Mem>& materials, int material, Real energy) {
  const int t = materials.thermal.table_of(material, energy);
  return t < 0 ? Real(-1) : thermal_xs(materials.thermal, t, energy);
}

// Macroscopic cross sections (cm^-1) of `material` at `energy`, with the probability-table bands of a
// particle's urr stream; material < 0 (void) gives zeros. cache(k) = density_k * sigma_t_k of the
// material's k-th nuclide (for sample_nuclide).
namespace detail {

template <bool NuLines, class Mem, class Cache>
KOKKOS_INLINE_FUNCTION MacroXs material_macro_xs_as(const NuclideParams<Mem>& d, const MaterialParams<Mem>& materials,
                                                    bool ptables, int material, Real energy, std::uint64_t urr_seed,
                                                    const Cache& cache) {
  MacroXs macro;
  const Real bound = bound_scattering(materials, material, energy);
  const int search = d.grid_search(energy);
  macro.energy_search = search;
  const int begin = materials.offsets(material);
  for (int k = begin; k < materials.offsets(material + 1); ++k) {
    const int n = materials.nuclide(k);
    const Real density = materials.density(k);
    const NuclideXs xs = nuclide_xs_as<NuLines>(d, n, energy, search, urr_seed, ptables, bound);
    const Real total = density * xs.total;
    macro.total += total;
    macro.absorption += density * (xs.absorption + xs.fission);
    macro.fission += density * xs.fission;
    if constexpr (NuLines) {
      macro.nu_fission += density * xs.nu * xs.fission;  // the synthetic library's product order: its bits
    } else {
      macro.nu_fission += density * xs.nu_fission;
    }
    cache(k - begin) = total;
  }
  return macro;
}

}  // namespace detail

template <class Mem, class Cache>
KOKKOS_INLINE_FUNCTION MacroXs material_macro_xs(const NuclideParams<Mem>& d, const MaterialParams<Mem>& materials,
                                                  bool ptables, int material, Real energy, std::uint64_t urr_seed,
                                                  const Cache& cache) {
  if (material < 0) return MacroXs{};
  return d.nu_per_lookup()
             ? detail::material_macro_xs_as<true>(d, materials, ptables, material, energy, urr_seed, cache)
             : detail::material_macro_xs_as<false>(d, materials, ptables, material, energy, urr_seed, cache);
}

// The same where the particle is.
template <class Mem, class Cache>
KOKKOS_INLINE_FUNCTION MacroXs material_macro_xs(const NuclideParams<Mem>& d, const MaterialParams<Mem>& materials,
                                                  bool ptables, const Particle& p, const Cache& cache) {
  return material_macro_xs(d, materials, ptables, p.geo.material, p.energy, p.urr_seed, cache);
}

}  // namespace keff::neutron
