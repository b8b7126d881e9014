/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sat shaped for GPUs (gst/clblur/enginesat.c, sat_gpu): gpu_box_sat_rows
 * scans each row in local memory with gpu_box.cl's scan, then
 * gpu_box_sat_totals and gpu_box_sat_columns scan the columns in chunks.
 */

/* One work-group per (row, channel), as gpu_box_sep_rows: the row's
 * prefix sums into the table. line: width + 1 wide_t, part: group. */
__kernel void
gpu_box_sat_rows (__global const sample_t *src, int pitch, int pstride,
                  int4 off, int swap, int shift, __global wide_t *sat,
                  int width, int height, int channels, __local wide_t *line,
                  __local wide_t *part)
{
    int rc = get_global_id (1);
    int y = rc / channels, c = rc - y * channels;
    int l = get_local_id (0), group = get_local_size (0);
    size_t row = (size_t) y * pitch + clb_comp (off, c);

    if (y >= height)
        return;
    for (int k = l; k < width; k += group)
        line[1 + k] = clb_load (src, row + (size_t) k * pstride, swap, shift);
    barrier (CLK_LOCAL_MEM_FENCE);
    gpu_box_scan_wide (line, part, width);

    size_t o = (size_t) y * width * channels + c;
    for (int x = l; x < width; x += group)
        sat[o + (size_t) x * channels] = line[x + 1];
}

/* One work-item per (table column k, chunk of rows q): the sum of its
 * chunk's entries into totals[q * row_len + k], where totals are the
 * elements of the table's buffer from element at on (after the table). */
__kernel void
gpu_box_sat_totals (__global wide_t *sat, ulong at, int row_len, int height,
                    int chunk)
{
    int k = get_global_id (0);
    int y0 = (int) get_global_id (1) * chunk;
    if (k >= row_len || y0 >= height)
        return;
    int y1 = min (height, y0 + chunk);
    wide_t acc = 0;
    for (int y = y0; y < y1; y++)
        acc += sat[(size_t) y * row_len + k];
    sat[at + (size_t) get_global_id (1) * row_len + k] = acc;
}

/* The same work-items: the chunk's column scanned in place, from the
 * totals of the chunks above it. */
__kernel void
gpu_box_sat_columns (__global wide_t *sat, ulong at, int row_len,
                     int height, int chunk)
{
    int k = get_global_id (0);
    int q = get_global_id (1);
    int y0 = q * chunk;
    if (k >= row_len || y0 >= height)
        return;
    int y1 = min (height, y0 + chunk);
    wide_t acc = 0;
    for (int p = 0; p < q; p++)
        acc += sat[at + (size_t) p * row_len + k];
    for (int y = y0; y < y1; y++) {
        size_t i = (size_t) y * row_len + k;
        acc += sat[i];
        sat[i] = acc;
    }
}
