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
 * Rows: one work-group per (row, lanes channels from c0: the job's all,
 * or one): global (group, height * channels / lanes), local (group, 1).
 * line: lanes * (n + 1) + group uints, n = width + 2 rx: lane j's
 * extended position e (border-mapped e - rx) at line[j * (n + 1) + 1 +
 * e], after a 0 of its own, all scanned as one line; the window of x the
 * extended positions x - rx .. x + rx. Sample i of the line is position
 * i / lanes of lane i % lanes, so that neighbouring work-items load
 * neighbouring bytes, and store neighbouring sums, where the job's
 * channels are its pixels' bytes.
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
      int channels, int rx, int border, int lanes, __local uint *line,      \
      __local uint *part)                                                   \
{                                                                           \
    int groups = channels / lanes, g = get_global_id (1);                   \
    int y = g / groups, c0 = (g - y * groups) * lanes;                      \
    int l = get_local_id (0), group = get_local_size (0);                   \
    int n = width + 2 * rx, span = n + 1;                                   \
    size_t row = (size_t) y * pitch;                                        \
    if (y >= height)                                                        \
        return;                                                             \
    for (int i = l; i < lanes * n; i += group) {                            \
        int e = i / lanes, j = i - e * lanes;                               \
        line[j * span + 1 + e] =                                            \
            separable_row_sample (src, row, pstride, clb_comp (off, c0 + j), \
                                  swap, shift, e - rx, width, border);      \
        if (e == 0)                                                         \
            line[j * span] = 0;                                             \
    }                                                                       \
    barrier (CLK_LOCAL_MEM_FENCE);                                          \
    gpu_box_scan_uint (line, part, lanes * span - 1);                       \
    size_t o = (size_t) y * width * channels + c0;                          \
    for (int i = l; i < lanes * width; i += group) {                        \
        int x = i / lanes, j = i - x * lanes;                               \
        tmp[o + (size_t) x * channels + j] =                                \
            (T) (line[j * span + x + 2 * rx + 1] - line[j * span + x]);     \
    }                                                                       \
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
