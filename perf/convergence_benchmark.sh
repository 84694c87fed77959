#!/usr/bin/env bash
# What CMFD saves: each problem run with inactive = "auto" (src/README.md, "Stationarity"), with CMFD and
# without, over seeds. Per run: the inactive batches the run chose (batches to stationarity), its wall
# time, k and the std it quotes (the populations' where the run has them, else the batches' std corrected
# for their correlation), and the verdict. Per problem and mode, over the seeds: the mean batches to
# stationarity; the time to a k of std SIGMA, the inactive part as run plus the active part scaled by
# (quoted std / SIGMA)^2 (a std falls as the square root of the active histories); the spread of k over
# the seeds against the quoted std; and CMFD's time to answer over the plain run's, as measured and with
# the active part pooled over both modes (after the inactive batches both run the same process: pooled,
# the ratio loses the noise of the quoted std). Not a test: numbers go to perf/RESULTS.md ("Convergence
# and CMFD").
#   perf/convergence_benchmark.sh [--problems "slab ud2o c5g7_2d c5g7_3d"] [--seeds "1 2 3"]
#                                 [--scale 1] [--sigma 0.0002]
# Problems (particles x batches, the most inactive batches):
#   slab     examples/cmfd_slab_2g.toml, its [cmfd]          10^4 x 400, at most 300 inactive
#   ud2o     examples/la13511_ud2o_sphere.toml, its [cmfd]   10^5 x 300, at most 150
#   c5g7_2d  examples/c5g7/2d.toml + a pin-cell [cmfd]       10^5 x 200, at most 100
#   c5g7_3d  examples/c5g7/3d_unrodded.toml + its [cmfd]     10^5 x 200, at most 100 (perf/common.sh)
# --scale multiplies every problem's particles (0.2: a fifth). Threads: $OMP_NUM_THREADS. Build directory:
# $KEFF_BUILD_DIR (default build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
problems="slab ud2o c5g7_2d c5g7_3d" seeds="1 2 3" scale=1 sigma=0.0002
while [ $# -gt 0 ]; do
  case "$1" in
    --problems) problems=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --sigma) sigma=$2; shift 2 ;;
    *) echo "convergence_benchmark.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
scratch_dir
c5g7_2d_cmfd_input() {
  cat examples/c5g7/2d.toml
  printf '\n[cmfd]\nshape = [34, 34, 1]\nlower_left = [0.0, 0.0, -1.0]\nupper_right = [42.84, 42.84, 1.0]\n'
  printf 'collapse = [0, 1, 2, 3, 4, 5, 6]\nfeedback = true\nmin_collisions = 1\n'
}
c5g7_2d_cmfd_input > "$tmp/c5g7_2d.toml"
c5g7_3d_cmfd_input > "$tmp/c5g7_3d.toml"
declare -A input=([slab]=examples/cmfd_slab_2g.toml [ud2o]=examples/la13511_ud2o_sphere.toml
                  [c5g7_2d]=$tmp/c5g7_2d.toml [c5g7_3d]=$tmp/c5g7_3d.toml)
declare -A shape=([slab]="10000 400 300" [ud2o]="100000 300 150" [c5g7_2d]="100000 200 100" [c5g7_3d]="100000 200 100")
echo "machine: $(machine); threads ${OMP_NUM_THREADS:-all}; seeds $seeds; particles x $scale; sigma $sigma;" \
     "$(date -u +%Y-%m-%d)"
for problem in $problems; do
  read -r particles batches most <<< "${shape[$problem]}"
  particles=$(python3 -c "print(max(1000, round($particles * $scale)))")
  for seed in $seeds; do
    for mode in --no-cmfd --cmfd; do
      "$KEFF_BUILD_DIR/bin/keff" run "${input[$problem]}" "$mode" --inactive auto --max-inactive "$most" \
        --particles "$particles" --batches "$batches" --seed "$seed" --statepoint '' --quiet \
        --json "$tmp/$problem$mode.$seed.json"
    done
  done
  echo "$problem: ${input[$problem]##*/}, $particles particles x $batches batches, inactive auto (at most $most)"
  python3 - "$tmp" "$problem" "$sigma" $seeds <<'PY'
import json, statistics, sys
tmp, problem, sigma, seeds = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]

def quoted_std(d):
    p = d.get("populations")
    if p:
        return p["k"]["std"], "populations"
    c = d["k"].get("correlation")
    if c and c.get("std_corrected") is not None:
        return c["std_corrected"], "corrected"
    return d["k"]["std"], "naive"

time_to, inactive_time, active_to = {}, {}, {}
for mode in ("--no-cmfd", "--cmfd"):
    runs = [json.load(open(f"{tmp}/{problem}{mode}.{s}.json")) for s in seeds]
    chosen, times, ks, stds, before, after = [], [], [], [], [], []
    for s, d in zip(seeds, runs):
        st = d["stationarity"]
        wall = sum(t["max"] for t in d["timing"].values())
        run = d["run"]
        histories = run["particles"] * (run["batches"] - run["inactive"]) * run["generations_per_batch"]
        active = histories / d["batch_particles_per_second"]  # active batches whole, slowest rank
        k = d["k"]["mean"]
        std, kind = quoted_std(d)
        t = (wall - active) + active * (std / sigma) ** 2
        chosen.append(st["first_active"] - 1), times.append(t), ks.append(k), stds.append(std)
        before.append(wall - active), after.append(active * (std / sigma) ** 2)
        print(f"  {mode[2:]:8s} seed {s}: inactive {st['first_active'] - 1:3d}, wall {wall:7.1f} s "
              f"(active {active:6.1f} s), k {k:.5f} +- {std:.5f} ({kind}), to sigma {t:8.1f} s; "
              f"{'stationary' if st['stationary'] else 'WARNED'} from {st['stationary_from']}")
    spread = statistics.stdev(ks) if len(ks) > 1 else float("nan")
    rms = (sum(x * x for x in stds) / len(stds)) ** 0.5
    time_to[mode] = statistics.mean(times)
    inactive_time[mode], active_to[mode] = statistics.mean(before), statistics.mean(after)
    print(f"  {mode[2:]:8s} mean: {statistics.mean(chosen):.1f} batches to stationarity, time to sigma "
          f"{time_to[mode]:.1f} s, k {statistics.mean(ks):.5f}, spread {spread:.5f} / quoted {rms:.5f} = "
          f"{spread / rms:.2f}")
print(f"  CMFD's time to sigma {sigma} over the plain run's: {time_to['--cmfd'] / time_to['--no-cmfd']:.2f}")
# Once CMFD's feedback ends with the inactive batches, both modes run the same process, so their active
# parts to sigma estimate one number: pooled, the noise of the quoted std (seed to seed a factor of 2 to 6
# in the time) leaves the ratio, and what remains is what CMFD changes, the inactive part.
pooled = (active_to["--no-cmfd"] + active_to["--cmfd"]) / 2
print(f"  inactive part {inactive_time['--no-cmfd']:.1f} s plain, {inactive_time['--cmfd']:.1f} s CMFD; active part to "
      f"sigma pooled over both {pooled:.1f} s; CMFD over plain with it: "
      f"{(inactive_time['--cmfd'] + pooled) / (inactive_time['--no-cmfd'] + pooled):.2f}")
PY
done
