#!/bin/sh
# Runs the element's GstCheck test cases by name, whichever test executable
# holds them: they are split by topic (tests/check/elements/*.c, one
# executable each, named after the file).
#   scripts/run-checks.sh BUILD CHECKS [COMMAND...]
# For each executable holding some of the comma-separated CHECKS, runs
# COMMAND... BUILD/tests/EXECUTABLE with GST_CHECKS set to those cases (no
# COMMAND: the executable alone). Fails when a case is in no test file or in
# more than one, or at the first run that fails.
#   scripts/run-checks.sh build test_qos,test_region valgrind -q
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BUILD CHECKS [COMMAND...]" >&2; exit 2; }
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

for f in $files; do
  mine=$(cases_in "$f")
  [ -n "$mine" ] || continue
  exe="$build/tests/$(basename "$f" .c)"
  echo "$(basename "$exe"): $mine"
  GST_CHECKS="$mine" "$@" "$exe"
done
