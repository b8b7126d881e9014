#!/bin/sh
# Frames per second of every method at 1920x1080 in RGBA and NV12, radius
# 15, and bilateral at radius 4 and 7, each against the identity baseline
# (scripts/pipeline-fps.sh does the runs). FRAMES and RUNS set the effort;
# bilateral at radius 15 costs seconds per frame on a CPU, so it gets
# BILATERAL_FRAMES frames.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
frames=${FRAMES:-20}
bframes=${BILATERAL_FRAMES:-4}
export RUNS=${RUNS:-3}

echo "clboxblur methods at 1920x1080; $(date -u +%Y-%m-%d)"
printf '%-6s %-36s %9s %9s\n' format settings "fps" "ms/frame"
for format in RGBA NV12; do
  for args in "method=sat radius=15" "method=separable radius=15" \
      "method=sat radius=15 passes=3" "method=bilateral radius=15" \
      "method=bilateral radius=4" "method=bilateral radius=7"; do
    n=$frames
    case "$args" in *bilateral*) n=$bframes ;; esac
    "$here/pipeline-fps.sh" "$n" 1920x1080 "$format" "$args" |
      awk -v f="$format" -v a="$args" '
        /^clboxblur .* fps$/ { fps = $(NF - 1) }
        /cost per frame/ { ms = $5 }
        END { printf "%-6s %-36s %9.2f %9.1f\n", f, a, fps, ms }'
  done
done
echo "(fps of the whole pipeline; ms/frame = its time minus identity's, per frame;"
echo " median of $RUNS alternating runs, $frames frames, bilateral $bframes)"
