#!/bin/sh
# What the alpha mask costs, the way a user meets it: three gst-launch
# pipelines of FRAMES frames, SOURCE ! caps ! X ! fakesink, with X the
# plain blur (clboxblur ARGS), the masked one (clboxblur ARGS
# alpha-mask=true MASK_ARGS) and identity (what the rest of the pipeline
# costs), run in turn, ROUNDS rounds, each source in its own rounds:
#   idle   videotestsrc pattern=smpte (flat content, cheap frames)
#   busy   videotestsrc pattern=snow (noisy content, about 7 ms of the
#          streaming thread a 1080p frame)
# A run's time is gst-launch's "Execution ended after" (set-up left out);
# the element's cost a frame is its pipeline's less identity's, and the
# ratio masked / plain is taken round by round (alternating keeps it
# meaningful while the machine's speed drifts). Prints each round, then
# for each source the medians of plain and masked and their ratio, and
# the median and range of the rounds' ratios. With a busy source the
# difference of two pipelines of about 14 ms a frame moves by a few
# tenths of a ms from run to run: the rounds' ratios scatter, the ratio
# of the medians holds better (scripts/element-time.sh times the
# element alone).
#
# videotestsrc's alpha is 255 everywhere (all foreground); the masked
# kernels have no branch on sample or alpha values (the divisions and the
# empty windows' choice are made in every lane), so the cost does not
# depend on the mask's content.
#
#   scripts/mask-cost.sh [BUILD_DIR] [FORMAT] [ARGS] [MASK_ARGS] [SOURCES]
#   (ROUNDS=9 FRAMES=300 SIZE=1920x1080)
#   e.g. scripts/mask-cost.sh build-rel A420 "radius=4" "mask-feather=3"
#   (docs/benchmarks/mask.txt: several runs, each appended as printed;
#   scripts/plots.sh --from docs/benchmarks shows it in benchmarks.md)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
format=${2:-A420}
args=${3:-radius=4}
mask_args=${4:-}
sources=${5:-idle busy}
rounds=${ROUNDS:-9}
frames=${FRAMES:-300}
size=${SIZE:-1920x1080}
w=${size%x*}
h=${size#*x}
export GST_PLUGIN_PATH="$build/gst"
[ -f "$build/gst/libgstclboxblur.so" ] || {
  echo "build first: ninja -C $build" >&2
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seconds gst-launch reports for the run (the element and its properties
# split into words)
# shellcheck disable=SC2086
run_once () {
  gst-launch-1.0 videotestsrc pattern="$1" num-buffers="$frames" \
    ! "video/x-raw,format=$format,width=$w,height=$h" ! $2 ! fakesink 2>&1 |
    awk '/Execution ended after/ {
           split($NF, t, ":"); print t[1] * 3600 + t[2] * 60 + t[3] }'
}

plain="clboxblur $args"
masked="clboxblur $args alpha-mask=true $mask_args"
echo "pipelines: videotestsrc pattern=P num-buffers=$frames ! video/x-raw,format=$format,width=$w,height=$h ! X ! fakesink"
echo "  plain:  X = $plain"
echo "  masked: X = $masked"
echo "  identity: X = identity"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$rounds rounds, plain, masked and identity in turn after one warm-up run of each; ms a frame = (the pipeline - identity's) / $frames"
for src in $sources; do
  case $src in
    idle) pattern=smpte ;;
    busy) pattern=snow ;;
    *) echo "unknown source $src (idle, busy)" >&2; exit 1 ;;
  esac
  run_once $pattern "$plain" >/dev/null
  run_once $pattern "$masked" >/dev/null
  run_once $pattern identity >/dev/null
  : >"$tmp/r"
  i=1
  while [ $i -le "$rounds" ]; do
    p=$(run_once $pattern "$plain")
    m=$(run_once $pattern "$masked")
    id=$(run_once $pattern identity)
    echo "$p $m $id" | awk -v f="$frames" -v s="$src" -v i=$i '{
      p = ($1 - $3) * 1000 / f; m = ($2 - $3) * 1000 / f
      printf "%s round %d: plain %.2f ms, masked %.2f ms, identity %.2f ms a frame: %.2fx\n",
        s, i, p, m, $3 * 1000 / f, (p > 0 ? m / p : 0)
    }' | tee -a "$tmp/r"
    i=$((i + 1))
  done
  # medians of each pipeline's cost, their ratio; the rounds' ratios
  awk -v s="$src" '
    function med(a, n,   i, j, t) {
      for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
          t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { n++; p[n] = $5; m[n] = $8; r[n] = $NF + 0 }
    END {
      mp = med(p, n); mm = med(m, n); mr = med(r, n)
      printf "%s: medians plain %.2f ms, masked %.2f ms a frame: %.2fx; the rounds%s ratios: median %.2fx, %.2f-%.2fx (%d rounds)\n",
        s, mp, mm, mm / mp, "\047", mr, r[1], r[n], n
    }' "$tmp/r" | tee -a "$tmp/summary"
done
echo "summary:"
cat "$tmp/summary"
