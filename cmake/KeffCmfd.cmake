# CMFD acceleration (src/cmfd/) needs Kokkos Kernels (KokkosSparse, KokkosBlas), found as an installed
# CMake package: KokkosKernels_ROOT, CMAKE_PREFIX_PATH (Spack, modules), or the prefix that
# scripts/setup-deps.sh builds it into (scripts/build.sh passes that one on).
#
#   KEFF_ENABLE_CMFD = AUTO (default): build CMFD when Kokkos Kernels is found, say how to get it if not
#                      ON:             fail the configure without Kokkos Kernels (CI)
#                      OFF:            never look for it
#
# Sets KEFF_HAVE_CMFD (ON/OFF), which src/ and tests/ read.
set(KEFF_ENABLE_CMFD AUTO CACHE STRING "CMFD acceleration, which needs Kokkos Kernels: AUTO (when found), ON (required) or OFF")
set_property(CACHE KEFF_ENABLE_CMFD PROPERTY STRINGS AUTO ON OFF)

set(KEFF_HAVE_CMFD OFF)
include(${CMAKE_CURRENT_LIST_DIR}/KeffSwitch.cmake)
keff_switch(KEFF_ENABLE_CMFD _keff_cmfd)
if(NOT _keff_cmfd STREQUAL "OFF")
  find_package(KokkosKernels CONFIG)
  if(KokkosKernels_FOUND)
    set(KEFF_HAVE_CMFD ON)
    message(STATUS "keff: CMFD on, with Kokkos Kernels ${KokkosKernels_VERSION} (${KokkosKernels_DIR})")
  else()
    string(CONCAT _keff_cmfd_how
        "Kokkos Kernels was not found. To build CMFD, install it (spack install kokkos-kernels, or a module) and "
        "point CMake at it with -DKokkosKernels_ROOT=<prefix> (or CMAKE_PREFIX_PATH), or let scripts/setup-deps.sh "
        "build the pinned commit (set KEFF_KOKKOS_KERNELS_ARCHIVE to its source archive where there is no internet).")
    if(_keff_cmfd STREQUAL "AUTO")
      message(WARNING "keff: CMFD acceleration is OFF. ${_keff_cmfd_how} "
                      "-DKEFF_ENABLE_CMFD=OFF silences this message.")
    else()
      message(FATAL_ERROR "keff: KEFF_ENABLE_CMFD=${KEFF_ENABLE_CMFD} but ${_keff_cmfd_how}")
    endif()
  endif()
else()
  message(STATUS "keff: CMFD off (KEFF_ENABLE_CMFD=${KEFF_ENABLE_CMFD})")
endif()
