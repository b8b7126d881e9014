#!/bin/sh
# clboxblur: install what is missing (Debian 12 packages), build, then
#   demo  write a blurred test pattern to build/clboxblur-demo.png
#   test  run the whole test suite (meson test)
#   test-gpu-class  the same with the GPU kernels and work shapes forced on
#         the CPU driver (meson test --setup gpu_class)
#   test-rusticl  the same on Mesa's rusticl (mesa-opencl-icd), its llvmpipe
#         CPU device the only OpenCL device (meson test --setup rusticl)
# Run as root, or as a user who may sudo. Idempotent: installs only what is
# missing and reuses the build folder.
set -eu

action=${1:-demo}
case "$action" in
  demo|test|test-gpu-class|test-rusticl) ;;
  *) echo "usage: $0 demo|test|test-gpu-class|test-rusticl" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${CLBOXBLUR_BUILD_DIR:-build}

# Build tools, GStreamer and OpenCL headers, the OpenCL ICD loader, PoCL (a
# CPU OpenCL driver, so the plugin runs without a GPU) and the GStreamer
# plugins the demo and the tests use (videotestsrc, appsink, pngenc, the GL
# elements and Mesa's software GL for the GL memory path).
packages="meson ninja-build pkg-config gcc libc6-dev python3
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 pocl-opencl-icd
  gstreamer1.0-gl libgl1-mesa-dri libegl-mesa0 libglx-mesa0"
# The GL memory tests run under a virtual X server (Mesa's llvmpipe); the
# strict kernel check compiles the OpenCL C with clang; the doc_reference
# and readme_properties tests read the element through GObject
# introspection (python3-gi); the doc_pipelines test runs the docs'
# recipes, which use gst-plugins-bad (alphacombine, pnmenc for its own
# frame taps) and OpenCV's plugins (facedetect, with opencv-data's
# cascades).
[ "$action" != demo ] && packages="$packages xvfb xauth clang python3-gi gir1.2-gstreamer-1.0
  gstreamer1.0-plugins-bad gstreamer1.0-opencv opencv-data"
[ "$action" = test-rusticl ] && packages="$packages mesa-opencl-icd"

# shellcheck disable=SC2086
"$top/scripts/ensure-packages.sh" $packages

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build"
fi
ninja -C "$build"

case "$action" in
demo)
  out="$top/$build/clboxblur-demo.png"
  GST_PLUGIN_PATH="$top/$build/gst" gst-launch-1.0 -q \
    videotestsrc num-buffers=1 pattern=smpte \
    ! video/x-raw,format=RGBA,width=640,height=360 \
    ! clboxblur radius=8 \
    ! videoconvert ! pngenc ! filesink location="$out"
  echo "Wrote the blurred test pattern (clboxblur radius=8) to $out"
  ;;
test|test-gpu-class|test-rusticl)
  status=0
  case "$action" in
  test)
    meson test -C "$build" --print-errorlogs || status=$?
    log=testlog label=tests summary=test-summary.txt
    ;;
  test-gpu-class)
    meson test -C "$build" --setup gpu_class --print-errorlogs || status=$?
    log=testlog-gpu_class label="tests (gpu class)"
    summary=test-summary-gpu-class.txt
    ;;
  test-rusticl)
    # The ICD loader of the rusticl setup reads this folder only.
    rm -rf "$build/tests/icd-rusticl"
    mkdir -p "$build/tests/icd-rusticl"
    cp /etc/OpenCL/vendors/rusticl.icd "$build/tests/icd-rusticl/"
    meson test -C "$build" --setup rusticl --print-errorlogs || status=$?
    log=testlog-rusticl label="tests (rusticl)"
    summary=test-summary-rusticl.txt
    ;;
  esac
  # One closing line: the GstCheck cases of every test binary, plus one
  # case for each test that is not a GstCheck binary (kernels_strict,
  # doc_reference) or that ended before GstCheck printed its count (a
  # timeout, a crash): passed where it exited 0, skipped on 77, else
  # failed.
  awk -v label="$label" '
       function flush() {
         if (block && !counted) {
           if (result ~ /exit status 0$/) checks++
           else if (result ~ /exit status 77$/) skipped++
           else { checks++; failed++ }
         }
         block = 0; counted = 0; result = ""
       }
       /^=+ [0-9]+\/[0-9]+ =+$/ { flush(); block = 1 }
       /^result:/ { result = $0 }
       /^[0-9]+%: Checks: / {
         gsub(",", ""); checks += $3; failed += $5 + $7; counted = 1
       }
       /^SKIP: / { skipped++ }
       END { flush()
             printf "%s: %d passed, %d failed, %d skipped\n", label,
               checks - failed, failed, skipped }' \
    "$build/meson-logs/$log.txt" | tee "$build/$summary"
  exit $status
  ;;
esac
