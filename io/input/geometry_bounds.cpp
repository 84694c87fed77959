#include "io/input/geometry_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keff {

namespace {

constexpr double unbounded = std::numeric_limits<double>::infinity();

// Narrows `box` by one half-space of the cell's region.
void narrow(const model::Surface& s, bool positive, model::Box& box) {
  const auto& c = s.coeffs;
  const auto keep_above = [&](int axis, double x) { box.lower[axis] = std::max(box.lower[axis], x); };
  const auto keep_below = [&](int axis, double x) { box.upper[axis] = std::min(box.upper[axis], x); };
  const auto within = [&](int axis, double centre, double radius) {
    keep_above(axis, centre - radius);
    keep_below(axis, centre + radius);
  };
  switch (s.kind) {
    case SurfaceKind::x_plane: positive ? keep_above(0, c[0]) : keep_below(0, c[0]); break;
    case SurfaceKind::y_plane: positive ? keep_above(1, c[0]) : keep_below(1, c[0]); break;
    case SurfaceKind::z_plane: positive ? keep_above(2, c[0]) : keep_below(2, c[0]); break;
    case SurfaceKind::plane: {
      // a x + b y + c z > d: bounds an axis only when the normal lies along it.
      const double norm = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
      for (int axis = 0; axis < 3; ++axis) {
        const double n = c[axis] / norm;
        if (std::fabs(std::fabs(n) - 1.0) > 1e-12) continue;
        const double x = c[3] / c[axis];
        (positive == (n > 0)) ? keep_above(axis, x) : keep_below(axis, x);
      }
      break;
    }
    case SurfaceKind::sphere:
      if (!positive) for (int axis = 0; axis < 3; ++axis) within(axis, c[axis], c[3]);
      break;
    case SurfaceKind::x_cylinder:
      if (!positive) within(1, c[0], c[2]), within(2, c[1], c[2]);
      break;
    case SurfaceKind::y_cylinder:
      if (!positive) within(0, c[0], c[2]), within(2, c[1], c[2]);
      break;
    case SurfaceKind::z_cylinder:
      if (!positive) within(0, c[0], c[2]), within(1, c[1], c[2]);
      break;
  }
}

}  // namespace

std::optional<model::Box> geometry_bounding_box(const model::Problem& p) {
  model::Box all;
  all.lower = {unbounded, unbounded, unbounded};
  all.upper = {-unbounded, -unbounded, -unbounded};
  bool any = false;
  for (int c : p.universes[static_cast<std::size_t>(p.root_universe)].cells) {
    const model::Cell& cell = p.cells[static_cast<std::size_t>(c)];
    model::Box box;
    box.lower = {-unbounded, -unbounded, -unbounded};
    box.upper = {unbounded, unbounded, unbounded};
    for (const model::HalfSpace& h : cell.region) narrow(p.surfaces[static_cast<std::size_t>(h.surface)], h.positive, box);
    const bool bounded = std::all_of(box.lower.begin(), box.lower.end(), [](double x) { return std::isfinite(x); }) &&
                         std::all_of(box.upper.begin(), box.upper.end(), [](double x) { return std::isfinite(x); });
    const bool void_cell = cell.fill_kind == FillKind::material && cell.fill < 0;
    if (!bounded) {
      if (void_cell) continue;
      return std::nullopt;
    }
    any = true;
    for (int axis = 0; axis < 3; ++axis) {
      all.lower[axis] = std::min(all.lower[axis], box.lower[axis]);
      all.upper[axis] = std::max(all.upper[axis], box.upper[axis]);
    }
  }
  if (!any) return std::nullopt;
  return all;
}

}  // namespace keff
