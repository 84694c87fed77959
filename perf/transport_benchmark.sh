#!/usr/bin/env bash
# Transport throughput on this machine: history-based against event-based transport.
#   perf/transport_benchmark.sh [build_dir]       (default: $KEFF_BUILD_DIR or build; run scripts/build.sh first)
# 1. The default benchmark, history-based, at 1 thread and at every core: particles/s over active
#    batches, median of REPEATS runs.
# 2. The default benchmark and the HM-large example at every core, history-based and event-based with
#    SLOTS particles in flight (settings.event.slots), lookups unsorted and sorted by material and
#    energy (SORTS: SORT[:SORTER[:REORDER]], settings.event.sort, .sorter and .reorder); the modes
#    interleaved, median of REPEATS runs.
#    perf/results/transport_modes.{csv,png}: particles/s against particles in flight, history-based
#    drawn as a line.
#   REPEATS=3 SLOTS="1000 4000 16000" PARTICLES=16000 \
#     SORTS="none material_energy material_energy:kokkos material_energy:counting:index" \
#     HM_PARTICLES=4000 perf/transport_benchmark.sh build
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=${1:-$KEFF_BUILD_DIR}
keff=$build/bin/keff
REPEATS=${REPEATS:-3}
SLOTS=${SLOTS:-"1000 4000 16000"}
SORTS=${SORTS:-"none material_energy material_energy:kokkos material_energy:counting:index"}
PARTICLES=${PARTICLES:-16000}
HM_PARTICLES=${HM_PARTICLES:-4000}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
scratch_dir
pps() { jq -r .particles_per_second "$1"; }

echo "machine: $(machine)  date: $(date -u +%F)  $("$keff" --version)"
echo
echo "| threads | particles/s (default benchmark, history-based, active batches, median of $REPEATS) | k |"
echo "|---|---|---|"
for t in 1 $(nproc); do
  for r in $(seq "$REPEATS"); do
    "$keff" run --quiet --statepoint '' --json "$tmp/t$t-$r.json" --kokkos-num-threads="$t"
    pps "$tmp/t$t-$r.json"
  done | median > "$tmp/pps"
  k=$(jq -r '"\(.k.mean*100000|round/100000) +/- \(.k.std*100000|round/100000)"' "$tmp/t$t-1.json")
  echo "| $t | $(printf '%.4g' "$(cat "$tmp/pps")") | $k |"
done
echo

# Event-based inputs: the example with a [settings.event] table appended (TOML allows it anywhere).
with_event() {  # with_event INPUT SORT[:SORTER[:REORDER]] SLOTS -> path
  local out="$tmp/$(basename "$1" .toml)-$2-$3.toml" sort sorter reorder
  IFS=: read -r sort sorter reorder <<< "$2"
  { cat "$1"; printf '\n[settings.event]\nsort = "%s"\nsorter = "%s"\nreorder = "%s"\nslots = %s\n' \
      "$sort" "${sorter:-counting}" "${reorder:-particles}" "$3"; } > "$out"
  echo "$out"
}
csv=perf/results/transport_modes.csv
mkdir -p perf/results
echo "problem,particles,mode,sort,slots,particles_per_second,flights_per_round" > "$csv"
for problem in examples/default.toml examples/hm_large.toml; do
  n=$PARTICLES
  [[ $problem == *hm_large* ]] && n=$HM_PARTICLES
  name=$(basename "$problem" .toml)
  for r in $(seq "$REPEATS"); do
    "$keff" run "$problem" --particles "$n" --batches 6 --inactive 2 --quiet --statepoint '' --json "$tmp/$name-h-$r.json"
    for sort in $SORTS; do
      for s in $SLOTS; do
        "$keff" run "$(with_event "$problem" "$sort" "$s")" --mode event --particles "$n" --batches 6 --inactive 2 \
          --quiet --statepoint '' --json "$tmp/$name-e-$sort-$s-$r.json"
      done
    done
  done
  m=$(for f in "$tmp/$name-h-"*.json; do pps "$f"; done | median)
  echo "$name,$n,history,,,$m," >> "$csv"
  for sort in $SORTS; do
    for s in $SLOTS; do
      m=$(for f in "$tmp/$name-e-$sort-$s-"*.json; do pps "$f"; done | median)
      f=$(jq -r '.transport.flights / .transport.rounds' "$tmp/$name-e-$sort-$s-1.json")
      echo "$name,$n,event,$sort,$s,$m,$f" >> "$csv"
    done
  done
done
echo "History- vs event-based transport, $(nproc) threads, median of $REPEATS (6 batches, 2 inactive):"
echo
echo "| problem | mode | lookup order | slots | particles in flight (mean per round) | particles/s |"
echo "|---|---|---|---:|---:|---:|"
tail -n +2 "$csv" | awk -F, '{printf "| %s | %s | %s | %s | %s | %.4g |\n", $1, $3, ($4 == "" ? "-" : $4), ($5 == "" ? "-" : $5), ($7 == "" ? "-" : sprintf("%.0f", $7)), $6}'
python=$(plot_python "$build")
$python perf/plot_transport_modes.py "$csv" perf/results/transport_modes.png "$(nproc) threads, $(date -u +%F)"
echo
echo "CSV: $csv, plot: perf/results/transport_modes.png"
