#!/usr/bin/env bash
# Sorting by small integer keys (perf/sort_bench.cpp): keff's two counting sorts (the event queue's, the
# stable one of the bank and the communication plan), Kokkos' sort_by_key (int keys,
# and the unique (key, item) key a bit-identical result needs) and BinSort, std::sort and std::map, for n
# items, ROUNDS rounds interleaved (this machine's timings drift between minutes), the median per sorter
# and n printed as a Markdown table with the allocations per call.
#   perf/sort_benchmark.sh [--n 1000,10000,100000,1000000,10000000] [--keys 16384] [--rounds 3]
#                          [--threads 2] [--min-seconds 0.5] [--sorters counting,sort_by_key,...]
# Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
sizes=1000,10000,100000,1000000,10000000 keys=16384 rounds=3 threads=2 min_seconds=0.5 sorters=()
while [ $# -gt 0 ]; do
  case "$1" in
    --n) sizes=$2; shift 2 ;;
    --keys) keys=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --min-seconds) min_seconds=$2; shift 2 ;;
    --sorters) sorters=(--sorters "$2"); shift 2 ;;
    *) echo "sort_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
echo "machine: $(machine); $(date -u +%Y-%m-%d); keys uniform in [0, $keys); $threads OpenMP thread(s); median of $rounds rounds"
for round in $(seq 1 "$rounds"); do
  OMP_PROC_BIND=false "$KEFF_BUILD_DIR/bin/sort_bench" --n "$sizes" --keys "$keys" --min-seconds "$min_seconds" \
    --seed "$round" "${sorters[@]}" --kokkos-num-threads="$threads" | grep '^result' >> "$tmp/results"
done
python3 - "$tmp/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    v = dict(field.split("=", 1) for field in line.split()[1:])
    rows.setdefault((v["sorter"], int(v["n"])), []).append(v)
print("| sorter | n | ms per call (median) | items/s | Kokkos allocations | heap allocations |")
print("|---|---:|---:|---:|---:|---:|")
for (sorter, n), runs in rows.items():
    seconds = statistics.median(float(r["seconds"]) for r in runs)
    print(f"| {sorter} | {n} | {seconds * 1e3:.4g} | {n / seconds:.3g} | {runs[-1]['kokkos_allocs']} | {runs[-1]['heap_allocs']} |")
PY
