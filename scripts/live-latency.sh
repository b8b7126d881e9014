#!/bin/sh
# Time each frame spends in clboxblur in a live 1280x720 RGBA pipeline
# (videotestsrc is-live=true, 30 fps, radius=8, 300 frames): runs the test
# case test_live_300_frames, which checks that no frame is lost or
# reordered and prints median, 95th percentile and worst.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
"$top/scripts/run-checks.sh" "$build" test_live_300_frames \
  env CK_FORK=no GST_DEBUG=0 \
  GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/latency.registry"
