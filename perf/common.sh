# What every perf/*.sh script shares; sourced (`source "$(dirname "$0")/common.sh"`), never run. It moves
# to the repository root, so paths in the scripts are relative to it, and defines:
#   KEFF_BUILD_DIR   the build directory when a script is given none: $KEFF_BUILD_DIR, else build
#   mpiexec_flags    mpiexec's flags for more ranks than cores (oversubscribed, unbound), and as root
#   median           the median of the numbers on stdin, one a line
#   scratch_dir      makes $tmp, a directory removed when the script exits
#   machine          the CPU model and core count, for the line a table of timings starts with
#   c5g7_3d_cmfd_input  prints C5G7's 3-D unrodded core with a [cmfd] table: one coarse cell per pin-cell
#                    column, four axial cells over the whole height, 7 groups, feedback on, min_collisions 1
#                    (perf/RESULTS.md, "C5G7 3-D"); more [cmfd] keys may follow it
#   plot_python DIR  prints a Python that has matplotlib: the system's, or a virtual environment made in the
#                    build directory DIR on first use (so the system's Python is left alone)
# shellcheck shell=bash
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KEFF_BUILD_DIR=${KEFF_BUILD_DIR:-build}
export PYTHONDONTWRITEBYTECODE=1  # the plots import perf/plot_common.py: no __pycache__ in the tree

mpiexec_flags=(--oversubscribe --bind-to none)
if [[ "$(id -u)" == 0 ]]; then
  mpiexec_flags+=(--allow-run-as-root)
fi

# The middle value, or the mean of the middle two for an even count.
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

scratch_dir() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

machine() { echo "$(lscpu | sed -n 's/^Model name: *//p') ($(getconf _NPROCESSORS_ONLN) cores)"; }

c5g7_3d_cmfd_input() {
  cat examples/c5g7/3d_unrodded.toml
  printf '\n[cmfd]\nshape = [34, 34, 4]\nlower_left = [0.0, 0.0, 0.0]\nupper_right = [42.84, 42.84, 64.26]\n'
  printf 'collapse = [0, 1, 2, 3, 4, 5, 6]\nfeedback = true\nmin_collisions = 1\n'
}

plot_python() {
  if python3 -c 'import matplotlib' 2>/dev/null; then
    echo python3
    return
  fi
  local venv="${1:?usage: plot_python BUILD_DIR}/plot-venv"
  [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv" >&2
  "$venv/bin/python" -c 'import matplotlib' 2>/dev/null || "$venv/bin/pip" install --quiet matplotlib >&2
  echo "$venv/bin/python"
}
