#pragma once
// What the geometry check found and why particles were lost, in words naming the model's own cells,
// universes, lattices and surfaces. Host only (no Kokkos): the check itself runs on the device
// (src/driver/geometry_check.hpp, kernels/geometry_check.hpp), the lost-particle record comes from
// kernels/lost_record.hpp.
#include "io/input/model.hpp"
#include "kernels/vocabulary/geometry_faults.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace keff {

// One fault, as the sample points show it: points with the same kind and the same two cells (overlap),
// universe and cell (gap) or lattice and cell (outside_lattice) are one finding.
struct GeometryFinding {
  GeometryFault fault;           // at the first point that showed it
  Vec3 position;                 // that point, in global coordinates
  std::int64_t first_point = 0;  // its index in the check's sequence of points
  std::int64_t points = 0;       // how many points showed it
};

// The result of a sampled geometry check.
struct GeometryCheck {
  model::Box box;                     // where the points were drawn
  bool box_is_source = false;         // the geometry has no bounding box: the source box was sampled
  std::int64_t points = 0;            // drawn, over all ranks
  std::int64_t fault_points = 0;      // that showed a fault
  std::int64_t on_surface_points = 0; // within the tolerance of a surface that decides them: not judged
  std::vector<GeometryFinding> findings;  // in order of first point; complete on rank 0, empty elsewhere
  double seconds = 0;                 // wall time on this rank

  bool found() const { return fault_points > 0; }
  // Every point lay on a surface or a lattice wall, where the flight direction decides: nothing was
  // checked (a model whose coordinates are coarser than the tolerance, far from the origin).
  bool judged_none() const { return points > 0 && on_surface_points == points; }
};

// "cells 'a' (file:line) and 'b' (file:line) of universe 'u' both hold (x, y, z) ..." for one finding.
std::string describe(const model::Problem& problem, const GeometryFinding& finding);

// The report of `keff check-geometry`: where it looked, how long it took, every finding.
void print_geometry_check(std::ostream& os, const model::Problem& problem, const GeometryCheck& check);

// Why `keff run` refuses a model the check found faults in: the first findings, and how to search more
// or skip the check; or that it could judge none of its points.
std::string geometry_refusal(const model::Problem& problem, const GeometryCheck& check);

// One line for the run header: "100000 points, no overlap or gap found (0.012 s)".
std::string geometry_check_summary(const GeometryCheck& check);

// One lost particle of `batch`, for a warning: "batch B, history H: lost at (x, y, z) moving (u, v, w): it
// could not be located after crossing surface 3 (...)".
std::string lost_particle_text(const model::Problem& problem, int batch, const LostParticle& lost);

// Why the run stops: `lost_total` lost particles by `batch`, more than settings.max_lost; the counts per
// reason (over all ranks, this run) and the first lost particle (its position, direction, and which
// limit it hit or where it could not be located), if `lost` recorded one.
std::string lost_particles_message(const model::Problem& problem, int batch, std::int64_t lost_total,
                                   const LostParticles& lost);

}  // namespace keff
