#!/bin/sh
# Time spent inside the element per frame, from the streaming thread's
# entry into GstCLBaseFilter's transform to its return (perf uprobes on
# the plugin), behind an idle source (videotestsrc pattern=smpte) and a
# busy one (pattern=snow), no queue: where the element's own time goes
# when the source keeps a core busy between frames, apart from the
# source's. Prints the median, 10th and 90th percentile of each run (the
# first 20 frames left out). Needs root (perf probe) and perf.
#
#   scripts/element-time.sh [BUILD_DIR] [FORMAT] [FRAMES] [ARGS]
#   e.g. scripts/element-time.sh build RGB 200 "radius=15"
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
format=${2:-RGB}
frames=${3:-200}
args=${4:-radius=15}
so="$build/gst/libgstclboxblur.so"
data=$(mktemp)
trap 'rm -f "$data"; perf probe -q -d "probe_libgstclboxblur:clbt_*" 2>/dev/null || true' EXIT

perf probe -q -d "probe_libgstclboxblur:clbt_*" 2>/dev/null || true
perf probe -q -x "$so" 'clbt_in=gst_cl_base_filter_transform'
perf probe -q -x "$so" 'clbt_out=gst_cl_base_filter_transform%return'

echo "pipeline: videotestsrc num-buffers=$frames pattern=P ! video/x-raw,format=$format,width=1920,height=1080 ! clboxblur $args ! fakesink"
echo "build: $build; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for pattern in smpte snow smpte snow; do
  perf record -q -e probe_libgstclboxblur:clbt_in \
    -e probe_libgstclboxblur:clbt_out__return -o "$data" -- \
    env GST_PLUGIN_PATH="$build/gst" gst-launch-1.0 -q videotestsrc \
    num-buffers="$frames" pattern=$pattern \
    ! "video/x-raw,format=$format,width=1920,height=1080" \
    ! clboxblur $args ! fakesink >/dev/null 2>&1
  perf script -i "$data" -F time,event 2>/dev/null | awk '
    { t = $1; sub(":", "", t)
      if ($2 ~ /clbt_out/) { if (s) { n++; if (n > 20) printf "%.3f\n", (t - s) * 1000 } }
      else s = t }' | sort -n | awk -v p=$pattern '
    { v[NR] = $1 }
    END { printf "%-6s transform: median %.2f ms, p10 %.2f, p90 %.2f (%d frames)\n",
          p, v[int((NR + 1) / 2)], v[int(NR / 10) + 1], v[int(NR * 9 / 10)], NR }'
done
