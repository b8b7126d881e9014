#!/bin/sh
# Runs the resource-handling tests (start/stop, renegotiation, property
# changes, error paths, contexts shared and handed in; then the GL memory
# ones under Xvfb) under valgrind memcheck and fails on any definite leak or
# memory error. About 10-13 minutes on 2 cores from cold; .ci/run runs it
# after the suite. Each list names GstCheck cases; scripts/run-checks.sh
# runs each test executable that holds some of them.
#   scripts/valgrind.sh [GST_CHECKS list] [GL GST_CHECKS list]
#
# Under valgrind PoCL compiles for the CPU valgrind shows it (no AVX-512,
# no hwloc), so nothing the suites compiled serves, and its compiler runs
# under valgrind too: OpenCL C to bitcode a few minutes a program set,
# and every kernel of a program more when the plugin asks for the
# program's binary (its cache, CLBOXBLUR_CACHE_DIR), PoCL then compiling
# all of them. So PoCL's own cache is a folder of the build
# (valgrind-pocl-cache/), and the first executables run alone and fill
# it: clboxblur_hold with the plugin's cache in a fresh folder of the
# build (valgrind-kernel-cache/: its store path checked), clboxblur_formats
# with the same folder (its load path); the others then side by side, one
# a core (valgrind runs a process's threads on one core at a time), the
# plugin's cache off (each compiles only the kernels it runs, the source
# builds found in PoCL's cache). Measured from cold without the first
# two steps (2-core Xeon): test_recycled alone 295 s, then 9-12 s a test
# executable; the whole check 587 s.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
jobs=$(nproc)
mkdir -p "$build/valgrind-pocl-cache"
# memcheck [-j JOBS] [-c CACHE_DIR] CHECKS REGISTRY [WRAPPER...]
memcheck () {
  j=1 cache=
  if [ "$1" = -j ]; then j=$2; shift 2; fi
  if [ "$1" = -c ]; then cache=$2; shift 2; fi
  c=$1 reg=$2
  shift 2
  "$top/scripts/run-checks.sh" -j "$j" "$build" "$c" \
    env CK_FORK=no GST_DEBUG=0 CLBOXBLUR_CACHE_DIR="$cache" \
    POCL_CACHE_DIR="$build/valgrind-pocl-cache" \
    GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/$reg" \
    "$@" valgrind --leak-check=full --errors-for-leak-kinds=definite \
    --error-exitcode=1 --num-callers=30 \
    --suppressions="$top/tests/valgrind/pocl.supp"
}
if [ -n "${1:-}" ]; then
  memcheck -j "$jobs" "$1" valgrind.registry
else
  # alone first: they fill PoCL's cache for the others, and store and load
  # the plugin's
  rm -rf "$build/valgrind-kernel-cache"
  mkdir -p "$build/valgrind-kernel-cache"
  memcheck -c "$build/valgrind-kernel-cache" test_hold_reset valgrind.registry
  memcheck -c "$build/valgrind-kernel-cache" test_renegotiate valgrind.registry
  # Contexts shared between instances and handed in by the application
  # (test_application_context): every reference released with the last
  # user.
  memcheck -j "$jobs" test_change_while_playing,test_start_stop_cycles,test_no_such_device,test_build_failure,test_preserve_alpha,test_roi_meta,test_qos,test_fault_injection,test_undersized_buffer,test_application_context,test_recycled valgrind.registry
fi

# GL memory: the copy path, renegotiation between GL and host memory,
# start/stop with GL contexts, the gl-sharing error path.
gl_checks=${2:-test_gl_cycles,test_renegotiate_gl_system,test_gl_sharing_modes}
memcheck "$gl_checks" valgrind-gl.registry xvfb-run -a
