#pragma once
// A slice of the geometry rendered on the device, as the host-only CLI sees it: no Kokkos header, so
// `keff plot` compiles with the host compiler in every build (like src/driver/run.hpp). Behind it is
// kernels/plot_slice.hpp.
#include "io/input/model.hpp"
#include "kernels/vocabulary/plot.hpp"

#include <cstdint>
#include <vector>

namespace keff {

// The pixels of one slice (frame.nx * frame.ny values, row-major from the top; kernels/vocabulary/plot.hpp
// says what they hold), what they found, and the seconds the pixel kernel took (the View's allocation and
// the copy to the host not counted; `total_seconds` counts them and the geometry's build).
struct SliceImage {
  std::vector<std::int32_t> pixels;
  SliceCounts counts;
  double kernel_seconds = 0;
  double total_seconds = 0;
};

// Renders one slice of `problem`'s geometry on this rank's device. Throws std::invalid_argument for a
// geometry the builder refuses and std::bad_alloc when the device has no room for the pixels.
SliceImage render_slice(const model::Problem& problem, const SliceFrame& frame, PlotColorBy color_by);

}  // namespace keff
