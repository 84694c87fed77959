# The host/device line, enforced by the build.
#
# Device targets (kernels and everything that defines or launches them) link Kokkos::kokkos; in a CUDA
# build with a host CMAKE_CXX_COMPILER, Kokkos' launcher sends exactly those to nvcc_wrapper. Host-only
# targets (input, output, nuclear-data files, MPI bookkeeping, the CLI) must never see a Kokkos header:
#
#   keff_host_only(<target>)
#
# puts cmake/host_only/ first on the target's include path, where Kokkos_Core.hpp, Kokkos_Macros.hpp and
# KokkosCore_config.h stop the build with an #error (every Kokkos header includes one of them), and, when
# CMAKE_CXX_COMPILER is nvcc_wrapper itself, compiles the target with nvcc_wrapper's host compiler
# (KEFF_HOST_CXX) instead.
get_filename_component(_keff_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
if(_keff_cxx_name STREQUAL "nvcc_wrapper")
  if(DEFINED ENV{NVCC_WRAPPER_DEFAULT_COMPILER})
    set(_keff_host_default "$ENV{NVCC_WRAPPER_DEFAULT_COMPILER}")
  else()
    set(_keff_host_default "g++")
  endif()
  set(KEFF_HOST_CXX "${_keff_host_default}" CACHE STRING "Host compiler for host-only targets when CMAKE_CXX_COMPILER is nvcc_wrapper")
  message(STATUS "keff: host-only targets compile with ${KEFF_HOST_CXX}, device targets with nvcc_wrapper")
endif()

function(keff_host_only target)
  target_include_directories(${target} BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/cmake/host_only)
  if(KEFF_HOST_CXX)
    set_property(TARGET ${target} PROPERTY RULE_LAUNCH_COMPILE "${PROJECT_SOURCE_DIR}/cmake/host_compiler.sh ${KEFF_HOST_CXX}")
  endif()
endfunction()
