#pragma once
// The one check of a model's universe hierarchy: no universe may contain itself, and the root may nest
// at most max_geometry_levels levels deep (the tracker's fixed level stack). The TOML reader reports a
// problem with the line of the offending key; the geometry builder then trusts the model.
#include "io/input/model.hpp"

#include <optional>
#include <string>

namespace keff {

struct NestingProblem {
  enum class Kind { cycle, too_deep } kind = Kind::cycle;
  int cell = -1;      // cycle: the cell whose fill closes it; too_deep: the cell that fills level max + 1
  int lattice = -1;   // cycle through a lattice: the lattice (filled by `cell`) whose element closes it
  int universe = -1;  // cycle: the universe that contains itself
  int levels = 0;     // too_deep: how many levels the root nests
};

std::optional<NestingProblem> find_nesting_problem(const model::Problem& p);

// "universe 'a' contains itself: cell 'b' (in.toml:12) in universe 'c' closes the cycle", or
// "universes nest 9 levels deep, more than the 8 allowed; cell 'x' (in.toml:40) in universe 'y' fills level 9".
std::string describe(const model::Problem& p, const NestingProblem& problem);

}  // namespace keff
