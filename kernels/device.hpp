#pragma once
// The execution and memory spaces keff's Params and State live in: Kokkos' default device (OpenMP on
// a CPU build, CUDA or HIP on a GPU build).
#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

namespace keff {
using DeviceExec = Kokkos::DefaultExecutionSpace;
using DeviceMem = DeviceExec::memory_space;
}  // namespace keff
