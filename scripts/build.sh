#!/usr/bin/env bash
# Configures (once) and builds keff into ${KEFF_BUILD_DIR:-build}. A Kokkos found through Kokkos_ROOT or
# CMAKE_PREFIX_PATH is used as it is. Extra arguments go to the first CMake configure.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${KEFF_BUILD_DIR:-build}
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    ${Kokkos_ROOT:+-DKokkos_ROOT="$Kokkos_ROOT"} "$@"
fi
cmake --build "$build_dir" -j "$(nproc)"
