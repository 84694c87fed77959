#pragma once
// Continuous-energy physics (nuclear data through kernels/neutron/data: ACE tables, [nuclear_data]
// ace = true, or the synthetic library): the Physics of both transport modes in continuous energy.
//
// A collision samples its nuclide from the lookup's cache, banks that nuclide's fission neutrons
// (prompt and delayed, kernels/neutron/interactor/scatter_evaluated.hpp), then absorbs (analog) or
// scatters: elastically, with the tabulated centre-of-mass cosine (isotropic, in closed form, for the
// synthetic library), off a target at rest or, below
// 400 kT (and always for H1), moving with the material's temperature; below an NCrystal material's
// cutoff as its bound atoms do; or by one of the nuclide's non-elastic reactions in proportion to its
// cross section, whose law gives the outgoing energy and cosine in the frame TYR says. A reaction with
// more than one neutron out ((n,2n), (n,3n), ...) pushes the others onto the history's secondary stack
// (kernels/transport/secondary_stack.hpp), each with its own draw of the law.
#include "kernels/collision_outcome.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/free_gas.hpp"
#include "kernels/neutron/interactor/scatter_evaluated.hpp"
#include "kernels/neutron/xs/nuclide_lookup.hpp"
#include "kernels/sample_nuclide.hpp"

namespace keff::neutron {

template <class Mem>
struct ContinuousEnergyPhysics {
  NuclideParams<Mem> data;
  MaterialParams<Mem> materials;  // nuclide indices into data.nuclides
  bool ptables = true;            // settings.ptables

  // The initial source's spectrum: Watt's with U235's thermal-fission parameters, as OpenMC's default.
  static constexpr Real initial_watt_a = 0.988;  // MeV
  static constexpr Real initial_watt_b = 2.249;  // 1/MeV

  template <class Cache>
  KOKKOS_INLINE_FUNCTION MacroXs macro_xs(const Particle& p, const Cache& cache) const {
    return material_macro_xs(data, materials, ptables, p, cache);
  }

  KOKKOS_INLINE_FUNCTION int cache_entries(int material) const {
    return material < 0 ? 0 : materials.offsets(material + 1) - materials.offsets(material);
  }

  // The first batch's energies: the fission spectrum of the material's first fissile nuclide where
  // that is a fixed Watt spectrum (the synthetic library's), else Watt's with U235's parameters.
  KOKKOS_INLINE_FUNCTION void initial_source(Site& s, int material, Lcg63& rng) const {
    Real a = initial_watt_a, b = initial_watt_b;
    for (int k = materials.offsets(material); k < materials.offsets(material + 1); ++k) {
      const NuclideRecord& n = data.nuclides(materials.nuclide(k));
      if (n.fissions == 0) continue;
      const LawRecord& law = data.secondaries.laws(data.reactions(n.first_fission).first_law);
      if (law.tag == LawTag::fixed_watt) {
        a = law.c0;
        b = law.c1;
      }
      break;
    }
    s.energy = sample_watt_ev(a, b, rng);
  }

  template <class Cache, class Bank>
  KOKKOS_INLINE_FUNCTION CollisionOutcome collide(Particle& p, const MacroXs& macro, const Cache& cache, const Bank& bank,
                                                  Real k_prev) const {
    CollisionOutcome out;
    const int mat = p.geo.material;
    const int n = collision_nuclide(materials, mat, cache, macro.total, p.rng.next());
    const Real energy = p.energy;
    const Real bound = bound_scattering(materials, mat, energy);
    // `macro` was looked up at this energy: its search places the energy in the grid again.
    const NuclideXs xs = nuclide_xs(data, n, energy, macro.energy_search, p.urr_seed, ptables, bound);
    const NuclideRecord& nuclide = data.nuclides(n);

    const Real nu_total = xs.fission > 0 ? data.nu(nuclide.nu_total, energy) : Real(0);
    if (xs.fission > 0) {
      const Real expected = p.weight * nu_total * xs.fission / (xs.total * k_prev);
      bank_fission_sites(p, expected, bank, [&](Site& s, Lcg63& rng) {
        int group = -1;
        s.energy = fission_neutron_energy(data, n, xs, energy, nu_total, rng, &group);
      });
    }

    const Real absorption = xs.absorption + xs.fission;
    if (p.rng.next() * xs.total < absorption) {
      out.k_absorption = p.weight * nu_total * xs.fission / absorption;
      p.fate = Fate::absorbed;
      return out;
    }
    // The probability-table draws move on with the energy (OpenMC advances its URR stream likewise).
    if (ptables) p.urr_seed = Lcg63::skip(p.urr_seed, static_cast<std::uint64_t>(data.n_nuclides()));
    // Elastic, or one of the nuclide's non-elastic reactions (no number drawn where it has none).
    const int reaction = nuclide.reactions == 0 || p.rng.next() * (xs.elastic + xs.scattering) < xs.elastic
                             ? -1
                             : sample_scattering_reaction(data, n, xs, p.rng.next());
    if (reaction < 0) {
      out.mt = 2;
      scatter_elastically(p, n, mat);
      return out;
    }
    out.mt = data.reactions(reaction).mt;
    const int neutrons = reaction_neutrons(data, reaction, energy, p.rng);
    if (neutrons == 0) {  // a yield below one that rounded down: no neutron leaves
      p.fate = Fate::absorbed;
      return out;
    }
    const Vec3 u = p.u;
    for (int i = 1; i < neutrons; ++i) {
      Real e_out = energy;
      Vec3 u_out = u;
      emit_from_reaction(data, reaction, nuclide.awr, e_out, u_out, p.rng);
      bank.push_secondary(p, e_out, u_out);
    }
    emit_from_reaction(data, reaction, nuclide.awr, p.energy, p.u, p.rng);
    return out;
  }

  // Elastic scattering of nuclide n in material `mat`: bound (NCrystal), off a moving target, or at rest.
  KOKKOS_INLINE_FUNCTION void scatter_elastically(Particle& p, int n, int mat) const {
    if (const int t = materials.thermal.table_of(mat, p.energy); t >= 0) {
      scatter_thermal(p, materials.thermal, t);
      return;
    }
    const Real awr = data.nuclides(n).awr, kt = materials.kt(mat);
    const bool moves = target_moves(p.energy, awr, kt);
    if (data.nuclides(n).elastic_angle < 0) {  // isotropic in the centre of mass: the closed forms
      if (moves) {
        scatter_off_moving_target(p, awr, sample_target_velocity(p.energy, p.u, awr, kt, p.rng));
      } else {
        scatter_isotropic_at_rest(awr, p.energy, p.u, p.rng);
      }
      return;
    }
    const Vec3 v_t = moves ? sample_target_velocity(p.energy, p.u, awr, kt, p.rng) : Vec3{};
    scatter_elastic_evaluated(data, n, v_t, p.energy, p.u, p.rng);
  }
};

}  // namespace keff::neutron
