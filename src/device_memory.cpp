#include "src/device_memory.hpp"

#include <fstream>
#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

namespace keff {

namespace {

// MemAvailable of /proc/meminfo (Linux), in bytes; 0 if unknown.
std::size_t host_memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace

std::size_t device_memory_available([[maybe_unused]] const DeviceExec& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<DeviceExec, Kokkos::Cuda>) {
    std::size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess) return free;
    return 0;
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<DeviceExec, Kokkos::HIP>) {
    std::size_t free = 0, total = 0;
    if (hipMemGetInfo(&free, &total) == hipSuccess) return free;
    return 0;
  }
#endif
  return host_memory_available();
}

}  // namespace keff
