/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box methods shaped for GPUs: many short work-items, neighbours on
 * neighbouring memory, instead of one work-item walking a whole row or
 * column (sat.cl, separable.cl, which CPUs and the fallbacks keep).
 *
 *   gpu_box_sep_rows     separable's horizontal sums: a work-group per
 *                        (row, channel) scans the row, border-extended by
 *                        rx each side, in local memory; each window sum is
 *                        then a difference of two prefix sums
 *   gpu_box_sep_columns  separable's vertical pass: a work-item per
 *                        (sample column, chunk of rows), running sums
 *   gpu_box_sat_rows     the summed-area table's rows: the same scan in
 *                        local memory, without the extension
 *   gpu_box_sat_totals   the table's columns in chunks of rows: each
 *                        chunk's column sums, then
 *   gpu_box_sat_columns  each chunk scanned from the sum of the chunks
 *                        above it; sat_box / sat_box_border (sat.cl) then
 *                        take the four corners
 *
 * Integer sums are exact in any order (modular arithmetic: a window sum
 * fits its type, see separable.cl and sat.cl), and the rounding and the
 * borders are separable.cl's and sat.cl's, so the results are theirs bit
 * for bit. The tables are whole (the engine's GPU rows refuse jobs whose
 * intermediate needs bands) and packed as theirs: element
 * (y * width + x) * channels + c.
 */

/* An inclusive prefix scan of line[1 .. n] in place (line[0] = 0 is set
 * here) by the work-group: each work-item scans a chunk serially, the
 * chunks' totals are scanned in part[] (one per work-item), then added
 * back. Every work-item of the group calls it, once line[1 .. n] is
 * loaded and a barrier passed. Two copies: uint sums (modulo 2^32;
 * separable's window sums fit) and wide_t (the table). */
#define GPU_BOX_SCAN(NAME, T)                                               \
void                                                                        \
NAME (__local T *line, __local T *part, int n)                              \
{                                                                           \
    int l = get_local_id (0), group = get_local_size (0);                   \
    /* odd, so that the chunks start in different local memory banks */   \
    int chunk = (n + group - 1) / group | 1;                                \
    int b = 1 + l * chunk, e = min (b + chunk, n + 1);                      \
    T acc = 0;                                                              \
    if (l == 0)                                                             \
        line[0] = 0;                                                        \
    for (int k = b; k < e; k++) {                                           \
        acc += line[k];                                                     \
        line[k] = acc;                                                      \
    }                                                                       \
    part[l] = acc;                                                          \
    barrier (CLK_LOCAL_MEM_FENCE);                                          \
    for (int d = 1; d < group; d <<= 1) {                                   \
        T v = l >= d ? part[l - d] : 0;                                     \
        barrier (CLK_LOCAL_MEM_FENCE);                                      \
        part[l] += v;                                                       \
        barrier (CLK_LOCAL_MEM_FENCE);                                      \
    }                                                                       \
    T carry = l > 0 ? part[l - 1] : 0;                                      \
    for (int k = b; k < e; k++)                                             \
        line[k] += carry;                                                   \
    barrier (CLK_LOCAL_MEM_FENCE);                                          \
}

GPU_BOX_SCAN (gpu_box_scan_uint, uint)
GPU_BOX_SCAN (gpu_box_scan_wide, wide_t)

/* One work-group per (row, channel): global (group, height * channels),
 * local (group, 1). line: width + 2 rx + 1 uints, part: group uints. */
__kernel void
gpu_box_sep_rows (__global const sample_t *src, int pitch, int pstride,
                  int4 off, int swap, int shift, __global uint *tmp,
                  int width, int height, int channels, int rx, int border,
                  __local uint *line, __local uint *part)
{
    int rc = get_global_id (1);
    int y = rc / channels, c = rc - y * channels;
    int l = get_local_id (0), group = get_local_size (0);
    int n = width + 2 * rx;
    size_t row = (size_t) y * pitch + clb_comp (off, c);

    if (y >= height)
        return;
    /* line[1 + k]: extended position k - rx, border-mapped */
    for (int k = l; k < n; k += group)
        line[1 + k] = separable_row_sample (src, row, pstride, 0, swap,
                                            shift, k - rx, width, border);
    barrier (CLK_LOCAL_MEM_FENCE);
    gpu_box_scan_uint (line, part, n);

    /* the window of x: extended positions x - rx .. x + rx */
    size_t o = (size_t) y * width * channels + c;
    for (int x = l; x < width; x += group)
        tmp[o + (size_t) x * channels] = line[x + 2 * rx + 1] - line[x];
}

/* One work-item per (sample column k = x * channels + c, chunk of rows):
 * global (width * channels rounded up, chunks). Output rows
 * chunk * q .. chunk * (q + 1) - 1 of column k, a running sum of the
 * horizontal sums as separable_columns. */
__kernel void
gpu_box_sep_columns (__global const uint *tmp, __global sample_t *dst,
                     int pitch, int pstride, int4 off, int swap, int shift,
                     int width, int height, int channels, int rx, int ry,
                     int border, int chunk)
{
    int row_len = width * channels;
    int k = get_global_id (0);
    int y0 = (int) get_global_id (1) * chunk;
    if (k >= row_len || y0 >= height)
        return;
    int y1 = min (height, y0 + chunk);
    int x = k / channels;
    size_t o = (size_t) x * pstride + clb_comp (off, k - x * channels);
    wide_t nx = separable_count (x, rx, width, border);

    wide_t sum = 0;
    for (int i = y0 - ry; i <= y0 + ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            sum += tmp[(size_t) r * row_len + k];
    }
    for (int y = y0; y < y1; y++) {
        wide_t area = nx * separable_count (y, ry, height, border);
        clb_store (dst, (size_t) y * pitch + o,
                   (uint) ((sum + area / 2) / area), swap, shift);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        if (in >= 0)
            sum += tmp[(size_t) in * row_len + k];
        if (out >= 0)
            sum -= tmp[(size_t) out * row_len + k];
    }
}

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
