// `keff plot`'s device part: the geometry built as for a run, one kernel over the pixels, and the
// pixels copied straight into the host's vector (no second host copy).
#include "src/driver/plot_slice.hpp"

#include "kernels/device.hpp"
#include "kernels/plot_slice.hpp"
#include "src/params/build_geometry.hpp"

#include <chrono>

namespace keff {

SliceImage render_slice(const model::Problem& problem, const SliceFrame& frame, PlotColorBy color_by) {
  Kokkos::Profiling::ScopedRegion region("keff::plot::slice");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const DeviceExec exec;
  const GeometryParams<DeviceMem> geometry = build_geometry(exec, problem);
  const std::int64_t count = frame.nx * frame.ny;
  const Kokkos::View<std::int32_t*, DeviceMem> pixels(
      Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "keff::plot::pixels"), count);
  exec.fence("keff::plot::pixels_allocated");

  SliceImage image;
  const auto kernel_start = Clock::now();
  image.counts = render_slice_pixels(exec, geometry, frame, color_by, pixels);  // a reduction: it waits
  image.kernel_seconds = std::chrono::duration<double>(Clock::now() - kernel_start).count();

  image.pixels.resize(static_cast<std::size_t>(count));
  const Kokkos::View<std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(image.pixels.data(), count);
  Kokkos::deep_copy(exec, host, pixels);
  exec.fence("keff::plot::pixels_to_host");
  image.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return image;
}

}  // namespace keff
