#!/usr/bin/env bash
# Domain decomposition: blocking vs overlapped particle (halo) and bank exchange. Runs the default
# lattice cut into domains at several rank counts, `keff run --domains MESH --exchange blocking|overlapped`,
# REPEATS times each, the modes interleaved, and reports medians over repeats of: transport time
# (min / mean / max over ranks: the imbalance), the particle exchange's seconds packing, inside MPI and
# idle (mean and max over ranks), messages, bytes and particles sent, the bank exchange's wait and the
# source routing, and the share of the blocking run's exchange cost that overlapping hides:
#
#   compute   = T_blocking - (mpi + idle)_blocking      (transport without exchange, per rank, mean)
#   hidden    = 1 - (T_overlapped - compute) / (T_blocking - compute)
#
# Writes perf/results/halo_benchmark.{csv,png}. Ranks are oversubscribed on small machines
# (--oversubscribe --bind-to none), one OpenMP thread each, OpenMP waiting passively.
#   perf/halo_benchmark.sh                                  # defaults below
#   CONFIGS="2:2,1,1 4:2,2,1" REPEATS=5 PARTICLES=50000 KEFF=build/bin/keff perf/halo_benchmark.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
KEFF=${KEFF:-$KEFF_BUILD_DIR/bin/keff}
CONFIGS=${CONFIGS:-"2:2,1,1 4:2,1,1 4:2,2,1 8:2,1,1 8:2,2,1"}  # ranks:domain mesh
REPEATS=${REPEATS:-3}
PARTICLES=${PARTICLES:-20000}
BATCHES=${BATCHES:-8}
INACTIVE=${INACTIVE:-3}
OUT=${OUT:-perf/results}
mkdir -p "$OUT"
scratch_dir

for r in $(seq "$REPEATS"); do
  for config in $CONFIGS; do
    np=${config%%:*} mesh=${config#*:}
    for mode in blocking overlapped; do
      OMP_NUM_THREADS=1 OMP_PROC_BIND=false OMP_WAIT_POLICY=passive mpiexec -n "$np" "${mpiexec_flags[@]}" "$KEFF" run \
        --domains "$mesh" --exchange "$mode" --particles "$PARTICLES" --batches "$BATCHES" --inactive "$INACTIVE" \
        --quiet --statepoint "" --json "$tmp/$np-$mesh-$mode-$r.json" 2>/dev/null
    done
  done
done

metric() {  # metric NAME JQ-EXPRESSION: one CSV row per configuration and mode
  local name=$1 expr=$2
  for config in $CONFIGS; do
    np=${config%%:*} mesh=${config#*:}
    for mode in blocking overlapped; do
      m=$(for f in "$tmp/$np-$mesh-$mode"-*.json; do jq -r "$expr" "$f"; done | median)
      echo "$np,${mesh//,/x},$mode,$name,$m"
    done
  done
}
csv="$OUT/halo_benchmark.csv"
{
  echo "ranks,domains,mode,metric,median"
  metric "transport min (s)" '.timing["transport active"].min + .timing["transport inactive"].min'
  metric "transport mean (s)" '.timing["transport active"].mean + .timing["transport inactive"].mean'
  metric "transport max (s)" '.timing["transport active"].max + .timing["transport inactive"].max'
  metric "exchange pack mean (s)" '.domains.seconds.pack.mean'
  metric "exchange mpi mean (s)" '.domains.seconds.mpi.mean'
  metric "exchange mpi max (s)" '.domains.seconds.mpi.max'
  metric "exchange idle mean (s)" '.domains.seconds.idle.mean'
  metric "exchange idle max (s)" '.domains.seconds.idle.max'
  metric "messages" '.domains.messages_sent'
  metric "MB sent" '.domains.bytes_sent / 1e6'
  metric "particles crossing" '.domains.particles_sent'
  metric "termination checks" '.domains.termination_checks'
  metric "bank exchange wait max (s)" '.timing["bank exchange wait"].max // 0'
  metric "source routing max (s)" '.timing["source routing"].max // 0'
  metric "tally bins per rank" '.domains.tally.bins_max'
} > "$csv"

python=$(plot_python "$KEFF_BUILD_DIR")
$python perf/plot_halo_benchmark.py "$csv" "$OUT/halo_benchmark.png" \
  "default lattice, $PARTICLES particles x $BATCHES batches, median of $REPEATS"
