#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and run the default benchmark.
# Arguments go to `keff run` (e.g. an input file, --particles N, --json summary.json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
exec "${KEFF_BUILD_DIR:-build}/bin/keff" run "$@"
