/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Regions: the whole plane is filtered (so samples inside a region see
 * their real neighbours across its edge), then region_composite merges the
 * filtered and the original samples, sample by sample.
 *
 * Rectangles are (x0, y0, x1, y1), x1 and y1 exclusive, in pixels of the
 * full-resolution frame, already clipped to it. A sample of a plane
 * subsampled by 2^x_sub x 2^y_sub is inside when its footprint overlaps a
 * rectangle: x0 >> x_sub <= x < ceil (x1 / 2^x_sub), likewise for y.
 */

__kernel void
region_composite (__global const sample_t *from, __global sample_t *to,
                  int pitch, int pstride, int4 off, int width, int height,
                  int channels, int x_sub, int y_sub,
                  __global const int4 *rects, int n_rects, int copy_inside)
{
    int x = get_global_id (0);
    int y = get_global_id (1);
    if (x >= width || y >= height)
        return;

    int inside = 0;
    for (int i = 0; i < n_rects && !inside; i++) {
        int4 r = rects[i];
        int x0 = r.s0 >> x_sub, y0 = r.s1 >> y_sub;
        int x1 = (r.s2 + (1 << x_sub) - 1) >> x_sub;
        int y1 = (r.s3 + (1 << y_sub) - 1) >> y_sub;
        inside = x >= x0 && x < x1 && y >= y0 && y < y1;
    }
    if (inside != copy_inside)
        return;

    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++) {
        size_t i = o + clb_comp (off, c);
        to[i] = from[i];
    }
}
