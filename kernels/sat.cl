/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Box blur through a summed-area table (integral image).
 *
 *   sat_scan_rows     prefix sums along each row, samples -> wide_t table
 *   sat_scan_columns  prefix sums down each column, in place
 *   sat_box           every output pixel from the four corners of its
 *                     window clipped to the frame (border SHRINK)
 *   sat_box_border    the same for REPLICATE and REFLECT: a few table
 *                     entries
 *
 * Samples are read and written through a job's layout (common.cl). The
 * table is packed: entry (x, y, c) at (slot * width + x) * channels + c,
 * where row y sits in slot y % ring. ring is the frame's height, or, for
 * a frame whose table would exceed the device's allocation, fewer rows:
 * the engine then filters it in bands of output rows, each band's box
 * reading only the table rows its windows reach (y0 - ry - 1 .. y1 + ry - 1
 * for output rows y0 .. y1 - 1, for every border, as long as 2 ry + 2 rows
 * fit in the ring, short of the frame's height), and the table's next rows
 * go on from the previous ones: the input rows a band reads were never
 * overwritten by an earlier band's output.
 *
 * Sums are wide_t (32 bits for 8-bit samples, 64 for 16-bit) and wrap. A box
 * sum is a signed combination of table entries; modular arithmetic keeps it
 * exact as long as the true sum fits in wide_t, which the radius bound
 * guarantees. So there is no limit on the frame size.
 */

/* One work-item per (channel, row), over columns x_begin .. x_end - 1
 * (the whole row, or a part of it that continues the previous part's
 * sums: engine.c cuts rows into parts on devices that cap loops), rows
 * y_first .. y_end - 1. */

__kernel void
sat_scan_rows (__global const sample_t *src, int pitch, int pstride, int4 off,
               int swap, int shift, __global wide_t *sat, int width,
               int y_end, int channels, int y_first, int ring, int x_begin,
               int x_end)
{
    int c = get_global_id (0), y = y_first + (int) get_global_id (1);
    if (c >= channels || y >= y_end)
        return;

    size_t s = (size_t) y * pitch + (size_t) x_begin * pstride
        + clb_comp (off, c);
    size_t i = (clb_slot (y, ring) * width + x_begin) * channels + c;
    wide_t acc = x_begin > 0 ? sat[i - channels] : 0;
    for (int x = x_begin; x < x_end; x++, i += channels, s += pstride) {
        acc += clb_load (src, s, swap, shift);
        sat[i] = acc;
    }
}

/* Each work-item scans a strip of `strip` adjacent elements of a row
 * (x * channels + c) down the frame, rows y_begin .. y_end - 1 (all, or a
 * part that continues the rows above it, as sat_scan_rows). strip = 1 on
 * GPUs: neighbouring work-items touch neighbouring memory, coalesced. On
 * CPUs a work-item runs its whole loop before the next starts, so a strip
 * of 16 walks whole cache lines row by row instead of one element per
 * line. */
#define SAT_MAX_STRIP 16

__kernel void
sat_scan_columns (__global wide_t *sat, int width, int height, int channels,
                  int strip, int ring, int y_begin, int y_end)
{
    int row_len = width * channels, first = get_global_id (0) * strip;
    if (first >= row_len)
        return;
    int n = min (strip, row_len - first);

    wide_t acc[SAT_MAX_STRIP];
    size_t above = y_begin > 0 ? clb_slot (y_begin - 1, ring) * row_len : 0;
    for (int j = 0; j < n; j++)
        acc[j] = y_begin > 0 ? sat[above + first + j] : 0;
    int slot = (int) clb_slot (y_begin, ring);
    for (int y = y_begin; y < y_end; y++) {
        size_t k = (size_t) slot * row_len + first;
        for (int j = 0; j < n; j++) {
            acc[j] += sat[k + j];
            sat[k + j] = acc[j];
        }
        if (++slot == ring)
            slot = 0;
    }
}

/* The box of pixel (x, y) from the four corners of its window, clipped
 * to the frame: right for SHRINK, and for any border where the window
 * lies inside the frame. */
void
sat_corners (__global const wide_t *sat, __global sample_t *dst, int pitch,
             int pstride, int4 off, int swap, int shift, int width,
             int height, int channels, int rx, int ry, int ring, int x,
             int y)
{
    size_t row_len = (size_t) width * channels;
    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    int x0 = CLB_SHRINK_LO (int, x - rx) - 1;
    int x1 = CLB_SHRINK_HI (int, x + rx, width);
    int y0 = CLB_SHRINK_LO (int, y - ry) - 1;
    int y1 = CLB_SHRINK_HI (int, y + ry, height);
    wide_t area = (wide_t) (x1 - x0) * (wide_t) (y1 - y0);
    size_t b = clb_slot (y1, ring) * row_len;
    size_t a = y0 >= 0 ? clb_slot (y0, ring) * row_len : 0;
    for (int c = 0; c < channels; c++) {
        wide_t s = sat[b + (size_t) x1 * channels + c];
        if (x0 >= 0)
            s -= sat[b + (size_t) x0 * channels + c];
        if (y0 >= 0) {
            s -= sat[a + (size_t) x1 * channels + c];
            if (x0 >= 0)
                s += sat[a + (size_t) x0 * channels + c];
        }
        clb_store (dst, o + clb_comp (off, c),
                   (uint) ((s + area / 2) / area), swap, shift);
    }
}

/* One work-item per pixel of rows y_first .. y_end - 1, border SHRINK:
 * the four corners. Rounds to nearest: (sum + area / 2) / area. */
__kernel void
sat_box (__global const wide_t *sat, __global sample_t *dst, int pitch,
         int pstride, int4 off, int swap, int shift, int width, int height,
         int channels, int rx, int ry, int y_first, int y_end, int ring)
{
    int x = get_global_id (0), y = y_first + (int) get_global_id (1);
    if (x >= width || y >= y_end)
        return;
    sat_corners (sat, dst, pitch, pstride, off, swap, shift, width, height,
                 channels, rx, ry, ring, x, y);
}

/* Pixel x of output row o (in dst) from the table rows ty names (row j
 * at element rows[j] of sat), over the window's terms along x
 * (clb_border_window, border-mapped), ny rows a window: the border's
 * terms, a few table entries. */
void
sat_terms_pixel (__global const wide_t *sat, const size_t *rows,
                 const clb_terms *ty, uint ny, __global sample_t *dst,
                 size_t o, int pstride, int4 off, int swap, int shift,
                 int width, int channels, int rx, int border, int x)
{
    clb_terms tx;
    uint nx;
    clb_border_window (&tx, x - rx, x + rx, width, border, &nx);
    wide_t area = (wide_t) nx * ny;

    for (int c = 0; c < channels; c++) {
        wide_t s = 0;
        for (int j = 0; j < ty->n; j++) {
            wide_t sx = 0;
            for (int i = 0; i < tx.n; i++)
                sx += tx.coef[i]
                    * sat[rows[j] + (size_t) tx.idx[i] * channels + c];
            s += ty->coef[j] * sx;
        }
        clb_store (dst, o + (size_t) x * pstride + clb_comp (off, c),
                   (uint) ((s + area / 2) / area), swap, shift);
    }
}

/* One work-item per pixel, border REPLICATE or REFLECT: the four corners
 * where the window lies inside the frame, else the border's terms. (A
 * kernel apart from sat_box: a compiler that runs both sides of a branch
 * with the lanes masked off, as llvmpipe does, would pay for these terms
 * at every pixel, even with SHRINK.) */
__kernel void
sat_box_border (__global const wide_t *sat, __global sample_t *dst,
                int pitch, int pstride, int4 off, int swap, int shift,
                int width, int height, int channels, int rx, int ry,
                int y_first, int y_end, int ring, int border)
{
    int x = get_global_id (0), y = y_first + (int) get_global_id (1);
    if (x >= width || y >= y_end)
        return;

    if (x - rx >= 0 && x + rx < width && y - ry >= 0 && y + ry < height) {
        sat_corners (sat, dst, pitch, pstride, off, swap, shift, width,
                     height, channels, rx, ry, ring, x, y);
        return;
    }

    clb_terms ty;
    uint ny;
    size_t rows[CLB_MAX_TERMS];
    clb_border_window (&ty, y - ry, y + ry, height, border, &ny);
    for (int j = 0; j < ty.n; j++)
        rows[j] = clb_slot (ty.idx[j], ring) * width * channels;
    sat_terms_pixel (sat, rows, &ty, ny, dst, (size_t) y * pitch, pstride,
                     off, swap, shift, width, channels, rx, border, x);
}
