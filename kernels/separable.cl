/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Separable box blur with running sums: a horizontal pass into a uint
 * intermediate, then a vertical pass. Each step adds the sample entering
 * the window and subtracts the one leaving it, so the cost per sample does
 * not grow with the radius.
 *
 *   separable_rows     one work-item per (channel, row)
 *   separable_columns  one work-item per sample column: neighbouring
 *                      work-items on neighbouring memory
 *
 * The intermediate holds horizontal window sums: at most
 * (2 * 2047 + 1) * 65535 < 2^32, so uint is exact. The vertical sums are
 * wide_t (common.cl). The result and its rounding, (sum + area / 2) / area,
 * equal the summed-area table's bit for bit.
 */

uint
separable_row_sample (__global const sample_t *src, size_t row, int pstride,
                      int comp, int swap, int shift, int i, int len,
                      int border)
{
    int j = clb_border_index (i, len, border);
    if (j < 0)
        return 0;
    return clb_load (src, row + (size_t) j * pstride + comp, swap, shift);
}

__kernel void
separable_rows (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, __global uint *tmp, int width,
                int height, int channels, int rx, int border)
{
    int c = get_global_id (0);
    int y = get_global_id (1);
    if (c >= channels || y >= height)
        return;

    size_t row = (size_t) y * pitch;
    int comp = clb_comp (off, c);
    size_t o = (size_t) y * width * channels + c;

    uint sum = 0;
    for (int i = -rx; i <= rx; i++)
        sum += separable_row_sample (src, row, pstride, comp, swap, shift, i,
                                     width, border);
    for (int x = 0; x < width; x++, o += channels) {
        tmp[o] = sum;
        sum += separable_row_sample (src, row, pstride, comp, swap, shift,
                                     x + rx + 1, width, border);
        sum -= separable_row_sample (src, row, pstride, comp, swap, shift,
                                     x - rx, width, border);
    }
}

/* How many samples the window around i averages along an axis. */
uint
separable_count (int i, int r, int len, int border)
{
    if (border != CLB_BORDER_SHRINK)
        return (uint) (2 * r + 1);
    return (uint) (min (i + r, len - 1) - max (i - r, 0) + 1);
}

__kernel void
separable_columns (__global const uint *tmp, __global sample_t *dst,
                   int pitch, int pstride, int4 off, int swap, int shift,
                   int width, int height, int channels, int rx, int ry,
                   int border)
{
    int k = get_global_id (0);
    int row_len = width * channels;
    if (k >= row_len)
        return;

    int x = k / channels;
    int c = k - x * channels;
    size_t o = (size_t) x * pstride + clb_comp (off, c);
    wide_t nx = separable_count (x, rx, width, border);

    wide_t sum = 0;
    for (int i = -ry; i <= ry; i++) {
        int j = clb_border_index (i, height, border);
        if (j >= 0)
            sum += tmp[(size_t) j * row_len + k];
    }
    for (int y = 0; y < height; y++) {
        wide_t area = nx * separable_count (y, ry, height, border);
        clb_store (dst, (size_t) y * pitch + o,
                   (uint) ((sum + area / 2) / area), swap, shift);
        int j = clb_border_index (y + ry + 1, height, border);
        if (j >= 0)
            sum += tmp[(size_t) j * row_len + k];
        j = clb_border_index (y - ry, height, border);
        if (j >= 0)
            sum -= tmp[(size_t) j * row_len + k];
    }
}
