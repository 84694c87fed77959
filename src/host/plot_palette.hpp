#pragma once
// The colours of a slice: each material (or cell) a colour of its own, taken from its name so the same
// model gets the same colours in every picture and every run, unless the [[plot]] sets one; four fixed
// colours no name can take for what is not a material or cell (kernels/vocabulary/plot.hpp). Then the
// pixels as an RGB image, and the legend that says what each colour is.
#include "io/input/model.hpp"
#include "io/output/png_image.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace keff {

using Rgb = std::array<std::uint8_t, 3>;

struct PlotPalette {
  PlotColorBy color_by = PlotColorBy::material;
  std::vector<std::string> names;  // of the materials or cells, by index
  std::vector<Rgb> colors;         // by index
  // Name colours are drawn with saturation in [0.45, 0.8] and value in [0.65, 0.95], so none is one of these.
  Rgb void_material{210, 210, 210};
  Rgb outside{255, 255, 255};
  Rgb overlap{255, 0, 255};
  Rgb gap{0, 0, 0};

  Rgb color_of(std::int32_t pixel) const;
};

// The colour a name gets when the input sets none.
Rgb name_color(const std::string& name);

PlotPalette plot_palette(const model::Problem& problem, const model::Plot& plot);

// The pixels (row-major from the top) in the palette's colours.
RgbImage color_pixels(const std::vector<std::int32_t>& pixels, std::int64_t nx, std::int64_t ny,
                      const PlotPalette& palette);

// Each colour the image shows with what it is and its share of the pixels, one per line, headed by
// `title` (the input and the slice), for the legend file beside the picture and the terminal.
std::string plot_legend(const std::vector<std::int32_t>& pixels, const PlotPalette& palette, const std::string& title);

}  // namespace keff
