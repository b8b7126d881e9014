/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sat shaped for GPUs (gst/clblur/enginesat.c, sat_gpu), the table built
 * in one pass over it and read in one more: mosaic_columns (mosaic.cl)
 * sums each chunk of rows down its columns (where the frame has more than
 * one chunk), gpu_box_sat_rows builds the table a chunk a work-group from
 * the sums of the chunks above it, gpu_box_sat_box reads two table rows a
 * row of pixels through local memory. Neighbouring work-items load and store
 * neighbouring samples and table entries (sample k = x * channels + c).
 */

/* One work-group per (chunk of rows q, lanes channels from c0: the job's
 * all, or one): line holds the column sums down to the row above, lane j
 * at line[j * (width + 1) + 1 + x] after a 0 of its own, starting from
 * the sums of the chunks above (totals[at + p * row_len + k], chunk p's
 * sum of column k, from mosaic_columns). Each row adds its samples, is
 * scanned as one line (gpu_box.cl; lane j's prefix sums are then its
 * entries less the lane's 0, now the sum of the lanes before it) into the
 * table, and unscanned back into column sums. line: lanes * (width + 1),
 * part: group. */
__kernel void
gpu_box_sat_rows (__global const sample_t *src, int pitch, int pstride,
                  int4 off, int swap, int shift, __global wide_t *sat,
                  __global const uint *totals, ulong at, int width,
                  int height, int channels, int lanes, int chunk,
                  __local wide_t *line, __local wide_t *part)
{
    int groups = channels / lanes, g = get_global_id (1), l = get_local_id (0);
    int q = g / groups, c0 = (g - q * groups) * lanes, y0 = q * chunk;
    int n = lanes * width, span = width + 1, row_len = width * channels;

    for (int y = y0; y < min (height, y0 + chunk); y++) {
        for (int i = l; i < n; i += get_local_size (0)) {
            int x = i / lanes, j = i - x * lanes;
            __local wide_t *e = line + j * span + 1 + x;
            wide_t v = clb_load (src, (size_t) y * pitch + (size_t) x
                                 * pstride + clb_comp (off, c0 + j), swap,
                                 shift);
            for (int p = 0; y == y0 && p < q; p++)
                v += totals[at + (size_t) p * row_len + x * channels + c0 + j];
            *e = (y > y0 ? *e : 0) + v;
            if (x == 0)
                e[-1] = 0;
        }
        barrier (CLK_LOCAL_MEM_FENCE);
        wide_t carry = gpu_box_scan_wide (line, part, lanes * span - 1);
        for (int i = l; i < n; i += get_local_size (0)) {
            int x = i / lanes, j = i - x * lanes;
            sat[(size_t) y * row_len + x * channels + c0 + j] =
                line[j * span + 1 + x] - line[j * span];
        }
        barrier (CLK_LOCAL_MEM_FENCE);
        gpu_box_unscan_wide (line, lanes * span - 1, carry);
        barrier (CLK_LOCAL_MEM_FENCE);
    }
}

/* Border SHRINK, one work-item per pixel, a work-group per run of group
 * pixels of row y: the two table rows its windows reach (y0 - 1 and y1,
 * sat_corners' rows), over the columns they reach (xa .. xb, column -1
 * and row -1 zeros), staged in rows: 2 * (group + 2 rx + 1) * channels
 * entries. Then sat_corners' four corners of each channel from there. */
__kernel void
gpu_box_sat_box (__global const wide_t *sat, __global sample_t *dst,
                 int pitch, int pstride, int4 off, int swap, int shift,
                 int width, int height, int channels, int rx, int ry,
                 __local wide_t *rows)
{
    int l = get_local_id (0), x = get_global_id (0), y = get_global_id (1);
    int xa = max (x - l - rx, 0) - 1;
    int xb = min (x - l + (int) get_local_size (0) - 1 + rx, width - 1);
    int m = (xb - xa + 1) * channels, row_len = width * channels;
    int y0 = max (y - ry, 0) - 1, y1 = min (y + ry, height - 1);

    for (int i = l; i < 2 * m; i += get_local_size (0)) {
        int r = i >= m, e = i - r * m + xa * channels, yr = r ? y1 : y0;
        rows[i] = e >= 0 && yr >= 0 ? sat[(size_t) yr * row_len + e] : 0;
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (x >= width)
        return;
    int x0 = max (x - rx, 0) - 1 - xa, x1 = min (x + rx, width - 1) - xa;
    wide_t area = (wide_t) (x1 - x0) * (wide_t) (y1 - y0);
    for (int c = 0; c < channels; c++) {
        __local const wide_t *a = rows + c, *b = rows + m + c;
        wide_t s = b[x1 * channels] - b[x0 * channels] - a[x1 * channels]
            + a[x0 * channels];
        clb_store (dst, (size_t) y * pitch + (size_t) x * pstride
                   + clb_comp (off, c),
                   (uint) ((s + area / 2) / area), swap, shift);
    }
}
