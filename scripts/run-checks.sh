#!/bin/sh
# Runs the element's GstCheck test cases by name, whichever test executable
# holds them: they are split by topic (tests/check/elements/*.c, one
# executable each, named after the file).
#   scripts/run-checks.sh [-j JOBS] BUILD CHECKS [COMMAND...]
# For each executable holding some of the comma-separated CHECKS, runs
# COMMAND... BUILD/tests/EXECUTABLE with GST_CHECKS set to those cases (no
# COMMAND: the executable alone). Fails when a case is in no test file or in
# more than one, or when a run fails. With -j, up to JOBS executables run at
# once (valgrind runs a process on one core at a time), each one's output
# printed whole when it ends (within a second); every run goes on to its
# end and the script fails after them if one failed or left no exit
# status. Without it, one at a time, stopping at the first that fails.
#   scripts/run-checks.sh build test_qos,test_region valgrind -q
#   scripts/run-checks.sh -j 2 build test_qos,test_region valgrind -q
set -eu
jobs=1
if [ "${1:-}" = "-j" ]; then
  [ $# -ge 2 ] || { echo "usage: $0 [-j JOBS] BUILD CHECKS [COMMAND...]" >&2; exit 2; }
  jobs=$2
  shift 2
fi
[ $# -ge 2 ] || { echo "usage: $0 [-j JOBS] BUILD CHECKS [COMMAND...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
build=$1
checks=$(echo "$2" | tr ',' ' ')
shift 2

# The cases of CHECKS registered in test file $1.
cases_in () {
  for c in $checks; do
    if grep -q "^ *tcase_add_test (tc, $c);" "$1"; then
      echo "$c"
    fi
  done | paste -sd, -
}

files="$top/tests/check/elements/*.c"
for c in $checks; do
  # shellcheck disable=SC2086
  n=$(grep -l "^ *tcase_add_test (tc, $c);" $files | wc -l)
  if [ "$n" -ne 1 ]; then
    echo "$0: test case $c is in $n files of tests/check/elements" >&2
    exit 1
  fi
done

if [ "$jobs" -le 1 ]; then
  for f in $files; do
    mine=$(cases_in "$f")
    [ -n "$mine" ] || continue
    exe="$build/tests/$(basename "$f" .c)"
    echo "$(basename "$exe"): $mine"
    GST_CHECKS="$mine" "$@" "$exe"
  done
  exit 0
fi

# -j: a folder of each run's output (NAME.log) and status (NAME.rc: exit
# status and seconds, moved into place when the run ends); a new run starts
# when fewer than JOBS have no status yet, and each ended run's output is
# printed whole as soon as it is seen (NAME.shown).
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=""
running () {                    # runs with no status whose shell lives
  n=0
  for l in "$out"/*.log; do
    [ -e "$l" ] || continue
    [ -e "${l%.log}.rc" ] && continue
    if [ -e "${l%.log}.pid" ] && ! kill -0 "$(cat "${l%.log}.pid")" 2>/dev/null
    then
      continue
    fi
    n=$((n + 1))
  done
  echo "$n"
}
show_ended () {                  # (its variables its own: e_*)
  for e_rc in "$out"/*.rc; do
    [ -e "$e_rc" ] || continue
    e_name=$(basename "$e_rc" .rc)
    [ -e "$out/$e_name.shown" ] && continue
    : >"$out/$e_name.shown"
    read -r e_status e_took <"$e_rc"
    echo "---- $e_name: exit status $e_status, $e_took s"
    cat "$out/$e_name.log"
    [ "$e_status" -eq 0 ] || failed="$failed $e_name"
  done
}
for f in $files; do
  mine=$(cases_in "$f")
  [ -n "$mine" ] || continue
  while [ "$(running)" -ge "$jobs" ]; do
    sleep 1
    show_ended
  done
  name=$(basename "$f" .c)
  echo "$name: $mine (started)"
  : >"$out/$name.log"
  ( rc=0 start=$(date +%s)
    GST_CHECKS="$mine" "$@" "$build/tests/$name" >"$out/$name.log" 2>&1 \
      || rc=$?
    echo "$rc $(($(date +%s) - start))" >"$out/$name.rc.tmp"
    mv "$out/$name.rc.tmp" "$out/$name.rc" ) &
  echo $! >"$out/$name.pid"
done
while [ "$(running)" -gt 0 ]; do
  sleep 1
  show_ended
done
wait
show_ended
# a run whose status never came (its subshell killed) has failed
for l in "$out"/*.log; do
  [ -e "$l" ] || continue
  if [ ! -e "${l%.log}.rc" ]; then
    echo "---- $(basename "$l" .log): no exit status"
    cat "$l"
    failed="$failed $(basename "$l" .log)"
  fi
done
if [ -n "$failed" ]; then
  echo "$0: failed:$failed" >&2
  exit 1
fi
