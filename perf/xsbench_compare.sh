#!/usr/bin/env bash
# keff's cross-section lookup against XSBench on XSBench's own H-M problem, the two programs interleaved.
#   XSBENCH=/path/to/XSBench perf/xsbench_compare.sh [build_dir]      (default: build)
# XSBench is not part of keff and this script neither fetches nor builds it: build its openmp-threading
# version yourself (ANL-CESAR/XSBench, `make` in openmp-threading/) and point XSBENCH at the binary.
#
# Every round runs, for each (size, grid): XSBench -m event, -m history and -m event -k 1 (sorted), then
# one xs_lookup_bench process with keff's six modes (perf/xs_lookup_bench.cpp). keff's `queue` mode has
# no XSBench counterpart and is set beside XSBench -m event, whose time also covers its inline sampling;
# its three sorted modes (samples moved by the counting sorter or by Kokkos' sort_by_key, or left in
# place behind a sorted index) are all set beside XSBench -k 1.
# XSBench -k 1's lookup time is its "XS Lookups took" line; its sort time, the material sort, the counting
# and the energy sorts together. The first round of keff also runs the reference pass, whose
# verification number must equal XSBench's (the script says MISMATCH where it does not, and exits 1).
#   ROUNDS=5 THREADS=2 SIZES="small large" GRIDS="hash unionized" LOOKUPS=17000000 PARTICLES=500000
# Prints a Markdown table of medians over rounds; every run goes to perf/results/xsbench_compare.csv.
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=${1:-$KEFF_BUILD_DIR}
bench=$build/bin/xs_lookup_bench
: "${XSBENCH:?set XSBENCH to an XSBench (openmp-threading) binary you built}"
ROUNDS=${ROUNDS:-5}
THREADS=${THREADS:-2}
SIZES=${SIZES:-"small large"}
GRIDS=${GRIDS:-"hash unionized"}
LOOKUPS=${LOOKUPS:-17000000}
PARTICLES=${PARTICLES:-500000}
PER_PARTICLE=34
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
scratch_dir
csv=perf/results/xsbench_compare.csv
mkdir -p perf/results
echo "round,program,problem,grid,mode,lookups,nuclide_lookups,seconds,sort_seconds,checksum" > "$csv"

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<< "$1"; }   # field LINE KEY
xs_value() { sed -n "s/^$2 *\([0-9.]*\).*/\1/p" "$1" | head -1; }  # xs_value FILE PREFIX

run_xsbench() {  # run_xsbench ROUND SIZE GRID MODE
  local out="$tmp/xs.txt" args lookups seconds sort=0
  case $4 in
    event) args=(-m event -l "$LOOKUPS"); lookups=$LOOKUPS ;;
    history) args=(-m history -p "$PARTICLES" -l "$PER_PARTICLE"); lookups=$((PARTICLES * PER_PARTICLE)) ;;
    sorted) args=(-m event -k 1 -l "$LOOKUPS"); lookups=$LOOKUPS ;;
  esac
  # XSBench exits 1 when its checksum is not one of the few it knows (those of its default sizes).
  "$XSBENCH" -t "$THREADS" -s "$2" -G "$3" "${args[@]}" > "$out" || grep -q '^Verification checksum' "$out"
  if [[ $4 == sorted ]]; then
    seconds=$(sed -n 's/^XS Lookups took \([0-9.]*\).*/\1/p' "$out")
    sort=$(sed -n -e 's/^Material sort took \([0-9.]*\).*/\1/p' -e 's/^Counting samples and offsets took \([0-9.]*\).*/\1/p' \
      -e 's/^Energy Sorts took \([0-9.]*\).*/\1/p' "$out" | awk '{s += $1} END {print s}')
  else
    seconds=$(xs_value "$out" "Runtime:")
  fi
  local checksum
  checksum=$(sed -n 's/^Verification checksum: \([0-9]*\).*/\1/p' "$out")
  echo "$1,xsbench,hm-$2,$3,$4,$lookups,,$seconds,$sort,$checksum" >> "$csv"
}

run_keff() {  # run_keff ROUND SIZE GRID
  local verify=0 line
  [[ $1 == 1 ]] && verify=1
  "$bench" --problem "hm-$2" --grid "$3" --mode history,event,queue,sorted,sorted-kokkos,sorted-index --lookups "$LOOKUPS" \
    --particles "$PARTICLES" --lookups-per-particle "$PER_PARTICLE" --verify "$verify" \
    --kokkos-num-threads="$THREADS" > "$tmp/keff.txt"
  while read -r line; do
    local mode lookups
    mode=$(field "$line" mode)
    lookups=$(field "$line" lookups)
    echo "$1,keff,hm-$2,$3,$mode,$lookups,$(field "$line" nuclide_lookups),$(field "$line" seconds),$(field "$line" sort_seconds),$(field "$line" keff_checksum)" >> "$csv"
    if [[ $verify == 1 ]]; then
      # XSBench's stream: its nuclide-lookups, and the verification number XSBench must print
      echo "$1,keff-reference,hm-$2,$3,$mode,$lookups,$(field "$line" xsbench_nuclide_lookups),$(field "$line" reference_seconds),0,$(field "$line" xsbench_verification)" >> "$csv"
    fi
  done < <(grep '^result' "$tmp/keff.txt")
}

for r in $(seq "$ROUNDS"); do
  for size in $SIZES; do
    for grid in $GRIDS; do
      for mode in event history sorted; do run_xsbench "$r" "$size" "$grid" "$mode"; done
      run_keff "$r" "$size" "$grid"
    done
  done
  echo "round $r of $ROUNDS done" >&2
done

# Medians over rounds of each program's lookups/s (rate), sort seconds (sort) and keff's nuclide-lookups/s
# (nrate), per problem, grid and mode: one "PROGRAM,PROBLEM,GRID,MODE,METRIC MEDIAN" line each.
awk -F, 'NR > 1 && $2 != "keff-reference" {
    k = $2 "," $3 "," $4 "," $5
    print k ",rate", $6 / $8
    if ($9 != "") print k ",sort", $9
    if ($2 == "keff") print k ",nrate", $7 / $8
  }' "$csv" > "$tmp/values"
for key in $(cut -d' ' -f1 "$tmp/values" | sort -u); do
  echo "$key $(awk -v key="$key" '$1 == key {print $2}' "$tmp/values" | median)"
done > "$tmp/medians"

echo "machine: $(machine)  date: $(date -u +%F)  threads: $THREADS" \
  "OMP_PROC_BIND=$OMP_PROC_BIND  rounds: $ROUNDS  lookups: $LOOKUPS (event)  $PARTICLES x $PER_PARTICLE (history)"
echo
echo "| problem | grid | keff mode (XSBench run) | XSBench lookups/s | keff lookups/s | keff / XSBench | XSBench nuclide-lookups/s | keff nuclide-lookups/s | sort s XSBench / keff | verification XSBench / keff reference |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
awk -F, '
  FNR == NR { split($0, kv, " "); med[kv[1]] = kv[2]; next }
  FNR > 1 {
    k = $3 "," $4 "," $5
    if ($2 == "keff-reference") { ref[k] = $10; xs_nuclides[k] = $7; next }
    if ($2 == "xsbench") { xs[k] = $10; lookups[k] = $6 }
    if (!(($3 "," $4) in seen)) { seen[$3 "," $4] = 1; order[++n_order] = $3 "," $4 }
  }
  END {
    n_modes = split("history event queue sorted sorted-kokkos sorted-index", modes, " ")
    xs_run["history"] = "-m history"; xs_run["event"] = "-m event"; xs_run["queue"] = "-m event"
    xs_run["sorted"] = xs_run["sorted-kokkos"] = xs_run["sorted-index"] = "-m event -k 1"
    for (o = 1; o <= n_order; o++) for (mi = 1; mi <= n_modes; mi++) {
      m = modes[mi]; k = order[o] "," m
      xk = (m == "queue") ? order[o] ",event" : ((m ~ /^sorted/) ? order[o] ",sorted" : k)
      x = med["xsbench," xk ",rate"] + 0; y = med["keff," k ",rate"] + 0
      xn = (xk in xs_nuclides) ? sprintf("%.4g", x * xs_nuclides[xk] / lookups[xk]) : "-"
      sorts = (m ~ /^sorted/) ? sprintf("%.3f / %.3f", med["xsbench," xk ",sort"], med["keff," k ",sort"]) : "-"
      check = xs[xk] " / " ref[k] ((xs[xk] == ref[k]) ? "" : " MISMATCH")
      split(order[o], pg, ",")
      printf "| %s | %s | %s (%s) | %.4g | %.4g | %.2f | %s | %.4g | %s | %s |\n", pg[1], pg[2], m, xs_run[m], x, y,
        (x > 0 ? y / x : 0), xn, med["keff," k ",nrate"], sorts, check
    }
  }' "$tmp/medians" "$csv" | tee "$tmp/table.md"
if grep -q MISMATCH "$tmp/table.md"; then
  echo "xsbench_compare: keff's reference pass does not give XSBench's verification number (MISMATCH above):" \
    "the two programs did not look up the same intervals" >&2
  exit 1
fi
