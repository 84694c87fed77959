#!/usr/bin/env bash
# Where a collision's time goes on evaluated data: `perf record` of one run (1 thread, history mode),
# its samples summed by piece of the physics (symbols matched below; inlined code counts where it was
# inlined), and each piece's nanoseconds per collision: its share of the samples times the process's CPU
# time (perf's cpu-clock event count, in ns) over the run's collisions (an analog `events` tally added to
# a copy of the input, whose own cost lands in "tallies"; inactive batches counted as the active ones). For a before-and-after, run it on each build. Not a test: numbers go to
# perf/RESULTS.md ("Evaluated data against OpenMC").
#
#   perf/evaluated_profile.sh [--keff build/bin/keff] [--problem heu_metal_sphere] [--particles 20000]
#                             [--batches 60]
# Needs Linux perf (Debian: linux-perf) and an ACE library ($KEFF_ACE_LIBRARY, else
# /opt/keff/ace-endf-293.6K/xsdir).
set -euo pipefail
source "$(dirname "$0")/common.sh"
keff=$KEFF_BUILD_DIR/bin/keff problem=heu_metal_sphere particles=20000 batches=60
while [ $# -gt 0 ]; do
  case "$1" in
    --keff) keff=$2; shift 2 ;;
    --problem) problem=$2; shift 2 ;;
    --particles) particles=$2; shift 2 ;;
    --batches) batches=$2; shift 2 ;;
    *) echo "evaluated_profile.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
command -v perf > /dev/null || { echo "evaluated_profile.sh: needs Linux perf (apt-get install linux-perf)" >&2; exit 2; }
export KEFF_ACE_LIBRARY=${KEFF_ACE_LIBRARY:-/opt/keff/ace-endf-293.6K/xsdir} OMP_NUM_THREADS=1 OMP_PROC_BIND=false
scratch_dir
{ cat "examples/evaluated/$problem.toml"; printf '\n[[tally]]\nname = "profile_events"\nscores = ["events"]\n'; } \
  > "$tmp/input.toml"
perf record -q -o "$tmp/perf.data" -- "$keff" run "$tmp/input.toml" --particles "$particles" --batches "$batches" \
  --inactive 5 --statepoint "" --quiet --json "$tmp/run.json" > /dev/null 2> "$tmp/perf.err"
perf report -i "$tmp/perf.data" --no-children --stdio --sort symbol 2> /dev/null > "$tmp/report.txt"
python3 - "$tmp/report.txt" "$tmp/run.json" "$problem" "$keff" <<'PY'
import json, re, sys
report, run_json, problem, keff = sys.argv[1:]
run = json.load(open(run_json))
events = next(t for t in run["tallies"] if t["name"] == "profile_events")["mean"][0]
settings = run["run"]
histories = settings["particles"] * settings["batches"] * settings["generations_per_batch"]
collisions = events * histories  # per source neutron of every batch: the inactive ones are alike
cpu_ns = None
pieces = [  # (piece, symbol pattern), first match wins
    ("tallies", r"Tallies<|score_"),
    ("secondary laws (4, 44, 61, 7, 9, 11, 66)", r"sample_tabular_law|sample_(maxwell|evaporation|watt)_law|"
                                                 r"sample_n_body|sample_secondary|sample_kalbach|level_scattering"),
    ("cosines and rotation", r"sample_cosine|rotate_direction|sincos|__cos|__sin"),
    ("TAB1 evaluation (nu, yields, law parameters)", r"SecondaryParams<.*>::evaluate"),
    ("collision (nuclide, reaction, fission sites, frames)", r"ContinuousEnergyPhysics<.*>::collide|emit_from_reaction|"
                                                             r"scatter_elastic|sample_target_velocity|"
                                                             r"center_of_mass|reaction_neutrons|bank_fission|"
                                                             r"sample_delayed_group|probability"),
    ("geometry (boundaries, cells, lattices)", r"level_boundary|distance_to_boundary|locate|relocate|cross_boundary|"
                                               r"enter_fill|curved_of"),
    ("history loop with the lookups inlined", r"HistoryTransport<"),
    ("logarithms and exponentials (libm)", r"__ieee754_log|__ieee754_exp|__log|__exp|log@plt|exp@plt"),
]
shares = {name: 0.0 for name, _ in pieces}
other = 0.0
for line in open(report):
    if count := re.match(r"# Event count \(approx\.\): ([0-9]+)", line):
        cpu_ns = int(count.group(1))
    m = re.match(r"\s+([0-9.]+)%\s+\[\.\]\s+(.*)", line)
    if not m:
        continue
    share, symbol = float(m.group(1)), m.group(2)
    for name, pattern in pieces:
        if re.search(pattern, symbol):
            shares[name] += share
            break
    else:
        other += share
total = sum(shares.values()) + other
if cpu_ns is None:
    raise SystemExit("evaluated_profile.sh: no event count in perf's report")
cpu = cpu_ns * 1e-9
print(f"# {problem}: {keff}, {settings['particles']} x {settings['batches']} batches, 1 thread; "
      f"{events:.2f} collisions per source neutron, {cpu:.2f} s of CPU in all")
print("| piece | share of samples | ns per collision |")
print("|---|---:|---:|")
for name, share in list(shares.items()) + [("other (setup, banks, sorting, kernel, runtime)", other)]:
    print(f"| {name} | {100 * share / total:.1f} % | {1e9 * cpu * share / total / collisions:.0f} |")
print(f"| the whole run | 100 % | {1e9 * cpu / collisions:.0f} |")
PY
