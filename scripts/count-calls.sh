#!/bin/sh
# The OpenCL calls clboxblur makes a frame, steady state: gst-launch-1.0
# runs 30 and then 90 frames under the LD_PRELOAD counter of the GPU kit
# (../shared/gpu/count: clcount.c, perframe.py) and the difference is
# divided by 60. With CLBOXBLUR_DEVICE_CLASS=gpu and CLBOXBLUR_ZERO_COPY=0
# on PoCL, the calls a discrete GPU would be asked for (issue 40).
#   scripts/count-calls.sh [CAPS [ELEMENT ARGS...]]
# default: 1080p RGBA, method=separable radius=15, into fakesink.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kit="$top/../shared/gpu/count"
caps=${1:-video/x-raw,format=RGBA,width=1920,height=1080}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- method=separable radius=15
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O1 -shared -fPIC -o "$out/libclcount.so" "$kit/clcount.c" -ldl \
  -lpthread -Wl,--no-as-needed -lOpenCL
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"
run () {                        # FRAMES ELEMENT-ARGS...
  n=$1
  shift
  # shellcheck disable=SC2086
  CLCOUNT_OUT="$out/n$n" LD_PRELOAD="$out/libclcount.so" \
    gst-launch-1.0 -q videotestsrc num-buffers="$n" ! $caps \
    ! clboxblur "$@" ! fakesink >/dev/null 2>&1
  ls -S "$out/n$n".[0-9]* | head -1
}
echo "commit: $(git -C "$top" describe --always --dirty); class ${CLBOXBLUR_DEVICE_CLASS:-auto}, zero copy ${CLBOXBLUR_ZERO_COPY:-auto}"
echo "videotestsrc ! $caps ! clboxblur $* ! fakesink"
a=$(run 30 "$@")
b=$(run 90 "$@")
python3 "$kit/perframe.py" 30 "$a" 90 "$b" | sed '/host wall time/,$d'
