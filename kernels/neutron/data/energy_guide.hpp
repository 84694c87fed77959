#pragma once
// Where an energy falls in a tabulated function's ascending energies (a TAB1's abscissae, a law's or an
// angular distribution's incident energies): bisection, narrowed first by a guide over the energy's
// binary exponent and its leading mantissa bits. For a positive double those bits, read as an integer,
// grow with the number, and each value of them (a key) covers a slice of a factor of two (an eighth of
// one, with three mantissa bits): a logarithmic grid of slices that costs a shift, where a logarithmic
// hash costs a log.
//
// The guide of a function holds the interval of each slice's lower edge, from the slice of its first
// energy to the one after its last. An energy in a slice lies between the intervals of that slice's
// edge and of the next one, and the interval is a nondecreasing function of the energy, so bisecting
// between them finds the interval bisecting the whole grid finds: results are bit-for-bit those of the
// unguided search. Each step is a dependent load; ν(E) has 79 points, a fission spectrum's incident
// grid and an elastic cosine's tens, and the guide leaves one or two steps of them. Guides are built
// with the tables (src/params/flatten_secondaries.cpp) by the same search.
//
// ints[guide] holds the first slice's key, ints[guide + 1] the number of entries, then the entries.
#include "kernels/neutron/data/cdf_search.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff::neutron {

static_assert(sizeof(Real) == sizeof(std::uint64_t), "the guide's keys read a double's bits");

// The key's mantissa bits: 2^3 slices per factor of two.
inline constexpr int energy_guide_mantissa_bits = 3;
// Shorter grids are bisected whole: a guide would save at most three steps.
inline constexpr int energy_guide_min_points = 16;

// The slice of a positive energy.
KOKKOS_INLINE_FUNCTION int energy_guide_key(Real e) {
  return static_cast<int>(Kokkos::bit_cast<std::uint64_t>(e) >> (52 - energy_guide_mantissa_bits));
}

// The lowest energy of slice `key`.
KOKKOS_INLINE_FUNCTION Real energy_guide_edge(int key) {
  return Kokkos::bit_cast<Real>(static_cast<std::uint64_t>(key) << (52 - energy_guide_mantissa_bits));
}

// The interval of e, where the caller knows x[0] < e < x[n - 1]; `guide`: ints[guide] (the layout above),
// or null for the whole bisection.
KOKKOS_INLINE_FUNCTION int energy_interval(const Real* x, int n, Real e, const int* guide) {
  if (guide == nullptr) return cdf_bin(x, n, e);
  const int j = energy_guide_key(e) - guide[0];
  return cdf_bin_between(x, guide[2 + j], guide[2 + j + 1] + 1, e);
}

// The index i of the interval [x[i], x[i + 1]] holding e, held at the ends (0 at or below x[0], n - 2 at
// or above x[n - 1]), and e's fraction of it; `guide` as energy_interval's. A guide's entry for an edge is
// this interval.
KOKKOS_INLINE_FUNCTION int grid_interval(const Real* x, int n, Real e, const int* guide, Real* fraction) {
  if (n < 2 || e <= x[0]) { *fraction = 0; return 0; }
  if (e >= x[n - 1]) { *fraction = 1; return n - 2; }
  const int i = energy_interval(x, n, e, guide);
  *fraction = (e - x[i]) / (x[i + 1] - x[i]);
  return i;
}

}  // namespace keff::neutron
