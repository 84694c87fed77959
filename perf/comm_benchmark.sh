#!/usr/bin/env bash
# Bank exchange: blocking vs overlapped. Runs `keff run --exchange blocking|overlapped` at each rank
# count REPEATS times and reports, per phase, the median over repeats of the slowest rank's seconds
# (the JSON's timing.<phase>.max) and the exchange's MPI call counts, as a task x ranks table.
# Writes perf/results/comm_benchmark.csv (mode, ranks, metric, median). Ranks are oversubscribed on
# small machines (--oversubscribe --bind-to none), one OpenMP thread each.
#   perf/comm_benchmark.sh                       # defaults below
#   RANKS="2 4 8" REPEATS=5 PARTICLES=100000 BATCHES=12 KEFF=build/bin/keff perf/comm_benchmark.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
KEFF=${KEFF:-$KEFF_BUILD_DIR/bin/keff}
INPUT=${INPUT:-examples/la13511_pub_sphere.toml}
RANKS=${RANKS:-"2 4 8"}
REPEATS=${REPEATS:-5}
PARTICLES=${PARTICLES:-100000}
BATCHES=${BATCHES:-12}
INACTIVE=${INACTIVE:-2}
OUT=${OUT:-perf/results}
mkdir -p "$OUT"
scratch_dir

phases=("transport active" "bank sort" "bank exchange post" "bank exchange wait" "reductions")
counts=(isend irecv testsome arrived_early waitall)
csv="$OUT/comm_benchmark.csv"
echo "mode,ranks,metric,median" > "$csv"

for np in $RANKS; do
  for mode in blocking overlapped; do
    for r in $(seq "$REPEATS"); do
      OMP_NUM_THREADS=1 OMP_PROC_BIND=false mpiexec -n "$np" "${mpiexec_flags[@]}" "$KEFF" run "$INPUT" \
        --particles "$PARTICLES" --batches "$BATCHES" --inactive "$INACTIVE" --exchange "$mode" \
        --quiet --statepoint "" --json "$tmp/$mode-$np-$r.json" 2>/dev/null
    done
    for p in "${phases[@]}"; do
      m=$(for f in "$tmp/$mode-$np"-*.json; do jq -r --arg p "$p" '.timing[$p].max // 0' "$f"; done | median)
      echo "$mode,$np,$p (s),$m" >> "$csv"
    done
    m=$(for f in "$tmp/$mode-$np"-*.json; do
          jq -r '(.timing["bank exchange post"].max // 0) + (.timing["bank exchange wait"].max // 0) + (.timing["reductions"].max // 0)' "$f"
        done | median)
    echo "$mode,$np,post + wait + reductions (s),$m" >> "$csv"
    for c in "${counts[@]}"; do
      m=$(for f in "$tmp/$mode-$np"-*.json; do jq -r --arg c "$c" '.bank_exchange[$c]' "$f"; done | median)
      echo "$mode,$np,$c (calls),$m" >> "$csv"
    done
  done
done

echo "Bank exchange, blocking (B) vs overlapped (O): median of $REPEATS runs; seconds on the slowest rank over"
echo "the run, MPI calls summed over ranks. $INPUT, $PARTICLES particles x $BATCHES batches."
awk -F, -v ranks="$RANKS" '
  NR > 1 { v[$3 "|" $1 "|" $2] = $4; if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 } }
  END {
    nr = split(ranks, rk, " ")
    printf "| %-30s |", "task"
    for (i = 1; i <= nr; ++i) printf " B np%-3s | O np%-3s |", rk[i], rk[i]
    printf "\n|%s|", "--------------------------------"
    for (i = 1; i <= nr; ++i) printf "---------:|---------:|"
    printf "\n"
    for (j = 1; j <= n; ++j) {
      printf "| %-30s |", order[j]
      for (i = 1; i <= nr; ++i) {
        b = v[order[j] "|blocking|" rk[i]]; o = v[order[j] "|overlapped|" rk[i]]
        if (order[j] ~ /calls/) printf " %8d | %8d |", b, o; else printf " %8.5f | %8.5f |", b, o
      }
      printf "\n"
    }
  }' "$csv"
echo "CSV: $csv"
