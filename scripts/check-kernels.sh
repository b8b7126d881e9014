#!/bin/sh
# Strict compile of every kernel variant the host can build: each program
# unit of kernels/meson.build (cl_units: the files the runtime builds a
# unit's kernels from, in their order) alone, for each combination
# of the defines the runtime sets (CLB_SAMPLE_BITS 8/16, CLB_CLANG_EXTENSIONS
# 0/1) and for OpenCL C 1.2 and 3.0, with clang in pedantic mode and
# warnings as errors. A compiler extension outside CLB_CLANG_EXTENSIONS
# (variadic macros, __builtin_*, attributes) fails here, as it would on
# NVIDIA's, AMD's or Intel's compiler; so does a unit that lacks a file
# its kernels need.
#   usage: check-kernels.sh [file.cl ...]   (default: each of
#          kernels/meson.build's cl_units; with files: those, concatenated)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-$(command -v clang || command -v clang-14 || true)}
if [ -z "$clang" ]; then
  echo "check-kernels: clang not found (apt-get install clang)" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  # NAME=FILE,FILE,... of cl_units in kernels/meson.build
  units=$(sed -n "/^cl_units = \[/,/^]/p" "$top/kernels/meson.build" \
    | grep -o "'[^']*'" | tr -d "'")
else
  units="files=$(echo "$@" | tr ' ' ',')"
fi
src=$(mktemp --suffix=.cl)
trap 'rm -f "$src" "$src.log"' EXIT

failed=0
n=0
for unit in $units; do
  name=${unit%%=*}
  : >"$src"
  for f in $(echo "${unit#*=}" | tr ',' ' '); do
    case $f in
      /*) cat "$f" >>"$src" ;;
      *) cat "$top/kernels/$f" >>"$src" ;;
    esac
  done
  for std in CL1.2 CL3.0; do
    for bits in 8 16; do
      for ext in 0 1; do
        n=$((n + 1))
        what="-cl-std=$std -DCLB_SAMPLE_BITS=$bits -DCLB_CLANG_EXTENSIONS=$ext"
        # shellcheck disable=SC2086
        if "$clang" -x cl $what -pedantic -Werror -Wall -fsyntax-only \
            -Xclang -finclude-default-header "$src" 2>"$src.log"; then
          echo "ok   $name $what"
        else
          echo "FAIL $name $what"
          sed "s|$src|kernels ($name, concatenated)|" "$src.log"
          failed=$((failed + 1))
        fi
      done
    done
  done
done
echo "check-kernels: $((n - failed)) of $n variants compile strictly ($("$clang" --version | head -n 1))"
[ "$failed" -eq 0 ]
