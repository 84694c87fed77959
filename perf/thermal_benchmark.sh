#!/usr/bin/env bash
# Thermal motion on the default benchmark: settings.thermal = "none" (targets at rest) against "free_gas",
# interleaved. Speed: transport particles/s over the active batches of examples/default.toml (each run
# printed, then the mean). Spectrum: one run each at --spectrum-particles with a track-length energy tally,
# the share of all absorptions in the grid's bottom bin, below 1e-3 eV and below 1e-2 eV, and k; and an
# analog count of collisions per source neutron, with which the speeds' ratio becomes one per collision
# (moving targets keep neutrons near kT alive longer: a free-gas history makes more collisions).
# Not a test: numbers go to perf/RESULTS.md ("Thermal motion").
#
#   perf/thermal_benchmark.sh [--build build] [--rounds 3] [--spectrum-particles 20000] [--threads 2]
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$KEFF_BUILD_DIR rounds=3 spectrum_particles=20000 threads=2
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --spectrum-particles) spectrum_particles=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) echo "thermal_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
export OMP_NUM_THREADS=$threads OMP_PROC_BIND=false
scratch_dir
keff="$build/bin/keff"
models="none free_gas"
for t in $models; do
  sed -e "s/^energy_grid = \"hash\"/energy_grid = \"hash\"\nthermal = \"$t\"/" -e 's/^statepoint = .*/statepoint = ""/' \
    examples/default.toml > "$tmp/$t.toml"
  { cat "$tmp/$t.toml"; printf '\n[[tally]]\nname = "spectrum"\nfilters = ["energy"]\n'
    printf 'energy = [1.0e-5, 1.1e-5, 1.0e-3, 1.0e-2, 0.1, 0.625, 1.0e3, 2.0e7]\nscores = ["absorption"]\n'
    printf '\n[[tally]]\nname = "collisions"\nscores = ["events"]\n'; } \
    > "$tmp/${t}_spectrum.toml"
done

echo "# $(machine), $OMP_NUM_THREADS threads: transport particles/s (active batches), examples/default.toml"
for round in $(seq "$rounds"); do
  for t in $models; do
    rate=$("$keff" run "$tmp/$t.toml" | sed -n 's/^ *Particles\/s (active batches): \([^ ]*\) in transport.*/\1/p')
    echo "$round $t $rate" | tee -a "$tmp/rates"
  done
done
for t in $models; do
  echo "mean $t $(awk -v t="$t" '$2 == t {s += $3; n++} END {printf "%.4g", s / n}' "$tmp/rates")" | tee -a "$tmp/means"
done

echo "# absorptions by energy, $spectrum_particles particles per batch"
for t in $models; do
  "$keff" run "$tmp/${t}_spectrum.toml" --particles "$spectrum_particles" --statepoint "$tmp/$t.h5" > "$tmp/$t.log"
  k=$(sed -n 's/^ *k (combined) *//p' "$tmp/$t.log")
  "$keff" tally show "$tmp/$t.h5" spectrum --csv | awk -F, -v t="$t" -v k="$k" '
    $(NF - 2) == "absorption" { v[++n] = $(NF - 1); total += $(NF - 1) }  # the bin label holds a comma
    END { printf "%s: bottom bin %.2g %%, below 1e-3 eV %.3g %%, below 1e-2 eV %.3g %%, k %s\n", t,
          100 * v[1] / total, 100 * (v[1] + v[2]) / total, 100 * (v[1] + v[2] + v[3]) / total, k }'
  collisions=$("$keff" tally show "$tmp/$t.h5" collisions --csv | awk -F, '$(NF - 2) == "events" { print $(NF - 1) }')
  printf "%s: %.4g collisions per source neutron\n" "$t" "$collisions"
  echo "collisions $t $collisions" >> "$tmp/means"
done
awk '{ v[$1 " " $2] = $3 }
  END { r = v["mean free_gas"] / v["mean none"]; c = v["collisions free_gas"] / v["collisions none"]
        printf "free_gas / none: %.3f per history, %.3f per collision (x %.3f collisions per history)\n", r, r * c, c }' \
  "$tmp/means"
