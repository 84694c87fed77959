#pragma once
// What a restart reads from a statepoint, checked against the problem before any of it reaches a
// kernel: the checksum proves the file unchanged since keff wrote it, these checks that its content is
// a state this problem can continue from (a bank edited to 1e6 or infinity used to run to a wrong k).
// Host only; no Kokkos.
#include "io/input/model.hpp"
#include "io/output/run_results.hpp"

#include <string>

namespace keff {

// The statepoint's particles, inactive batches and seed are the run's; at least one batch, numbered 1..n
// with the problem's inactive ones first; every k finite in [0, limits::max_k_per_event x
// settings.max_events] and k = k_collision; entropy in [0, log2(entropy-mesh bins)]; fission sites >= 1;
// k_prev equal to the last batch's k_collision; lost particles in [0, settings.max_lost], overflows >= 0;
// this problem's tallies, each (sum, sum of squares) what non-negative values of the active batches make;
// a CMFD window transport can have summed (cmfd_problem in the .cpp); exactly `particles`
// source sites, each with a finite position inside the geometry's bounding box (when the root cells give
// one; the driver also locates each site in a fissionable cell), a unit direction, weight 1 (within
// limits::site_weight_tolerance: the comb's; with CMFD feedback in the statepoint and in this run any
// positive weight, the total within limits::max_cmfd_source_weight_ratio of particles), an energy in the
// continuous-energy range or a group of the problem, and non-negative history keys.
// Throws InputError("cannot restart from '<path>': <what, where, allowed>").
void check_restart_data(const std::string& path, const RunResults& statepoint, const model::Problem& problem);

// What a run of `problem` records as RunResults::ncrystal: this keff's NCrystal version where a material
// has an `ncrystal` cfg, "" where none has.
std::string ncrystal_of(const model::Problem& problem);

// What a run of `problem` records as RunResults::ncrystal_data: a line "<material>\t<digest>\t<file>" per
// material with an `ncrystal` cfg, in the input's order (the digest of the data NCrystal read, and the file
// it was found in: io/thermal/ncrystal.hpp); "" where none has. A restart compares the digests.
std::string ncrystal_data_of(const model::Problem& problem);

}  // namespace keff
