#pragma once
// Multigroup physics: macroscopic group constants, isotropic scattering with a group-to-group matrix,
// analog absorption, fission neutrons born in a group sampled from chi.
#include "kernels/collision_outcome.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/particle.hpp"
#include "kernels/xs_data.hpp"

namespace keff {

template <class Mem>
struct MultigroupPhysics {
  MultigroupParams<Mem> mg;

  template <class Cache>
  KOKKOS_INLINE_FUNCTION MacroXs macro_xs(const Particle& p, const Cache&) const {
    MacroXs xs;
    const int m = p.geo.material;
    if (m < 0) return xs;
    xs.total = mg.sigma_t(m, p.group);
    xs.absorption = mg.sigma_a(m, p.group);
    xs.fission = mg.sigma_f(m, p.group);
    xs.nu_fission = mg.nu_sigma_f(m, p.group);
    return xs;
  }

  // Group constants need no micro-XS cache.
  KOKKOS_INLINE_FUNCTION int cache_entries(int) const { return 0; }

  KOKKOS_INLINE_FUNCTION int sample_chi(int m, Lcg63& rng) const {
    const Real xi = rng.next();
    Real c = 0;
    for (int g = 0; g < mg.n_groups; ++g) {
      c += mg.chi(m, g);
      if (xi < c) return g;
    }
    return mg.n_groups - 1;
  }

  KOKKOS_INLINE_FUNCTION void initial_source(Site& s, int material, Lcg63& rng) const {
    s.group = sample_chi(material, rng);
  }

  // `bank`: where fission sites go (push(site); kernels/transport/step_collide.hpp).
  template <class Cache, class Bank>
  KOKKOS_INLINE_FUNCTION CollisionOutcome collide(Particle& p, const MacroXs& xs, const Cache&, const Bank& bank,
                                                  Real k_prev) const {
    CollisionOutcome out;
    const int m = p.geo.material;
    if (xs.nu_fission > 0) {
      const Real expected = p.weight * xs.nu_fission / (xs.total * k_prev);
      bank_fission_sites(p, expected, bank, [&](Site& s, Lcg63& rng) { s.group = sample_chi(m, rng); });
    }
    if (p.rng.next() * xs.total < xs.absorption) {
      out.k_absorption = p.weight * xs.nu_fission / xs.absorption;
      p.fate = Fate::absorbed;
      return out;
    }
    // Outgoing group from the row of the scattering matrix.
    const Real target = p.rng.next() * mg.sigma_s_out(m, p.group);
    Real c = 0;
    int g_out = mg.n_groups - 1;
    for (int g = 0; g < mg.n_groups; ++g) {
      c += mg.sigma_s(m, p.group, g);
      if (target < c) { g_out = g; break; }
    }
    p.group = g_out;
    p.u = sample_isotropic(p.rng);
    return out;
  }
};

}  // namespace keff
