#pragma once
// Domain decomposition on the device: which domain, and which rank, a position belongs to. The box is
// cut into a regular mesh of domains (kernels/regular_mesh.hpp, x fastest); positions outside the box
// belong to the nearest edge domain. Domain d is tracked by ranks [d * replicas, (d + 1) * replicas); a
// history stays in replica lane index % replicas wherever it goes, so every rank can name a particle's
// owner.
#include "kernels/regular_mesh.hpp"

#include <cstdint>

namespace keff {

struct DomainMesh : RegularMesh {
  int replicas = 1;   // ranks per domain
  int mine = -1;      // this rank's domain; -1: space is not decomposed

  KOKKOS_INLINE_FUNCTION bool decomposed() const { return mine >= 0; }
  KOKKOS_INLINE_FUNCTION int n_domains() const { return n_bins(); }
  KOKKOS_INLINE_FUNCTION int domain_of(Vec3 r) const { return nearest_bin(r); }

  KOKKOS_INLINE_FUNCTION int rank_of(Vec3 r, std::int64_t history) const {
    return domain_of(r) * replicas + static_cast<int>(history % replicas);
  }

  // Whether a particle at r has left this rank's domain.
  KOKKOS_INLINE_FUNCTION bool leaves(Vec3 r) const { return decomposed() && domain_of(r) != mine; }
};

}  // namespace keff
