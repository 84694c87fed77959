#include "src/params/device_memory.hpp"

#include "src/host/memory_check.hpp"

#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

namespace keff {

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
