#pragma once
// What MPI reads and writes when the data lives in device memory. A CPU build (device memory is host
// memory), or a GPU build configured with -DKEFF_ENABLE_GPU_AWARE_MPI=ON for a CUDA- or ROCm-aware MPI,
// hands MPI device pointers. Otherwise messages go through pinned host memory
// (Kokkos::SharedHostPinnedSpace, so the copies run at full bus speed). The exchanges say what they move
// and where it lives on the device; this header alone knows which of the two happens:
//
//   StagedBuffer<T>  data with a home in device memory: a grow-only device View and, only when MPI cannot
//                    read device memory, a host mirror; stage_out before a send, stage_in after a receive
//   MpiMem           the memory space MPI itself reads and writes: for landing buffers whose items are
//                    copied elsewhere on arrival (the particle exchange's pre-posted receives)
#include "kernels/device.hpp"
#include "kernels/grow_only.hpp"
#include "kernels/vocabulary/batch.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace keff {

#ifdef KEFF_ENABLE_GPU_AWARE_MPI
inline constexpr bool mpi_reads_device = true;
#else
inline constexpr bool mpi_reads_device = Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible;
#endif

using MpiMem = std::conditional_t<mpi_reads_device, DeviceMem, Kokkos::SharedHostPinnedSpace>;

// `Staged` is a template parameter only so that the staging path can be tested on a CPU build; keff's
// exchanges use the default.
template <class T, bool Staged = !mpi_reads_device>
class StagedBuffer {
 public:
  using Exec = DeviceExec;
  using Mem = DeviceMem;
  using HostMem = Kokkos::SharedHostPinnedSpace;
  static constexpr bool staged = Staged;

  StagedBuffer() = default;
  // `label`: "keff::<area>::<what>"; the host mirror is "<label>_host".
  explicit StagedBuffer(std::string label) : label_(std::move(label)), host_label_(label_ + "_host") {}

  // At least n items on either side, grown by the one rule of kernels/grow_only.hpp; contents are not kept.
  void reserve(std::int64_t n) {
    reserve_grow_only(device_, n, label_);
    if constexpr (Staged) reserve_grow_only(host_, n, host_label_);
  }
  // Makes `device`, a View its caller owns, the device side until release(): MPI receives straight into
  // it where it can (the bank exchange's target slice, the site router's output). The host mirror grows
  // to its extent.
  void attach(Kokkos::View<T*, Mem> device) {
    device_ = std::move(device);
    if constexpr (Staged) reserve_grow_only(host_, static_cast<std::int64_t>(device_.extent(0)), host_label_);
  }
  // Drops the attached View (so its owner can free it); the host mirror stays for the next use.
  void release() { device_ = {}; }

  Kokkos::View<T*, Mem> device() const { return device_; }
  T* data_for_mpi() const {
    if constexpr (Staged) {
      return host_.data();
    } else {
      return device_.data();
    }
  }

  // Items [range] device -> host mirror before MPI sends them, and host mirror -> device after MPI
  // received them. Asynchronous on exec: fence before MPI reads what stage_out copied; kernels on exec
  // see what stage_in copied. Nothing to do when MPI reads device memory.
  void stage_out(const Exec& exec, IndexRange range) const {
    if constexpr (Staged) Kokkos::deep_copy(exec, part(host_, range), part(device_, range));
  }
  void stage_in(const Exec& exec, IndexRange range) const {
    if constexpr (Staged) Kokkos::deep_copy(exec, part(device_, range), part(host_, range));
  }

 private:
  template <class View>
  static auto part(const View& v, IndexRange range) {
    return Kokkos::subview(v, Kokkos::make_pair(range.first, range.end()));
  }

  std::string label_, host_label_;
  Kokkos::View<T*, Mem> device_;
  Kokkos::View<T*, HostMem> host_;  // empty unless Staged
};

}  // namespace keff
