#!/usr/bin/env bash
# CMFD benchmark: how many batches the fission source of a loosely coupled problem needs to converge,
# with and without CMFD, and what CMFD costs per batch. Not a test: numbers go to perf/RESULTS.md.
#
# The problem (default examples/cmfd_slab_2g.toml: a 200 cm two-group slab, dominance ratio ~0.986) starts
# its source in one end. Each seed runs twice, with its [cmfd] (feedback on) and with --no-cmfd. The
# converged band of the Shannon entropy is mean +/- 3 standard deviations of every run's last `tail`
# batches together; a run has converged at the first batch after which its entropy never leaves the
# band. Reported per seed: those batches with and without CMFD and their ratio; CMFD's time per batch
# against transport's (the timing table's 'cmfd' phase), and its power and GMRES iterations per solve.
# The last `tail` batches are active, so k (CMFD and none) is averaged over them.
#
#   perf/cmfd_benchmark.sh [--build build] [--input examples/cmfd_slab_2g.toml] [--seeds "1 2 3"]
#                          [--particles 10000] [--batches 200] [--tail 50] [--threads 1] [--jobs 2]
# Output: perf/results/cmfd_benchmark/{seed}_{cmfd,nocmfd}.json and summary.txt (also printed).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR input=examples/cmfd_slab_2g.toml seeds="1 2 3" particles=10000 batches=200 tail=50 threads=1 jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --tail) tail=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "cmfd_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
out=perf/results/cmfd_benchmark
mkdir -p "$out"
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=false OMP_WAIT_POLICY=passive

runs=()
for seed in $seeds; do
  runs+=("$seed cmfd --cmfd" "$seed nocmfd --no-cmfd")
done
printf '%s\n' "${runs[@]}" | xargs -P "$jobs" -L 1 bash -c '
  seed=$0 name=$1 flag=$2
  "'"$build"'/bin/keff" run "'"$input"'" $flag --seed "$seed" --particles '"$particles"' --batches '"$batches"' \
      --inactive $(( '"$batches"' - '"$tail"' )) --quiet --statepoint "" --json "'"$out"'/${seed}_${name}.json" > /dev/null'

python3 - "$out" "$tail" "$seeds" <<'EOF' | tee "$out/summary.txt"
import json, statistics, sys
out, tail, seeds = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
runs = {(s, n): json.load(open(f"{out}/{s}_{n}.json")) for s in seeds for n in ("cmfd", "nocmfd")}
last = [b["entropy"] for r in runs.values() for b in r["batches"][-tail:]]
mean, sd = statistics.fmean(last), statistics.stdev(last)
lo, hi = mean - 3 * sd, mean + 3 * sd
print(f"converged entropy band: {mean:.4f} +/- 3 x {sd:.4f} = [{lo:.4f}, {hi:.4f}] (last {tail} batches of every run)")

def converged_at(r):
    h = [b["entropy"] for b in r["batches"]]
    first = len(h) + 1
    for i in range(len(h) - 1, -1, -1):
        if not lo <= h[i] <= hi:
            break
        first = i + 1
    return first  # 1-based batch; len + 1: never settled

print(f"{'seed':>6} {'batches (CMFD)':>15} {'batches (none)':>15} {'ratio':>7} {'cmfd s/batch':>13} "
      f"{'transport s/batch':>18} {'cost':>7} {'power it.':>10} {'GMRES it.':>10} {'k (CMFD)':>18} {'k (none)':>18}")
for s in seeds:
    c, n = runs[(s, "cmfd")], runs[(s, "nocmfd")]
    bc, bn = converged_at(c), converged_at(n)
    nb = len(c["batches"])
    t = c["timing"]
    cmfd = t["cmfd"]["mean"] / nb
    transport = (t["transport inactive"]["mean"] + t["transport active"]["mean"]) / nb
    solves = [b for b in c["batches"] if "k_cmfd" in b]
    outer = statistics.fmean(b["cmfd_outer_iterations"] for b in solves)
    inner = statistics.fmean(b["cmfd_inner_iterations"] for b in solves)
    fmt = lambda r: f"{r['k']['mean']:.5f}+/-{r['k']['std']:.5f}"
    print(f"{s:>6} {bc:>15} {bn:>15} {bn / bc:>7.2f} {cmfd:>13.4f} {transport:>18.4f} {100 * cmfd / transport:>6.1f}% "
          f"{outer:>10.1f} {inner:>10.1f} {fmt(c):>18} {fmt(n):>18}")
EOF
