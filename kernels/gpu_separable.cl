/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * separable shaped for GPUs (gst/clblur/engineseparable.c, separable_gpu):
 * gpu_box_sep_rows scans each border-extended row in local memory with
 * gpu_box.cl's scan, gpu_box_sep_columns runs down chunks of columns.
 * Two pairs: the horizontal window sums in tmp as uint, or as ushort
 * (gpu_box_sep_rows16, gpu_box_sep_columns16) where every one fits 16
 * bits ((2 rx + 1) times the largest sample < 2^16: the engine picks):
 * half the bytes
 * written by the rows and read twice by the columns. The scan stays in
 * uint (modulo 2^32), whose window differences are the sums exactly.
 *
 * Rows: one work-group per (row, channel): global (group, height *
 * channels), local (group, 1). line: width + 2 rx + 1 uints, part: group
 * uints; line[1 + k] is extended position k - rx, border-mapped, and the
 * window of x the extended positions x - rx .. x + rx.
 *
 * Columns: one work-item per (sample column k = x * channels + c, chunk
 * of rows): global (width * channels rounded up, chunks). Output rows
 * chunk * q .. chunk * (q + 1) - 1 of column k, a running sum of the
 * horizontal sums as separable_columns.
 */
#define GPU_BOX_SEP(ROWS, COLUMNS, T)                                       \
__kernel void                                                               \
ROWS (__global const sample_t *src, int pitch, int pstride, int4 off,       \
      int swap, int shift, __global T *tmp, int width, int height,          \
      int channels, int rx, int border, __local uint *line,                 \
      __local uint *part)                                                   \
{                                                                           \
    int rc = get_global_id (1);                                             \
    int y = rc / channels, c = rc - y * channels;                           \
    int l = get_local_id (0), group = get_local_size (0);                   \
    int n = width + 2 * rx;                                                 \
    size_t row = (size_t) y * pitch + clb_comp (off, c);                    \
    if (y >= height)                                                        \
        return;                                                             \
    for (int k = l; k < n; k += group)                                      \
        line[1 + k] = separable_row_sample (src, row, pstride, 0, swap,     \
                                            shift, k - rx, width, border);  \
    barrier (CLK_LOCAL_MEM_FENCE);                                          \
    gpu_box_scan_uint (line, part, n);                                      \
    size_t o = (size_t) y * width * channels + c;                           \
    for (int x = l; x < width; x += group)                                  \
        tmp[o + (size_t) x * channels] = (T) (line[x + 2 * rx + 1]          \
                                              - line[x]);                   \
}                                                                           \
__kernel void                                                               \
COLUMNS (__global const T *tmp, __global sample_t *dst, int pitch,          \
         int pstride, int4 off, int swap, int shift, int width, int height, \
         int channels, int rx, int ry, int border, int chunk)               \
{                                                                           \
    int row_len = width * channels, k = get_global_id (0);                  \
    int y0 = (int) get_global_id (1) * chunk;                               \
    if (k >= row_len || y0 >= height)                                       \
        return;                                                             \
    int y1 = min (height, y0 + chunk), x = k / channels;                    \
    size_t o = (size_t) x * pstride + clb_comp (off, k - x * channels);     \
    wide_t nx = clb_border_count (x, rx, width, border), sum = 0;           \
    for (int i = y0 - ry; i <= y0 + ry; i++) {                              \
        int r = clb_border_index (i, height, border);                       \
        if (r >= 0)                                                         \
            sum += tmp[(size_t) r * row_len + k];                           \
    }                                                                       \
    for (int y = y0; y < y1; y++) {                                         \
        wide_t area = nx * clb_border_count (y, ry, height, border);        \
        clb_store (dst, (size_t) y * pitch + o,                             \
                   (uint) ((sum + area / 2) / area), swap, shift);          \
        int in = clb_border_index (y + ry + 1, height, border);             \
        int out = clb_border_index (y - ry, height, border);                \
        if (in >= 0)                                                        \
            sum += tmp[(size_t) in * row_len + k];                          \
        if (out >= 0)                                                       \
            sum -= tmp[(size_t) out * row_len + k];                         \
    }                                                                       \
}

GPU_BOX_SEP (gpu_box_sep_rows, gpu_box_sep_columns, uint)
GPU_BOX_SEP (gpu_box_sep_rows16, gpu_box_sep_columns16, ushort)
