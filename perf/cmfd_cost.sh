#!/usr/bin/env bash
# What CMFD costs on a 3-D coarse mesh: LA-13511's UD2O sphere with its [cmfd] (10 x 10 x 10 cells,
# feedback on) under the settings below (in the inactive batches, its default, unless a variant sets
# [cmfd] end), and without CMFD. Per variant: power and GMRES iterations
# per solve, the timing table's `cmfd` phase, its share of the run (the sum of every phase), and the
# all-in share (run with CMFD - run without) / run with CMFD, which counts transport's slowdown from
# scoring CMFD's tallies. The goal (issue: CMFD that earns its place) is under 10% all-in.
#   perf/cmfd_cost.sh [--particles 100000] [--batches 60] [--inactive 20] [--repeats 3] [--variants "0 1"]
# --variants runs only those rows of the list below (counted from 0), for more repeats in the same time.
# Transport is also shown split: inactive batches (where CMFD runs by default) and active ones (where
# neither run has CMFD by default, so their ratio is the measurement's noise).
# Every round runs each variant and the run without CMFD once, one after another; times are the medians
# over the rounds, iterations and failed solves the first round's (they repeat exactly). Each variant is
# a copy of the input with [cmfd] and [cmfd.solver] keys added, in a scratch directory; the JSON summaries stay
# there. Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
particles=100000 batches=60 inactive=20 repeats=3 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --variants) only=$2; shift 2 ;;
    *) echo "cmfd_cost.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
input=examples/la13511_ud2o_sphere.toml
# Each variant: "label|[cmfd] keys|[cmfd.solver] keys".
variants=(
  "defaults (adaptive shift; auto takes Gauss-Seidel here)||"
  "defaults, first half of inactive (end = I / 2)|end = $(( (inactive + 1) / 2 ))|"
  "defaults, every batch (end = batches)|end = $batches|"
  "defaults with ILU(0)||preconditioner = \"ilu\""
  "defaults with the multigrid||preconditioner = \"multigrid\""
  "defaults unpreconditioned||preconditioner = \"none\""
  "no shift, inexact GMRES||adaptive_shift = false"
  "adaptive shift, GMRES to 1e-12||gmres_reduction = 0"
  "no shift, GMRES to 1e-12, unpreconditioned||adaptive_shift = false\ngmres_reduction = 0\npreconditioner = \"none\""
  "shift 0.02, k 1e-8, source 1e-6, GMRES 1e-5||shift = 0.02\nk_tolerance = 1e-8\nsource_tolerance = 1e-6\ngmres_tolerance = 1e-5\ngmres_reduction = 0"
)
run() {  # run NAME INPUT FLAG
  "$KEFF_BUILD_DIR/bin/keff" run "$2" "$3" --particles "$particles" --batches "$batches" --inactive "$inactive" \
    --statepoint '' --quiet --json "$tmp/$1.json"
}
grep -q '^\[cmfd\]$' "$input" || { echo "cmfd_cost.sh: no [cmfd] table in $input" >&2; exit 1; }
if [ -n "$only" ]; then
  chosen=()
  for i in $only; do
    [[ $i =~ ^[0-9]+$ ]] && [ -n "${variants[$i]:-}" ] || { echo "cmfd_cost.sh: no variant $i (0 to $((${#variants[@]} - 1)))" >&2; exit 2; }
    chosen+=("${variants[$i]}")
  done
  variants=("${chosen[@]}")
fi
for i in "${!variants[@]}"; do
  IFS='|' read -r _ cmfd_keys solver_keys <<< "${variants[$i]}"
  CMFD_KEYS=$(printf '%b' "$cmfd_keys") awk '{ print } /^\[cmfd\]$/ && ENVIRON["CMFD_KEYS"] != "" { print ENVIRON["CMFD_KEYS"] }' \
    "$input" > "$tmp/v$i.toml"
  [ -z "$solver_keys" ] || printf '\n[cmfd.solver]\n%b\n' "$solver_keys" >> "$tmp/v$i.toml"
done
for r in $(seq "$repeats"); do
  run "none.$r" "$input" --no-cmfd
  for i in "${!variants[@]}"; do run "v$i.$r" "$tmp/v$i.toml" --cmfd; done
done
echo "machine: $(machine); $input, $particles particles x $batches batches ($inactive inactive)"
python3 - "$tmp" "$repeats" "${variants[@]}" <<'PY'
import json, statistics, sys
tmp, repeats, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def load(name):
    with open(f"{tmp}/{name}.json") as f:
        return json.load(f)
def total(d):
    return sum(t["max"] for t in d["timing"].values())
def phase(d, name):
    return d["timing"][name]["max"]
def transport(d):
    return phase(d, "transport inactive") + phase(d, "transport active")
def runs(name):
    return [load(f"{name}.{r}") for r in range(1, repeats + 1)]
med = statistics.median
none = runs("none")
none_total, none_transport = med(total(d) for d in none), med(transport(d) for d in none)
none_inactive, none_active = (med(phase(d, p) for d in none) for p in ("transport inactive", "transport active"))
print(f"medians of {repeats} rounds; transport with CMFD / without: all batches, inactive, active")
print(f"{'solver settings':48s} {'power/solve':>11s} {'GMRES/solve':>11s} {'failed':>6s} {'cmfd s':>7s} "
      f"{'share':>6s} {'transport':>9s} {'inactive':>8s} {'active':>7s} {'all-in':>6s}  k")
for i, v in enumerate(variants):
    ds = runs(f"v{i}")
    d = ds[0]
    solves = [b for b in d["batches"] if "cmfd_outer_iterations" in b]
    outer = sum(b["cmfd_outer_iterations"] for b in solves) / len(solves)
    inner = sum(b["cmfd_inner_iterations"] for b in solves) / len(solves)
    failed = sum(1 for b in solves if b.get("k_cmfd") is None)
    run, cmfd = med(total(x) for x in ds), med(x["timing"]["cmfd"]["max"] for x in ds)
    slower = med(transport(x) for x in ds) / none_transport
    inactive = med(phase(x, "transport inactive") for x in ds) / none_inactive
    active = med(phase(x, "transport active") for x in ds) / none_active
    print(f"{v.split('|')[0]:48s} {outer:11.1f} {inner:11.0f} {failed:6d} {cmfd:7.2f} {100 * cmfd / run:5.1f}% "
          f"{slower:8.2f}x {inactive:7.2f}x {active:6.2f}x {100 * (run - none_total) / run:5.1f}%  {d['k']['mean']:.5f}")
print(f"{'no CMFD':48s} run {none_total:.2f} s, transport {none_transport:.2f} s "
      f"({none_inactive:.2f} s inactive, {none_active:.2f} s active)")
PY
