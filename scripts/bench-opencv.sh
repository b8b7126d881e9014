#!/bin/sh
# clboxblur's engine against OpenCV called directly (cv::blur and
# cv::bilateralFilter through python3-opencv, 2 threads), on the same
# frame sizes, formats and radii, in one run, alternating. Both sides time
# a call on a frame already in memory: OpenCV's function, clboxblur-bench's
# engine (frame in, frame out). Each figure is the median of $ITER runs
# after 3 warm-up runs.
#
#   scripts/bench-opencv.sh         (SIZES, RADII, ITER, THREADS to change;
#                                    RADII= leaves out the box rows)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/${CLBOXBLUR_BUILD_DIR:-build}"
sizes=${SIZES:-1920x1080}
radii=${RADII-2 15 50}
iter=${ITER:-30}
threads=${THREADS:-2}

"$top/scripts/ensure-packages.sh" python3-opencv
[ -x "$build/tools/clboxblur-bench" ] || {
  echo "build $build first (./scripts/run.sh demo)" >&2
  exit 1
}

# median ms of one OpenCV call: FORMAT W H OP RADIUS
cv_ms () {
  /usr/bin/python3 - "$@" "$iter" "$threads" <<'EOF'
import sys, time
import numpy as np
import cv2

fmt, w, h, op, r, n, threads = sys.argv[1:]
w, h, r, n = int(w), int(h), int(r), int(n)
cv2.setNumThreads(int(threads))
ch = {"RGB": 3, "RGBA": 4, "GRAY8": 1}[fmt]
rng = np.random.default_rng(1)
shape = (h, w) if ch == 1 else (h, w, ch)
img = rng.integers(0, 256, size=shape, dtype=np.uint8)
k = 2 * r + 1
if op == "blur":
    f = lambda: cv2.blur(img, (k, k), borderType=cv2.BORDER_REFLECT_101)
else:
    f = lambda: cv2.bilateralFilter(img, k, 30, 5,
                                    borderType=cv2.BORDER_REFLECT_101)
for _ in range(3):
    f()
t = []
for _ in range(n):
    s = time.perf_counter()
    f()
    t.append(time.perf_counter() - s)
t.sort()
print("%.2f" % (t[len(t) // 2] * 1000))
EOF
}

# median ms of clboxblur's engine: FORMAT W H METHOD RADIUS
cl_ms () {
  extra=
  [ "$4" = bilateral ] && extra="--sigma-spatial=5 --sigma-range=30"
  # shellcheck disable=SC2086
  out=$("$build/tools/clboxblur-bench" "--$4" -i "$iter" --formats "$1" \
    --sizes "$2x$3" --radii "$5" --border reflect $extra) || {
    echo "clboxblur-bench failed: $out" >&2
    exit 1
  }
  echo "$out" | awk -v m="$4" '$1 == m { print $5 }'
}

ratio () {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", a / b; else print "-" }'
}

echo "clboxblur engine against OpenCV $(/usr/bin/python3 -c 'import cv2; print(cv2.__version__)') called directly; $(date -u +%Y-%m-%d); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "OpenCV with $threads threads (cv2.setNumThreads), border REFLECT_101 on both sides; median of $iter calls after 3 warm-up; speedup = OpenCV ms / clboxblur ms"
echo
printf '%-9s %-6s %-36s %10s %10s %8s\n' size radius case "opencv ms" "clbb ms" speedup
for size in $sizes; do
  w=${size%x*}
  h=${size#*x}
  for r in $radii; do
    for f in RGB GRAY8 RGBA; do
      cv=$(cv_ms "$f" "$w" "$h" blur "$r")
      cl=$(cl_ms "$f" "$w" "$h" separable "$r")
      printf '%-9s %-6s %-36s %10s %10s %8s\n' "$size" "$r" "cv::blur, $f" "$cv" "$cl" "$(ratio "$cv" "$cl")"
    done
  done
  for f in RGB GRAY8; do
    cv=$(cv_ms "$f" "$w" "$h" bilateral 4)
    cl=$(cl_ms "$f" "$w" "$h" bilateral 4)
    printf '%-9s %-6s %-36s %10s %10s %8s\n' "$size" 4 "cv::bilateralFilter d=9 30 5, $f" "$cv" "$cl" "$(ratio "$cv" "$cl")"
  done
done
