#include "src/host/plot_frame.hpp"

#include "io/input/geometry_bounds.hpp"
#include "io/input/input.hpp"
#include "io/limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace keff {

namespace {

// The box the defaults come from: the geometry's on every axis it bounds, the source box's on the others.
model::Box reference_box(const model::Problem& problem) {
  const auto geometry = geometry_bounding_box(problem);
  model::Box box = problem.settings.source;
  if (!geometry) return box;
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (std::isfinite(geometry->lower[axis]) && std::isfinite(geometry->upper[axis])) {
      box.lower[axis] = geometry->lower[axis];
      box.upper[axis] = geometry->upper[axis];
    }
  }
  return box;
}

std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

char axis_name(int axis) { return "xyz"[axis]; }

}  // namespace

model::Plot complete_plot(const model::Problem& problem, model::Plot plot) {
  const model::Box box = reference_box(problem);
  const int across = plot_axis(plot.basis, 0), up = plot_axis(plot.basis, 1);
  if (!plot.origin) {
    plot.origin = std::array<double, 3>{};
    for (std::size_t axis = 0; axis < 3; ++axis) (*plot.origin)[axis] = 0.5 * (box.lower[axis] + box.upper[axis]);
  }
  if (!plot.width) {
    plot.width = {box.upper[static_cast<std::size_t>(across)] - box.lower[static_cast<std::size_t>(across)],
                  box.upper[static_cast<std::size_t>(up)] - box.lower[static_cast<std::size_t>(up)]};
  }
  const auto [w, h] = *plot.width;
  if (!(w > 0 && h > 0 && std::isfinite(w) && std::isfinite(h))) {
    throw InputError("plot '" + plot.name + "': width " + text(w) + " x " + text(h) +
                     " cm (allowed: finite widths above 0; give one with width = [across, up] or --width W,H)");
  }
  if (!plot.pixels) {
    const double longer = std::max(w, h);
    // The ratio first: default_plot_pixels x 1e308 would overflow to infinity (and 1 x 1 pixels).
    const auto side = [&](double extent) {
      return std::clamp<std::int64_t>(std::llround(static_cast<double>(default_plot_pixels) * (extent / longer)), 1,
                                      default_plot_pixels);
    };
    plot.pixels = {side(w), side(h)};
  }
  const auto [nx, ny] = *plot.pixels;
  if (!limits::plot_pixels_fit(nx, ny)) {
    throw InputError("plot '" + plot.name + "': " + limits::plot_size_text(nx, ny) + " (allowed: " +
                     limits::plot_pixels_allowed() + ")");
  }
  return plot;
}

SliceFrame slice_frame(const model::Plot& plot) {
  SliceFrame f;
  f.across = plot_axis(plot.basis, 0);
  f.up = plot_axis(plot.basis, 1);
  f.nx = (*plot.pixels)[0];
  f.ny = (*plot.pixels)[1];
  f.pixel[0] = (*plot.width)[0] / static_cast<double>(f.nx);
  f.pixel[1] = (*plot.width)[1] / static_cast<double>(f.ny);
  for (int axis = 0; axis < 3; ++axis) f.top_left[axis] = (*plot.origin)[static_cast<std::size_t>(axis)];
  f.top_left[f.across] -= 0.5 * (*plot.width)[0] - 0.5 * f.pixel[0];
  f.top_left[f.up] += 0.5 * (*plot.width)[1] - 0.5 * f.pixel[1];
  return f;
}

bool slice_meets_model(const model::Problem& problem, const model::Plot& plot) {
  const model::Box box = reference_box(problem);
  const int normal = 3 - plot_axis(plot.basis, 0) - plot_axis(plot.basis, 1);
  const auto& o = *plot.origin;
  const auto n = static_cast<std::size_t>(normal);
  if (o[n] < box.lower[n] || o[n] > box.upper[n]) return false;
  for (int which = 0; which < 2; ++which) {
    const auto axis = static_cast<std::size_t>(plot_axis(plot.basis, which));
    const double half = 0.5 * (*plot.width)[static_cast<std::size_t>(which)];
    if (o[axis] + half < box.lower[axis] || o[axis] - half > box.upper[axis]) return false;
  }
  return true;
}

bool model_within_a_pixel(const model::Problem& problem, const model::Plot& plot) {
  const model::Box box = reference_box(problem);
  const SliceFrame f = slice_frame(plot);
  for (int which = 0; which < 2; ++which) {
    const auto axis = static_cast<std::size_t>(which == 0 ? f.across : f.up);
    if (box.upper[axis] - box.lower[axis] < f.pixel[which]) return true;
  }
  return false;
}

std::string describe_slice(const model::Plot& plot) {
  const int across = plot_axis(plot.basis, 0), up = plot_axis(plot.basis, 1);
  const int normal = 3 - across - up;
  const auto& o = *plot.origin;
  return std::string(name_of(plot.basis)) + " slice at " + axis_name(normal) + " = " +
         text(o[static_cast<std::size_t>(normal)]) + " centred on (" + axis_name(across) + ", " + axis_name(up) +
         ") = (" + text(o[static_cast<std::size_t>(across)]) + ", " + text(o[static_cast<std::size_t>(up)]) + "), " +
         text((*plot.width)[0]) + " x " + text((*plot.width)[1]) + " cm, " + std::to_string((*plot.pixels)[0]) +
         " x " + std::to_string((*plot.pixels)[1]) + " pixels, by " + std::string(name_of(plot.color_by));
}

}  // namespace keff
