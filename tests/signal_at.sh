#!/usr/bin/env bash
# Runs a command and signals it at the test points it announces (io/test_point.hpp), so that a test of
# signals reaches the same phase on any machine: nothing here waits a fixed time.
#   signal_at.sh POINT=SIGNAL [POINT=SIGNAL ...] -- COMMAND [ARG...]
# POINT is "<point>" or "<point>@<rank>" as KEFF_TEST_POINT takes it; SIGNAL a name kill takes (INT, TERM,
# KILL). The points are awaited in the order given; each announcement names the process to signal. The
# command's standard error is passed on when it ends, and its exit status is this script's. A point the
# command never reaches (it ended first) is said on standard error, and the remaining ones are skipped.
set -u
specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do specs+=("$1"); shift; done
[ $# -gt 1 ] || { echo "usage: signal_at.sh POINT=SIGNAL... -- COMMAND..." >&2; exit 2; }
shift
points=()
for s in "${specs[@]}"; do points+=("${s%=*}"); done
err=$(mktemp)
trap 'rm -f "$err"' EXIT
KEFF_TEST_POINT=$(IFS=,; echo "${points[*]}") "$@" 2>"$err" &
child=$!
for s in "${specs[@]}"; do
  point=${s%=*} signal=${s##*=}
  rank=0
  [[ $point == *@* ]] && rank=${point##*@}
  line="keff: test point ${point%@*} on rank ${rank} (pid "
  pid=
  while kill -0 "$child" 2>/dev/null; do
    pid=$(grep -F -m1 "$line" "$err" | sed -E 's/.*\(pid ([0-9]+)\).*/\1/')
    [ -n "$pid" ] && break
    sleep 0.01
  done
  if [ -z "$pid" ]; then
    echo "signal_at.sh: the command ended before test point $point" >>"$err"
    break
  fi
  kill -s "$signal" "$pid"
done
wait "$child"
status=$?
cat "$err" >&2
exit $status
