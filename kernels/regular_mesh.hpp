#pragma once
// A regular Cartesian mesh over a box: shape[0] x shape[1] x shape[2] bins, numbered x fastest. The one
// grid type of keff: the entropy and tally meshes, and the domains of domain decomposition
// (kernels/domain_mesh.hpp).
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

struct RegularMesh {
  Real lower[3] = {0, 0, 0};
  Real inv_width[3] = {1, 1, 1};  // bins per cm
  int shape[3] = {1, 1, 1};

  KOKKOS_INLINE_FUNCTION int n_bins() const { return shape[0] * shape[1] * shape[2]; }

  // The bin's index along each axis; false outside the mesh (and for NaN).
  KOKKOS_INLINE_FUNCTION bool indices(Vec3 r, int idx[3]) const {
    for (int d = 0; d < 3; ++d) {
      const Real f = (r[d] - lower[d]) * inv_width[d];
      if (!(f >= 0) || f >= static_cast<Real>(shape[d])) return false;
      idx[d] = static_cast<int>(f);
    }
    return true;
  }
  // Bin index, or -1 outside the mesh.
  KOKKOS_INLINE_FUNCTION int bin(Vec3 r) const {
    int idx[3];
    if (!indices(r, idx)) return -1;
    return bin_of(idx);
  }
  // The bin nearest to r: positions outside the mesh belong to the bin at its edge (NaN to bin 0 of
  // that axis), so every position has one.
  KOKKOS_INLINE_FUNCTION int nearest_bin(Vec3 r) const {
    int idx[3];
    for (int d = 0; d < 3; ++d) {
      const Real f = (r[d] - lower[d]) * inv_width[d];
      idx[d] = f >= 0 ? static_cast<int>(Kokkos::fmin(f, static_cast<Real>(shape[d] - 1))) : 0;
    }
    return bin_of(idx);
  }

  KOKKOS_INLINE_FUNCTION int bin_of(const int idx[3]) const { return idx[0] + shape[0] * (idx[1] + shape[1] * idx[2]); }
  KOKKOS_INLINE_FUNCTION void indices_of(std::int64_t bin, int idx[3]) const {
    idx[0] = static_cast<int>(bin % shape[0]);
    idx[1] = static_cast<int>((bin / shape[0]) % shape[1]);
    idx[2] = static_cast<int>(bin / (static_cast<std::int64_t>(shape[0]) * shape[1]));
  }
  // Where bin i along `axis` begins (i = shape[axis]: where the mesh ends).
  KOKKOS_INLINE_FUNCTION Real edge(int axis, int i) const { return lower[axis] + i / inv_width[axis]; }
};

}  // namespace keff
