#!/usr/bin/env bash
# Whether keff's quoted uncertainty of k is honest: one input run with SEEDS seeds, and the seed-to-seed
# spread of k set against the naive std each run quotes (independent batches assumed) and against the std
# corrected for the batches' correlation (src/host/statistics.hpp, batch_correlation), with each run's
# distance from a reference k in both. perf/uncertainty_summary.py prints the table RESULTS.md records.
#   perf/uncertainty_benchmark.sh [--input FILE] [--seeds N] [--reference K] [keff run flags...]
#   perf/uncertainty_benchmark.sh --input examples/la13511_ud2o_sphere.toml --seeds 10 \
#       --particles 20000 --batches 630 --inactive 30
# Defaults: examples/la13511_ud2o_sphere.toml (exact k = 1, a dominance ratio near 1), 10 seeds, the
# input's particles and batches. The runs' JSON summaries go to perf/results/uncertainty/ (ignored).
# Build directory: $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
input=examples/la13511_ud2o_sphere.toml seeds=10 reference=1.0 flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --input) input=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --reference) reference=$2; shift 2 ;;
    *) flags+=("$1"); shift ;;
  esac
done
out=perf/results/uncertainty/$(basename "$input" .toml)
rm -rf "$out"
mkdir -p "$out"
for seed in $(seq 1 "$seeds"); do
  "$KEFF_BUILD_DIR/bin/keff" run "$input" --seed "$seed" --statepoint '' --quiet --json "$out/seed$seed.json" "${flags[@]}"
done
python3 perf/uncertainty_summary.py --reference "$reference" "$out"/seed*.json
