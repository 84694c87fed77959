#!/usr/bin/env bash
# What tallies cost: transport particles/s of the 2-D C5G7 core (examples/c5g7/2d.toml, 7 groups) with no
# tally against the same run with
#   pin_mesh   a pin-by-pin mesh, 51 x 51 over the quarter core (fuel and reflector), x 7 groups, flux and
#              fission, track length: every flight is split at the pin planes it crosses (36,414 values)
#   pin_cells  the same by cell_instance: every placement of the six pin cells (1,156 pins) x 7 groups
#   one_bin    flux and fission of the whole problem, track length: every thread adds to the same two
#              values, the most contended tally there is
#   pins34     the example's own pin_power tally: fission on a 34 x 34 mesh over the fuel assemblies
# in history- and event-based transport at 1 thread and at every core, interleaved round by round (this
# kind of machine drifts by tens of percent): the median of the rounds and its cost against no tally.
# With --openmc, OpenMC's multigroup run of the same core (perf/c5g7_openmc.py) with no tally and with the
# same 34 x 34 fission tally, in the same rounds: the peer's cost for the same tally. Rates are particles/s
# over the active batches, whole batches (keff's batch_particles_per_second; OpenMC's active-batch time).
# Not a test: numbers go to perf/RESULTS.md.
#   perf/tally_benchmark.sh [--build DIR] [--rounds 3] [--particles 20000] [--batches 8] [--inactive 3]
#                           [--openmc PYTHON]
# Output: a Markdown table on stdout; each run's JSON under perf/results/tally_benchmark/ (ignored).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR rounds=3 particles=20000 batches=8 inactive=3 openmc=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    --openmc) openmc=$2; shift 2 ;;
    *) echo "tally_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
out=perf/results/tally_benchmark
rm -rf "$out" && mkdir -p "$out"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
# The example without its own pin-power tally: [[mesh]] and [[tally]] tables left out.
base=$out/none.toml
awk '/^\[\[(mesh|tally)\]\]/ {skip = 1; next} /^\[/ {skip = 0} !skip' examples/c5g7/2d.toml > "$base"
{ cat "$base"; cat <<'TOML'

[[mesh]]
name = "pins"
lower_left = [0.0, 0.0]
upper_right = [64.26, 64.26]
shape = [51, 51]

[[tally]]
name = "pin_power"
filters = ["mesh", "group"]
mesh = "pins"
scores = ["flux", "fission"]
TOML
} > "$out/pin_mesh.toml"
{ cat "$base"; cat <<'TOML'

[[tally]]
name = "pin_power"
filters = ["cell_instance", "group"]
cell_instance = ["uo2_pin", "mox43_pin", "mox7_pin", "mox87_pin", "guide_tube_pin", "fiss_chamber_pin"]
scores = ["flux", "fission"]
TOML
} > "$out/pin_cells.toml"
{ cat "$base"; cat <<'TOML'

[[tally]]
name = "whole"
scores = ["flux", "fission"]
TOML
} > "$out/one_bin.toml"

cp examples/c5g7/2d.toml "$out/pins34.toml"

cases="none pin_mesh pin_cells one_bin pins34"
modes="history event"
[ -n "$openmc" ] && modes+=" openmc"
cores=$(nproc)
scratch_dir
for r in $(seq "$rounds"); do
  for mode in $modes; do
    for threads in 1 "$cores"; do
      for c in $cases; do
        json=$out/$c-$mode-$threads-$r.json
        if [ "$mode" != openmc ]; then
          OMP_NUM_THREADS=$threads "$build/bin/keff" run "$out/$c.toml" --mode "$mode" --particles "$particles" \
            --batches "$batches" --inactive "$inactive" --quiet --statepoint '' --json "$json" > /dev/null
        elif [ "$c" = none ] || [ "$c" = pins34 ]; then
          no_tally=(); [ "$c" = none ] && no_tally=(--no-tally)
          PATH="$(dirname "$openmc"):$PATH" OMP_NUM_THREADS=$threads "$openmc" perf/c5g7_openmc.py \
            --input examples/c5g7/2d.toml --particles "$particles" --batches "$batches" --inactive "$inactive" \
            --threads "$threads" --dir "$tmp/openmc" --json "$json" "${no_tally[@]}" > /dev/null
        fi
      done
    done
  done
done

echo "Tally cost on $(machine), $(date -u +%F); $rounds rounds, $particles particles x $batches batches ($inactive inactive)"
python3 - "$out" "$rounds" "$cases" "$cores" "$modes" <<'PY'
import json, os, statistics, sys
out, rounds, cases, cores, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5].split()
print("| tally | code, mode | threads | values | particles/s (median) | rounds | cost vs none |")
print("|---|---|---:|---:|---:|---|---:|")
for mode in modes:
    for threads in sorted({"1", cores}, key=int):
        med = {}
        for c in cases:
            if not os.path.exists(f"{out}/{c}-{mode}-{threads}-1.json"):
                continue
            runs = [json.load(open(f"{out}/{c}-{mode}-{threads}-{r}.json")) for r in range(1, rounds + 1)]
            pps = [j["batch_particles_per_second"] for j in runs]
            med[c] = statistics.median(pps)
            values = sum(len(t["mean"]) for t in runs[0]["tallies"])
            cost = "" if c == "none" else f"{100 * (med['none'] / med[c] - 1):+.1f}%"
            code = "OpenMC, history" if mode == "openmc" else f"keff, {mode}"
            print(f"| {c} | {code} | {threads} | {values} | {med[c]:.0f} | {' '.join(f'{p:.0f}' for p in pps)} | {cost} |")
PY
