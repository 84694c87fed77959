#pragma once
// The box that holds a model's geometry, read from the root universe's cells: axis planes bound an
// axis, the inside of a sphere all three, the inside of a cylinder the two across its axis. Planes at
// an angle bound nothing here, so a cell bounded only by them counts as unbounded.
#include "io/input/model.hpp"

#include <optional>

namespace keff {

// nullopt when some cell of the root universe with material in it is unbounded on some axis (void
// cells outside the geometry do not count).
std::optional<model::Box> geometry_bounding_box(const model::Problem& problem);

}  // namespace keff
