#!/bin/sh
# Strict compile of every kernel variant the host can build: the sources
# concatenated in the order the runtime passes them, for each combination
# of the defines the runtime sets (CLB_SAMPLE_BITS 8/16, CLB_CLANG_EXTENSIONS
# 0/1) and for OpenCL C 1.2 and 3.0, with clang in pedantic mode and
# warnings as errors. A compiler extension outside CLB_CLANG_EXTENSIONS
# (variadic macros, __builtin_*, attributes) fails here, as it would on
# NVIDIA's, AMD's or Intel's compiler.
#   usage: check-kernels.sh [file.cl ...]   (default: kernels/ in build order)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-$(command -v clang || command -v clang-14 || true)}
if [ -z "$clang" ]; then
  echo "check-kernels: clang not found (apt-get install clang)" >&2
  exit 1
fi
if [ $# -eq 0 ]; then
  set -- "$top/kernels/common.cl" "$top/kernels/sat.cl" \
    "$top/kernels/separable.cl" "$top/kernels/sat_ring.cl" \
    "$top/kernels/bilateral.cl" \
    "$top/kernels/region.cl" "$top/kernels/gpu_box.cl" \
    "$top/kernels/gpu_separable.cl" "$top/kernels/gpu_sat.cl" \
    "$top/kernels/gpu_bilateral.cl" "$top/kernels/mask.cl"
fi
src=$(mktemp --suffix=.cl)
trap 'rm -f "$src"' EXIT
cat "$@" >"$src"

failed=0
n=0
for std in CL1.2 CL3.0; do
  for bits in 8 16; do
    for ext in 0 1; do
      n=$((n + 1))
      what="-cl-std=$std -DCLB_SAMPLE_BITS=$bits -DCLB_CLANG_EXTENSIONS=$ext"
      # shellcheck disable=SC2086
      if "$clang" -x cl $what -pedantic -Werror -Wall -fsyntax-only \
          -Xclang -finclude-default-header "$src" 2>"$src.log"; then
        echo "ok   $what"
      else
        echo "FAIL $what"
        sed "s|$src|kernels (concatenated)|" "$src.log"
        failed=$((failed + 1))
      fi
      rm -f "$src.log"
    done
  done
done
echo "check-kernels: $((n - failed)) of $n variants compile strictly ($("$clang" --version | head -n 1))"
[ "$failed" -eq 0 ]
