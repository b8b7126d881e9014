#!/bin/sh
# Frames per second of clboxblur on GL memory against GStreamer's own GL blur:
#   gltestsrc ! <X> ! glimagesink   at WIDTHxHEIGHT, under Xvfb when there
# is no display (Mesa's llvmpipe there). Runs alternate; each figure is the
# median of $RUNS runs after a warm-up.
#
#   scripts/gl-fps.sh [FRAMES] [WIDTHxHEIGHT] [CLBOXBLUR-ARGS]
#   default: 60 1920x1080 "radius=4"
set -eu

frames=${1:-60}
size=${2:-1920x1080}
args=${3:-radius=4}
runs=${RUNS:-3}
w=${size%x*}
h=${size#*x}

top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"

if [ -z "${DISPLAY:-}" ] && [ -z "${CLB_GL_FPS_INNER:-}" ]; then
  CLB_GL_FPS_INNER=1 exec xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$0" "$@"
fi

# seconds that gst-launch reports for the run ("Execution ended after")
run_once () {
  gst-launch-1.0 gltestsrc num-buffers="$frames" pattern=smpte \
    ! "video/x-raw(memory:GLMemory),format=RGBA,width=$w,height=$h" \
    ! $1 ! glimagesink sync=false 2>&1 |
    awk '/Execution ended after/ {
           split($NF, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'
}

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_once "clboxblur $args" >/dev/null   # warm-up: kernel build, caches
i=0
while [ $i -lt "$runs" ]; do
  run_once "clboxblur $args" >>"$tmp/cl"
  run_once "gleffects effect=blur" >>"$tmp/gl"
  run_once identity >>"$tmp/id"
  i=$((i + 1))
done

echo "pipeline: gltestsrc num-buffers=$frames pattern=smpte ! video/x-raw(memory:GLMemory),format=RGBA,width=$w,height=$h ! X ! glimagesink sync=false"
renderer=$(GST_DEBUG=glcontext:5 gst-launch-1.0 gltestsrc num-buffers=1 \
  ! fakesink 2>&1 | sed -n 's/.*GL_RENDERER: *//p' | head -n 1)
echo "display: ${DISPLAY:-none}, GL renderer: ${renderer:-unknown}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "median of $runs alternating runs, after one warm-up run"
for k in cl gl id; do
  case $k in
    cl) name="clboxblur $args" ;;
    gl) name="gleffects effect=blur" ;;
    id) name="identity" ;;
  esac
  awk -v f="$frames" -v t="$(median <"$tmp/$k")" -v n="$name" 'BEGIN {
    printf "%-30s %8.3f s  %7.1f fps\n", n, t, f / t }'
done
