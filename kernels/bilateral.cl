/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bilateral filter: each output sample is the weighted mean of its
 * (2 rx + 1) x (2 ry + 1) window with
 *     weight = spatial[dy][dx] * prod over channels c in dist_mask of
 *              range[|neighbour[c] - centre[c]|]
 * The product of per-channel Gaussians is the Gaussian of the colour
 * distance, so every channel of a pixel gets the same weights and edges stay
 * aligned across channels. Both tables are computed once per parameter
 * change on the host (no exp per pixel), as in the bilateral source document.
 *
 *   bilateral_local   stages the work-group's tile plus its apron in local
 *                     memory, each sample loaded once per work-group
 *   bilateral_global  reads global memory directly, for radii whose tile
 *                     does not fit in local memory; the window whole or
 *                     in blocks
 *
 * With border SHRINK, neighbours outside the frame are skipped.
 *
 * Precision: sums are float, over up to 4095^2 taps. Each row's terms are
 * summed apart and then added to the totals, and the values are taken
 * relative to the centre (the result is centre + sum w (v - centre) / sum w),
 * so the totals stay small and exact enough for +-1 at any radius.
 */

/* Range weight of a difference; samples above max_value (invalid input)
 * must not read past the table. */
float
bilateral_range (__global const float *range, float d, int max_value)
{
    return range[min ((int) fabs (d), max_value)];
}

uint
bilateral_round (float centre, float acc, float wsum, int max_value)
{
    float v = floor (centre + acc / wsum + 0.5f);
    return (uint) clamp (v, 0.0f, (float) max_value);
}

__kernel void
bilateral_local (__global const sample_t *src, int pitch, int pstride,
                 int4 off, int swap, int shift, __global sample_t *dst,
                 int width, int height, int channels, int rx, int ry,
                 int border, __global const float *spatial,
                 __global const float *range, int dist_mask, int max_value,
                 __local float *tile)
{
    int lw = get_local_size (0), lh = get_local_size (1);
    int lx = get_local_id (0), ly = get_local_id (1);
    int tw = lw + 2 * rx, th = lh + 2 * ry;
    /* the group's first pixel: launches may start at an offset (bands) */
    int gx0 = (int) get_global_id (0) - lx - rx;
    int gy0 = (int) get_global_id (1) - ly - ry;

    /* Stage the tile and its apron: 1 sample per work-item per round. */
    for (int i = ly * lw + lx; i < tw * th; i += lw * lh) {
        int ty = i / tw;
        int tx = i - ty * tw;
        int sx = clb_border_index (gx0 + tx, width, border);
        int sy = clb_border_index (gy0 + ty, height, border);
        __local float *t = tile + (size_t) i * channels;
        if (sx < 0 || sy < 0) {
            t[0] = -1.0f; /* outside the frame, SHRINK: skipped */
            continue;
        }
        size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
        for (int c = 0; c < channels; c++)
            t[c] = (float) clb_load (src, b + clb_comp (off, c), swap, shift);
    }
    barrier (CLK_LOCAL_MEM_FENCE);

    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;

    __local const float *centre =
        tile + (size_t) ((ly + ry) * tw + lx + rx) * channels;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float wsum = 0.0f;
    int sw = 2 * rx + 1;

    for (int dy = -ry; dy <= ry; dy++) {
        __local const float *trow =
            tile + (size_t) ((ly + ry + dy) * tw + lx + rx) * channels;
        __global const float *srow = spatial + (dy + ry) * sw + rx;
        float racc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, rw = 0.0f;
        for (int dx = -rx; dx <= rx; dx++) {
            __local const float *t = trow + dx * channels;
            if (t[0] < 0.0f)
                continue;
            float w = srow[dx];
            for (int c = 0; c < channels; c++) {
                if (dist_mask & (1 << c))
                    w *= bilateral_range (range, t[c] - centre[c], max_value);
            }
            rw += w;
            for (int c = 0; c < channels; c++)
                racc[c] += w * (t[c] - centre[c]);
        }
        wsum += rw;
        for (int c = 0; c < channels; c++)
            acc[c] += racc[c];
    }

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   bilateral_round (centre[c], acc[c], wsum, max_value),
                   swap, shift);
}

/* bilateral_global takes the window whole, or in blocks of offsets
 * block.s0 <= dx < block.s1, block.s2 <= dy < block.s3, one launch each
 * (engine.c: on devices that cap loops). Between blocks each pixel's
 * sums wait in sums[(y * width + x) * (channels + 1) ...]: the channels'
 * then the weights'. */
#define CLB_BLOCK_FIRST 1 /* start from 0, not from sums */
#define CLB_BLOCK_LAST 2  /* write the result, not sums */

__kernel void
bilateral_global (__global const sample_t *src, int pitch, int pstride,
                  int4 off, int swap, int shift, __global sample_t *dst,
                  int width, int height, int channels, int rx, int ry,
                  int border, __global const float *spatial,
                  __global const float *range, int dist_mask, int max_value,
                  int4 block, __global float *sums, int mode)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    float centre[4], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float wsum = 0.0f;
    int sw = 2 * rx + 1;

    for (int c = 0; c < channels; c++)
        centre[c] = (float) clb_load (src, o + clb_comp (off, c), swap, shift);

    size_t part = ((size_t) y * width + x) * (channels + 1);
    if (!(mode & CLB_BLOCK_FIRST)) {
        for (int c = 0; c < channels; c++)
            acc[c] = sums[part + c];
        wsum = sums[part + channels];
    }

    for (int dy = block.s2; dy < block.s3; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        float racc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, rw = 0.0f;
        for (int dx = block.s0; dx < block.s1; dx++) {
            int sx = clb_border_index (x + dx, width, border);
            if (sx < 0)
                continue;
            size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
            float v[4];
            float w = spatial[(dy + ry) * sw + dx + rx];
            for (int c = 0; c < channels; c++) {
                v[c] = (float) clb_load (src, b + clb_comp (off, c), swap,
                                         shift);
                if (dist_mask & (1 << c))
                    w *= bilateral_range (range, v[c] - centre[c], max_value);
            }
            rw += w;
            for (int c = 0; c < channels; c++)
                racc[c] += w * (v[c] - centre[c]);
        }
        wsum += rw;
        for (int c = 0; c < channels; c++)
            acc[c] += racc[c];
    }

    if (!(mode & CLB_BLOCK_LAST)) {
        for (int c = 0; c < channels; c++)
            sums[part + c] = acc[c];
        sums[part + channels] = wsum;
        return;
    }
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   bilateral_round (centre[c], acc[c], wsum, max_value),
                   swap, shift);
}

#if CLB_SAMPLE_BITS == 8
/* bilateral_x16: CPUs, dense 8-bit jobs (1 to 4 channels back to back).
 * One work-item per 16 adjacent pixels of a row, the pixels in the lanes
 * of float16 vectors, one vector per channel. A tap's weight, spatial
 * times range, is one power of 2 computed in the lanes,
 * 2^(ks (dx^2 + dy^2) + sum k d^2), with no table: the same product of
 * Gaussians the other kernels read from the tables. Measured on PoCL
 * (AVX-512), the 16-lane gather of a range table (GRAY8) cost 1.2x the
 * computed weight, and a colour distance's table would not fit a cache.
 * Exponents are cut at -60 so that no weight is denormal: the cost does
 * not depend on the picture. Blocks whose window crosses the left or
 * right edge read their samples through the border mapping. */

#define CLB_SHUF_U8(a, b, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, \
                    m12, m13, m14, m15)                                     \
    CLB_SHUFFLE16 (uchar16, a, b, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9,   \
                   m10, m11, m12, m13, m14, m15)

/* Channel k of the 16 pixels from p on, as floats. */
float16
bilateral_channel16 (__global const uchar *p, int channels, int k)
{
    uchar16 a = CLB_LOAD16 (uchar, p), r;
    if (channels == 1)
        return convert_float16 (a);
    uchar16 b = CLB_LOAD16 (uchar, p + 16);
    if (channels == 2) {
        r = k == 0 ? CLB_SHUF_U8 (a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                  22, 24, 26, 28, 30)
            : CLB_SHUF_U8 (a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23,
                           25, 27, 29, 31);
        return convert_float16 (r);
    }
    uchar16 c = CLB_LOAD16 (uchar, p + 32);
    if (channels == 3) {
        uchar16 t;
        if (k == 0) {
            t = CLB_SHUF_U8 (a, b, 0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0,
                             0, 0, 0, 0);
            r = CLB_SHUF_U8 (t, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 17, 20,
                             23, 26, 29);
        } else if (k == 1) {
            t = CLB_SHUF_U8 (a, b, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0,
                             0, 0, 0, 0);
            r = CLB_SHUF_U8 (t, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 18, 21,
                             24, 27, 30);
        } else {
            t = CLB_SHUF_U8 (a, b, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0,
                             0, 0, 0, 0);
            r = CLB_SHUF_U8 (t, c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 19, 22,
                             25, 28, 31);
        }
        return convert_float16 (r);
    }
    uchar16 d = CLB_LOAD16 (uchar, p + 48), lo, hi;
    if (k == 0) {
        lo = CLB_SHUF_U8 (a, b, 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0,
                          0, 0);
        hi = CLB_SHUF_U8 (c, d, 0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0,
                          0, 0);
    } else if (k == 1) {
        lo = CLB_SHUF_U8 (a, b, 1, 5, 9, 13, 17, 21, 25, 29, 0, 0, 0, 0, 0, 0,
                          0, 0);
        hi = CLB_SHUF_U8 (c, d, 1, 5, 9, 13, 17, 21, 25, 29, 0, 0, 0, 0, 0, 0,
                          0, 0);
    } else if (k == 2) {
        lo = CLB_SHUF_U8 (a, b, 2, 6, 10, 14, 18, 22, 26, 30, 0, 0, 0, 0, 0,
                          0, 0, 0);
        hi = CLB_SHUF_U8 (c, d, 2, 6, 10, 14, 18, 22, 26, 30, 0, 0, 0, 0, 0,
                          0, 0, 0);
    } else {
        lo = CLB_SHUF_U8 (a, b, 3, 7, 11, 15, 19, 23, 27, 31, 0, 0, 0, 0, 0,
                          0, 0, 0);
        hi = CLB_SHUF_U8 (c, d, 3, 7, 11, 15, 19, 23, 27, 31, 0, 0, 0, 0, 0,
                          0, 0, 0);
    }
    r = CLB_SHUF_U8 (lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21,
                     22, 23);
    return convert_float16 (r);
}

/* The 16 lanes' samples at pixels x .. x + 15 of row sy, border-mapped
 * (clamped into the row: lanes past the right end are not stored), in
 * f[channel * 16 + lane]; in[lane] is 0 where SHRINK leaves the pixel out. */
void
bilateral_gather16 (__global const uchar *src, int pitch, int sy, int x,
                    int width, int channels, int border, float *f, float *in)
{
    for (int i = 0; i < 16; i++) {
        int sx = clb_border_index (x + i, width, border);
        in[i] = sx >= 0 ? 1.0f : 0.0f;
        sx = clamp (sx, 0, width - 1);
        __global const uchar *q = src + (size_t) sy * pitch
            + (size_t) sx * channels;
        for (int c = 0; c < channels; c++)
            f[c * 16 + i] = (float) q[c];
    }
}

/* a * b + c, one expression: OpenCL C contracts it (FP_CONTRACT is on by
 * default) into one fused multiply-add where the device has one; PoCL's
 * mad () is a multiply then an add. */
#define CLB_MAD(a, b, c) ((a) * (b) + (c))

/* 2^(t - 126.5) for 16 lanes, the weight of a tap whose exponent of 2,
 * spatial and range together, is t - 126.5 <= 0 (the offset folded into
 * the spatial term by the caller). t is cut at 66.5 (a weight of 2^-60:
 * below anything the rounding of a sum of up to 4095^2 taps of 255 can
 * see, and a normal float: no denormals, which CPUs compute a hundred
 * times slower), then split into k = floor (t) (a conversion: t > 0),
 * written into a float's exponent bits as 2^(k - 127), and g = t - k in
 * [0, 1), 2^(g + 1/2) by a polynomial of degree 3 fitted to it (relative
 * error below 8e-5: the result moves by less than 0.05 at 255). */
CLB_INLINE float16
bilateral_exp2_16 (float16 t)
{
    t = fmax (t, 66.5f);
    int16 k = convert_int16 (t);
    float16 g = t - convert_float16 (k);
    float16 p = CLB_MAD (CLB_MAD (CLB_MAD (0.11034340f, g, 0.31970805f), g,
                                  0.98405641f), g, 1.41410792f);
    return p * as_float16 (k << 23);
}

/* The window sums of a block: inlined with a constant channel count for
 * the inner blocks, so that no arithmetic is spent on absent channels.
 * k holds each channel's factor of the squared distance in the exponent
 * of 2 (0 for channels out of the distance), ks the spatial one of the
 * squared offset. Edge blocks stage each window row's span, border-mapped,
 * in private memory, CLB_EDGE_TAPS taps (CLB_EDGE_SPAN pixels) at a
 * time (kernels/loops.h, which counts these loops for the host:
 * CLB_LOOPS_BILATERAL_X16). */

CLB_INLINE void
bilateral_rows16 (__global const uchar *src, int src_pitch, int x0, int y,
                  int width, int height, int channels, int rx, int ry,
                  int border, float4 k, float ks, int edge,
                  float16 ce0, float16 ce1, float16 ce2, float16 ce3,
                  float16 * acc)
{
    float16 a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f, wsum = 0.0f;
    float ef[4 * CLB_EDGE_SPAN], ein[CLB_EDGE_SPAN], sxe[CLB_EDGE_SPAN];
    float sxr[CLB_EDGE_SPAN];
    int sw = 2 * rx + 1;
    /* the spatial exponent of each column offset, once (a broadcast load
     * a tap), where the window is at most CLB_EDGE_SPAN wide */
    int xt = sw <= CLB_EDGE_SPAN;
    for (int dx = 0; xt && dx < sw; dx++)
        sxe[dx] = ks * (float) ((dx - rx) * (dx - rx));

    for (int dy = -ry; dy <= ry; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        __global const uchar *p = src + (size_t) sy * src_pitch
            + (size_t) max (x0 - rx, 0) * channels;   /* unused if edge */
        float sdy = CLB_MAD (ks, (float) (dy * dy), 126.5f);
        float16 r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f, rw = 0.0f;
        int e0 = 0;     /* edge: the first tap of the staged chunk */
        /* inner blocks of several channels whose window is at most
         * CLB_EDGE_SPAN - 15 wide: the row's span of sw + 15 pixels
         * staged as floats, a channel each, 16 pixels a vector step (the
         * last step ending at the span's end), so that a tap is one load
         * a channel, not a widening load, a conversion and the shuffles
         * that take a channel out of interleaved pixels (with one
         * channel, loads right after the stores cost more than they
         * save: GRAY8 1080p radius 4 19 ms to 26 ms); and each tap's
         * spatial exponent, the row's added, in memory (sxr): a
         * broadcast load, not a scalar add and a shuffle */
        int staged = !edge && xt && sw + 15 <= CLB_EDGE_SPAN && channels > 1;
        for (int i = 0; staged && i < sw + 15; i += 16) {
            int j = min (i, sw - 1);
            __global const uchar *q = p + (size_t) j * channels;
            vstore16 (bilateral_channel16 (q, channels, 0), 0, ef + j);
            if (channels > 1)
                vstore16 (bilateral_channel16 (q, channels, 1), 0,
                          ef + CLB_EDGE_SPAN + j);
            if (channels > 2)
                vstore16 (bilateral_channel16 (q, channels, 2), 0,
                          ef + 2 * CLB_EDGE_SPAN + j);
            if (channels > 3)
                vstore16 (bilateral_channel16 (q, channels, 3), 0,
                          ef + 3 * CLB_EDGE_SPAN + j);
        }
        for (int dx = 0; xt && dx < sw; dx++)
            sxr[dx] = sdy + sxe[dx];
        for (int dx = 0; dx < sw; dx++, p += channels) {
            float16 v0, v1 = 0.0f, v2 = 0.0f, v3 = 0.0f, w, inside = 1.0f;
            if (edge) {
                /* the row's span, border-mapped, CLB_EDGE_TAPS taps at a
                 * time: their 16 + CLB_EDGE_TAPS - 1 pixels */
                if (dx == 0 || dx - e0 == CLB_EDGE_TAPS) {
                    e0 = dx;
                    int n = min (CLB_EDGE_SPAN, sw - dx + 15);
                    for (int i = 0; i < n; i++) {
                        int sx = clb_border_index (x0 - rx + dx + i, width,
                                                   border);
                        ein[i] = sx >= 0 ? 1.0f : 0.0f;
                        sx = clamp (sx, 0, width - 1);
                        __global const uchar *q = src
                            + (size_t) sy * src_pitch
                            + (size_t) sx * channels;
                        for (int c = 0; c < channels; c++)
                            ef[c * CLB_EDGE_SPAN + i] = (float) q[c];
                    }
                }
                int o = dx - e0;
                v0 = vload16 (0, ef + o);
                if (channels > 1)
                    v1 = vload16 (0, ef + CLB_EDGE_SPAN + o);
                if (channels > 2)
                    v2 = vload16 (0, ef + 2 * CLB_EDGE_SPAN + o);
                if (channels > 3)
                    v3 = vload16 (0, ef + 3 * CLB_EDGE_SPAN + o);
                inside = vload16 (0, ein + o);
            } else if (staged) {
                v0 = vload16 (0, ef + dx);
                if (channels > 1)
                    v1 = vload16 (0, ef + CLB_EDGE_SPAN + dx);
                if (channels > 2)
                    v2 = vload16 (0, ef + 2 * CLB_EDGE_SPAN + dx);
                if (channels > 3)
                    v3 = vload16 (0, ef + 3 * CLB_EDGE_SPAN + dx);
            } else {
                v0 = bilateral_channel16 (p, channels, 0);
                if (channels > 1)
                    v1 = bilateral_channel16 (p, channels, 1);
                if (channels > 2)
                    v2 = bilateral_channel16 (p, channels, 2);
                if (channels > 3)
                    v3 = bilateral_channel16 (p, channels, 3);
            }
            float16 d0 = v0 - ce0, d1 = v1 - ce1, d2 = v2 - ce2, d3 = v3 - ce3;
            /* the tap's spatial exponent and the row's, added once as
             * scalars: one vector add a tap fewer */
            float sx = xt ? sxr[dx]
                : sdy + ks * (float) ((dx - rx) * (dx - rx));
            float16 t = CLB_MAD (k.s0 * d0, d0, (float16) sx);
            if (channels > 1)
                t = CLB_MAD (k.s1 * d1, d1, t);
            if (channels > 2)
                t = CLB_MAD (k.s2 * d2, d2, t);
            if (channels > 3)
                t = CLB_MAD (k.s3 * d3, d3, t);
            w = bilateral_exp2_16 (t);
            if (edge)
                w *= inside;
            rw += w;
            r0 = CLB_MAD (w, d0, r0);
            if (channels > 1)
                r1 = CLB_MAD (w, d1, r1);
            if (channels > 2)
                r2 = CLB_MAD (w, d2, r2);
            if (channels > 3)
                r3 = CLB_MAD (w, d3, r3);
        }
        wsum += rw;
        a0 += r0;
        a1 += r1;
        a2 += r2;
        a3 += r3;
    }

    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    acc[4] = wsum;
}

/* k: each channel's factor of the squared distance in the exponent of 2,
 * -log2 (e) / (2 sigma^2) or 0 where the channel is out of the distance;
 * ks: the same of the squared offset (the spatial sigma's; 0 without):
 * the weight is 2^(ks (dx^2 + dy^2) + sum k d^2), one exponential a tap
 * for any channel count, no table. y_end: the
 * band's end, the work-items past it (the launch is rounded up to whole
 * work-groups) do nothing. */
__kernel void
bilateral_x16 (__global const uchar *src, int src_pitch, __global uchar *dst,
               int dst_pitch, int width, int height, int channels, int rx,
               int ry, int border, float4 k, float ks, int keep, int y_end)
{
    int blocks = (width + 15) / 16;
    int id = get_global_id (0);
    int y = id / blocks, x0 = (id - y * blocks) * 16;
    if (y >= min (height, y_end))
        return;

    /* blocks whose window crosses the left or right end gather each
     * lane's samples through the border mapping */
    int edge = x0 - rx < 0 || x0 + 15 + rx >= width;
    float f[64], in[16];
    float16 ce0, ce1 = 0.0f, ce2 = 0.0f, ce3 = 0.0f;
    __global const uchar *row0 = src + (size_t) y * src_pitch
        + (size_t) x0 * channels;
    if (edge) {
        bilateral_gather16 (src, src_pitch, y, x0, width, channels,
                            CLB_BORDER_REPLICATE, f, in);
        ce0 = vload16 (0, f);
        if (channels > 1)
            ce1 = vload16 (1, f);
        if (channels > 2)
            ce2 = vload16 (2, f);
        if (channels > 3)
            ce3 = vload16 (3, f);
    } else {
        ce0 = bilateral_channel16 (row0, channels, 0);
        if (channels > 1)
            ce1 = bilateral_channel16 (row0, channels, 1);
        if (channels > 2)
            ce2 = bilateral_channel16 (row0, channels, 2);
        if (channels > 3)
            ce3 = bilateral_channel16 (row0, channels, 3);
    }
    float16 acc[5];
    /* edge blocks: any channel count; inner ones: a constant one */
#define CLB_ROWS16(C, EDGE) bilateral_rows16 (src, src_pitch, x0, y, width, \
    height, C, rx, ry, border, k, ks, EDGE, ce0, ce1, ce2, ce3, acc)
    if (edge)
        CLB_ROWS16 (channels, 1);
    else if (channels == 1)
        CLB_ROWS16 (1, 0);
    else if (channels == 2)
        CLB_ROWS16 (2, 0);
    else if (channels == 3)
        CLB_ROWS16 (3, 0);
    else
        CLB_ROWS16 (4, 0);
#undef CLB_ROWS16
    float16 wsum = acc[4];
    /* kept channels: the centre's sample */
    float16 a0 = keep & 1 ? 0.0f : acc[0] / wsum;
    float16 a1 = keep & 2 ? 0.0f : acc[1] / wsum;
    float16 a2 = keep & 4 ? 0.0f : acc[2] / wsum;
    float16 a3 = keep & 8 ? 0.0f : acc[3] / wsum;

    float v0[16], v1[16], v2[16], v3[16];
    vstore16 (clamp (floor (ce0 + a0 + 0.5f), 0.0f, 255.0f), 0, v0);
    vstore16 (clamp (floor (ce1 + a1 + 0.5f), 0.0f, 255.0f), 0, v1);
    vstore16 (clamp (floor (ce2 + a2 + 0.5f), 0.0f, 255.0f), 0, v2);
    vstore16 (clamp (floor (ce3 + a3 + 0.5f), 0.0f, 255.0f), 0, v3);
    __global uchar *o = dst + (size_t) y * dst_pitch + (size_t) x0 * channels;
    for (int i = 0; i < min (16, width - x0); i++) {
        o[i * channels] = (uchar) v0[i];
        if (channels > 1)
            o[i * channels + 1] = (uchar) v1[i];
        if (channels > 2)
            o[i * channels + 2] = (uchar) v2[i];
        if (channels > 3)
            o[i * channels + 3] = (uchar) v3[i];
    }
}
#endif
