/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Separable box blur with running sums: a horizontal pass into a uint
 * intermediate, then a vertical pass. Each step adds the sample entering
 * the window and subtracts the one leaving it, so the cost per sample does
 * not grow with the radius.
 *
 *   separable_rows     one work-item per (channel, row)
 *   separable_columns  one work-item per strip of adjacent sample columns
 *
 * The intermediate holds horizontal window sums: at most
 * (2 * 2047 + 1) * 65535 < 2^32, so uint is exact. The vertical sums are
 * wide_t (common.cl). The result and its rounding, (sum + area / 2) / area,
 * equal the summed-area table's bit for bit.
 */

uint
separable_row_sample (__global const sample_t *src, size_t row, int pstride,
                      int comp, int swap, int shift, int i, int len,
                      int border)
{
    int j = clb_border_index (i, len, border);
    if (j < 0)
        return 0;
    return clb_load (src, row + (size_t) j * pstride + comp, swap, shift);
}

/* One work-item per (channel, row), over columns x_begin .. x_end - 1:
 * the whole row, or a part of it (engine.c cuts rows into parts on
 * devices that cap loops); rows y_first .. y_end - 1. */
__kernel void
separable_rows (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, __global uint *tmp, int width,
                int y_end, int channels, int rx, int border, int y_first,
                int ring, int x_begin, int x_end)
{
    int c = get_global_id (0), y = y_first + (int) get_global_id (1);
    if (c >= channels || y >= y_end)
        return;

    size_t row = (size_t) y * pitch;
    int comp = clb_comp (off, c);
    size_t o = (clb_slot (y, ring) * width + x_begin) * channels + c;

    uint sum = 0;
    for (int i = x_begin - rx; i <= x_begin + rx; i++)
        sum += separable_row_sample (src, row, pstride, comp, swap, shift, i,
                                     width, border);
    for (int x = x_begin; x < x_end; x++, o += channels) {
        tmp[o] = sum;
        if (x - rx >= 0 && x + rx + 1 < width) {
            /* both samples inside the row: no border mapping */
            size_t s = row + comp;
            sum += clb_load (src, s + (size_t) (x + rx + 1) * pstride, swap,
                             shift);
            sum -= clb_load (src, s + (size_t) (x - rx) * pstride, swap,
                             shift);
            continue;
        }
        sum += separable_row_sample (src, row, pstride, comp, swap, shift,
                                     x + rx + 1, width, border);
        sum -= separable_row_sample (src, row, pstride, comp, swap, shift,
                                     x - rx, width, border);
    }
}

/* Each work-item slides down a strip of `strip` adjacent sample columns
 * (see sat_scan_columns: 1 on GPUs, 16 on CPUs), over rows y_begin ..
 * y_end - 1 (all, or a part, as separable_rows). */

__kernel void
separable_columns (__global const uint *tmp, __global sample_t *dst,
                   int pitch, int pstride, int4 off, int swap, int shift,
                   int width, int height, int channels, int rx, int ry,
                   int border, int strip, int ring, int y_begin,
                   int y_end)
{
    int row_len = width * channels, first = get_global_id (0) * strip;
    if (first >= row_len)
        return;
    int n = min (strip, row_len - first);

    wide_t sum[CLB_SEPARABLE_MAX_STRIP];
    wide_t nx[CLB_SEPARABLE_MAX_STRIP];
    size_t o[CLB_SEPARABLE_MAX_STRIP];
    for (int j = 0; j < n; j++) {
        int k = first + j, x = k / channels;
        int c = k - x * channels;
        o[j] = (size_t) x * pstride + clb_comp (off, c);
        nx[j] = clb_border_count (x, rx, width, border);
        sum[j] = 0;
    }

    for (int i = y_begin - ry; i <= y_begin + ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r < 0)
            continue;
        size_t t = clb_slot (r, ring) * row_len + first;
        for (int j = 0; j < n; j++)
            sum[j] += tmp[t + j];
    }
    for (int y = y_begin; y < y_end; y++) {
        wide_t ny = clb_border_count (y, ry, height, border);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        size_t ti = in >= 0 ? clb_slot (in, ring) * row_len + first : 0;
        size_t to = out >= 0 ? clb_slot (out, ring) * row_len + first : 0;
        for (int j = 0; j < n; j++) {
            wide_t area = nx[j] * ny;
            clb_store (dst, (size_t) y * pitch + o[j],
                       (uint) ((sum[j] + area / 2) / area), swap, shift);
            if (in >= 0)
                sum[j] += tmp[ti + j];
            if (out >= 0)
                sum[j] -= tmp[to + j];
        }
    }
}

#if CLB_SAMPLE_BITS == 8
/* The CPU schedule of the same algorithm, for 8-bit jobs whose pixels are
 * 1 to 4 bytes (separable_fused_x16) and packed 4:2:2
 * (separable_fused_422_x16): both passes in one walk, 16 samples a step
 * in vector lanes. The window sums along x are running sums as above:
 * the window of pixel x is that of x - 1 plus V(x + r) - V(x - r - 1),
 * the differences of a step one vector load each side, summed across the
 * step's pixels by a lane scan, plus the previous step's last pixel (the
 * carry). The rounded means, the lane scans and shuffles are lanes.cl's. */

/* A step's 16 results q at sample k0 of a row of row_len samples, the
 * kept lanes (separable_keep16) from the input row kin: one store where
 * the step's 16 bytes are the row's (with RGB, lane 16 lands on the next
 * step's first sample, which that step then writes), else lane by lane
 * up to the step's last whole pixel or the row's end. */
void
separable_store_step (uint16 q, __global uchar *out,
                      __global const uchar *kin, int k0, int row_len,
                      int channels, int keep, uchar16 keep16)
{
    if (k0 + 16 <= row_len) {
        CLB_STORE16 (uchar, separable_kept16 (q, kin, k0, keep, keep16),
                     out + k0);
        return;
    }
    uchar qs[16];
    vstore16 (convert_uchar16_sat (q), 0, qs);
    int used = 16 / channels * channels;
    for (int j = 0; j < used && k0 + j < row_len; j++)
        out[k0 + j] = (keep >> (j % channels)) & 1 ? kin[k0 + j] : qs[j];
}

/* The walk down a band: one work-item per band of band_rows output rows,
 * the whole row wide. A row of vertical window sums (all the row's bytes;
 * in tmp, the band's own, kept in cache) is moved down a row by adding
 * the row entering the window and subtracting the one leaving it, and
 * each output row is the horizontal pass over it (separable_row). The
 * sums are uint whatever the window's height. The frame is read about
 * once and written once; the input must not be the output (rows are read
 * after others are written: the engine runs a frame filtered in place
 * from a copy). The lanes of a pixel in keep are read from kin (the
 * input for kept channels; the output itself for the bytes of another
 * job). */

/* sums += (add ? row a : 0) - (sub ? row b : 0), over row_len bytes */
CLB_INLINE void
separable_v_move (__global uint *tmp, size_t row, __global const uchar *a,
                  __global const uchar *b, int row_len, int add, int sub)
{
    __global uint *t32 = tmp + row;
    int k = 0;

    for (; k + 16 <= row_len; k += 16) {
        uint16 d = (uint16) (0);
        if (add)
            d = convert_uint16 (CLB_LOAD16 (uchar, a + k));
        if (sub)
            d -= convert_uint16 (CLB_LOAD16 (uchar, b + k));
        CLB_STORE16 (uint, CLB_LOAD16 (uint, t32 + k) + d, t32 + k);
    }
    for (; k < row_len; k++) {
        uint d = (add ? a[k] : 0u) - (sub ? b[k] : 0u);
        t32[k] += d;
    }
}

void
separable_v_step (__global uint *tmp, size_t row, __global const uchar *src,
                  int pitch, int in, int out, int row_len)
{
    __global const uchar *a = src + (size_t) max (in, 0) * pitch;
    __global const uchar *b = src + (size_t) max (out, 0) * pitch;

    if (in >= 0 && out >= 0)
        separable_v_move (tmp, row, a, b, row_len, 1, 1);
    else if (in >= 0)
        separable_v_move (tmp, row, a, b, row_len, 1, 0);
    else if (out >= 0)
        separable_v_move (tmp, row, a, b, row_len, 0, 1);
}

/* The lanes of the first kind: every lane but packed 4:2:2's chroma ones
 * (luma >= 0: the luma bytes' parity). */
CLB_INLINE int16
separable_is_a (int luma)
{
    return luma == 1 ? (int16) (0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0,
                                -1, 0, -1)
        : luma == 0 ? (int16) (-1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1,
                               0, -1, 0) : (int16) (-1);
}

/* The row of vertical sums has an apron each side (CLB_FUSED_APRON,
 * CLB_422_APRON: loops.h), so that every load of a step stays inside the
 * extended row and no step maps its loads through the border: 0 with
 * SHRINK (set once a band), else the sums the border shows there, set
 * after each move of the row (element b of it: a pixel of s bytes, p,
 * the floor of b / s). */
CLB_INLINE void
separable_apron (__global uint *tmp, size_t row, int width, int c, int luma,
                 int border, int apron)
{
    int row_len = width * c;
    for (int i = 0; i < 2 * apron; i++) {
        int b = i < apron ? i - apron : row_len + i - apron;
        int s = luma < 0 ? c : (b & 1) == luma ? 2 : 4;
        int p = b >= 0 ? b / s : -((s - 1 - b) / s);
        int m = clb_border_index (p, row_len / s, border);
        tmp[row + b] = tmp[row + (size_t) (m * s + b - p * s)];
    }
}

/* A row's lanes, the same for all its steps: pixels of c bytes (luma < 0:
 * every lane a window of 2 rx + 1 pixels), or packed 4:2:2 (c 2, luma the
 * luma bytes' parity: the luma lanes, is_a, a window of 2 rx + 1 pixels
 * of 2 bytes, the chroma lanes one of 2 rc + 1 pixels of 4); the full
 * windows' divisors (full, inv, exact: ny rows), the kept lanes (keep,
 * keep16), z zeros (separable_zero16). Inlined with constant c and luma,
 * the selects between the two kinds of lanes fold away. */
#define SEPARABLE_LANES_PARAMS int c, int luma, int width, int rx, int rc, \
    int border, uint ny, uint16 full, float16 inv, int exact, int keep,   \
    uchar16 keep16, int16 is_a, uint16 z
#define SEPARABLE_LANES c, luma, width, rx, rc, border, ny, full, inv, \
    exact, keep, keep16, is_a, z

/* The steps of a row of the extended row of vertical sums whose sample 0
 * is element row of tmp, from the carry (the window sums of pixel -1 in
 * each channel's lanes), each two loads (four for 4:2:2), the scan plus
 * the carry, the rounded mean and the store. The steps from head up to
 * the last whose windows end inside the row and whose store stays in it,
 * end, are the fast ones: the full windows' divisors, one store of all 16
 * bytes; the others store lane by lane where the row ends, and with
 * SHRINK divide each lane by its own count (at least 1 past the end). */
CLB_INLINE void
separable_steps (__global const uint *tmp, size_t row, __global uchar *out,
                 __global const uchar *kin, uint16 carry, int head, int end,
                 SEPARABLE_LANES_PARAMS)
{
    int used = 16 / c * c, sa = luma < 0 ? c : 2, row_len = width * c;
    int shrink = border == CLB_BORDER_SHRINK;
    int16 lane = CLB_IOTA;
    __global const uint *in = tmp + row + rx * sa;
    __global const uint *leave = in - (2 * rx + 1) * sa;
    for (int k0 = 0; k0 < row_len; k0 += used, in += used, leave += used) {
        int direct = k0 >= head && k0 <= end, cut = shrink && !direct;
        uint16 d = CLB_LOAD16 (uint, in) - CLB_LOAD16 (uint, leave), q;
        if (luma >= 0) {
            __global const uint *t = in - rx * sa;
            /* the chroma lanes' differences; the scan: the luma lanes
             * 2 apart, the chroma ones 4 */
            d = select (CLB_LOAD16 (uint, t + 4 * rc)
                        - CLB_LOAD16 (uint, t - 4 * rc - 4), d, is_a);
            d += CLB_422_UP2 (d, z, luma);
            d += CLB_UP (d, z, 4);
            d += CLB_UP (d, z, 8);
        } else {
            d = separable_scan16 (d, c, z);
        }
        uint16 sum = carry + d;
        carry = separable_lanes_last (sum, c, luma);
        if (cut) {
            int16 k = (int16) (k0) + lane;
            int16 x = select (k >> 2, k / (int16) (sa), is_a);
            int16 r = select ((int16) (rc), (int16) (rx), is_a);
            int16 n = select ((int16) (width / 2), (int16) (width), is_a);
            uint16 area = convert_uint16 (max (CLB_SHRINK_COUNT (int16, x, r,
                                                                 n),
                                               (int16) (1))) * (uint16) (ny);
            q = separable_div16 (sum + (area >> 1), area);
        } else {
            q = separable_mean_by16 (sum, full, inv, exact);
        }
        if (direct)
            CLB_STORE16 (uchar, separable_kept16 (q, kin, k0, keep, keep16),
                         out + k0);
        else
            separable_store_step (q, out, kin, k0, width * c, c, keep,
                                  keep16);
    }
}

/* One output row, into out (kin, keep as above): the apron, the window
 * sums of pixel -1 in each channel's lanes (the carry), then the steps
 * (with SHRINK the fast ones from the first whose window does not cross
 * the row's start). */
CLB_INLINE void
separable_row (__global uint *tmp, size_t row, __global uchar *out,
               __global const uchar *kin, int apron, SEPARABLE_LANES_PARAMS)
{
    int row_len = width * c, used = 16 / c * c;
    int shrink = border == CLB_BORDER_SHRINK;
    int16 lane = CLB_IOTA;
    uint16 carry;

    if (!shrink)
        separable_apron (tmp, row, width, c, luma, border, apron);
    if (luma < 0) {
        /* pixels -1 - rx .. rx - 1, used samples a load (lane j channel
         * j % c), summed by channel */
        int len = (2 * rx + 1) * c;
        size_t from = row - (size_t) ((rx + 1) * c);
        uint16 acc = (uint16) (0);
        for (int i = 0; i < len; i += used)
            acc += select ((uint16) (0), CLB_LOAD16 (uint, tmp + from + i),
                           lane < (int16) (min (len - i, used)));
        carry = separable_lanes_last (separable_scan16 (acc, c, z), c, -1);
    } else {
        /* 4:2:2: luma pixels -1 - rx .. rx - 1, chroma -1 - rc .. rc - 1
         * (past the row's end, the apron: rx, rc are within it) */
        uint sy = 0, su = 0, sv = 0;
        for (int d = -1 - rx; d < rx; d++)
            sy += tmp[row + (size_t) (2 * d + luma)];
        for (int d = -1 - rc; d < rc; d++) {
            su += tmp[row + (size_t) (4 * d + 1 - luma)];
            sv += tmp[row + (size_t) (4 * d + 3 - luma)];
        }
        carry = select (select ((uint16) (sv), (uint16) (su),
                                (lane & 2) == (int16) (0)),
                        (uint16) (sy), is_a);
    }

    int reach = luma < 0 ? rx * c : max (2 * rx, 4 * rc);
    separable_steps (tmp, row, out, kin, carry, shrink ? reach : 0,
                     shrink ? min (row_len - 16, row_len - reach - used)
                     : row_len - 16, SEPARABLE_LANES);
}

/* Band @band of a job (its rows of sums from tmp on): channels a pixel,
 * or with luma >= 0 packed 4:2:2 (SEPARABLE_LANES_PARAMS). */
CLB_INLINE void
separable_fused_band (__global const uchar *src, int src_pitch,
                      __global uchar *dst, int dst_pitch, __global uint *tmp,
                      int width, int height, int channels, int luma, int rx,
                      int rc, int ry, int border, int band_rows,
                      __global const uchar *kin, int kin_pitch, int keep,
                      int band)
{
    int y0 = band * band_rows;
    if (y0 >= height)
        return;
    int y1 = min (height, y0 + band_rows), row_len = width * channels;
    int apron = luma < 0 ? CLB_FUSED_APRON (rx, channels)
        : CLB_422_APRON (rx, rc);
    /* this band's extended row, its sample 0 at element row */
    size_t ext = (size_t) band * (row_len + 2 * apron), row = ext + apron;
    int16 is_a = separable_is_a (luma);
    uchar16 keep16 = separable_keep16 (keep, channels);
    uint16 z = separable_zero16 (width), full = (uint16) (0);
    float16 inv = (float16) (0.0f);
    uint ny_done = 0;
    int exact = 0;

    /* the sums of the window of row y0 (and a SHRINK apron) */
    for (int k = 0; k < row_len + 2 * apron; k++)
        tmp[ext + k] = 0;
    for (int i = y0 - ry; i <= y0 + ry; i++)
        separable_v_step (tmp, row, src, src_pitch,
                          clb_border_index (i, height, border), -1, row_len);
    for (int y = y0; y < y1; y++) {
        /* the divisors, made again where the rows a window change
         * (SHRINK, near the frame's top and bottom) */
        uint ny = clb_border_count (y, ry, height, border);
        if (ny != ny_done) {
            separable_divisor a = separable_divisor_of ((uint) (2 * rx + 1)
                                                        * ny);
            separable_divisor b = luma < 0 ? a
                : separable_divisor_of ((uint) (2 * rc + 1) * ny);
            full = select ((uint16) (b.full), (uint16) (a.full), is_a);
            inv = select ((float16) (b.inv), (float16) (a.inv), is_a);
            exact = a.exact && b.exact;
            ny_done = ny;
        }
        __global uchar *out = dst + (size_t) y * dst_pitch;
        __global const uchar *kr = kin + (size_t) y * kin_pitch;
        /* constant channels and luma, each its own inlined row */
#define CLB_ROW(C, L)                                                       \
        separable_row (tmp, row, out, kr, apron, C, L, width, rx, rc,       \
                       border, ny, full, inv, exact, keep, keep16, is_a, z)
        luma >= 0 ? (luma ? CLB_ROW (2, 1) : CLB_ROW (2, 0))
            : channels == 1 ? CLB_ROW (1, -1) : channels == 2 ? CLB_ROW (2, -1)
            : channels == 3 ? CLB_ROW (3, -1) : CLB_ROW (4, -1);
#undef CLB_ROW
        if (y + 1 < y1)
            separable_v_step (tmp, row, src, src_pitch,
                              clb_border_index (y + ry + 1, height, border),
                              clb_border_index (y - ry, height, border),
                              row_len);
    }
}

/* separable_fused_x16: one job (bands_b 0), or two in one launch (NV12's
 * Y and UV planes, two of I420's): bands bands of the first job, bands_b
 * of the second (its _b arguments), each its rows of sums from element
 * tmp_at (tmp_b) of tmp on (after a copy of the input where the engine
 * filters a frame in place), the work-items taking them alternately
 * while both have bands left (PoCL hands a thread a run of consecutive
 * work-groups: the first job's bands then the second's would load one
 * thread with the larger job). A launch costs about 0.05 ms on PoCL (2
 * cores), a tenth of NV12's 1080p frame. */
__kernel void
separable_fused_x16 (__global uint *tmp, int border,
                     __global const uchar *src, int src_pitch,
                     __global uchar *dst, int dst_pitch, int tmp_at,
                     int width, int height, int channels, int rx, int ry,
                     int band_rows, __global const uchar *kin, int kin_pitch,
                     int keep, int bands, __global const uchar *src_b,
                     int src_pitch_b, __global uchar *dst_b, int dst_pitch_b,
                     int tmp_b, int width_b, int height_b, int channels_b,
                     int rx_b, int ry_b, int band_rows_b,
                     __global const uchar *kin_b, int kin_pitch_b,
                     int keep_b, int bands_b)
{
    int id = get_global_id (0), both = min (bands, bands_b);
    int second = id < 2 * both ? id & 1 : bands_b > bands;
    int band = id < 2 * both ? id >> 1 : id - both;
    if (!second)
        separable_fused_band (src, src_pitch, dst, dst_pitch, tmp + tmp_at,
                              width, height, channels, -1, rx, rx, ry, border,
                              band_rows, kin, kin_pitch, keep, band);
    else
        separable_fused_band (src_b, src_pitch_b, dst_b, dst_pitch_b,
                              tmp + tmp_b, width_b, height_b, channels_b, -1,
                              rx_b, rx_b, ry_b, border, band_rows_b, kin_b,
                              kin_pitch_b, keep_b, band);
}

/* separable_fused_422_x16: both jobs of packed 4:2:2 (YUY2, YVYU: luma
 * in the even bytes, luma = 0; UYVY, VYUY: in the odd ones, luma = 1) in
 * one walk: rows of 2 width bytes; both jobs have the same ry, so one row
 * of vertical sums serves both, and each step takes luma lanes over a
 * window of 2 rx + 1 luma pixels and chroma lanes over one of 2 rc + 1
 * chroma pixels: each byte is computed once. (luma & 1: the compiler
 * knows it is not negative.) */
__kernel void
separable_fused_422_x16 (__global const uchar *src, int src_pitch,
                         __global uchar *dst, int dst_pitch,
                         __global uint *tmp, int width, int height, int luma,
                         int rx, int rc, int ry, int border,
                         int band_rows)
{
    separable_fused_band (src, src_pitch, dst, dst_pitch, tmp, width, height,
                          2, luma & 1, rx, rc, ry, border, band_rows, dst,
                          dst_pitch, 0, get_global_id (0));
}
#endif
