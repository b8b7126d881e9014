#!/bin/sh
# Time spent inside the element per frame, from the streaming thread's
# entry into GstCLBaseFilter's transform to its return (perf uprobes on
# the plugin), and where that time goes (the scheduler's switches on both
# cores, perf record -a): the CPU time the device's worker threads (the
# pipeline's own threads other than the streaming one: PoCL's) ran inside
# the window, summed over the cores, the time the cores sat idle in it,
# and the time other processes took. Sources, no queue unless named:
#   idle   videotestsrc pattern=smpte (cheap frames)
#   busy   videotestsrc pattern=snow (about 7 ms of the streaming thread's
#          time a 1080p frame before each transform)
#   sleep  pattern=smpte ! identity sleep-time=7000 (the same gap as busy,
#          spent asleep: no work, no memory touched)
#   queue  pattern=snow ! queue (the source on a core of its own)
# Prints each run's median over the frames (the first 20 left out). Needs
# root (perf probe, perf record -a), perf and python3.
#
#   scripts/element-time.sh [BUILD_DIR] [FORMAT] [FRAMES] [ARGS] [SOURCES]
#   e.g. scripts/element-time.sh build RGB 200 "radius=15" "idle busy sleep"
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
format=${2:-RGB}
frames=${3:-200}
args=${4:-radius=15}
sources=${5:-idle busy sleep queue idle busy}
so="$build/gst/libgstclboxblur.so"
data=$(mktemp)
trap 'rm -f "$data"; perf probe -q -d "probe_libgstclboxblur:clbt_*" 2>/dev/null || true' EXIT

perf probe -q -d "probe_libgstclboxblur:clbt_*" 2>/dev/null || true
perf probe -q -x "$so" 'clbt_in=gst_cl_base_filter_transform'
perf probe -q -x "$so" 'clbt_out=gst_cl_base_filter_transform%return'

caps="video/x-raw,format=$format,width=1920,height=1080"
echo "pipeline: SOURCE ! $caps ! clboxblur $args ! fakesink, $frames frames"
echo "build: $build; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "per frame, medians: wall = the transform; workers = CPU time of the pipeline's threads other than the streaming one inside it (PoCL's workers), summed over the cores; idle = cores idle inside it; others = other processes inside it"
# Splits each transform's window among the tasks the cores ran in it.
split='
import re, statistics, sys
ev = []
for line in sys.stdin:
    m = re.match(r"\s*(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)", line)
    if m:
        pid, tid, cpu, t, name, rest = m.groups()
        ev.append((float(t), int(cpu), int(pid), int(tid), name, rest))
ev.sort()
streaming = next(tid for t, c, p, tid, n, r in ev if "clbt_in" in n)
pipeline = next(p for t, c, p, tid, n, r in ev if "clbt_in" in n)
ours = {tid for t, c, p, tid, n, r in ev if p == pipeline}
def kind(tid):
    if tid == 0:
        return "idle"
    if tid == streaming:
        return "streaming"
    return "workers" if tid in ours else "others"
running, frames, start = {}, [], None
for t, cpu, pid, tid, name, rest in ev:
    if "clbt_in" in name:
        start = t
        acc = dict.fromkeys(("workers", "idle", "others", "streaming"), 0.0)
    elif "clbt_out" in name and start is not None:
        for k, since in running.values():
            acc[k] += t - max(since, start)
        frames.append((t - start, acc))
        start = None
    elif "sched_switch" in name:
        m = re.search(r"next_pid=(\d+)", rest)
        if start is not None and cpu in running:
            k, since = running[cpu]
            acc[k] += t - max(since, start)
        running[cpu] = (kind(int(m.group(1))), t)
frames = frames[20:]
med = lambda xs: statistics.median(xs) * 1000 if xs else float("nan")
print("%-6s wall %.2f ms, workers %.2f, idle %.2f, others %.2f, streaming %.2f (%d frames)" % (
    sys.argv[1], med([w for w, a in frames]),
    *(med([a[k] for w, a in frames]) for k in ("workers", "idle", "others", "streaming")),
    len(frames)))
'
for s in $sources; do
  case $s in
    idle) src="videotestsrc num-buffers=$frames pattern=smpte ! $caps" ;;
    busy) src="videotestsrc num-buffers=$frames pattern=snow ! $caps" ;;
    sleep) src="videotestsrc num-buffers=$frames pattern=smpte ! $caps ! identity sleep-time=7000" ;;
    queue) src="videotestsrc num-buffers=$frames pattern=snow ! $caps ! queue" ;;
    *) echo "unknown source $s" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086
  perf record -q -a -e probe_libgstclboxblur:clbt_in \
    -e probe_libgstclboxblur:clbt_out__return -e sched:sched_switch \
    -o "$data" -- env GST_PLUGIN_PATH="$build/gst" gst-launch-1.0 -q \
    $src ! clboxblur $args ! fakesink >/dev/null 2>&1
  perf script -i "$data" -F pid,tid,cpu,time,event,trace 2>/dev/null \
    | python3 -c "$split" "$s"
done
