#!/bin/sh
# Runs the multi-threaded tests under ThreadSanitizer: a build with
# -Db_sanitize=thread in build-tsan/, GLib's futex locks replaced in the
# test executables by pthread ones TSan can see (tests/tsan/), and fails on
# any report (data race, lock-order inversion, misuse of a lock). GSlice is
# turned into plain malloc, whose reuse of memory TSan follows.
#   scripts/tsan.sh [GST_CHECKS list]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build-tsan"
checks=${1:-test_property_storm,test_change_while_playing,test_controller_ramp,test_qos,test_live_300_frames}

if [ ! -f "$build/build.ninja" ]; then
  # b_lundef=false: the plugin leaves the TSan runtime to the executable
  meson setup "$build" "$top" -Db_sanitize=thread -Db_lundef=false
fi
ninja -C "$build"

# The plugin is loaded in-process (GST_REGISTRY_FORK=no): the scanner
# helper has no TSan runtime to load it with. In-process, scanning dlopen()s
# every plugin of the system path and runs its libraries' constructors,
# whatever GST_PLUGIN_LOADING_WHITELIST says (it is applied after the
# load): on a machine with gst-plugins-bad, OpenNI2's and DirectFB's
# constructors misuse their own mutexes and TSan reports them. So the
# system path holds only the plugins of the packages the whitelist names.
plugins=$(mktemp -d)
trap 'rm -rf "$plugins"' EXIT
for pkg in libgstreamer1.0-0 gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
    gstreamer1.0-gl; do
  dpkg -L "$pkg" 2>/dev/null | grep '/gstreamer-1.0/libgst[^/]*\.so$' || true
done | while read -r so; do ln -sf "$so" "$plugins/"; done
# scripts/run-checks.sh runs each test executable that holds some of the
# cases.
"$top/scripts/run-checks.sh" "$build" "$checks" \
  env CK_FORK=no GST_DEBUG=0 GST_REGISTRY_FORK=no \
  GST_PLUGIN_SYSTEM_PATH_1_0="$plugins" \
  GST_PLUGIN_PATH_1_0="$build/gst" GST_REGISTRY="$build/tsan.registry" \
  GST_PLUGIN_LOADING_WHITELIST="gstreamer:gst-plugins-base:gst-plugins-good:clboxblur@$build/gst" \
  CLBOXBLUR_CACHE_DIR="$build/kernel-cache" \
  G_SLICE=always-malloc \
  TSAN_OPTIONS="halt_on_error=0 exitcode=66 suppressions=$top/tests/tsan/tsan.supp"
echo "ThreadSanitizer: no report in $checks"
