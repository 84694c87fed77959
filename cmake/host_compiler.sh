#!/bin/sh
# Compiler launcher for keff's host-only targets when CMAKE_CXX_COMPILER is Kokkos' nvcc_wrapper: runs
# the host compiler nvcc_wrapper would have handed the code to, so host-only libraries (toml++, HDF5,
# nlohmann-json) never pass through nvcc's front end.
#   host_compiler.sh <host c++> <the compiler CMake meant to run> <arguments...>
host=$1
shift 2
exec "$host" "$@"
