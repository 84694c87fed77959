#pragma once
// How every builder here takes data to the device: it assembles each Params View on the host, where the
// model is, and copies it once. Labels are keff::<area>::<what>; the device View keeps its host View's.
//
// Why not one list of fields per Params struct, as kernels/transport/particle_slots.hpp has for the slot
// fields: slots are allocated and moved alike, field after field, but each Params View is filled by
// code of its own from a part of the model with extents of its own, so a builder names every field
// anyway, and the copy is the one line where the host View meets its member. A list would add a line
// per field (and a host twin of each struct, whose Views kernels see as const) and remove none.
#include "kernels/device.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace keff {

// Per-entity rows ([surface][coefficient], [material][group], [bin][nuclide]) are LayoutRight on every
// device: a thread reads one entity's row (kernels/README.md, "Layouts").
using Rows = Kokkos::LayoutRight;

// A host View with the layout of the device View it becomes (host_mirror_type), so the copy is a plain
// memcpy on a GPU and none at all when the device is the host.
template <class DataType, class Layout = DeviceExec::array_layout>
using HostView = typename Kokkos::View<DataType, Layout, DeviceMem>::host_mirror_type;

// Uninitialised: the builder writes every entry.
template <class DataType, class Layout = DeviceExec::array_layout, class... Extents>
HostView<DataType, Layout> host_view(const std::string& label, Extents... extents) {
  return HostView<DataType, Layout>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                    static_cast<std::size_t>(extents)...);
}

// The device View of `host`, copied on `exec`. The copy is asynchronous: the caller fences `exec` before
// `host` goes out of scope. When the device is the host, this is `host` itself.
template <class HostViewType>
auto to_device(const DeviceExec& exec, const HostViewType& host) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::view_alloc(DeviceMem{}, exec, host.label()), host);
}

// A list of values as a device View labelled `label`. It goes through a host View of its own, never a
// View of the vector's memory, which the line above would hand back as the device View when the device
// is the host. Fences `exec`: that host View dies on return.
template <class T>
Kokkos::View<T*, DeviceMem> to_device(const DeviceExec& exec, const std::string& label, const std::vector<T>& values) {
  auto host = host_view<T*>(label, values.size());
  std::copy(values.begin(), values.end(), host.data());
  Kokkos::View<T*, DeviceMem> device = to_device(exec, host);
  exec.fence("keff::params::to_device");
  return device;
}

}  // namespace keff
