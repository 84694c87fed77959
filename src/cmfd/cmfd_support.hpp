#pragma once
// Whether this build has CMFD, and what to tell a user who asks for it in one that does not. No Kokkos:
// the input reader and the CLI may include it. KEFF_HAVE_CMFD comes with the keff::cmfd target.
#include <stdexcept>

#ifndef KEFF_HAVE_CMFD
#error "link keff::cmfd to include src/cmfd/cmfd_support.hpp"
#endif

namespace keff {

inline constexpr bool cmfd_available = KEFF_HAVE_CMFD != 0;

inline constexpr const char* cmfd_unavailable_message =
    "CMFD was requested, but this keff was built without Kokkos Kernels, which CMFD needs. Install Kokkos "
    "Kernels (spack install kokkos-kernels, a module, or scripts/setup-deps.sh) and reconfigure with "
    "-DKokkosKernels_ROOT=<prefix> (scripts/README.md: CMFD and Kokkos Kernels)";

// Throws std::runtime_error with cmfd_unavailable_message in a build without CMFD.
inline void require_cmfd() {
  if (!cmfd_available) throw std::runtime_error(cmfd_unavailable_message);
}

}  // namespace keff
