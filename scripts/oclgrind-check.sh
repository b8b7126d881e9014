#!/bin/sh
# The kernels run on Oclgrind, a simulator that checks every access:
# out-of-bounds reads and writes (always), data races between work-items
# and work-groups (--data-races) and uses of uninitialised values
# (--uninitialized). No GPU needed: the GPU kernels and work shapes run
# forced (CLBOXBLUR_DEVICE_CLASS=gpu) as well as the CPU ones. Each case
# is clboxblur-bench -e on small frames (odd sizes, several work-groups,
# radii past a tile's edge and past the frame, passes > 1), which also
# compares every output sample with the plain-C reference. Fails on any
# Oclgrind report, a crash or a pixel mismatch.
#   usage: oclgrind-check.sh [BUILD_DIR]        (default: build)
#
# Two narrow allowances, both for Oclgrind 21.10 (Debian 12) bugs, each
# explained in docs/oclgrind.md:
# - scripts/oclgrind-shadow.c is preloaded ahead of Oclgrind's runtime: a
#   clEnqueueWriteBufferRect that fills a whole buffer is stored once more
#   as one write, since Oclgrind's --uninitialized shadow keeps only the
#   last host store's size (ShadowMemory::allocate) and so reports every
#   frame uploaded row by row as unwritten;
# - the CPU class's separable kernels run without --uninitialized (its
#   shufflevector handling takes an undefined mask lane, -1, for an index
#   and crashes), and with it off the frames they wrap (CL_MEM_USE_HOST_PTR,
#   which Oclgrind never marks as written) are checked for races and bounds;
# - the CPU class's sat on frames cut into bands (sat_ring: each band's
#   apron rows copied on the device with clEnqueueCopyBuffer, a copy
#   Oclgrind's --uninitialized shadow does not follow, so the apron reads
#   as unwritten) runs for races and bounds; one band keeps
#   --uninitialized.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${1:-build}
. scripts/oclgrind-lib.sh
oclgrind_init "$build"
shadow="$build/oclgrind-shadow.so"
cc -O1 -Wall -Werror -shared -fPIC -o "$shadow" scripts/oclgrind-shadow.c -ldl
oclgrind_preload="$top/$shadow"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
n=0
start=$(date +%s)

# check CLASS uninit|races ZERO_COPY BENCH_ARGS...: one bench run under
# Oclgrind, one frame per case (no warm-up).
check() {
  class=$1 flags=$2 zc=$3
  shift 3
  n=$((n + 1))
  log="$tmp/case$n.log"
  out="$tmp/case$n.out"
  set +e
  oclgrind_run CLBOXBLUR_DEVICE_CLASS="$class" CLBOXBLUR_ZERO_COPY="$zc" \
    OCLGRIND_LOG="$log" \
    OCLGRIND_DATA_RACES=1 \
    OCLGRIND_UNINITIALIZED=$([ "$flags" = uninit ] && echo 1 || echo 0) \
    "$bench" -e -q -i 1 --warm-up 0 "$@" >"$out" 2>&1
  rc=$?
  set -e
  what="$class zero-copy=$zc $flags: $*"
  if [ $rc -ne 0 ] || [ -s "$log" ]; then
    failed=$((failed + 1))
    echo "FAIL $what (exit $rc)"
    grep -E '^[A-Z]|Kernel:|At line' "$log" 2>/dev/null | sort | uniq -c \
      | sort -rn | head -n 12
    tail -n 5 "$out"
  else
    echo "ok   $what"
  fi
}

# The methods: every one the bench knows, found in its --help.
methods=$(oclgrind_methods)
for class in gpu cpu; do
  for m in $methods; do
    flags=uninit zc=0
    if [ "$class" = cpu ] && [ "$m" = separable ]; then
      flags=races zc=1
    fi
    case $m in
    bilateral) more="--sigma-spatial 0" ;;
    *) more="--passes 2" ;;
    esac
    # several work-groups, a radius past a tile's edge (16) and the frame's
    check $class $flags $zc --$m --sizes 67x41 --formats RGBA --radii 20
    # odd sizes, 1 and 3 channels, subsampled chroma, two passes or a flat
    # bilateral window, the other borders
    # (one format a process: a second set of buffers in the same process
    # meets shadows Oclgrind kept from the first, which read as unwritten)
    # (sat_ring cuts these frames into bands whose aprons are copied on the
    # device, clEnqueueCopyBuffer, which Oclgrind's shadow does not follow:
    # races and bounds there; the 67x41 frame above, one band, keeps
    # --uninitialized)
    small=$flags
    if [ "$class" = cpu ] && [ "$m" = sat ]; then
      small=races
    fi
    # (mosaic: YUY2 too, whose CPU run leaves the other job's bytes)
    fs="GRAY8 RGB NV12"
    [ "$m" = mosaic ] && fs="$fs YUY2"
    for f in $fs; do
      # shellcheck disable=SC2086
      check $class $small $zc --$m --sizes 23x17 --formats $f \
        --radii 1,5 --border replicate $more
    done
  done
done
# temporal with its history kept (--history, two frames: the second's
# blend reads the first's history, its differences through the group's
# local tile; the frames above are each a first one), both classes
for class in gpu cpu; do
  check $class uninit 0 --temporal --history -i 2 --sizes 67x41 \
    --formats RGBA --radii 3
  check $class uninit 0 --temporal --history -i 2 --sizes 23x17 \
    --formats NV12 --radii 1 --border replicate
done
# temporal_spatial_x16 and temporal_blend_x16 (the CPU class's steps on
# 8-bit samples, 16 pixels of a row a work-item, temporal_spatial on the
# columns where a block's window would leave the row, temporal_blend on
# a row's last pixels short of 16): frames of both, fresh (shrink) and
# with the history kept (a packed job whose pixels it writes one byte of
# two)
check cpu uninit 0 --temporal --sizes 53x11 --formats RGBA --radii 7 \
  --border shrink
check cpu uninit 0 --temporal --history -i 2 --sizes 53x11 --formats YUY2 \
  --radii 2 --border reflect
# every method's kernels from the caller's memory into the caller's on
# packed rows (engineframe.c's WRAP_PLANES: the CPU class, and a GPU that
# shares the host's memory, as PoCL says it does): races and bounds (the
# wrapped frames read as unwritten under --uninitialized)
for class in gpu cpu; do
  for m in bilateral temporal; do
    check $class races 1 --$m --sizes 67x41 --formats RGBA --radii 5
  done
  check $class races 1 --sat --passes 2 --sizes 23x17 --formats NV12 \
    --radii 1,5
done
# mosaic_x16 on the CPU class from the caller's memory: packed 4:2:2's
# two jobs in one walk (an even width; blocks of 2, 8 and 16 pixels: 4,
# 16 and 32 bytes), and blocks of a multiple of 16 bytes a step of
# several vectors (RGBA blocks of 8 and 32 pixels); the same copied in,
# --uninitialized (the wrapped frames read as unwritten there)
for zc in 1 0; do
  flags=races
  [ "$zc" = 0 ] && flags=uninit
  check cpu $flags $zc --mosaic --sizes 38x17 --formats YUY2 --radii 1,4,8
  check cpu $flags $zc --mosaic --sizes 70x9 --formats RGBA --radii 4,16
done
# packed 4:2:2 on the CPU class, one pass from the caller's memory:
# separable_fused_422_x16 (both jobs in one walk; its aprons, radii past
# the frame), each border
for b in shrink replicate reflect; do
  check cpu races 1 --separable --sizes 38x17 --formats YUY2 \
    --radii 1,9,40 --border $b
done
# two planes' jobs in one launch on the CPU class, from the caller's
# memory: separable_fused_pair_x16 (NV12's Y and UV; I420's Y and U, its
# V alone), radii past the chroma plane
for f in NV12 I420; do
  check cpu races 1 --separable --sizes 38x17 --formats $f --radii 1,9,40
done
# bilateral_x16's inner blocks (the frames above are all edge blocks:
# windows past a row's end), whose window rows of several channels are
# staged as float rows first
for f in RGB RGBA GRAY8; do
  check cpu uninit 0 --bilateral --sizes 100x23 --formats $f --radii 3
done
# sat_ring's packed jobs on the CPU class (YUY2's Y and UV jobs run as
# dense pixels of 2 and 4 bytes, the other job's bytes kept as the output
# has them), from the caller's memory, each border, and in place (two
# passes)
for b in shrink replicate reflect; do
  check cpu races 1 --sat --sizes 38x17 --formats YUY2 --radii 1,9 \
    --border $b
done
check cpu races 0 --sat --sizes 38x17 --formats YUY2 --radii 2 --passes 2
# region_composite over the tiles regions reach: ellipses and feathered
# rectangles, plain and inverted, subsampled chroma and packed YUV,
# regions past the frame's edges and overlapping (the same kernel on both
# classes; the GPU class's box methods keep --uninitialized)
check gpu uninit 0 --separable --sizes 37x29 --formats NV12 --radii 2 \
  --regions 40 --shape ellipse --feather 3
check gpu uninit 0 --sat --sizes 37x29 --formats RGBA --radii 2 \
  --regions 40 --feather 2 --invert
check gpu uninit 0 --bilateral --sizes 37x29 --formats YUY2 --radii 2 \
  --regions 40 --shape ellipse --feather 1 --sigma-spatial 0
# region_composite_x16, the CPU class's: the same, and the bytes weighed
# in vectors (RGB's 3-byte samples, I420's 8-byte chroma rows), the
# ellipses' float steps and their exact fallback (the bench's second
# region: a huge ellipse), the steps' map; the separable CPU kernels keep to races (their
# shuffles crash --uninitialized)
check cpu races 0 --separable --sizes 37x29 --formats NV12 --radii 2 \
  --regions 40 --shape ellipse --feather 3
check cpu uninit 0 --sat --sizes 37x29 --formats RGBA --radii 2 \
  --regions 40 --feather 2 --invert
check cpu uninit 0 --bilateral --sizes 37x29 --formats YUY2 --radii 2 \
  --regions 40 --shape ellipse --feather 1 --sigma-spatial 0
check cpu uninit 0 --bilateral --sizes 37x29 --formats RGB --radii 2 \
  --regions 40 --shape ellipse --feather 9 --sigma-spatial 0
check cpu uninit 0 --bilateral --sizes 37x29 --formats I420 --radii 2 \
  --regions 40 --feather 5 --invert --sigma-spatial 0
# an ellipse's steps kept by the luma's composite by 2x2 blocks and read
# by each chroma plane's (YUY2 above: by 2x1), an odd frame's edge blocks
check cpu uninit 0 --bilateral --sizes 37x29 --formats I420 --radii 2 \
  --regions 40 --shape ellipse --feather 4 --sigma-spatial 0
# regions from the caller's memory (the frame copied to the output on
# the device, which the shadow does not follow: races and bounds), the
# fused kernels into the engine's plane and the composite from it; with
# region-invert into the output, the composite from the input
check cpu races 1 --separable --sizes 37x29 --formats NV12 --radii 2 \
  --regions 40 --shape ellipse --feather 3
check cpu races 1 --sat --sizes 37x29 --formats RGBA --radii 2 \
  --regions 40 --feather 2 --invert
# alpha as the mask (kernels/mask.cl), both classes: RGBA without a
# feather (CPU: mask_x16, fused from the caller's memory, then copied in
# and filtered in place from a copy; GPU: mask_rows, mask_columns), RGBA with a
# feather (CPU: mask_x16 fused, its alpha sums; a feather and radii past
# a 16-pixel step and the frame's width: its padded rows), A420 without and with a
# feather (CPU: mask_planar_x16 from a copy of the plane, its bands
# making the subsampled chroma's alphas), bilateral's blend.
# The masked runs alone (--mask-only: one set of buffers a process, as
# above). mask_x16 and mask_planar_x16 for races and bounds only: their
# vector swizzles crash --uninitialized as the separable CPU kernels'
# shuffles do (and mask_planar_x16 reads a device-side copy, which the
# shadow does not follow).
for class in gpu cpu; do
  # (check sets flags and zc: its own copies here)
  mflags=uninit mzc=0
  [ "$class" = cpu ] && mflags=races mzc=1
  check "$class" "$mflags" "$mzc" --separable --mask --mask-only --sizes 37x23 \
    --formats RGBA --radii 2,9 --border reflect
  check "$class" "$mflags" 0 --separable --mask --mask-only --sizes 35x9 \
    --formats RGBA --radii 3
  check "$class" "$mflags" "$mzc" --separable --mask --mask-only --mask-feather 2 \
    --sizes 27x13 --formats RGBA --radii 3
  check "$class" "$mflags" "$mzc" --separable --mask --mask-only --mask-feather 20 \
    --sizes 37x5 --formats RGBA --radii 9,40 --border replicate
  check "$class" "$mflags" 0 --separable --mask --mask-only --sizes 37x23 \
    --formats A420 --radii 2,9 --border reflect
  check "$class" "$mflags" 0 --separable --mask --mask-only --mask-feather 2 \
    --sizes 29x19 --formats A420 --radii 3
  check "$class" uninit 0 --bilateral --mask --mask-only --mask-feather 1 \
    --sizes 21x15 --formats RGBA --radii 2 --sigma-spatial 0
done
# A420 on the CPU class from the caller's memory (the plan runs direct:
# mask_planar_x16 from the wrapped input into the wrapped output, the
# alpha plane copied; U and V in mask_planar_pair_x16, each band making
# the subsampled alphas of the rows it reads), without and with a feather
check cpu races 1 --separable --mask --mask-only --sizes 37x23 \
  --formats A420 --radii 2,9 --border reflect
check cpu races 1 --separable --mask --mask-only --mask-feather 2 \
  --sizes 29x19 --formats A420 --radii 3
echo "oclgrind-check: $((n - failed)) of $n cases clean in $(($(date +%s) - start)) s ($(oclgrind --version 2>&1 | grep -m1 Oclgrind))"
[ "$failed" -eq 0 ]
