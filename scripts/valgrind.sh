#!/bin/sh
# Runs the resource-handling tests (start/stop, renegotiation, property
# changes, error paths, contexts shared and handed in; then the GL memory
# ones under Xvfb) under valgrind memcheck and fails on any definite leak or
# memory error. Slow (about 8 minutes on 2 cores); .ci/run runs it after the
# suite. Each list names GstCheck cases; scripts/run-checks.sh runs each test
# executable that holds some of them.
#   scripts/valgrind.sh [GST_CHECKS list] [GL GST_CHECKS list]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
# Contexts shared between instances and handed in by the application
# (test_application_context): every reference released with the last user.
checks=${1:-test_change_while_playing,test_start_stop_cycles,test_no_such_device,test_build_failure,test_renegotiate,test_preserve_alpha,test_roi_meta,test_qos,test_fault_injection,test_undersized_buffer,test_application_context,test_recycled,test_hold_reset}
"$top/scripts/run-checks.sh" "$build" "$checks" \
  env CK_FORK=no GST_DEBUG=0 \
  GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/valgrind.registry" \
  valgrind --leak-check=full --errors-for-leak-kinds=definite \
    --error-exitcode=1 --num-callers=30 \
    --suppressions="$top/tests/valgrind/pocl.supp"

# GL memory: the copy path, renegotiation between GL and host memory,
# start/stop with GL contexts, the gl-sharing error path.
gl_checks=${2:-test_gl_cycles,test_renegotiate_gl_system,test_gl_sharing_modes}
"$top/scripts/run-checks.sh" "$build" "$gl_checks" \
  env CK_FORK=no GST_DEBUG=0 \
  GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/valgrind-gl.registry" \
  xvfb-run -a valgrind --leak-check=full --errors-for-leak-kinds=definite \
    --error-exitcode=1 --num-callers=30 \
    --suppressions="$top/tests/valgrind/pocl.supp"
