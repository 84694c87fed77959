#!/usr/bin/env bash
# keff's thermal physics against OpenMC's, with identical nuclear data: keff's synthetic library written
# in OpenMC's format (perf/openmc_library.py) and the same models (perf/openmc_ce_model.py reads keff's
# inputs). Not a test: numbers go to perf/RESULTS.md ("Thermal physics against OpenMC").
#   1. Free gas alone (OpenMC's default free-gas treatment against keff's settings.thermal = "free_gas"):
#      a bare sphere of uranyl solution in light water (H1 moves at every energy) and
#      examples/graphite_heu.toml without its ncrystal line (free carbon atoms).
#   2. NCrystal's graphite: examples/graphite_heu.toml as it is, in OpenMC through
#      Material.from_ncrystal's cfg, in keff through its tables and through NCrystal direct.
# Each case is one long run per code; the table gives k, their difference in combined standard
# deviations and each code's particles/s (active batches) at the same thread count.
#
#   perf/thermal_openmc.sh --openmc PYTHON [--build build] [--particles 10000] [--batches 140]
#                          [--inactive 20] [--threads 2] [--seed 1] [--cases "water_sphere ..."]
# --seed: both codes'; --cases: some of water_sphere, graphite_heu_free_gas, graphite_heu_ncrystal (which
# brings keff's NCrystal-direct run).
# PYTHON: a Python with the openmc and NCrystal packages whose environment's bin/ holds the openmc
# executable (perf/README.md, "OpenMC beside keff").
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR openmc="" particles=10000 batches=140 inactive=20 threads=2 seed=1
cases="water_sphere graphite_heu_free_gas graphite_heu_ncrystal"
while [ $# -gt 0 ]; do
  case "$1" in
    --openmc) openmc=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --inactive) inactive=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    *) echo "thermal_openmc.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$openmc" ]; then
  echo "thermal_openmc.sh: --openmc PYTHON is required (perf/README.md says how to install OpenMC)" >&2
  exit 2
fi
export OMP_PROC_BIND=false OMP_NUM_THREADS=$threads
out=perf/results/thermal_openmc
rm -rf "$out" && mkdir -p "$out"
scratch_dir
sizes=(--particles "$particles" --batches "$batches" --inactive "$inactive" --seed "$seed")

# Both examples use the default synthetic library (68 nuclides x 11303 points, seed 20251) and C12.
"$build/bin/keff" data generate --format h5 --out "$tmp/keff.h5" --moderators C12 > /dev/null
"$openmc" perf/openmc_library.py "$tmp/keff.h5" "$tmp/openmc-data" --temperatures 293.6,296 \
  --nuclides H1,O16,U235,U238,C12 > /dev/null

cat > "$out/water_sphere.toml" <<'EOF'
# A bare sphere (radius 40 cm) of uranyl solution: light water with 1.2e-4 U235 per barn-cm, 293.6 K.
[settings]
mode = "continuous-energy"
temperature = 293.6
seed = 1
[settings.source]
lower_left = [-20.0, -20.0, -20.0]
upper_right = [20.0, 20.0, 20.0]
[settings.entropy_mesh]
lower_left = [-40.0, -40.0, -40.0]
upper_right = [40.0, 40.0, 40.0]
shape = [8, 8, 8]
[[surface]]
id = 1
type = "sphere"
coeffs = [0.0, 0.0, 0.0, 40.0]
boundary = "vacuum"
[[cell]]
name = "solution"
region = "-1"
material = "solution"
[[material]]
name = "solution"
nuclides = { H1 = 6.67e-2, O16 = 3.34e-2, U235 = 1.2e-4 }
EOF
sed -e '/^ncrystal = /d' examples/graphite_heu.toml > "$out/graphite_heu_free_gas.toml"
cp examples/graphite_heu.toml "$out/graphite_heu_ncrystal.toml"
sed -e 's/^\[settings\]$/[settings]\nthermal_tables = false/' examples/graphite_heu.toml > "$out/graphite_heu_direct.toml"

keff_run() {  # case input
  "$build/bin/keff" run "$2" "${sizes[@]}" --quiet --statepoint '' --json "$out/$1.keff.json" > /dev/null
}
openmc_run() {  # case input
  PATH="$(dirname "$openmc"):$PATH" "$openmc" perf/openmc_ce_model.py --input "$2" \
    --cross-sections "$tmp/openmc-data/cross_sections.xml" "${sizes[@]}" --threads "$threads" \
    --dir "$tmp/openmc-$1" --json "$out/$1.openmc.json" > /dev/null
}
for c in $cases; do
  keff_run "$c" "$out/$c.toml"
  openmc_run "$c" "$out/$c.toml"
  if [ "$c" = graphite_heu_ncrystal ]; then keff_run graphite_heu_direct "$out/graphite_heu_direct.toml"; fi
done

echo "keff against OpenMC $("$openmc" -c 'import openmc; print(openmc.__version__)') on $(machine), $(date -u +%F);"
echo "$particles particles x $batches batches ($inactive inactive), $threads threads each, seed $seed"
echo
echo "| case | keff k | OpenMC k | difference | keff particles/s | OpenMC particles/s |"
echo "|---|---|---|---|---|---|"
python3 - "$out" $cases <<'EOF'
import json, math, sys
out, cases = sys.argv[1], sys.argv[2:]
def row(name, keff, omc):
    d = keff["k"]["mean"] - omc["k"]
    s = math.hypot(keff["k"]["std"], omc["k_std"])
    print(f"| {name} | {keff['k']['mean']:.5f} ± {keff['k']['std']:.5f} | {omc['k']:.5f} ± {omc['k_std']:.5f} | "
          f"{1e5 * d:+.0f} pcm ({d / s:+.2f} σ) | {keff['particles_per_second']:.3g} | {omc['particles_per_second']:.3g} |")
for c in cases:
    row(c, json.load(open(f"{out}/{c}.keff.json")), json.load(open(f"{out}/{c}.openmc.json")))
    if c == "graphite_heu_ncrystal":
        row("graphite_heu_ncrystal, keff direct", json.load(open(f"{out}/graphite_heu_direct.keff.json")),
            json.load(open(f"{out}/graphite_heu_ncrystal.openmc.json")))
EOF
