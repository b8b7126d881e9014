/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Temporal denoising (method temporal), in integers, bit-exact to
 * ref_temporal_frame (tests/reference/refblur.h defines each step):
 *   temporal_noise    a work-item an 8 x 8 block: the sum of |L| (3 x 3
 *                     high-pass) into the noise level's histogram
 *   temporal_diff     a work-item a pixel: its difference D (the judged
 *                     channels' sum of |(x << 8) - h|), once, into a
 *                     buffer with a 2-pixel border (replicated)
 *   temporal_blend    a work-item a pixel: the count from the 5 x 5
 *                     patch's agreement (25 reads of D), the history
 *                     blended (read from hold, written to hnew: the patch
 *                     reads neighbours)
 *   temporal_spatial  a work-item a pixel: the bilateral on the history,
 *                     integer weights (one power of 2 from the range's
 *                     exponent, the pixel's count's, and the spatial one);
 *                     the group's tile of the history in local memory, as
 *                     bilateral_gpu's (kernels/gpu_bilateral.cl)
 *   temporal_blend_x16, temporal_spatial_x16  CPUs, 8-bit samples: the
 *                     same for 16 pixels of a row a work-item, in vector
 *                     lanes (below), on the blocks of 16 whose window
 *                     stays in the row (the rest: the kernels above)
 * The history is planar, a sample and 8 fraction bits (hist_t: 16 bits
 * for 8-bit samples): channel c of pixel i at c * width * height + i, so
 * that 16 pixels of a row are one vector load a channel.
 * tab (tabled on the host): weight[cap + 1], agree[cap + 1], keep[cap + 1],
 * mul[cap + 1], kcut[cap + 1] (the range's exponent of 2: min (k, kcut)
 * mul, k the judged channels' sum of (|dh| >> rshift)^2), spatial[(2 ry +
 * 1) (2 rx + 1)] (each tap's exponent).
 */

/* 256 2^(-e / 2^24) for scalars or vectors (ref_temporal_weight): linear
 * between powers of 2, 0 from e = 9 2^24 (e < 19 2^24: the shift < 32);
 * no table, no exponential */
#define TEMPORAL_WEIGHT(e) \
    ((((1u << 25) - ((e) & 0xffffffu)) >> 17) >> ((e) >> 24))
/* The count's step, for scalars or vectors (no branch: on noise, PoCL's
 * branches cost 8 ms a 1080p frame): where the patch disagrees (or none
 * yet) 1, where it is doubtful halved, where it agrees one more. */
#define TEMPORAL_COUNT(n, a, agree, keep, one, cap)                          \
    select (select (min ((n) + (one), cap), max ((n) / 2, one), (a) > (keep)), \
            one, ((n) == 0) | ((a) > (agree)))
/* h + floor ((((x << 8) - h) w + 128) / 256), d = (x << 8) - h + 2^(bits
 * + 8) > 0 taken in halves (int or intN, no 64 bits) */
#define TEMPORAL_MIX(h, d, w)                                                \
    ((h) + (((d) >> 8) - (1 << CLB_SAMPLE_BITS)) * (w)                       \
     + ((((d) & 255) * (w) + 128) >> 8))

__kernel void
temporal_noise (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, int width, int height,
                int channels, int dist_mask, int max_value, int ds, int d,
                __global uint *hist)
{
    int x0 = 8 * (int) get_global_id (0), y0 = 8 * (int) get_global_id (1);
    if (x0 + 9 >= width || y0 + 9 >= height)
        return;
    uint s = 0;
    for (int c = 0; c < channels; c++) {
        if (!(dist_mask & (1 << c)))
            continue;
        int v[100];
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 10; x++) {
                int t = (int) clb_load (src, (size_t) (y0 + y) * pitch
                                        + (size_t) (x0 + x) * pstride
                                        + clb_comp (off, c), swap, shift);
                if (t <= 0 || t >= max_value)
                    return; /* clipped: the block does not count */
                v[10 * y + x] = t;
            }
        }
        for (int i = 11; i < 89; i += 10) {
            for (int j = i; j < i + 8; j++)
                s += abs (v[j - 11] + v[j - 9] + v[j + 9] + v[j + 11]
                          - 2 * (v[j - 10] + v[j - 1] + v[j + 1] + v[j + 10])
                          + 4 * v[j]);
        }
    }
    atomic_inc (hist + min (((s << 3) / (64u * d)) >> ds, 4095u));
}

/* diff[(y + 2) (width + 4) + x + 2] = D of pixel (x, y), the judged
 * channels' sum of |(x << 8) - h|, for -2 <= x < width + 2 and likewise
 * y (border replicated): the 5 x 5 patches' terms, made once */
__kernel void
temporal_diff (__global const sample_t *src, int pitch, int pstride,
               int4 off, int swap, int shift, int width, int height,
               int channels, int dist_mask, __global const hist_t *hold,
               __global uint *diff)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width + 4 || y >= height + 4)
        return;
    int sx = clamp (x - 2, 0, width - 1), sy = clamp (y - 2, 0, height - 1);
    size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
    __global const hist_t *h = hold + (size_t) sy * width + sx;
    uint d = 0;
    for (int c = 0; c < channels; c++)
        d += dist_mask & (1 << c) ? abs_diff (clb_load (src, b + clb_comp (
            off, c), swap, shift) << 8, (uint) h[c * width * height]) : 0;
    diff[(size_t) y * (width + 4) + x] = d;
}

__kernel void
temporal_blend (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, int width, int height,
                int channels, int dist_mask, __global const hist_t *hold,
                __global hist_t *hnew, __global uchar *count,
                __global const uint *tab, int cap, int fresh,
                __global const uint *diff)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;
    uint a = 0;
    for (int dy = 0; dy < 5 && !fresh; dy++) {
        for (int dx = 0; dx < 5; dx++)
            a += diff[(size_t) (y + dy) * (width + 4) + x + dx];
    }
    size_t i = (size_t) y * width + x, plane = (size_t) width * height;
    size_t b = (size_t) y * pitch + (size_t) x * pstride;
    int n = fresh ? 0 : count[i];
    n = TEMPORAL_COUNT (n, a, tab[cap + 1 + n], tab[2 * (cap + 1) + n], 1,
                        cap);
    count[i] = (uchar) n;
    for (int c = 0; c < channels; c++) {
        int hv = fresh ? 0 : hold[c * plane + i];
        int d = (int) clb_load (src, b + clb_comp (off, c), swap, shift) * 256
            - hv + (256 << CLB_SAMPLE_BITS);
        hnew[c * plane + i] = (hist_t) TEMPORAL_MIX (hv, d, (int) tab[n]);
    }
}

/* The window sums of tile index ci for @nc channels (a constant where
 * inlined): sum[c] = sum w h[c], *ws = sum w. */
CLB_INLINE void
temporal_window (__local const uint *tile, int n, int tw, int ci, int dx0,
                 int dx1, int dy0, int dy1, int rx, int ry,
                 __constant uint *sp, uint mul, uint kcut, int dist_mask,
                 int rshift, int nc, ulong *sum, ulong *ws)
{
    for (int dy = dy0; dy <= dy1; dy++) {
        for (int dx = dx0; dx <= dx1; dx++) {
            int t = ci + dy * tw + dx;
            uint k = 0;
            for (int c = 0; c < nc; c++) {
                uint e = abs_diff (tile[c * n + t], tile[c * n + ci]) >> rshift;
                k += dist_mask & (1 << c) ? e * e : 0;
            }
            uint e = min (k, kcut) * mul + sp[(dy + ry) * (2 * rx + 1) + dx
                                               + rx];
            uint w = TEMPORAL_WEIGHT (e);
            *ws += w;
            for (int c = 0; c < nc; c++)
                sum[c] += (ulong) w * tile[c * n + t];
        }
    }
}

/* The work-group's tile of h and its apron (planar, border-mapped; SHRINK
 * clips the window instead) staged in @tile; the tables in constant
 * memory (a few hundred words: every tap's exponent the same address
 * across the group). */
__kernel void
temporal_spatial (__global sample_t *dst, int pitch, int pstride, int4 off,
                  int swap, int shift, int width, int height, int channels,
                  int dist_mask, int max_value, int rx, int ry, int border,
                  __global const hist_t *h, __global const uchar *count,
                  __constant uint *tab, int cap, int rshift,
                  __local uint *tile)
{
    int lw = get_local_size (0), lx = get_local_id (0), ly = get_local_id (1);
    int id = ly * lw + lx, items = lw * (int) get_local_size (1);
    int tw = lw + 2 * rx, n = tw * ((int) get_local_size (1) + 2 * ry);
    int x = get_global_id (0), y = get_global_id (1);
    size_t plane = (size_t) width * height;
    for (int i = id; i < n; i += items) {
        int ty = i / tw; /* not i % tw: a div and rem pair, frozen */
        int sx = clb_border_index (x - lx - rx + i - ty * tw, width, border);
        int sy = clb_border_index (y - ly - ry + ty, height, border);
        for (int c = 0; c < channels && sx >= 0 && sy >= 0; c++)
            tile[c * n + i] = h[c * plane + (size_t) sy * width + sx];
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (x >= width || y >= height)
        return;
    int dx0, dx1, dy0, dy1;
    clb_window (x, rx, width, border, &dx0, &dx1);
    clb_window (y, ry, height, border, &dy0, &dy1);
    uint n0 = count[(size_t) y * width + x];
    ulong sum[4] = {0, 0, 0, 0}, ws = 0;
#define TEMPORAL_WINDOW(nc)                                                \
    temporal_window (tile, n, tw, (ly + ry) * tw + lx + rx, dx0, dx1, dy0, \
                     dy1, rx, ry, tab + 5 * (cap + 1), tab[3 * (cap + 1) + n0], \
                     tab[4 * (cap + 1) + n0], dist_mask, rshift, nc, sum, &ws)
    channels == 1 ? TEMPORAL_WINDOW (1) : channels == 2 ? TEMPORAL_WINDOW (2)
        : channels == 3 ? TEMPORAL_WINDOW (3) : TEMPORAL_WINDOW (4);
#undef TEMPORAL_WINDOW
    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   (uint) min ((sum[c] + (ws << 7)) / (ws << 8),
                               (ulong) max_value), swap, shift);
}

#if CLB_SAMPLE_BITS == 8
/* temporal_spatial_x16: CPUs, 8-bit samples: temporal_spatial's sums for
 * 16 adjacent pixels of a row, one in each lane of uint16 vectors, the
 * history read a plane a channel (16 lanes one load), the weight
 * computed in the lanes (each lane's count its range's factor; a table's
 * 16-lane gather a tap cost 1080p RGBA 4.4 ms more on PoCL). Sums in
 * uint are exact: h <= 255 << 8, weights <= 256, at most 15 x 15 taps
 * (CLB_MAX_TEMPORAL_RADIUS 7): 225 x 256 x 65280 + 128 ws < 2^32.
 * Only blocks whose window stays inside the row (the host launches
 * temporal_spatial on the columns either side): no border mapping. */
CLB_INLINE uint16
temporal_gather16 (__global const uint *t, uint16 i)
{
    return (uint16) (t[i.s0], t[i.s1], t[i.s2], t[i.s3], t[i.s4], t[i.s5],
                     t[i.s6], t[i.s7], t[i.s8], t[i.s9], t[i.sa], t[i.sb],
                     t[i.sc], t[i.sd], t[i.se], t[i.sf]);
}

/* The window's sums for @nc channels (a constant where inlined). */
CLB_INLINE void
temporal_rows16 (__global const hist_t *h, size_t plane, int x0, int y,
                 int width, int height, int nc, int dist_mask, int rx,
                 int ry, int border, __global const uint *sp,
                 uint16 mul, uint16 kcut, int rshift, const uint16 *ce,
                 uint16 *sum, uint16 *ws)
{
    for (int dy = -ry; dy <= ry; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        __global const hist_t *row = h + (size_t) sy * width;
        for (int dx = -rx; dx <= rx; dx++) {
            uint16 v[4], k = 0;
#pragma unroll
            for (int c = 0; c < nc; c++) {
                v[c] = convert_uint16 (vload16 (0, row + c * plane + x0 + dx));
                uint16 e = abs_diff (v[c], ce[c]) >> (uint) rshift;
                k += dist_mask & (1 << c) ? e * e : 0;
            }
            uint16 e = min (k, kcut) * mul + sp[(dy + ry) * (2 * rx + 1)
                                                + dx + rx];
            uint16 w = TEMPORAL_WEIGHT (e);
            *ws += w;
#pragma unroll
            for (int c = 0; c < nc; c++)
                sum[c] += w * v[c];
        }
    }
}

/* temporal_blend_x16: CPUs, 8-bit samples: temporal_blend for 16 pixels
 * of a row a work-item (a row's whole blocks of 16; the rest
 * temporal_blend's), in the lanes of uint16 vectors: the patch's 25 D a
 * vector load each, the count and history a vector load, the blend in
 * the lanes. */
__kernel void
temporal_blend_x16 (__global const uchar *src, int pitch, int pstride,
                    int4 off, int swap, int shift, int width, int height,
                    int channels, int dist_mask, __global const hist_t *hold,
                    __global hist_t *hnew, __global uchar *count,
                    __global const uint *tab, int cap, int fresh,
                    __global const uint *diff)
{
    int blocks = width / 16, id = get_global_id (0);
    int y = id / blocks, x0 = (id - y * blocks) * 16;
    if (y >= height)
        return;
    size_t i = (size_t) y * width + x0, plane = (size_t) width * height;
    uint16 a = 0, n = fresh ? 0 : convert_uint16 (vload16 (0, count + i));
    for (int dy = 0; dy < 5 && !fresh; dy++) {
        for (int dx = 0; dx < 5; dx++)
            a += vload16 (0, diff + (size_t) (y + dy) * (width + 4) + x0 + dx);
    }
    n = TEMPORAL_COUNT (n, a, temporal_gather16 (tab, cap + 1 + n),
                        temporal_gather16 (tab, 2 * (cap + 1) + n),
                        (uint16) 1, (uint16) cap);
    vstore16 (convert_uchar16 (n), 0, count + i);
    int16 w = as_int16 (temporal_gather16 (tab, n));
    for (int c = 0; c < channels; c++) {
        __global const uchar *p = src + (size_t) y * pitch
            + (size_t) x0 * pstride + clb_comp (off, c);
        uchar v[16];
        for (int l = 0; l < 16; l++)
            v[l] = p[l * pstride];
        int16 hv = fresh ? 0 : convert_int16 (vload16 (0, hold + c * plane
                                                       + i));
        int16 d = convert_int16 (pstride == 1 ? vload16 (0, p) : vload16 (0, v))
            * 256 - hv + 65536;
        vstore16 (convert_ushort16 (TEMPORAL_MIX (hv, d, w)), 0,
                  hnew + c * plane + i);
    }
}

__kernel void
temporal_spatial_x16 (__global uchar *dst, int pitch, int pstride, int4 off,
                      int swap, int shift, int width, int height,
                      int channels, int dist_mask, int max_value, int rx,
                      int ry, int border, __global const hist_t *h,
                      __global const uchar *count, __global const uint *tab,
                      int cap, int rshift, int xa, int blocks)
{
    int id = get_global_id (0), y = id / blocks;
    int x0 = xa + (id - y * blocks) * 16;
    if (y >= height)
        return;
    size_t plane = (size_t) width * height, r0 = (size_t) y * width;
    uint16 ce[4], sum[4] = {0, 0, 0, 0}, ws = 0;
    uint q[64];
    for (int c = 0; c < channels; c++)
        ce[c] = convert_uint16 (vload16 (0, h + c * plane + r0 + x0));
    uint16 n = convert_uint16 (vload16 (0, count + r0 + x0));
    uint16 mul = temporal_gather16 (tab, 3 * (cap + 1) + n);
    uint16 kcut = temporal_gather16 (tab, 4 * (cap + 1) + n);
    __global const uint *sp = tab + 5 * (cap + 1);
#define CLB_ROWS16(C) temporal_rows16 (h, plane, x0, y, width, height, C, \
    dist_mask, rx, ry, border, sp, mul, kcut, rshift, ce, sum, &ws)
    channels == 1 ? CLB_ROWS16 (1) : channels == 2 ? CLB_ROWS16 (2)
        : channels == 3 ? CLB_ROWS16 (3) : CLB_ROWS16 (4);
#undef CLB_ROWS16
    /* the rounded mean (lanes.cl: a float quotient corrected in integers;
     * x86 has no vector integer division: 1080p RGBA 40 -> 33 ms) */
    for (int c = 0; c < channels; c++)
        vstore16 (min (separable_div16 (sum[c] + (ws << 7), ws << 8),
                       (uint16) (max_value)), c, q);
    for (int i = 0; i < 16; i++) {
        size_t o = (size_t) y * pitch + (size_t) (x0 + i) * pstride;
        for (int c = 0; c < channels; c++)
            clb_store (dst, o + clb_comp (off, c), q[c * 16 + i], swap,
                       shift);
    }
}
#endif
