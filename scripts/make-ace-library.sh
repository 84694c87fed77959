#!/usr/bin/env bash
# make-ace-library.sh ENDF_DIR: processes every ENDF-6 evaluation in ENDF_DIR (*.endf, one material each)
# with NJOY ($NJOY, or njoy on PATH) into a type-1 ACE table at 293.6 K, and writes the library's xsdir:
# $keff_ace_prefix/{xsdir, ace/<nuclide>.ace, decks/<nuclide>.njoy, logs/<nuclide>.log}
# (scripts/njoy-pin.sh). A nuclide whose table exists, made by the same deck from the same file, is
# skipped. Evaluations are processed $(nproc) at a time.
#
# The deck (write_deck below) is the usual one-temperature sequence: reconr (pointwise, 0.1 %), broadr
# (Doppler broadening to 293.6 K, 0.1 %), purr (unresolved-resonance probability tables: 20 bins,
# $KEFF_PURR_LADDERS ladders, default 16; production libraries use 64 to 100), acer (fast continuous-energy
# table). purr's ladders are nearly all of the time for nuclides with unresolved resonances
# (scripts/README.md gives the times).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/njoy-pin.sh
endf_dir=${1:?usage: make-ace-library.sh ENDF_DIR}
njoy=${NJOY:-$(command -v njoy || true)}
[ -x "$njoy" ] || { echo "make-ace-library: no NJOY executable (set NJOY)" >&2; exit 1; }
ladders=${KEFF_PURR_LADDERS:-16}
temperature=$keff_ace_temperature
log() { printf 'keff-setup: %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! { mkdir -p "$keff_ace_prefix" 2>/dev/null && [ -w "$keff_ace_prefix" ]; }; then
  as_root mkdir -p "$keff_ace_prefix" && as_root chown "$(id -u):$(id -g)" "$keff_ace_prefix"
fi
mkdir -p "$keff_ace_prefix"/{ace,decks,logs}

# nuclide_name FILE: U235 from n-092_U_235.endf (the name keff's materials use).
nuclide_name() { local b; b=$(basename "$1" .endf); b=${b#n-*_}; echo "${b%%_*}$((10#${b##*_}))"; }
# material FILE: the MAT number, columns 67-70 of the first record after the tape header.
material() { sed -n 2p "$1" | cut -c67-70 | tr -d ' '; }

write_deck() {  # write_deck MAT NAME
  cat <<DECK
reconr
20 21/
'keff: $2 pointwise'/
$1 1/
0.001/
'$2 at $temperature K for keff'/
0/
broadr
20 21 22/
$1 1 0 0 0./
0.001/
$temperature/
0/
purr
20 22 23/
$1 1 1 20 $ladders/
$temperature/
1.e10/
0/
acer
20 23 0 24 25/
1 0 1 .00/
'keff: $2 at $temperature K'/
$1 $temperature/
1 1/
/
stop
DECK
}

process() {  # process FILE: one evaluation into ace/NAME.ace; prints its xsdir line's fields
  local file=$1 name mat deck work t0
  name=$(nuclide_name "$file"); mat=$(material "$file")
  deck=$(write_deck "$mat" "$name"; echo "# endf sha256 $(sha256sum "$file" | cut -d' ' -f1)")
  if [ -s "$keff_ace_prefix/ace/$name.ace" ] && [ -f "$keff_ace_prefix/decks/$name.njoy" ] &&
     [ "$(cat "$keff_ace_prefix/decks/$name.njoy")" = "$deck" ]; then
    return 0
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/keff-njoy-$name.XXXXXX")
  cp "$file" "$work/tape20"
  t0=$(date +%s)
  if ! (cd "$work" && write_deck "$mat" "$name" | "$njoy" >"$keff_ace_prefix/logs/$name.log" 2>&1) ||
     [ ! -s "$work/tape24" ]; then
    log "error: NJOY failed on $file (MAT $mat); see $keff_ace_prefix/logs/$name.log"
    rm -rf "$work"; return 1
  fi
  mv "$work/tape24" "$keff_ace_prefix/ace/$name.ace"
  cp "$work/tape25" "$keff_ace_prefix/decks/$name.xsdir"
  printf '%s\n' "$deck" > "$keff_ace_prefix/decks/$name.njoy"
  rm -rf "$work"
  log "NJOY: $name (MAT $mat) processed in $(( $(date +%s) - t0 )) s"
}
export -f process write_deck nuclide_name material log
export njoy ladders temperature keff_ace_prefix

files=("$endf_dir"/*.endf)
log "making the ACE library in $keff_ace_prefix from ${#files[@]} evaluations in $endf_dir"
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$(nproc)" bash -c 'process "$1"' _

# xsdir: acer's line for each table, its file name made relative to the library.
{
  echo "datapath=$keff_ace_prefix"
  echo "directory"
  for file in "${files[@]}"; do
    name=$(nuclide_name "$file")
    awk -v f="ace/$name.ace" '{ $3 = f; print }' "$keff_ace_prefix/decks/$name.xsdir"
  done
} > "$keff_ace_prefix/xsdir.part"
mv "$keff_ace_prefix/xsdir.part" "$keff_ace_prefix/xsdir"
log "ACE library ready: $keff_ace_prefix/xsdir (${#files[@]} tables at $temperature K)"
