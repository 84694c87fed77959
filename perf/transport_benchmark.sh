#!/usr/bin/env bash
# Transport throughput of the default benchmark and XS lookup rates, on this machine.
#   perf/transport_benchmark.sh [build_dir]       (default: build; run scripts/build.sh first)
# Prints a table: threads, particles/s over active batches (median of 3 runs), and the lookup rates of
# perf/xs_lookup_bench for HM-small and HM-large data.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
keff=$build/bin/keff
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores)  date: $(date -u +%F)"
echo
echo "| threads | particles/s (default benchmark, active batches, median of 3) | k |"
echo "|---|---|---|"
for t in 1 $(nproc); do
  for r in 1 2 3; do
    "$keff" run --quiet --statepoint '' --json "$tmp/t$t-$r.json" --kokkos-num-threads="$t"
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['particles_per_second'])" "$tmp/t$t-$r.json"
  done | median > "$tmp/pps"
  k=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['k']; print(f\"{d['mean']:.5f} +/- {d['std']:.5f}\")" "$tmp/t$t-1.json")
  echo "| $t | $(printf '%.4g' "$(cat "$tmp/pps")") | $k |"
done
echo
for size in "--nuclides 68 --fuel 34" "--nuclides 355 --fuel 321"; do
  echo "xs_lookup_bench $size --gridpoints 11303 --lookups 2000000 --grid all"
  "$build/bin/xs_lookup_bench" $size --gridpoints 11303 --lookups 2000000 --grid all
done
