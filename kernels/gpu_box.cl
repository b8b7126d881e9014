/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box methods shaped for GPUs: many short work-items, neighbours on
 * neighbouring memory, instead of one work-item walking a whole row or
 * column (sat.cl, separable.cl, which CPUs and the fallbacks keep). This
 * file holds the line scan both share; the kernels are in
 * gpu_separable.cl and gpu_sat.cl:
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
