/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * bilateral_gpu: the bilateral filter shaped for GPUs (engine variant
 * "bilateral_gpu", gst/clblur/enginebilateral.c), and every device's
 * tiled one: on CPUs the jobs bilateral_x16 does not take (16-bit, pixels
 * with bytes not the job's), 1.4 to 1.6x faster there than the tiled
 * kernel it replaced (PoCL, YUY2 720p, radius 3 and 8). The filter of
 * kernels/bilateral.cl: each output sample the weighted mean of its
 * (2 rx + 1) x (2 ry + 1) window, weight = spatial[dy][dx] * prod over
 * channels c in dist_mask of range[|neighbour[c] - centre[c]|].
 *
 *  - 2-D work-groups over output tiles; the tile plus its apron staged in
 *    local memory once per work-group, consecutive work-items loading
 *    consecutive pixels (coalesced), border-mapped (common.cl).
 *  - The tile is planar floats, channel c's plane after channel c - 1's:
 *    the work-items of a warp read consecutive words (no bank conflicts),
 *    and a tap converts nothing: the range table's index |d| (an integer
 *    below 2^23) is read from the mantissa of |d| + 2^23 (an add and an
 *    and, where a float-to-int conversion runs at a quarter of the rate).
 *  - The spatial table in __constant memory: every work-item of a group
 *    reads the same entry at the same time (a broadcast).
 *  - 8-bit samples: the range table (256 floats) in __constant memory,
 *    copied into local memory by the work-group (its reads are scattered:
 *    one per work-item). 16-bit: max_value + 1 floats, up to 256 KiB, too
 *    large for either; read from global memory.
 *  - The channel loops with a constant channel count (one inlined copy of
 *    the window per count), so that absent channels cost nothing.
 *
 * Each work-item one output pixel, all channels; the group's pixels past
 * the band (x1, y1) only help to stage. SHRINK: the window's loops are
 * clipped to the frame (no test a tap). Precision as in bilateral.cl:
 * values relative to the centre, each window row summed apart. */

#if CLB_SAMPLE_BITS == 8
#define GPU_BIL_RANGE_ARG __constant
#define GPU_BIL_TABLE __local const
#define GPU_BIL_STAGE_RANGE 1
#else
#define GPU_BIL_RANGE_ARG __global const
#define GPU_BIL_TABLE __global const
#define GPU_BIL_STAGE_RANGE 0
#endif

/* The range table's index of the difference d, a whole number of at most
 * 65535 either way: |d| + 2^23 holds |d| in its mantissa. Capped at
 * max_value (a 16-bit sample above it: invalid input). */
int
gpu_bilateral_index (float d, int max_value)
{
    return min (as_int (fabs (d) + 8388608.0f) & 0x7fffff, max_value);
}

/* The window sums of the pixel at tile index ci, offsets dx in
 * [dx0, dx1], dy in [dy0, dy1], for @nc channels (a constant where
 * inlined): acc[c] = sum w (v[c] - centre[c]), acc[4] = sum w. */
CLB_INLINE void
gpu_bilateral_window (__local const float *tile, int n, int tw, int ci,
                      int dx0, int dx1, int dy0, int dy1, int rx, int ry,
                      __constant float *spatial, GPU_BIL_TABLE float *table,
                      int dist_mask, int max_value, int nc, const float *ce,
                      float *acc)
{
    int sw = 2 * rx + 1;
    float wsum = 0.0f;

    for (int c = 0; c < 4; c++)
        acc[c] = 0.0f;
    for (int dy = dy0; dy <= dy1; dy++) {
        int row = ci + dy * tw;
        __constant float *srow = spatial + (dy + ry) * sw + rx;
        float racc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, rw = 0.0f;
        for (int dx = dx0; dx <= dx1; dx++) {
            int t = row + dx;
            float d[4];
            float w = srow[dx];
            for (int c = 0; c < nc; c++) {
                d[c] = tile[c * n + t] - ce[c];
                if (dist_mask & (1 << c))
                    w *= table[gpu_bilateral_index (d[c], max_value)];
            }
            rw += w;
            for (int c = 0; c < nc; c++)
                racc[c] += w * d[c];
        }
        wsum += rw;
        for (int c = 0; c < nc; c++)
            acc[c] += racc[c];
    }
    acc[4] = wsum;
}

__kernel void
bilateral_gpu (__global const sample_t *src, int pitch, int pstride,
               int4 off, int swap, int shift, __global sample_t *dst,
               int width, int height, int channels, int rx, int ry,
               int border, __constant float *spatial,
               GPU_BIL_RANGE_ARG float *range, int dist_mask, int max_value,
               int x1, int y1, __local float *tile)
{
    int lw = get_local_size (0), lh = get_local_size (1);
    int lx = get_local_id (0), ly = get_local_id (1);
    int items = lw * lh, id = ly * lw + lx;
    int tw = lw + 2 * rx, th = lh + 2 * ry, n = tw * th;
    /* the group's first pixel: launches start at the band's offset */
    int gx0 = (int) get_global_id (0) - lx - rx;
    int gy0 = (int) get_global_id (1) - ly - ry;

    /* the tile and its apron, row by row: consecutive ids, consecutive
     * pixels; SHRINK's pixels outside the frame are never read */
    for (int i = id; i < n; i += items) {
        int ty = i / tw, tx = i - ty * tw;
        int sx = clb_border_index (gx0 + tx, width, border);
        int sy = clb_border_index (gy0 + ty, height, border);
        if (sx < 0 || sy < 0)
            continue;
        size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
        for (int c = 0; c < channels; c++)
            tile[c * n + i] =
                (float) clb_load (src, b + clb_comp (off, c), swap, shift);
    }
#if GPU_BIL_STAGE_RANGE
    __local float *lrange = tile + channels * n;
    for (int i = id; i <= max_value; i += items)
        lrange[i] = range[i];
    GPU_BIL_TABLE float *table = lrange;
#else
    GPU_BIL_TABLE float *table = range;
#endif
    barrier (CLK_LOCAL_MEM_FENCE);

    int x = get_global_id (0), y = get_global_id (1);
    if (x >= x1 || y >= y1)
        return;

    int dx0, dx1, dy0, dy1;
    clb_window (x, rx, width, border, &dx0, &dx1);
    clb_window (y, ry, height, border, &dy0, &dy1);
    int ci = (ly + ry) * tw + lx + rx;
    float ce[4] = {0.0f, 0.0f, 0.0f, 0.0f}, acc[5];
    for (int c = 0; c < channels; c++)
        ce[c] = tile[c * n + ci];
    /* a constant channel count, each its own inlined window */
#define GPU_BIL_WINDOW(nc)                                                 \
    gpu_bilateral_window (tile, n, tw, ci, dx0, dx1, dy0, dy1, rx, ry,     \
                          spatial, table, dist_mask, max_value, nc, ce, acc)
    channels == 1 ? GPU_BIL_WINDOW (1) : channels == 2 ? GPU_BIL_WINDOW (2)
        : channels == 3 ? GPU_BIL_WINDOW (3) : GPU_BIL_WINDOW (4);
#undef GPU_BIL_WINDOW

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   bilateral_round (ce[c], acc[c], acc[4], max_value),
                   swap, shift);
}
