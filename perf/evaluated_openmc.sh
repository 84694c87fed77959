#!/usr/bin/env bash
# keff against OpenMC 0.16 on the same ACE files (the NJOY-made library of scripts/setup-njoy.sh): the
# problems of examples/evaluated/, each seed run by each code in turn (interleaved), then
# perf/evaluated_compare.py's table: k pooled over the seeds and the difference in combined sigmas, the
# leakage fraction, fission and absorption per source neutron, the 20-group flux's chi^2 and each
# code's particles/s. Not a test: numbers go to perf/RESULTS.md ("Evaluated data against OpenMC"); the
# suite's short versions are tests/cli_tests.cmake's evaluated_openmc_*.
#
#   perf/evaluated_openmc.sh --openmc PYTHON [--build build] [--xsdir XSDIR] [--seeds 4] [--threads 1]
#                            [--problems "heu_metal_sphere ..."]
# PYTHON: a Python with the openmc (and NCrystal) packages whose environment's bin/ holds the openmc
# executable (perf/README.md, "OpenMC beside keff"). XSDIR: default $KEFF_ACE_LIBRARY, else
# /opt/keff/ace-endf-293.6K/xsdir. The inputs' own sizes are used (10000 particles, 120 batches, 20
# inactive).
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR openmc="" seeds=4 threads=1
xsdir=${KEFF_ACE_LIBRARY:-/opt/keff/ace-endf-293.6K/xsdir}
problems="heu_metal_sphere pu241_metal_sphere uranyl_solution_sphere uranyl_solution_sphere_ncrystal"
while [ $# -gt 0 ]; do
  case "$1" in
    --openmc) openmc=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --xsdir) xsdir=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --problems) problems=$2; shift 2 ;;
    *) echo "evaluated_openmc.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$openmc" ]; then
  echo "evaluated_openmc.sh: --openmc PYTHON is required (perf/README.md says how to install OpenMC)" >&2
  exit 2
fi
export KEFF_ACE_LIBRARY=$xsdir OMP_PROC_BIND=false OMP_NUM_THREADS=$threads
export PATH="$(dirname "$openmc"):$PATH"  # the openmc executable and ncrystal-config beside the Python
out=perf/results/evaluated_openmc
rm -rf "$out" && mkdir -p "$out/keff" "$out/openmc"
scratch_dir
"$openmc" perf/openmc_ace_library.py "$xsdir" "$tmp/openmc-data" > /dev/null
for problem in $problems; do
  for seed in $(seq "$seeds"); do
    "$build/bin/keff" run "examples/evaluated/$problem.toml" --seed "$seed" --quiet --statepoint "" \
      --kokkos-num-threads="$threads" --json "$out/keff/$problem.seed$seed.json" > /dev/null
    "$openmc" perf/openmc_ce_model.py --input "examples/evaluated/$problem.toml" \
      --cross-sections "$tmp/openmc-data/cross_sections.xml" --dir "$tmp/openmc.$problem.$seed" \
      --json "$out/openmc/$problem.seed$seed.json" --seed "$seed" --threads "$threads" --reaction-tallies > /dev/null
  done
done
echo "$(machine), $threads thread(s) each, $seeds seeds, $(date -u +%Y-%m-%d)"
python3 perf/evaluated_compare.py --keff "$out/keff" --openmc "$out/openmc" $problems
