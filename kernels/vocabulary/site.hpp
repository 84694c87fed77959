#pragma once
// A fission (source) site: where a new neutron is born. Plain data, so a View of sites moves between
// ranks and into files as bytes, and host-only code (statepoints) reads and writes it without Kokkos.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <cstdint>

namespace keff {

struct Site {
  Vec3 r;
  Vec3 u;
  Real energy = 0;   // eV (continuous energy)
  int group = 0;     // multigroup
  int progeny = 0;   // which of its parent's sites this is
  Real weight = 1;
  std::int64_t parent = 0;  // global index of the parent history in its batch
};

}  // namespace keff
