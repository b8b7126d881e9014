#!/bin/sh
# One gst-launch pipeline through two builds of the plugin, A and B
# alternating run by run (A B A B ...), so that the ratio A/B, taken pair
# by pair, holds while the machine's speed drifts. Prints each build's
# median wall time and the median of the pair ratios.
#
#   scripts/compare-builds.sh BUILD_A BUILD_B FRAMES FORMAT "ELEMENT-ARGS" [RUNS] [PATTERN]
#   e.g. scripts/compare-builds.sh build ../old/build 300 RGBA "method=separable radius=15" 9 snow
set -eu
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
frames=$3
format=$4
args=$5
runs=${6:-5}
pattern=${7:-smpte}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seconds of one run of the pipeline through build $1
run () {
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  env GST_PLUGIN_PATH="$1/gst" GST_REGISTRY="$1/compare-builds.registry" \
    gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern="$pattern" \
    ! "video/x-raw,format=$format,width=1920,height=1080" ! clboxblur $args \
    ! fakesink >/dev/null
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }'
}

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "pipeline: videotestsrc num-buffers=$frames pattern=$pattern ! video/x-raw,format=$format,width=1920,height=1080 ! clboxblur $args ! fakesink"
echo "A: $a  B: $b"
echo "$runs pairs, A then B, after one warm-up run of each; wall seconds"
run "$a" >/dev/null
run "$b" >/dev/null
i=0
while [ "$i" -lt "$runs" ]; do
  ta=$(run "$a")
  tb=$(run "$b")
  echo "$ta" >>"$tmp/a"
  echo "$tb" >>"$tmp/b"
  echo "$ta $tb" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$tmp/r"
  i=$((i + 1))
done
printf 'A median %s s  B median %s s  A/B median of pairs %s\n' \
  "$(median <"$tmp/a")" "$(median <"$tmp/b")" "$(median <"$tmp/r")"
