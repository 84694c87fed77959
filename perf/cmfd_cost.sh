#!/usr/bin/env bash
# What CMFD costs on a 3-D coarse mesh: LA-13511's UD2O sphere with its [cmfd] (10 x 10 x 10 cells,
# feedback on) under the solver settings below, and without CMFD. Per variant: power and GMRES iterations
# per solve, the timing table's `cmfd` phase, its share of the run (the sum of every phase), and the
# all-in share (run with CMFD - run without) / run with CMFD, which counts transport's slowdown from
# scoring CMFD's tallies. The goal (issue: CMFD that earns its place) is under 10% all-in.
#   perf/cmfd_cost.sh [--particles 100000] [--batches 60] [--inactive 20]
# Each variant is a copy of the input with [cmfd.solver] keys added, in a scratch directory; the JSON
# summaries stay there. Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
particles=100000 batches=60 inactive=20
while [ $# -gt 0 ]; do
  case "$1" in
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    *) echo "cmfd_cost.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
input=examples/la13511_ud2o_sphere.toml
variants=(
  "defaults (warm start)|"
  "defaults, no warm start|warm_start = false"
  "shift 0.02, k 1e-8, source 1e-6, GMRES 1e-8|shift = 0.02\nk_tolerance = 1e-8\nsource_tolerance = 1e-6\ngmres_tolerance = 1e-8"
  "same, GMRES 1e-6|shift = 0.02\nk_tolerance = 1e-8\nsource_tolerance = 1e-6\ngmres_tolerance = 1e-6"
  "same, GMRES 1e-5|shift = 0.02\nk_tolerance = 1e-8\nsource_tolerance = 1e-6\ngmres_tolerance = 1e-5"
  "same, GMRES 1e-5, no warm start|shift = 0.02\nk_tolerance = 1e-8\nsource_tolerance = 1e-6\ngmres_tolerance = 1e-5\nwarm_start = false"
)
run() {  # run NAME INPUT FLAG
  "$KEFF_BUILD_DIR/bin/keff" run "$2" "$3" --particles "$particles" --batches "$batches" --inactive "$inactive" \
    --statepoint '' --quiet --json "$tmp/$1.json"
}
run none "$input" --no-cmfd
for i in "${!variants[@]}"; do
  cp "$input" "$tmp/v$i.toml"
  keys=${variants[$i]#*|}
  [ -z "$keys" ] || printf '\n[cmfd.solver]\n%b\n' "$keys" >> "$tmp/v$i.toml"
  run "v$i" "$tmp/v$i.toml" --cmfd
done
echo "machine: $(machine); $input, $particles particles x $batches batches ($inactive inactive)"
python3 - "$tmp" "${variants[@]}" <<'PY'
import json, sys
tmp, variants = sys.argv[1], sys.argv[2:]
def load(name):
    with open(f"{tmp}/{name}.json") as f:
        return json.load(f)
def total(d):
    return sum(t["max"] for t in d["timing"].values())
none = total(load("none"))
print(f"{'solver settings':46s} {'power/solve':>11s} {'GMRES/solve':>11s} {'cmfd s':>7s} {'share':>6s} {'all-in':>6s}  k")
for i, v in enumerate(variants):
    d = load(f"v{i}")
    solves = [b for b in d["batches"] if "cmfd_outer_iterations" in b]
    outer = sum(b["cmfd_outer_iterations"] for b in solves) / len(solves)
    inner = sum(b["cmfd_inner_iterations"] for b in solves) / len(solves)
    run, cmfd = total(d), d["timing"]["cmfd"]["max"]
    print(f"{v.split('|')[0]:46s} {outer:11.1f} {inner:11.0f} {cmfd:7.2f} {100 * cmfd / run:5.1f}% "
          f"{100 * (run - none) / run:5.1f}%  {d['k']['mean']:.5f}")
print(f"{'no CMFD':46s} {'':11s} {'':11s} {'':7s} run {none:.2f} s")
PY
