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
# printed whole when it ends; every run goes on to its end and the script
# fails after them if one failed. Without it, one at a time, stopping at
# the first that fails.
#   scripts/run-checks.sh build test_qos,test_region valgrind -q
#   scripts/run-checks.sh -j 2 build test_qos,test_region valgrind -q
set -eu
jobs=1
if [ "${1:-}" = "-j" ]; then
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

# -j: a folder of each run's output (NAME.log) and status (NAME.rc); a new
# run starts when fewer than JOBS have no status yet.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
running () {
  n=0
  for l in "$out"/*.log; do
    [ -e "$l" ] || continue
    [ -e "${l%.log}.rc" ] || n=$((n + 1))
  done
  echo "$n"
}
for f in $files; do
  mine=$(cases_in "$f")
  [ -n "$mine" ] || continue
  name=$(basename "$f" .c)
  while [ "$(running)" -ge "$jobs" ]; do
    sleep 1
  done
  echo "$name: $mine (started)"
  : >"$out/$name.log"
  ( rc=0 start=$(date +%s)
    GST_CHECKS="$mine" "$@" "$build/tests/$name" >"$out/$name.log" 2>&1 \
      || rc=$?
    echo "$rc $(($(date +%s) - start))" >"$out/$name.rc.tmp"
    mv "$out/$name.rc.tmp" "$out/$name.rc" ) &
done
wait
failed=""
for f in "$out"/*.rc; do
  name=$(basename "$f" .rc)
  read -r rc took <"$f"
  echo "---- $name: exit status $rc, $took s"
  cat "$out/$name.log"
  [ "$rc" -eq 0 ] || failed="$failed $name"
done
if [ -n "$failed" ]; then
  echo "$0: failed:$failed" >&2
  exit 1
fi
