#!/bin/sh
# Runs the resource-handling tests (start/stop, renegotiation, property
# changes, error paths, contexts shared and handed in; then the GL memory
# ones under Xvfb) under valgrind memcheck and fails on any definite leak or
# memory error. About 6 minutes on 2 cores from cold; .ci/run runs it
# after the suite. Each list names GstCheck cases; scripts/run-checks.sh
# runs each test executable that holds some of them.
#   scripts/valgrind.sh [GST_CHECKS list] [GL GST_CHECKS list]
#
# Under valgrind PoCL compiles for the CPU valgrind shows it (no AVX-512,
# no hwloc), so nothing the suites compiled serves, and its compiler ran
# under valgrind too: from cold test_recycled alone took 295 s, the whole
# check 587-702 s. So each run is made twice: first without valgrind,
# then under it, both with PoCL told to compile for Haswell
# (POCL_LLVM_CPU_NAME=haswell, POCL_KERNELLIB_NAME=avx2: AVX2, which
# valgrind runs) into the same cache, a folder of the build
# (valgrind-pocl-cache/): the run under valgrind finds every kernel the
# first one compiled (test_renegotiate: 9 s under valgrind, against
# minutes). On a CPU without Haswell's instruction sets
# (scripts/haswell.sh) the names are left out and PoCL compiles under
# valgrind as before. clboxblur_hold runs alone first with
# the plugin's cache (CLBOXBLUR_CACHE_DIR, and CLBOXBLUR_BINARY_CACHE=1:
# on PoCL the plugin otherwise leaves caching to PoCL) in a fresh folder of the build
# (valgrind-kernel-cache/: its store path checked), clboxblur_formats
# with the same folder (its load path), their first runs with a folder
# of their own (valgrind-prefill-cache/) that sees the same calls; the
# others then side by side, one a core (valgrind runs a process's
# threads on one core at a time), the plugin's cache off.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
jobs=$(nproc)
mkdir -p "$build/valgrind-pocl-cache"
if cpu=$("$top/scripts/haswell.sh"); then
  # shellcheck disable=SC2086,SC2163
  export $cpu
  prefill=yes
else
  echo "valgrind.sh: not every instruction set of Haswell here (scripts/haswell.sh): PoCL compiles under valgrind (slow)"
  prefill=
fi
# run CACHE CHECKS REGISTRY JOBS COMMAND...: run-checks.sh with the
# checks' environment
run () {
  r_cache=$1 r_checks=$2 r_reg=$3 r_jobs=$4
  shift 4
  "$top/scripts/run-checks.sh" -j "$r_jobs" "$build" "$r_checks" \
    env CK_FORK=no GST_DEBUG=0 CLBOXBLUR_CACHE_DIR="$r_cache" \
    CLBOXBLUR_BINARY_CACHE="${r_cache:+1}" \
    POCL_CACHE_DIR="$build/valgrind-pocl-cache" \
    GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/$r_reg" "$@"
}
# memcheck [-j JOBS] [-c CACHE_DIR] CHECKS REGISTRY [WRAPPER...]
memcheck () {
  j=1 cache=
  if [ "$1" = -j ]; then j=$2; shift 2; fi
  if [ "$1" = -c ]; then cache=$2; shift 2; fi
  c=$1 reg=$2
  shift 2
  if [ -n "$prefill" ]; then
    echo "valgrind.sh: $c without valgrind first (PoCL's cache)"
    run "${cache:+$build/valgrind-prefill-cache}" "$c" "$reg" "$j" "$@" \
      >"$build/valgrind-prefill.log" 2>&1 || {
      cat "$build/valgrind-prefill.log"
      echo "valgrind.sh: $c failed without valgrind" >&2
      exit 1
    }
  fi
  # --max-stackframe: PoCL runs a work-group's work-items in one function
  # whose frame holds every work-item's private arrays (bilateral_x16's
  # 256 work-items with their edge taps: about 2.3 MB), which valgrind
  # takes for a switch of stacks past 2 MB, and then every access in that
  # frame for an invalid one ("client switching stacks?", then invalid
  # reads and writes "on thread N's stack ... created by
  # _pocl_kernel_bilateral_x16_workgroup"; Oclgrind checks those kernels'
  # accesses: scripts/oclgrind-check.sh)
  run "$cache" "$c" "$reg" "$j" "$@" valgrind --leak-check=full \
    --errors-for-leak-kinds=definite --error-exitcode=1 --num-callers=30 \
    --max-stackframe=16777216 \
    --suppressions="$top/tests/valgrind/pocl.supp"
}
if [ -n "${1:-}" ]; then
  memcheck -j "$jobs" "$1" valgrind.registry
else
  # alone first: they fill PoCL's cache for the others, and store and load
  # the plugin's
  rm -rf "$build/valgrind-kernel-cache" "$build/valgrind-prefill-cache"
  mkdir -p "$build/valgrind-kernel-cache" "$build/valgrind-prefill-cache"
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
