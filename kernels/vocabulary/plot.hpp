#pragma once
// A slice of the geometry as a picture, in the words both sides use: the plane and its pixels
// (SliceFrame), what a pixel is coloured by, and the values the pixel kernel (kernels/plot_slice.hpp)
// leaves for the host to colour (src/host/plot_palette.hpp). No Kokkos: host-only code includes this.
#include "kernels/vocabulary/enum_names.hpp"
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/vec3.hpp"

#include <cstdint>
#include <span>

namespace keff {

// The plane of a slice, named by the axes of its image: across, then up.
enum class PlotBasis : int { xy = 0, xz = 1, yz = 2 };
inline constexpr EnumName<PlotBasis> plot_basis_names[] = {
    {PlotBasis::xy, "xy"}, {PlotBasis::xz, "xz"}, {PlotBasis::yz, "yz"}};
constexpr std::span<const EnumName<PlotBasis>> enum_names(PlotBasis) { return plot_basis_names; }

// The axis drawn across (0) and up (1) the image of a basis.
constexpr int plot_axis(PlotBasis basis, int which) {
  constexpr int axes[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  return axes[static_cast<int>(basis)][which];
}

// What a pixel's colour says: the material there, or the deepest cell (the one filled with a material).
enum class PlotColorBy : int { material = 0, cell = 1 };
inline constexpr EnumName<PlotColorBy> plot_color_by_names[] = {{PlotColorBy::material, "material"},
                                                                {PlotColorBy::cell, "cell"}};
constexpr std::span<const EnumName<PlotColorBy>> enum_names(PlotColorBy) { return plot_color_by_names; }

// A pixel holds a material or cell index (>= 0) or one of these.
namespace plot_pixel {
inline constexpr std::int32_t void_material = -1;  // a cell filled with void
inline constexpr std::int32_t outside = -2;        // in no cell of the root universe: outside the model
inline constexpr std::int32_t overlap = -3;        // two cells of one universe hold the point
inline constexpr std::int32_t gap = -4;            // no cell of a filled universe (or lattice element) holds it
inline constexpr int special_count = 4;            // the values above: -1 .. -special_count
}  // namespace plot_pixel

// Where pixel (column i, row j) of an nx x ny image lies: the centre of pixel (0, 0), the top-left one,
// steps `pixel[0]` along axis `across` per column and `pixel[1]` down axis `up` per row, so the image
// shows the plane as a map does (up is up).
struct SliceFrame {
  Vec3 top_left;
  int across = 0, up = 1;
  Real pixel[2] = {1, 1};
  std::int64_t nx = 1, ny = 1;

  KEFF_INLINE_FUNCTION Vec3 point(std::int64_t i, std::int64_t j) const {
    Vec3 r = top_left;
    r[across] += static_cast<Real>(i) * pixel[0];
    r[up] -= static_cast<Real>(j) * pixel[1];
    return r;
  }
};

// Pixels of a slice by what they found (every rank and thread counts alike).
struct SliceCounts {
  std::int64_t outside = 0;
  std::int64_t overlap = 0;
  std::int64_t gap = 0;
};

}  // namespace keff
