#!/bin/sh
# Time from gst-launch start to EOS for one 1920x1080 RGBA frame through
# clboxblur: cold (empty program-binary cache, and an empty PoCL kernel
# cache) and warm (both filled by the cold run), each run 3 times.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export GST_PLUGIN_PATH="$top/${CLBOXBLUR_BUILD_DIR:-build}/gst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run () {
  /usr/bin/time -f %e gst-launch-1.0 -q videotestsrc num-buffers=1 \
    ! video/x-raw,format=RGBA,width=1920,height=1080 \
    ! clboxblur radius=15 ! fakesink 2>&1 | tail -1
}

echo "one 1080p RGBA frame, gst-launch start to exit, seconds"
for i in 1 2 3; do
  rm -rf "$tmp/cl" "$tmp/pocl"
  cold=$(CLBOXBLUR_CACHE_DIR="$tmp/cl" POCL_CACHE_DIR="$tmp/pocl" run)
  warm=$(CLBOXBLUR_CACHE_DIR="$tmp/cl" POCL_CACHE_DIR="$tmp/pocl" run)
  nocache=$(CLBOXBLUR_CACHE_DIR="" POCL_CACHE_DIR="$tmp/pocl" run)
  echo "cold $cold  warm $warm  (warm PoCL cache, no clboxblur cache: $nocache)"
done
