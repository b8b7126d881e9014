#!/bin/sh
# The work guard: fails when a method's kernels do more work per frame than
# the baseline in tests/perf/work-baseline.txt allows. Timings move with the
# load of a shared machine; what Oclgrind counts does not. For each method
# the bench lists (sat, separable, bilateral, mosaic, fill) and each device class
# (CLBOXBLUR_DEVICE_CLASS=gpu, then cpu), on two small fixed frames (67x41
# RGBA and 23x17 NV12, radius 6, one frame: -i 1 --warm-up 0, checked
# against the reference with -e), clboxblur-bench runs on Oclgrind's runtime
# with OCLGRIND_INST_COUNTS=1, and the guard sums over the frame's kernels
# (all but the engine's start-up probe, clb_loop_probe); `mask`, the
# separable box with alpha as the mask (--mask --mask-only: the masked run
# alone) on 67x41 RGBA and 23x17 A420; and `regions`, the separable box
# inside the bench's 40 regions with a feather of 8 (its second region
# the frame's left half; the composite over the tiles they reach, and on
# CPUs the frame's copy) on 67x41 RGBA and 23x17 NV12; and
# `temporal-history`, temporal's second frame, its history kept (--history:
# two frames counted, less the first, which `temporal` counts: a first
# frame has no history and skips the blend's patch):
#   instructions   LLVM IR instructions executed (Oclgrind's count)
#   global-bytes   bytes loaded from and stored to global memory (loads,
#                  stores, and vloadN/vstoreN on global pointers, which
#                  Oclgrind counts as calls)
# Each case runs twice and the two counts must be equal (they are: Oclgrind
# interprets every work-item in a fixed order). Rows are keyed by method,
# class, frame and metric, not by kernel, so the kernels behind a method
# may change. A count more than 10% over its baseline fails the run with
# the method, metric, baseline, count and growth; the table is printed
# always, with the global memory traffic in bytes per pixel beside the
# least the method needs (docs/traffic.md).
#
#   usage: work-guard.sh [--build DIR] [--once] [--classes "gpu cpu"]
#                        [--methods "sat separable bilateral"]
#                        [--update | --markdown | --self-test]
#     --update     rewrite the baseline and docs/traffic.md's table from
#                  this run (commit them on their own, saying why)
#     --markdown   print the traffic table as Markdown and exit
#     --self-test  run the guard on a copy of kernels/ made slower (a
#                  redundant global load in clb_load, kernels/common.cl,
#                  through CLBOXBLUR_KERNEL_PATH) and fail unless it fails
#     --once       run each case once (skip the repeat check)
#
# Stable on a loaded machine: passed 10 runs of 10 in a row (43 to 79 s a
# run, 2 shared cores at a load average of 7 to 8, a valgrind run beside
# it), each count the same in every run, with
#   for i in 1 2 3 4 5 6 7 8 9 10; do scripts/work-guard.sh >/dev/null \
#     && echo "run $i: pass" || echo "run $i: FAIL"; done
# The host side is not counted: a callgrind count of clb_engine_filter on
# PoCL (--toggle-collect) did not reach its first frame in 10 minutes on 2
# cores (PoCL compiles the kernels in-process, under valgrind), far past
# CI's budget.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

build=build
mode=check
repeat=2
classes="gpu cpu"
methods=
baseline=tests/perf/work-baseline.txt
doc=docs/traffic.md
limit=10                        # percent
radius=6
frames="67x41:RGBA 23x17:NV12"
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=$2; shift ;;
  --once) repeat=1 ;;
  --classes) classes=$2; shift ;;
  --methods) methods=$2; shift ;;
  --update) mode=update ;;
  --markdown) mode=markdown ;;
  --self-test) mode=self-test ;;
  -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "work-guard: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
  shift
done

. scripts/oclgrind-lib.sh
oclgrind_init "$build"
[ -n "$methods" ] || methods="$(oclgrind_methods) mask regions temporal-history"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$mode" = self-test ]; then
  # clb_load (every GPU kernel's and the CPU sat and bilateral kernels'
  # sample read) made to read each sample twice, both volatile loads the
  # compiler must keep (one whose value goes unused is dropped).
  mkdir "$tmp/kernels"
  cp kernels/*.cl kernels/*.h "$tmp/kernels/"
  awk '/^clb_load \(/ { inload = 1 }
       inload && /^ *uint v = p\[i\];$/ {
         print "    uint v = ((volatile __global const sample_t *) p)[i];"
         print "    v = ((volatile __global const sample_t *) p)[i];"
         inload = 0; next }
       { print }' kernels/common.cl >"$tmp/kernels/common.cl"
  if cmp -s kernels/common.cl "$tmp/kernels/common.cl"; then
    echo "work-guard self-test: could not slow clb_load in kernels/common.cl" >&2
    exit 1
  fi
  echo "work-guard self-test: the guard on kernels/ with a redundant global load in clb_load"
  set +e
  CLBOXBLUR_KERNEL_PATH="$tmp/kernels" "$0" --build "$build" --once \
    --classes "$classes" ${methods:+--methods "$methods"} >"$tmp/out" 2>&1
  rc=$?
  set -e
  cat "$tmp/out"
  if [ $rc -ne 0 ] && grep -q '^work-guard: FAIL .* grew' "$tmp/out"; then
    echo "work-guard self-test: passed (the guard failed on slower kernels, exit $rc)"
    exit 0
  fi
  echo "work-guard self-test: FAILED (the guard did not catch slower kernels, exit $rc)" >&2
  exit 1
fi

# count LOG: "instructions global-bytes kernel,kernel..." of one run's
# Oclgrind counts, the start-up probe left out.
count() {
  awk 'BEGIN { size["c"] = size["h"] = 1; size["s"] = size["t"] = 2
               size["i"] = size["j"] = size["f"] = 4
               size["l"] = size["m"] = size["d"] = 8 }
       /^Instructions executed for kernel / {
         k = $5; gsub(/[\047:]/, "", k)
         if (k != "clb_loop_probe" && !(k in seen)) {
           seen[k] = 1; names = names (names == "" ? "" : ",") k }
         next }
       k != "" && k != "clb_loop_probe" && /^ *[0-9]+ - / {
         inst += $1
         if ($0 ~ /(load|store) global \(/) {
           b = $0; sub(/.*\(/, "", b); sub(/ bytes.*/, "", b); bytes += b }
         # vloadN/vstoreN on global memory (address space 1) are calls of
         # builtins to Oclgrind, not loads or stores: N elements of the
         # type the mangled name ends with.
         else if ($0 ~ /call _Z[0-9]+v(load|store)[0-9]+.*PU3AS1K?[a-z]\(\)$/) {
           n = $0; sub(/.*call _Z[0-9]+v(load|store)/, "", n)
           sub(/[^0-9].*/, "", n)
           t = $0; sub(/\(\)$/, "", t); t = substr(t, length(t))
           bytes += $1 * n * size[t] } }
       END { printf "%.0f %.0f %s\n", inst, bytes, names == "" ? "-" : names }' "$1"
}

start=$(date +%s)
: >"$tmp/counts"
for class in $classes; do
  for m in $methods; do
    mframes=$frames
    args="--$m"
    if [ "$m" = mask ]; then
      mframes="67x41:RGBA 23x17:A420"
      args="--separable --mask --mask-only"
    fi
    if [ "$m" = regions ]; then
      args="--separable --regions 40 --feather 8"
    fi
    iters=1
    if [ "$m" = temporal-history ]; then
      args="--temporal --history"
      iters=2
    fi
    for f in $mframes; do
      size=${f%:*} format=${f#*:}
      frame="$size-$format-r$radius"
      prev=
      i=0
      while [ $i -lt $repeat ]; do
        i=$((i + 1))
        log="$tmp/$m-$class-$frame-$i"
        # shellcheck disable=SC2086
        if ! oclgrind_run CLBOXBLUR_DEVICE_CLASS="$class" \
          CLBOXBLUR_CACHE_DIR="$tmp/cache" OCLGRIND_INST_COUNTS=1 \
          OCLGRIND_LOG="$log.oclgrind" \
          "$bench" -e -q -i "$iters" --warm-up 0 $args --sizes "$size" \
          --formats "$format" --radii "$radius" >"$log" 2>&1 \
          || { [ "$iters" = 2 ] && ! oclgrind_run \
          CLBOXBLUR_DEVICE_CLASS="$class" CLBOXBLUR_CACHE_DIR="$tmp/cache" \
          OCLGRIND_INST_COUNTS=1 "$bench" -e -q -i 1 --warm-up 0 $args \
          --sizes "$size" --formats "$format" --radii "$radius" \
          >"$log.first" 2>&1; }; then
          echo "work-guard: FAIL $m $class $frame: the bench failed" >&2
          tail -n 5 "$log" >&2
          exit 1
        fi
        now=$(count "$log")
        if [ "$iters" = 2 ]; then
          # the second frame alone: the two frames less the first
          now=$(echo "$now $(count "$log.first")" |
            awk '{ printf "%.0f %.0f %s\n", $1 - $4, $2 - $5, $3 }')
        fi
        if [ "${now%% *}" = 0 ]; then
          echo "work-guard: FAIL $m $class $frame: no kernel counted" >&2
          exit 1
        fi
        if [ -n "$prev" ] && [ "$prev" != "$now" ]; then
          echo "work-guard: FAIL $m $class $frame: two runs counted" \
            "differently ($prev / $now)" >&2
          exit 1
        fi
        prev=$now
      done
      echo "$m $class $frame $now" >>"$tmp/counts"
    done
  done
done
secs=$(($(date +%s) - start))

# traffic: the Markdown table of global memory traffic per pixel.
# The least a method needs: the frame read once and written once, and its
# intermediate written once and read once: sat a 32-bit table, separable
# 32-bit window sums (16-bit where they fit, as the kernels of both
# classes store them: (2 radius + 1) 255 <= 65535), bilateral none; mosaic
# and fill none (mosaic's column sums are one row a block row: counted in
# its bytes, not in the least); fill only writes the frame; regions
# separable's (what the composite and the copy add over it is theirs).
traffic() {
  awk -v r="$radius" '
    { split($3, a, "-"); split(a[1], wh, "x"); px = wh[1] * wh[2]
      s = a[2] == "NV12" ? 1.5 : a[2] == "RGBA" ? 4 : a[2] == "A420" ? 2.5 : 1
      inter = ($1 == "bilateral" || $1 == "mosaic" || $1 == "fill") ? 0 : 4
      if (($1 == "separable" || $1 == "regions") &&
          (2 * r + 1) * 255 <= 65535)
        inter = 2
      least = ($1 == "fill" ? 1 : 2) * s + 2 * inter * s
      k = $6; gsub(/,/, ", ", k)
      printf "| %s | %s | %s | %s | %.0f | %.1f | %.1f | %.2f |\n", $1, $2,
        k, $3, $5, $5 / px, least, $5 / px / least }
    BEGIN {
      print "| method | class | kernels | frame | global bytes | bytes/pixel | least bytes/pixel | x least |"
      print "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |" }' \
    "$tmp/counts"
}

if [ "$mode" = markdown ]; then
  traffic
  exit 0
fi

if [ "$mode" = update ]; then
  {
    echo "# clboxblur's work per frame on Oclgrind, per method, device class,"
    echo "# frame and metric: the baseline of scripts/work-guard.sh, which"
    echo "# fails when a count grows by more than $limit%. Made by"
    echo "# scripts/work-guard.sh --update; commit an update on its own,"
    echo "# saying why the work changed."
    echo "# method class frame metric value"
    awk '{ print $1, $2, $3, "instructions", $4
           print $1, $2, $3, "global-bytes", $5 }' "$tmp/counts"
  } >"$baseline"
  traffic >"$tmp/table"
  awk -v table="$tmp/table" '
    /<!-- work-guard table end -->/ { skip = 0 }
    !skip { print }
    /<!-- work-guard table begin -->/ {
      while ((getline line < table) > 0) print line
      skip = 1 }' "$doc" >"$tmp/doc"
  cp "$tmp/doc" "$doc"
  echo "work-guard: wrote $baseline and the table in $doc ($secs s)"
  exit 0
fi

# Compare with the baseline, print the table.
if [ ! -f "$baseline" ]; then
  echo "work-guard: $baseline missing: run scripts/work-guard.sh --update" >&2
  exit 1
fi
awk '{ print $1, $2, $3, "instructions", $4
       print $1, $2, $3, "global-bytes", $5 }' "$tmp/counts" >"$tmp/now"
awk -v limit="$limit" -v report="$tmp/report" '
  FNR == NR { if ($0 !~ /^#/ && NF == 5) base[$1 " " $2 " " $3 " " $4] = $5
              next }
  FNR == 1 { printf "%-10s %-5s %-15s %-13s %12s %12s %8s\n", "method",
               "class", "frame", "metric", "baseline", "now", "change" }
  { key = $1 " " $2 " " $3 " " $4
    if (!(key in base)) {
      printf "%-10s %-5s %-15s %-13s %12s %12.0f %8s\n", $1, $2, $3, $4,
        "-", $5, "new"
      printf "work-guard: FAIL %s %s %s %s: no baseline row, now %.0f\n",
        $1, $2, $3, $4, $5 > report
      next }
    b = base[key]; g = b > 0 ? ($5 - b) * 100 / b : ($5 > 0 ? 100 : 0)
    printf "%-10s %-5s %-15s %-13s %12.0f %12.0f %+7.1f%%\n", $1, $2, $3,
      $4, b, $5, g
    if (g > limit)
      printf "work-guard: FAIL %s %s %s %s grew: baseline %.0f, now %.0f, %+.1f%% (limit +%d%%)\n",
        $1, $2, $3, $4, b, $5, g, limit > report }' \
  "$baseline" "$tmp/now"
echo
traffic
echo
if [ -s "$tmp/report" ]; then
  cat "$tmp/report"
  echo "work-guard: if the growth is meant, run scripts/work-guard.sh --update" \
    "and commit $baseline and $doc on their own, saying why"
  exit 1
fi
echo "work-guard: $(wc -l <"$tmp/now") counts within +$limit% of $baseline ($secs s)"
