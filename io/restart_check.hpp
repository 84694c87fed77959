#pragma once
// What a restart reads from a statepoint, checked against the problem before any of it reaches a
// kernel: the checksum proves the file unchanged since keff wrote it, these checks that its content is
// a state this problem can continue from (a bank edited to 1e6 or infinity used to run to a wrong k).
// Host only; no Kokkos.
#include "io/model.hpp"
#include "io/run_results.hpp"

#include <string>

namespace keff {

// The batches are numbered 1..n with the problem's inactive ones first and finite estimates; the
// accumulators are finite and non-negative; every source site has a finite position inside the
// geometry's bounding box (when the root cells give one; the driver also locates each site in a
// fissionable cell), a unit direction, a positive finite weight, an energy in the continuous-energy
// range or a group of the problem, and non-negative history keys.
// Throws InputError("cannot restart from '<path>': <what, where, allowed>").
void check_restart_data(const std::string& path, const RunResults& statepoint, const model::Problem& problem);

}  // namespace keff
