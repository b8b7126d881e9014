#!/bin/sh
# The first start after an install, and the next one: 30 frames of
# 1920x1080 RGBA through clboxblur (its defaults) in gst-launch-1.0, CPU
# seconds (user + system) and wall seconds from start to exit. Cold: every
# cache empty (POCL_CACHE_DIR, CLBOXBLUR_CACHE_DIR, XDG_CACHE_HOME new
# folders); warm: the same command right after, with what the cold run
# cached. ROUNDS rounds (default 3).
#   scripts/startup-time.sh [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"
rounds=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run () {
  POCL_CACHE_DIR="$tmp/pocl" CLBOXBLUR_CACHE_DIR="$tmp/cl" \
    XDG_CACHE_HOME="$tmp/xdg" /usr/bin/time -f "%U %S %e" \
    gst-launch-1.0 -q videotestsrc num-buffers=30 \
    ! video/x-raw,format=RGBA,width=1920,height=1080 \
    ! clboxblur ! fakesink 2>&1 | tail -1 \
    | awk '{ printf "%.2f s CPU (%.2f s wall)", $1 + $2, $3 }'
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit: $(git -C "$top" describe --always --dirty)"
echo "30 frames of 1080p RGBA through clboxblur, gst-launch-1.0 start to exit"
i=0
while [ "$i" -lt "$rounds" ]; do
  rm -rf "$tmp/pocl" "$tmp/cl" "$tmp/xdg"
  mkdir -p "$tmp/pocl" "$tmp/cl" "$tmp/xdg"
  cold=$(run)
  warm=$(run)
  echo "cold $cold  warm $warm"
  i=$((i + 1))
done
