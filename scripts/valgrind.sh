#!/bin/sh
# Runs the resource-handling tests (start/stop, renegotiation, property
# changes, error paths, contexts shared and handed in; then the GL memory
# ones under Xvfb) under valgrind memcheck and fails on any definite leak or
# memory error. About 8 minutes on 2 cores; .ci/run runs it after the
# suite. Each list names GstCheck cases; scripts/run-checks.sh runs each test
# executable that holds some of them.
#   scripts/valgrind.sh [GST_CHECKS list] [GL GST_CHECKS list]
#
# Under valgrind PoCL compiles for the CPU valgrind shows it (no AVX-512,
# no hwloc), so nothing the suites compiled serves, and its compiler runs
# under valgrind too: OpenCL C to bitcode about 5 minutes a program set,
# and each kernel of a program about 3 s more when the plugin asks for the
# program's binary (its cache, CLBOXBLUR_CACHE_DIR), PoCL then compiling
# all of them. So the plugin's cache is off here (the kernels a test runs
# are compiled, no others) and PoCL's own cache is a folder of the build
# (valgrind-pocl-cache/): the first executable runs alone and fills it,
# the others then side by side, one a core (valgrind runs a process's
# threads on one core at a time), each finding its programs there.
# Measured from cold (2-core Xeon): test_recycled 295 s, then 9-12 s a
# test executable.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
jobs=$(nproc)
mkdir -p "$build/valgrind-pocl-cache"
memcheck () {                   # [-j JOBS] CHECKS REGISTRY [WRAPPER...]
  j=1
  if [ "$1" = -j ]; then j=$2; shift 2; fi
  c=$1 reg=$2
  shift 2
  "$top/scripts/run-checks.sh" -j "$j" "$build" "$c" \
    env CK_FORK=no GST_DEBUG=0 CLBOXBLUR_CACHE_DIR= \
    POCL_CACHE_DIR="$build/valgrind-pocl-cache" \
    GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/$reg" \
    "$@" valgrind --leak-check=full --errors-for-leak-kinds=definite \
    --error-exitcode=1 --num-callers=30 \
    --suppressions="$top/tests/valgrind/pocl.supp"
}
if [ -n "${1:-}" ]; then
  memcheck -j "$jobs" "$1" valgrind.registry
else
  # alone first: it fills PoCL's cache for the others
  memcheck test_hold_reset valgrind.registry
  # Contexts shared between instances and handed in by the application
  # (test_application_context): every reference released with the last
  # user.
  memcheck -j "$jobs" test_change_while_playing,test_start_stop_cycles,test_no_such_device,test_build_failure,test_renegotiate,test_preserve_alpha,test_roi_meta,test_qos,test_fault_injection,test_undersized_buffer,test_application_context,test_recycled valgrind.registry
fi

# GL memory: the copy path, renegotiation between GL and host memory,
# start/stop with GL contexts, the gl-sharing error path.
gl_checks=${2:-test_gl_cycles,test_renegotiate_gl_system,test_gl_sharing_modes}
memcheck "$gl_checks" valgrind-gl.registry xvfb-run -a
