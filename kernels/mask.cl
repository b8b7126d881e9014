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
 *                 those down the column, the division and the blend
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
    int4 comp = off;

    mask_row_t s[4] = { 0, 0, 0, 0 };
    mask_row_t sw = 0, sf = 0;
    if (!blend) {
        for (int i = x_begin - rx; i <= x_begin + rx; i++) {
            int j = clb_border_index (i, width, border);
            if (j < 0)
                continue;
            mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (j, y));
            size_t o = row + (size_t) j * pstride;
            sw += w;
            for (int c = 0; c < cn; c++)
                s[c] += w * clb_load (src, o + clb_comp (comp, c), swap,
                                      shift);
        }
    }
    if (fx >= 0) {
        for (int i = x_begin - fx; i <= x_begin + fx; i++) {
            int j = clb_border_index (i, width, border);
            if (j >= 0)
                sf += MASK_ALPHA (j, y);
        }
    }
    size_t t = (separable_slot (y, ring) * width + x_begin) * elems;
    for (int x = x_begin; x < x_end; x++, t += elems) {
        for (int c = 0; c < cn; c++)
            tmp[t + c] = s[c];
        if (!blend)
            tmp[t + cn] = sw;
        if (fx >= 0)
            tmp[t + elems - 1] = sf;
        if (!blend) {
            int in = clb_border_index (x + rx + 1, width, border);
            int out = clb_border_index (x - rx, width, border);
            if (in >= 0) {
                mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (in, y));
                size_t o = row + (size_t) in * pstride;
                sw += w;
                for (int c = 0; c < cn; c++)
                    s[c] += w * clb_load (src, o + clb_comp (comp, c), swap,
                                          shift);
            }
            if (out >= 0) {
                mask_row_t w = (mask_row_t) (amax - (int) MASK_ALPHA (out, y));
                size_t o = row + (size_t) out * pstride;
                sw -= w;
                for (int c = 0; c < cn; c++)
                    s[c] -= w * clb_load (src, o + clb_comp (comp, c), swap,
                                          shift);
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
}

/* (n + d / 2) / d, in 32 bits where both fit (most windows). */
ulong
mask_div (ulong n, ulong d)
{
    if (((n | d) >> 32) == 0) {
        uint n32 = (uint) n, d32 = (uint) d;
        if (n32 + d32 / 2 >= n32)
            return (n32 + d32 / 2) / d32;
    }
    return (n + d / 2) / d;
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

    ulong s[4] = { 0, 0, 0, 0 };
    ulong sw = 0, sf = 0;
    if (!blend) {
        for (int i = y0 - ry; i <= y0 + ry; i++) {
            int r = clb_border_index (i, height, border);
            if (r < 0)
                continue;
            size_t t = separable_slot (r, ring) * row_len + col;
            for (int c = 0; c < cn; c++)
                s[c] += tmp[t + c];
            sw += tmp[t + cn];
        }
    }
    uint nfx = 0;
    if (fx >= 0) {
        nfx = separable_count (x, fx, width, border);
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
            ulong n = (ulong) nfx * separable_count (y, fy, height, border);
            a = (uint) ((sf + n / 2) / n);
        } else {
            a = MASK_ALPHA (x, y);
        }
        size_t o = (size_t) y * pitch + px;
        for (int c = 0; c < channels; c++) {
            size_t i = o + clb_comp (off, c);
            uint v = clb_load (src, i, swap, shift);
            uint b;
            if (blend)
                b = clb_load (filtered, i, swap, shift);
            else
                b = sw == 0 ? v : (uint) mask_div (s[c], sw);
            uint m = (uint) amax;
            clb_store (dst, i, (a * v + (m - a) * b + m / 2) / m, swap,
                       shift);
        }
        if (!blend) {
            int in = clb_border_index (y + ry + 1, height, border);
            int out = clb_border_index (y - ry, height, border);
            if (in >= 0) {
                size_t t = separable_slot (in, ring) * row_len + col;
                for (int c = 0; c < cn; c++)
                    s[c] += tmp[t + c];
                sw += tmp[t + cn];
            }
            if (out >= 0) {
                size_t t = separable_slot (out, ring) * row_len + col;
                for (int c = 0; c < cn; c++)
                    s[c] -= tmp[t + c];
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
}
