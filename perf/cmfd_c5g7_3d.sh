#!/usr/bin/env bash
# CMFD on C5G7's 3-D core: examples/c5g7/3d_unrodded.toml with a [cmfd] table appended (one coarse cell per
# pin-cell column, four axial cells over the whole height, 7 groups, feedback on, min_collisions 1; the
# issue's three axial cells over the fuel are refused, see perf/RESULTS.md), run once per seed, with CMFD or
# (--no-cmfd) without. Prints each run's time, k and CMFD's solves, then over the seeds: the mean k, its
# std, the spread against the quoted std, and each active batch's collision k averaged over the seeds
# (the first three, then blocks of five), where what CMFD's last feedback leaves in the first active
# batches shows. Not a test: numbers go to perf/RESULTS.md ("C5G7 3-D").
#   perf/cmfd_c5g7_3d.sh [--seeds "1 2 3"] [--particles 100000] [--inactive 5] [--active 20] [--no-cmfd]
#                        [--end N] [--window none|expanding|rolling] [--preconditioner NAME] [--reference 1.14299]
# --end and --window set [cmfd] end and window (defaults: the last inactive batch, "none"), --preconditioner
# [cmfd.solver] preconditioner (default auto, which picks the multigrid on this mesh of pin cells). The reference
# is keff's own long run of this core (perf/RESULTS.md, C5G7 section). Threads: $OMP_NUM_THREADS.
# Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
seeds="1 2 3" particles=100000 inactive=5 active=20 cmfd=--cmfd end="" window="" preconditioner="" reference=1.14299
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) seeds=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    --active) active=$2; shift 2 ;;
    --no-cmfd) cmfd=--no-cmfd; shift ;;
    --end) end=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --preconditioner) preconditioner=$2; shift 2 ;;
    --reference) reference=$2; shift 2 ;;
    *) echo "cmfd_c5g7_3d.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
input=$tmp/c5g7_3d_cmfd.toml
{
  c5g7_3d_cmfd_input
  [ -z "$end" ] || printf 'end = %s\n' "$end"
  [ -z "$window" ] || printf 'window = "%s"\n' "$window"
  [ -z "$preconditioner" ] || printf '\n[cmfd.solver]\npreconditioner = "%s"\n' "$preconditioner"
} > "$input"
for seed in $seeds; do
  "$KEFF_BUILD_DIR/bin/keff" run "$input" "$cmfd" --seed "$seed" --particles "$particles" \
    --batches $((inactive + active)) --inactive "$inactive" --statepoint '' --quiet --json "$tmp/seed$seed.json"
done
echo "machine: $(machine); C5G7 3-D unrodded, [cmfd] 34 x 34 x 4 x 7 groups ($cmfd, end ${end:-default}," \
     "window ${window:-none}, preconditioner ${preconditioner:-default}), $particles particles, $inactive inactive +" \
     "$active active batches"
python3 - "$tmp" "$reference" $seeds <<'PY'
import json, statistics, sys
tmp, reference, seeds = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
runs = [json.load(open(f"{tmp}/seed{s}.json")) for s in seeds]
ks, stds, actives = [], [], []
for s, d in zip(seeds, runs):
    k, std = d["k"]["mean"], d["k"]["std"]
    solves = [b for b in d["batches"] if "cmfd_outer_iterations" in b]
    failed = sum(1 for b in solves if b.get("k_cmfd") is None)
    run = sum(t["max"] for t in d["timing"].values())
    cmfd = d["timing"].get("cmfd", {}).get("max", 0.0)
    per = (f", {sum(b['cmfd_outer_iterations'] for b in solves) / len(solves):.1f} power and "
           f"{sum(b['cmfd_inner_iterations'] for b in solves) / len(solves):.0f} GMRES it. each" if solves else "")
    print(f"seed {s}: run {run:.1f} s (cmfd {cmfd:.1f} s, {len(solves)} solves{per}, {failed} failed), "
          f"k {k:.5f} +- {std:.5f} (z {(k - reference) / std:+.1f} against {reference})")
    ks.append(k), stds.append(std)
    actives.append([b["k_collision"] for b in d["batches"] if b["active"]])
if len(ks) > 1:
    spread = statistics.stdev(ks)
    quoted = (sum(x * x for x in stds) / len(stds)) ** 0.5
    print(f"mean k {statistics.mean(ks):.5f} +- {spread / len(ks) ** 0.5:.5f}; spread {spread:.5f}, "
          f"quoted std (rms) {quoted:.5f}, spread / quoted {spread / quoted:.2f}")
n = min(len(a) for a in actives)
per_batch = [statistics.mean(a[i] for a in actives) for i in range(n)]
print("active batches' collision k over the seeds: first three", " ".join(f"{x:.5f}" for x in per_batch[:3]),
      "; blocks of five", " ".join(f"{statistics.mean(per_batch[i:i + 5]):.5f}" for i in range(0, n, 5)))
PY
