#!/bin/sh
# Fuzzes the clboxblur element with libFuzzer for a bounded time:
#   scripts/fuzz.sh [SECONDS]        (default 60)
#   scripts/fuzz.sh FILE...          run these inputs once (a reproducer
#                                    from build-fuzz/artifacts/), same set-up
# Installs clang-14 and its runtime (libFuzzer, ASan, UBSan) if missing,
# builds the plugin with AddressSanitizer and UndefinedBehaviorSanitizer
# (plus coverage for libFuzzer) in build-fuzz/, compiles
# tests/fuzz/fuzz_clboxblur.c against it and runs it on a copy of
# tests/fuzz/corpus in a temporary folder. Exits non-zero if libFuzzer
# finds a crash, a sanitizer report or a timeout; the input that caused it
# is kept in build-fuzz/artifacts/.
#
# Environment:
#   CLBOXBLUR_FUZZ_UPDATE_CORPUS=1  merge the inputs that found new coverage
#                                   back into tests/fuzz/corpus
#   CLBOXBLUR_FUZZ_ARGS             more libFuzzer options (-jobs=2, ...)
#   CLBOXBLUR_CACHE_DIR             program-binary cache (default:
#                                   build-fuzz/kernel-cache; empty = off)
# Needs the packages ./scripts/run.sh installs; run as root or a sudoer.
set -eu

secs=${1:-60}
replay=
case "$secs" in
  ''|*[!0-9]*)
    if [ -f "$secs" ]; then
      replay=yes
    else
      echo "usage: $0 [SECONDS] | $0 FILE..." >&2
      exit 2
    fi
    ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build="$top/build-fuzz"

# clang-14 is Debian 12's clang; libclang-rt-14-dev holds its libFuzzer
# (libclang_rt.fuzzer-x86_64.a) and the ASan/UBSan runtimes. The rest is
# what the plugin needs to build (scripts/run.sh installs it too).
packages="clang-14 libclang-rt-14-dev meson ninja-build pkg-config
  libc6-dev python3 libglib2.0-dev libgstreamer1.0-dev
  libgstreamer-plugins-base1.0-dev opencl-headers ocl-icd-opencl-dev
  ocl-icd-libopencl1 pocl-opencl-icd"
# shellcheck disable=SC2086
"$top/scripts/ensure-packages.sh" $packages

# The plugin under test: ASan + UBSan, and edge coverage for libFuzzer
# (-fsanitize=fuzzer-no-link; the fuzz binary brings the runtime). The
# sanitizer runtimes live in the executable, so the shared module keeps
# undefined references (b_lundef=false). Warnings are not errors here: a
# clang-only warning must not stop fuzzing.
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-14 meson setup "$build" \
    -Dbuildtype=debugoptimized -Dwerror=false -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args='-fsanitize=fuzzer-no-link -fno-omit-frame-pointer'
fi
ninja -C "$build" gst/libgstclboxblur.so

# The fuzz binary: -fsanitize=fuzzer,address,undefined puts libFuzzer and
# the sanitizer runtimes in the executable, where the dlopened plugin finds
# them. gst/gstcllayout.c lays out its buffers as the element reads
# them (it needs the engine's header: OpenCL's headers, no library).
# shellcheck disable=SC2046
clang-14 -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -DCL_TARGET_OPENCL_VERSION=120 \
  -I gst -o "$build/fuzz_clboxblur" tests/fuzz/fuzz_clboxblur.c \
  gst/gstcllayout.c \
  $(pkg-config --cflags --libs gstreamer-check-1.0 gstreamer-base-1.0 \
    gstreamer-video-1.0)

# Only the plugin under test, scanned in this process (the
# gst-plugin-scanner helper has no sanitizer runtime to load it with).
GST_PLUGIN_PATH_1_0="$build/gst"
GST_PLUGIN_SYSTEM_PATH_1_0=
GST_REGISTRY="$build/fuzz.registry"
GST_REGISTRY_FORK=no
GST_DEBUG=${GST_DEBUG:-0}
CLBOXBLUR_CACHE_DIR=${CLBOXBLUR_CACHE_DIR-$build/kernel-cache}
# GLib 2.74 carves small blocks (GstBuffer memory among them) out of its
# own slabs, where ASan sees no bounds: plain malloc for every block.
G_SLICE=always-malloc
# PoCL: its kernel cache in the build folder, one thread per core.
POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build/pocl-cache}
POCL_KERNEL_CACHE=1
POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-$(nproc)}
# GStreamer, GLib and PoCL keep global allocations until exit: no leak
# check. Stop at the first UBSan report, with a stack.
ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export GST_PLUGIN_PATH_1_0 GST_PLUGIN_SYSTEM_PATH_1_0 GST_REGISTRY \
  GST_REGISTRY_FORK GST_DEBUG CLBOXBLUR_CACHE_DIR G_SLICE POCL_CACHE_DIR \
  POCL_KERNEL_CACHE POCL_MAX_PTHREAD_COUNT ASAN_OPTIONS UBSAN_OPTIONS

mkdir -p "$build/artifacts" "$build/pocl-cache"
if [ -n "$replay" ]; then
  # Full allocation stacks (GLib has no frame pointers) for the report.
  ASAN_OPTIONS="fast_unwind_on_malloc=0:$ASAN_OPTIONS"
  exec "$build/fuzz_clboxblur" -runs=1 "$@"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$tmp/corpus"
cp tests/fuzz/corpus/* "$tmp/corpus/"

echo "Fuzzing clboxblur for $secs s (corpus copy in $tmp/corpus)"
status=0
# shellcheck disable=SC2086
"$build/fuzz_clboxblur" -max_total_time="$secs" -max_len=4096 -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
  ${CLBOXBLUR_FUZZ_ARGS:-} "$tmp/corpus" || status=$?

if [ "$status" -eq 0 ] && [ "${CLBOXBLUR_FUZZ_UPDATE_CORPUS:-}" = 1 ]; then
  "$build/fuzz_clboxblur" -merge=1 -max_len=4096 -timeout=10 \
    tests/fuzz/corpus "$tmp/corpus"
fi

if [ "$status" -ne 0 ]; then
  echo "fuzz: libFuzzer exited with $status; reproducer(s) in" \
    "$build/artifacts/ (rerun one: $0 FILE)" >&2
else
  echo "fuzz: no crash in $secs s"
fi
exit "$status"
