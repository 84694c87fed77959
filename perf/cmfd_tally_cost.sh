#!/usr/bin/env bash
# What CMFD's tallies cost transport: LA-13511's UD2O sphere with its [cmfd] (10 x 10 x 10 cells), or
# (--problem c5g7_3d) C5G7's 3-D core with the [cmfd] of perf/cmfd_c5g7_3d.sh (34 x 34 x 4 cells, 7
# groups; --one-group collapses them to one CMFD group: the same adds per event on a seventh of the
# memory), scored but not fed back, against the same run without CMFD, or (--against) the same CMFD run
# by another build. CMFD scores the inactive batches (its default), half of them.
# The two runs of a pair run at once, one thread each, pinned one per core and swapped every round, so
# that both see the same machine: on this kind of machine runs one after another drift by tens of
# percent, while the pairs' ratios repeat to a few percent. Prints each round's transport seconds (both
# transport phases of the run's JSON; with --phase cmfd, the cmfd phase: the solver's time, for two builds
# with --against) and the median ratio.
#   perf/cmfd_tally_cost.sh [--problem ud2o|c5g7_3d] [--one-group] [--rounds 6] [--particles 100000]
#                           [--batches 20] [--against OTHER_BIN_DIR] [--phase transport|cmfd]
# Build directory: $KEFF_BUILD_DIR (default build). Needs two cores.
set -euo pipefail
source "$(dirname "$0")/common.sh"
rounds=6 particles=100000 batches=20 against="" phase=transport problem=ud2o one_group=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    --problem) problem=$2; shift 2 ;;
    --one-group) one_group=1; shift ;;
    *) echo "cmfd_tally_cost.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$phase" in transport|cmfd) ;; *) echo "cmfd_tally_cost.sh: --phase is transport or cmfd, not '$phase'" >&2; exit 2 ;; esac
[ "$phase" = transport ] || [ -n "$against" ] || { echo "cmfd_tally_cost.sh: --phase cmfd compares two builds: give --against" >&2; exit 2; }
case "$problem" in ud2o|c5g7_3d) ;; *) echo "cmfd_tally_cost.sh: --problem is ud2o or c5g7_3d, not '$problem'" >&2; exit 2 ;; esac
[ -z "$one_group" ] || [ "$problem" = c5g7_3d ] || { echo "cmfd_tally_cost.sh: --one-group is for --problem c5g7_3d (the sphere has one group)" >&2; exit 2; }
scratch_dir
if [ "$problem" = ud2o ]; then
  input=examples/la13511_ud2o_sphere.toml label=$input
else
  input=$tmp/c5g7_3d.toml label="C5G7 3-D with perf/cmfd_c5g7_3d.sh's [cmfd]${one_group:+ in one group}"
  c5g7_3d_cmfd_input > "$input"
  [ -z "$one_group" ] || sed -i 's/^collapse = .*/collapse = [0, 0, 0, 0, 0, 0, 0]/' "$input"
fi
sed 's/^feedback = true$/feedback = false/' "$input" > "$tmp/scored.toml"
grep -q '^feedback = false$' "$tmp/scored.toml" || { echo "cmfd_tally_cost.sh: no 'feedback = true' in $label" >&2; exit 1; }
if [ -n "$against" ]; then
  a=("$against/bin/keff" run "$tmp/scored.toml" --cmfd) label_a="$against, CMFD scored"
else
  a=("$KEFF_BUILD_DIR/bin/keff" run "$input" --no-cmfd) label_a="no CMFD"
fi
b=("$KEFF_BUILD_DIR/bin/keff" run "$tmp/scored.toml" --cmfd) label_b="$KEFF_BUILD_DIR, CMFD scored"
common=(--particles "$particles" --batches "$batches" --inactive $((batches / 2)) --statepoint '' --quiet)
for r in $(seq "$rounds"); do
  core_a=$(( r % 2 )) core_b=$(( (r + 1) % 2 ))
  OMP_NUM_THREADS=1 taskset -c "$core_a" "${a[@]}" "${common[@]}" --json "$tmp/a.$r.json" &
  OMP_NUM_THREADS=1 taskset -c "$core_b" "${b[@]}" "${common[@]}" --json "$tmp/b.$r.json" &
  wait
done
echo "machine: $(machine); $label, $particles particles x $batches batches, 1 thread per run, $rounds rounds"
python3 - "$tmp" "$rounds" "$label_a" "$label_b" "$phase" <<'PY'
import json, statistics, sys
tmp, rounds, label_a, label_b, phase = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
def transport(name):
    with open(f"{tmp}/{name}.json") as f:
        t = json.load(f)["timing"]
    if phase == "cmfd":
        return t["cmfd"]["max"]
    return t["transport inactive"]["max"] + t["transport active"]["max"]
ratios = []
print(f"A = {label_a}; B = {label_b}; seconds of {phase}")
for r in range(1, rounds + 1):
    a, b = transport(f"a.{r}"), transport(f"b.{r}")
    ratios.append(b / a)
    print(f"round {r}: A {a:.3f} s, B {b:.3f} s, B / A {b / a:.3f}")
print(f"median B / A {statistics.median(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f})")
PY
