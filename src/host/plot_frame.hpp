#pragma once
// Where a slice lies: a [[plot]] (or `keff plot`'s flags) with what it leaves out worked out from the
// geometry, and the frame the pixel kernel walks (kernels/vocabulary/plot.hpp).
#include "io/input/model.hpp"
#include "kernels/vocabulary/plot.hpp"

#include <string>

namespace keff {

// Pixels along the longer side of a slice whose pixels are not given.
inline constexpr std::int64_t default_plot_pixels = 1000;

// `plot` with origin, width and pixels set: the origin defaults to the centre of the geometry's bounding
// box, the width to the box's extent across and up the slice, the pixels to default_plot_pixels along
// the longer side and square pixels. An axis the geometry leaves unbounded (a 2-D model's z) takes the
// source box's extent. Throws InputError when the given or derived sizes are not allowed.
model::Plot complete_plot(const model::Problem& problem, model::Plot plot);

// The frame of a completed plot.
SliceFrame slice_frame(const model::Plot& plot);

// Whether the slice's rectangle meets the geometry's bounding box (or the source box when the geometry
// has none): a slice that does not is all outside.
bool slice_meets_model(const model::Problem& problem, const model::Plot& plot);

// Whether the model's box is narrower than one pixel across or up: a picture too coarse to show it,
// where a wider slice would only be coarser.
bool model_within_a_pixel(const model::Problem& problem, const model::Plot& plot);

// "xy slice at z = 0 through (21.42, 21.42), 42.84 x 42.84 cm, 1000 x 1000 pixels, by material"
std::string describe_slice(const model::Plot& plot);

}  // namespace keff
