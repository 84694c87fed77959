#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and run the whole test suite.
# Arguments go to ctest (e.g. -L verification, -R geometry).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
# Tests that take several cores say so (PROCESSORS), so ctest never runs more than the machine holds.
ctest --test-dir "${KEFF_BUILD_DIR:-build}" --output-on-failure --timeout 1200 -j "$(nproc)" "$@"
