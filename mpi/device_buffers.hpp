#pragma once
// Whether MPI may read and write the exchanges' device buffers directly: always on a CPU build (device
// memory is host memory), on a GPU build only with -DKEFF_ENABLE_GPU_AWARE_MPI=ON (a CUDA- or ROCm-aware
// MPI); otherwise messages are staged through pinned host buffers. For mpi/*.cpp of keff::exchange.
#include "kernels/device.hpp"

namespace keff::detail {

#ifdef KEFF_ENABLE_GPU_AWARE_MPI
inline constexpr bool mpi_reads_device = true;
#else
inline constexpr bool mpi_reads_device =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible;
#endif

}  // namespace keff::detail
