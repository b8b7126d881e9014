/* Plain-C reference blur for clboxblur's tests and benchmarks.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from the definitions, independently of the OpenCL kernels, and
 * kept out of gst/ so it shares no code (and no bugs) with the element.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef enum {
  REF_BORDER_SHRINK,      /* window clipped to the frame */
  REF_BORDER_REPLICATE,   /* aaa|abcd|ddd */
  REF_BORDER_REFLECT,     /* cb|abcd|cb, period 2 (n - 1) */
} RefBorder;

/* Maps an index of the extended line to a sample of a line of @len
 * samples, or -1 when the sample is outside and @border is SHRINK. */
int ref_border_index (int i, int len, RefBorder border);

/* Box blur of a plane of @width x @height pixels of @channels interleaved
 * 8-bit samples: each output sample is the mean of the
 * (2 rx + 1) x (2 ry + 1) window, rounded to nearest ((sum + n / 2) / n).
 * Returns 0, or -1 when out of memory. */
int ref_box_blur_u8 (const uint8_t * src, size_t src_stride, uint8_t * dst,
    size_t dst_stride, int width, int height, int channels, int rx, int ry,
    RefBorder border);

/* Box blur of a plane of @width x @height pixels of @channels interleaved
 * samples. Samples are uint16_t (8-bit values fit too), interleaved and
 * packed: sample (x, y, c) is at buf[((size_t) y * width + x) * channels + c].
 *
 * The box blur is repeated @passes times (@passes >= 1; 0 or less copies
 * @src to @dst): each pass takes the previous pass's rounded output as its
 * input. Each output sample is the mean of the (2 rx + 1) x (2 ry + 1)
 * window, using 64-bit sums, rounded to nearest as (sum + n / 2) / n in
 * unsigned integer arithmetic, where n is the number of samples counted:
 * for REF_BORDER_SHRINK only window samples inside the frame count; for
 * REPLICATE / REFLECT every window position counts, mapped through
 * ref_border_index. The window sums are slid one sample at a time, so the
 * cost per sample does not depend on the radii.
 *
 * Requires @channels >= 1, @rx >= 0, @ry >= 0. @src and @dst may not alias.
 * Returns 0, or -1 when out of memory or on invalid arguments. */
int ref_box_blur (const uint16_t * src, uint16_t * dst, int width,
    int height, int channels, int rx, int ry, RefBorder border, int passes);

/* Bilateral filter in double precision, same sample layout as ref_box_blur.
 * For each pixel (x, y) and each window offset (dx, dy) with |dx| <= rx,
 * |dy| <= ry: the neighbour is at (x + dx, y + dy) mapped through
 * ref_border_index on each axis; with REF_BORDER_SHRINK a neighbour outside
 * the frame is skipped entirely.
 *   weight = exp (-(dx*dx + dy*dy) / (2 sigma_spatial^2))
 *          * exp (-D / (2 s^2)),
 * where s = sigma_range * max_value / 255.0 (@sigma_range is given in 8-bit
 * intensity units and scaled for deeper samples), and
 *   D = sum over channels c whose bit is set in @dist_mask of
 *       (neighbour[c] - centre[c])^2   (differences in native sample units).
 * If @dist_mask has no bit set within 0..channels-1, D = 0.
 * Every channel c (in @dist_mask or not) of the output is
 *   floor (sum (weight * neighbour[c]) / sum (weight) + 0.5),
 * clamped to [0, max_value]. The centre pixel always has weight 1, so
 * sum (weight) > 0.
 * If @sigma_spatial <= 0 the spatial factor is 1 for all offsets; if
 * @sigma_range <= 0 the range factor is 1 when D == 0 and 0 otherwise.
 *
 * Requires @channels >= 1, @rx >= 0, @ry >= 0. @src and @dst may not alias.
 * Returns 0, or -1 when out of memory or on invalid arguments. */
int ref_bilateral (const uint16_t * src, uint16_t * dst, int width,
    int height, int channels, int rx, int ry, RefBorder border,
    double sigma_spatial, double sigma_range, unsigned dist_mask,
    int max_value);

/* One output sample of the box blur, by brute force over the window (no
 * sliding sums): for spot checks of frames too large for a full reference.
 * Samples as in ref_box_blur, rows @stride samples apart. */
uint16_t ref_box_pixel (const uint8_t * src, size_t stride, int width,
    int height, int channels, int x, int y, int c, int rx, int ry,
    RefBorder border);

/* Mosaic, same sample layout as ref_box_blur: the plane is cut into blocks
 * of @bw x @bh pixels starting at (0, 0); the blocks in the last column
 * and row are cut off by the frame's edge. Every sample of channel c in a
 * block is (S + n / 2) / n in unsigned integers, S the sum of channel c
 * over the block's pixels inside the frame and n their number.
 * Requires @bw >= 1, @bh >= 1. Returns 0, or -1 on invalid arguments. */
int ref_mosaic (const uint16_t * src, uint16_t * dst, int width, int height,
    int channels, int bw, int bh);

/* The Y, U, V samples (@bits 8..16 deep) of the 8-bit colour R, G, B, as
 * clboxblur's fill converts it, in integers: the matrix's Kr and Kb (BT.601:
 * 0.299, 0.114; BT.709: 0.2126, 0.0722; BT.2020: 0.2627, 0.0593) in 1/65536
 * units, KR = round (65536 Kr), KB = round (65536 Kb), KG = 65536 - KR - KB;
 *   E = KR R + KG G + KB B                      (luma, x 65536)
 *   DB = 65536 B - E,  DR = 65536 R - E         (colour differences)
 * limited range (m = 2^(bits - 8)):
 *   Y = 16 m + div (219 m E, 255 x 65536)
 *   U = 128 m + div (224 m DB, 255 x 2 (65536 - KB))
 *   V = 128 m + div (224 m DR, 255 x 2 (65536 - KR))
 * full range (max = 2^bits - 1):
 *   Y = div (max E, 255 x 65536)
 *   U = 2^(bits - 1) + div (max DB, 255 x 2 (65536 - KB)), V likewise,
 * div rounding to nearest, halves away from zero; each clamped to 0..max. */
void ref_rgb_to_yuv (int r, int g, int b, double kr, double kb, int bits,
    int full_range, int yuv[3]);
/* Region shapes, as clboxblur's region-shape documents them. */
typedef enum {
  REF_SHAPE_RECTANGLE,
  REF_SHAPE_ELLIPSE,
} RefShape;

/* Region corners are clamped to +-REF_REGION_LIMIT. */
#define REF_REGION_LIMIT (1 << 28)

/* Whether the centre of pixel (@px, @py) of the full-resolution frame lies
 * in region (@x, @y, @w, @h) of @shape grown by @t pixels:
 *   rectangle: dx = max (x0 - px, px - (x1 - 1), 0), dy likewise, and
 *              dx^2 + dy^2 <= t^2;
 *   ellipse:   the ellipse inscribed in the rectangle with both semi-axes
 *              grown by t, the pixel's centre (px + 1/2, py + 1/2) in it
 *              (boundary included).
 * (x0, y0) = (@x, @y), (x1, y1) = (@x + @w, @y + @h), each clamped to
 * +-REF_REGION_LIMIT; a region with x1 <= x0 or y1 <= y0 holds nothing. */
int ref_region_holds (RefShape shape, int64_t x, int64_t y, int64_t w,
    int64_t h, int px, int py, int t);

/* The weight (0..feather + 1) of the filtered value of sample (@x, @y) of
 * a plane subsampled by (2^@xs, 2^@ys) of a frame of @width x @height
 * pixels, under @n regions (@rects: x, y, w, h each) of @shape: the sample
 * covers the frame's pixels [x 2^xs, (x + 1) 2^xs) x [y 2^ys, (y + 1) 2^ys)
 * that lie in the frame; t is the least step 0..@feather at which one of
 * them is held by one of the regions (ref_region_holds), and the weight is
 * feather + 1 - t, or 0 when there is none. With @invert, feather + 1
 * minus that. */
int ref_region_weight (RefShape shape, int feather, int invert,
    const int (*rects)[4], int n, int width, int height, int xs, int ys,
    int x, int y);

/* (w * filtered + (W - w) * original + W / 2) / W, in integers. */
unsigned ref_blend (unsigned w, unsigned W, unsigned filtered,
    unsigned original);
/* Alpha as the foreground mask (the element's alpha-mask), by brute force
 * over each window. @src: @width x @height pixels of @channels samples
 * (packed as in ref_box_blur); @alpha: one alpha a pixel, the weights'
 * (w = @amax - alpha); @blend_alpha: one a pixel for the blend (the alpha,
 * or the feathered one: ref_box_blur of the alpha, one channel). Per
 * channel, over the (2 rx + 1) x (2 ry + 1) window whose positions are
 * mapped through ref_border_index on each axis (SHRINK: positions outside
 * skipped), in 64-bit sums:
 *   B = (sum (I w) + sum (w) / 2) / sum (w), B = I where sum (w) = 0
 *   out = (a I + (amax - a) B + amax / 2) / amax.
 * With @filtered not NULL (bilateral and the mask): B = filtered, no
 * window. Returns 0, or -1 on invalid arguments. */
int ref_mask_blur (const uint16_t * src, const uint16_t * alpha,
    const uint16_t * blend_alpha, const uint16_t * filtered, uint16_t * dst,
    int width, int height, int channels, int rx, int ry, RefBorder border,
    int amax);

/* The alpha of a plane subsampled by 2^@xs x 2^@ys (A420's chroma): each
 * sample the rounded mean (sum + n / 2) / n of the n alphas of
 * @alpha (@width x @height) its footprint covers inside the frame (n = 4,
 * or 2 or 1 at the last column / row of an odd size). @out holds
 * ceil (width / 2^xs) x ceil (height / 2^ys) samples. */
void ref_alpha_subsample (const uint16_t * alpha, int width, int height,
    int xs, int ys, uint16_t * out);

/* ---- temporal denoising (method temporal, issue 41) ----
 * Per frame, for a plane of @width x @height pixels of @channels samples
 * (the D channels of @dist_mask judged, every channel filtered):
 * 1. The noise level. Over blocks of 8 x 8 pixels (x = 1 + 8 bx .. 8 +
 *    8 bx, likewise y, whole blocks inside the frame's inner pixels), the
 *    sum s of |L| over the block's pixels and D channels, L the 3 x 3
 *    high-pass [1 -2 1] x [1 -2 1]; a block counts unless a sample of its
 *    10 x 10 footprint (D channels) is 0 or max_value (clipped). Bin
 *    min (((s << 3) / (64 D)) >> ds, 4095) of a 4096-bin histogram, ds =
 *    bits of max_value - 8 (0 for 8 bits). The level e (in 1/16 units of
 *    8-bit intensity) is the 10th percentile's bin b as
 *    round (16 (b + 0.5) 2^ds / 8 / K[D] * 255 / max_value), K[D] that
 *    percentile for Gaussian noise of sigma 1 (ref_noise_level); the
 *    level s smoothed over frames as s = (3 s + e + 2) >> 2 (the first
 *    frame's e as it is).
 *    Frame n is filtered at the level of frames 0 .. n-2 (frames 0 and 1
 *    at frame 0's): the engine reads a frame's histogram back without a
 *    host wait and takes it two frames later.
 * 2. The blend, history h (8 fraction bits a sample) and a count c a
 *    pixel (0 = none): A = sum over the 5 x 5 patch (border replicated)
 *    and D channels of |(x << 8) - h|; where c = 0 or A > agree[c] the
 *    count goes to 1, else where A > keep[c] to max (c / 2, 1), else to
 *    min (c + 1, 2 reach);
 *    h += ((x << 8) - h) * weight[c] + 128 >> 8 (arithmetic shift).
 * 3. The bilateral on h: weights ref_temporal_weight (min (k, kcut[c])
 *    mul[c] + spatial[dy][dx]), k = sum over the D channels of (|dh| >>
 *    rshift)^2, the squared colour distance (a Gaussian's exponents of 2,
 *    range and spatial, summed: the weight one power of 2);
 *    out = (sum w h + (sum w << 7)) / (sum w << 8), clamped; window
 *    positions mapped by ref_border_index (SHRINK skips them).
 * The tables are built by ref_temporal_tables: weight[c] = 256 / min (c,
 * reach) rounded; v_c the variance of h in sigma^2 units (v_1 = 1, v_c =
 * (1 - a)^2 v_(c-1) + a^2, a = weight[c] / 256); agree[c] = 1.2 sigma 256
 * sqrt (2 / pi) sqrt (1 + v_c) 25 D, keep[c] the same with 1.08;
 * mul[c] = 2^24 log2 (e) u^2 / (2 s^2) rounded, within 1 .. 2^24 (2^24
 * where s = 0), s = 3 sigma sqrt (v_c), u = 2^rshift / 256 native units
 * (k u^2: the squared distance), rshift = 6 + ds; kcut[c] = ceil (9 2^24
 * / mul[c]) (past it the weight is 0; the exponent stays below 2^32);
 * sigma in native units. */
#define REF_TEMPORAL_MAX_REACH 32
#define REF_NOISE_BINS 4096

typedef struct {
  int cap;                      /* the largest count: 2 reach */
  int rshift;                   /* |dh| >> rshift indexes range */
  uint32_t weight[2 * REF_TEMPORAL_MAX_REACH + 1];   /* of 256 */
  uint32_t agree[2 * REF_TEMPORAL_MAX_REACH + 1];
  uint32_t keep[2 * REF_TEMPORAL_MAX_REACH + 1];
  uint32_t mul[2 * REF_TEMPORAL_MAX_REACH + 1];     /* of k's exponent */
  uint32_t kcut[2 * REF_TEMPORAL_MAX_REACH + 1];
} RefTemporalTables;

/* 256 2^(-e / 2^24), linear between powers of 2 (exact at them), 0 from
 * e = 9 2^24: ((2^25 - (e mod 2^24)) >> 17) >> (e >> 24), for e < 19 2^24. */
uint32_t ref_temporal_weight (uint32_t e);

/* Tables for noise level @level16 (1/16 of an 8-bit unit), @reach
 * (1..REF_TEMPORAL_MAX_REACH) and @d judged channels. */
void ref_temporal_tables (RefTemporalTables * t, int level16, int reach,
    int d, int max_value);

/* The histogram of step 1 (zeroed first). Returns the blocks counted. */
uint32_t ref_noise_histogram (const uint16_t * src, int width, int height,
    int channels, unsigned dist_mask, int max_value, uint32_t * hist);

/* The level (1/16 of an 8-bit unit) the histogram gives, or -1 when it
 * counts no block. */
int ref_noise_level (const uint32_t * hist, int d, int max_value);

typedef struct {
  uint32_t *history;            /* width x height x channels */
  uint8_t *count;               /* width x height */
  int level16;                  /* the level the last frame was filtered
                                   at (smoothed); -1 before a frame */
  int e[2];                     /* the last two frames' own levels */
  int frames;                   /* frames so far, up to 3 */
  int width, height, channels;
} RefTemporal;

/* Zeroes @t's state for frames of this size (0, or -1 out of memory). */
int ref_temporal_init (RefTemporal * t, int width, int height,
    int channels);
void ref_temporal_clear (RefTemporal * t);
/* One frame: @noise16 > 0 fixes the level (1/16 of an 8-bit unit), 0
 * estimates it (a level of 0 taken as 1; none yet, a frame with no block:
 * 8). The spatial window: (2 rx + 1) x (2 ry + 1) (the caller bounds it
 * as the bilateral's), spatial[dy][dx] = 2^24 log2 (e) (dx^2 + dy^2) /
 * (2 sigma_spatial^2) rounded, at most 9 2^24 (0 where sigma_spatial <=
 * 0): the exponent of 2 of exp (-(dx^2 + dy^2) / (2 sigma_spatial^2)). The level is
 * estimated (and t->level16 kept) whether fixed or not. Returns 0, or -1
 * out of memory or on invalid arguments. */
int ref_temporal_frame (RefTemporal * t, const uint16_t * src,
    uint16_t * dst, unsigned dist_mask, int max_value, int noise16,
    int reach, int rx, int ry, double sigma_spatial, RefBorder border);
