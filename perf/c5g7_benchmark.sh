#!/usr/bin/env bash
# The C5G7 benchmark's figure of merit: a C5G7 case (default the 2-D core) in history- and event-based
# transport at 1 thread and at every core, and at 2 ranks of 1 thread; with --openmc, the same model in
# OpenMC's multigroup mode (perf/c5g7_openmc.py) at 1 thread and at every core, interleaved round by round
# with keff's runs (this kind of machine drifts by tens of percent). Each run goes through
# perf/c5g7_compare.py: k and its error against the reference, the pin powers, particles/s and the FOMs
# 1 / (R^2 T) for k and for the pin powers (R of the worst pin, and the root mean square over the pins).
# Not a test: numbers go to perf/RESULTS.md.
#   perf/c5g7_benchmark.sh [--build DIR] [--case 2d] [--particles 20000] [--batches 60] [--inactive 20]
#                          [--rounds 2] [--seeds] [--first-seed 1] [--history-only] [--openmc PYTHON]
# --seeds: round r runs seed r (both codes), so the medians are over seeds as well as over the machine's
# drift; --first-seed N (implies --seeds) starts at seed N instead (N, N+1, ...: fresh seeds beside an
# earlier run's).
# Without --seeds every round runs seed 1: the same k and pins each round. The FOM of the pin powers
# rests on the largest relative error of 1056 pins, which one seed draws once (about +-10 %).
# --history-only: history-based transport at 1 thread and at every core (and OpenMC's), twice the seeds in
# the time. With --openmc, keff/OpenMC per seed (the two codes' runs of one round, same threads) follow
# the table: their medians weigh each seed's sigma of k alike in both codes.
# PYTHON: a Python with the openmc package whose environment's bin/ holds the openmc executable
# (perf/README.md). Output: a Markdown table of medians on stdout; runs and comparisons under
# perf/results/c5g7_benchmark/ (ignored).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR case=2d particles=20000 batches=60 inactive=20 rounds=2 openmc="" seeds=0 first_seed=1
history_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --case) case=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --openmc) openmc=$2; shift 2 ;;
    --seeds) seeds=1; shift ;;
    --first-seed) first_seed=$2; seeds=1; shift 2 ;;
    --history-only) history_only=1; shift ;;
    *) echo "c5g7_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
input=examples/c5g7/$case.toml
[ -f "$input" ] || { echo "c5g7_benchmark.sh: no case '$case' (examples/c5g7/*.toml)" >&2; exit 2; }
if [ -n "$openmc" ] && [ "$case" != 2d ]; then
  echo "c5g7_benchmark.sh: the OpenMC model is the 2-D core's" >&2
  exit 2
fi
out=perf/results/c5g7_benchmark
rm -rf "$out" && mkdir -p "$out"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
cores=$(nproc)
sizes=(--particles "$particles" --batches "$batches" --inactive "$inactive")

keff_run() {  # name threads ranks mode seed
  OMP_NUM_THREADS=$2 mpiexec -n "$3" "${mpiexec_flags[@]}" "$build/bin/keff" run "$input" --mode "$4" "${sizes[@]}" \
    --seed "$5" --quiet --statepoint '' --json "$out/$1.json" > /dev/null
}
openmc_run() {  # name threads seed
  PATH="$(dirname "$openmc"):$PATH" OMP_NUM_THREADS=$2 "$openmc" perf/c5g7_openmc.py --input "$input" "${sizes[@]}" \
    --threads "$2" --seed "$3" --dir "$tmp/openmc-$1" --json "$out/$1.json"
}
scratch_dir
configs=("keff history 1 1" "keff history $cores 1")
[ "$history_only" = 1 ] || configs+=("keff event 1 1" "keff event $cores 1" "keff history 1 2")
[ -n "$openmc" ] && configs+=("openmc history 1 1" "openmc history $cores 1")
for r in $(seq "$rounds"); do
  seed=1
  [ "$seeds" = 1 ] && seed=$((first_seed + r - 1))
  for c in "${configs[@]}"; do
    read -r code mode threads ranks <<< "$c"
    name="$code-$mode-${threads}t-${ranks}r-$r"
    if [ "$code" = keff ]; then keff_run "$name" "$threads" "$ranks" "$mode" "$seed"; else openmc_run "$name" "$threads" "$seed"; fi
    python3 perf/c5g7_compare.py "$out/$name.json" --input "$input" --json "$out/$name.compare.json" > "$out/$name.txt"
  done
done

seed_text="seed 1"
[ "$seeds" = 1 ] && seed_text="seeds $first_seed-$((first_seed + rounds - 1)), one per round"
echo "C5G7 $case on $(machine), $(date -u +%F); $particles particles x $batches batches ($inactive inactive), $rounds rounds, $seed_text"
python3 - "$out" "$rounds" "${configs[@]}" <<'PY'
import json, statistics, sys
out, rounds, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def load(code, mode, threads, ranks, r):  # one run's comparison
    with open(f"{out}/{code}-{mode}-{threads}t-{ranks}r-{r}.compare.json") as f:
        return json.load(f)
print("| code | mode | threads x ranks | particles/s | FOM k (1/s) | FOM pins (1/s) | FOM pins, rms (1/s) | k error (pcm) | max pin error |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
for c in configs:
    code, mode, threads, ranks = c.split()
    runs = [load(code, mode, threads, ranks, r) for r in range(1, rounds + 1)]
    med = lambda key: statistics.median(x[key] for x in runs)
    k = statistics.median(x["k"]["error_pcm"] for x in runs)
    pin = statistics.median(x["max_pin"].get("error_percent", float("nan")) for x in runs)
    print(f"| {code} | {mode} | {threads} x {ranks} | {med('particles_per_second'):.4g} | {med('fom_k'):.4g} | "
          f"{med('fom_pins'):.4g} | {med('fom_pins_rms'):.4g} | {k:+.0f} | {pin:+.2f} % |")

paired = [c.split() for c in configs if c.startswith("openmc ")]
if paired:
    print()
    print("keff / OpenMC per seed (history mode, same threads): median [each round's ratio]")
    keys = [("particles/s", "particles_per_second"), ("FOM k", "fom_k"), ("FOM pins", "fom_pins"),
            ("FOM pins, rms", "fom_pins_rms")]
    for _, mode, threads, ranks in paired:
        pairs = [(load("keff", mode, threads, ranks, r), load("openmc", mode, threads, ranks, r))
                 for r in range(1, rounds + 1)]
        for label, key in keys:
            ratios = [k[key] / o[key] for k, o in pairs]
            listed = " ".join(f"{x:.2f}" for x in ratios)
            print(f"- {threads} thread(s), {label}: {statistics.median(ratios):.3f} [{listed}]")
PY
