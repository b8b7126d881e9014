#!/bin/sh
# Frames per second of a gst-launch pipeline with clboxblur, against the same
# pipeline with identity in its place (what the rest of the pipeline costs).
# Runs alternate; each figure is the median of $RUNS runs.
#
#   scripts/pipeline-fps.sh [FRAMES] [WIDTHxHEIGHT] [FORMAT] [ELEMENT-ARGS]
#   default: 30 1920x1080 RGBA "radius=15"
set -eu

frames=${1:-30}
size=${2:-1920x1080}
format=${3:-RGBA}
args=${4:-radius=15}
runs=${RUNS:-5}
w=${size%x*}
h=${size#*x}

top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"

# seconds that gst-launch reports for the run ("Execution ended after")
run_once () {
  gst-launch-1.0 videotestsrc num-buffers="$frames" \
    ! "video/x-raw,format=$format,width=$w,height=$h" ! $1 ! fakesink 2>&1 |
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
  run_once identity >>"$tmp/id"
  i=$((i + 1))
done
cl=$(median <"$tmp/cl")
id=$(median <"$tmp/id")

echo "pipeline: videotestsrc num-buffers=$frames ! video/x-raw,format=$format,width=$w,height=$h ! X ! fakesink"
# the OpenCL device the element chose, from its log
device=$(GST_DEBUG=clbasefilter:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q \
  videotestsrc num-buffers=1 ! "video/x-raw,format=$format,width=64,height=64" \
  ! clboxblur $args ! fakesink 2>&1 | sed -n "s/.*\(OpenCL device '.*\)/\1/p" | head -1)
echo "opencl: ${device:-unknown}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "median of $runs alternating runs, after one warm-up run"
awk -v f="$frames" -v cl="$cl" -v id="$id" -v a="$args" 'BEGIN {
  printf "%-28s %8.3f s  %7.1f fps\n", "clboxblur " a, cl, f / cl
  printf "%-28s %8.3f s  %7.1f fps\n", "identity", id, f / id
  printf "clboxblur cost per frame: %.1f ms (difference of the two)\n",
    (cl - id) * 1000 / f
}'
