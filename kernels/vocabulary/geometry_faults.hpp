#pragma once
// What can be wrong with a geometry, in the words both sides use: the faults the sampled geometry check
// finds at a point (kernels/geometry_check.hpp) and the reasons a particle is lost in transport
// (kernels/lost_record.hpp). The host turns both into messages (src/host/geometry_report.hpp).
// No Kokkos: host-only code includes this.
#include "kernels/vocabulary/enum_names.hpp"
#include "kernels/vocabulary/types.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace keff {

// What the geometry check found at one sample point. Only `overlap`, `gap` and `outside_lattice` are
// faults; `on_surface` marks a point it could not judge by position alone (within coincident_tolerance
// of a surface or lattice wall that decides it), which is skipped rather than guessed.
enum class GeometryFaultKind : int { none = 0, overlap, gap, outside_lattice, on_surface };

struct GeometryFault {
  GeometryFaultKind kind = GeometryFaultKind::none;
  // overlap: the two cells (the first two of their universe, in input order, that hold the point);
  // gap: the universe no cell of which holds the point, and the cell it fills (or whose lattice placed it);
  // outside_lattice: the lattice outside whose elements the point lies (it has no outer universe), and
  // the cell it fills.
  int a = -1, b = -1;
  Vec3 local;  // the point in the coordinates of that universe (overlap, gap) or of the lattice's cell
};

// Why a particle was lost (LostRecord keeps the first one's reason and counts every reason).
enum class LostReason : int {
  none = 0,
  at_source,        // its source site is in no cell
  max_events,       // more flights than settings.max_events
  infinite_flight,  // a flight with no collision and no boundary ahead: an unbounded void
  after_crossing,   // no cell holds it after it crossed a surface or lattice wall
};
inline constexpr int lost_reason_count = 5;
inline constexpr EnumName<LostReason> lost_reason_names[] = {{LostReason::none, "none"},
                                                             {LostReason::at_source, "at_source"},
                                                             {LostReason::max_events, "max_events"},
                                                             {LostReason::infinite_flight, "infinite_flight"},
                                                             {LostReason::after_crossing, "after_crossing"}};
constexpr std::span<const EnumName<LostReason>> enum_names(LostReason) { return lost_reason_names; }

// The first lost particle of a rank, as the host reads it back, and the rank's count per reason.
struct LostParticle {
  std::int64_t history = -1;  // global index of its history in its batch
  LostReason reason = LostReason::none;
  Vec3 r, u;
  int surface = -1;   // after_crossing: the surface crossed (index), or -1 for a lattice element wall
  int cell = -1;      // max_events, infinite_flight: the deepest cell it was in
  int universe = -1;  // at_source, after_crossing: the universe no cell of which holds it (-1: unknown)
  int lattice = -1;   // ... or the lattice outside whose elements it is, which has no outer universe
};

struct LostParticles {
  bool recorded = false;  // whether this rank lost one (`first` is meaningless otherwise)
  LostParticle first;
  std::array<std::int64_t, lost_reason_count> per_reason{};  // indexed by LostReason
  std::vector<LostParticle> batch;  // this batch's, the first few described (kernels/lost_record.hpp)
};

}  // namespace keff
