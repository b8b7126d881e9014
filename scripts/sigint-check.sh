#!/bin/sh
# SIGINT stops gst-launch-1.0 within seconds whatever clboxblur's
# properties: bilateral at the largest radius and sigma-spatial on 1080p
# RGBA frames (about a minute a frame on 2 CPU cores) is interrupted while
# it filters, and gst-launch-1.0 (no -e) sets the pipeline to NULL and
# exits. The element cancels the frame between two bands of its work.
#
#   scripts/sigint-check.sh [SECONDS_AFTER_THE_KERNELS_ARE_BUILT [LIMIT_SECONDS]]
#
# GST_PLUGIN_PATH_1_0 (tests/meson.build sets it) must hold the plugin.
# Exit 0: gst-launch-1.0 ended within LIMIT_SECONDS (default 5) of SIGINT;
# 1: it did not (killed); 77: no gst-launch-1.0 or no clboxblur (skip).
set -u

wait_s=${1:-2}
limit_s=${2:-5}

command -v gst-launch-1.0 >/dev/null 2>&1 || { echo "no gst-launch-1.0"; exit 77; }
gst-inspect-1.0 clboxblur >/dev/null 2>&1 || { echo "no clboxblur plugin"; exit 77; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT

GST_DEBUG=clbasefilter:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 videotestsrc num-buffers=3 \
  ! video/x-raw,format=RGBA,width=1920,height=1080 \
  ! clboxblur method=bilateral radius=2047 sigma-spatial=21 \
  ! fakesink >"$log" 2>&1 &
pid=$!

# kernels built (the build is not interruptible: a cold kernel cache on a
# loaded machine takes many seconds), then the first frame under way
n=0
while ! grep -q "kernels built in" "$log" && [ "$n" -lt 2400 ] \
    && kill -0 "$pid" 2>/dev/null; do
  sleep 0.05
  n=$((n + 1))
done
sleep "$wait_s"
if ! kill -0 "$pid" 2>/dev/null; then
  echo "gst-launch-1.0 ended before SIGINT:"
  cat "$log"
  wait "$pid"
  exit 1
fi

start=$(date +%s%N)
kill -INT "$pid"
# poll every 50 ms up to the limit
n=0
while kill -0 "$pid" 2>/dev/null && [ "$n" -lt $((limit_s * 20)) ]; do
  sleep 0.05
  n=$((n + 1))
done
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))

if kill -0 "$pid" 2>/dev/null; then
  echo "gst-launch-1.0 still running ${ms} ms after SIGINT: killed"
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  cat "$log"
  exit 1
fi
wait "$pid"
rc=$?
cat "$log"
echo "gst-launch-1.0 exited (status $rc) ${ms} ms after SIGINT (limit ${limit_s} s)"
exit 0
