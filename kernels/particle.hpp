#pragma once
// The state of one neutron history: everything a history needs to continue from any step, so that
// history-based transport can keep it in registers, event-based transport in SoA Views over slots
// (kernels/transport/particle_slots.hpp), and both call the same device step functions (kernels/transport/step_*.hpp).
#include "kernels/geometry_data.hpp"
#include "kernels/rng.hpp"
#include "kernels/vocabulary/bounds.hpp"
#include "kernels/vocabulary/vec3.hpp"
#include "kernels/xs_data.hpp"

#include <cstdint>

namespace keff {

enum class Fate : int { alive = 0, absorbed, leaked, lost };

// What a flight ends in: the step that comes next.
enum class FlightEnd : int { collision = 0, boundary, lost };

// Each field belongs to one slot group ([group] below; slot_fields in kernels/transport/particle_slots.hpp), which
// is how event-based transport keeps it between kernels: a new field goes into its group there too.
struct Particle {
  // [position]
  Vec3 r;
  Vec3 u;              // unit direction
  int cmfd_cell = -1;  // CMFD's coarse cell, carried from flight to flight (kernels/cmfd_tally.hpp)
  // [state]
  Real energy = 0;     // eV (continuous energy)
  int group = 0;       // multigroup
  Real weight = 1;
  Fate fate = Fate::alive;
  // Evaluated data: the stream of the unresolved-range probability-table draws, one per nuclide, the same
  // for every lookup until a collision changes the energy (kernels/neutron/xs/nuclide_lookup.hpp).
  std::uint64_t urr_seed = 0;
  // [geometry]; geo.material moves with every group
  GeometryState geo;
  // [history]
  Lcg63 rng;
  std::int64_t index = 0;   // global index of the history in its batch
  int n_progeny = 0;        // fission sites banked so far
  // The top of the history's stack of secondary neutrons ((n,2n), ...) waiting to be transported, an
  // index into the batch's SecondaryStack (kernels/transport/secondary_stack.hpp); -1: none.
  int secondary_top = -1;
  int n_events = 0;         // flights so far
  std::int64_t n_collisions = 0;

  // [history] This history's estimator scores so far, turned into fixed point when it ends
  // (kernels/transport/step_finish.hpp).
  Real k_collision = 0, k_absorption = 0, k_tracklength = 0;

  // [xs] Cross sections at (xs_material, xs_energy, xs_group); looked up again only when one of them changes.
  MacroXs xs;
  int xs_material = -2;
  Real xs_energy = -1;
  int xs_group = -1;

  // [hit] The boundary the last flight stopped on, for the crossing step.
  BoundaryHit hit;

  KOKKOS_INLINE_FUNCTION bool alive() const { return fate == Fate::alive; }
  KOKKOS_INLINE_FUNCTION bool needs_xs() const {
    return geo.material != xs_material || energy != xs_energy || group != xs_group;
  }
};

// Isotropic direction.
KOKKOS_INLINE_FUNCTION Vec3 sample_isotropic(Lcg63& rng) {
  const Real mu = 2.0 * rng.next() - 1.0;
  const Real phi = 2.0 * constants::pi * rng.next();
  const Real s = Kokkos::sqrt(at_least(0.0, 1.0 - mu * mu));
  return {s * Kokkos::cos(phi), s * Kokkos::sin(phi), mu};
}

// Rotates direction u by polar cosine mu about a uniformly sampled azimuth.
KOKKOS_INLINE_FUNCTION Vec3 rotate_direction(Vec3 u, Real mu, Lcg63& rng) {
  const Real phi = 2.0 * constants::pi * rng.next();
  const Real cp = Kokkos::cos(phi), sp = Kokkos::sin(phi);
  const Real a = Kokkos::sqrt(at_least(0.0, 1.0 - mu * mu));
  Vec3 out;
  if (Kokkos::fabs(u.z) < 0.9999) {
    const Real b = Kokkos::sqrt(1.0 - u.z * u.z);
    out.x = mu * u.x + a * (u.x * u.z * cp - u.y * sp) / b;
    out.y = mu * u.y + a * (u.y * u.z * cp + u.x * sp) / b;
    out.z = mu * u.z - a * b * cp;
  } else {  // u nearly along z: the formula above loses precision, rotate about y instead
    const Real c = Kokkos::sqrt(at_least(0.0, 1.0 - u.y * u.y));
    out.x = mu * u.x + a * (u.x * u.y * cp + u.z * sp) / c;
    out.y = mu * u.y - a * c * cp;
    out.z = mu * u.z + a * (u.y * u.z * cp - u.x * sp) / c;
  }
  const Real norm = Kokkos::sqrt(dot(out, out));
  return (1.0 / norm) * out;
}

}  // namespace keff
