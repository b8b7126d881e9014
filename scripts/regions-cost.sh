#!/bin/sh
# What regions cost, side by side: clboxblur-roi-demo --crowd (ROI metas
# attached by a pad probe, 1920x1080 NV12, radius 8, into fakesink; the
# element's time a frame, from the buffer's arrival on its sink pad to its
# push, the median of FRAMES frames less the first 5) for one 24x24
# region against 100, rectangles against ellipses and feathered edges, a
# large region hard and soft; the cases alternate run by run, ROUNDS
# rounds, and each line gives the least of its rounds' medians (on a
# shared machine other jobs slow whole runs down: the least is the run
# they disturbed least); the ratios the targets of issue 25 are stated in
# close the output.
#
#   scripts/regions-cost.sh [BUILD_DIR]     (ROUNDS=3 FRAMES=60)
#   BASE=OTHER_BUILD_DIR scripts/regions-cost.sh   also 1 and 100 regions
#     with another build's plugin (an older commit), by this build's tool,
#     15 frames a run
#   scripts/regions-cost.sh | tee docs/benchmarks/regions.txt
#   scripts/plots.sh --from docs/benchmarks      (shows it in benchmarks.md)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
rounds=${ROUNDS:-3}
frames=${FRAMES:-60}
demo="$build/tools/clboxblur-roi-demo"
[ -x "$demo" ] || { echo "build first: ninja -C $build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases="1|--crowd 1
100|--crowd 100
100 ellipse|--crowd 100 --shape ellipse
100 feather 8|--crowd 100 --feather 8
100 ellipse feather 8|--crowd 100 --shape ellipse --feather 8
1 of 600x600|--crowd 1 --size 600
1 of 600x600 ellipse|--crowd 1 --size 600 --shape ellipse
1 of 600x600 feather 32|--crowd 1 --size 600 --feather 32
1 of 600x600 ellipse feather 32|--crowd 1 --size 600 --shape ellipse --feather 32"
if [ -n "${BASE:-}" ]; then
  base=$(cd "$BASE" && pwd)
  cases="$cases
base 1|--crowd 1
base 100|--crowd 100"
fi

echo "# scripts/regions-cost.sh: ROUNDS=$rounds FRAMES=$frames${BASE:+ BASE=$BASE}; $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# clboxblur-roi-demo --crowd N [--size S] [--shape] [--feather] --frames $frames: 1920x1080 NV12, radius 8, 24x24 metas unless said"
r=0
while [ $r -lt "$rounds" ]; do
  echo "$cases" | while IFS='|' read -r name args; do
    plugins="$build/gst" f=$frames
    # (the base's crowd may take half a second a frame: 15 frames)
    case $name in base*) plugins="$base/gst" f=15 ;; esac
    # shellcheck disable=SC2086
    GST_PLUGIN_PATH="$plugins" "$demo" $args --frames "$f" \
      | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' >>"$tmp/$(echo "$name" | tr ' ' _)"
  done
  r=$((r + 1))
done
least() { sort -n "$tmp/$(echo "$1" | tr ' ' _)" | head -n 1; }
echo "$cases" | while IFS='|' read -r name args; do
  printf '%-34s %8.2f ms a frame  (%s)\n' "$name" "$(least "$name")" "$args"
done
ratio() { awk -v a="$(least "$1")" -v b="$(least "$2")" 'BEGIN { printf "%.2f", a / b }'; }
echo "100 small regions / 1:                     $(ratio 100 1)x (target <= 1.5)"
echo "100 ellipses / 100 rectangles:             $(ratio '100 ellipse' 100)x (target <= 1.2)"
echo "100 ellipses feather 8 / rectangles feather 8: $(ratio '100 ellipse feather 8' '100 feather 8')x"
echo "100 rectangles feather 8 / hard:           $(ratio '100 feather 8' 100)x (target <= 1.2; the feather covers (24+16)^2 / 24^2 = 2.8x the pixels)"
echo "100 ellipses feather 8 / hard rectangles:   $(ratio '100 ellipse feather 8' 100)x (both at once)"
echo "600x600 ellipse / rectangle:               $(ratio '1 of 600x600 ellipse' '1 of 600x600')x (target <= 1.2)"
echo "600x600 ellipse feather 32 / rectangle feather 32: $(ratio '1 of 600x600 ellipse feather 32' '1 of 600x600 feather 32')x"
echo "600x600 rectangle feather 32 / hard:       $(ratio '1 of 600x600 feather 32' '1 of 600x600')x (target <= 1.2)"
echo "600x600 ellipse feather 32 / hard rectangle: $(ratio '1 of 600x600 ellipse feather 32' '1 of 600x600')x (both at once)"
if [ -n "${BASE:-}" ]; then
  echo "base ($base): 100 small regions / 1:       $(ratio 'base 100' 'base 1')x"
fi
