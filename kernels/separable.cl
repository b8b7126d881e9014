/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Separable box blur with running sums: a horizontal pass into a uint
 * intermediate, then a vertical pass. Each step adds the sample entering
 * the window and subtracts the one leaving it, so the cost per sample does
 * not grow with the radius.
 *
 *   separable_rows     one work-item per (channel, row)
 *   separable_columns  one work-item per strip of adjacent sample columns
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
        if (x - rx >= 0 && x + rx + 1 < width) {
            /* both samples inside the row: no border mapping */
            size_t s = row + comp;
            sum += clb_load (src, s + (size_t) (x + rx + 1) * pstride, swap,
                             shift);
            sum -= clb_load (src, s + (size_t) (x - rx) * pstride, swap,
                             shift);
            continue;
        }
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

/* Each work-item slides down a strip of `strip` adjacent sample columns
 * (see sat_scan_columns: 1 on GPUs, 16 on CPUs). */
#define SEPARABLE_MAX_STRIP 16

__kernel void
separable_columns (__global const uint *tmp, __global sample_t *dst,
                   int pitch, int pstride, int4 off, int swap, int shift,
                   int width, int height, int channels, int rx, int ry,
                   int border, int strip)
{
    int row_len = width * channels;
    int first = get_global_id (0) * strip;
    if (first >= row_len)
        return;
    int n = min (strip, row_len - first);

    wide_t sum[SEPARABLE_MAX_STRIP];
    wide_t nx[SEPARABLE_MAX_STRIP];
    size_t o[SEPARABLE_MAX_STRIP];
    for (int j = 0; j < n; j++) {
        int k = first + j;
        int x = k / channels;
        int c = k - x * channels;
        o[j] = (size_t) x * pstride + clb_comp (off, c);
        nx[j] = separable_count (x, rx, width, border);
        sum[j] = 0;
    }

    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r < 0)
            continue;
        for (int j = 0; j < n; j++)
            sum[j] += tmp[(size_t) r * row_len + first + j];
    }
    for (int y = 0; y < height; y++) {
        wide_t ny = separable_count (y, ry, height, border);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        for (int j = 0; j < n; j++) {
            wide_t area = nx[j] * ny;
            clb_store (dst, (size_t) y * pitch + o[j],
                       (uint) ((sum[j] + area / 2) / area), swap, shift);
            if (in >= 0)
                sum[j] += tmp[(size_t) in * row_len + first + j];
            if (out >= 0)
                sum[j] -= tmp[(size_t) out * row_len + first + j];
        }
    }
}

#if CLB_SAMPLE_BITS == 8
/* separable_columns for 16 adjacent samples of a dense 8-bit job (the
 * samples of a row are the job's channels back to back: RGBA, RGB, GRAY8,
 * a planar or NV12 plane) in vector registers: CPU OpenCL drivers run each
 * work-item's loop as scalar code, so the 16 columns are one uint16 here.
 * The rounding division is done in float and corrected to the exact
 * quotient, since vector integer division is scalarised. The strip that
 * does not fill 16 samples is left to separable_columns. */
__kernel void
separable_columns_x16 (__global const uint *tmp, __global uchar *dst,
                       int pitch, int width, int height, int channels,
                       int rx, int ry, int border)
{
    int row_len = width * channels;
    int first = get_global_id (0) * 16;
    if (first + 16 > row_len)
        return;

    int16 k = (int16) (first) + (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                         11, 12, 13, 14, 15);
    int16 x = k / (int16) (channels);
    uint16 nx;
    if (border == CLB_BORDER_SHRINK)
        nx = convert_uint16 (min (x + rx, (int16) (width - 1))
                             - max (x - rx, (int16) (0)) + 1);
    else
        nx = (uint16) (2 * rx + 1);

    __global const uint *col = tmp + first;
    uint16 sum = (uint16) (0);
    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            sum += vload16 (0, col + (size_t) r * row_len);
    }
    for (int y = 0; y < height; y++) {
        uint16 area = nx * (uint16) (separable_count (y, ry, height, border));
        uint16 num = sum + (area >> 1);
        uint16 q = convert_uint16 (convert_float16 (num)
                                   / convert_float16 (area));
        /* the float quotient is within one of the exact one */
        uint16 prod = q * area;
        q = select (q, q - 1, prod > num);
        prod = q * area;
        q = select (q, q + 1, num - prod >= area);
        vstore16 (convert_uchar16_sat (q), 0, dst + (size_t) y * pitch + first);

        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        if (in >= 0)
            sum += vload16 (0, col + (size_t) in * row_len);
        if (out >= 0)
            sum -= vload16 (0, col + (size_t) out * row_len);
    }
}
#endif
