#!/usr/bin/env bash
# Whether two builds give the same results, bit for bit: for a change that must not move one (a
# restructuring, a faster path), the two builds' runs of the same configurations, compared on every
# result of the JSON summary (k and its estimators, leakage, each batch, lost particles, tallies,
# triggers, CMFD's solves); timings, rates and the run's own description are left out.
#   perf/compare_bits.sh BEFORE_BIN AFTER_BIN      (each build's bin/ folder, e.g. a worktree's build/bin)
# Configurations: the default problem in history mode at 1 and 2 threads, in event mode, at 2 ranks and
# in 2 domains; the LA-13511 sphere at 1 rank and at 4 ranks in event mode; the CMFD slab (where the
# build has CMFD) at 1 rank and in 2 domains; the 2-D and 3-D rodded-A C5G7 cores with their pin tallies;
# the tally test input with every filter, score and estimator. Prints one line per configuration and
# exits 1 when any differs. Not a test: a check to run before a change that claims the same bits.
set -euo pipefail
source "$(dirname "$0")/common.sh"
[ $# -eq 2 ] || { echo "usage: perf/compare_bits.sh BEFORE_BIN AFTER_BIN" >&2; exit 2; }
before=$1 after=$2
scratch_dir
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

run() {  # build name ranks threads keff-run-arguments...
  local bin=$1 name=$2 ranks=$3 threads=$4
  shift 4
  OMP_NUM_THREADS=$threads mpiexec -n "$ranks" "${mpiexec_flags[@]}" "$bin/keff" run "$@" --quiet \
    --statepoint '' --json "$tmp/$name.json" > "$tmp/$name.log" 2>&1
}

cmfd_ok=1
"$after/keff" run examples/cmfd_slab_2g.toml --particles 200 --batches 2 --inactive 1 --quiet --statepoint '' \
  > /dev/null 2>&1 || cmfd_ok=0
configs=(
  "default_h1 1 1 --particles 4000 --batches 6 --inactive 2"
  "default_h2t 1 2 --particles 4000 --batches 6 --inactive 2"
  "default_e1 1 1 --particles 4000 --batches 6 --inactive 2 --mode event"
  "default_np2 2 1 --particles 4000 --batches 6 --inactive 2"
  "default_dom2 2 1 --particles 4000 --batches 6 --inactive 2 --domains 2,1,1"
  "la_np1 1 1 examples/la13511_pub_sphere.toml --particles 3000 --batches 8 --inactive 3"
  "la_np4 4 1 examples/la13511_pub_sphere.toml --particles 3000 --batches 8 --inactive 3 --mode event"
  "c5g7_2d 1 2 examples/c5g7/2d.toml --particles 3000 --batches 5 --inactive 1"
  "c5g7_3d 1 2 examples/c5g7/3d_rodded_a.toml --particles 3000 --batches 5 --inactive 1"
  "tallies 2 1 tests/inputs/tallies_lattice.toml --particles 2000 --batches 5 --inactive 1"
)
if [ "$cmfd_ok" = 1 ]; then
  configs+=("cmfd_h 1 1 examples/cmfd_slab_2g.toml --particles 2000 --batches 8 --inactive 3"
            "cmfd_dom2 2 1 examples/cmfd_slab_2g.toml --particles 2000 --batches 8 --inactive 3 --domains 2,1,1")
fi

status=0
for c in "${configs[@]}"; do
  read -r name ranks threads args <<< "$c"
  read -ra argv <<< "$args"
  run "$before" "$name-before" "$ranks" "$threads" "${argv[@]}"
  run "$after" "$name-after" "$ranks" "$threads" "${argv[@]}"
  python3 - "$tmp/$name-before.json" "$tmp/$name-after.json" "$name" <<'PY' || status=1
import json, sys
RESULTS = ("k", "estimators", "leakage", "batches", "lost_particles", "lost", "bank_overflows", "tallies",
           "triggers", "cmfd")
def results(path):
    def strip(v):  # CMFD's solves carry their times; a batch's generation 1 is what builds before it meant
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if "second" not in k and "time" not in k and not (k == "generation" and x == 1)}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    def filters(tallies):  # each filter by what it bins, whatever its description's keys were then
        for t in tallies or []:
            t["filters"] = [[f.get(key) for key in ("kind", "bins", "shape", "lower", "upper", "names", "positions")]
                            + [f.get("bounds", f.get("energy_bounds"))] for f in t.get("filters", [])]
        return tallies
    d = json.load(open(path))
    d["tallies"] = filters(d.get("tallies"))
    return {k: strip(d.get(k)) for k in RESULTS}
a, b = results(sys.argv[1]), results(sys.argv[2])
differ = [k for k in a if a[k] != b[k]]
print(f"{sys.argv[3]:12s} {'identical' if not differ else 'DIFFERENT: ' + ', '.join(differ)}")
sys.exit(1 if differ else 0)
PY
done
exit $status
