#!/usr/bin/env bash
# Runs a command in a memory cgroup of its own, limited to LIMIT bytes (as a batch job's limit holds a
# job), and removes the cgroup afterwards. Exits with the command's status, or 77 (ctest's skip) where
# the machine does not allow it: not root, or no memory controller this process can create a cgroup in.
#   in_memory_cgroup.sh LIMIT -- COMMAND [ARG...]
set -u
[ $# -ge 3 ] && [ "$2" = -- ] || { echo "usage: in_memory_cgroup.sh LIMIT -- COMMAND..." >&2; exit 2; }
limit=$1
shift 2
skip() { echo "in_memory_cgroup.sh: $1: skipped" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root"
name=keff_test_$$
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
  dir=/sys/fs/cgroup/$name
  mkdir "$dir" 2>/dev/null || skip "cannot create a cgroup2 group"
  echo "$limit" >"$dir/memory.max" 2>/dev/null || { rmdir "$dir"; skip "cannot set memory.max"; }
  echo 0 >"$dir/memory.swap.max" 2>/dev/null
elif [ -d /sys/fs/cgroup/memory ]; then
  dir=/sys/fs/cgroup/memory/$name
  mkdir "$dir" 2>/dev/null || skip "cannot create a cgroup v1 memory group"
  echo "$limit" >"$dir/memory.limit_in_bytes" 2>/dev/null || { rmdir "$dir"; skip "cannot set memory.limit_in_bytes"; }
else
  skip "no memory cgroup controller"
fi
( echo "$BASHPID" >"$dir/cgroup.procs" && exec "$@" )
status=$?
rmdir "$dir" 2>/dev/null
exit $status
