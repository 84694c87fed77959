#!/usr/bin/env bash
# keff on a GPU, beside the same machine's CPU cores: everything the GPU's defaults were chosen from, in one
# run that fits a short lease of the machine.
#   perf/gpu_benchmark.sh --gpu BUILD [--cpu BUILD] [--out DIR] [--seconds S] [--phases LIST]
#                         [--particles N] [--cpu-particles N]
#   perf/gpu_benchmark.sh --gpu build-cuda --cpu build-omp --out /tmp/gpu --seconds 400
# BUILD directories hold bin/keff (and bin/sort_bench for the GPU build): --gpu a CUDA or HIP build, --cpu
# an OpenMP build of the same tree on the same machine. Phases, in this order (the default runs all):
#   modes    the default benchmark and HM-large, history- and event-based, on the GPU (N particles) and on
#            every CPU core (the CPU particles): particles/s, k ± σ, GPU/CPU and event/history ratios
#   la13511  the LA-13511 Pu-A slab (exact k = 1) on the GPU
#   choices  event-based transport on the GPU under each lookup order: unsorted, and sorted by (material,
#            energy) with either sorter (counting, kokkos), moving the particles or reading through an index
#   c5g7     the 2-D C5G7 core on the GPU and the CPU against its published reference (perf/c5g7.sh)
#   profile  Kokkos Tools' simple kernel timer over HM-large on the GPU, history- and event-based; needs
#            KP_KERNEL_TIMER (the library) and KP_READER (its reader), built outside this tree
#   sort     perf/sort_benchmark.sh with the GPU build
# --seconds bounds the whole run: a phase starts only with time left, and each run is stopped at the end
# (its row then says so). Every run's JSON summary goes to DIR/runs/, each phase's table to DIR/<phase>.md,
# one row per run to DIR/runs.csv.
set -euo pipefail
source "$(dirname "$0")/common.sh"
gpu='' cpu='' out=perf/results/gpu seconds=3600 phases=modes,la13511,choices,c5g7,profile,sort
particles=1000000 cpu_particles=200000
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --phases) phases=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --cpu-particles) cpu_particles=$2; shift 2 ;;
    *) echo "gpu_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$gpu/bin/keff" ] || { echo "gpu_benchmark.sh: --gpu BUILD must hold bin/keff" >&2; exit 2; }
[ -z "$cpu" ] || [ -x "$cpu/bin/keff" ] || { echo "gpu_benchmark.sh: --cpu BUILD must hold bin/keff" >&2; exit 2; }
deadline=$(( $(date +%s) + seconds ))
left() { echo $(( deadline - $(date +%s) )); }
mkdir -p "$out/runs"
csv=$out/runs.csv
header=phase,backend,problem,mode,order,particles,batches,particles_per_second,k,k_std,wall_s,status
[ -f "$csv" ] || echo "$header" > "$csv"
scratch_dir
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
threads=$(nproc)

# The example with a [settings.event] table appended (TOML allows it anywhere): ORDER is
# SORT[:SORTER[:REORDER]], or "default" for the backend's own choice.
with_order() {  # with_order INPUT ORDER -> path
  local path="$tmp/$(basename "$1" .toml)-${2//:/-}.toml" sort sorter reorder
  if [ "$2" = default ]; then cp "$1" "$path"; echo "$path"; return; fi
  IFS=: read -r sort sorter reorder <<< "$2"
  { cat "$1"; printf '\n[settings.event]\nsort = "%s"\n' "$sort"
    [ -z "$sorter" ] || printf 'sorter = "%s"\n' "$sorter"
    [ -z "$reorder" ] || printf 'reorder = "%s"\n' "$reorder"; } > "$path"
  echo "$path"
}

# run PHASE BACKEND INPUT MODE ORDER PARTICLES BATCHES INACTIVE [keff run flags...]: one run, one CSV row.
run() {
  local phase=$1 backend=$2 input=$3 mode=$4 order=$5 n=$6 batches=$7 inactive=$8
  shift 8
  local build=$gpu problem json status=ok t0 limit
  [ "$backend" = gpu ] || build=$cpu
  problem=$(basename "$input" .toml)
  json=$out/runs/$phase-$backend-$problem-$mode-${order//:/-}.json
  limit=$(left)
  if [ "$limit" -lt 5 ]; then
    echo "$phase,$backend,$problem,$mode,$order,$n,$batches,,,,,skipped (no time left)" >> "$csv"
    return 0
  fi
  t0=$(date +%s%N)
  timeout "$limit" "$build/bin/keff" run "$(with_order "$input" "$order")" --mode "$mode" --particles "$n" \
    --batches "$batches" --inactive "$inactive" --quiet --statepoint '' --json "$json" \
    --kokkos-num-threads="$threads" "$@" > "$tmp/log" 2>&1 || status="exit $?"
  [ "$status" = ok ] || { echo "$phase $backend $problem $mode $order: $status"; tail -n 20 "$tmp/log"; }
  python3 - "$json" "$phase,$backend,$problem,$mode,$order,$n,$batches" "$(( ($(date +%s%N) - t0) / 1000000 ))" \
    "$status" >> "$csv" <<'PY'
import json, sys
path, head, wall_ms, status = sys.argv[1:]
wall = int(wall_ms) / 1e3
try:
    d = json.load(open(path))
    print(f"{head},{d['particles_per_second']:.6g},{d['k']['mean']:.6f},{d['k']['std']:.6f},{wall:.1f},{status}")
except (OSError, ValueError, KeyError):
    print(f"{head},,,,{wall:.1f},{status} (no summary)")
PY
}

# table PHASE: the phase's rows as Markdown, into DIR/PHASE.md and stdout.
table() {
  python3 - "$csv" "$1" <<'PY' | tee "$out/$1.md"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["phase"] == sys.argv[2]]
print("| backend | problem | mode | lookup order | particles × batches | particles/s | k ± σ | wall (s) | status |")
print("|---|---|---|---|---:|---:|---|---:|---|")
for r in rows:
    k = f"{r['k']} ± {r['k_std']}" if r["k"] else "-"
    pps = f"{float(r['particles_per_second']):.4g}" if r["particles_per_second"] else "-"
    print(f"| {r['backend']} | {r['problem']} | {r['mode']} | {r['order']} | {r['particles']} × {r['batches']} | "
          f"{pps} | {k} | {r['wall_s']} | {r['status']} |")
PY
}

gpu_name=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo unknown)
version=$("$gpu/bin/keff" --version 2>/dev/null | head -n 1)
echo "machine: $(machine); GPU: $gpu_name; $(date -u '+%F %H:%M UTC'); $version"

for phase in ${phases//,/ }; do
  [ "$(left)" -ge 10 ] || { echo "== $phase: skipped, $(left) s left"; continue; }
  echo "== $phase ($(left) s left)"
  case $phase in
    modes)
      # 10 active batches: k's combined estimator needs them (fewer give the mean of the estimators).
      for input in examples/default.toml examples/hm_large.toml; do
        b=12 i=2
        [[ $input == *hm_large* ]] && b=5 i=2
        for mode in history event; do
          run modes gpu "$input" "$mode" default "$particles" "$b" "$i"
          [ -z "$cpu" ] || run modes cpu "$input" "$mode" default "$cpu_particles" "$b" "$i"
        done
      done
      table modes
      python3 - "$csv" <<'PY' | tee -a "$out/modes.md"
import csv, sys
pps = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["phase"] == "modes" and r["particles_per_second"]:
        pps[r["backend"], r["problem"], r["mode"]] = float(r["particles_per_second"])
print()
for problem in ("default", "hm_large"):
    for mode in ("history", "event"):
        if ("gpu", problem, mode) in pps and ("cpu", problem, mode) in pps:
            print(f"- {problem}, {mode}: GPU/CPU = {pps['gpu', problem, mode] / pps['cpu', problem, mode]:.3g}")
    for backend in ("gpu", "cpu"):
        if (backend, problem, "event") in pps and (backend, problem, "history") in pps:
            print(f"- {problem}, {backend}: event/history = "
                  f"{pps[backend, problem, 'event'] / pps[backend, problem, 'history']:.3g}")
PY
      ;;
    la13511)
      run la13511 gpu examples/la13511_pua_slab.toml history default 100000 100 20
      table la13511
      ;;
    choices)
      for input in examples/default.toml examples/hm_large.toml; do
        for order in none material_energy:counting:particles material_energy:counting:index \
                     material_energy:kokkos:particles material_energy:kokkos:index; do
          run choices gpu "$input" event "$order" "$particles" 4 1
        done
      done
      table choices
      ;;
    c5g7)
      for backend in gpu cpu; do
        build=$gpu n=$particles
        [ "$backend" = gpu ] || { build=$cpu n=$cpu_particles; }
        [ -n "$build" ] || continue
        [ "$(left)" -ge 10 ] || break
        for mode in history event; do
          rm -f perf/results/c5g7/2d.json perf/results/c5g7/2d.compare.json  # a stopped run leaves none
          KEFF_BUILD_DIR=$build timeout "$(left)" perf/c5g7.sh 2d --particles "$n" --batches 40 --inactive 10 \
            --mode "$mode" --kokkos-num-threads="$threads" > "$out/c5g7-$backend-$mode.txt" 2>&1 ||
            echo "c5g7 $backend $mode: exit $?"
          cp perf/results/c5g7/2d.json "$out/runs/c5g7-$backend-$mode.json" 2>/dev/null || true
          cp perf/results/c5g7/2d.compare.json "$out/runs/c5g7-$backend-$mode.compare.json" 2>/dev/null || true
          echo "-- $backend $mode, $n particles x 40 batches (10 inactive)"
          grep -iE "^ *k|fom|pin|particles/s" "$out/c5g7-$backend-$mode.txt" | head -n 12 || true
        done
      done
      ;;
    profile)
      if [ -z "${KP_KERNEL_TIMER:-}" ] || [ -z "${KP_READER:-}" ]; then
        echo "profile: KP_KERNEL_TIMER and KP_READER not set, skipped"
        continue
      fi
      for input in examples/hm_large.toml examples/default.toml; do
        for mode in history event; do
          mkdir -p "$tmp/prof" && rm -f "$tmp/prof"/*.dat
          name=$(basename "$input" .toml)-$mode
          (cd "$tmp/prof" && KOKKOS_TOOLS_LIBS=$KP_KERNEL_TIMER timeout "$(left)" "$OLDPWD/$gpu/bin/keff" run \
            "$OLDPWD/$input" --mode "$mode" --particles "$particles" --batches 3 --inactive 1 --quiet \
            --statepoint '' > /dev/null 2>&1) || echo "profile $name: exit $?"
          for dat in "$tmp/prof"/*.dat; do
            [ -f "$dat" ] && "$KP_READER" "$dat" > "$out/profile-$name.txt" 2>&1
          done
          echo "-- $name: the kernel timer's kernels, slowest first"
          sed -n '/^Kernels/,$p' "$out/profile-$name.txt" 2>/dev/null | head -n 22 || true
        done
      done
      ;;
    sort)
      [ -x "$gpu/bin/sort_bench" ] || { echo "sort: no $gpu/bin/sort_bench"; continue; }
      KEFF_BUILD_DIR=$gpu timeout "$(left)" perf/sort_benchmark.sh --n 1000,10000,100000,1000000,10000000 \
        --rounds 1 --min-seconds 0.2 --threads "$threads" \
        --sorters counting,sort_by_key,sort_by_key_unique,binsort,std_sort \
        | tee "$out/sort.md" || echo "sort: exit $?"
      ;;
    *) echo "gpu_benchmark.sh: unknown phase '$phase'" >&2; exit 2 ;;
  esac
done
echo "== done, $(left) s left; rows in $csv"
