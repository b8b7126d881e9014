/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Temporal denoising (method temporal), in integers, bit-exact to
 * ref_temporal_frame (tests/reference/refblur.h defines each step):
 *   temporal_noise    a work-item an 8 x 8 block: the sum of |L| (3 x 3
 *                     high-pass) into the noise level's histogram
 *   temporal_blend    a work-item a pixel: the count from the 5 x 5
 *                     patch's agreement, the history blended (read from
 *                     hold, written to hnew: the patch reads neighbours)
 *   temporal_spatial  a work-item a pixel: the bilateral on the history,
 *                     integer weights, the range's table the pixel's count's
 * tab (tabled on the host): weight[cap + 1], agree[cap + 1], keep[cap + 1],
 * range[cap + 1][1024], spatial[(2 ry + 1) (2 rx + 1)].
 */

#define CLB_TEMPORAL_RANGE 1024

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

__kernel void
temporal_blend (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, int width, int height,
                int channels, int dist_mask, __global const uint *hold,
                __global uint *hnew, __global uchar *count,
                __global const uint *tab, int cap, int fresh)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;
    uint a = 0;
    /* fresh: no history read (count 0 everywhere, h taken from x) */
    for (int dy = -2; dy <= 2 && !fresh; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            int sx = clamp (x + dx, 0, width - 1);
            int sy = clamp (y + dy, 0, height - 1);
            size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
            __global const uint *h = hold + ((size_t) sy * width + sx) * channels;
            for (int c = 0; c < channels; c++) {
                if (dist_mask & (1 << c))
                    a += abs_diff (clb_load (src, b + clb_comp (off, c), swap,
                                             shift) << 8, h[c]);
            }
        }
    }
    size_t i = (size_t) y * width + x, b = (size_t) y * pitch + (size_t) x * pstride;
    int n = fresh ? 0 : count[i];
    /* disagrees: starts again; doubtful: halved; agrees: one more */
    n = n == 0 || a > tab[cap + 1 + n] ? 1 : a > tab[2 * (cap + 1) + n] ?
        max (n / 2, 1) : min (n + 1, cap);
    count[i] = (uchar) n;
    for (int c = 0; c < channels; c++) {
        long hv = fresh ? 0 : hold[i * channels + c];
        long q = (((long) clb_load (src, b + clb_comp (off, c), swap, shift)
                   << 8) - hv) * tab[n] + 128;
        /* floor (q / 256), q >= -2^32: shifted while positive */
        hnew[i * channels + c] = (uint) (hv + ((q + (1L << 40)) >> 8)
                                         - (1L << 32));
    }
}

__kernel void
temporal_spatial (__global sample_t *dst, int pitch, int pstride, int4 off,
                  int swap, int shift, int width, int height, int channels,
                  int dist_mask, int max_value, int rx, int ry, int border,
                  __global const uint *h, __global const uchar *count,
                  __global const uint *tab, int cap, int rshift)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;
    size_t i = (size_t) y * width + x;
    __global const uint *ctr = h + i * channels;
    __global const uint *range = tab + 3 * (cap + 1)
        + (size_t) count[i] * CLB_TEMPORAL_RANGE;
    __global const uint *sp = tab + (3 + CLB_TEMPORAL_RANGE) * (cap + 1);
    ulong sum[4] = {0, 0, 0, 0}, ws = 0;
    for (int dy = -ry; dy <= ry; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        for (int dx = -rx; dx <= rx; dx++) {
            int sx = clb_border_index (x + dx, width, border);
            if (sx < 0)
                continue;
            __global const uint *nb = h + ((size_t) sy * width + sx) * channels;
            uint w = sp[(dy + ry) * (2 * rx + 1) + dx + rx];
            for (int c = 0; c < channels; c++) {
                if (dist_mask & (1 << c))
                    w = (w * range[min (abs_diff (nb[c], ctr[c]) >> rshift,
                                        CLB_TEMPORAL_RANGE - 1u)] + 128) >> 8;
            }
            ws += w;
            for (int c = 0; c < channels; c++)
                sum[c] += (ulong) w * nb[c];
        }
    }
    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   (uint) min ((sum[c] + (ws << 7)) / (ws << 8),
                               (ulong) max_value), swap, shift);
}
