#pragma once
// Domain decomposition on the device: which domain, and which rank, a position belongs to. The box is
// cut into shape[0] x shape[1] x shape[2] domains (x fastest); positions outside the box belong to the
// nearest edge domain. Domain d is tracked by ranks [d * replicas, (d + 1) * replicas); a history stays
// in replica lane index % replicas wherever it goes, so every rank can name a particle's owner.
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

struct DomainMesh {
  Real lower[3] = {0, 0, 0};
  Real inv_width[3] = {0, 0, 0};  // domains per cm
  int shape[3] = {1, 1, 1};
  int replicas = 1;   // ranks per domain
  int mine = -1;      // this rank's domain; -1: space is not decomposed

  KOKKOS_INLINE_FUNCTION bool decomposed() const { return mine >= 0; }
  KOKKOS_INLINE_FUNCTION int n_domains() const { return shape[0] * shape[1] * shape[2]; }

  KOKKOS_INLINE_FUNCTION int domain_of(Vec3 r) const {
    int idx[3];
    for (int d = 0; d < 3; ++d) {
      const Real f = (r[d] - lower[d]) * inv_width[d];
      int i = f >= 0 ? static_cast<int>(Kokkos::fmin(f, static_cast<Real>(shape[d] - 1))) : 0;  // NaN: 0
      idx[d] = i;
    }
    return idx[0] + shape[0] * (idx[1] + shape[1] * idx[2]);
  }

  KOKKOS_INLINE_FUNCTION int rank_of(Vec3 r, std::int64_t history) const {
    return domain_of(r) * replicas + static_cast<int>(history % replicas);
  }

  // Whether a particle at r has left this rank's domain.
  KOKKOS_INLINE_FUNCTION bool leaves(Vec3 r) const { return decomposed() && domain_of(r) != mine; }
};

}  // namespace keff
