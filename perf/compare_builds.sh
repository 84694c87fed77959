#!/usr/bin/env bash
# Transport speed of two builds of keff, interleaved round by round (this kind of machine drifts by tens
# of percent): the default benchmark and examples/hm_large.toml, history- and event-based (lookups
# unsorted, and sorted by material and energy with the default sorter), and the C5G7 2-D and 3-D
# unrodded cores (lattices two deep) in history mode; where KEFF_ACE_LIBRARY names an ACE library (the
# one scripts/setup-njoy.sh makes), the evaluated HEU metal sphere and uranyl solution too, history and
# event; prints the median particles/s (transport, active batches) of each and their ratio. The two
# builds take turns going first, round by round, so that neither is favoured by its place.
#   perf/compare_builds.sh BEFORE_BIN_DIR AFTER_BIN_DIR [ROUNDS=5] [OUT=perf/results/compare_builds]
# BEFORE_C5G7=DIR (environment): the C5G7 inputs the before build reads, where the change rewrote
# examples/c5g7/ in a form the older build cannot read (the same model: e.g. the folder as `git show`
# gives it at the before commit); default examples/c5g7.
set -euo pipefail
source "$(dirname "$0")/common.sh"
before=$1 after=$2 rounds=${3:-5} out=${4:-perf/results/compare_builds}
export OMP_PROC_BIND=spread OMP_PLACES=threads
mkdir -p "$out"
hm=examples/hm_large.toml
scratch_dir
sorted() {  # sorted INPUT -> the input with its event lookups sorted by material and energy
  { cat "$1"; printf '\n[settings.event]\nsort = "material_energy"\n'; } > "$tmp/$(basename "$1")"
  echo "$tmp/$(basename "$1")"
}
for r in $(seq "$rounds"); do
  sides="before after"
  [ $((r % 2)) = 0 ] && sides="after before"
  for side in $sides; do
    bin=$before c5g7=${BEFORE_C5G7:-examples/c5g7}
    [ "$side" = after ] && bin=$after c5g7=examples/c5g7
    run() { "$bin/keff" run "$@" --quiet --statepoint '' --json "$out/$side-$cfg-$r.json"; }
    cfg=def-h; run --particles 10000 --batches 12 --inactive 2
    cfg=def-e; run --mode event --particles 10000 --batches 12 --inactive 2
    cfg=hm-h;  run "$hm" --particles 4000 --batches 6 --inactive 2
    cfg=hm-e;  run "$hm" --mode event --particles 4000 --batches 6 --inactive 2
    cfg=def-es; run "$(sorted examples/default.toml)" --mode event --particles 10000 --batches 12 --inactive 2
    cfg=hm-es; run "$(sorted "$hm")" --mode event --particles 4000 --batches 6 --inactive 2
    cfg=c5-2d; run "$c5g7/2d.toml" --particles 10000 --batches 12 --inactive 2
    cfg=c5-3d; run "$c5g7/3d_unrodded.toml" --particles 10000 --batches 12 --inactive 2
    if [ -n "${KEFF_ACE_LIBRARY:-}" ]; then
      cfg=heu-h; run examples/evaluated/heu_metal_sphere.toml --particles 20000 --batches 12 --inactive 2
      cfg=heu-e; run examples/evaluated/heu_metal_sphere.toml --mode event --particles 20000 --batches 12 --inactive 2
      cfg=sol-h; run examples/evaluated/uranyl_solution_sphere.toml --particles 5000 --batches 12 --inactive 2
    fi
  done
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
for cfg in ["def-h", "def-e", "def-es", "hm-h", "hm-e", "hm-es", "c5-2d", "c5-3d", "heu-h", "heu-e", "sol-h"]:
    if not glob.glob(f"{out}/after-{cfg}-*.json"):
        continue
    med = {}
    for side in ["before", "after"]:
        v = [json.load(open(f))["particles_per_second"] for f in sorted(glob.glob(f"{out}/{side}-{cfg}-*.json"))]
        med[side] = statistics.median(v)
        print(f"{cfg} {side}: " + " ".join(f"{x:.0f}" for x in v))
    print(f"{cfg}: before {med['before']:.4g} after {med['after']:.4g} ratio {med['after'] / med['before']:.3f}")
PY
