#!/bin/sh
# Makes the before/after pictures in docs/images/ from photographs shipped
# by Debian (scikit-image's sample data, package python3-skimage; sources
# and licences in docs/images/SOURCES.md), each through one gst-launch-1.0
# pipeline with the plugin from the build folder:
#
#   scripts/make-images.sh [BUILD]        (default build/, built already)
#
# Every method, passes=3, sigma, luma or chroma alone, a region, an
# inverted region (background blur), ROI metas attached by a real face
# detector (facedetect, OpenCV), the bilateral filter on a noisy frame, the
# temporal one on a noisy still scene (12 frames), and
# alpha as the mask beside a plain blur (the halo).
# JPEG, 512 pixels wide or less. It also checks that sat and separable give
# byte-identical pixels.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
out=$top/docs/images
data=/usr/lib/python3/dist-packages/skimage/data

# python3-skimage: the photographs; python3-numpy: the noise; facedetect
# (gstreamer1.0-opencv) and its face model (opencv-data): the ROI picture.
"$top/scripts/ensure-packages.sh" python3-skimage python3-numpy \
  gstreamer1.0-opencv opencv-data gstreamer1.0-plugins-good \
  gstreamer1.0-plugins-base gstreamer1.0-tools

[ -f "$build/gst/libgstclboxblur.so" ] ||
  { echo "no plugin in $build/gst: build first (scripts/run.sh demo)" >&2; exit 1; }
export GST_PLUGIN_PATH="$build/gst"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# blur NAME SOURCE.png "CAPS" "FILTER"  ->  docs/images/NAME.jpg
# SOURCE is decoded, converted and scaled to CAPS, then FILTER runs on it.
blur() {
  name=$1 src=$2 caps=$3 filter=$4
  # shellcheck disable=SC2086
  gst-launch-1.0 -q filesrc location="$src" ! pngdec ! videoconvert \
    ! videoscale add-borders=false ! "$caps" ! $filter \
    ! videoconvert ! jpegenc quality=85 ! filesink location="$out/$name.jpg"
  echo "  $name.jpg: $filter"
}

# raw NAME SOURCE.png "CAPS" "FILTER"  ->  $tmp/NAME.raw (for comparisons)
raw() {
  # shellcheck disable=SC2086
  gst-launch-1.0 -q filesrc location="$2" ! pngdec ! videoconvert \
    ! videoscale add-borders=false ! "$3" ! $4 ! filesink location="$tmp/$1.raw"
}

coffee="video/x-raw,format=RGBA,width=512,height=341"
astro="video/x-raw,format=RGB,width=512,height=512"
# Widths are multiples of 16: jpegenc reads whole 16-pixel blocks of each
# I420 row, so with other widths the rows' unwritten padding gets into the
# JPEG and the file changes from run to run (seen with identity alone).
cat_caps="video/x-raw,format=RGBA,width=448,height=298"

echo "methods (coffee.png, 512x341 RGBA):"
blur coffee "$data/coffee.png" "$coffee" identity
blur coffee-sat-r6 "$data/coffee.png" "$coffee" "clboxblur method=sat radius=6"
blur coffee-separable-r6 "$data/coffee.png" "$coffee" \
  "clboxblur method=separable radius=6"
blur coffee-bilateral-r6 "$data/coffee.png" "$coffee" \
  "clboxblur method=bilateral radius=6 sigma-spatial=4 sigma-range=30"
raw sat "$data/coffee.png" "$coffee" "clboxblur method=sat radius=6"
raw sep "$data/coffee.png" "$coffee" "clboxblur method=separable radius=6"
if cmp -s "$tmp/sat.raw" "$tmp/sep.raw"; then
  echo "  sat and separable at radius 6: identical pixels ($(wc -c < "$tmp/sat.raw") bytes compared)"
else
  echo "  sat and separable differ" >&2; exit 1
fi

echo "passes (astronaut.png, 512x512 RGB):"
blur astronaut "$data/astronaut.png" "$astro" identity
blur astronaut-passes1-r4 "$data/astronaut.png" "$astro" \
  "clboxblur radius=4 passes=1"
blur astronaut-passes3-r4 "$data/astronaut.png" "$astro" \
  "clboxblur radius=4 passes=3"

echo "sigma and per-plane radii (astronaut.png, 512x512 RGB and I420):"
astro_i420="video/x-raw,format=I420,width=512,height=512"
blur astronaut-sigma4 "$data/astronaut.png" "$astro" "clboxblur sigma=4"
blur astronaut-luma-only-r6 "$data/astronaut.png" "$astro_i420" \
  "clboxblur radius=6 chroma-radius=0"
blur astronaut-chroma-only-r6 "$data/astronaut.png" "$astro_i420" \
  "clboxblur radius=0 chroma-radius=6"

echo "region and inverted region (chelsea.png scaled to 448x298, coffee.png):"
blur coffee-region "$data/coffee.png" "$coffee" \
  "clboxblur radius=10 region-x=170 region-y=60 region-width=190 region-height=120"
blur chelsea "$data/chelsea.png" "$cat_caps" identity
blur chelsea-region-invert "$data/chelsea.png" "$cat_caps" \
  "clboxblur radius=10 passes=2 region-x=110 region-y=40 region-width=270 region-height=240 region-invert=true"

echo "ROI metas from a face detector (astronaut.png):"
# facedetect attaches a GstVideoRegionOfInterestMeta of type "face" to each
# buffer; OpenCV complains about the nose, mouth and eye models it does not
# find (not needed for faces), hence the filter on its messages.
blur astronaut-roi-face "$data/astronaut.png" "$astro" \
  "facedetect display=false ! clboxblur roi-meta=true roi-type=face roi-padding=12 radius=14" \
  2>&1 | grep -v "Can't open file" || true
[ -s "$out/astronaut-roi-face.jpg" ] || { echo "ROI picture failed" >&2; exit 1; }

echo "bilateral on a noisy frame (camera.png 512x512 GRAY8, Gaussian noise sigma 20):"
gst-launch-1.0 -q filesrc location="$data/camera.png" ! pngdec ! videoconvert \
  ! video/x-raw,format=GRAY8,width=512,height=512 \
  ! filesink location="$tmp/camera.gray"
/usr/bin/python3 - "$tmp/camera.gray" "$tmp/noisy.gray" <<'EOF'
import sys
import numpy as np
img = np.fromfile(sys.argv[1], dtype=np.uint8).astype(np.float64)
rng = np.random.default_rng(17)  # fixed seed: the same picture every run
noisy = np.clip(np.rint(img + rng.normal(0.0, 20.0, img.shape)), 0, 255)
noisy.astype(np.uint8).tofile(sys.argv[2])
EOF
noisy() {
  # shellcheck disable=SC2086
  gst-launch-1.0 -q filesrc location="$tmp/noisy.gray" blocksize=262144 \
    ! rawvideoparse format=gray8 width=512 height=512 framerate=1/1 \
    ! $2 ! videoconvert ! jpegenc quality=90 ! filesink location="$out/$1.jpg"
  echo "  $1.jpg: $2"
}
noisy camera-noisy identity
noisy camera-noisy-box-r2 "clboxblur method=separable radius=2"
noisy camera-noisy-bilateral-r5 \
  "clboxblur method=bilateral radius=5 sigma-spatial=3 sigma-range=40"

echo "temporal on a noisy still scene (the frame above, the last of 12,"
echo "each with noise of its own; the noise level estimated):"
/usr/bin/python3 - "$tmp/camera.gray" "$tmp/noisy.gray" "$tmp/seq.gray" <<'EOF'
import sys
import numpy as np
img = np.fromfile(sys.argv[1], dtype=np.uint8).astype(np.float64)
rng = np.random.default_rng(18)  # frames 0-10; frame 11: the picture above
with open(sys.argv[3], 'wb') as f:
    for _ in range(11):
        n = np.clip(np.rint(img + rng.normal(0.0, 20.0, img.shape)), 0, 255)
        n.astype(np.uint8).tofile(f)
    f.write(open(sys.argv[2], 'rb').read())
EOF
gst-launch-1.0 -q filesrc location="$tmp/seq.gray" blocksize=262144 \
  ! rawvideoparse format=gray8 width=512 height=512 framerate=10/1 \
  ! clboxblur method=temporal radius=2 sigma-spatial=1.5 ! videoconvert \
  ! jpegenc quality=90 ! multifilesink location="$tmp/temporal-%02d.jpg"
cp "$tmp/temporal-11.jpg" "$out/camera-noisy-temporal.jpg"
echo "  camera-noisy-temporal.jpg: clboxblur method=temporal radius=2 sigma-spatial=1.5, frame 11"

echo "alpha as the mask: the halo (a synthetic frame, 512x320 RGBA):"
# A bright figure (alpha 255, soft-edged by 2 pixels) before a dark
# striped background (alpha 0). "plain": the whole frame blurred, then the
# sharp figure put back over it by alpha (what a blur and a blend give):
# the figure's light bleeds into the background around it. "masked":
# alpha-mask=true, the background blurred from background pixels only.
/usr/bin/python3 - "$tmp/scene.rgba" <<'PY'
import sys
import numpy as np
h, w = 320, 512
y, x = np.mgrid[0:h, 0:w].astype(np.float64)
img = np.zeros((h, w, 4), np.float64)
stripes = ((x // 24 + y // 24) % 2) * 40 + 30
img[..., 0] = stripes * 0.5
img[..., 1] = stripes * 0.7
img[..., 2] = stripes + 40
head = np.hypot(x - 256, y - 110) - 60
body = np.maximum(np.abs(x - 256) - 90, y - 330)
body = np.maximum(body, 190 - y)
d = np.minimum(head, np.maximum(body, -1e9))
a = np.clip(0.5 - d / 4.0, 0.0, 1.0)
fig = np.array([250.0, 235.0, 200.0])
for c in range(3):
    img[..., c] = img[..., c] * (1 - a) + fig[c] * a
img[..., 3] = a * 255
np.rint(img).astype(np.uint8).tofile(sys.argv[1])
PY
scene() {
  # shellcheck disable=SC2086
  gst-launch-1.0 -q filesrc location="$tmp/scene.rgba" blocksize=655360 \
    ! rawvideoparse format=rgba width=512 height=320 framerate=1/1 ! $1
}
scene "videoconvert ! jpegenc quality=90 ! filesink location=$out/mask-scene.jpg"
echo "  mask-scene.jpg: the frame (alpha not shown)"
scene "clboxblur radius=12 preserve-alpha=true ! filesink location=$tmp/blurred.rgba"
/usr/bin/python3 - "$tmp/scene.rgba" "$tmp/blurred.rgba" "$tmp/plain.rgba" <<'PY'
import sys
import numpy as np
i = np.fromfile(sys.argv[1], np.uint8).reshape(320, 512, 4).astype(np.uint32)
b = np.fromfile(sys.argv[2], np.uint8).reshape(320, 512, 4).astype(np.uint32)
a = i[..., 3:4]
o = i.copy()
o[..., :3] = (a * i[..., :3] + (255 - a) * b[..., :3] + 127) // 255
o.astype(np.uint8).tofile(sys.argv[3])
PY
gst-launch-1.0 -q filesrc location="$tmp/plain.rgba" blocksize=655360 \
  ! rawvideoparse format=rgba width=512 height=320 framerate=1/1 \
  ! videoconvert ! jpegenc quality=90 ! filesink location="$out/mask-halo-plain.jpg"
echo "  mask-halo-plain.jpg: clboxblur radius=12, then the figure blended back by alpha"
scene "clboxblur radius=12 alpha-mask=true ! videoconvert ! jpegenc quality=90 ! filesink location=$out/mask-halo-masked.jpg"
echo "  mask-halo-masked.jpg: clboxblur radius=12 alpha-mask=true"

set -- "$out"/*.jpg
echo "docs/images: $(du -ck "$@" | tail -n 1 | cut -f1) KiB in $# pictures"
