#!/usr/bin/env bash
# NCrystal in keff, on examples/graphite_heu.toml and examples/water_pin_ncrystal.toml. Not a test:
# numbers go to perf/RESULTS.md ("NCrystal").
#  1. The study's experiment: NCrystal asked in transport with one cache per (thread, material) against a
#     fresh cache per call (build/bin/ncrystal_cache_bench), interleaved, at 1 and 2 threads, on graphite;
#     k's bits must be the same both ways and at both thread counts.
#  2. Cost and what binding does to k: targets at rest, free gas, NCrystal tables and NCrystal direct on
#     both examples, interleaved: transport particles/s and k.
#
#   perf/ncrystal_benchmark.sh [--build build] [--rounds 3] [--particles N] [--threads 2]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR rounds=3 particles=2000 threads=2
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) echo "ncrystal_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
export OMP_PROC_BIND=false
scratch_dir

echo "## 1. cache per thread against a fresh cache per call, $(machine)"
for t in 1 2; do
  "$build/bin/ncrystal_cache_bench" examples/graphite_heu.toml --rounds "$rounds" --particles "$particles" \
    --kokkos-num-threads="$t" 2>/dev/null | tee "$tmp/cache_$t"
  for v in cache_per_thread fresh_cache_per_call; do
    echo "median $t thread(s) $v $(awk -v v="$v" '$2 == v {print $3}' "$tmp/cache_$t" | median)"
  done
done
echo "k's bits over every run above: $(awk '$4 == "k" {print $6}' "$tmp"/cache_* | sort -u | tr '\n' ' ')"

echo "## 2. physics of the thermal range, $threads thread(s), $particles particles per batch"
export OMP_NUM_THREADS=$threads
variants="at_rest free_gas tables direct"
for example in graphite_heu water_pin_ncrystal; do
  src=examples/$example.toml
  sed -e '/^ncrystal = /d' -e 's/^mode = "continuous-energy"/&\nthermal = "none"/' "$src" > "$tmp/${example}_at_rest.toml"
  sed -e '/^ncrystal = /d' "$src" > "$tmp/${example}_free_gas.toml"
  cp "$src" "$tmp/${example}_tables.toml"
  sed -e 's/^\[settings\]$/[settings]\nthermal_tables = false/' "$src" > "$tmp/${example}_direct.toml"
done
for round in $(seq "$rounds"); do
  for example in graphite_heu water_pin_ncrystal; do
    for v in $variants; do
      "$build/bin/keff" run "$tmp/${example}_$v.toml" --particles "$particles" --statepoint "" > "$tmp/run.log" 2>/dev/null
      rate=$(sed -n 's/^ *Particles\/s (active batches): \([^ ]*\) in transport.*/\1/p' "$tmp/run.log")
      k=$(sed -n 's/^ *k (combined) *\([^ ]*\) +\/- \([^ ]*\).*/\1 \2/p' "$tmp/run.log")
      echo "$round $example $v $rate k $k" | tee -a "$tmp/physics"
    done
  done
done
for example in graphite_heu water_pin_ncrystal; do
  for v in $variants; do
    echo "median $example $v $(awk -v e="$example" -v v="$v" '$2 == e && $3 == v {print $4}' "$tmp/physics" | median) particles/s"
  done
done
