#!/usr/bin/env python3
# Writes the seed inputs of tests/fuzz/corpus for fuzz_clboxblur.c.
#   python3 tests/fuzz/make_seeds.py [OUTDIR]     (default: next to this file)
# The byte layout is the one described at the top of fuzz_clboxblur.c; keep
# the two in step. The seeds are committed, so this only needs to run again
# when the layout changes.
import os
import sys

FORMATS = [
    "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB",
    "BGR", "GRAY8", "I420", "YV12", "Y42B", "Y444", "NV12", "NV21", "A420",
    "AYUV", "YUY2", "UYVY", "GRAY16_LE", "GRAY16_BE", "RGBA64_LE",
    "P010_10LE", "I420_10LE", "I422_10LE", "Y444_10LE",
]
METHODS = {"sat": 0, "separable": 1, "bilateral": 2}
BORDERS = {"shrink": 0, "replicate": 1, "reflect": 2}
ROI_TYPES = {"face": 0, "plate": 1, "person": 2, "": 3}
HEADER_SIZE = 40


def seed(fmt, width, height, pad=0, radius=4, radius_y=-1, method="sat",
         border="shrink", passes=1, sigma_spatial=3.0, sigma_range=30.0,
         preserve_alpha=False, region_invert=False, roi_meta=False,
         roi_face=False, meta_always=False, undersized=False, buffers=1,
         region=(0, 0, 0, 0), roi_padding=0, rois=(), short_by=128,
         later=0, radius2=0, data=b""):
    h = bytearray(HEADER_SIZE)
    h[0] = FORMATS.index(fmt)
    h[1] = width - 1
    h[2] = height - 1
    h[3] = pad
    h[4] = radius
    h[5] = radius_y + 1
    h[6] = METHODS[method]
    h[7] = BORDERS[border]
    h[8] = passes - 1
    h[9] = round(sigma_spatial * 255 / 100)
    h[10] = round(sigma_range * 255 / 100)
    h[11] = (preserve_alpha << 0 | region_invert << 1 | roi_meta << 2
             | roi_face << 3 | meta_always << 4 | undersized << 5
             | (buffers - 1) << 6)
    h[12:16] = bytes(region)
    h[16] = roi_padding
    h[17] = len(rois)
    for i, (kind, x, y, w, hh, far) in enumerate(rois):
        o = 18 + 5 * i
        h[o] = ROI_TYPES[kind] | (4 if far else 0)
        h[o + 1:o + 5] = bytes((x, y, w, hh))
    h[33] = short_by
    h[34] = later
    h[35] = radius2
    return bytes(h) + data


def ramp(n, step=37, start=0):
    return bytes((start + i * step) & 0xff for i in range(n))


SEEDS = {
    "rgba-sat": seed("RGBA", 16, 12, data=ramp(200)),
    "nv12-separable-3pass-reflect-pad": seed(
        "NV12", 20, 14, pad=7, radius=6, method="separable",
        border="reflect", passes=3, data=ramp(160, 11)),
    "i420-odd-bilateral-replicate": seed(
        "I420", 9, 7, radius=3, method="bilateral", border="replicate",
        sigma_spatial=2.0, sigma_range=40.0, data=ramp(120, 73)),
    "gray8-1x1-r40": seed("GRAY8", 1, 1, radius=40, data=b"\x80"),
    "yuy2-region-invert": seed(
        "YUY2", 13, 5, radius=2, region_invert=True, region=(3, 1, 6, 2),
        data=ramp(100, 5)),
    "p010-bilateral-pad": seed(
        "P010_10LE", 8, 8, pad=5, radius=2, method="bilateral",
        sigma_range=20.0, data=ramp(200, 97)),
    "gray16be-separable-ry0": seed(
        "GRAY16_BE", 32, 4, radius=5, radius_y=0, method="separable",
        data=ramp(128, 201)),
    "rgba64-preserve-alpha": seed(
        "RGBA64_LE", 6, 6, radius=1, preserve_alpha=True,
        border="replicate", data=ramp(192, 13)),
    "a420-roi-meta-face": seed(
        "A420", 10, 10, radius=3, roi_meta=True, roi_face=True,
        roi_padding=2, rois=[("face", 1, 1, 3, 3, False),
                             ("plate", 6, 2, 4, 4, False),
                             ("face", 8, 8, 200, 200, False)],
        data=ramp(150, 29)),
    "ayuv-roi-far-invert": seed(
        "AYUV", 12, 9, radius=2, roi_meta=True, region_invert=True,
        roi_padding=10, rois=[("person", 5, 5, 255, 255, True),
                              ("", 2, 3, 4, 1, False)],
        method="bilateral", data=ramp(180, 7)),
    "rgb-odd-stride-replicate": seed(
        "RGB", 7, 3, pad=3, radius=2, radius_y=1, border="replicate",
        data=ramp(90, 41)),
    "y444-10-undersized": seed(
        "Y444_10LE", 8, 6, radius=2, undersized=True, short_by=200,
        data=ramp(64, 3)),
    "i422-10-meta-3buffers": seed(
        "I422_10LE", 11, 9, radius=4, meta_always=True, buffers=3,
        later=1 | 2 | 4, radius2=9, region=(2, 2, 5, 5),
        data=ramp(120, 59)),
    "bgrx-passthrough-then-radius": seed(
        "BGRx", 5, 4, radius=0, radius_y=-1, buffers=2, later=1, radius2=3,
        data=ramp(80, 17)),
    "uyvy-bilateral-flat-sigma": seed(
        "UYVY", 24, 2, radius=8, method="bilateral", sigma_spatial=0.0,
        sigma_range=0.0, border="reflect", data=ramp(96, 23)),
    "nv21-64x64-sat-r40": seed(
        "NV21", 64, 64, radius=40, passes=3, border="reflect",
        data=ramp(64, 131)),
    # Known bug (over-read of a buffer shorter than its video meta says);
    # with CLBOXBLUR_FUZZ_SKIP_KNOWN=1 the meta is left off.
    "yv12-undersized-pad": seed(
        "YV12", 12, 10, pad=9, radius=3, undersized=True, short_by=200,
        data=ramp(100, 19)),
    # Known bug (0-byte buffer once the radius leaves 0: GstVideoFilter
    # asserts); with CLBOXBLUR_FUZZ_SKIP_KNOWN=1 the buffers hold 1 byte.
    "rgba-passthrough-then-empty": seed(
        "RGBA", 4, 4, radius=0, buffers=2, later=1, radius2=3,
        undersized=True, short_by=0),
    "y42b-radius-y-only": seed(
        "Y42B", 10, 16, radius=0, radius_y=7, method="separable",
        border="replicate", preserve_alpha=True, data=ramp(100, 67)),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("wrote %d seeds to %s" % (len(SEEDS), out))


if __name__ == "__main__":
    main()
