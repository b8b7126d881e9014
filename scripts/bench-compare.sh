#!/bin/sh
# One command, one run: clboxblur's methods beside the CPU peers and beside
# itself (busy source, formats, 4K, flat and noisy content, the memcpy
# floor), every figure on the same pre-made frames where the source is
# idle, the commands of each case alternating run by run, each figure the
# median of $RUNS runs:
#
#   ms per frame = (median time of the pipeline
#                   - median time of the same pipeline with identity) / frames
#
# FFmpeg figures are ffmpeg -benchmark's rtime minus its own -vf null run;
# OpenCV's bilateralFilter is called from Python on the same frames, in
# memory, and its loop is timed (nothing to subtract).
#
#   scripts/bench-compare.sh
#   QUICK=1 scripts/bench-compare.sh   (smoke test: radius 15, 8 frames, 3 runs;
#                                       about 2 minutes on 2 busy cores)
#
# Environment (defaults in brackets; QUICK=1 changes the starred ones):
#   SIZES        sizes of the peer tables [1920x1080]
#   RADII        box radii* [2 15 50]
#   FRAMES       frames per run* [60]
#   RUNS         runs per figure (median)* [5]
#   BFRAMES      frames per bilateral run* [FRAMES/4]
#   SIZE_4K      the large size [3840x2160]; FRAMES_4K its frames* [FRAMES/4]
#   RADIUS       radius of the busy, format and 4K sections [15]
#   FLAT         videotestsrc pattern of the flat content [smpte]
#   THREADS      OpenCV threads for bilateralFilter [nproc]
#   SECTIONS     which parts to run [peers bilateral busy floor formats 4k]
#   TIMEOUT      seconds before a gst-launch run is given up [120]
# m1, m2, ... (rr), bil_*, a, b, ... are set through eval:
# shellcheck disable=SC2154
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
export GST_PLUGIN_PATH="$build/gst"

if [ -n "${QUICK:-}" ]; then
  q_radii=15 q_frames=8 q_runs=3
else
  q_radii="2 15 50" q_frames=60 q_runs=5
fi
sizes=${SIZES:-1920x1080}
radii=${RADII:-$q_radii}
frames=${FRAMES:-$q_frames}
runs=${RUNS:-$q_runs}
quarter=$((frames / 4))
[ "$quarter" -ge 2 ] || quarter=2
bframes=${BFRAMES:-$quarter}
size4k=${SIZE_4K:-3840x2160}
frames4k=${FRAMES_4K:-$quarter}
radius=${RADIUS:-15}
flat=${FLAT:-smpte}
threads=${THREADS:-$(nproc)}
sections=${SECTIONS:-peers bilateral busy floor formats 4k}
limit=${TIMEOUT:-120}

"$top/scripts/ensure-packages.sh" gstreamer1.0-opencv ffmpeg python3-opencv
if [ ! -x "$build/tools/clboxblur-bench" ] || [ ! -d "$build/gst" ]; then
  echo "build $build first (meson setup build && ninja -C build)" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

want () {
  case " $sections " in *" $1 "*) return 0 ;; esac
  return 1
}

median () {
  sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# seconds from gst-launch's "Execution ended after" (PLAYING to EOS: the
# start-up, kernel build included, is outside it). --no-fault: a crash ends
# the run at once (cvsmooth's cv::blur sometimes dies of SIGSEGV here, and
# gst-launch's fault handler would spin until the timeout); a run that
# gives no time is tried once more, then left out of the median and counted.
gst () {
  for gst_try in 1 2; do
    gst_t=$({ timeout "$limit" gst-launch-1.0 --no-fault "$@" 2>&1 | awk '
      /Execution ended after/ {
        split($NF, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'; } \
      2>/dev/null)    # the shell's own "Segmentation fault" line too
    if [ -n "$gst_t" ]; then
      echo "$gst_t"
      return
    fi
    echo "try $gst_try: $*" >>"$tmp/failed"
  done
}

# seconds from ffmpeg -benchmark's rtime: ff PIX_FMT WxH FILE FILTERS
ff () {
  timeout 300 ffmpeg -hide_banner -nostdin -benchmark -f rawvideo \
    -pix_fmt "$1" -s "$2" -i "$3" -vf "$4" -f null - 2>&1 |
    sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -1
}

# seconds of cv2.bilateralFilter(d=9, 30, 5) over every RGB frame of a
# file, frames already in memory: cv WxH FILE
cv () {
  /usr/bin/python3 - "$1" "$2" "$threads" <<'EOF'
import sys, time
import numpy as np
import cv2

size, path, threads = sys.argv[1:]
w, h = (int(v) for v in size.split("x"))
cv2.setNumThreads(int(threads))
frames = np.fromfile(path, dtype=np.uint8).reshape(-1, h, w, 3)
cv2.bilateralFilter(frames[0], 9, 30, 5)     # warm-up
t = time.perf_counter()
for f in frames:
    cv2.bilateralFilter(f, 9, 30, 5)
print("%.6f" % (time.perf_counter() - t))
EOF
}

# Runs commands round-robin: one warm-up run of each, then $runs rounds
# (1 2 3 ... 1 2 3 ...); sets m1, m2, ... to the median seconds of each.
#   rr "CMD1" "CMD2" ...
rr () {
  rr_n=0
  for rr_c in "$@"; do
    rr_n=$((rr_n + 1))
    : >"$tmp/rr.$rr_n"
    eval "$rr_c" >/dev/null
  done
  rr_k=0
  while [ "$rr_k" -lt "$runs" ]; do
    rr_i=0
    for rr_c in "$@"; do
      rr_i=$((rr_i + 1))
      eval "$rr_c" >>"$tmp/rr.$rr_i"
    done
    rr_k=$((rr_k + 1))
  done
  rr_i=0
  while [ "$rr_i" -lt "$rr_n" ]; do
    rr_i=$((rr_i + 1))
    eval "m$rr_i=\$(median <\"\$tmp/rr.$rr_i\")"
  done
}

# ms per frame: msf SECONDS BASELINE_SECONDS FRAMES ("-" if a run failed)
msf () {
  awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {
    if (a == "" || b == "") print "-"; else printf "%.2f", (a - b) * 1000 / n }'
}

# a / b as "N.Nx"; a figure at or below zero is start-up noise
ratio () {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a != "-" && b != "-" && a > 0 && b > 0) printf "%.2fx", a / b
    else print "noise" }'
}

bytes_of () {   # FORMAT W H -> bytes of a frame
  case $1 in
    RGBA | GBRA) echo $(($2 * $3 * 4)) ;;
    RGB | BGR | GBR) echo $(($2 * $3 * 3)) ;;
    YUY2) echo $(($2 * $3 * 2)) ;;
    GRAY8) echo $(($2 * $3)) ;;
    I420 | NV12) echo $(($2 * $3 + 2 * (($2 + 1) / 2) * (($3 + 1) / 2))) ;;
  esac
}

lower () { echo "$1" | tr '[:upper:]' '[:lower:]'; }

# pre-made frames: raw FORMAT W H N [PATTERN] -> path (one file per frame
# count, since the figures divide by it)
raw () {
  f="$tmp/${5:-snow}-$1-$2x$3-$4.raw"
  [ -f "$f" ] || gst-launch-1.0 -q videotestsrc num-buffers="$4" \
    pattern="${5:-snow}" ! "video/x-raw,format=$1,width=$2,height=$3" \
    ! filesink location="$f"
  echo "$f"
}

# the same frames in another format: convert FILE FORMAT W H TO-FORMAT
convert () {
  f="${1%.raw}.$5.raw"
  [ -f "$f" ] || gst-launch-1.0 -q filesrc location="$1" ! rawvideoparse \
    width="$3" height="$4" format="$(lower "$2")" ! videoconvert \
    ! "video/x-raw,format=$5" ! filesink location="$f"
  echo "$f"
}

# the idle source: the pre-made frames of FILE (FORMAT W H)
idle () {
  echo "filesrc location=$1 ! rawvideoparse width=$3 height=$4 format=$(lower "$2") framerate=30/1"
}

busy () {   # FORMAT W H N
  echo "videotestsrc num-buffers=$4 pattern=snow ! video/x-raw,format=$1,width=$2,height=$3,framerate=30/1"
}

summary () { echo "$*" >>"$tmp/summary"; }
: >"$tmp/summary"
: >"$tmp/failed"

row () { printf '%-9s %-6s %-7s %-24s %9s %9s %9s %8s %8s %8s\n' "$@"; }
brow () { printf '%-9s %-6s %-7s %-24s %9s %9s %8s\n' "$@"; }

# --- header -----------------------------------------------------------------
device=$(GST_DEBUG=clbasefilter:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q \
  videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=64,height=64 \
  ! clboxblur ! fakesink 2>&1 | sed -n "s/.*\(OpenCL device '.*\)/\1/p" |
  head -1)
echo "clboxblur comparison (scripts/bench-compare.sh${QUICK:+, QUICK=1})"
echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?')"
echo "machine:  $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "opencl:   ${device:-unknown}"
echo "software: $(gst-launch-1.0 --version | sed -n 2p), $(ffmpeg -hide_banner -version | head -1 | cut -d' ' -f1-3), OpenCV $(/usr/bin/python3 -c 'import cv2; print(cv2.__version__)')"
echo "effort:   $frames frames a run ($bframes bilateral, $frames4k at $size4k), median of $runs runs after one warm-up run of each command, the commands of a case alternating run by run"
echo "sizes $sizes; box radii $radii; busy/format/4K radius $radius; flat content pattern=$flat; OpenCV $threads threads"
echo "pipelines:"
echo "  idle   filesrc location=FRAMES.raw ! rawvideoparse ... ! X ! fakesink   (frames pre-made from videotestsrc pattern=snow)"
echo "  busy   videotestsrc pattern=snow ! CAPS ! X ! fakesink   (and ... ! queue ! X ...)"
echo "  X = clboxblur ARGS | cvsmooth type=blur kernel-width=2r+1 kernel-height=2r+1 | identity (the baseline)"
echo "  ffmpeg -benchmark -f rawvideo -pix_fmt P -i FRAMES.raw -vf F -f null -  minus the same with -vf null"
echo "ms = (median run - median baseline) / frames; speedup = peer ms / clboxblur ms"

# --- box methods against the peers ------------------------------------------
if want peers; then
  echo
  echo "== box blur against the peers (idle source: the same pre-made frames for all)"
  row size radius format peer "peer ms" "sep ms" "sat ms" "sep x" "sat x" "sat/sep"
  for size in $sizes; do
    w=${size%x*}
    h=${size#*x}
    for fmt in RGB BGR GRAY8 I420 RGBA; do
      src=$(raw "$fmt" "$w" "$h" "$frames")
      case $fmt in
        I420) pix=yuv420p peersrc=$src ;;
        RGBA) pix=gbrap peersrc=$(convert "$src" RGBA "$w" "$h" GBRA) ;;
      esac
      p="gst $(idle "$src" "$fmt" "$w" "$h")"
      for r in $radii; do
        k=$((2 * r + 1))
        sep="$p ! clboxblur method=separable radius=$r ! fakesink"
        sat="$p ! clboxblur method=sat radius=$r ! fakesink"
        id="$p ! identity ! fakesink"
        case $fmt in
          I420 | RGBA)
            peer="ffmpeg avgblur $pix"
            rr "$sep" "$sat" "$id" \
              "ff $pix $size $peersrc avgblur=sizeX=$r:sizeY=$r" \
              "ff $pix $size $peersrc null"
            pm=$(msf "$m4" "$m5" "$frames") ;;
          *)
            peer="cvsmooth blur k=$k"
            rr "$sep" "$sat" "$id" \
              "$p ! cvsmooth type=blur kernel-width=$k kernel-height=$k ! fakesink"
            pm=$(msf "$m4" "$m3" "$frames") ;;
        esac
        sm=$(msf "$m1" "$m3" "$frames")
        tm=$(msf "$m2" "$m3" "$frames")
        row "$size" "$r" "$fmt" "$peer" "$pm" "$sm" "$tm" "$(ratio "$pm" "$sm")" \
          "$(ratio "$pm" "$tm")" "$(ratio "$tm" "$sm")"
        summary "$(printf '%-46s %s' "speedup over peer, $fmt r=$r $size:" "separable $(ratio "$pm" "$sm"), sat $(ratio "$pm" "$tm")  ($peer)")"
        summary "$(printf '%-46s %s' "sat/separable, $fmt r=$r $size:" "$(ratio "$tm" "$sm")")"
      done
      rm -f "$src" "${src%.raw}".*.raw
    done
  done
fi

# --- bilateral, flat and noisy ----------------------------------------------
if want bilateral; then
  echo
  echo "== bilateral radius=4 sigma-spatial=5 sigma-range=30, RGB, idle source, $bframes frames"
  echo "   FFmpeg bilateral=sigmaS=5:sigmaR=30/255 (gbrp: the same frames, planar);"
  echo "   OpenCV cv2.bilateralFilter(d=9, 30, 5) called directly on the same frames in memory"
  brow size radius content peer "peer ms" "clbb ms" speedup
  for size in $sizes; do
    w=${size%x*}
    h=${size#*x}
    for content in "$flat" snow; do
      src=$(raw RGB "$w" "$h" "$bframes" "$content")
      gbr=$(convert "$src" RGB "$w" "$h" GBR)
      p="gst $(idle "$src" RGB "$w" "$h")"
      rr "$p ! clboxblur method=bilateral radius=4 sigma-spatial=5 sigma-range=30 ! fakesink" \
        "$p ! identity ! fakesink" \
        "ff gbrp $size $gbr bilateral=sigmaS=5:sigmaR=0.1176" \
        "ff gbrp $size $gbr null" \
        "cv $size $src"
      cl=$(msf "$m1" "$m2" "$bframes")
      fm=$(msf "$m3" "$m4" "$bframes")
      om=$(msf "$m5" 0 "$bframes")
      brow "$size" 4 "$content" "ffmpeg bilateral" "$fm" "$cl" "$(ratio "$fm" "$cl")"
      brow "$size" 4 "$content" "opencv bilateralFilter" "$om" "$cl" "$(ratio "$om" "$cl")"
      summary "$(printf '%-46s %s' "bilateral speedup, $content $size:" "over ffmpeg $(ratio "$fm" "$cl"), over OpenCV $(ratio "$om" "$cl")")"
      eval "bil_$content=\$cl bilff_$content=\$fm bilcv_$content=\$om"
      rm -f "$src" "$gbr"
    done
    eval "a=\$bil_snow b=\$bil_$flat af=\$bilff_snow bf=\$bilff_$flat ac=\$bilcv_snow bc=\$bilcv_$flat"
    echo "noisy/flat (snow/$flat): clboxblur $(ratio "$a" "$b"), ffmpeg $(ratio "$af" "$bf"), OpenCV $(ratio "$ac" "$bc")"
    summary "$(printf '%-46s %s' "bilateral noisy/flat, $size:" "clboxblur $(ratio "$a" "$b")  (ffmpeg $(ratio "$af" "$bf"), OpenCV $(ratio "$ac" "$bc"))")"
  done
fi

# --- busy source --------------------------------------------------------------
# shellcheck disable=SC2086
set -- $sizes
main=$1
mw=${main%x*}
mh=${main#*x}
if want busy; then
  echo
  echo "== busy source: videotestsrc pattern=snow straight into the element, RGBA $main radius=$radius"
  echo "   (idle: the same content pre-made; the queue row is reported, no target)"
  printf '%-10s %9s %9s %9s %9s %9s\n' method "idle ms" "busy ms" "+queue ms" busy/idle queue/idle
  src=$(raw RGBA "$mw" "$mh" "$frames")
  p="gst $(idle "$src" RGBA "$mw" "$mh")"
  b="gst $(busy RGBA "$mw" "$mh" "$frames")"
  for m in separable sat; do
    e="clboxblur method=$m radius=$radius"
    rr "$p ! $e ! fakesink" "$p ! identity ! fakesink" \
      "$b ! $e ! fakesink" "$b ! identity ! fakesink" \
      "$b ! queue ! $e ! fakesink" "$b ! queue ! identity ! fakesink"
    im=$(msf "$m1" "$m2" "$frames")
    bm=$(msf "$m3" "$m4" "$frames")
    qm=$(msf "$m5" "$m6" "$frames")
    printf '%-10s %9s %9s %9s %9s %9s\n' "$m" "$im" "$bm" "$qm" \
      "$(ratio "$bm" "$im")" "$(ratio "$qm" "$im")"
    summary "$(printf '%-46s %s' "busy/idle, $m RGBA r=$radius $main:" "$(ratio "$bm" "$im")  (with queue $(ratio "$qm" "$im"), no target)")"
  done
  rm -f "$src"
fi

# --- the memcpy floor, other formats, 4K ---------------------------------------
sep="clboxblur method=separable radius=$radius"
if want floor || want formats; then
  # RGBA, NV12 and YUY2 alternating; RGBA's figure is the floor's too
  set --
  for fmt in RGBA NV12 YUY2; do
    src=$(raw "$fmt" "$mw" "$mh" "$frames")
    p="gst $(idle "$src" "$fmt" "$mw" "$mh")"
    set -- "$@" "$p ! $sep ! fakesink" "$p ! identity ! fakesink"
  done
  rr "$@"
  rgba=$(msf "$m1" "$m2" "$frames")
  nv12=$(msf "$m3" "$m4" "$frames")
  yuy2=$(msf "$m5" "$m6" "$frames")
  rm -f "$tmp"/snow-RGBA-* "$tmp"/snow-NV12-* "$tmp"/snow-YUY2-*
fi
if want floor; then
  echo
  echo "== separable RGBA $main radius=$radius beside the memcpy floor of the frame"
  echo "   floor: clboxblur-bench --floor, one memcpy of the frame (one read, one write"
  echo "   of every byte; median of 30): no element that writes a new frame beats it."
  echo "   GStreamer has no plain copy element (identity passes the buffer through,"
  echo "   videoconvert to the same format too), so the floor is timed outside a pipeline."
  fl=$("$build/tools/clboxblur-bench" --floor --sizes "$main" --formats RGBA -i 30 |
    awk '$2 == "RGBA" { print $5 }')
  echo "separable ${rgba} ms, floor ${fl:--} ms: $(ratio "$rgba" "${fl:--}") the floor"
  summary "$(printf '%-46s %s' "separable/memcpy floor, RGBA $main:" "$(ratio "$rgba" "${fl:--}")  ($rgba ms against ${fl:--} ms)")"
fi
if want formats; then
  echo
  echo "== separable radius=$radius, $main, per byte of the frame (idle source, the formats alternating)"
  printf '%-6s %10s %9s %11s %12s\n' format bytes ms "ns/byte" "/RGBA's"
  rpb=
  for fmt in RGBA NV12 YUY2; do
    case $fmt in RGBA) fm=$rgba ;; NV12) fm=$nv12 ;; YUY2) fm=$yuy2 ;; esac
    fb=$(bytes_of "$fmt" "$mw" "$mh")
    pb=$(awk -v m="$fm" -v b="$fb" 'BEGIN { if (m == "-") print "-"; else printf "%.3f", m * 1e6 / b }')
    [ -n "$rpb" ] || rpb=$pb
    printf '%-6s %10s %9s %11s %12s\n' "$fmt" "$fb" "$fm" "$pb" "$(ratio "$pb" "$rpb")"
    [ "$fmt" = RGBA ] ||
      summary "$(printf '%-46s %s' "$fmt/RGBA per byte, separable $main:" "$(ratio "$pb" "$rpb")")"
  done
fi
if want 4k; then
  echo
  echo "== separable RGBA radius=$radius: $size4k against $main, $frames4k frames each (idle source)"
  s4=$(raw RGBA "${size4k%x*}" "${size4k#*x}" "$frames4k")
  s1=$(raw RGBA "$mw" "$mh" "$frames4k")
  p4="gst $(idle "$s4" RGBA "${size4k%x*}" "${size4k#*x}")"
  p1="gst $(idle "$s1" RGBA "$mw" "$mh")"
  rr "$p4 ! $sep ! fakesink" "$p4 ! identity ! fakesink" \
    "$p1 ! $sep ! fakesink" "$p1 ! identity ! fakesink"
  big=$(msf "$m1" "$m2" "$frames4k")
  small=$(msf "$m3" "$m4" "$frames4k")
  px=$(awk -v a="$size4k" -v b="$main" 'BEGIN { split(a, x, "x"); split(b, y, "x")
    printf "%.2f", x[1] * x[2] / (y[1] * y[2]) }')
  echo "$size4k $big ms, $main $small ms: $(ratio "$big" "$small") (pixels ${px}x)"
  summary "$(printf '%-46s %s' "$size4k/$main, separable RGBA r=$radius:" "$(ratio "$big" "$small")  (pixels ${px}x)")"
  rm -f "$s4" "$s1"
fi

echo
echo "== ratios, as the targets read"
cat "$tmp/summary"
if [ -s "$tmp/failed" ]; then
  echo
  echo "== runs that gave no time (crashed, failed or past ${limit} s), left out of the medians"
  sed 's/ location=[^ ]*\/\([^/ ]*\)/ location=\1/' "$tmp/failed"
fi
