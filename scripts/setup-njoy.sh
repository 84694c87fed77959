#!/usr/bin/env bash
# Makes NJOY2016 available and turns the ENDF evaluations at hand into keff's ACE library, skipping
# whatever is done. Called by setup-deps.sh once gfortran and CMake are there.
#
# NJOY: an `njoy` on PATH or in $keff_njoy_prefix (scripts/njoy-pin.sh) is used as it is. Otherwise the
# pinned commit is built outside the repository (sudo when the prefix is not writable) from
#   - $KEFF_NJOY_ARCHIVE, or ../shared/deps/njoy2016-<commit>.tar.gz beside the checkout: a source archive
#     of that commit, checked against its sha256, or else
#   - github, fetching exactly that commit with git.
# The library: scripts/make-ace-library.sh, from $KEFF_ENDF_DIR or ../shared/data/endf beside the checkout.
#
# Without NJOY's source or without evaluations it says that the ACE tests will be left out and succeeds;
# with KEFF_ENABLE_ACE=ON it fails instead, and with KEFF_ENABLE_ACE=OFF it does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/njoy-pin.sh

log() { printf 'keff-setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

want=${KEFF_ENABLE_ACE:-AUTO}
if [ "$want" = OFF ]; then
  log "KEFF_ENABLE_ACE=OFF: no ACE library made"
  exit 0
fi
unavailable() {
  if [ "$want" = ON ]; then
    log "error: KEFF_ENABLE_ACE=ON but $1."
    exit 1
  fi
  log "$1: no ACE library is made, and the tests on evaluated data are left out."
  log "For them: set KEFF_NJOY_ARCHIVE to NJOY2016's source at ${keff_njoy_commit:0:7} (or give internet),"
  log "and KEFF_ENDF_DIR to a folder of ENDF-6 evaluations; or point KEFF_ACE_LIBRARY at an xsdir of your own."
  exit 0
}

endf_dir=${KEFF_ENDF_DIR:-../shared/data/endf}
compgen -G "$endf_dir/*.endf" >/dev/null || unavailable "no ENDF evaluations in $endf_dir (KEFF_ENDF_DIR)"

# An NJOY that runs: given just `stop`, it exits 0 (in a folder of its own: it writes a file `output`).
njoy_runs() {
  local dir status=1
  [ -x "$1" ] || return 1
  dir=$(mktemp -d "${TMPDIR:-/tmp}/keff-njoy-check.XXXXXX")
  (cd "$dir" && echo stop | "$1" >/dev/null 2>&1) && status=0
  rm -rf "$dir"
  return $status
}
njoy=
for candidate in "$(command -v njoy 2>/dev/null || true)" "$keff_njoy_prefix/bin/njoy"; do
  if [ -n "$candidate" ] && njoy_runs "$candidate"; then njoy=$candidate; break; fi
done
if [ -n "$njoy" ]; then
  log "NJOY found ($njoy); nothing built"
else
  command -v gfortran >/dev/null || unavailable "gfortran is not installed to build NJOY"
  work=$(mktemp -d "${TMPDIR:-/tmp}/keff-njoy.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  src=$work/src
  mkdir -p "$src"
  archive=${KEFF_NJOY_ARCHIVE:-../shared/deps/njoy2016-${keff_njoy_commit:0:7}.tar.gz}
  if [ -f "$archive" ]; then
    sum=$(sha256sum "$archive" | cut -d' ' -f1)
    if [ "$sum" != "$keff_njoy_archive_sha256" ]; then
      log "error: $archive has sha256 $sum, not $keff_njoy_archive_sha256 (commit ${keff_njoy_commit:0:7})"
      exit 1
    fi
    log "building NJOY2016 ${keff_njoy_commit:0:7} from $archive (sha256 checked)"
    tar -xzf "$archive" -C "$src" --strip-components=1
  elif [ -n "${KEFF_NJOY_ARCHIVE:-}" ]; then
    log "error: KEFF_NJOY_ARCHIVE=$archive: no such file"
    exit 1
  else
    command -v git >/dev/null || unavailable "git is not installed to fetch NJOY"
    log "fetching NJOY2016 ${keff_njoy_commit:0:7} from $keff_njoy_upstream"
    git -C "$src" init -q
    GIT_TERMINAL_PROMPT=0 timeout 600 git -C "$src" fetch -q --depth 1 "$keff_njoy_upstream" "$keff_njoy_commit" ||
      unavailable "$keff_njoy_upstream cannot be reached (and no NJOY archive is at hand)"
    git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
  fi
  t0=$(date +%s)
  if ! cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$keff_njoy_prefix" \
         -Dstatic_libraries=ON >"$work/configure.log" 2>&1; then
    tail -n 40 "$work/configure.log"; log "error: configuring NJOY failed"; exit 1
  fi
  if ! cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" 2>&1; then
    grep -m 5 -A 15 -i 'error' "$work/build.log" || tail -n 40 "$work/build.log"; log "error: building NJOY failed"; exit 1
  fi
  if mkdir -p "$keff_njoy_prefix" 2>/dev/null && [ -w "$keff_njoy_prefix" ]; then
    cmake --install "$work/build" >/dev/null
  else
    as_root cmake --install "$work/build" >/dev/null
  fi
  njoy=$keff_njoy_prefix/bin/njoy
  log "NJOY2016 ${keff_njoy_commit:0:7} built in $(( $(date +%s) - t0 )) s and installed in $keff_njoy_prefix"
fi
NJOY=$njoy scripts/make-ace-library.sh "$endf_dir"
