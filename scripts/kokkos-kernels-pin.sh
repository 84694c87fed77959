# Sourced by setup-deps.sh, setup-kokkos-kernels.sh and build.sh: the Kokkos Kernels commit keff's CMFD
# builds against when no Kokkos Kernels is installed, and where setup puts it. One place, so that setup
# and build agree. Kokkos Kernels has no release yet that builds with Kokkos 5 (4.7.00 still uses
# View::HostMirror), hence a commit of its develop branch.
keff_kk_commit=2fc2af19fa7b74b64f3ce7a212c0728afd150c62
keff_kk_upstream=https://github.com/kokkos/kokkos-kernels
# sha256 of the source archive of that commit (top folder kokkos-kernels-2fc2af19/) kept for machines
# without internet, ../shared/deps/kokkos-kernels-2fc2af19.tar.gz beside a checkout (KEFF_KOKKOS_KERNELS_ARCHIVE).
keff_kk_archive_sha256=5847db32c1d4ea2cb9d94fb456f5bc2d9420875da7c2c23f8c30484ff2423380
# Outside the repository, one folder per commit; KEFF_KOKKOS_KERNELS_PREFIX overrides it.
keff_kk_prefix=${KEFF_KOKKOS_KERNELS_PREFIX:-/opt/keff/kokkos-kernels-${keff_kk_commit:0:8}}

# keff_has_cmake_package NAME DIR...: true when one of DIR holds NAME's CMake package (NAMEConfig.cmake
# under lib*/cmake/NAME, lib/<multiarch>/cmake/NAME, or DIR itself).
keff_has_cmake_package() {
  local name=$1 dir
  shift
  for dir in "$@"; do
    [ -n "$dir" ] || continue
    if compgen -G "$dir/lib*/cmake/$name/${name}Config.cmake" >/dev/null ||
       compgen -G "$dir/lib/*/cmake/$name/${name}Config.cmake" >/dev/null ||
       [ -f "$dir/${name}Config.cmake" ]; then
      return 0
    fi
  done
  return 1
}
