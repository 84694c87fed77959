#!/usr/bin/env bash
# One C5G7 case, run and set against the published reference: k and its error in pcm, the hottest and
# coldest pins, the assembly powers and the figures of merit (perf/c5g7_compare.py), and with --plot the
# pin-power map (matplotlib: the system's, or a virtual environment made in the build directory).
#   perf/c5g7.sh [2d|3d-unrodded|3d-rodded-a|3d-rodded-b] [--plot MAP.png] [keff run flags...]
#   perf/c5g7.sh 2d --particles 20000 --batches 100 --inactive 30
# The case's input is examples/c5g7/<case>.toml (100000 particles x 250 batches, 50 inactive, unless flags
# say otherwise); the run's JSON summary and the comparison's JSON go to perf/results/c5g7/ (ignored), the
# comparison to stdout. Build directory: $KEFF_BUILD_DIR (default build). A script, not a keff command:
# the reference values and the pin-power bookkeeping are the benchmark's, not the transport code's.
set -euo pipefail
source "$(dirname "$0")/common.sh"
case=2d plot=()
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then case=$1; shift; fi
input=examples/c5g7/${case//-/_}.toml
[ -f "$input" ] || { echo "c5g7.sh: no case '$case' (2d, 3d-unrodded, 3d-rodded-a, 3d-rodded-b)" >&2; exit 2; }
flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --plot) plot=(--plot "$2"); shift 2 ;;
    *) flags+=("$1"); shift ;;
  esac
done
out=perf/results/c5g7
mkdir -p "$out"
summary=$out/${case//-/_}.json
"$KEFF_BUILD_DIR/bin/keff" run "$input" --statepoint '' --json "$summary" "${flags[@]}"
echo
python=python3
[ ${#plot[@]} -eq 0 ] || python=$(plot_python "$KEFF_BUILD_DIR")
"$python" perf/c5g7_compare.py "$summary" --input "$input" --json "$out/${case//-/_}.compare.json" "${plot[@]}"
