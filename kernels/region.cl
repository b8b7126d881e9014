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
 * area regions cover, not their count. On CPUs region_composite_x16 takes
 * a tile a work-item, a row's samples in vector lanes (below).
 */

#define CLB_REGION_TILE 16
#define CLB_SHAPE_RECTANGLE 0
#define CLB_SHAPE_ELLIPSE 1
/* How region_composite_x16 takes its steps: made (the map ignored), made
 * and kept in the map by a full-resolution job, read from the map by a
 * subsampled one */
#define CLB_STEPS_MAKE 0
#define CLB_STEPS_KEEP 1
#define CLB_STEPS_READ 2

/* The distance from [a0, a1] to [b0, b1] (a0 <= a1, b0 <= b1), 0 when they
 * overlap. */
CLB_INLINE long
clb_gap (long a0, long a1, long b0, long b1)
{
    return max (max (b0 - a1, a0 - b1), 0L);
}

/* any () of 16 lanes of 0 or -1: each lane ORed with the lanes 8, 4, 2
 * and 1 on, in whole vectors, then one lane's sign; all () is no lane of
 * ~x. PoCL 3.1 makes the builtins on an int16 a chain of 16 lane
 * extractions and branches (about a tenth of region_composite_x16's
 * samples with feathered ellipses, perf). (Shuffles of two defined
 * vectors, not .lo, .hi or swizzles, whose undefined second operand
 * crashes Oclgrind 21.10's --uninitialized.) */
CLB_INLINE int
clb_any16 (int16 x)
{
    x |= CLB_SHUFFLE_BY (uint16, x, x, CLB_LANE_XOR, 8, 0);
    x |= CLB_SHUFFLE_BY (uint16, x, x, CLB_LANE_XOR, 4, 0);
    x |= CLB_SHUFFLE_BY (uint16, x, x, CLB_LANE_XOR, 2, 0);
    x |= CLB_SHUFFLE_BY (uint16, x, x, CLB_LANE_XOR, 1, 0);
    return x.s0 < 0;
}

CLB_INLINE int
clb_all16 (int16 x)
{
    return !clb_any16 (~x);
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

/* A sample's channels from @fo in @from merged into @o in @to, weight
 * @w of @total (w = total: a copy): to = (w from + (total - w) to +
 * total / 2) / total, the quotient by a division or, where @m is not 0,
 * q = (num m) >> 32 with m = ceil (2^32 / total): floor (num / total) or
 * one more (num < 2^32: num m / 2^32 < num / total + 1), corrected. */
CLB_INLINE void
clb_blend (__global const sample_t *from, size_t fo, __global sample_t *to,
           size_t o, uint w, uint total, uint m, int4 off, int channels,
           int swap, int shift)
{
    for (int c = 0; c < channels; c++) {
        size_t fi = fo + clb_comp (off, c), i = o + clb_comp (off, c);
        if (w == total) {
            to[i] = from[fi];
            continue;
        }
        uint f = clb_load (from, fi, swap, shift);
        uint t = clb_load (to, i, swap, shift);
        uint num = w * f + (total - w) * t + total / 2;
        uint q = m != 0 ? mul_hi (num, m) : num / total;
        clb_store (to, i, q - (m != 0 && q * total > num ? 1u : 0u), swap,
                   shift);
    }
}

__kernel void
region_composite (__global const sample_t *from, int from_pitch,
                  __global sample_t *to, int to_pitch, int pstride,
                  int4 off, int width, int height,
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

    clb_blend (from, (size_t) y * from_pitch + (size_t) x * pstride, to,
               (size_t) y * to_pitch + (size_t) x * pstride,
               (uint) (feather + 1 - step), (uint) feather + 1, 0, off,
               channels, swap, shift);
}

/* clb_within for an ellipse in 16 lanes (u, t: the lanes'), where
 * (a + 2 t) (b + 2 t) < 2^31: every product fits in 64 bits. */
CLB_INLINE long16
clb_within16 (ulong16 u, ulong v, ulong a, ulong b, long16 t)
{
    ulong16 ga = (ulong16) a + 2 * as_ulong16 (t);
    ulong16 gb = (ulong16) b + 2 * as_ulong16 (t);
    ulong16 p = u * gb, q = v * ga, r = ga * gb;
    return (u <= ga) & ((ulong16) v <= gb) & (p * p + q * q <= r * r);
}

/* The distances along the row from the footprints [px0, px1] of 16
 * samples (the lanes) to the columns of region @r, 0 inside; saturated:
 * a corner within 2^28 of 0 and a footprint below 2^31. */
CLB_INLINE int16
clb_dx16 (int4 r, int16 px0, int16 px1)
{
    return max (max (sub_sat ((int16) r.s0, px1),
                     sub_sat (px0, (int16) (r.s2 - 1))), (int16) 0);
}

/* clb_region_step of ellipse @r for the footprints of 16 samples of a row,
 * one a lane ([px0, px1] x [py0, py1], px in the lanes; @c its doubled
 * centre's x, @v the row's nearest doubled offset from its centre's y, @a
 * and @b its doubled axes), exactly, where the float bisection of
 * clb_ellipse_rows16 is unsure of a lane. */
CLB_INLINE int16
clb_ellipse_exact16 (int4 r, int feather, int16 px0, int16 px1, long py0,
                     long py1, long c, ulong v, ulong a, ulong b)
{
    int16 far = (int16) (feather + 1);
    /* where the grown ellipse's products pass 2^31, each lane alone */
    if ((a + 2 * (ulong) feather) * (b + 2 * (ulong) feather) >= (1UL << 31)) {
        int p0[16], p1[16], s[16];
        vstore16 (px0, 0, p0);
        vstore16 (px1, 0, p1);
        for (int k = 0; k < 16; k++)
            s[k] = clb_region_step (r, CLB_SHAPE_ELLIPSE, feather, p0[k],
                                    p1[k], py0, py1);
        return vload16 (0, s);
    }
    /* below it every product of clb_within fits in 64 bits (u > ga: out) */
    long16 lo2 = 2 * convert_long16 (px0) + 1;
    long16 hi2 = 2 * convert_long16 (px1) + 1;
    ulong16 u = as_ulong16 (select (select ((long16) (1 - (c & 1)), c - hi2,
                                            c > hi2), lo2 - c, c < lo2));
    long16 tf = (long16) feather;
    long16 in0 = clb_within16 (u, v, a, b, (long16) 0);
    long16 inf = clb_within16 (u, v, a, b, tf);
    long16 elo = (long16) 1, ehi = select ((long16) 1, tf, ~in0 & inf);
    /* ceil (log2 (feather)) rounds close every lane; a fixed number of
     * rounds, no lanes' reduction each */
    for (int span = feather - 1; span > 0; span >>= 1) {
        long16 open = elo < ehi, mid = (elo + ehi) >> 1;
        long16 ok = clb_within16 (u, v, a, b, mid);
        ehi = select (ehi, mid, open & ok);
        elo = select (elo, mid + 1, open & ~ok);
    }
    return select (select (convert_int16 (elo), far, convert_int16 (~inf)),
                   (int16) 0, convert_int16 (in0));
}

/* A circle's steps in 16 lanes: the least t in 0..@far - 1 with @n <=
 * (@a + 2 t)^2, else @far, for n = u^2 + v^2 below 2^31 and a + 2 far
 * below 2^15 + 2: t = ceil ((sqrt (n) - a) / 2) from a float root of
 * the exact integer n (within 0.02 of the true root), one step off at
 * most, each way corrected in integers. */
CLB_INLINE int16
clb_circle_step16 (int16 n, int a, int16 far)
{
    int16 t = clamp (convert_int16 (ceil ((sqrt (convert_float16 (n))
                                           - (float) a) * 0.5f)),
                     (int16) 0, far);
    int16 g = (int16) a + 2 * t;
    t = select (t, t + 1, (t < far) & (n > g * g));
    g = (int16) a + 2 * t - 2;
    return select (t, t - 1, (t > (int16) 0) & (n <= g * g));
}

/* A circle's steps (clb_ellipse_rows16) in full-resolution rows, row
 * after row: from one row to the next v moves by at most 2, so sqrt (n)
 * by at most 2 and the step by at most 1 either way: from the last row's
 * steps @known one test each way settles the row's. A row past the grown
 * circle (v > b + 2 f = @gbf) has every lane's far. @uu_i: the lanes'
 * u^2, @ia the doubled radius. */
CLB_INLINE void
clb_circle_rows16 (int4 r, int16 uu_i, int ia, ulong gbf, int16 far16,
                   int y0, int nrows, int16 *steps)
{
    long cy = (long) r.s1 + r.s3;
    int have = 0;
    int16 known = far16;
    for (int k = 0; k < nrows; k++) {
        ulong v = abs (2 * (long) (y0 + k) + 1 - cy);
        if (v > gbf) {
            known = far16;
            have = 1;
            continue;
        }
        /* (v < 2^15; a + 2 t <= a + 2 f + 2 <= 2^15 + 1, its square
         * below 2^31; a true comparison is -1. The two tests are
         * exclusive where a + 2 t >= 1: the host drops empty
         * regions, so a >= 1) */
        int16 n = uu_i + (int16) ((int) v * (int) v);
        if (have) {
            int16 g = (int16) ia + 2 * known;
            known = clamp (known - (n > g * g)
                           + (n <= (g - 2) * (g - 2)), (int16) 0, far16);
        } else {
            known = clb_circle_step16 (n, ia, far16);
            have = 1;
        }
        steps[k] = min (steps[k], known);
    }
}

/* The float bisection of clb_ellipse_rows16 for a row in 16 lanes, @span
 * rounds between @lo and @hi (u: @uf, v: @vf, the doubled axes @af, @bf),
 * lanes too close to call marked in @unsure. Its bracket, from the
 * circles about the ellipse: with s = 2 t, (u / (a + s))^2 + (v / (b +
 * s))^2 lies between r^2 / (M + s)^2 and r^2 / (m + s)^2 (r^2 = u^2 +
 * v^2, M and m the larger and smaller of a and b), so the real root s*
 * of its equation with 1 lies in [r - M, r - m], and the step ceil (s* /
 * 2) in [ceil ((r - M) / 2), ceil ((r - m) / 2)]. Where u, v < 2^20 the
 * float r is within r 2^-21 < 1 of the true one (the rounding of u^2, of
 * the sum and sqrt's 3 ulp; r - M is exact where M <= 2 r, past it the
 * bound is below 0 and clamped, and the 1 added or taken away rounds by
 * at most 1/8: a reviewer's bound, 0.6 in all), so that bracket widened
 * by 1 either way holds the step; its width is at most ceil ((M - m) / 2)
 * + 1, and the bisection needs only the rounds of that, not of the
 * feather's: one for a circle. */
CLB_INLINE int16
clb_bisect16 (int16 lo, int16 hi, int16 *unsure, int span, float16 uf,
              float vf, float af, float bf)
{
    for (; span > 0; span >>= 1) {
        int16 open = lo < hi, mid = (lo + hi) >> 1;
        float16 tm = convert_float16 (mid);
        float16 ga = af + 2.0f * tm, gb = bf + 2.0f * tm;
        float16 p = uf * gb, q = vf * ga, rr = ga * gb;
        float16 pp = p * p, qq = q * q, r2 = rr * rr;
        float16 g = pp + qq - r2;
        *unsure |= open & (fabs (g) <= (pp + qq + r2) * 0x1p-16f);
        /* (g > 0, not ~(g <= 0): Oclgrind 21.10 runs the latter
         * wrong) */
        hi = select (hi, mid, open & (g <= 0.0f));
        lo = select (lo, mid + 1, open & (g > 0.0f));
    }
    return lo;
}

/* The steps of ellipse @r for the rows [@y0, @y0 + @nrows) of a tile (a
 * row's steps in @steps[k], lowered where @r's are less): clb_region_step's
 * in 16 lanes, the bisection run in all lanes at once, what depends only
 * on the columns (the lanes' offsets from the centre) made once for the
 * tile. */
CLB_INLINE void
clb_ellipse_rows16 (int4 r, int feather, int16 px0, int16 px1, long row0,
                    long row1, int y0, int nrows, int y_sub, int frame_width,
                    int frame_height, int16 *steps)
{
    if (!clb_any16 (clb_dx16 (r, px0, px1) <= feather))
        return;

    ulong a = (ulong) ((long) r.s2 - r.s0), b = (ulong) ((long) r.s3 - r.s1);
    long c = (long) r.s0 + r.s2;
    /* the lanes' u in floats, where the centre, the axes and the
     * footprints' doubled centres are below 2^24 (all exact: u rounded
     * once, as the bound below takes it) */
    int wide = abs (c) >= (1UL << 24) || a >= (1UL << 24)
        || b >= (1UL << 24) || frame_width >= (1 << 22);
    float cf = (float) c;
    int16 far16 = (int16) (feather + 1);
    float16 lo2f = 2.0f * convert_float16 (px0) + 1.0f;
    float16 hi2f = 2.0f * convert_float16 (px1) + 1.0f;
    float16 uf = select (select ((float16) (float) (1 - (c & 1)), cf - hi2f,
                                 cf > hi2f), lo2f - cf, cf < lo2f);
    float16 uu = uf * uf;
    float af = (float) a, bf = (float) b;
    float big = fmax (af, bf), small = fmin (af, bf);
    /* the nearest and farthest doubled offsets from the centre of the
     * tile's pixels along a row, [@row0, @row1] (the lanes past the tile
     * in a subsampled plane's, the next tile's, left out) */
    ulong u_near = clb_nearest (c, row0, row1);
    ulong u_far = (ulong) max (abs (2 * row0 + 1 - c), abs (2 * row1 + 1 - c));
    int narrow = !wide && clb_all16 (uf < 0x1p20f);
    int narrow_span = min (feather + 1, (int) ceil ((big - small) * 0.5f) + 1);
    /* The rows' two scalar tests with what depends only on the region and
     * the tile made once: where the grown ellipse's (a + 2 f) (b + 2 f) is
     * below 2^31, a row's nearest pixel lies past it when v > b + 2 f or
     * (u_near (b + 2 f))^2 + (v (a + 2 f))^2 > ((a + 2 f) (b + 2 f))^2,
     * and its farthest inside the ellipse when u_far <= a, v <= b and
     * (u_far b)^2 + (v a)^2 <= (a b)^2: clb_within's, each product below
     * 2^31 and each sum of squares below 2^63. */
    ulong gaf = a + 2 * (ulong) feather, gbf = b + 2 * (ulong) feather;
    if (u_near > gaf)
        return;
    int small_axes = gaf < (1UL << 31) && gbf < (1UL << 31)
        && gaf * gbf < (1UL << 31);
    ulong near_room = 0;
    long far_room = -1;
    if (small_axes) {
        near_room = gaf * gbf * gaf * gbf - u_near * gbf * u_near * gbf;
        if (u_far <= a)
            far_room = (long) (a * b * a * b - u_far * b * u_far * b);
    }
    /* A circle (a = b) whose grown doubled radius is below 2^15: its
     * steps from n = u^2 + v^2 (clb_circle_step16). A lane's u past a +
     * 2 f is far whatever v: clamped to one past it, its square stays in
     * range. */
    int circle = a == b && gaf < (1UL << 15) && narrow;
    int16 uu_i = (int16) 0;
    int ia = (int) a;
    if (circle) {
        /* (only here: a wide ellipse's u has no int, nor its square) */
        int16 ui = convert_int16 (fmin (uf, (float) (gaf + 1)));
        uu_i = ui * ui;
    }
    if (circle && y_sub == 0) {
        clb_circle_rows16 (r, uu_i, ia, gbf, far16, y0, nrows, steps);
        return;
    }

    for (int k = 0; k < nrows; k++) {
        long py0 = (long) (y0 + k) << y_sub;
        long py1 = min (((long) (y0 + k) + 1) << y_sub,
                        (long) frame_height) - 1;
        if (clb_gap (py0, py1, r.s1, (long) r.s3 - 1) > feather)
            continue;
        ulong v = clb_nearest ((long) r.s1 + r.s3, py0, py1);
        /* the row's nearest pixel past the grown ellipse: every lane's
         * step far; its farthest inside the ellipse: every lane's 0 */
        if (small_axes) {
            if (v > gbf || v * gaf * v * gaf > near_room)
                continue;
            if (far_room >= 0 && v <= b && (long) (v * a * v * a) <= far_room) {
                steps[k] = (int16) 0;
                continue;
            }
        } else {
            if (!clb_within (CLB_SHAPE_ELLIPSE, 0, u_near, v, a, b, feather))
                continue;
            if (clb_within (CLB_SHAPE_ELLIPSE, 0, u_far, v, a, b, 0)) {
                steps[k] = (int16) 0;
                continue;
            }
        }
        if (circle) {
            /* (v <= b + 2 f < 2^15 here) */
            int16 n = uu_i + (int16) ((int) v * (int) v);
            steps[k] = min (steps[k], clb_circle_step16 (n, ia, far16));
            continue;
        }
        float vf = (float) v;
        int16 lo = (int16) 0, hi = far16;
        int16 unsure = (int16) (wide ? -1 : 0);
        int span = wide ? 0 : feather + 1;
        if (narrow && vf < 0x1p20f) {
            float16 rr = sqrt (uu + vf * vf);
            lo = clamp (convert_int16 (ceil ((rr - big - 1.0f) * 0.5f)),
                        (int16) 0, far16);
            hi = clamp (convert_int16 (ceil ((rr - small + 1.0f) * 0.5f)),
                        (int16) 0, far16);
            span = narrow_span;
        }
        lo = clb_bisect16 (lo, hi, &unsure, span, uf, vf, af, bf);
        if (clb_any16 (unsure))
            lo = clb_ellipse_exact16 (r, feather, px0, px1, py0, py1, c, v,
                                      a, b);
        steps[k] = min (steps[k], lo);
    }
}

#if CLB_SAMPLE_BITS == 8
/* The weights of bytes [16 j, 16 j + 16) of a row of samples of @pstride
 * (1 to 4) bytes each, sample k's weight in lane k of @w. */
#define CLB_LANE_SPREAD(P, J, i) ((16 * (J) + (i)) / (P))
#define CLB_SPREAD(P, J) CLB_SHUFFLE_BY (uint16, w, w, CLB_LANE_SPREAD, P, J)
CLB_INLINE uint16
clb_byte_weights (uint16 w, int pstride, int j)
{
    if (pstride == 1)
        return w;
    if (pstride == 2)
        return j == 0 ? CLB_SPREAD (2, 0) : CLB_SPREAD (2, 1);
    if (pstride == 3)
        return j == 0 ? CLB_SPREAD (3, 0) : j == 1 ? CLB_SPREAD (3, 1)
            : CLB_SPREAD (3, 2);
    return j == 0 ? CLB_SPREAD (4, 0) : j == 1 ? CLB_SPREAD (4, 1)
        : j == 2 ? CLB_SPREAD (4, 2) : CLB_SPREAD (4, 3);
}
#undef CLB_SPREAD

/* (w f + (total - w) t + total / 2) / total in the lanes (total 1: the
 * numerator itself). The numerator n is below 2^19 (total <= 1025),
 * exact in a float; @r is 1 / total scaled by 1 + 2^-20, which puts it
 * above 1 / total (a division is within 2.5 ulp in OpenCL) and below it
 * by less than 2^-19.6 of it, so the rounded product is at least n /
 * total (rounding keeps a product at or past an integer there) and
 * exceeds it by less than 256 * 2^-19.6 < 1 / total (total < 3100): its
 * truncation is the quotient, with no correction. (Checked for every
 * total 2 .. 1025 and numerator, the reciprocal 3 ulp either way; it
 * fails from total 3018.) (A float product, not mul_hi: CPUs without a
 * 32-bit high multiply make that four.) */
#define CLB_WEIGH(n)                                                        \
    CLB_INLINE uint##n                                                      \
    clb_weigh##n (uint##n w, uint##n f, uint##n t, uint total, float r)     \
    {                                                                       \
        uint##n num = w * f + ((uint##n) total - w) * t                     \
            + (uint##n) (total / 2);                                        \
        if (total == 1)                                                     \
            return num;                                                     \
        return convert_uint##n (convert_float##n (num) * r);                \
    }
CLB_WEIGH (8)
CLB_WEIGH (16)

/* clb_weigh's @r for @total. */
CLB_INLINE float
clb_weigh_rcp (uint total)
{
    return 1.0f / (float) total * 1.00000095367431640625f;
}

/* A row's weights from its samples' steps @step: total - step, 0 past
 * the feather (total = feather + 1). */
CLB_INLINE uint16
clb_step_weights16 (int16 step, uint total)
{
    return convert_uint16 ((int16) total - min (step, (int16) total));
}

/* Bytes [16 j, 16 j + 16) of a row of samples of @pstride bytes, @f
 * filtered and @t original, weighed by their samples' weights @w
 * (clb_step_weights16). */
CLB_INLINE uchar16
clb_weigh_bytes16 (uint16 w, int pstride, int j, uchar16 f, uchar16 t,
                   uint total, float r)
{
    return convert_uchar16 (clb_weigh16 (clb_byte_weights (w, pstride, j),
                                         convert_uint16 (f),
                                         convert_uint16 (t), total, r));
}
#endif

/* The steps of a rectangle @r for the rows [@y0, @y0 + @nrows) of a
 * tile (a row's steps in @steps[k], lowered where @r's are less):
 * clb_region_step's in 16 lanes, its columns' distances made once for the
 * tile; a row's steps, the least t with n = dx^2 + dy^2 <= t^2 (dx at
 * most far = feather + 1, dy at most feather), at most far, are those of
 * a circle of doubled radius 0: 4 n <= (2 t)^2 (clb_circle_step16; 4 n
 * <= 4 (1025^2 + 1024^2) < 2^23, CLB_MAX_REGION_FEATHER 1024). */
CLB_INLINE void
clb_rect_rows16 (int4 r, int feather, int16 px0, int16 px1, int y0,
                 int nrows, int y_sub, int frame_height, int16 *steps)
{
    int16 far = (int16) (feather + 1);
    int16 dx = clb_dx16 (r, px0, px1);
    if (!clb_any16 (dx <= feather))
        return;
    dx = min (dx, far);
    int16 dx2 = dx * dx;
    for (int k = 0; k < nrows; k++) {
        long py0 = (long) (y0 + k) << y_sub;
        long py1 = min (((long) (y0 + k) + 1) << y_sub,
                        (long) frame_height) - 1;
        long dy = clb_gap (py0, py1, r.s1, (long) r.s3 - 1);
        /* level with the rectangle the step is the column distance */
        if (dy == 0)
            steps[k] = min (steps[k], dx);
        else if (dy <= feather)
            steps[k] = min (steps[k], clb_circle_step16 (
                (dx2 + (int16) ((int) (dy * dy))) * 4, 0, far));
    }
}

/* One row of region_composite_x16: its @n samples from (@fo in @from, @o
 * in @to) weighed by their steps @step (past @feather: kept). */
CLB_INLINE void
clb_composite_row16 (__global const sample_t *from, size_t fo,
                     __global sample_t *to, size_t o, int16 step, int n,
                     int count, int pstride, int4 off, int channels,
                     int swap, int shift, int feather, int dense)
{
    uint total = (uint) feather + 1;
#if CLB_SAMPLE_BITS == 8
    /* every byte of a sample one of its channels, the tile's row whole in
     * the plane: the row's bytes weighed in vectors of 16 (8) lanes, the
     * weight of a sample past its regions' feathers 0 (its byte kept);
     * rows of 8, 16, 32 or 64 bytes */
    int bytes = n * pstride;
    if (dense && count == n) {
        __global uchar *pt = to + o;
        if (clb_all16 (step == (int16) (0))) {
            /* the row inside its regions: the filtered bytes as they are */
            if (bytes == 8) {
                vstore8 (vload8 (0, from + fo), 0, pt);
                return;
            }
            for (int j = 0; j < bytes / 16; j++)
                CLB_STORE16 (uchar, CLB_LOAD16 (uchar, from + fo + 16 * j),
                             pt + 16 * j);
            return;
        }
        uint16 w = clb_step_weights16 (step, total);
        float r = clb_weigh_rcp (total);
        if (bytes == 8) {
            /* (the first 8 lanes through private memory: Oclgrind's
             * --uninitialized crashes on a vector's half) */
            uint w8[16];
            vstore16 (w, 0, w8);
            uint8 f8 = convert_uint8 (vload8 (0, from + fo));
            uint8 t8 = convert_uint8 (vload8 (0, pt));
            vstore8 (convert_uchar8 (clb_weigh8 (vload8 (0, w8), f8, t8,
                                                 total, r)), 0, pt);
            return;
        }
        for (int j = 0; j < bytes / 16; j++, pt += 16)
            CLB_STORE16 (uchar, clb_weigh_bytes16 (w, pstride, j,
                                                   CLB_LOAD16 (uchar, from
                                                               + fo + 16 * j),
                                                   CLB_LOAD16 (uchar, pt),
                                                   total, r), pt);
        return;
    }
#endif
    /* sample by sample, the quotient by a reciprocal */
    uint m = (uint) (((1UL << 32) + total - 1) / total);
    int s[16];
    vstore16 (step, 0, s);
    for (int k = 0; k < count; k++, fo += pstride, o += pstride) {
        if (s[k] <= feather)
            clb_blend (from, fo, to, o, total - (uint) s[k], total, m, off,
                       channels, swap, shift);
    }
}

/* The least of lanes 2 i and 2 i + 1 in lanes i and i + 8 (i < 8). */
#define CLB_LANE_HALF(P, Q, i) ((2 * (i) + (P)) & 15)
#define CLB_LANE_MOD8(P, Q, i) ((i) & 7)
CLB_INLINE int16
clb_halve16 (int16 s)
{
    return min (CLB_SHUFFLE_BY (uint16, s, s, CLB_LANE_HALF, 0, 0),
                CLB_SHUFFLE_BY (uint16, s, s, CLB_LANE_HALF, 1, 0));
}

/* region_composite_x16's steps read from @tile_map (CLB_STEPS_READ): a
 * sample's step the least of its footprint's pixels' */
CLB_INLINE void
clb_steps_read16 (__global const ushort *tile_map, int16 *steps, int nrows,
                  int16 far, int x_sub, int y_sub, int map_x_sub,
                  int map_y_sub)
{
    int dy = y_sub - map_y_sub;
    for (int k = 0; k < nrows; k++) {
        int16 s = far;
        for (int q = 0; q < (1 << dy); q++) {
            int m = (k << dy) + q;
            s = min (s, convert_int16 (map_x_sub == 0 ?
                                       vload16 (m, tile_map) :
                                       CLB_SHUFFLE_BY (ushort16,
                                                       vload8 (m, tile_map),
                                                       vload8 (m, tile_map),
                                                       CLB_LANE_MOD8, 0,
                                                       0)));
        }
        for (int q = map_x_sub; q < x_sub; q++)
            s = clb_halve16 (s);
        steps[k] = s;
    }
}

/* region_composite_x16's steps kept in @tile_map (CLB_STEPS_KEEP): the
 * least step of each block of the map's subsampling, pixels past the
 * frame (@x >= @width) at far; halved rows two to a vector */
CLB_INLINE void
clb_steps_keep16 (__global ushort *tile_map, const int16 *steps, int nrows,
                  int16 far, int16 x, int width, int map_x_sub,
                  int map_y_sub)
{
    int16 prev = far;
    for (int m = 0; m < (CLB_REGION_TILE >> map_y_sub); m++) {
        int16 s = far;
        for (int q = 0; q < (1 << map_y_sub); q++) {
            int k = (m << map_y_sub) + q;
            if (k < nrows)
                s = min (s, select (steps[k], far, x >= width));
        }
        if (map_x_sub == 0) {
            vstore16 (convert_ushort16 (s), m, tile_map);
            continue;
        }
        s = clb_halve16 (s);
        if (m & 1)
            vstore16 (convert_ushort16 (CLB_SHUFFLE_BY (uint16, prev, s,
                                                        CLB_LANE_LOWS, 0,
                                                        0)),
                      m >> 1, tile_map);
        prev = s;
    }
}

/* region_composite for CPUs: a work-item takes a tile, a row's steps
 * (CLB_REGION_TILE >> x_sub samples) in the lanes of an int16, so that a
 * region's tests are vectorised and a rectangle's or an ellipse's columns
 * measured once for the tile; each row then weighed 16 bytes at a time
 * where its samples' bytes are all channels, the division by a
 * reciprocal. A launch of (tiles reached) work-items. With @map_mode
 * CLB_STEPS_KEEP (a full-resolution job) the least step of each block of
 * 2^map_x_sub x 2^map_y_sub pixels of the tile (0 or 1 each: 4:2:0's
 * 2x2) goes to @map, a ushort a block, the tile's blocks row by row
 * (pixels past the frame at feather + 1); with CLB_STEPS_READ (a job
 * subsampled by at least that, of the same frame and regions, after it) a
 * sample's step is the least of its footprint's blocks', which is its
 * step by definition, and no region is tested: a chroma plane's steps
 * cost a few loads instead of a third of the tests. */
__kernel void
region_composite_x16 (__global const sample_t *from, int from_pitch,
                      __global sample_t *to, int to_pitch, int pstride,
                      int4 off, int width, int height, int channels,
                      int x_sub, int y_sub,
                      int swap, int shift, int frame_width,
                      int frame_height, __global const int *regions,
                      int tiles_at, int list_at, int shape, int feather,
                      __global ushort *map, int map_mode, int map_x_sub,
                      int map_y_sub)
{
    __global const int *tile = regions + tiles_at + 4 * get_global_id (0);
    int first = tile[2], end = tile[6], whole = tile[3];
    int n = CLB_REGION_TILE >> x_sub, rows = CLB_REGION_TILE >> y_sub;
    int x0 = tile[0] * n, y0 = tile[1] * rows;
    if (y0 >= height || x0 >= width || (first == end && !whole))
        return;
    int nrows = min (rows, height - y0);

    int16 x = (int16) x0 + CLB_IOTA;
    int16 px0 = x << x_sub;
    int16 px1 = min ((x + 1) << x_sub, (int16) frame_width) - 1;
    int16 steps[CLB_REGION_TILE];
    int16 far = (int16) (feather + 1);
    /* (making its own steps the kernel has no map: @map stands in) */
    __global ushort *tile_map = map_mode == CLB_STEPS_MAKE ? map :
        map + get_global_id (0)
        * ((CLB_REGION_TILE >> map_x_sub) * (CLB_REGION_TILE >> map_y_sub));
    /* the tile's pixels along a row */
    long row0 = (long) x0 << x_sub;
    long row1 = min (((long) x0 + n) << x_sub, (long) frame_width) - 1;
    for (int k = 0; k < nrows; k++)
        steps[k] = whole ? (int16) 0 : far;
    if (map_mode == CLB_STEPS_READ && !whole) {
        clb_steps_read16 (tile_map, steps, nrows, far, x_sub, y_sub,
                          map_x_sub, map_y_sub);
        first = end;
    }
    for (int i = first; i < end && !whole; i++) {
        int4 r = vload4 (regions[list_at + i], regions);
        if (shape == CLB_SHAPE_RECTANGLE) {
            clb_rect_rows16 (r, feather, px0, px1, y0, nrows, y_sub,
                             frame_height, steps);
            continue;
        }
        clb_ellipse_rows16 (r, feather, px0, px1, row0, row1, y0, nrows,
                            y_sub, frame_width, frame_height, steps);
    }
    if (map_mode == CLB_STEPS_KEEP && !whole)
        clb_steps_keep16 (tile_map, steps, nrows, far, x, width, map_x_sub,
                          map_y_sub);

    int seen = 0;
    for (int c = 0; c < channels; c++)
        seen |= 1 << clb_comp (off, c);
    int bytes = n * pstride;
    int dense = shift == 0 && channels == pstride
        && seen == (1 << pstride) - 1
        && (bytes % 16 == 0 || (bytes == 8 && pstride == 1));
    int count = min (n, width - x0);
    for (int k = 0; k < nrows; k++) {
        if (clb_all16 (steps[k] > feather))
            continue;
        clb_composite_row16 (from, (size_t) (y0 + k) * from_pitch
                             + (size_t) x0 * pstride, to,
                             (size_t) (y0 + k) * to_pitch
                             + (size_t) x0 * pstride, steps[k], n, count,
                             pstride, off, channels, swap, shift, feather,
                             dense);
    }
}
