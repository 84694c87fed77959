#pragma once
// Continuous-energy physics: material cross sections from nuclide data, and the collision: sample the
// nuclide, bank fission neutrons, then absorb (analog) or scatter: in an NCrystal material below its
// cutoff as its bound atoms do (kernels/thermal_table.hpp), else elastically, isotropically in the
// centre-of-mass frame, off a target moving with the material's thermal motion (kernels/free_gas.hpp) or,
// above the free-gas cutoff and with settings.thermal = "none", at rest.
#include "kernels/collision_outcome.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/free_gas.hpp"
#include "kernels/particle.hpp"
#include "kernels/sample_maxwell.hpp"
#include "kernels/thermal_table.hpp"
#include "kernels/xs_lookup.hpp"

namespace keff {

// Watt fission spectrum chi(E) ~ exp(-E/a) sinh(sqrt(b E)), a in MeV, b in 1/MeV; returns eV.
KOKKOS_INLINE_FUNCTION Real sample_watt_ev(Real a, Real b, Lcg63& rng) {
  for (;;) {
    const Real w = sample_maxwell(a, rng);
    const Real e = w + 0.25 * a * a * b + (2.0 * rng.next() - 1.0) * Kokkos::sqrt(a * a * b * w);
    const Real ev = e * 1.0e6;
    if (ev > constants::energy_min_ev && ev < constants::energy_max_ev) return ev;
  }
}

template <class Mem>
struct ContinuousEnergyPhysics {
  NuclideParams<Mem> nuclides;
  MaterialParams<Mem> materials;

  template <class Cache>
  KOKKOS_INLINE_FUNCTION MacroXs macro_xs(const Particle& p, const Cache& cache) const {
    return keff::macro_xs(nuclides, materials, p.geo.material, p.energy, cache);
  }

  // Entries of the micro-XS cache a lookup in `material` fills (what a particle's cache row carries).
  KOKKOS_INLINE_FUNCTION int cache_entries(int material) const {
    return material < 0 ? 0 : materials.offsets(material + 1) - materials.offsets(material);
  }

  // Energy of a neutron born from a fission of nuclide n (or of the first fissile nuclide of the material
  // for the initial source).
  KOKKOS_INLINE_FUNCTION Real fission_energy(int n, Lcg63& rng) const {
    return sample_watt_ev(nuclides.watt_a(n), nuclides.watt_b(n), rng);
  }

  KOKKOS_INLINE_FUNCTION void initial_source(Site& s, int material, Lcg63& rng) const {
    int n = 0;
    for (int k = materials.offsets(material); k < materials.offsets(material + 1); ++k) {
      if (nuclides.fissile(materials.nuclide(k))) { n = materials.nuclide(k); break; }
    }
    s.energy = fission_energy(n, rng);
  }

  // `bank`: where fission sites go (push(site); kernels/transport/step_collide.hpp).
  template <class Cache, class Bank>
  KOKKOS_INLINE_FUNCTION CollisionOutcome collide(Particle& p, const MacroXs& xs, const Cache& cache, const Bank& bank,
                                                  Real k_prev) const {
    CollisionOutcome out;
    const int mat = p.geo.material;
    const int n = collision_nuclide(materials, mat, cache, xs.total, p.rng.next());
    const MicroXs micro = micro_xs(nuclides, materials, mat, n, p.energy, energy_search(nuclides, p.energy));

    // Fission neutrons, expected weight * nu sigma_f / sigma_t / k of the sampled nuclide: over the
    // nuclide choice that is weight * nu Sigma_f / Sigma_t / k, the collision estimator.
    if (micro.fission > 0) {
      const Real expected = p.weight * micro.nu * micro.fission / (micro.total * k_prev);
      bank_fission_sites(p, expected, bank, [&](Site& s, Lcg63& rng) { s.energy = fission_energy(n, rng); });
    }

    const Real absorption = micro.capture + micro.fission;
    if (p.rng.next() * micro.total < absorption) {
      out.k_absorption = p.weight * micro.nu * micro.fission / absorption;
      p.fate = Fate::absorbed;
      return out;
    }
    const Real awr = nuclides.awr(n), kt = materials.kt(mat);
    if (const int t = materials.thermal.table_of(mat, p.energy); t >= 0) {
      scatter_thermal(p, materials.thermal, t);
    } else if (target_moves(p.energy, awr, kt)) {
      scatter_off_moving_target(p, awr, sample_target_velocity(p.energy, p.u, awr, kt, p.rng));
    } else {
      scatter_elastic(p, awr);
    }
    return out;
  }

  // Target at rest, isotropic in the centre-of-mass frame.
  KOKKOS_INLINE_FUNCTION static void scatter_elastic(Particle& p, Real awr) {
    const Real mu_cm = 2.0 * p.rng.next() - 1.0;
    const Real s = awr * awr + 2.0 * awr * mu_cm + 1.0;
    p.energy *= s / ((awr + 1.0) * (awr + 1.0));
    p.energy = Kokkos::fmax(p.energy, constants::energy_min_ev);
    const Real mu_lab = (1.0 + awr * mu_cm) / Kokkos::sqrt(s);
    p.u = rotate_direction(p.u, mu_lab, p.rng);
  }
};

}  // namespace keff
