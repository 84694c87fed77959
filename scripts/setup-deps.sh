#!/usr/bin/env bash
# Installs what keff needs to build, skipping whatever is already there.
#
# Debian 12 packages: compiler, CMake, Ninja, OpenMPI, parallel HDF5, GoogleTest, toml++, nlohmann-json,
# git, libpng (keff plot's pictures), numpy, h5py and matplotlib for the result plots, and clang with its libFuzzer runtime for the fuzz
# tests.
# Kokkos: if a Kokkos CMake package is already visible (Kokkos_ROOT, CMAKE_PREFIX_PATH, or installed), it is
# used and no system package is touched. Otherwise libkokkos-dev comes from Debian unstable, pinned low so
# nothing else is taken from there unasked (this upgrades glibc and the gcc runtime libraries; see scripts/README.md).
# Kokkos Kernels (CMFD): found as installed, or built from a pinned commit outside the repository
# (scripts/setup-kokkos-kernels.sh says from where; without a source keff builds without CMFD).
# NCrystal (thermal scattering): found as installed, or PyPI's release in a virtual environment outside the
# repository (scripts/setup-ncrystal.sh; without PyPI keff builds without it).
# NJOY2016 and the ACE library (evaluated data): NJOY built from a pinned commit outside the repository, and
# the ENDF evaluations at hand processed into ACE tables (scripts/setup-njoy.sh says from where).
set -euo pipefail
scripts_dir=$(cd "$(dirname "$0")" && pwd)
source "$scripts_dir/kokkos-kernels-pin.sh"

log() { printf 'keff-setup: %s\n' "$*"; }

have_kokkos() {
  keff_has_cmake_package Kokkos "${Kokkos_ROOT:-}" "${Kokkos_DIR:-}" ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }} /usr /usr/local
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

debian_pkgs=(g++ cmake ninja-build make pkg-config openmpi-bin libopenmpi-dev libhdf5-openmpi-dev
             libgtest-dev libtomlplusplus-dev nlohmann-json3-dev ca-certificates python3
             git                         # fetches Kokkos Kernels' pinned commit where there is internet
             libpng-dev                  # keff plot writes PNG
             python3-numpy python3-h5py python3-matplotlib  # the result plots and their tests (scripts/keff_results)
             clang libclang-rt-14-dev    # clang's libFuzzer: the fuzz tests (tests/fuzz)
             python3-venv                # NCrystal's virtual environment (scripts/setup-ncrystal.sh)
             gfortran)                   # NJOY2016, which makes the ACE library (scripts/setup-njoy.sh)
missing=()
for p in "${debian_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

apt_updated=0
apt_update() { if [ $apt_updated = 0 ]; then as_root apt-get update -qq; apt_updated=1; fi; }

if [ ${#missing[@]} -gt 0 ]; then
  log "installing from Debian 12: ${missing[*]}"
  apt_update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian 12 packages already installed"
fi

if have_kokkos; then
  log "Kokkos found; no system package touched"
else
  log "Kokkos not found: installing libkokkos-dev from Debian unstable (pinned, see scripts/README.md)"
  # Unstable's Release file on this mirror can be past Valid-Until, hence check-valid-until=no.
  echo 'deb [check-valid-until=no] http://deb.debian.org/debian sid main' |
    as_root tee /etc/apt/sources.list.d/keff-sid.list >/dev/null
  printf 'Package: *\nPin: release n=sid\nPin-Priority: 100\n' |
    as_root tee /etc/apt/preferences.d/keff-sid-pin >/dev/null
  apt_updated=0; apt_update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t sid libkokkos-dev >/dev/null
fi

# Debian's Kokkos CMake config names two archives the package does not ship; empty ones satisfy it.
for cfgdir in /usr/lib/*/cmake/Kokkos /usr/lib/cmake/Kokkos; do
  [ -d "$cfgdir" ] || continue
  libdir=$(cd "$cfgdir/../.." && pwd)
  for a in libkokkosalgorithms.a libkokkossimd.a; do
    if grep -rqs "$a" "$cfgdir" && [ ! -e "$libdir/$a" ]; then
      log "creating empty $libdir/$a (named by Debian's Kokkos CMake config, not shipped)"
      as_root ar rcs "$libdir/$a"
    fi
  done
done
"$scripts_dir/setup-kokkos-kernels.sh"
"$scripts_dir/setup-ncrystal.sh"
"$scripts_dir/setup-njoy.sh"
# OpenMPI resolves this machine's name at every MPI_Init; where neither /etc/hosts nor a resolver
# answers for it (a bare chroot or container), each keff start waits about 5 s for DNS, and the suite's
# several hundred starts add half an hour. Said here, not mended: /etc/hosts is the machine's own.
if ! timeout 2 getent hosts "$(hostname)" > /dev/null 2>&1; then
  log "warning: this machine's name '$(hostname)' does not resolve at once: every MPI start (each keff run)"
  log "  will wait for DNS; add '127.0.1.1 $(hostname)' to /etc/hosts (scripts/README.md)"
fi
log "dependencies ready"
