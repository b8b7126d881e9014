/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Alpha as the foreground mask (alpha-mask): the background is the box
 * blur normalised by the weight w = amax - alpha, so that only background
 * pixels feed it, and the output blends it with the original by alpha:
 *
 *   B = (sum (I w) + sum (w) / 2) / sum (w)      (B = I where sum (w) = 0)
 *   out = (a I + (amax - a) B + amax / 2) / amax
 *
 * over the job's (2 rx + 1) x (2 ry + 1) window, w and I extended past the
 * frame's edge by the border like the samples; a is the job's alpha, or
 * with a feather radius (fx, fy) its rounded box mean over that window.
 * A job subsampled by 2^x_sub x 2^y_sub (A420's chroma) takes as its alpha
 * the rounded mean of the full-resolution alphas its footprint covers
 * inside the frame: (sum + n / 2) / n, n = 4, or 2 or 1 on the last
 * column or row of an odd-sized frame.
 *
 *   mask_rows     a work-item per (part of a row, row): along the row,
 *                 running sums of I w per channel, of w, and of the alpha
 *                 over the feather window, into the intermediate
 *   mask_columns  a work-item per (column, chunk of rows): running sums of
 *                 those down the column, the division and the blend (GPUs)
 *   mask_columns_strip  the same, a work-item per strip of 16 columns (CPUs)
 *   mask_fused_x16, mask_planar_x16, mask_planar_pair_x16  CPUs, 8-bit
 *                 jobs: both passes in one walk down a band of rows, 16
 *                 pixels in vector lanes, 32-bit sums (mask_x16.cl)
 *
 * The intermediate's row sums: I w < (2 * 2047 + 1) * 255 * 255 < 2^32
 * for 8-bit samples (uint); 16-bit samples need 64 bits (ulong). The
 * column sums are 64-bit for both: (2 * 2047 + 1)^2 * 255 * 255 > 2^32.
 * The blend's products fit 32 bits: a I + (amax - a) B + amax / 2 <=
 * 65535 * 65535 + 32767 < 2^32.
 *
 * With blend (bilateral and the mask), no box: B is the filtered sample
 * read from @filtered, and the intermediate holds only the feather sums.
 *
 * The column kernels (and mask_x16.cl's) write @stamp (the frame's, never
 * 0) to *@seen where a work-item blends a pixel whose alpha is below amax
 * (some background): every writer writes the same value, no atomics. The
 * engine reads it back a frame later, not waited for (alpha-mask's
 * warning that nothing is background: clb_engine_mask_seen_background).
 */

#if CLB_SAMPLE_BITS == 16
typedef ulong mask_row_t;
#else
typedef uint mask_row_t;
#endif

/* The alpha of pixel (x, y) of a job subsampled by 2^xs x 2^ys, from the
 * full-resolution alpha (aw x ah pixels, pixel (x, y) at y * apitch +
 * x * apstride + aoff). */
uint
mask_alpha (__global const sample_t *alpha, int apitch, int apstride,
            int aoff, int aw, int ah, int xs, int ys, int swap, int shift,
            int x, int y)
{
    if (xs == 0 && ys == 0)
        return clb_load (alpha, (size_t) y * apitch + (size_t) x * apstride
                         + aoff, swap, shift);
    int x0 = x << xs, y0 = y << ys;
    int x1 = min (aw, (x + 1) << xs), y1 = min (ah, (y + 1) << ys);
    uint sum = 0, n = 0;
    for (int j = y0; j < y1; j++) {
        for (int i = x0; i < x1; i++) {
            sum += clb_load (alpha, (size_t) j * apitch + (size_t) i
                             * apstride + aoff, swap, shift);
            n++;
        }
    }
    return n > 0 ? (sum + n / 2) / n : 0;
}

#define MASK_ALPHA(x, y) \
    mask_alpha (alpha, apitch, apstride, aoff, aw, ah, xs, ys, swap, shift, \
                (x), (y))

/* Elements of an intermediate pixel: channels sums of I w and the sum of
 * w (none with blend), and the feather's alpha sum (with fx >= 0). */
int
mask_elems (int channels, int blend, int fx)
{
    return (blend ? 0 : channels + 1) + (fx >= 0 ? 1 : 0);
}

/* The channels' offsets as scalars (no private array indexed at run
 * time, which compilers put in memory): MASK_EACH runs @stmt for c = 0 ..
 * cn - 1 with o_c the channel's offset, s_c its sum (and @op, += or -=,
 * for stmt to use). */
#define MASK_EACH(stmt, op)                                             \
    do {                                                                \
        if (cn > 0) { stmt (0, s0, off.s0, op); }                       \
        if (cn > 1) { stmt (1, s1, off.s1, op); }                       \
        if (cn > 2) { stmt (2, s2, off.s2, op); }                       \
        if (cn > 3) { stmt (3, s3, off.s3, op); }                       \
    } while (0)

/* The window sums of a line of @len (the row's pixels, or the column's
 * rows), by MASK_BOTH (STEP, p, r, f, len, BOX, FEA): STEP for the box's
 * window, radius @r, by BOX (j, op) (none with blend), and for the
 * feather's, radius @f, by FEA (j, op) (with f >= 0). STEP MASK_SPAN:
 * those of the first window, around @p (ADD (j, +=) for each position j
 * it takes); MASK_MOVE: their move from the window around @p to the next
 * (ADD (j, +=) for the one that enters, ADD (j, -=) for the one that
 * leaves). */
#define MASK_SPAN(p, r, len, ADD)                                       \
    for (int i = (p) - (r); i <= (p) + (r); i++) {                      \
        int j = clb_border_index (i, (len), border);                    \
        if (j >= 0)                                                     \
            ADD (j, +=);                                                \
    }
#define MASK_MOVE(p, r, len, ADD)                                       \
    {                                                                   \
        int in = (p) + (r) + 1, out = (p) - (r);                        \
        if (in >= (len) || out < 0) {                                   \
            in = clb_border_index (in, (len), border);                  \
            out = clb_border_index (out, (len), border);                \
        }                                                               \
        if (in >= 0)                                                    \
            ADD (in, +=);                                               \
        if (out >= 0)                                                   \
            ADD (out, -=);                                              \
    }
#define MASK_BOTH(STEP, p, r, f, len, BOX, FEA)                         \
    do {                                                                \
        if (!blend)                                                     \
            STEP (p, r, len, BOX);                                      \
        if ((f) >= 0)                                                   \
            STEP (p, f, len, FEA);                                      \
    } while (0)

__kernel void
mask_rows (__global const sample_t *src, int pitch, int pstride, int4 off,
           int swap, int shift, __global const sample_t *alpha, int apitch,
           int apstride, int aoff, int aw, int ah, int xs, int ys,
           int amax, __global mask_row_t *tmp, int width, int height,
           int channels, int rx, int fx, int border, int blend, int ring,
           int part, int y_first, int y_end)
{
    int p = get_global_id (0), y = y_first + (int) get_global_id (1);
    int x_begin = p * part;
    if (y >= y_end || x_begin >= width)
        return;
    int x_end = min (width, x_begin + part), cn = blend ? 0 : channels;
    int elems = mask_elems (channels, blend, fx);
    size_t row = (size_t) y * pitch;

    mask_row_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, sw = 0, sf = 0;
#define MASK_ADD(c, sc, oc, op) \
    sc op w * clb_load (src, o + (oc), swap, shift)
/* pixel @j of the row into (@op +=) or out of (-=) the window's sums; its
 * alpha into or out of the feather's */
#define MASK_PX(j, op)                                                  \
    {                                                                   \
        mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA ((j), y)); \
        size_t o = row + (size_t) (j) * pstride;                        \
        sw op w;                                                        \
        MASK_EACH (MASK_ADD, op);                                       \
    }
#define MASK_PF(j, op) sf op MASK_ALPHA ((j), y)
    MASK_BOTH (MASK_SPAN, x_begin, rx, fx, width, MASK_PX, MASK_PF);
#define MASK_PUT(c, sc, oc, op) tmp[t + (c)] = sc
    size_t t = (clb_slot (y, ring) * width + x_begin) * elems;
    for (int x = x_begin; x < x_end; x++, t += elems) {
        MASK_EACH (MASK_PUT, =);
        if (!blend)
            tmp[t + cn] = sw;
        if (fx >= 0)
            tmp[t + elems - 1] = sf;
        MASK_BOTH (MASK_MOVE, x, rx, fx, width, MASK_PX, MASK_PF);
    }
#undef MASK_ADD
#undef MASK_PX
#undef MASK_PF
#undef MASK_PUT
}

/* (n + d / 2) / d for d > 0, from a float reciprocal of d (@rcp): the
 * quotient is at most 65535, so the float estimate is within one of it
 * (relative error a few 2^-24), then corrected to the exact one in
 * integers (vector integer division is scalarised on CPUs). */
uint
mask_quot (ulong n, ulong d, float rcp)
{
    n += d / 2;
    /* (n < 2^41: the signed conversion, one instruction) */
    long q = (long) ((float) (long) n * rcp);
    long r = (long) n - q * (long) d;
    if (r < 0)
        q--;
    else if (r >= (long) d)
        q++;
    return (uint) q;
}

/* (a v + (m - a) b + m / 2) / m, from @rm = 1 / m. */
#define MASK_BLEND(a, v, b, m, rm) mask_quot ((a) * (v) + ((m) - (a)) * (b), \
                                              (m), (rm))

__kernel void
mask_columns (__global const mask_row_t *tmp, __global const sample_t *src,
              __global sample_t *dst, __global const sample_t *filtered,
              int pitch, int pstride, int4 off, int swap, int shift,
              __global const sample_t *alpha, int apitch, int apstride,
              int aoff, int aw, int ah, int xs, int ys, int amax, int width,
              int height, int channels, int rx, int ry, int fx, int fy,
              int border, int blend, int ring, int chunk, int y_begin,
              int y_end, __global uint *seen, uint stamp)
{
    int x = get_global_id (0), y0 = y_begin + (int) get_global_id (1) * chunk;
    if (x >= width || y0 >= y_end)
        return;
    int y1 = min (y_end, y0 + chunk), cn = blend ? 0 : channels;
    int elems = mask_elems (channels, blend, fx);
    size_t row_len = (size_t) width * elems, col = (size_t) x * elems;
    size_t px = (size_t) x * pstride;
    uint m = (uint) amax, bg = 0;
    float rm = 1.0f / (float) m;

    ulong s0 = 0, s1 = 0, s2 = 0, s3 = 0, sw = 0, sf = 0;
#define MASK_TADD(c, sc, oc, op) sc op tmp[t + (c)]
/* row @r of the intermediate into (@op +=) or out of (-=) the sums; the
 * feather's sum of row @r */
#define MASK_TROW(r, op)                                                \
    {                                                                   \
        size_t t = clb_slot ((r), ring) * row_len + col;                \
        MASK_EACH (MASK_TADD, op);                                      \
        sw op tmp[t + cn];                                              \
    }
#define MASK_TF(r, op) \
    sf op tmp[clb_slot ((r), ring) * row_len + col + elems - 1]
    MASK_BOTH (MASK_SPAN, y0, ry, fy, height, MASK_TROW, MASK_TF);
    uint nfx = fx >= 0 ? clb_border_count (x, fx, width, border) : 0;
    for (int y = y0; y < y1; y++) {
        uint a;
        if (fx >= 0) {
            ulong n = (ulong) nfx * clb_border_count (y, fy, height, border);
            a = (uint) ((sf + n / 2) / n);
        } else {
            a = MASK_ALPHA (x, y);
        }
        bg |= m - a;
        size_t o = (size_t) y * pitch + px;
        if (blend) {
            for (int c = 0; c < channels; c++) {
                size_t i = o + clb_comp (off, c);
                uint v = clb_load (src, i, swap, shift);
                uint b = clb_load (filtered, i, swap, shift);
                clb_store (dst, i, MASK_BLEND (a, v, b, m, rm), swap, shift);
            }
        } else {
            float rcp = sw > 0 ? 1.0f / (float) sw : 0.0f;
#define MASK_OUT(c, sc, oc, op)                                         \
            {                                                           \
                size_t i = o + (oc);                                    \
                uint v = clb_load (src, i, swap, shift);                \
                uint b = sw == 0 ? v : mask_quot (sc, sw, rcp);         \
                clb_store (dst, i, MASK_BLEND (a, v, b, m, rm), swap,   \
                           shift);                                      \
            }
            MASK_EACH (MASK_OUT, =);
#undef MASK_OUT
        }
        MASK_BOTH (MASK_MOVE, y, ry, fy, height, MASK_TROW, MASK_TF);
    }
    if (bg != 0)
        *seen = stamp;
#undef MASK_TADD
#undef MASK_TROW
#undef MASK_TF
}

/* mask_columns for CPUs: a work-item per strip of up to MASK_STRIP
 * neighbouring columns (whole cache lines of the intermediate and of the
 * frame at each row, where a work-item per column would touch a line per
 * row and column), the sums of the strip in a private array. */
#define MASK_STRIP 16
#define MASK_MAX_ELEMS 6

__kernel void
mask_columns_strip (__global const mask_row_t *tmp,
                    __global const sample_t *src, __global sample_t *dst,
                    int pitch, int pstride, int4 off, int swap, int shift,
                    __global const sample_t *alpha, int apitch,
                    int apstride, int aoff, int aw, int ah, int xs, int ys,
                    int amax, int width, int height, int channels, int ry,
                    int fx, int fy, int border, int ring, int chunk,
                    int y_begin, int y_end, __global uint *seen, uint stamp)
{
    int x0 = get_global_id (0) * MASK_STRIP;
    int y0 = y_begin + (int) get_global_id (1) * chunk;
    if (x0 >= width || y0 >= y_end)
        return;
    int n = min (MASK_STRIP, width - x0), y1 = min (y_end, y0 + chunk);
    int cn = channels, elems = mask_elems (channels, 0, fx);
    int feather = fx >= 0, len = n * elems;
    size_t row_len = (size_t) width * elems, first = (size_t) x0 * elems;
    uint m = (uint) amax, bg = 0;
    float rm = 1.0f / (float) m;
    ulong sum[MASK_STRIP * MASK_MAX_ELEMS];
    uint nfx[MASK_STRIP];

    for (int k = 0; k < len; k++)
        sum[k] = 0;
    /* the sums of the first window: the box's rows (ry) and the
     * feather's (fy) differ */
    for (int i = y0 - max (ry, fy); i <= y0 + max (ry, fy); i++) {
        int r = clb_border_index (i, height, border);
        if (r < 0)
            continue;
        __global const mask_row_t *t = tmp + clb_slot (r, ring)
            * row_len + first;
        int box = i >= y0 - ry && i <= y0 + ry;
        int fea = feather && i >= y0 - fy && i <= y0 + fy;
        for (int k = 0; k < len; k++) {
            int e = k % elems;
            if ((e == elems - 1 && feather) ? fea : box)
                sum[k] += t[k];
        }
    }
    for (int j = 0; j < n; j++)
        nfx[j] = feather ? clb_border_count (x0 + j, fx, width, border) : 1;

    for (int y = y0; y < y1; y++) {
        uint cy = feather ? clb_border_count (y, fy, height, border) : 1;
        for (int j = 0; j < n; j++) {
            int x = x0 + j;
            ulong *s = sum + j * elems;
            uint a;
            if (feather) {
                ulong na = (ulong) nfx[j] * cy;
                a = (uint) ((s[elems - 1] + na / 2) / na);
            } else {
                a = MASK_ALPHA (x, y);
            }
            bg |= m - a;
            ulong sw = s[cn];
            float rcp = sw > 0 ? 1.0f / (float) sw : 0.0f;
            size_t o = (size_t) y * pitch + (size_t) x * pstride;
            for (int c = 0; c < cn; c++) {
                size_t i = o + clb_comp (off, c);
                uint v = clb_load (src, i, swap, shift);
                uint b = sw == 0 ? v : mask_quot (s[c], sw, rcp);
                clb_store (dst, i, MASK_BLEND (a, v, b, m, rm), swap, shift);
            }
        }
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        int fin = feather ? clb_border_index (y + fy + 1, height, border) : -1;
        int fout = feather ? clb_border_index (y - fy, height, border) : -1;
#define MASK_TP(r) (tmp + clb_slot (max ((r), 0), ring) * row_len + first)
        __global const mask_row_t *ti = MASK_TP (in), *to = MASK_TP (out);
        __global const mask_row_t *tfi = MASK_TP (fin), *tfo = MASK_TP (fout);
#undef MASK_TP
        /* every element moves by the box's rows, then the feather's
         * element is put right (its rows differ) */
        if (in >= 0 && out >= 0) {
            for (int k = 0; k < len; k++)
                sum[k] += (ulong) ti[k] - (ulong) to[k];
        } else if (in >= 0) {
            for (int k = 0; k < len; k++)
                sum[k] += ti[k];
        } else if (out >= 0) {
            for (int k = 0; k < len; k++)
                sum[k] -= to[k];
        }
        if (feather) {
            for (int k = elems - 1; k < len; k += elems) {
                if (in >= 0)
                    sum[k] -= ti[k];
                if (out >= 0)
                    sum[k] += to[k];
                if (fin >= 0)
                    sum[k] += tfi[k];
                if (fout >= 0)
                    sum[k] -= tfo[k];
            }
        }
    }
    if (bg != 0)
        *seen = stamp;
}
