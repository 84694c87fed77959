#pragma once
// Memory free for keff's Params and State where the device execution space allocates: device memory
// on a GPU, the machine's available memory on a CPU. For sizing defaults, not for promises.
#include "kernels/device.hpp"

#include <cstddef>

namespace keff {

std::size_t device_memory_available(const DeviceExec& exec);

}  // namespace keff
