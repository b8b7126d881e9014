#!/bin/sh
# Start-up cost of clboxblur instances: gst-launch start to exit for one
# 64x48 RGBA frame through 1 and through 8 clboxblur (radius 2), against
# the same pipeline with identity, with the program-binary cache warm.
# Instances on one device share the context and the built programs, so
# eight should cost little more than one.
#   usage: startup-instances.sh [runs]   (default 5; median printed)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"
runs=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CLBOXBLUR_CACHE_DIR="$tmp/cl"

launch () {
  # $1: element, $2: how many
  chain=
  i=0
  while [ "$i" -lt "$2" ]; do chain="$chain ! $1"; i=$((i + 1)); done
  # shellcheck disable=SC2086
  /usr/bin/time -f %e gst-launch-1.0 -q videotestsrc num-buffers=1 \
    ! video/x-raw,format=RGBA,width=64,height=48 $chain ! fakesink 2>&1 \
    | tail -n 1
}

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

launch "clboxblur radius=2" 1 >/dev/null   # fills the binary cache
echo "gst-launch, one 64x48 RGBA frame, median of $runs runs, seconds" \
  "(device: ${CLBOXBLUR_DEVICE_CLASS:-default class}, $(nproc) cores)"
for n in 1 8; do
  for el in identity "clboxblur radius=2"; do
    t=$(r=0; while [ "$r" -lt "$runs" ]; do launch "$el" "$n"; r=$((r + 1)); done | median)
    echo "$n x ${el%% *}: $t"
  done
done
