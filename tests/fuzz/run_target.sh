#!/bin/sh
# One fuzz target as the suite runs it: a fixed seed and a fixed number of inputs, from an emptied working
# corpus plus the committed seeds and regressions, so every machine, fast or slow, tries the same inputs
# and reaches the same verdict. Usage: run_target.sh FUZZER RUNS ARTIFACT_DIR WORK_CORPUS [SEED_DIR...]
set -eu
fuzzer=$1 runs=$2 artifacts=$3 work=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
exec "$fuzzer" -seed=1 -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$work" "$@"
