#!/usr/bin/env bash
# Builds keff with Spack as an HPC centre would (scripts/spack/README.md), from a clean Spack root, with
# this machine's packages registered as externals so that nothing is downloaded:
#   1. `spack install keff@develop +cmfd` builds this checkout's main branch;
#   2. `spack test run keff` runs the installed keff (scripts/spack/.../keff/package.py's test_*);
#   3. `spack spec` concretizes keff +cuda cuda_arch=90, keff +rocm amdgpu_target=gfx942 (spec only:
#      nothing is built for them; a GPU machine with a CUDA toolchain can install the first) and
#      keff +ncrystal;
#   4. `spack audit packages` on the recipes, and ruff, the style checker of Spack's builtin packages,
#      with their configuration.
# Run by hand, like ../shared/tools/fresh-machine-check (CI cannot fetch Spack); ~15 min on 2 cores.
#
# usage: scripts/spack-check.sh SPACK PACKAGES WRAPPER [WORKDIR]
#   SPACK     a clone, or a bare git directory, of https://github.com/spack/spack (1.0 or newer)
#   PACKAGES  the same of https://github.com/spack/spack-packages (Spack's builtin package repository)
#   WRAPPER   the same of https://github.com/spack/compiler-wrapper (every build's compiler wrapper,
#             which Spack downloads as a release archive; here it is built from the tag's files)
#   WORKDIR   where Spack, its configuration, stage and installs go (default /tmp/keff-spack-check;
#             emptied first). Nothing is written in the checkout or in ~/.spack.
# Needs python3 with venv and pip (clingo, Spack's solver, comes from PyPI), and the packages of
# scripts/setup-deps.sh (Kokkos, Kokkos Kernels, OpenMPI, HDF5, toml++, nlohmann-json, googletest, libpng).
# Any clones do; scripts/spack/README.md names the commits it was checked with.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ $# -ge 3 ] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }
spack_src=$1 packages_src=$2 wrapper_src=$3 work=${4:-/tmp/keff-spack-check}
source scripts/kokkos-kernels-pin.sh
log() { printf '\nspack-check: %s\n' "$*"; }

rm -rf "$work" && mkdir -p "$work"
git clone --quiet "$spack_src" "$work/spack"
git clone --quiet "$packages_src" "$work/spack-packages"
python3 -m venv "$work/python"
"$work/python/bin/pip" install --quiet clingo
export SPACK_PYTHON=$work/python/bin/python SPACK_DISABLE_LOCAL_CONFIG=true SPACK_USER_CACHE_PATH=$work/cache
spack=$work/spack/bin/spack
site=$work/spack/etc/spack   # the Spack root's own configuration scope ('spack'): this run's only one
log "Spack $("$spack" --version), builtin packages at $(git -C "$work/spack-packages" log -1 --format='%h %cs')"

cat > "$site/config.yaml" <<EOF
config:
  install_tree:
    root: $work/opt
  build_stage: [$work/stage]
  test_stage: $work/test-stage
  source_cache: $work/source-cache
  misc_cache: $work/misc-cache
  build_jobs: $(nproc)
EOF
cat > "$site/bootstrap.yaml" <<EOF
bootstrap:
  enable: false   # clingo is importable from SPACK_PYTHON; nothing else is bootstrapped
EOF
cat > "$site/repos.yaml" <<EOF
repos::
  keff: $repo/scripts/spack/spack_repo/keff
  builtin: $work/spack-packages/repos/spack_repo/builtin
EOF

# The compiler wrapper, built from the tag's files through dev_path (a local source, which Spack neither
# downloads nor checksums: git archive's tarball cannot match the release archive's sha256).
wrapper_version=1.1.0
mkdir -p "$work/compiler-wrapper"
git --git-dir="$(git -C "$wrapper_src" rev-parse --absolute-git-dir)" archive "v$wrapper_version" | tar -x -C "$work/compiler-wrapper"
wrapper="^compiler-wrapper@$wrapper_version dev_path=$work/compiler-wrapper"

# Externals: what Spack can detect itself, then the rest by hand, at the versions installed here.
# The compiler: the system's gcc alone (Spack would find clang 14 too and could pick it).
cat > "$site/packages.yaml" <<EOF
packages:
  gcc:
    externals:
    - spec: gcc@$(gcc -dumpfullversion) languages:='c,c++,fortran'
      prefix: /usr
      extra_attributes:
        compilers: {c: /usr/bin/gcc, cxx: /usr/bin/g++, fortran: /usr/bin/gfortran}
    buildable: false
EOF
"$spack" external find --scope spack --not-buildable cmake gmake hdf5 pkgconf >/dev/null
version_of() {  # the PACKAGE_VERSION line of a CMake package's version file
  sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")$/\1/p' "$1" | head -n 1
}
kokkos_version=$(version_of /usr/lib/x86_64-linux-gnu/cmake/Kokkos/KokkosConfigVersion.cmake)
kk_version=$(version_of "$keff_kk_prefix/lib/cmake/KokkosKernels/KokkosKernelsConfigVersion.cmake")
# OpenMPI's detection fails here (Spack 1.2.0.dev0: "'Spec' object has no attribute 'cc'"): by hand.
cat >> "$site/packages.yaml" <<EOF
  openmpi:
    externals:
    - spec: openmpi@$(mpirun --version | sed -n 's/^mpirun (Open MPI) \([0-9.]*\)$/\1/p')
      prefix: /usr
    buildable: false
  mpi:
    require: [openmpi]
    buildable: false
  kokkos:
    externals:
    - spec: kokkos@$kokkos_version+openmp~serial~cuda~rocm+shared+pic cxxstd=20
      prefix: /usr
  kokkos-kernels:
    externals:
    - spec: kokkos-kernels@$kk_version+openmp~shared
      prefix: $keff_kk_prefix
  tomlplusplus:
    externals:
    - spec: tomlplusplus@$(pkg-config --modversion tomlplusplus)
      prefix: /usr
    buildable: false
  nlohmann-json:
    externals:
    - spec: nlohmann-json@$(pkg-config --modversion nlohmann_json)
      prefix: /usr
    buildable: false
  googletest:
    externals:
    - spec: googletest@$(pkg-config --modversion gtest)+gmock
      prefix: /usr
    buildable: false
  libpng:
    externals:
    - spec: libpng@$(pkg-config --modversion libpng)
      prefix: /usr
    buildable: false
EOF
"$spack" repo list
"$spack" config get packages | grep -E '^  [a-z-]+:$|spec:'

log "spack install keff@develop +cmfd (this checkout's main branch, $(git -C "$repo" log -1 --format='%h' main))"
"$spack" spec -I keff@develop +cmfd $wrapper
start=$(date +%s)
"$spack" install --fail-fast keff@develop +cmfd $wrapper
log "installed in $(( $(date +%s) - start )) s: $("$spack" find --format '{name}@{version} {variants} /{hash:7}' keff)"
"$("$spack" location -i keff)/bin/keff" --version

log "spack test run keff"
"$spack" test run --alias keff-check keff
"$spack" test results -l keff-check | tee "$work/test-results.txt"
grep -q 'PASSED' "$work/test-results.txt" && ! grep -qE 'FAILED|ERRORED' "$work/test-results.txt"

for spec in "keff +cuda cuda_arch=90" "keff +rocm amdgpu_target=gfx942"; do
  log "spack spec $spec"
  "$spack" spec -l $spec | tee "$work/spec.txt"
  name=${spec#keff +}; name=${name%% *}
  grep -qE "kokkos@[0-9.]+.*\+$name" "$work/spec.txt"
done
log "spack spec keff +ncrystal (NCrystal from this repository's recipe)"
"$spack" spec -l keff +ncrystal | tee "$work/spec.txt"
grep -qE "ncrystal@4" "$work/spec.txt"

log "spack audit packages keff ncrystal; ruff with spack-packages' configuration"
"$spack" audit packages keff ncrystal
"$work/python/bin/pip" install --quiet ruff
"$work/python/bin/ruff" check --no-cache --no-fix --config "$work/spack-packages/pyproject.toml" scripts/spack
"$work/python/bin/ruff" format --no-cache --check --config "$work/spack-packages/pyproject.toml" scripts/spack
log "every check passed"
