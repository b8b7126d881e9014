#!/bin/sh
# clboxblur against its peers, in one run, on the same pre-generated raw
# frames: OpenCV's cvsmooth (gstreamer1.0-opencv), FFmpeg's avgblur (CPU),
# avgblur_opencl (on the same OpenCL device) and bilateral, each minus its baseline
# (the same pipeline with identity, or ffmpeg with -vf null). Runs
# alternate; each figure is the median of $RUNS runs.
#
#   scripts/bench-peers.sh            (SIZES, RADII, FRAMES, RUNS to change)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"
sizes=${SIZES:-1920x1080}
radii=${RADII:-2 15 50}
frames=${FRAMES:-60}
ocl_frames=${OCL_FRAMES:-4}
runs=${RUNS:-5}

"$top/scripts/ensure-packages.sh" gstreamer1.0-opencv ffmpeg

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# seconds from gst-launch's "Execution ended after"
# (cvsmooth's cv::blur sometimes dies of SIGSEGV here: --no-fault ends such
# a run at once, where gst-launch's fault handler spun until the timeout;
# a run that hangs gives no figure after 120 s instead of stopping the
# benchmark)
gst_time () {
  timeout 120 gst-launch-1.0 --no-fault "$@" 2>&1 | awk '/Execution ended after/ {
    split($NF, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'
}

# seconds from ffmpeg -benchmark's rtime
ff_time () {
  timeout 300 ffmpeg -hide_banner -nostdin -benchmark "$@" -f null - 2>&1 |
    sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -1
}

raw () {     # raw FORMAT W H N -> path (one file per frame count: the
             # figures divide by N)
  f="$tmp/$1-$2x$3-$4.raw"
  [ -f "$f" ] || gst-launch-1.0 -q videotestsrc num-buffers="$4" \
    pattern=snow ! "video/x-raw,format=$1,width=$2,height=$3" \
    ! filesink location="$f"
  echo "$f"
}

# ms per frame of an element, gst: FORMAT W H N "ELEMENT ARGS"
gst_case () {
  src=$(raw "$1" "$2" "$3" "$4")
  parse="filesrc location=$src ! rawvideoparse width=$2 height=$3 format=$(echo "$1" | tr 'A-Z' 'a-z') framerate=30/1"
  : >"$tmp/a"; : >"$tmp/b"
  i=0
  gst_time $parse ! $5 ! fakesink >/dev/null   # warm-up
  while [ $i -lt "$runs" ]; do
    gst_time $parse ! $5 ! fakesink >>"$tmp/a"
    gst_time $parse ! identity ! fakesink >>"$tmp/b"
    i=$((i + 1))
  done
  awk -v a="$(median <"$tmp/a")" -v b="$(median <"$tmp/b")" -v n="$4" \
    'BEGIN { printf "%.2f", (a - b) * 1000 / n }'
}

# ms per frame of a filter graph, ffmpeg: PIX_FMT W H N FILE "FILTERS" [pre-args]
ff_case () {
  : >"$tmp/a"; : >"$tmp/b"
  i=0
  while [ $i -lt "$runs" ]; do
    ff_time ${7:-} -f rawvideo -pix_fmt "$1" -s "$2x$3" -i "$5" -vf "$6" \
      >>"$tmp/a"
    ff_time -f rawvideo -pix_fmt "$1" -s "$2x$3" -i "$5" -vf null >>"$tmp/b"
    i=$((i + 1))
  done
  awk -v a="$(median <"$tmp/a")" -v b="$(median <"$tmp/b")" -v n="$4" \
    'BEGIN { printf "%.2f", (a - b) * 1000 / n }'
}

ratio () {
  # a difference at or below zero is start-up noise, not a speed
  awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", a / b; else print "noise" }'
}

echo "clboxblur against peers; $(date -u +%Y-%m-%d); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "OpenCL: $(clinfo 2>/dev/null | grep -m1 'Platform Version' | sed 's/.*Version *//' || echo '?')"
echo "ms per frame = (time of the run - time of its baseline) / frames; median of $runs alternating runs; $frames frames ($ocl_frames for avgblur_opencl, $((frames / 4)) for bilateral)"
echo "bilateral: clboxblur method=bilateral radius=4 sigma-spatial=5 sigma-range=30 against FFmpeg bilateral sigmaS=5 sigmaR=30/255"
echo
for size in $sizes; do
  w=${size%x*}
  h=${size#*x}
  printf '%-9s %-6s %-34s %10s %10s %8s\n' size radius case "peer ms" "clbb ms" speedup
  for r in $radii; do
    k=$((2 * r + 1))
    for f in RGB GRAY8; do
      cl=$(gst_case "$f" "$w" "$h" "$frames" "clboxblur radius=$r")
      cv=$(gst_case "$f" "$w" "$h" "$frames" "cvsmooth type=blur kernel-width=$k kernel-height=$k")
      printf '%-9s %-6s %-34s %10s %10s %8s\n' "$size" "$r" "cvsmooth blur, $f" "$cv" "$cl" "$(ratio "$cv" "$cl")"
    done
    cl=$(gst_case I420 "$w" "$h" "$frames" "clboxblur radius=$r")
    ff=$(ff_case yuv420p "$w" "$h" "$frames" "$(raw I420 "$w" "$h" "$frames")" "avgblur=sizeX=$r:sizeY=$r")
    printf '%-9s %-6s %-34s %10s %10s %8s\n' "$size" "$r" "ffmpeg avgblur, I420/yuv420p" "$ff" "$cl" "$(ratio "$ff" "$cl")"
    cl=$(gst_case RGBA "$w" "$h" "$frames" "clboxblur radius=$r")
    ff=$(ff_case rgba "$w" "$h" "$ocl_frames" "$(raw RGBA "$w" "$h" "$ocl_frames")" "hwupload,avgblur_opencl=sizeX=$r:sizeY=$r,hwdownload,format=rgba" "-init_hw_device opencl=ocl:0.0 -filter_hw_device ocl")
    printf '%-9s %-6s %-34s %10s %10s %8s\n' "$size" "$r" "ffmpeg avgblur_opencl, RGBA" "$ff" "$cl" "$(ratio "$ff" "$cl")"
    cl=$(gst_case NV12 "$w" "$h" "$frames" "clboxblur radius=$r")
    printf '%-9s %-6s %-34s %10s %10s %8s\n' "$size" "$r" "clboxblur alone, NV12" "-" "$cl" "-"
  done
  # cvsmooth type=bilateral fails on Debian 12 (critical: cv_trans_func
  # != NULL), so FFmpeg's bilateral (planar RGB, sigmaR in 0..1) stands in.
  bf=$((frames / 4))
  [ "$bf" -ge 1 ] || bf=1
  cl=$(gst_case RGB "$w" "$h" "$bf" "clboxblur method=bilateral radius=4 sigma-spatial=5 sigma-range=30")
  ff=$(ff_case gbrp "$w" "$h" "$bf" "$(raw GBR "$w" "$h" "$bf")" "bilateral=sigmaS=5:sigmaR=0.1176")
  printf '%-9s %-6s %-34s %10s %10s %8s\n' "$size" 4 "ffmpeg bilateral sigmaS=5, RGB" "$ff" "$cl" "$(ratio "$ff" "$cl")"
done
