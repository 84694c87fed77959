# Sourced by setup-ncrystal.sh and build.sh: the NCrystal release keff's thermal scattering builds against
# when none is installed, and where setup puts it. One place, so that setup and build agree.
keff_ncrystal_version=4.4.6
# A Python virtual environment outside the repository (PyPI's `ncrystal` carries libNCrystal, its headers,
# its CMake package and its standard data library); KEFF_NCRYSTAL_PREFIX overrides it.
keff_ncrystal_prefix=${KEFF_NCRYSTAL_PREFIX:-/opt/keff/ncrystal-$keff_ncrystal_version}

# keff_ncrystal_config: prints the first working ncrystal-config (PATH first, then the prefix above); fails
# when there is none.
keff_ncrystal_config() {
  local c
  for c in "$(command -v ncrystal-config 2>/dev/null || true)" "$keff_ncrystal_prefix/bin/ncrystal-config"; do
    if [ -n "$c" ] && [ -x "$c" ] && "$c" --show cmakedir >/dev/null 2>&1; then
      printf '%s\n' "$c"
      return 0
    fi
  done
  return 1
}
