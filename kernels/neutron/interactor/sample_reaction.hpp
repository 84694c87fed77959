#pragma once
// Which reaction of a nuclide a collision is, once the collision knows it is a non-elastic scatter or a
// fission: each reaction in proportion to its cross section at E; and which delayed group a delayed
// neutron comes from, in proportion to the groups' probabilities at E.
#include "kernels/neutron/data/nuclide_data.hpp"

namespace keff::neutron {

// Index into d.reactions of the range [first, first + count) chosen with xi in [0, 1); -1 when no
// reaction of the range is open at E.
template <class Mem>
KOKKOS_INLINE_FUNCTION int sample_reaction(const NuclideParams<Mem>& d, int first, int count, const NuclideXs& xs, Real xi) {
  Real sum = 0;
  for (int r = first; r < first + count; ++r) sum += d.reaction_xs(d.reactions(r), xs);
  if (!(sum > 0)) return -1;
  Real target = xi * sum;
  int last_open = -1;
  for (int r = first; r < first + count; ++r) {
    const Real s = d.reaction_xs(d.reactions(r), xs);
    if (s <= 0) continue;
    last_open = r;
    if (target < s) return r;
    target -= s;
  }
  return last_open;  // rounding left xi past the last share
}

template <class Mem>
KOKKOS_INLINE_FUNCTION int sample_scattering_reaction(const NuclideParams<Mem>& d, int nuclide, const NuclideXs& xs, Real xi) {
  const NuclideRecord& n = d.nuclides(nuclide);
  return sample_reaction(d, n.first_reaction, n.reactions, xs, xi);
}

// Among a nuclide's several fission reactions (the chances 19, 20, 21, 38); with one, the caller takes it
// and draws no xi (kernels/neutron/interactor/scatter_evaluated.hpp).
template <class Mem>
KOKKOS_INLINE_FUNCTION int sample_fission_reaction(const NuclideParams<Mem>& d, int nuclide, const NuclideXs& xs, Real xi) {
  const NuclideRecord& n = d.nuclides(nuclide);
  return sample_reaction(d, n.first_fission, n.fissions, xs, xi);
}

// Index into d.groups of the delayed group, chosen with xi by the groups' probabilities at E.
template <class Mem>
KOKKOS_INLINE_FUNCTION int sample_delayed_group(const NuclideParams<Mem>& d, int nuclide, Real energy, Real xi) {
  const NuclideRecord& n = d.nuclides(nuclide);
  Real sum = 0;
  for (int g = n.first_group; g < n.first_group + n.groups; ++g) sum += d.secondaries.evaluate(d.groups(g).probability, energy);
  Real target = xi * sum;
  for (int g = n.first_group; g < n.first_group + n.groups - 1; ++g) {
    const Real p = d.secondaries.evaluate(d.groups(g).probability, energy);
    if (target < p) return g;
    target -= p;
  }
  return n.first_group + n.groups - 1;
}

}  // namespace keff::neutron
