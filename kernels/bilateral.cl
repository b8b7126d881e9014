/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bilateral filter: each output sample is the weighted mean of its
 * (2 rx + 1) x (2 ry + 1) window with
 *     weight = spatial[dy][dx] * prod over channels c in dist_mask of
 *              range[|neighbour[c] - centre[c]|]
 * The product of per-channel Gaussians is the Gaussian of the colour
 * distance, so every channel of a pixel gets the same weights and edges stay
 * aligned across channels. Both tables are computed once per parameter
 * change on the host (no exp per pixel), as in the bilateral source document.
 *
 *   bilateral_local   stages the work-group's tile plus its apron in local
 *                     memory, each sample loaded once per work-group
 *   bilateral_global  reads global memory directly, for radii whose tile
 *                     does not fit in local memory
 *
 * With border SHRINK, neighbours outside the frame are skipped.
 *
 * Precision: sums are float, over up to 4095^2 taps. Each row's terms are
 * summed apart and then added to the totals, and the values are taken
 * relative to the centre (the result is centre + sum w (v - centre) / sum w),
 * so the totals stay small and exact enough for +-1 at any radius.
 */

/* Range weight of a difference; samples above max_value (invalid input)
 * must not read past the table. */
float
bilateral_range (__global const float *range, float d, int max_value)
{
    return range[min ((int) fabs (d), max_value)];
}

uint
bilateral_round (float centre, float acc, float wsum, int max_value)
{
    float v = floor (centre + acc / wsum + 0.5f);
    return (uint) clamp (v, 0.0f, (float) max_value);
}

__kernel void
bilateral_local (__global const sample_t *src, int pitch, int pstride,
                 int4 off, int swap, int shift, __global sample_t *dst,
                 int width, int height, int channels, int rx, int ry,
                 int border, __global const float *spatial,
                 __global const float *range, int dist_mask, int max_value,
                 __local float *tile)
{
    int lw = get_local_size (0), lh = get_local_size (1);
    int lx = get_local_id (0), ly = get_local_id (1);
    int tw = lw + 2 * rx, th = lh + 2 * ry;
    int gx0 = get_group_id (0) * lw - rx;
    int gy0 = get_group_id (1) * lh - ry;

    /* Stage the tile and its apron: 1 sample per work-item per round. */
    for (int i = ly * lw + lx; i < tw * th; i += lw * lh) {
        int ty = i / tw;
        int tx = i - ty * tw;
        int sx = clb_border_index (gx0 + tx, width, border);
        int sy = clb_border_index (gy0 + ty, height, border);
        __local float *t = tile + (size_t) i * channels;
        if (sx < 0 || sy < 0) {
            t[0] = -1.0f; /* outside the frame, SHRINK: skipped */
            continue;
        }
        size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
        for (int c = 0; c < channels; c++)
            t[c] = (float) clb_load (src, b + clb_comp (off, c), swap, shift);
    }
    barrier (CLK_LOCAL_MEM_FENCE);

    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;

    __local const float *centre =
        tile + (size_t) ((ly + ry) * tw + lx + rx) * channels;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float wsum = 0.0f;
    int sw = 2 * rx + 1;

    for (int dy = -ry; dy <= ry; dy++) {
        __local const float *trow =
            tile + (size_t) ((ly + ry + dy) * tw + lx + rx) * channels;
        __global const float *srow = spatial + (dy + ry) * sw + rx;
        float racc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, rw = 0.0f;
        for (int dx = -rx; dx <= rx; dx++) {
            __local const float *t = trow + dx * channels;
            if (t[0] < 0.0f)
                continue;
            float w = srow[dx];
            for (int c = 0; c < channels; c++) {
                if (dist_mask & (1 << c))
                    w *= bilateral_range (range, t[c] - centre[c], max_value);
            }
            rw += w;
            for (int c = 0; c < channels; c++)
                racc[c] += w * (t[c] - centre[c]);
        }
        wsum += rw;
        for (int c = 0; c < channels; c++)
            acc[c] += racc[c];
    }

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   bilateral_round (centre[c], acc[c], wsum, max_value),
                   swap, shift);
}

__kernel void
bilateral_global (__global const sample_t *src, int pitch, int pstride,
                  int4 off, int swap, int shift, __global sample_t *dst,
                  int width, int height, int channels, int rx, int ry,
                  int border, __global const float *spatial,
                  __global const float *range, int dist_mask, int max_value)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    float centre[4], acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float wsum = 0.0f;
    int sw = 2 * rx + 1;

    for (int c = 0; c < channels; c++)
        centre[c] = (float) clb_load (src, o + clb_comp (off, c), swap, shift);

    for (int dy = -ry; dy <= ry; dy++) {
        int sy = clb_border_index (y + dy, height, border);
        if (sy < 0)
            continue;
        float racc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, rw = 0.0f;
        for (int dx = -rx; dx <= rx; dx++) {
            int sx = clb_border_index (x + dx, width, border);
            if (sx < 0)
                continue;
            size_t b = (size_t) sy * pitch + (size_t) sx * pstride;
            float v[4];
            float w = spatial[(dy + ry) * sw + dx + rx];
            for (int c = 0; c < channels; c++) {
                v[c] = (float) clb_load (src, b + clb_comp (off, c), swap,
                                         shift);
                if (dist_mask & (1 << c))
                    w *= bilateral_range (range, v[c] - centre[c], max_value);
            }
            rw += w;
            for (int c = 0; c < channels; c++)
                racc[c] += w * (v[c] - centre[c]);
        }
        wsum += rw;
        for (int c = 0; c < channels; c++)
            acc[c] += racc[c];
    }

    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c),
                   bilateral_round (centre[c], acc[c], wsum, max_value),
                   swap, shift);
}
