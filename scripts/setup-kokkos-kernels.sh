#!/usr/bin/env bash
# Makes Kokkos Kernels (KokkosSparse, KokkosBlas: keff's CMFD accelerator) available, skipping the work
# when one is installed. Called by setup-deps.sh once Kokkos, CMake and a compiler are there.
#
# Found as it is: a Kokkos Kernels CMake package under $KokkosKernels_ROOT, $KokkosKernels_DIR,
# $CMAKE_PREFIX_PATH, $Kokkos_ROOT (an install prefix shared with Kokkos), /usr, /usr/local, or the
# prefix below (Spack: `spack load kokkos-kernels` sets CMAKE_PREFIX_PATH; modules set one of these).
#
# Otherwise the pinned commit (scripts/kokkos-kernels-pin.sh) is built against the Kokkos keff uses
# ($Kokkos_ROOT or the system's) and installed outside the repository, in $KEFF_KOKKOS_KERNELS_PREFIX
# (default /opt/keff/kokkos-kernels-2fc2af19; sudo when not writable), from
#   - $KEFF_KOKKOS_KERNELS_ARCHIVE, or ../shared/deps/kokkos-kernels-<commit>.tar.gz beside the checkout
#     (as setup-njoy.sh finds NJOY's): a source archive of that commit, checked against its sha256 (a
#     relative path is taken from the repository root), or else
#   - github, fetching exactly that commit with git (git checks the commit id).
# Sparse and BLAS components only, no explicit instantiation (templates are instantiated where keff uses
# them), no tests or examples: ~10 s to build, ~9 MB installed.
#
# Without either source (no archive, no internet) it says CMFD will be off and succeeds, so that keff
# still builds; with KEFF_ENABLE_CMFD=ON it fails instead, and with KEFF_ENABLE_CMFD=OFF it does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/kokkos-kernels-pin.sh

log() { printf 'keff-setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

cmfd=${KEFF_ENABLE_CMFD:-AUTO}
if [ "$cmfd" = OFF ]; then
  log "KEFF_ENABLE_CMFD=OFF: Kokkos Kernels not needed"
  exit 0
fi
if keff_has_cmake_package KokkosKernels "${KokkosKernels_ROOT:-}" "${KokkosKernels_DIR:-}" \
     ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }} "${Kokkos_ROOT:-}" /usr /usr/local "$keff_kk_prefix"; then
  log "Kokkos Kernels found; nothing built"
  exit 0
fi

# Where no source can be had: CMFD off (AUTO) or a failed setup (ON).
unavailable() {
  local why=$1
  if [ "$cmfd" = ON ]; then
    log "error: KEFF_ENABLE_CMFD=ON but Kokkos Kernels is not installed and $why."
    log "Install it (spack install kokkos-kernels, a module), set KokkosKernels_ROOT, or set"
    log "KEFF_KOKKOS_KERNELS_ARCHIVE to a source archive of commit $keff_kk_commit."
    exit 1
  fi
  log "Kokkos Kernels not installed and $why: keff builds without CMFD."
  log "For CMFD: install Kokkos Kernels (spack install kokkos-kernels, a module) and set KokkosKernels_ROOT,"
  log "or rerun with KEFF_KOKKOS_KERNELS_ARCHIVE=<source archive of commit ${keff_kk_commit:0:8}> or with internet."
  exit 0
}

work=$(mktemp -d "${TMPDIR:-/tmp}/keff-kokkos-kernels.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/src
mkdir -p "$src"
archive=${KEFF_KOKKOS_KERNELS_ARCHIVE:-}
beside=../shared/deps/kokkos-kernels-${keff_kk_commit:0:8}.tar.gz
if [ -z "$archive" ] && [ -f "$beside" ]; then archive=$beside; fi
if [ -n "$archive" ]; then
  [ -f "$archive" ] || { log "error: KEFF_KOKKOS_KERNELS_ARCHIVE=$archive: no such file"; exit 1; }
  sum=$(sha256sum "$archive" | cut -d' ' -f1)
  if [ "$sum" != "$keff_kk_archive_sha256" ]; then
    log "error: $archive has sha256 $sum, not $keff_kk_archive_sha256 (commit ${keff_kk_commit:0:8})"
    exit 1
  fi
  log "building Kokkos Kernels ${keff_kk_commit:0:8} from $archive (sha256 checked)"
  tar -xzf "$archive" -C "$src" --strip-components=1
else
  command -v git >/dev/null || unavailable "git is not installed to fetch it"
  log "fetching Kokkos Kernels ${keff_kk_commit:0:8} from $keff_kk_upstream"
  git -C "$src" init -q
  if ! GIT_TERMINAL_PROMPT=0 timeout 600 git -C "$src" fetch -q --depth 1 "$keff_kk_upstream" "$keff_kk_commit"; then
    unavailable "$keff_kk_upstream cannot be reached (and KEFF_KOKKOS_KERNELS_ARCHIVE is not set)"
  fi
  git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
  [ "$(git -C "$src" rev-parse HEAD)" = "$keff_kk_commit" ] || { log "error: fetched another commit"; exit 1; }
fi

# The compiler Kokkos was built for: nvcc_wrapper for a CUDA Kokkos, hipcc for HIP, else $CXX or g++.
cxx=${CXX:-g++}
kokkos_cfg=$(find ${Kokkos_ROOT:+"$Kokkos_ROOT"} /usr/lib /usr/local/lib -path '*/cmake/Kokkos/KokkosConfigCommon.cmake' \
             -print -quit 2>/dev/null || true)
if [ -n "$kokkos_cfg" ] && grep -Eq '^set\(Kokkos_DEVICES .*CUDA' "$kokkos_cfg" && [ -x "${Kokkos_ROOT:-}/bin/nvcc_wrapper" ]; then
  cxx=$Kokkos_ROOT/bin/nvcc_wrapper
elif [ -n "$kokkos_cfg" ] && grep -Eq '^set\(Kokkos_DEVICES .*HIP' "$kokkos_cfg"; then
  cxx=${HIPCC:-hipcc}
fi

t0=$(date +%s)
if ! cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
       -DCMAKE_CXX_STANDARD=20 ${Kokkos_ROOT:+-DKokkos_ROOT="$Kokkos_ROOT"} -DCMAKE_INSTALL_PREFIX="$keff_kk_prefix" \
       -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF -DKokkosKernels_ENABLE_COMPONENT_SPARSE=ON \
       -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON -DKokkosKernels_ADD_DEFAULT_ETI=OFF \
       -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF -DKokkosKernels_ENABLE_PERFTESTS=OFF \
       >"$work/configure.log" 2>&1; then
  tail -n 40 "$work/configure.log"
  log "error: configuring Kokkos Kernels failed"
  exit 1
fi
if ! cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" 2>&1; then
  grep -m 5 -A 15 'error' "$work/build.log" || tail -n 40 "$work/build.log"
  log "error: building Kokkos Kernels failed"
  exit 1
fi
if mkdir -p "$keff_kk_prefix" 2>/dev/null && [ -w "$keff_kk_prefix" ]; then
  cmake --install "$work/build" >/dev/null
else
  as_root cmake --install "$work/build" >/dev/null
fi
log "Kokkos Kernels ${keff_kk_commit:0:8} built in $(( $(date +%s) - t0 )) s and installed in $keff_kk_prefix"
