#!/bin/sh
# The element's cost per frame for every 8-bit packed layout against its
# reference layout (RGBA for the 32-bit ones, RGB for BGR, NV12 for NV21,
# RGBA for preserve-alpha): gst-launch of videotestsrc ! clboxblur !
# fakesink minus the same pipeline with identity, each the median of $RUNS
# runs, the runs of all layouts interleaved so that a busy spell of the
# machine falls on all of them alike.
#
#   scripts/layout-cost.sh [FRAMES] [WIDTHxHEIGHT] [ELEMENT-ARGS]
#   default: 30 1920x1080 "method=separable radius=15"
set -eu

frames=${1:-30}
size=${2:-1920x1080}
args=${3:-method=separable radius=15}
runs=${RUNS:-5}
w=${size%x*}
h=${size#*x}

top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"

# layout:reference; a layout may carry extra element properties after "+"
pairs="RGBA:RGBA BGRA:RGBA BGRx:RGBA RGBx:RGBA ARGB:RGBA ABGR:RGBA xRGB:RGBA
  xBGR:RGBA AYUV:RGBA RGBA+preserve-alpha=true:RGBA RGB:RGB BGR:RGB
  NV12:NV12 NV21:NV12"

# seconds that gst-launch reports for one run ("Execution ended after")
run_once () {
  # shellcheck disable=SC2086
  gst-launch-1.0 videotestsrc num-buffers="$frames" \
    ! "video/x-raw,format=$1,width=$w,height=$h" ! $2 ! fakesink 2>&1 |
    awk '/Execution ended after/ {
           split($NF, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'
}

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
layouts=$(for p in $pairs; do echo "${p%%:*}"; done)
formats=$(for l in $layouts; do echo "${l%%+*}"; done | sort -u)

for l in $layouts; do     # warm-up: kernel builds, caches
  run_once "${l%%+*}" "clboxblur $args $(echo "$l" | sed -n 's/^[^+]*+//p')" \
    >/dev/null
done
i=0
while [ $i -lt "$runs" ]; do
  for l in $layouts; do
    extra=$(echo "$l" | sed -n 's/^[^+]*+//p')
    run_once "${l%%+*}" "clboxblur $args $extra" >>"$tmp/cl-$l"
  done
  for f in $formats; do
    run_once "$f" identity >>"$tmp/id-$f"
  done
  i=$((i + 1))
done

echo "pipeline: videotestsrc num-buffers=$frames ! video/x-raw,format=F,width=$w,height=$h ! clboxblur $args ! fakesink, minus the same with identity"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "OpenCL: ${OCL_ICD_VENDORS:-every ICD installed}; median of $runs interleaved runs, after one warm-up run each"
printf '%-28s %10s %10s %7s\n' layout "ms/frame" reference ratio
cost () {  # ms per frame of layout $1
  f=${1%%+*}
  echo "$(median <"$tmp/cl-$1") $(median <"$tmp/id-$f")" |
    awk -v n="$frames" '{ printf "%.2f", ($1 - $2) * 1000 / n }'
}
for p in $pairs; do
  l=${p%%:*}
  r=${p#*:}
  a=$(cost "$l")
  b=$(cost "$r")
  awk -v l="$l" -v r="$r" -v a="$a" -v b="$b" 'BEGIN {
    printf "%-28s %10.2f %10s %6.2fx\n", l, a, r " " b, (b > 0 ? a / b : 0) }'
done
