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
 *   bilateral_global  reads global memory directly, for windows
 *                     bilateral_gpu (gpu_bilateral.cl: the tile in local
 *                     memory, on every device) does not take: its tables
 *                     past constant memory, its tile past local memory,
 *                     its loops past a device's cap; the window whole or
 *                     in blocks
 *
 * With border SHRINK, neighbours outside the frame are skipped.
 *
 * Precision: sums are float, over up to 4095^2 taps. Each row's terms are
 * summed apart and then added to the totals, and the values are taken
 * relative to the centre (the result is centre + sum w (v - centre) / sum w),
 * so the totals stay small and exact enough for +-1 at any radius.
 */

uint
bilateral_round (float centre, float acc, float wsum, int max_value)
{
    float v = floor (centre + acc / wsum + 0.5f);
    return (uint) clamp (v, 0.0f, (float) max_value);
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
    float centre[4], v[4], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
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
            /* the tap's weight: spatial times the distance's channels'
             * range weights (samples above max_value, invalid input, not
             * read past the table) */
            float w = spatial[(dy + ry) * sw + dx + rx];
            for (int c = 0; c < channels; c++) {
                v[c] = (float) clb_load (src, b + clb_comp (off, c), swap,
                                         shift) - centre[c];
                if (dist_mask & (1 << c))
                    w *= range[min ((int) fabs (v[c]), max_value)];
            }
            rw += w;
            for (int c = 0; c < channels; c++)
                racc[c] += w * v[c];
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

/* Channel k of the 16 pixels from p on, as floats. */
float16
bilateral_channel16 (__global const uchar *p, int channels, int k)
{
    uchar16 a = CLB_LOAD16 (uchar, p);
    if (channels == 1)
        return convert_float16 (a);
    uchar16 b = CLB_LOAD16 (uchar, p + 16);
    uchar16 c = channels > 2 ? CLB_LOAD16 (uchar, p + 32) : a;
    uchar16 d = channels > 3 ? CLB_LOAD16 (uchar, p + 48) : a;
#define CLB_DEAL_K(K) CLB_DEAL16 (uchar16, channels, K, a, b, c, d)
    return convert_float16 (k == 0 ? CLB_DEAL_K (0) : k == 1 ? CLB_DEAL_K (1)
                            : k == 2 ? CLB_DEAL_K (2) : CLB_DEAL_K (3));
#undef CLB_DEAL_K
}

/* The samples at pixels x .. x + n - 1 of row sy, border-mapped (clamped
 * into the row: lanes past the right end are not stored), in f[channel *
 * CLB_EDGE_SPAN + i]; in[i] is 0 where SHRINK leaves the pixel out. */
void
bilateral_gather (__global const uchar *src, int pitch, int sy, int x,
                  int n, int width, int channels, int border, float *f,
                  float *in)
{
    for (int i = 0; i < n; i++) {
        int sx = clb_border_index (x + i, width, border);
        in[i] = sx >= 0 ? 1.0f : 0.0f;
        sx = clamp (sx, 0, width - 1);
        __global const uchar *q = src + (size_t) sy * pitch
            + (size_t) sx * channels;
        for (int c = 0; c < channels; c++)
            f[c * CLB_EDGE_SPAN + i] = (float) q[c];
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
 * CLB_LOOPS_BILATERAL_X16). acc: the channels' sums, then the weights'. */
CLB_INLINE void
bilateral_rows16 (__global const uchar *src, int src_pitch, int x0, int y,
                  int width, int height, int channels, int rx, int ry,
                  int border, float4 k, float ks, int edge, float16 ce0,
                  float16 ce1, float16 ce2, float16 ce3, float16 *acc)
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
    /* inner blocks of several channels whose window is at most
     * CLB_EDGE_SPAN - 15 wide: each row's span of sw + 15 pixels staged
     * as floats, a channel each, 16 pixels a vector step (the last step
     * ending at the span's end), so that a tap is one load a channel,
     * not a widening load, a conversion and the shuffles that take a
     * channel out of interleaved pixels (with one channel, loads right
     * after the stores cost more than they save: GRAY8 1080p radius 4 19
     * ms to 26 ms); and each tap's spatial exponent, the row's added, in
     * memory (sxr): a broadcast load, not a scalar add and a shuffle */
    int staged = !edge && xt && sw + 15 <= CLB_EDGE_SPAN && channels > 1;
    int from_ef = edge || staged;
    /* S (c) for each channel c: its vectors v##c, d##c, r##c, a##c */
#define CLB_EACH(S)                                                         \
    do {                                                                    \
        { S (0); }                                                          \
        if (channels > 1) { S (1); }                                        \
        if (channels > 2) { S (2); }                                        \
        if (channels > 3) { S (3); }                                        \
    } while (0)
#define CLB_STAGE(c) vstore16 (bilateral_channel16 (q, channels, c), 0, \
                               ef + c * CLB_EDGE_SPAN + j)
#define CLB_TAP(c, v) d##c = (v) - ce##c; t = CLB_MAD (k.s##c * d##c, d##c, t)
#define CLB_TAP_EF(c) CLB_TAP (c, vload16 (0, e + c * CLB_EDGE_SPAN))
#define CLB_TAP_P(c) CLB_TAP (c, bilateral_channel16 (p, channels, c))
#define CLB_SUM(c) r##c = CLB_MAD (w, d##c, r##c)
#define CLB_ROW(c) a##c += r##c

    for (int dy = -ry; dy <= ry; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        __global const uchar *p = src + (size_t) sy * src_pitch
            + (size_t) max (x0 - rx, 0) * channels;   /* unused if edge */
        float sdy = CLB_MAD (ks, (float) (dy * dy), 126.5f);
        float16 r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f, rw = 0.0f;
        const float *e = ef;    /* the tap's pixel in ef */
        for (int i = 0; staged && i < sw + 15; i += 16) {
            int j = min (i, sw - 1);
            __global const uchar *q = p + (size_t) j * channels;
            CLB_EACH (CLB_STAGE);
        }
        for (int dx = 0; xt && dx < sw; dx++)
            sxr[dx] = sdy + sxe[dx];
        for (int dx = 0; dx < sw; dx++, p += channels, e++) {
            float16 d0, d1, d2, d3, w;
            /* edge: the row's span, border-mapped, CLB_EDGE_TAPS taps at
             * a time: their 16 + CLB_EDGE_TAPS - 1 pixels */
            if (edge && (dx == 0 || e == ef + CLB_EDGE_TAPS)) {
                e = ef;
                bilateral_gather (src, src_pitch, sy, x0 - rx + dx,
                                  min (CLB_EDGE_SPAN, sw - dx + 15), width,
                                  channels, border, ef, ein);
            }
            /* the tap's spatial exponent and the row's, added once as
             * scalars: one vector add a tap fewer */
            float16 t = (float16) (xt ? sxr[dx]
                                   : sdy + ks * (float) ((dx - rx) * (dx - rx)));
            if (from_ef)
                CLB_EACH (CLB_TAP_EF);
            else
                CLB_EACH (CLB_TAP_P);
            w = bilateral_exp2_16 (t);
            if (edge)
                w *= vload16 (0, ein + (e - ef));
            rw += w;
            CLB_EACH (CLB_SUM);
        }
        wsum += rw;
        CLB_EACH (CLB_ROW);
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
    acc[4] = wsum;
#undef CLB_EACH
#undef CLB_STAGE
#undef CLB_TAP
#undef CLB_TAP_EF
#undef CLB_TAP_P
#undef CLB_SUM
#undef CLB_ROW
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
    int blocks = (width + 15) / 16, id = get_global_id (0);
    int y = id / blocks, x0 = (id - y * blocks) * 16;
    if (y >= min (height, y_end))
        return;

    /* blocks whose window crosses the left or right end gather each
     * lane's samples through the border mapping */
    int edge = x0 - rx < 0 || x0 + 15 + rx >= width;
    float f[4 * CLB_EDGE_SPAN], in[16];
    float16 ce[4] = {0.0f}, acc[5];
    __global const uchar *row0 = src + (size_t) y * src_pitch
        + (size_t) x0 * channels;
    if (edge)
        bilateral_gather (src, src_pitch, y, x0, 16, width, channels,
                          CLB_BORDER_REPLICATE, f, in);
    for (int c = 0; c < channels; c++)
        ce[c] = edge ? vload16 (0, f + c * CLB_EDGE_SPAN)
            : bilateral_channel16 (row0, channels, c);
    /* edge blocks: any channel count; inner ones: a constant one */
#define CLB_ROWS16(C, EDGE) bilateral_rows16 (src, src_pitch, x0, y, width, \
    height, C, rx, ry, border, k, ks, EDGE, ce[0], ce[1], ce[2], ce[3], acc)
    edge ? CLB_ROWS16 (channels, 1) : channels == 1 ? CLB_ROWS16 (1, 0)
        : channels == 2 ? CLB_ROWS16 (2, 0) : channels == 3 ? CLB_ROWS16 (3, 0)
        : CLB_ROWS16 (4, 0);
#undef CLB_ROWS16
    /* kept channels: the centre's sample */
    float v[64];
    for (int c = 0; c < channels; c++)
        vstore16 (clamp (floor (ce[c] + (keep & (1 << c) ? 0.0f
                                         : acc[c] / acc[4]) + 0.5f),
                         0.0f, 255.0f), c, v);
    __global uchar *o = dst + (size_t) y * dst_pitch + (size_t) x0 * channels;
    for (int i = 0; i < min (16, width - x0); i++) {
        for (int c = 0; c < channels; c++)
            o[i * channels + c] = (uchar) v[c * 16 + i];
    }
}
#endif
