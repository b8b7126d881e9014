#!/bin/sh
# The element's time in a pipeline, build A against build B (issue 39's
# "speed kept": this tree against 1159a8e), each case's methods and
# formats as scripts/bench-compare.sh runs them: pre-made frames (noisy:
# videotestsrc pattern=snow, or flat: smpte) read from a file, through
# clboxblur of build A, of build B and through identity, the three
# alternating run by run (A B I, A B I, ...), so that the machine's drift
# falls on all three alike. A case's figure per round:
#
#   element time = (pipeline time - the same round's identity time) / frames
#
# and the ratio A/B of a round's element times; printed: each build's
# median element time and the median of the rounds' ratios. A case whose
# median ratio is over LIMIT is run once more, and the second figure kept
# (printed with "again"). The element's start (its caches warm: each
# build runs the case once before the rounds) is in its time, spread over
# the frames, as a user meets it.
#
#   scripts/speed-kept.sh BUILD_A BUILD_B
#   e.g. scripts/speed-kept.sh build ../base/build
#
# Environment (defaults in brackets):
#   ROUNDS   rounds a case [9]        FRAMES  frames a run [60]
#   SIZE     frame size [1920x1080]   PATTERN snow or smpte [snow]
#   LIMIT    the ratio a case may reach [1.05]
#   SOURCE   file: the frames read from a file made first (an idle
#            source), or live: videotestsrc makes each frame in the
#            pipeline (a busy source, its work on the same cores) [file]
#   CASES    "FORMAT:ELEMENT-ARGS;..." [the list below]; a case's
#            "ARGS-A|ARGS-B" runs A with the first and B with the second
#            (one build against itself: one method against another, e.g.
#            issue 41's temporal against bilateral radius 3:
#            CASES='RGBA:method=temporal radius=2 sigma-spatial=1.5|method=bilateral radius=3' scripts/speed-kept.sh build build)
set -eu
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
rounds=${ROUNDS:-9}
frames=${FRAMES:-60}
size=${SIZE:-1920x1080}
pattern=${PATTERN:-snow}
source=${SOURCE:-file}
limit=${LIMIT:-1.05}
w=${size%x*}
h=${size#*x}
cases=${CASES:-"RGBA:method=separable radius=15;RGB:method=separable radius=15;\
GRAY8:method=separable radius=15;I420:method=separable radius=15;\
NV12:method=separable radius=15;YUY2:method=separable radius=15;\
RGBA:method=separable radius=2;RGBA:method=separable radius=50;\
RGBA:method=sat radius=15;I420:method=sat radius=15;NV12:method=sat radius=15;\
RGBA:method=bilateral radius=4 sigma-spatial=5 sigma-range=30;\
RGBA:method=mosaic block-size=16;RGBA:method=separable radius=15 alpha-mask=true"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# seconds of one run: $1 the plugin's build, $2 the file, $3 the format,
# $4 the element with its arguments
run () {
  src="filesrc location=$2 ! rawvideoparse width=$w height=$h
    format=$(echo "$3" | tr 'A-Z' 'a-z') framerate=30/1"
  [ "$source" = live ] && src="videotestsrc num-buffers=$frames
    pattern=$pattern ! video/x-raw,format=$3,width=$w,height=$h"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  env GST_PLUGIN_PATH="$1/gst" GST_REGISTRY="$1/speed-kept.registry" \
    gst-launch-1.0 -q $src ! $4 ! fakesink >/dev/null
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.5f\n", $2 - $1 }'
}

# one case: prints A's and B's median ms a frame and the median ratio
one_case () {
  fmt=$1 args_a=${2%%|*} args_b=${2#*|} file=$tmp/$fmt.raw
  rm -f "$tmp/a" "$tmp/b" "$tmp/r"
  run "$a" "$file" "$fmt" "clboxblur $args_a" >/dev/null
  run "$b" "$file" "$fmt" "clboxblur $args_b" >/dev/null
  i=0
  while [ "$i" -lt "$rounds" ]; do
    ta=$(run "$a" "$file" "$fmt" "clboxblur $args_a")
    tb=$(run "$b" "$file" "$fmt" "clboxblur $args_b")
    ti=$(run "$a" "$file" "$fmt" identity)
    echo "$ta $ti $frames" | awk '{ printf "%.4f\n", ($1 - $2) * 1000 / $3 }' >>"$tmp/a"
    echo "$tb $ti $frames" | awk '{ printf "%.4f\n", ($1 - $2) * 1000 / $3 }' >>"$tmp/b"
    echo "$ta $tb $ti" | awk '{ d = $2 - $3; if (d <= 0) d = 1e-6
                                printf "%.4f\n", ($1 - $3) / d }' >>"$tmp/r"
    i=$((i + 1))
  done
  echo "$(median <"$tmp/a") $(median <"$tmp/b") $(median <"$tmp/r")"
}

echo "speed-kept: A $a ($(git -C "$a/.." rev-parse --short HEAD 2>/dev/null || echo ?))"
echo "            B $b ($(git -C "$b/.." rev-parse --short HEAD 2>/dev/null || echo ?))"
echo "$size, $frames frames of videotestsrc pattern=$pattern a run$( \
  [ "$source" = live ] && echo " made live" || echo " from a file"),"
echo "$rounds rounds of A, B, identity; ms a frame = (run - identity) / frames;"
echo "ratio = median over rounds of (A - identity) / (B - identity); limit $limit"
echo "on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
  sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M UTC')"
printf '%-7s %-56s %9s %9s %7s\n' format element "A ms" "B ms" "A/B"
misses=0
old_ifs=$IFS
IFS=';'
# shellcheck disable=SC2086
set -- $cases
IFS=$old_ifs
for c in "$@"; do
  fmt=${c%%:*}
  args=${c#*:}
  if [ ! -f "$tmp/$fmt.raw" ]; then
    gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern="$pattern" \
      ! "video/x-raw,format=$fmt,width=$w,height=$h" \
      ! filesink location="$tmp/$fmt.raw"
  fi
  set -- $(one_case "$fmt" "$args")
  note=""
  if awk -v r="$3" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
    set -- $(one_case "$fmt" "$args")
    note=" again"
    if awk -v r="$3" -v l="$limit" 'BEGIN { exit !(r > l) }'; then
      note=" again, over $limit"
      misses=$((misses + 1))
    fi
  fi
  printf '%-7s %-56s %9s %9s %7s%s\n' "$fmt" "$args" "$1" "$2" "$3" "$note"
done
echo "speed-kept: $misses case(s) over $limit"
[ "$misses" -eq 0 ]
