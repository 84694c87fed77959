#!/usr/bin/env bash
# keff plot's speed: a slice of the 2-D C5G7 core (its [[plot]] "core") at PIXELS x PIXELS, ROUNDS times,
# printing each round's pixel-kernel time, the rest of the render, and the whole command's wall time.
#   perf/plot_benchmark.sh [--pixels 3000] [--rounds 3]
# Pictures go to a scratch directory. Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
pixels=3000 rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --pixels) pixels=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "plot_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
echo "machine: $(machine); ${pixels} x ${pixels} pixels, examples/c5g7/2d.toml [[plot]] core"
for round in $(seq 1 "$rounds"); do
  start=$(date +%s.%N)
  line=$("$KEFF_BUILD_DIR/bin/keff" plot examples/c5g7/2d.toml --plot core --pixels "$pixels,$pixels" -o "$tmp/core.png" |
         grep -o 'pixel kernel [0-9.]* s, geometry and copy [0-9.]* s')
  end=$(date +%s.%N)
  echo "round $round: $line, whole command $(awk "BEGIN {printf \"%.2f\", $end - $start}") s"
done
