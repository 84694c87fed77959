#!/usr/bin/env bash
# hip-compile-check.sh [KOKKOS_ROOT...]: compile keff for AMD GPUs with hipcc, once per HIP build of Kokkos
# (default: $Kokkos_ROOT). No GPU is needed and nothing runs. Each install fixes the architecture (its
# Kokkos_ARCH_AMD_GFX*): keff is configured as `cmake --preset hip` does (CMAKE_CXX_COMPILER=hipcc,
# Release) into build-hip-<arch>/ and every target is built with `ninja -k 0`, so every failure shows.
#
# A HIP Kokkos, one install per architecture, from the Kokkos source (github.com/kokkos/kokkos, >= 4.6):
#   cmake -S kokkos -B build-kokkos-gfx90a -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=hipcc \
#     -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_HIP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_AMD_GFX90A=ON \
#     -DCMAKE_INSTALL_PREFIX=/opt/kokkos-hip-gfx90a
#   cmake --build build-kokkos-gfx90a && cmake --install build-kokkos-gfx90a
# (Kokkos_ARCH_AMD_GFX942=ON for MI300; Spack: kokkos+rocm amdgpu_target=gfx90a). Kokkos' HIP backend
# uses rocThrust by default (Debian: librocthrust-dev), or -DKokkos_ENABLE_ROCTHRUST=OFF. Also needed:
# hipcc, the HIP runtime (libamdhip64) and keff's usual dependencies (MPI, parallel HDF5, toml++,
# nlohmann-json, GoogleTest). This script neither downloads nor builds Kokkos.
#
#   scripts/hip-compile-check.sh /opt/kokkos-hip-gfx90a /opt/kokkos-hip-gfx942
#
# Environment: HIPCC (default: hipcc on PATH), JOBS (default: nproc), KEFF_CMAKE_ARGS (extra configure
# arguments, split on spaces). The full output is build-hip-<arch>/hip-compile-check.log.
# Exit 0 when every translation unit compiles and every target links for every install.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd) && cd "$root" || exit 2
[ $# -gt 0 ] || set -- ${Kokkos_ROOT:+"$Kokkos_ROOT"}
[ $# -gt 0 ] || { echo "usage: scripts/hip-compile-check.sh KOKKOS_ROOT... (or set Kokkos_ROOT)" >&2; exit 2; }
hipcc=$(command -v "${HIPCC:-hipcc}") || { echo "hip-compile-check: no hipcc (put it on PATH or set HIPCC)" >&2; exit 2; }
read -r -a extra <<< "${KEFF_CMAKE_ARGS:-}"
echo "hip-compile-check: $hipcc: $("$hipcc" --version 2>&1 | head -n 2 | paste -sd ';' -)"

# The AMD architecture of a Kokkos install, from its CMake package (Kokkos_ARCH AMD_GFX90A -> gfx90a).
kokkos_amd_arch() {
  local cfg
  cfg=$(find "$1/" -path '*/cmake/Kokkos/KokkosConfigCommon.cmake' -print -quit 2>/dev/null)
  [ -n "$cfg" ] || { echo "no Kokkos CMake package under $1" >&2; return 1; }
  grep -Eq '^set\(Kokkos_DEVICES .*HIP' "$cfg" || { echo "$1 is not a HIP build of Kokkos" >&2; return 1; }
  sed -nE 's/^set\(Kokkos_ARCH (.*)\)$/\1/p' "$cfg" | tr ';' '\n' | sed -nE 's/^AMD_(GFX[0-9A-Z_]+)$/\1/p' |
    head -n 1 | tr '[:upper:]' '[:lower:]' | grep . || { echo "$cfg names no AMD_GFX* architecture" >&2; return 1; }
}

status=0
for kokkos in "$@"; do
  arch=$(kokkos_amd_arch "$kokkos") || { status=1; continue; }
  kokkos=$(cd "$kokkos" && pwd)
  version=$(sed -nE 's/^set\(PACKAGE_VERSION "(.*)"\)$/\1/p' "$(find "$kokkos/" -name KokkosConfigVersion.cmake -print -quit)" 2>/dev/null)
  build=build-hip-$arch log=build-hip-$arch/hip-compile-check.log
  echo "hip-compile-check: $arch: Kokkos $version at $kokkos -> $build/"
  mkdir -p "$build"
  t0=$(date +%s)
  if ! cmake --fresh -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$hipcc" \
       -DKokkos_ROOT="$kokkos" "${extra[@]}" >"$log" 2>&1; then
    tail -n 30 "$log"; echo "hip-compile-check: configuring for $arch failed (log $log)"; status=1; continue
  fi
  cmake --build "$build" -j "${JOBS:-$(nproc)}" -- -k 0 >>"$log" 2>&1
  secs=$(( $(date +%s) - t0 ))
  # A translation unit failed if ninja says its object FAILED or the object is missing (never attempted);
  # compile_commands.json maps objects back to sources. Every other FAILED step is a link.
  failed=$(sed -nE 's/^FAILED: (\[code=[0-9]+\] )?//p' "$log" | tr ' ' '\n' | grep . | sort -u)
  bad=$(awk -v b="$root/$build/" -v list="$failed" '
      BEGIN { n = split(list, o, "\n"); for (i = 1; i <= n; i++) f[o[i]] = 1 }
      /"file":/   { src = $0; sub(/.*"file": "/, "", src); sub(/",?$/, "", src) }
      /"output":/ { obj = $0; sub(/.*"output": "/, "", obj); sub(/",?$/, "", obj)
                    if (index(obj, b) == 1) obj = substr(obj, length(b) + 1)
                    if ((obj in f) || system("test -e \"" b obj "\"") != 0) print src }' \
      "$build/compile_commands.json" | sed "s|^$root/||" | sort -u)
  links=$(grep -v '\.o$' <<< "$failed" | grep -c .)
  units=$(grep -c '"file":' "$build/compile_commands.json")
  if [ -n "$bad" ]; then
    grep -E '^[^ ]+:[0-9]+:[0-9]+: (fatal )?error:' "$log" | sed "s|^$root/||" | sort -u | head -n 20
    echo "hip-compile-check: these translation units do not compile for HIP ($arch) ($secs s; log $log):"
    echo "$bad" | sed 's/^/  /'
    status=1
  else
    echo "hip-compile-check: every translation unit compiles for HIP ($arch) in $secs s ($units units); $links link steps failed"
  fi
  if [ "$links" -gt 0 ]; then
    grep -v '\.o$' <<< "$failed" | sed 's/^/  link failed: /'; status=1
  fi
done
exit "$status"
