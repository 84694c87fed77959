#!/usr/bin/env bash
# Makes NCrystal (thermal-neutron scattering: `[[material]] ncrystal`) available, skipping the work when
# one is installed. Called by setup-deps.sh.
#
# Found as it is: an `ncrystal-config` on PATH (a Spack or module NCrystal, an activated environment) or
# in the prefix below. Otherwise PyPI's `ncrystal` at the pinned version (scripts/ncrystal-pin.sh) goes
# into a Python virtual environment outside the repository, $KEFF_NCRYSTAL_PREFIX (default
# /opt/keff/ncrystal-4.4.6; sudo when not writable). keff's build finds it there through
# `ncrystal-config --show cmakedir`; nothing is installed into the system's Python.
#
# Without PyPI it says NCrystal will be off and succeeds, so that keff still builds; with
# KEFF_ENABLE_NCRYSTAL=ON it fails instead, and with KEFF_ENABLE_NCRYSTAL=OFF it does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ncrystal-pin.sh

log() { printf 'keff-setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

want=${KEFF_ENABLE_NCRYSTAL:-AUTO}
if [ "$want" = OFF ]; then
  log "KEFF_ENABLE_NCRYSTAL=OFF: NCrystal not needed"
  exit 0
fi
if config=$(keff_ncrystal_config); then
  log "NCrystal $("$config" --version) found ($config); nothing installed"
  exit 0
fi

log "installing NCrystal $keff_ncrystal_version from PyPI into $keff_ncrystal_prefix"
# The system's certificate store, as Debian's own pip uses it (a venv's pip would trust only its bundled
# one), unless PIP_CERT names another: sites that inspect TLS add their authority there.
cert=()
if [ -z "${PIP_CERT:-}" ] && [ -s /etc/ssl/certs/ca-certificates.crt ]; then
  cert=(--cert /etc/ssl/certs/ca-certificates.crt)
fi
as_root mkdir -p "$keff_ncrystal_prefix"
if ! as_root python3 -m venv "$keff_ncrystal_prefix" ||
   ! as_root "$keff_ncrystal_prefix/bin/python" -m pip install --quiet --disable-pip-version-check "${cert[@]}" \
       "ncrystal==$keff_ncrystal_version"; then
  as_root rm -rf "$keff_ncrystal_prefix"
  if [ "$want" = ON ]; then
    log "error: KEFF_ENABLE_NCRYSTAL=ON but NCrystal could not be installed from PyPI (above)."
    log "Install it (pip install ncrystal==$keff_ncrystal_version; or spack install ncrystal with scripts/spack's repository) and put ncrystal-config on PATH."
    exit 1
  fi
  log "NCrystal could not be installed from PyPI: keff builds without thermal scattering libraries."
  exit 0
fi
keff_ncrystal_config >/dev/null
log "NCrystal $keff_ncrystal_version ready ($keff_ncrystal_prefix/bin/ncrystal-config)"
