#pragma once
// The pixels of a geometry slice: one thread per pixel, each locating its point as transport does
// (locate, kernels/geometry.hpp) and judging it as the geometry check does (check_geometry_point,
// kernels/geometry_check.hpp), so the picture shows where neutrons would be and doubles as the overlap
// checker's map.
//
// Design notes
// - Pixel p = j * nx + i (row-major, rows from the top): neighbouring threads write neighbouring
//   addresses, and the host reads the View straight into a PNG's rows.
// - A point on a surface is placed by the direction locate is given, as in tracking; one fixed direction,
//   off every axis, so a pixel on a boundary plane goes the same way in every run and on every backend.
// - The check runs first: a point two cells hold is drawn as an overlap whichever cell locate would pick.
#include "kernels/geometry.hpp"
#include "kernels/geometry_check.hpp"
#include "kernels/vocabulary/plot.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// What pixel value the point r shows (kernels/vocabulary/plot.hpp).
template <class Mem>
KOKKOS_INLINE_FUNCTION std::int32_t plot_pixel_value(const GeometryParams<Mem>& g, Vec3 r, PlotColorBy color_by) {
  const GeometryFault fault = check_geometry_point(g, r);
  if (fault.kind == GeometryFaultKind::overlap) return plot_pixel::overlap;
  if (fault.kind == GeometryFaultKind::gap || fault.kind == GeometryFaultKind::outside_lattice) return plot_pixel::gap;
  const Vec3 u{0.6, 0.48, 0.64};  // a unit vector off every axis and diagonal: locate's tie on a surface
  GeometryState s;
  if (!locate(g, r, u, s)) {
    return s.n_levels == 0 ? plot_pixel::outside : plot_pixel::gap;
  }
  if (color_by == PlotColorBy::cell) return s.level[s.n_levels - 1].cell;
  return s.material >= 0 ? s.material : plot_pixel::void_material;
}

// Fills pixels (frame.nx * frame.ny values, row-major from the top) and counts the special ones.
template <class Exec, class Mem>
SliceCounts render_slice_pixels(const Exec& exec, const GeometryParams<Mem>& geometry, const SliceFrame& frame,
                                PlotColorBy color_by, const Kokkos::View<std::int32_t*, Mem>& pixels) {
  SliceCounts counts;
  const std::int64_t nx = frame.nx;
  Kokkos::parallel_reduce(
      "keff::plot::slice_pixels", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, nx * frame.ny),
      KOKKOS_LAMBDA(std::int64_t p, std::int64_t& outside, std::int64_t& overlap, std::int64_t& gap) {
        const std::int32_t v = plot_pixel_value(geometry, frame.point(p % nx, p / nx), color_by);
        pixels(p) = v;
        outside += v == plot_pixel::outside;
        overlap += v == plot_pixel::overlap;
        gap += v == plot_pixel::gap;
      },
      counts.outside, counts.overlap, counts.gap);
  return counts;
}

}  // namespace keff
