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
 *   mask_columns_strip  the same, a work-item per strip of 16 columns
 *                 (CPUs)
 *   mask_fused_x16, mask_vertical_x16, mask_horizontal_x16  CPUs, 8-bit
 *                 pixels of 4 bytes with alpha (a feather fused only): in vector
 *                 lanes, 32-bit sums (further down)
 *   mask_alpha_sub, mask_planar_x16, mask_planar_pair_x16  CPUs, 8-bit
 *                 jobs of one sample a pixel, the alpha a plane of its own
 *                 (A420): the subsampled job's alphas made first (the
 *                 pair: in its bands), then
 *                 both passes fused in bands of rows, 16 pixels in vector
 *                 lanes, 32-bit sums, two jobs of one alpha (U and V) in
 *                 one walk, the alpha plane copied by the job that reads
 *                 it whole (further down)
 *
 * The intermediate's row sums: I w < (2 * 2047 + 1) * 255 * 255 < 2^32
 * for 8-bit samples (uint); 16-bit samples need 64 bits (ulong). The
 * column sums are 64-bit for both: (2 * 2047 + 1)^2 * 255 * 255 > 2^32.
 * The blend's products fit 32 bits: a I + (amax - a) B + amax / 2 <=
 * 65535 * 65535 + 32767 < 2^32.
 *
 * With blend (bilateral and the mask), no box: B is the filtered sample
 * read from @filtered, and the intermediate holds only the feather sums.
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
 * cn - 1 with o_c the channel's offset, s_c its sum. */
#define MASK_EACH(stmt)                                                 \
    do {                                                                \
        if (cn > 0) { stmt (0, s0, off.s0); }                           \
        if (cn > 1) { stmt (1, s1, off.s1); }                           \
        if (cn > 2) { stmt (2, s2, off.s2); }                           \
        if (cn > 3) { stmt (3, s3, off.s3); }                           \
    } while (0)

__kernel void
mask_rows (__global const sample_t *src, int pitch, int pstride, int4 off,
           int swap, int shift, __global const sample_t *alpha, int apitch,
           int apstride, int aoff, int aw, int ah, int xs, int ys,
           int amax, __global mask_row_t *tmp, int width, int height,
           int channels, int rx, int fx, int border, int blend, int ring,
           int part, int y_first, int y_end)
{
    int p = get_global_id (0);
    int y = y_first + (int) get_global_id (1);
    int x_begin = p * part;
    if (y >= y_end || x_begin >= width)
        return;
    int x_end = min (width, x_begin + part);
    int cn = blend ? 0 : channels;
    int elems = mask_elems (channels, blend, fx);
    size_t row = (size_t) y * pitch;

    mask_row_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, sw = 0, sf = 0;
#define MASK_ADD(c, sc, oc) sc += w * clb_load (src, o + (oc), swap, shift)
#define MASK_SUB(c, sc, oc) sc -= w * clb_load (src, o + (oc), swap, shift)
    if (!blend) {
        for (int i = x_begin - rx; i <= x_begin + rx; i++) {
            int j = clb_border_index (i, width, border);
            if (j < 0)
                continue;
            mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (j, y));
            size_t o = row + (size_t) j * pstride;
            sw += w;
            MASK_EACH (MASK_ADD);
        }
    }
    if (fx >= 0) {
        for (int i = x_begin - fx; i <= x_begin + fx; i++) {
            int j = clb_border_index (i, width, border);
            if (j >= 0)
                sf += MASK_ALPHA (j, y);
        }
    }
#define MASK_PUT(c, sc, oc) tmp[t + (c)] = sc
    size_t t = (separable_slot (y, ring) * width + x_begin) * elems;
    for (int x = x_begin; x < x_end; x++, t += elems) {
        MASK_EACH (MASK_PUT);
        if (!blend)
            tmp[t + cn] = sw;
        if (fx >= 0)
            tmp[t + elems - 1] = sf;
        if (!blend) {
            int in = x + rx + 1, out = x - rx;
            if (in >= width || out < 0) {
                in = clb_border_index (in, width, border);
                out = clb_border_index (out, width, border);
            }
            if (in >= 0) {
                mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (in, y));
                size_t o = row + (size_t) in * pstride;
                sw += w;
                MASK_EACH (MASK_ADD);
            }
            if (out >= 0) {
                mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (out, y));
                size_t o = row + (size_t) out * pstride;
                sw -= w;
                MASK_EACH (MASK_SUB);
            }
        }
        if (fx >= 0) {
            int in = clb_border_index (x + fx + 1, width, border);
            int out = clb_border_index (x - fx, width, border);
            if (in >= 0)
                sf += MASK_ALPHA (in, y);
            if (out >= 0)
                sf -= MASK_ALPHA (out, y);
        }
    }
#undef MASK_ADD
#undef MASK_SUB
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

/* (a v + (m - a) b + m / 2) / m, from @rm = 1 / m as mask_quot does. */
uint
mask_blend (uint a, uint v, uint b, uint m, float rm)
{
    uint n = a * v + (m - a) * b + m / 2;
    long q = (long) ((float) n * rm);
    long r = (long) n - q * (long) m;
    if (r < 0)
        q--;
    else if (r >= (long) m)
        q++;
    return (uint) q;
}

__kernel void
mask_columns (__global const mask_row_t *tmp, __global const sample_t *src,
              __global sample_t *dst, __global const sample_t *filtered,
              int pitch, int pstride, int4 off, int swap, int shift,
              __global const sample_t *alpha, int apitch, int apstride,
              int aoff, int aw, int ah, int xs, int ys, int amax, int width,
              int height, int channels, int rx, int ry, int fx, int fy,
              int border, int blend, int ring, int chunk, int y_begin,
              int y_end)
{
    int x = get_global_id (0);
    int y0 = y_begin + (int) get_global_id (1) * chunk;
    if (x >= width || y0 >= y_end)
        return;
    int y1 = min (y_end, y0 + chunk);
    int cn = blend ? 0 : channels;
    int elems = mask_elems (channels, blend, fx);
    size_t row_len = (size_t) width * elems;
    size_t col = (size_t) x * elems;
    size_t px = (size_t) x * pstride;
    uint m = (uint) amax;
    float rm = 1.0f / (float) m;

    ulong s0 = 0, s1 = 0, s2 = 0, s3 = 0, sw = 0, sf = 0;
#define MASK_TADD(c, sc, oc) sc += tmp[t + (c)]
#define MASK_TSUB(c, sc, oc) sc -= tmp[t + (c)]
    if (!blend) {
        for (int i = y0 - ry; i <= y0 + ry; i++) {
            int r = clb_border_index (i, height, border);
            if (r < 0)
                continue;
            size_t t = separable_slot (r, ring) * row_len + col;
            MASK_EACH (MASK_TADD);
            sw += tmp[t + cn];
        }
    }
    uint nfx = 0;
    if (fx >= 0) {
        nfx = clb_border_count (x, fx, width, border);
        for (int i = y0 - fy; i <= y0 + fy; i++) {
            int r = clb_border_index (i, height, border);
            if (r >= 0)
                sf += tmp[separable_slot (r, ring) * row_len + col + elems
                          - 1];
        }
    }
    for (int y = y0; y < y1; y++) {
        uint a;
        if (fx >= 0) {
            ulong n = (ulong) nfx * clb_border_count (y, fy, height, border);
            a = (uint) ((sf + n / 2) / n);
        } else {
            a = MASK_ALPHA (x, y);
        }
        size_t o = (size_t) y * pitch + px;
        if (blend) {
            for (int c = 0; c < channels; c++) {
                size_t i = o + clb_comp (off, c);
                uint v = clb_load (src, i, swap, shift);
                uint b = clb_load (filtered, i, swap, shift);
                clb_store (dst, i, mask_blend (a, v, b, m, rm), swap, shift);
            }
        } else {
            float rcp = sw > 0 ? 1.0f / (float) sw : 0.0f;
#define MASK_OUT(c, sc, oc)                                             \
            {                                                           \
                size_t i = o + (oc);                                    \
                uint v = clb_load (src, i, swap, shift);                \
                uint b = sw == 0 ? v : mask_quot (sc, sw, rcp);         \
                clb_store (dst, i, mask_blend (a, v, b, m, rm), swap,   \
                           shift);                                      \
            }
            MASK_EACH (MASK_OUT);
#undef MASK_OUT
        }
        if (!blend) {
            int in = y + ry + 1, out = y - ry;
            if (in >= height || out < 0) {
                in = clb_border_index (in, height, border);
                out = clb_border_index (out, height, border);
            }
            if (in >= 0) {
                size_t t = separable_slot (in, ring) * row_len + col;
                MASK_EACH (MASK_TADD);
                sw += tmp[t + cn];
            }
            if (out >= 0) {
                size_t t = separable_slot (out, ring) * row_len + col;
                MASK_EACH (MASK_TSUB);
                sw -= tmp[t + cn];
            }
        }
        if (fx >= 0) {
            int in = clb_border_index (y + fy + 1, height, border);
            int out = clb_border_index (y - fy, height, border);
            if (in >= 0)
                sf += tmp[separable_slot (in, ring) * row_len + col + elems
                          - 1];
            if (out >= 0)
                sf -= tmp[separable_slot (out, ring) * row_len + col + elems
                          - 1];
        }
    }
#undef MASK_TADD
#undef MASK_TSUB
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
                    int y_begin, int y_end)
{
    int x0 = get_global_id (0) * MASK_STRIP;
    int y0 = y_begin + (int) get_global_id (1) * chunk;
    if (x0 >= width || y0 >= y_end)
        return;
    int n = min (MASK_STRIP, width - x0);
    int y1 = min (y_end, y0 + chunk);
    int cn = channels;
    int elems = mask_elems (channels, 0, fx);
    int feather = fx >= 0;
    int len = n * elems;
    size_t row_len = (size_t) width * elems;
    size_t first = (size_t) x0 * elems;
    uint m = (uint) amax;
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
        __global const mask_row_t *t = tmp + separable_slot (r, ring)
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
            ulong sw = s[cn];
            float rcp = sw > 0 ? 1.0f / (float) sw : 0.0f;
            size_t o = (size_t) y * pitch + (size_t) x * pstride;
            for (int c = 0; c < cn; c++) {
                size_t i = o + clb_comp (off, c);
                uint v = clb_load (src, i, swap, shift);
                uint b = sw == 0 ? v : mask_quot (s[c], sw, rcp);
                clb_store (dst, i, mask_blend (a, v, b, m, rm), swap, shift);
            }
        }
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        int fin = feather ? clb_border_index (y + fy + 1, height, border) : -1;
        int fout = feather ? clb_border_index (y - fy, height, border) : -1;
        __global const mask_row_t *ti = tmp + separable_slot (max (in, 0),
                                                              ring) * row_len
            + first;
        __global const mask_row_t *to = tmp + separable_slot (max (out, 0),
                                                              ring) * row_len
            + first;
        __global const mask_row_t *tfi = tmp + separable_slot (max (fin, 0),
                                                               ring) * row_len
            + first;
        __global const mask_row_t *tfo = tmp + separable_slot (max (fout, 0),
                                                               ring) * row_len
            + first;
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
}

#if CLB_SAMPLE_BITS == 8
/* CPUs, 8-bit pixels of 4 bytes with the alpha among them (RGBA and its
 * orders, AYUV; a feather only in mask_fused_x16): the vertical pass
 * first, 16 bytes (4 pixels)
 * in the lanes of a vector, then the horizontal pass a pixel (4 lanes) at
 * a time. Per pixel the vertical pass makes p = (I·w in the colour lanes,
 * w in the alpha's lane), w = 255 − alpha, and sums it down the column;
 * the horizontal pass sums those along the row, divides by the alpha
 * lane's Σ w and blends. Sums in 32 bits: the engine takes this path only
 * where (2 rx + 1) (2 ry + 1) · 255 · 255 + Σ w / 2 < 2^32 (radii up to
 * about 127). */

/* Lanes @ao, @ao + 4, @ao + 8 and @ao + 12 of @x (each pixel's alpha
 * lane), each in its pixel's 4 lanes; and the same 4 lanes alone.
 * With @ao a constant (CLB_INLINE callers), one permute. */
CLB_INLINE uint16
mask_lane16 (uint16 x, int ao)
{
    return ao == 0 ? x.s000044448888cccc : ao == 1 ? x.s111155559999dddd :
        ao == 2 ? x.s22226666aaaaeeee : x.s33337777bbbbffff;
}

CLB_INLINE uint4
mask_lane4 (uint16 x, int ao)
{
    return ao == 0 ? x.s048c : ao == 1 ? x.s159d : ao == 2 ? x.s26ae :
        x.s37bf;
}

/* Each pixel's alpha (lane @ao of its 4) in all its lanes. */
CLB_INLINE uint16
mask_alpha16 (uchar16 x, int ao)
{
    uchar16 a = ao == 0 ? x.s000044448888cccc : ao == 1 ?
        x.s111155559999dddd : ao == 2 ? x.s22226666aaaaeeee :
        x.s33337777bbbbffff;
    return convert_uint16 (a);
}

/* p of 4 pixels: I w in the colour lanes, w in the alpha's, in 32-bit
 * lanes (the alpha's lane made 1, then one product a lane; 255 - a
 * written a ^ 255 and both factors below 2^16, which the compiler sees:
 * one 16-bit multiply-add a lane on CPUs that have it). */
CLB_INLINE uint16
mask_weigh16 (uchar16 x, int ao)
{
    uint16 v = convert_uint16 (x);
    uint16 lane = (uint16) (0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
    uint16 w = mask_lane16 (v, ao) ^ (uint16) (0xff);
    uint16 f = bitselect (v, (uint16) (1), as_uint16 (lane == (uint16) (ao)));
    return as_uint16 (as_int16 (f) * as_int16 (w));
}

/* The same for one pixel (the strips' tails). */
uint4
mask_weigh4 (uchar4 x, int ao)
{
    uint a = ao == 0 ? x.s0 : ao == 1 ? x.s1 : ao == 2 ? x.s2 : x.s3;
    uint4 w = (uint4) (255 - a);
    int4 lane = (int4) (0, 1, 2, 3);
    return select (convert_uint4 (x) * w, w, lane == (int4) (ao));
}

/* A work-item per strip of 16 bytes of the rows (4 pixels), down the
 * frame: tmp row y holds the window sums of p over rows y - ry .. y + ry. */
__kernel void
mask_vertical_x16 (__global const uchar *src, int pitch, __global uint *tmp,
                   int width, int height, int ry, int border, int ao)
{
    int row_len = width * 4;
    int first = get_global_id (0) * 16;
    if (first >= row_len)
        return;

    if (first + 16 > row_len) {
        for (int k = first; k < row_len; k += 4) {
            uint4 sum = (uint4) (0);
            for (int i = -ry; i <= ry; i++) {
                int r = clb_border_index (i, height, border);
                if (r >= 0)
                    sum += mask_weigh4 (vload4 (0, src + (size_t) r * pitch
                                                + k), ao);
            }
            for (int y = 0; y < height; y++) {
                vstore4 (sum, 0, tmp + (size_t) y * row_len + k);
                int in = clb_border_index (y + ry + 1, height, border);
                int out = clb_border_index (y - ry, height, border);
                if (in >= 0)
                    sum += mask_weigh4 (vload4 (0, src + (size_t) in * pitch
                                                + k), ao);
                if (out >= 0)
                    sum -= mask_weigh4 (vload4 (0, src + (size_t) out * pitch
                                                + k), ao);
            }
        }
        return;
    }

    __global const uchar *col = src + first;
    uint16 sum = (uint16) (0);
    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            sum += mask_weigh16 (CLB_LOAD16 (uchar, col + (size_t) r * pitch),
                                 ao);
    }
    for (int y = 0; y < height; y++) {
        CLB_STORE16 (uint, sum, tmp + (size_t) y * row_len + first);
        int in = y + ry + 1, out = y - ry;
        if (in >= height || out < 0) {
            in = clb_border_index (in, height, border);
            out = clb_border_index (out, height, border);
        }
        if (in >= 0)
            sum += mask_weigh16 (CLB_LOAD16 (uchar, col + (size_t) in * pitch),
                                 ao);
        if (out >= 0)
            sum -= mask_weigh16 (CLB_LOAD16 (uchar, col
                                             + (size_t) out * pitch), ao);
    }
}

/* A float reciprocal of each lane of @sw (of max (Σw, 1)) scaled by
 * 1 - 2^-20 = 0.99999904632568359375 for mask_mix16. */
#define MASK_RCP(type, ftype, sw)                                       \
    ((ftype) (1.0f) / convert_##ftype (max ((sw), (type) (1)))          \
     * (ftype) (0.99999904632568359375f))

/* B and the blend of 16 samples: @n = S + Σw / 2 (S the window's
 * sum of I w), @sw = Σw, @r its reciprocal (MASK_RCP), @v the samples,
 * @a their alphas.
 *
 * B = n / Σw: the reciprocal, scaled by 1 - 2^-20, lies below 1 / Σw
 * (a division is within 2.5 ulp in OpenCL), and its rounded product with
 * n below n / Σw and within 2^-20 * 257 of it, so its truncation q is
 * the quotient or one less, and n - q Σw >= Σw says which.
 *
 * B = I where Σw = 0, which only @feathered alphas need: otherwise
 * Σw = 0 means the pixel's own w is 0, its alpha 255 (amax), and the
 * blend is I whatever B is. The blend a I + (255 - a) B + 127 =
 * 255 B + a (I - B) + 127 (modulo 2^32 in the lanes: the result lies in
 * 0 .. 65152, so it is exact), divided by 255 as (t + (t >> 8)) >> 8
 * with t = that + 1 (exact for every such value). Both products'
 * factors are known below 2^16 (B & 0xff changes nothing: B <= 255), so
 * CPUs that have one make each a 16-bit multiply-add. */
CLB_INLINE uint16
mask_mix16 (uint16 n, uint16 sw, float16 r, uint16 v, uint16 a, int feathered)
{
    uint16 q = convert_uint16 (convert_float16 (n) * r);
    q = select (q, q + (uint16) (1), n - q * sw >= sw);
    uint16 b = (feathered ? select (q, v, sw == (uint16) (0)) : q)
        & (uint16) (0xff);
    uint16 t = b * (uint16) (255)
        + as_uint16 (as_int16 (a & (uint16) (0xff))
                     * (as_int16 (v) - as_int16 (b))) + (uint16) (128);
    return (t + (t >> 8)) >> 8;
}

/* The blend of 4 pixels: @sum the window sums (4 lanes a pixel, the
 * alpha's lane Σ w), @x the pixels as read, @a their alphas (in each
 * pixel's 4 lanes), by mask_mix16 with 4 divisions, not 16 (a float4,
 * broadcast back). The alpha lane is written as read: its a is taken as
 * 255. */
CLB_INLINE uchar16
mask_blend16 (uint16 sum, uchar16 x, uint16 a, int ao, int feathered)
{
    uint16 v = convert_uint16 (x);
    uint16 sw = mask_lane16 (sum, ao);
    float4 r4 = MASK_RCP (uint4, float4, mask_lane4 (sum, ao));
    uint16 lane = (uint16) (0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
    return convert_uchar16 (mask_mix16 (sum + (sw >> 1), sw,
                                        r4.s0000111122223333, v,
                                        a | as_uint16 (lane == (uint16) (ao)),
                                        feathered));
}

/* One row of mask_horizontal_x16 (in place): @t the row's vertical
 * window sums (4 uint a pixel), @s the row's pixels, @d where the output
 * row goes: the window sums along the row, a pixel's 4 lanes at a time,
 * blended 4 pixels at a time (mask_blend16). (mask_fused_x16 walks padded
 * rows of sums, one a channel, without branches instead: mask_q_row.) */
void
mask_h_row (__global const uint *t, __global const uchar *s,
            __global uchar *d, int width, int rx, int border, int ao)
{
    uint4 sum = (uint4) (0);
    for (int i = -rx; i <= rx; i++) {
        int j = clb_border_index (i, width, border);
        if (j >= 0)
            sum += vload4 (j, t);
    }
    /* the window moves from x to x + 1 */
#define MASK_MOVE(x)                                                    \
    do {                                                                \
        int in_ = (x) + rx + 1, out_ = (x) - rx;                        \
        if (in_ >= width || out_ < 0) {                                 \
            in_ = clb_border_index (in_, width, border);                \
            out_ = clb_border_index (out_, width, border);              \
            if (in_ >= 0)                                               \
                sum += vload4 (in_, t);                                 \
            if (out_ >= 0)                                              \
                sum -= vload4 (out_, t);                                \
        } else {                                                        \
            sum += vload4 (in_, t) - vload4 (out_, t);                  \
        }                                                               \
    } while (0)
    int x = 0;
    for (; x + 4 <= width; x += 4) {
        uint4 s0 = sum;
        MASK_MOVE (x);
        uint4 s1 = sum;
        MASK_MOVE (x + 1);
        uint4 s2 = sum;
        MASK_MOVE (x + 2);
        uint4 s3 = sum;
        MASK_MOVE (x + 3);
        uchar16 px = CLB_LOAD16 (uchar, s + x * 4);
        CLB_STORE16 (uchar, mask_blend16 ((uint16) (s0, s1, s2, s3), px,
                                          mask_alpha16 (px, ao), ao, 0),
                     d + x * 4);
    }
    /* the last 1 to 3 pixels */
    for (; x < width; x++) {
        uchar16 px = (uchar16) (vload4 (x, s), (uchar4) (0), (uchar4) (0),
                                (uchar4) (0));
        uint16 all = (uint16) (sum, (uint4) (0), (uint4) (0), (uint4) (0));
        vstore4 (mask_blend16 (all, px, mask_alpha16 (px, ao), ao, 0).s0123, x,
                 d);
        MASK_MOVE (x);
    }
#undef MASK_MOVE
}

/* A work-item per row (the vertical sums made by mask_vertical_x16). */
__kernel void
mask_horizontal_x16 (__global const uint *tmp, __global const uchar *src,
                     int src_pitch, __global uchar *dst, int pitch,
                     int width, int height, int rx, int border, int ao)
{
    int y = get_global_id (0);
    if (y >= height)
        return;
    mask_h_row (tmp + (size_t) y * width * 4, src + (size_t) y * src_pitch,
                dst + (size_t) y * pitch, width, rx, border, ao);
}

/* ---- mask_planar_x16: CPUs, 8-bit jobs of one sample a pixel whose
 * alpha lies in a plane of its own (A420's Y, U and V; planar RGB with
 * alpha) ----
 *
 * The alpha of a subsampled job (the rounded mean of its footprint, as
 * mask_alpha) is made once a job by mask_alpha_sub, into a plane of the
 * job's size (mask_planar_pair_x16: by each band, for the rows it reads,
 * in the same launch); then mask_planar_x16 walks down a band of rows as
 * mask_fused_x16 does, with rows of vertical window sums in tmp: of I w
 * (vi), of w (vw) and, with a feather, of the alpha (va), 16 pixels in
 * the lanes of a vector. Each of those rows is extended past the row's
 * ends by @pad (> max (rx, fx)) positions that hold the border's values
 * (0 for shrink), so that the horizontal pass needs no branch: the
 * window sums of 16 neighbouring pixels are the last one's sum plus the
 * prefix sums of (entering - leaving) columns. Sums in 32 bits, as
 * mask_x16 (the engine checks the same bound); the wrapped differences
 * add up to the exact sums. */

/* Row @y of the alphas of a job subsampled by 2^xs x 2^ys (xs, ys <= 1)
 * into @o (@width bytes): mask_alpha's rounded mean of each pixel's
 * footprint in @alpha (@aw x @ah, rows @apitch apart); 16 pixels at a
 * time where the 2 x 2 footprints lie inside the frame. */
CLB_INLINE void
mask_sub_row (__global const uchar *alpha, int apitch, int aw, int ah,
              int xs, int ys, __global uchar *o, int width, int y)
{
    __global const uchar *a0 = alpha + (size_t) (y << ys) * apitch;
    __global const uchar *a1 = a0 + apitch;
    int x = 0;
    if (xs == 1 && ys == 1 && 2 * y + 1 < ah) {
        for (; 2 * x + 32 <= aw && x + 16 <= width; x += 16) {
            uchar16 p0 = CLB_LOAD16 (uchar, a0 + 2 * x);
            uchar16 p1 = CLB_LOAD16 (uchar, a0 + 2 * x + 16);
            uchar16 q0 = CLB_LOAD16 (uchar, a1 + 2 * x);
            uchar16 q1 = CLB_LOAD16 (uchar, a1 + 2 * x + 16);
            ushort16 s = convert_ushort16 ((uchar16) (p0.even, p1.even))
                + convert_ushort16 ((uchar16) (p0.odd, p1.odd))
                + convert_ushort16 ((uchar16) (q0.even, q1.even))
                + convert_ushort16 ((uchar16) (q0.odd, q1.odd));
            CLB_STORE16 (uchar, convert_uchar16 ((s + (ushort16) (2)) >> 2),
                         o + x);
        }
    }
    for (; x < width; x++) {
        int x0 = x << xs, y0 = y << ys;
        int x1 = min (aw, (x + 1) << xs), y1 = min (ah, (y + 1) << ys);
        uint sum = 0, n = 0;
        for (int j = y0; j < y1; j++) {
            for (int i = x0; i < x1; i++) {
                sum += alpha[(size_t) j * apitch + i];
                n++;
            }
        }
        o[x] = (uchar) (n > 0 ? (sum + n / 2) / n : 0);
    }
}

/* The alpha of each pixel of a job subsampled by 2^xs x 2^ys (xs, ys <= 1)
 * into @out (width x height, packed): mask_sub_row, a work-item a row
 * (mask_planar_x16's subsampled jobs; its pair makes its own). */
__kernel void
mask_alpha_sub (__global const uchar *alpha, int apitch, int aoff, int aw,
                int ah, int xs, int ys, __global uchar *out, int out_off,
                int width, int height)
{
    int y = get_global_id (0);
    if (y < height)
        mask_sub_row (alpha + aoff, apitch, aw, ah, xs, ys,
                      out + out_off + (size_t) y * width, width, y);
}

/* @load: the first @n (< 16: the rest 0) or 16 elements of @type at @p;
 * @store: the first @n (or all 16) lanes of @v to @p. For bytes
 * (mask_load_part, mask_store_part) and for pixels of 4 bytes read as
 * uint (mask_load_px, mask_store_px: mask_fused_x16). */
#define MASK_PART(type, load, store)                                    \
    type##16                                                            \
    load (__global const type *p, int n)                                \
    {                                                                   \
        if (n >= 16)                                                    \
            return CLB_LOAD16 (type, p);                                \
        type b[16];                                                     \
        for (int k = 0; k < 16; k++)                                    \
            b[k] = k < n ? p[k] : 0;                                    \
        return vload16 (0, b);                                          \
    }                                                                   \
                                                                        \
    void                                                                \
    store (type##16 v, __global type *p, int n)                         \
    {                                                                   \
        if (n >= 16) {                                                  \
            CLB_STORE16 (type, v, p);                                   \
            return;                                                     \
        }                                                               \
        type b[16];                                                     \
        vstore16 (v, 0, b);                                             \
        for (int k = 0; k < n; k++)                                     \
            p[k] = b[k];                                                \
    }
MASK_PART (uchar, mask_load_part, mask_store_part)
MASK_PART (uint, mask_load_px, mask_store_px)
#undef MASK_PART

/* The vertical sums' move down a row: @vi, @vw += the weighed samples
 * of row @si (alphas @ai) and -= those of row @so (@ao), each pair NULL
 * for none, one load and store of the sums for both; with @two (a
 * constant: the callers inline it), @vi2 alike from the second job's
 * rows @si2 and @so2 (the same alphas); with a feather (@va not NULL),
 * the feather's sums of alpha @va += row @fi's, -= row @fo's, in the same
 * walk. */
CLB_INLINE void
mask_pv_move (__global uint *vi, __global uint *vi2, __global uint *vw,
              __global uint *va, __global const uchar *si,
              __global const uchar *si2, __global const uchar *ai,
              __global const uchar *so, __global const uchar *so2,
              __global const uchar *ao, __global const uchar *fi,
              __global const uchar *fo, int width, int two)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 di = (uint16) (0), di2 = di, dw = di;
        /* I w <= 255 * 255: 16-bit products */
        if (ai != 0) {
            ushort16 w = (ushort16) (255)
                - convert_ushort16 (mask_load_part (ai + x, n));
            di += convert_uint16 (convert_ushort16 (mask_load_part (si + x,
                                                                    n)) * w);
            if (two)
                di2 += convert_uint16 (convert_ushort16
                                       (mask_load_part (si2 + x, n)) * w);
            dw += convert_uint16 (w);
        }
        if (ao != 0) {
            ushort16 w = (ushort16) (255)
                - convert_ushort16 (mask_load_part (ao + x, n));
            di -= convert_uint16 (convert_ushort16 (mask_load_part (so + x,
                                                                    n)) * w);
            if (two)
                di2 -= convert_uint16 (convert_ushort16
                                       (mask_load_part (so2 + x, n)) * w);
            dw -= convert_uint16 (w);
        }
        CLB_STORE16 (uint, CLB_LOAD16 (uint, vi + x) + di, vi + x);
        if (two)
            CLB_STORE16 (uint, CLB_LOAD16 (uint, vi2 + x) + di2, vi2 + x);
        CLB_STORE16 (uint, CLB_LOAD16 (uint, vw + x) + dw, vw + x);
        if (va == 0)
            continue;
        uint16 d = (uint16) (0);
        if (fi != 0)
            d += convert_uint16 (mask_load_part (fi + x, n));
        if (fo != 0)
            d -= convert_uint16 (mask_load_part (fo + x, n));
        CLB_STORE16 (uint, CLB_LOAD16 (uint, va + x) + d, va + x);
    }
}

/* The positions -pad .. -1 and width .. width + pad - 1 of @rows rows
 * @len apart from @v as the border maps them (0 where it drops them). */
void
mask_pv_pad (__global uint *v, int rows, int len, int width, int pad,
             int border)
{
    for (int i = 1; i <= pad; i++) {
        int j = clb_border_index (-i, width, border);
        int k = clb_border_index (width - 1 + i, width, border);
        for (int c = 0; c < rows; c++) {
            __global uint *w = v + c * len;
            w[-i] = j >= 0 ? w[j] : 0;
            w[width - 1 + i] = k >= 0 ? w[k] : 0;
        }
    }
}

/* The sums of the windows of radius @r of pixels x .. x + 15 from @v
 * (padded): @carry the sum of pixel x - 1's in every lane, updated to
 * pixel x + 15's; the prefix sums of (entering - leaving) columns modulo
 * 2^32 (the wrapped differences add up to the exact sums), the shifts'
 * zeros opaque (separable_zero16). */
CLB_INLINE uint16
mask_pv_window (__global const uint *v, int x, int r, uint16 * carry)
{
    uint16 s = *carry + separable_scan16 (CLB_LOAD16 (uint, v + x + r)
                                          - CLB_LOAD16 (uint, v + x - r - 1),
                                          1, separable_zero16 (r));
    *carry = CLB_LAST1 (s);
    return s;
}

/* The sums of a row's first window (pixel -1's, the pad's), radius @r,
 * in every lane. */
CLB_INLINE uint16
mask_pv_start (__global const uint *v, int r)
{
    uint c = 0;
    for (int i = -r - 1; i < r; i++)
        c += v[i];
    return (uint16) (c);
}

/* The feathered alphas of pixels x .. x + 15: the rounded means
 * (sa + n / 2) / n of @va's (padded) window sums of radius @fx (@ca the
 * carry, as mask_pv_window's), n = @cy (2 fx + 1) pixels and @r_in its
 * reciprocal scaled as MASK_RCP (shrink: fewer pixels at the row's ends,
 * their counts and reciprocals made there). The scaled reciprocal puts
 * the product below the quotient and within 2^-20 * 257 of it (n < 2^25,
 * the quotient <= 255): one upward correction, as in mask_mix16. */
CLB_INLINE uint16
mask_feather16 (__global const uint *va, int x, int fx, uint16 * ca,
                uint cy, float r_in, int width, int border)
{
    uint16 sa = mask_pv_window (va, x, fx, ca);
    uint16 cnt = (uint16) (cy * (uint) (2 * fx + 1));
    float16 r = (float16) (r_in);
    if (border == CLB_BORDER_SHRINK && (x < fx || x + 15 + fx >= width)) {
        uint c[16];
        for (int k = 0; k < 16; k++)
            c[k] = x + k < width ? cy * clb_border_count (x + k, fx, width,
                                                          border) : 1;
        cnt = vload16 (0, c);
        r = MASK_RCP (uint16, float16, cnt);
    }
    uint16 num = sa + (cnt >> 1);
    uint16 q = convert_uint16 (convert_float16 (num) * r);
    return select (q, q + (uint16) (1), num - q * cnt >= cnt);
}

/* The scaled reciprocal (MASK_RCP) of a feather window's pixels
 * @cy (2 @fx + 1). */
CLB_INLINE float
mask_feather_rcp (uint cy, int fx)
{
    return 1.0f / (float) (cy * (uint) (2 * max (fx, 0) + 1))
        * 0.99999904632568359375f;
}

/* One output row: the window sums along the row from the vertical ones
 * (mask_pv_window), B and the blend as mask_mix16 makes them, the alpha
 * as read from @al or, with a feather (@fx >= 0), the rounded mean of
 * @va's window sums (cy rows); with @two (a constant), the second job's
 * row too (@vi2, @s2 into @d2), with the same weights, reciprocals and
 * alphas; with @copy, @al's row copied to @ac in the same walk. */
CLB_INLINE void
mask_p_row (__global const uint *vi, __global const uint *vi2,
            __global const uint *vw, __global const uint *va,
            __global const uchar *s, __global const uchar *s2,
            __global const uchar *al, __global uchar *d, __global uchar *d2,
            __global uchar *ac, int copy,
            int width, int rx, int fx, uint cy, int border, int two)
{
    uint16 ci = mask_pv_start (vi, rx), cw = mask_pv_start (vw, rx);
    uint16 ci2 = two ? mask_pv_start (vi2, rx) : (uint16) (0);
    uint16 ca = fx >= 0 ? mask_pv_start (va, fx) : (uint16) (0);
    float r_in = mask_feather_rcp (cy, fx);
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 si = mask_pv_window (vi, x, rx, &ci);
        uint16 sw = mask_pv_window (vw, x, rx, &cw);
        float16 r = MASK_RCP (uint16, float16, sw);
        uint16 v = convert_uint16 (n < 16 ? mask_load_part (s + x, n)
                                   : CLB_LOAD16 (uchar, s + x));
        /* the row's alphas: read where they blend or are copied */
        uchar16 ab = (uchar16) (0);
        if (copy || fx < 0) {
            ab = n < 16 ? mask_load_part (al + x, n)
                : CLB_LOAD16 (uchar, al + x);
            if (copy && n < 16)
                mask_store_part (ab, ac + x, n);
            else if (copy)
                CLB_STORE16 (uchar, ab, ac + x);
        }
        uint16 a = fx >= 0 ?
            mask_feather16 (va, x, fx, &ca, cy, r_in, width, border) :
            convert_uint16 (ab);
        uchar16 o = convert_uchar16 (mask_mix16 (si + (sw >> 1), sw, r, v,
                                                 a, fx >= 0));
        if (n < 16)
            mask_store_part (o, d + x, n);
        else
            CLB_STORE16 (uchar, o, d + x);
        if (!two)
            continue;
        si = mask_pv_window (vi2, x, rx, &ci2);
        v = convert_uint16 (n < 16 ? mask_load_part (s2 + x, n)
                            : CLB_LOAD16 (uchar, s2 + x));
        o = convert_uchar16 (mask_mix16 (si + (sw >> 1), sw, r, v, a,
                                         fx >= 0));
        if (n < 16)
            mask_store_part (o, d2 + x, n);
        else
            CLB_STORE16 (uchar, o, d2 + x);
    }
}

/* The vertical sums of the first row of a band (@y0): the box's window
 * of rows (@ry) into @vi and @vw (with @two, a constant, the second
 * job's into @vi2 from @src2) and, with a feather (@va not NULL), the
 * feather's (@fy) into @va, 16 pixels at a time summed in registers. */
CLB_INLINE void
mask_pv_first (__global uint *vi, __global uint *vi2, __global uint *vw,
               __global uint *va, __global const uchar *src,
               int src_pitch, __global const uchar *src2, int src2_pitch,
               __global const uchar *alpha, int apitch, int alo, int width,
               int height, int y0, int ry, int fy, int border, int two)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 si = (uint16) (0), si2 = si, sw = si, sa = si;
        for (int i = y0 - ry; i <= y0 + ry; i++) {
            int r = clb_border_index (i, height, border);
            if (r < 0)
                continue;
            ushort16 w = (ushort16) (255) - convert_ushort16
                (mask_load_part (alpha + (size_t) (r - alo) * apitch + x,
                                 n));
            si += convert_uint16 (convert_ushort16 (mask_load_part
                                                    (src + (size_t) r
                                                     * src_pitch + x, n)) * w);
            if (two)
                si2 += convert_uint16 (convert_ushort16 (mask_load_part
                                                         (src2 + (size_t) r
                                                          * src2_pitch + x,
                                                          n)) * w);
            sw += convert_uint16 (w);
        }
        CLB_STORE16 (uint, si, vi + x);
        if (two)
            CLB_STORE16 (uint, si2, vi2 + x);
        CLB_STORE16 (uint, sw, vw + x);
        if (va == 0)
            continue;
        for (int i = y0 - fy; i <= y0 + fy; i++) {
            int r = clb_border_index (i, height, border);
            if (r >= 0)
                sa += convert_uint16 (mask_load_part (alpha + (size_t)
                                                      (r - alo) * apitch + x,
                                                      n));
        }
        CLB_STORE16 (uint, sa, va + x);
    }
}

/* Band @band of @band_rows rows, from @src into @dst (and with @two, a
 * constant, the second job's @src2 into @dst2, the same size and
 * alphas), the alphas at @alpha (a byte a pixel, rows @apitch apart, row
 * @alo first: the rows the band reads, or all of them; with
 * @copy, each of the band's rows copied to @acopy, rows @acpitch apart:
 * the frame's alpha plane, as it came), the band's rows of sums from
 * @tmp: vi, vw, (two) vi2 and (feather) va, each (width rounded up to
 * 16) + 2 pad uint. */
CLB_INLINE void
mask_planar_band (__global const uchar *src, int src_pitch,
                  __global uchar *dst, int dst_pitch,
                  __global const uchar *src2, int src2_pitch,
                  __global uchar *dst2, int dst2_pitch,
                  __global const uchar *alpha, int apitch, int alo,
                  __global uchar *acopy, int acpitch, int copy,
                  __global uint *tmp, int band, int width, int height,
                  int rx, int ry, int fx, int fy, int border, int band_rows,
                  int pad, int two)
{
    int y0 = band * band_rows;
    if (y0 >= height)
        return;
    int y1 = min (height, y0 + band_rows);
    int len = ((width + 15) & ~15) + 2 * pad;
    int rows = 2 + two + (fx >= 0 ? 1 : 0);
    __global uint *base = tmp + (size_t) band * len * rows;
    __global uint *vi = base + pad, *vw = vi + len, *vi2 = vw + len;
    __global uint *va = fx >= 0 ? vw + len * (1 + two) : 0;

    for (int k = 0; k < len * rows; k++)
        base[k] = 0;
    mask_pv_first (vi, vi2, vw, va, src, src_pitch, src2, src2_pitch, alpha,
                   apitch, alo, width, height, y0, ry, fy, border, two);
    for (int y = y0; y < y1; y++) {
        mask_pv_pad (vi, rows, len, width, pad, border);
        mask_p_row (vi, vi2, vw, va, src + (size_t) y * src_pitch,
                    src2 + (size_t) y * src2_pitch,
                    alpha + (size_t) (y - alo) * apitch,
                    dst + (size_t) y * dst_pitch,
                    dst2 + (size_t) y * dst2_pitch,
                    acopy + (size_t) y * acpitch, copy, width, rx, fx,
                    fx >= 0 ? clb_border_count (y, fy, height, border) : 1,
                    border, two);
        if (y + 1 == y1)
            break;
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        int fin = fx >= 0 ? clb_border_index (y + fy + 1, height, border) : -1;
        int fout = fx >= 0 ? clb_border_index (y - fy, height, border) : -1;
        mask_pv_move (vi, vi2, vw, va,
                      in >= 0 ? src + (size_t) in * src_pitch : 0,
                      in >= 0 ? src2 + (size_t) in * src2_pitch : 0,
                      in >= 0 ? alpha + (size_t) (in - alo) * apitch : 0,
                      out >= 0 ? src + (size_t) out * src_pitch : 0,
                      out >= 0 ? src2 + (size_t) out * src2_pitch : 0,
                      out >= 0 ? alpha + (size_t) (out - alo) * apitch : 0,
                      fin >= 0 ? alpha + (size_t) (fin - alo) * apitch : 0,
                      fout >= 0 ? alpha + (size_t) (fout - alo) * apitch : 0,
                      width, two);
    }
}

/* A work-item per band of @band_rows rows, from @src (+ @src_off) into
 * @dst (+ @dst_off), the alphas at @alpha + @a_off (a byte a pixel, rows
 * @apitch apart; with @copy, copied to @acopy + @ac_off), the band's rows
 * of sums at @tmp + @tmp_off (mask_planar_band). */
__kernel void
mask_planar_x16 (__global const uchar *src, int src_off, int src_pitch,
                 __global uchar *dst, int dst_off, int dst_pitch,
                 __global const uchar *alpha, int a_off, int apitch,
                 __global uchar *acopy, int ac_off, int acpitch, int copy,
                 __global uint *tmp, int tmp_off, int width, int height,
                 int rx, int ry, int fx, int fy, int border, int band_rows,
                 int pad)
{
    mask_planar_band (src + src_off, src_pitch, dst + dst_off, dst_pitch,
                      src + src_off, src_pitch, dst + dst_off, dst_pitch,
                      alpha + a_off, apitch, 0, acopy + ac_off, acpitch,
                      copy, tmp + tmp_off,
                      get_global_id (0), width, height, rx, ry, fx, fy,
                      border, band_rows, pad, 0);
}

/* The same for two jobs of one size and alphas (A420's U and V): the
 * weights' sums, their reciprocals and the feathered alphas made once
 * for both (with @copy, the alpha plane copied as mask_planar_x16 does:
 * jobs at full resolution). With @sub_band > 0 the jobs are subsampled
 * by 2^xs x 2^ys and @alpha + @a_off is the frame's alpha plane (@aw x
 * @ah, rows @apitch apart): the band first makes the alphas of the rows
 * it reads (mask_sub_row; y0 - r .. y1 - 1 + r with r the larger
 * vertical radius, mapped by the border: within 0 .. height - 1 and the
 * band's reach where r < height, else all rows) into @sub + @sub_off +
 * band * @sub_band, then walks them: no launch of its own, and the rows
 * are in cache when the walk reaches them. */
__kernel void
mask_planar_pair_x16 (__global const uchar *src, int src_off, int src_pitch,
                      __global uchar *dst, int dst_off, int dst_pitch,
                      __global const uchar *src2, int src2_off,
                      int src2_pitch, __global uchar *dst2, int dst2_off,
                      int dst2_pitch, __global const uchar *alpha, int a_off,
                      int apitch, __global uchar *acopy, int ac_off,
                      int acpitch, int copy, int aw, int ah, int xs, int ys,
                      __global uchar *sub, int sub_off, int sub_band,
                      __global uint *tmp, int tmp_off,
                      int width, int height, int rx, int ry, int fx, int fy,
                      int border, int band_rows, int pad)
{
    int band = get_global_id (0);
    int y0 = band * band_rows, alo = 0;
    if (y0 >= height)
        return;
    alpha += a_off;
    if (sub_band > 0) {
        int r = max (ry, fy);
        int lo = r < height ? max (0, y0 - r) : 0;
        int hi = r < height ? min (height, y0 + band_rows + r) : height;
        __global uchar *own = sub + sub_off + (size_t) band * sub_band;
        for (int y = lo; y < hi; y++)
            mask_sub_row (alpha, apitch, aw, ah, xs, ys,
                          own + (size_t) (y - lo) * width, width, y);
        alpha = own;
        apitch = width;
        alo = lo;
    }
    mask_planar_band (src + src_off, src_pitch, dst + dst_off, dst_pitch,
                      src2 + src2_off, src2_pitch, dst2 + dst2_off,
                      dst2_pitch, alpha, apitch, alo, acopy + ac_off, acpitch,
                      copy, tmp + tmp_off, band, width, height, rx, ry, fx,
                      fy, border, band_rows, pad, 1);
}
/* ---- mask_fused_x16: both passes of mask_x16 in one walk down a band
 * of rows, from one buffer into another (the caller's memory), 16 pixels
 * a step with each channel in a vector of its own: rows of vertical
 * window sums in tmp (a band's, in cache), one a channel, as
 * mask_planar_x16's (vc0, vc1 and vc2 of I w for the three colour bytes,
 * vw of w; with a feather (@fx >= 0), va of the alpha over the feather's
 * rows), each padded past the row's ends by the radius + 1 positions
 * (mask_pv_pad), move down by the entering row minus the leaving one,
 * and each output row is the horizontal pass over them (mask_pv_window):
 * one float reciprocal of Σw serves the three colours of a pixel
 * (mask_mix16), the alpha byte is written as read. The pixels are read
 * and written as uint, each byte shifted out and back in. ---- */

/* Byte @k (0 .. 3, in memory order) of each of 16 pixels read as uint. */
CLB_INLINE uint16
mask_byte16 (uint16 px, int k)
{
#ifdef __ENDIAN_LITTLE__
    return (px >> (uint16) (8 * k)) & (uint16) (0xff);
#else
    return (px >> (uint16) (24 - 8 * k)) & (uint16) (0xff);
#endif
}

/* @v (0 .. 255 a lane) as byte @k of a uint. */
CLB_INLINE uint16
mask_at_byte16 (uint16 v, int k)
{
#ifdef __ENDIAN_LITTLE__
    return v << (uint16) (8 * k);
#else
    return v << (uint16) (24 - 8 * k);
#endif
}

/* The colour bytes of a pixel whose alpha is byte @ao: the first, second
 * and third of the others. */
#define MASK_K0(ao) ((ao) == 0 ? 1 : 0)
#define MASK_K1(ao) ((ao) <= 1 ? 2 : 1)
#define MASK_K2(ao) ((ao) <= 2 ? 3 : 2)

/* The weighed colours (I w, both factors below 2^16: one 16-bit
 * multiply-add a lane on CPUs that have it) and w = 255 - alpha of 16
 * pixels. */
CLB_INLINE void
mask_weigh_px (uint16 px, int ao, uint16 * c0, uint16 * c1, uint16 * c2,
               uint16 * w)
{
    *w = mask_byte16 (px, ao) ^ (uint16) (0xff);
    *c0 = as_uint16 (as_int16 (mask_byte16 (px, MASK_K0 (ao)))
                     * as_int16 (*w));
    *c1 = as_uint16 (as_int16 (mask_byte16 (px, MASK_K1 (ao)))
                     * as_int16 (*w));
    *c2 = as_uint16 (as_int16 (mask_byte16 (px, MASK_K2 (ao)))
                     * as_int16 (*w));
}

/* @v (the four rows of vertical sums, @len uint apart: vc0, vc1, vc2,
 * vw) += the weighed pixels of row @a - those of row @b (each NULL:
 * none), 16 pixels a step, @ao a constant (the callers below). */
CLB_INLINE void
mask_q_move_ao (__global uint *v, int len, __global const uchar *a,
                __global const uchar *b, int width, int ao)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 d0 = (uint16) (0), d1 = d0, d2 = d0, dw = d0;
        uint16 c0, c1, c2, w;
        if (a != 0) {
            mask_weigh_px (mask_load_px ((__global const uint *) a + x,
                                         n), ao, &c0, &c1, &c2, &w);
            d0 = c0;
            d1 = c1;
            d2 = c2;
            dw = w;
        }
        if (b != 0) {
            mask_weigh_px (mask_load_px ((__global const uint *) b + x,
                                         n), ao, &c0, &c1, &c2, &w);
            d0 -= c0;
            d1 -= c1;
            d2 -= c2;
            dw -= w;
        }
        __global uint *p = v + x;
        CLB_STORE16 (uint, CLB_LOAD16 (uint, p) + d0, p);
        p += len;
        CLB_STORE16 (uint, CLB_LOAD16 (uint, p) + d1, p);
        p += len;
        CLB_STORE16 (uint, CLB_LOAD16 (uint, p) + d2, p);
        p += len;
        CLB_STORE16 (uint, CLB_LOAD16 (uint, p) + dw, p);
    }
}

void
mask_q_move (__global uint *v, int len, __global const uchar *a,
             __global const uchar *b, int width, int ao)
{
    if (ao == 0)
        mask_q_move_ao (v, len, a, b, width, 0);
    else if (ao == 1)
        mask_q_move_ao (v, len, a, b, width, 1);
    else if (ao == 2)
        mask_q_move_ao (v, len, a, b, width, 2);
    else
        mask_q_move_ao (v, len, a, b, width, 3);
}

/* @va (a row of alpha sums, a uint a pixel) += the alphas of row @a and
 * -= those of row @b (each NULL: none). */
void
mask_va_move (__global uint *va, __global const uchar *a,
              __global const uchar *b, int width, int ao)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 d = (uint16) (0);
        if (a != 0)
            d += mask_byte16 (mask_load_px ((__global const uint *) a + x,
                                            n), ao);
        if (b != 0)
            d -= mask_byte16 (mask_load_px ((__global const uint *) b + x,
                                            n), ao);
        CLB_STORE16 (uint, CLB_LOAD16 (uint, va + x) + d, va + x);
    }
}

/* One output row: the window sums along the row from the vertical ones
 * (@v: vc0, vc1, vc2, vw, @len apart; @va the feather's), B and the
 * blend of each colour as mask_mix16 makes them, 16 pixels a step, the
 * alpha as read or, with a feather (@feathered, @fx >= 0), the rounded
 * mean of @va's window sums (@cy rows), @ao and @feathered constants
 * (the callers below). */
CLB_INLINE void
mask_q_row_ao (__global const uint *v, int len, __global const uint *va,
               __global const uchar *s, __global uchar *d, int width,
               int rx, int fx, uint cy, int border, int ao, int feathered)
{
    __global const uint *v1 = v + len, *v2 = v1 + len, *vw = v2 + len;
    uint16 c0 = mask_pv_start (v, rx), c1 = mask_pv_start (v1, rx);
    uint16 c2 = mask_pv_start (v2, rx), cw = mask_pv_start (vw, rx);
    uint16 ca = feathered ? mask_pv_start (va, fx) : (uint16) (0);
    float r_in = mask_feather_rcp (cy, fx);
    uint16 keep = mask_at_byte16 ((uint16) (0xff), ao);
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 s0 = mask_pv_window (v, x, rx, &c0);
        uint16 s1 = mask_pv_window (v1, x, rx, &c1);
        uint16 s2 = mask_pv_window (v2, x, rx, &c2);
        uint16 sw = mask_pv_window (vw, x, rx, &cw);
        float16 r = MASK_RCP (uint16, float16, sw);
        uint16 h = sw >> 1;
        uint16 px = mask_load_px ((__global const uint *) s + x, n);
        uint16 a = feathered ? mask_feather16 (va, x, fx, &ca, cy, r_in,
                                               width, border)
            : mask_byte16 (px, ao);
        uint16 o = (px & keep)
            | mask_at_byte16 (mask_mix16 (s0 + h, sw, r,
                                          mask_byte16 (px, MASK_K0 (ao)), a,
                                          feathered), MASK_K0 (ao))
            | mask_at_byte16 (mask_mix16 (s1 + h, sw, r,
                                          mask_byte16 (px, MASK_K1 (ao)), a,
                                          feathered), MASK_K1 (ao))
            | mask_at_byte16 (mask_mix16 (s2 + h, sw, r,
                                          mask_byte16 (px, MASK_K2 (ao)), a,
                                          feathered), MASK_K2 (ao));
        mask_store_px (o, (__global uint *) d + x, n);
    }
}

/* mask_q_row_ao with @ao and whether a feather is made as constants. */
void
mask_q_row (__global const uint *v, int len, __global const uint *va,
            __global const uchar *s, __global uchar *d, int width, int rx,
            int fx, uint cy, int border, int ao)
{
#define MASK_Q_ROW(ao_, f_)                                             \
    mask_q_row_ao (v, len, va, s, d, width, rx, fx, cy, border, ao_, f_)
    if (fx >= 0) {
        if (ao == 0)
            MASK_Q_ROW (0, 1);
        else if (ao == 1)
            MASK_Q_ROW (1, 1);
        else if (ao == 2)
            MASK_Q_ROW (2, 1);
        else
            MASK_Q_ROW (3, 1);
    } else {
        if (ao == 0)
            MASK_Q_ROW (0, 0);
        else if (ao == 1)
            MASK_Q_ROW (1, 0);
        else if (ao == 2)
            MASK_Q_ROW (2, 0);
        else
            MASK_Q_ROW (3, 0);
    }
#undef MASK_Q_ROW
}

/* A work-item per band of @band_rows rows; the band's rows in tmp: vc0,
 * vc1, vc2 and vw (width rounded up to 16 + 2 (rx + 1) uint each) and,
 * with a feather, va (width rounded up to 16 + 2 (fx + 1) uint). */
__kernel void
mask_fused_x16 (__global const uchar *src, int src_pitch, __global uchar *dst,
                int dst_pitch, __global uint *tmp, int width, int height,
                int rx, int ry, int border, int band_rows, int ao, int fx,
                int fy)
{
    int band = get_global_id (0);
    int y0 = band * band_rows;
    if (y0 >= height)
        return;
    int y1 = min (height, y0 + band_rows);
    int w16 = (width + 15) & ~15, pad = fx + 1, vpad = rx + 1;
    int vlen = w16 + 2 * vpad;
    int len = 4 * vlen + (fx >= 0 ? w16 + 2 * pad : 0);
    __global uint *base = tmp + (size_t) band * len;
    __global uint *v = base + vpad;
    __global uint *va = base + 4 * vlen + pad;

    for (int k = 0; k < len; k++)
        base[k] = 0;
    for (int i = y0 - ry; i <= y0 + ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            mask_q_move (v, vlen, src + (size_t) r * src_pitch, 0, width,
                         ao);
    }
    if (fx >= 0) {
        for (int i = y0 - fy; i <= y0 + fy; i++) {
            int r = clb_border_index (i, height, border);
            if (r >= 0)
                mask_va_move (va, src + (size_t) r * src_pitch, 0, width,
                              ao);
        }
    }
    for (int y = y0; y < y1; y++) {
        mask_pv_pad (v, 4, vlen, width, vpad, border);
        if (fx >= 0)
            mask_pv_pad (va, 1, 0, width, pad, border);
        mask_q_row (v, vlen, va, src + (size_t) y * src_pitch,
                    dst + (size_t) y * dst_pitch, width, rx, fx,
                    fx >= 0 ? clb_border_count (y, fy, height, border) : 1,
                    border, ao);
        if (y + 1 == y1)
            break;
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        mask_q_move (v, vlen, in >= 0 ? src + (size_t) in * src_pitch : 0,
                     out >= 0 ? src + (size_t) out * src_pitch : 0, width,
                     ao);
        if (fx >= 0) {
            in = clb_border_index (y + fy + 1, height, border);
            out = clb_border_index (y - fy, height, border);
            mask_va_move (va, in >= 0 ? src + (size_t) in * src_pitch : 0,
                          out >= 0 ? src + (size_t) out * src_pitch : 0,
                          width, ao);
        }
    }
}
#endif
