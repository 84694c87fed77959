#pragma once
// The outgoing energy (and, for the correlated laws, cosine) of a secondary neutron: one of the
// reaction's or delayed group's laws chosen by their probabilities at E, then sampled by its tag. No
// virtual call: a switch over LawTag. The frame (LAB or centre of mass) is the reaction's, applied by
// the collision.
#include "kernels/neutron/interactor/law_spectra.hpp"
#include "kernels/neutron/interactor/law_tabular.hpp"

namespace keff::neutron {

// Laws [first, first + count) of d.laws; `awr` and `q_value` (eV) for law 66.
template <class Mem>
KOKKOS_INLINE_FUNCTION SecondaryDraw sample_secondary(const SecondaryParams<Mem>& d, int first, int count, Real energy,
                                                      Real awr, Real q_value, Lcg63& rng) {
  int chosen = first + count - 1;
  if (count > 1) {
    Real xi = rng.next();
    for (int l = first; l < first + count - 1; ++l) {
      const Real p = d.evaluate(d.laws(l).probability, energy);
      if (xi < p) { chosen = l; break; }
      xi -= p;
    }
  }
  const LawRecord& law = d.laws(chosen);
  SecondaryDraw out;
  switch (law.tag) {
    case LawTag::level_scattering: out.energy = level_scattering_energy(law, energy); break;
    case LawTag::maxwell_fission: out.energy = sample_maxwell_law(d, law, energy, rng); break;
    case LawTag::evaporation: out.energy = sample_evaporation_law(d, law, energy, rng); break;
    case LawTag::watt: out.energy = sample_watt_law(d, law, energy, rng); break;
    case LawTag::n_body: out = sample_n_body(law, energy, awr, q_value, rng); break;
    case LawTag::fixed_watt: out.energy = sample_watt_ev(law.c0, law.c1, rng); break;
    default: out = sample_tabular_law(d, law, energy, rng);
  }
  return out;
}

}  // namespace keff::neutron
