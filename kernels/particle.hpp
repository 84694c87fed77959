#pragma once
// The state of one neutron history. History-based transport keeps it in registers for the whole
// history; an event-based mode stores the same fields in SoA Views over particle slots and loads
// them into this struct, so both modes call the same device physics functions.
#include "geometry_data.hpp"
#include "rng.hpp"
#include "vec3.hpp"

#include <cstdint>

namespace keff {

struct Particle {
  Vec3 r;
  Vec3 u;              // unit direction
  Real energy = 0;     // eV (continuous energy)
  int group = 0;       // multigroup
  Real weight = 1;
  bool alive = true;
  GeometryState geo;
  Lcg63 rng;
  std::int64_t index = 0;  // global index of the history in its batch
  int n_progeny = 0;       // fission sites banked so far
  int n_events = 0;
};

// Isotropic direction.
KOKKOS_INLINE_FUNCTION Vec3 sample_isotropic(Lcg63& rng) {
  const Real mu = 2.0 * rng.next() - 1.0;
  const Real phi = 2.0 * constants::pi * rng.next();
  const Real s = Kokkos::sqrt(Kokkos::fmax(0.0, 1.0 - mu * mu));
  return {s * Kokkos::cos(phi), s * Kokkos::sin(phi), mu};
}

// Rotates direction u by polar cosine mu about a uniformly sampled azimuth.
KOKKOS_INLINE_FUNCTION Vec3 rotate_direction(Vec3 u, Real mu, Lcg63& rng) {
  const Real phi = 2.0 * constants::pi * rng.next();
  const Real cp = Kokkos::cos(phi), sp = Kokkos::sin(phi);
  const Real a = Kokkos::sqrt(Kokkos::fmax(0.0, 1.0 - mu * mu));
  Vec3 out;
  if (Kokkos::fabs(u.z) < 0.9999) {
    const Real b = Kokkos::sqrt(1.0 - u.z * u.z);
    out.x = mu * u.x + a * (u.x * u.z * cp - u.y * sp) / b;
    out.y = mu * u.y + a * (u.y * u.z * cp + u.x * sp) / b;
    out.z = mu * u.z - a * b * cp;
  } else {  // u nearly along z: the formula above loses precision, rotate about y instead
    const Real c = Kokkos::sqrt(Kokkos::fmax(0.0, 1.0 - u.y * u.y));
    out.x = mu * u.x + a * (u.x * u.y * cp + u.z * sp) / c;
    out.y = mu * u.y - a * c * cp;
    out.z = mu * u.z + a * (u.y * u.z * cp - u.x * sp) / c;
  }
  const Real norm = Kokkos::sqrt(dot(out, out));
  return (1.0 / norm) * out;
}

}  // namespace keff
