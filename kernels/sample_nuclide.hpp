#pragma once
// Which nuclide of a material a collision is with: drawn from the micro-XS cache the particle's lookup
// filled (density x total cross section of each of the material's nuclides), whichever data it came from.
#include "kernels/xs_data.hpp"

namespace keff {

// The k in [0, count) whose cumulative sum of cache(0..k) first exceeds xi * total (xi in [0, 1)):
// nuclide k of the material, chosen with probability cache(k) / total. Entries of 0 are never chosen
// unless round-off leaves the target past the end, which gives count - 1.
template <class Cache>
KOKKOS_INLINE_FUNCTION int sample_nuclide(const Cache& cache, int count, Real total, Real xi) {
  const Real target = xi * total;
  Real sum = 0;
  for (int k = 0; k < count; ++k) {
    sum += cache(k);
    if (target < sum) return k;
  }
  return count - 1;
}

// The nuclide of `material` a collision is with, drawn with xi from the cache the particle's lookup filled.
template <class Mem, class Cache>
KOKKOS_INLINE_FUNCTION int collision_nuclide(const MaterialParams<Mem>& materials, int material, const Cache& cache,
                                             Real total, Real xi) {
  const int first = materials.offsets(material);
  return materials.nuclide(first + sample_nuclide(cache, materials.offsets(material + 1) - first, total, xi));
}

}  // namespace keff
