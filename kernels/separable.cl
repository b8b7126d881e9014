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
/* The vertical-first order for dense 8-bit jobs (1 to 4 channels) on
 * CPUs: both passes on 16 samples in vector registers.
 *
 * separable_vertical_x16: one work-item per strip of 16 adjacent samples,
 * sliding down the frame; tmp gets the vertical window sums, packed.
 * The strip that does not fill 16 samples is done one sample at a time.
 * (Vector integer division is scalarised, so divisions are done in float
 * and corrected to the exact quotient: separable_fix16.) */
__kernel void
separable_vertical_x16 (__global const uchar *src, int pitch,
                        __global uint *tmp, int width, int height,
                        int channels, int ry, int border)
{
    int row_len = width * channels;
    int first = get_global_id (0) * 16;
    if (first >= row_len)
        return;

    if (first + 16 > row_len) {
        for (int k = first; k < row_len; k++) {
            uint sum = 0;
            for (int i = -ry; i <= ry; i++) {
                int r = clb_border_index (i, height, border);
                if (r >= 0)
                    sum += src[(size_t) r * pitch + k];
            }
            for (int y = 0; y < height; y++) {
                tmp[(size_t) y * row_len + k] = sum;
                int in = clb_border_index (y + ry + 1, height, border);
                int out = clb_border_index (y - ry, height, border);
                if (in >= 0)
                    sum += src[(size_t) in * pitch + k];
                if (out >= 0)
                    sum -= src[(size_t) out * pitch + k];
            }
        }
        return;
    }

    __global const uchar *col = src + first;
    uint16 sum = (uint16) (0);
    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            sum += convert_uint16 (vload16 (0, col + (size_t) r * pitch));
    }
    for (int y = 0; y < height; y++) {
        vstore16 (sum, 0, tmp + (size_t) y * row_len + first);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        if (in >= 0)
            sum += convert_uint16 (vload16 (0, col + (size_t) in * pitch));
        if (out >= 0)
            sum -= convert_uint16 (vload16 (0, col + (size_t) out * pitch));
    }
}

/* Sample (pixel p, channel c) of a row of vertical sums, p border-mapped;
 * 0 outside with SHRINK. */
uint
separable_tmp_at (__global const uint *row, int p, int c, int width,
                  int channels, int border)
{
    int j = clb_border_index (p, width, border);
    return j < 0 ? 0 : row[(size_t) j * channels + c];
}

/* The lanes' samples at pixels p + lane / channels, border-mapped: one
 * vector load where all 16 containers are inside the row. Of the 16 lanes
 * the first 16 / channels * channels are used (15 for RGB). */
uint16
separable_tmp16 (__global const uint *row, int p, int width, int channels,
                 int border)
{
    int last = p + 16 / channels - 1;
    if (p >= 0 && p * channels + 16 <= width * channels)
        return vload16 (0, row + (size_t) p * channels);
    if (border == CLB_BORDER_SHRINK && (last < 0 || p >= width))
        return (uint16) (0);
    uint v[16];
    int used = 16 / channels * channels;
    for (int j = 0; j < 16; j++)
        v[j] = j < used ? separable_tmp_at (row, p + j / channels,
                                            j % channels, width, channels,
                                            border) : 0;
    return vload16 (0, v);
}

/* Exact num / area rounded down, for num < 2^32, from q, a float estimate
 * within one of it. */
uint16
separable_fix16 (uint16 q, uint16 num, uint16 area)
{
    uint16 prod = q * area;
    q = select (q, q - 1, prod > num);
    prod = q * area;
    return select (q, q + 1, num - prod >= area);
}

uint16
separable_div16 (uint16 num, uint16 area)
{
    return separable_fix16 (convert_uint16 (convert_float16 (num)
                                            / convert_float16 (area)),
                            num, area);
}

/* separable_horizontal_x16: one work-item per row, sliding along it
 * 16 / channels pixels at a time (16 samples; 15 for RGB, whose 16th lane
 * is not used); the entering and leaving pixels of all lanes are each one
 * vector load. Divides by the area and writes the 8-bit result. */
__kernel void
separable_horizontal_x16 (__global const uint *tmp, __global uchar *dst,
                          int pitch, int width, int height, int channels,
                          int rx, int ry, int border)
{
    int y = get_global_id (0);
    if (y >= height)
        return;

    int row_len = width * channels;
    int step = 16 / channels;
    int used = step * channels;
    __global const uint *row = tmp + (size_t) y * row_len;
    __global uchar *out = dst + (size_t) y * pitch;
    uint ny = separable_count (y, ry, height, border);
    int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15);
    int16 lp = lane / (int16) (channels);

    uint16 sum = (uint16) (0);
    for (int d = -rx; d <= rx; d++)
        sum += separable_tmp16 (row, d, width, channels, border);

    /* the area of a window that does not cross the row's ends */
    uint full = (uint) (2 * rx + 1) * ny;
    float inv_full = 1.0f / (float) full;

    int k0 = 0;
    for (; k0 + used <= row_len; k0 += used) {
        int x0 = k0 / channels;
        int16 x = (int16) (x0) + lp;
        uint16 q;
        if (border != CLB_BORDER_SHRINK
            || (x0 - rx >= 0 && x0 + step - 1 + rx < width)) {
            uint16 num = sum + (uint16) (full / 2);
            q = separable_fix16 (convert_uint16 (convert_float16 (num)
                                                 * inv_full), num,
                                 (uint16) (full));
        } else {
            uint16 nx = convert_uint16 (min (x + rx, (int16) (width - 1))
                                        - max (x - rx, (int16) (0)) + 1);
            uint16 area = nx * (uint16) (ny);
            q = separable_div16 (sum + (area >> 1), area);
        }
        if (k0 + 16 <= row_len) {
            /* with RGB, lane 16 lands on the next strip's first sample,
             * which that strip then writes */
            vstore16 (convert_uchar16_sat (q), 0, out + k0);
        } else {
            uchar qs[16];
            vstore16 (convert_uchar16_sat (q), 0, qs);
            for (int j = 0; j < used; j++)
                out[k0 + j] = qs[j];
        }
        if (x0 - rx >= 0 && (x0 + rx + step) * channels + 16 <= row_len) {
            /* all entering and leaving pixels inside the row */
            __global const uint *enter = row + (size_t) (x0 + rx + 1) * channels;
            __global const uint *leave = row + (size_t) (x0 - rx) * channels;
            for (int d = 0; d < step; d++) {
                sum += vload16 (0, enter + d * channels);
                sum -= vload16 (0, leave + d * channels);
            }
            continue;
        }
        for (int d = 0; d < step; d++) {
            sum += separable_tmp16 (row, x0 + rx + 1 + d, width, channels,
                                    border);
            sum -= separable_tmp16 (row, x0 - rx + d, width, channels,
                                    border);
        }
    }
    /* the samples after the last whole strip, one at a time */
    for (int k = k0; k < row_len; k++) {
        int x = k / channels, c = k - (k / channels) * channels;
        uint s = 0;
        for (int d = -rx; d <= rx; d++)
            s += separable_tmp_at (row, x + d, c, width, channels, border);
        uint area = separable_count (x, rx, width, border) * ny;
        out[k] = (uchar) ((s + area / 2) / area);
    }
}
#endif
