/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Regions: the whole plane is filtered (so samples inside a region see
 * their real neighbours across its edge), then region_composite merges the
 * region's content ("from") into the plane that holds the content outside
 * the regions ("to"), sample by sample: box methods, from the filtered
 * plane into the original; with region-invert (or bilateral, which writes
 * its own plane) the other way round.
 *
 * Rectangles are (x0, y0, x1, y1), x1 and y1 exclusive, in pixels of the
 * full-resolution frame, corners clamped to [-2^28, 2^28], not clipped to
 * the frame. Pixel (px, py)'s centre is (2 px + 1, 2 py + 1) in doubled
 * coordinates. A sample of a plane subsampled by 2^x_sub x 2^y_sub covers
 * the frame's pixels [x << x_sub, (x + 1) << x_sub) (cut at the frame's
 * edge), likewise for y; its step t is the least over those pixels and
 * over the regions of the pixel's step: the least t in 0..feather for
 * which the pixel's centre lies in the region grown by t pixels, or
 * feather + 1 when there is none:
 *   rectangle: dx = max (x0 - px, px - (x1 - 1), 0), likewise dy, and
 *              dx^2 + dy^2 <= t^2 (so t = 0 is the rectangle itself, the
 *              sample inside when its footprint overlaps the rectangle);
 *   ellipse:   the one inscribed in the rectangle, semi-axes grown by t:
 *              A = x1 - x0 + 2t, B = y1 - y0 + 2t (doubled), centre
 *              (x0 + x1, y0 + y1), u = 2 px + 1 - (x0 + x1), likewise v,
 *              and u^2 B^2 + v^2 A^2 <= A^2 B^2 (exact: in 64 bits where
 *              the products fit, else 128; u has the parity of A + 1, v
 *              of B + 1, so no centre lies on the boundary).
 * The weight of "from" is w = feather + 1 - t, of W = feather + 1:
 *   to = (w * from + (W - w) * to + W / 2) / W
 * on the samples' values (W: a copy; 0: "to" unchanged).
 *
 * The work: the host bins the regions into tiles of CLB_REGION_TILE x
 * CLB_REGION_TILE pixels of the frame (a region into the tiles whose
 * nearest pixel lies within its feather) and uploads one array of ints:
 * the rectangles (4 ints each) from 0; from tiles_at, (tile column, tile
 * row, first entry of the list, whole) for each tile some region reaches
 * (whole: the host found every pixel of the tile inside one of its
 * regions), then entries of no region up to a multiple of 64, then (0, 0,
 * end of the list, 0); from list_at, the list: each tile's regions, by
 * index. A launch of (TILE >> x_sub, TILE >> y_sub, tiles reached)
 * work-items: each tests only its tile's regions, so the cost follows the
 * area regions cover, not their count.
 */

#define CLB_REGION_TILE 16
#define CLB_SHAPE_RECTANGLE 0
#define CLB_SHAPE_ELLIPSE 1

/* The distance from [a0, a1] to [b0, b1] (a0 <= a1, b0 <= b1), 0 when they
 * overlap. */
CLB_INLINE long
clb_gap (long a0, long a1, long b0, long b1)
{
    return max (max (b0 - a1, a0 - b1), 0L);
}

/* a^2 + b^2 <= c^2 for a, b, c < 2^62, in 128-bit arithmetic. */
CLB_INLINE int
clb_sum_squares_le (ulong a, ulong b, ulong c)
{
    ulong alo = a * a, ahi = mul_hi (a, a);
    ulong blo = b * b, bhi = mul_hi (b, b);
    ulong clo = c * c, chi = mul_hi (c, c);
    ulong slo = alo + blo;
    ulong shi = ahi + bhi + (slo < alo ? 1UL : 0UL);
    return shi < chi || (shi == chi && slo <= clo);
}

/* Whether the footprint's nearest pixel lies within step t of the region:
 * for a rectangle n = dx^2 + dy^2; for an ellipse (u, v) the nearest
 * doubled offsets from the centre, (a, b) the doubled semi-axes. */
CLB_INLINE int
clb_within (int shape, long n, ulong u, ulong v, ulong a, ulong b, long t)
{
    if (shape == CLB_SHAPE_RECTANGLE)
        return n <= t * t;
    ulong ga = a + 2 * (ulong) t, gb = b + 2 * (ulong) t;
    if (u > ga || v > gb)
        return 0;
    ulong p = u * gb, q = v * ga, r = ga * gb;
    /* p, q <= r: below 2^31 the squares' sum fits in 64 bits */
    if (r < (1UL << 31))
        return p * p + q * q <= r * r;
    return clb_sum_squares_le (p, q, r);
}

/* The nearest doubled centre offset from c of the pixels [p0, p1]. */
CLB_INLINE ulong
clb_nearest (long c, long p0, long p1)
{
    long lo = 2 * p0 + 1, hi = 2 * p1 + 1;
    if (c < lo)
        return (ulong) (lo - c);
    if (c > hi)
        return (ulong) (c - hi);
    return (c & 1) ? 0UL : 1UL;
}

/* The step (0..feather + 1) of the footprint [px0, px1] x [py0, py1] for
 * region r. */
CLB_INLINE int
clb_region_step (int4 r, int shape, int feather, long px0, long px1,
                 long py0, long py1)
{
    long n = 0;
    ulong u = 0, v = 0, a = 0, b = 0;

    long dx = clb_gap (px0, px1, r.s0, (long) r.s2 - 1);
    long dy = clb_gap (py0, py1, r.s1, (long) r.s3 - 1);
    if (dx > feather || dy > feather)
        return feather + 1;
    if (shape == CLB_SHAPE_RECTANGLE) {
        n = dx * dx + dy * dy;
    } else {
        a = (ulong) ((long) r.s2 - r.s0);
        b = (ulong) ((long) r.s3 - r.s1);
        u = clb_nearest ((long) r.s0 + r.s2, px0, px1);
        v = clb_nearest ((long) r.s1 + r.s3, py0, py1);
    }
    /* the least t in 0..feather that holds (monotone in t): the region
     * itself and past the feather first, as most samples are one or the
     * other, then by bisection */
    if (clb_within (shape, n, u, v, a, b, 0))
        return 0;
    if (feather == 0 || !clb_within (shape, n, u, v, a, b, feather))
        return feather + 1;
    int lo = 1, hi = feather;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (clb_within (shape, n, u, v, a, b, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

__kernel void
region_composite (__global const sample_t *from, __global sample_t *to,
                  int pitch, int pstride, int4 off, int width, int height,
                  int channels, int x_sub, int y_sub, int swap, int shift,
                  int frame_width, int frame_height,
                  __global const int *regions, int tiles_at, int list_at,
                  int shape, int feather)
{
    /* the tile's column and row as they are, not a tile index divided
     * (the division and remainder make clang emit a freeze, which
     * Oclgrind's uninitialized-value check cannot run) */
    __global const int *tile = regions + tiles_at + 4 * get_global_id (2);
    int first = tile[2], end = tile[6];
    int x = tile[0] * (CLB_REGION_TILE >> x_sub) + (int) get_global_id (0);
    int y = tile[1] * (CLB_REGION_TILE >> y_sub) + (int) get_global_id (1);
    if (x >= width || y >= height)
        return;

    long px0 = (long) x << x_sub, py0 = (long) y << y_sub;
    long px1 = min (((long) x + 1) << x_sub, (long) frame_width) - 1;
    long py1 = min (((long) y + 1) << y_sub, (long) frame_height) - 1;
    /* a tile wholly inside a region: step 0 for every sample */
    int step = tile[3] ? 0 : feather + 1;
    for (int i = first; i < end && step > 0; i++)
        step = min (step, clb_region_step (vload4 (regions[list_at + i],
                                                   regions),
                                           shape, feather, px0, px1, py0,
                                           py1));
    if (step > feather)
        return;

    uint w = (uint) (feather + 1 - step), total = (uint) feather + 1;
    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++) {
        size_t i = o + clb_comp (off, c);
        if (w == total) {
            to[i] = from[i];
        } else {
            uint f = clb_load (from, i, swap, shift);
            uint t = clb_load (to, i, swap, shift);
            clb_store (to, i, (w * f + (total - w) * t + total / 2) / total,
                       swap, shift);
        }
    }
}
