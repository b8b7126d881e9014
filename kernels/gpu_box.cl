/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box methods shaped for GPUs: many short work-items, neighbours on
 * neighbouring memory, instead of one work-item walking a whole row or
 * column (sat.cl, separable.cl, which CPUs and the fallbacks keep). This
 * file holds the line scan both share; the kernels are in
 * gpu_separable.cl and gpu_sat.cl:
 *
 *   gpu_box_sep_rows     separable's horizontal sums: a work-group per
 *                        row (or row and channel) scans it, border-extended
 *                        by rx each side, in local memory; each window sum
 *                        is then a difference of two prefix sums
 *   gpu_box_sep_columns  separable's vertical pass: a work-item per
 *                        (sample column, chunk of rows), running sums
 *   gpu_box_sat_totals   the summed-area table: each chunk's column sums,
 *   gpu_box_sat_rows     then a work-group per chunk keeps its column sums
 *                        in local memory, each row scanned into the table
 *   gpu_box_sat_box      a row of pixels from two table rows in local memory
 *
 * A work-group scans the channels of its row as one line, lane after lane
 * (a 0 before each): the differences of prefix sums within a lane are the
 * lane's, and neighbouring work-items load neighbouring samples.
 *
 * Integer sums are exact in any order (modular arithmetic: a window sum
 * fits its type, see separable.cl and sat.cl), and the rounding and the
 * borders are separable.cl's and sat.cl's, so the results are theirs bit
 * for bit. The tables are whole (the engine's GPU rows refuse jobs whose
 * intermediate needs bands) and packed as theirs: element
 * (y * width + x) * channels + c.
 */

/* An inclusive prefix scan of line[1 .. n] in place (line[0] = 0, set by
 * the caller) by the work-group: each work-item scans a chunk serially, the
 * chunks' totals are scanned in part[] (one per work-item), then added
 * back; returns what was added (gpu_box_unscan_wide takes it). Every
 * work-item of the group calls it, once line[1 .. n] is loaded and a
 * barrier passed. Two copies: uint sums (modulo 2^32; separable's window
 * sums fit) and wide_t (the table). */
#define GPU_BOX_SCAN(NAME, T)                                               \
T                                                                           \
NAME (__local T *line, __local T *part, int n)                              \
{                                                                           \
    int l = get_local_id (0), group = get_local_size (0);                   \
    /* odd, so that the chunks start in different local memory banks */   \
    int chunk = (n + group - 1) / group | 1;                                \
    int b = 1 + l * chunk, e = min (b + chunk, n + 1);                      \
    T acc = 0;                                                              \
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
    return carry;                                                           \
}

GPU_BOX_SCAN (gpu_box_scan_uint, uint)
GPU_BOX_SCAN (gpu_box_scan_wide, wide_t)

/* The scan undone on the work-item's own chunk (carry: what the scan
 * returned it), once every read of the scanned line has passed a
 * barrier. */
void
gpu_box_unscan_wide (__local wide_t *line, int n, wide_t carry)
{
    int chunk = (n + get_local_size (0) - 1) / get_local_size (0) | 1;
    int b = 1 + get_local_id (0) * chunk;
    for (int k = min (b + chunk, n + 1) - 1; k >= b; k--)
        line[k] -= k > b ? line[k - 1] : carry;
}
