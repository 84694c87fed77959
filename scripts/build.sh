#!/usr/bin/env bash
# Configures and builds keff into ${KEFF_BUILD_DIR:-build}. A Kokkos found through Kokkos_ROOT or
# CMAKE_PREFIX_PATH is used as it is; so is a Kokkos Kernels found through KokkosKernels_ROOT,
# CMAKE_PREFIX_PATH, or the prefix scripts/setup-deps.sh builds it into; NCrystal through NCrystal_DIR or
# the first ncrystal-config (scripts/ncrystal-pin.sh). KEFF_ENABLE_CMFD and KEFF_ENABLE_NCRYSTAL (AUTO, ON,
# OFF; see cmake/KeffCmfd.cmake, cmake/KeffNCrystal.cmake) go to CMake when set; so does the ACE library's
# xsdir for the evaluated-data tests (KEFF_ACE_LIBRARY, else the one scripts/setup-njoy.sh made). Extra arguments go to the
# first CMake configure (--preset checked or debug there: that preset, with its own build type).
#
# These settings also reach an existing build directory: it is configured again, with just the
# settings whose value differs from its cache (e.g. after setup-deps.sh built Kokkos Kernels, or with
# KEFF_ENABLE_CMFD=ON), and left alone otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/kokkos-kernels-pin.sh
source scripts/ncrystal-pin.sh
source scripts/njoy-pin.sh
build_dir=${KEFF_BUILD_DIR:-build}

settings=()
[ -z "${Kokkos_ROOT:-}" ] || settings+=("Kokkos_ROOT=$Kokkos_ROOT")
kk_root=${KokkosKernels_ROOT:-}
if [ -z "$kk_root" ] && keff_has_cmake_package KokkosKernels "$keff_kk_prefix"; then
  kk_root=$keff_kk_prefix
fi
[ -z "$kk_root" ] || settings+=("KokkosKernels_ROOT=$kk_root")
[ -z "${KEFF_ENABLE_CMFD:-}" ] || settings+=("KEFF_ENABLE_CMFD=$KEFF_ENABLE_CMFD")
nc_dir=${NCrystal_DIR:-}
if [ -z "$nc_dir" ] && [ "${KEFF_ENABLE_NCRYSTAL:-AUTO}" != OFF ] && nc_config=$(keff_ncrystal_config); then
  nc_dir=$("$nc_config" --show cmakedir)
fi
[ -z "$nc_dir" ] || settings+=("NCrystal_DIR=$nc_dir")
[ -z "${KEFF_ENABLE_NCRYSTAL:-}" ] || settings+=("KEFF_ENABLE_NCRYSTAL=$KEFF_ENABLE_NCRYSTAL")
# The ACE library the evaluated-data tests read: KEFF_ACE_LIBRARY (an xsdir), else the one setup made.
ace_library=${KEFF_ACE_LIBRARY:-}
if [ -z "$ace_library" ] && [ "${KEFF_ENABLE_ACE:-AUTO}" != OFF ] && [ -f "$keff_ace_prefix/xsdir" ]; then
  ace_library=$keff_ace_prefix/xsdir
fi
[ -z "$ace_library" ] || settings+=("KEFF_ACE_LIBRARY=$ace_library")

# A preset (--preset checked, debug) brings its own build type; a -D on the command line would override it.
build_type=(-DCMAKE_BUILD_TYPE=Release)
for argument in "$@"; do
  case "$argument" in --preset|--preset=*) build_type=() ;; esac
done
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -G Ninja "${build_type[@]}" "${settings[@]/#/-D}" "$@"
else
  changed=()
  for setting in "${settings[@]}"; do
    name=${setting%%=*}
    cached=$(sed -n "s/^$name:[A-Z]*=//p" "$build_dir/CMakeCache.txt")
    [ "$cached" = "${setting#*=}" ] || changed+=("-D$setting")
  done
  if [ ${#changed[@]} -gt 0 ]; then
    echo "keff-build: configuring $build_dir again with ${changed[*]}"
    cmake -S . -B "$build_dir" "${changed[@]}"
  fi
fi
cmake --build "$build_dir" -j "$(nproc)"
