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

/* The slot of intermediate row j (j >= 0) in a ring of @ring rows: the
 * frame's height, or fewer where the engine filters a frame in bands of
 * rows (see sat.cl); a band of output rows y0 .. y1 - 1 reads rows
 * y0 - ry .. y1 + ry - 1 of it. */
size_t
separable_slot (int j, int ring)
{
    return (size_t) (j < ring ? j : j % ring);
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
    int c = get_global_id (0);
    int y = y_first + (int) get_global_id (1);
    if (c >= channels || y >= y_end)
        return;

    size_t row = (size_t) y * pitch;
    int comp = clb_comp (off, c);
    size_t o = (separable_slot (y, ring) * width + x_begin) * channels + c;

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
    int row_len = width * channels;
    int first = get_global_id (0) * strip;
    if (first >= row_len)
        return;
    int n = min (strip, row_len - first);

    wide_t sum[CLB_SEPARABLE_MAX_STRIP];
    wide_t nx[CLB_SEPARABLE_MAX_STRIP];
    size_t o[CLB_SEPARABLE_MAX_STRIP];
    for (int j = 0; j < n; j++) {
        int k = first + j;
        int x = k / channels;
        int c = k - x * channels;
        o[j] = (size_t) x * pstride + clb_comp (off, c);
        nx[j] = clb_border_count (x, rx, width, border);
        sum[j] = 0;
    }

    for (int i = y_begin - ry; i <= y_begin + ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r < 0)
            continue;
        size_t t = separable_slot (r, ring) * row_len + first;
        for (int j = 0; j < n; j++)
            sum[j] += tmp[t + j];
    }
    for (int y = y_begin; y < y_end; y++) {
        wide_t ny = clb_border_count (y, ry, height, border);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        size_t ti = in >= 0 ? separable_slot (in, ring) * row_len + first : 0;
        size_t to = out >= 0 ? separable_slot (out, ring) * row_len + first
            : 0;
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
/* The vertical-first order for dense 8-bit jobs (1 to 4 channels) on
 * CPUs: both passes on 16 samples in vector registers. The vertical sums
 * go to tmp packed, as ushort when narrow (every sum < 2^16), else uint.
 * (Vector integer division is scalarised, so divisions are done in float
 * and corrected to the exact quotient: separable_fix16.) */

/* The vertical sums of the 16 samples from first on (fewer at the row's
 * end: one at a time), sliding down the frame. */
void
separable_vertical_strip (__global const uchar *src, int pitch,
                          __global uint *tmp, int row_len, int height,
                          int ry, int border, int narrow, int first)
{
    __global ushort *tmp16 = (__global ushort *) tmp;

    if (first + 16 > row_len) {
        for (int k = first; k < row_len; k++) {
            uint sum = 0;
            for (int i = -ry; i <= ry; i++) {
                int r = clb_border_index (i, height, border);
                if (r >= 0)
                    sum += src[(size_t) r * pitch + k];
            }
            for (int y = 0; y < height; y++) {
                if (narrow)
                    tmp16[(size_t) y * row_len + k] = (ushort) sum;
                else
                    tmp[(size_t) y * row_len + k] = sum;
                int in = clb_border_index (y + ry + 1, height, border);
                int out = clb_border_index (y - ry, height, border);
                if (in >= 0)
                    sum += src[(size_t) in * pitch + k];
                if (out >= 0)
                    sum -= src[(size_t) out * pitch + k];
            }
        }
        return;
    }

    __global const uchar *col = src + first;
    uint16 sum = (uint16) (0);
    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0)
            sum += convert_uint16 (CLB_LOAD16 (uchar,
                                               col + (size_t) r * pitch));
    }
    for (int y = 0; y < height; y++) {
        if (narrow)
            CLB_STORE16 (ushort, convert_ushort16 (sum),
                         tmp16 + (size_t) y * row_len + first);
        else
            CLB_STORE16 (uint, sum, tmp + (size_t) y * row_len + first);
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        if (in >= 0)
            sum += convert_uint16 (CLB_LOAD16 (uchar,
                                               col + (size_t) in * pitch));
        if (out >= 0)
            sum -= convert_uint16 (CLB_LOAD16 (uchar,
                                               col + (size_t) out * pitch));
    }
}

/* separable_vertical_x16: one work-item per strip of CLB_X16_STRIP (64)
 * adjacent samples (a cache line of the frame, four vectors), sliding down
 * the frame; its loops as CLB_LOOPS_SEPARABLE_VERTICAL_X16 counts them
 * (kernels/loops.h). */
__kernel void
separable_vertical_x16 (__global const uchar *src, int pitch,
                        __global uint *tmp, int width, int height,
                        int channels, int ry, int border, int narrow)
{
    int row_len = width * channels;
    int first = get_global_id (0) * CLB_X16_STRIP;
    if (first >= row_len)
        return;

    if (first + CLB_X16_STRIP > row_len) {
        for (int f = first; f < row_len; f += CLB_LANES)
            separable_vertical_strip (src, pitch, tmp, row_len, height, ry,
                                      border, narrow, f);
        return;
    }

    __global const uchar *col = src + first;
    __global ushort *tmp16 = (__global ushort *) tmp;
    uint16 s0 = (uint16) (0), s1 = s0, s2 = s0, s3 = s0;
    for (int i = -ry; i <= ry; i++) {
        int r = clb_border_index (i, height, border);
        if (r >= 0) {
            __global const uchar *p = col + (size_t) r * pitch;
            s0 += convert_uint16 (CLB_LOAD16 (uchar, p));
            s1 += convert_uint16 (CLB_LOAD16 (uchar, p + 16));
            s2 += convert_uint16 (CLB_LOAD16 (uchar, p + 32));
            s3 += convert_uint16 (CLB_LOAD16 (uchar, p + 48));
        }
    }
    for (int y = 0; y < height; y++) {
        size_t t = (size_t) y * row_len + first;
        if (narrow) {
            CLB_STORE16 (ushort, convert_ushort16 (s0), tmp16 + t);
            CLB_STORE16 (ushort, convert_ushort16 (s1), tmp16 + t + 16);
            CLB_STORE16 (ushort, convert_ushort16 (s2), tmp16 + t + 32);
            CLB_STORE16 (ushort, convert_ushort16 (s3), tmp16 + t + 48);
        } else {
            CLB_STORE16 (uint, s0, tmp + t);
            CLB_STORE16 (uint, s1, tmp + t + 16);
            CLB_STORE16 (uint, s2, tmp + t + 32);
            CLB_STORE16 (uint, s3, tmp + t + 48);
        }
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        if (in >= 0) {
            __global const uchar *p = col + (size_t) in * pitch;
            s0 += convert_uint16 (CLB_LOAD16 (uchar, p));
            s1 += convert_uint16 (CLB_LOAD16 (uchar, p + 16));
            s2 += convert_uint16 (CLB_LOAD16 (uchar, p + 32));
            s3 += convert_uint16 (CLB_LOAD16 (uchar, p + 48));
        }
        if (out >= 0) {
            __global const uchar *p = col + (size_t) out * pitch;
            s0 -= convert_uint16 (CLB_LOAD16 (uchar, p));
            s1 -= convert_uint16 (CLB_LOAD16 (uchar, p + 16));
            s2 -= convert_uint16 (CLB_LOAD16 (uchar, p + 32));
            s3 -= convert_uint16 (CLB_LOAD16 (uchar, p + 48));
        }
    }
}

/* Sample (pixel p, channel c) of a row of vertical sums, p border-mapped;
 * 0 outside with SHRINK. */
uint
separable_tmp_at (__global const uint *tmp, size_t row, int p, int c,
                  int width, int channels, int border, int narrow)
{
    int j = clb_border_index (p, width, border);
    if (j < 0)
        return 0;
    size_t i = row + (size_t) j * channels + c;
    return narrow ? ((__global const ushort *) tmp)[i] : tmp[i];
}

/* The vertical sums of the pixel at element at of tmp, 0 in the lanes
 * of channels it does not have. */
uint4
separable_pixel4 (__global const uint *tmp, size_t at, int channels,
                  int narrow)
{
    __global const ushort *t16 = (__global const ushort *) tmp;
    uint4 v = (uint4) (0);
    for (int c = 0; c < channels; c++) {
        uint x = narrow ? t16[at + c] : tmp[at + c];
        v = c == 0 ? (uint4) (x, v.s123) : c == 1 ? (uint4) (v.s0, x, v.s23)
            : c == 2 ? (uint4) (v.s01, x, v.s3) : (uint4) (v.s012, x);
    }
    return v;
}

/* 16 vertical sums from element i of tmp on: ushort elements when narrow
 * (every sum < 2^16), uint otherwise. */
uint16
separable_load16 (__global const uint *tmp, size_t i, int narrow)
{
    if (narrow)
        return convert_uint16 (CLB_LOAD16 (ushort,
                                           (__global const ushort *) tmp + i));
    return CLB_LOAD16 (uint, tmp + i);
}

/* The lanes' samples at pixels p + lane / channels, border-mapped: one
 * vector load where all 16 containers are inside the row. Of the 16 lanes
 * the first 16 / channels * channels are used (15 for RGB). */
uint16
separable_tmp16 (__global const uint *tmp, size_t row, int p, int width,
                 int channels, int border, int narrow)
{
    int last = p + 16 / channels - 1;
    if (p >= 0 && p * channels + 16 <= width * channels)
        return separable_load16 (tmp, row + (size_t) p * channels, narrow);
    if (border == CLB_BORDER_SHRINK && (last < 0 || p >= width))
        return (uint16) (0);
    uint v[16];
    int used = 16 / channels * channels;
    for (int j = 0; j < 16; j++)
        v[j] = j < used ? separable_tmp_at (tmp, row, p + j / channels,
                                            j % channels, width, channels,
                                            border, narrow) : 0;
    return vload16 (0, v);
}

/* Exact num / area rounded down, for num < 2^32, from q, a float estimate
 * within one of it. */
uint16
separable_fix16 (uint16 q, uint16 num, uint16 area)
{
    int16 rem = as_int16 (num - q * area);
    q = select (q, q - 1, rem < 0);
    return select (q, q + 1, rem >= as_int16 (area));
}

/* Windows of at most this many samples divide by one product
 * (separable_mean_by16). */
#define CLB_DIV_EXACT_MAX 16384

/* The smallest float c >= 1 / d, for 1 <= d < 2^24 (1.0f / d may be a
 * few ulp off either way: each step tests c * d against 1 exactly, the
 * sign of fma (-c, d, 1), and moves c by an ulp, its bits plus or minus
 * one: c is in [2^-24, 1]); with *exact cleared where four steps each
 * way did not reach it. Once a row, not a step. */
float
separable_recip_up (uint d, int *exact)
{
    float df = (float) d;
    float c = 1.0f / df;
    /* written out: no loop for a device's loop cap to count */
#define CLB_RECIP_UP(c) \
    ((c) = fma (-(c), df, 1.0f) > 0.0f ? as_float (as_uint (c) + 1u) : (c))
#define CLB_RECIP_DOWN(c) \
    ((c) = fma (-as_float (as_uint (c) - 1u), df, 1.0f) <= 0.0f \
     ? as_float (as_uint (c) - 1u) : (c))
    CLB_RECIP_UP (c);
    CLB_RECIP_UP (c);
    CLB_RECIP_UP (c);
    CLB_RECIP_UP (c);
    CLB_RECIP_DOWN (c);
    CLB_RECIP_DOWN (c);
    CLB_RECIP_DOWN (c);
    CLB_RECIP_DOWN (c);
#undef CLB_RECIP_UP
#undef CLB_RECIP_DOWN
    *exact = *exact && fma (-c, df, 1.0f) <= 0.0f
        && fma (-as_float (as_uint (c) - 1u), df, 1.0f) > 0.0f;
    return c;
}

/* The divisor of a window's rounded mean, @full samples, with what
 * separable_mean16 needs: the reciprocal rounded up, and whether
 * the product alone is exact (full <= CLB_DIV_EXACT_MAX). */
typedef struct {
    uint full;
    float inv;
    int exact;
} separable_divisor;

separable_divisor
separable_divisor_of (uint full)
{
    separable_divisor d;
    d.full = full;
    d.exact = full <= CLB_DIV_EXACT_MAX;
    d.inv = separable_recip_up (full, &d.exact);
    return d;
}

/* The rounded means (sum + full / 2) / full, for sum <= 255 full (a
 * window's sum of 8-bit samples), each lane by its own divisor full and
 * inv, its reciprocal rounded up (separable_recip_up); exact: every
 * lane's full <= CLB_DIV_EXACT_MAX. With num = sum + full / 2: where
 * exact, the product num * inv truncated, nothing else. c = inv is the
 * smallest float >= 1 / full, so num c >= num / full >= q =
 * floor (num / full), and rounding is monotonic, q a float: the product
 * is >= q. And c < (1 + 2^-23) / full, so num c < num / full + 255.5 2^-23
 * <= q + 1 - 1 / full + 3.1e-5 <= q + 1 - 3.0e-5 for full <= 2^14;
 * rounded, it moves by at most half an ulp of a value below 256
 * (7.7e-6): still below q + 1. num < 2^22 converts exactly, the product
 * is correctly rounded (OpenCL C 1.2, 7.4), the conversion truncates.
 * Else the float estimate corrected (separable_fix16). */
CLB_INLINE uint16
separable_mean_by16 (uint16 sum, uint16 full, float16 inv, int exact)
{
    uint16 num = sum + (full >> 1);
    uint16 q = convert_uint16 (convert_float16 (num) * inv);
    if (exact)
        return q;
    return separable_fix16 (q, num, full);
}

/* The same with one divisor for every lane. */
CLB_INLINE uint16
separable_mean16 (uint16 sum, separable_divisor d)
{
    return separable_mean_by16 (sum, (uint16) (d.full), (float16) (d.inv),
                                d.exact);
}

uint16
separable_div16 (uint16 num, uint16 area)
{
    return separable_fix16 (convert_uint16 (convert_float16 (num)
                                            / convert_float16 (area)),
                            num, area);
}

/* Lane shifts and broadcasts on uint16 with constant lane lists (one
 * permute instruction each on CPUs with wide vectors). The shifts fill
 * with the lanes of z, a vector of zeros the compiler cannot see is zero
 * (separable_zero16): with a constant zero, LLVM (PoCL 3.1, AVX-512)
 * makes each shift a masked expand and loads its mask into a mask
 * register at every step, two instructions on the one port that
 * shuffles instead of one; a 1-channel step then spends twelve
 * instructions there, not nine. */
#define CLB_SHUF(v, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, \
                 m13, m14, m15)                                              \
    CLB_SHUFFLE16 (uint16, (v), (uint16) (0), m0, m1, m2, m3, m4, m5, m6, m7, \
                   m8, m9, m10, m11, m12, m13, m14, m15)
#define CLB_ZSHUF(v, z, m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, \
                  m12, m13, m14, m15)                                      \
    CLB_SHUFFLE16 (uint16, (v), (z), m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, \
                   m10, m11, m12, m13, m14, m15)
#define CLB_UP1(v, z) CLB_ZSHUF (v, z, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
#define CLB_UP2(v, z) CLB_ZSHUF (v, z, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#define CLB_UP3(v, z) CLB_ZSHUF (v, z, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#define CLB_UP4(v, z) CLB_ZSHUF (v, z, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#define CLB_UP6(v, z) CLB_ZSHUF (v, z, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
#define CLB_UP8(v, z) CLB_ZSHUF (v, z, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7)
#define CLB_UP12(v, z) CLB_ZSHUF (v, z, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3)

/* Zeros from n >= 0 (a size or count the kernel was given or counts):
 * its sign bit. */
CLB_INLINE uint16
separable_zero16 (int n)
{
    return (uint16) ((uint) n >> 31);
}
#define CLB_LAST1(v) CLB_SHUF (v, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15)
#define CLB_LAST2(v) CLB_SHUF (v, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15)
#define CLB_LAST3(v) CLB_SHUF (v, 12, 13, 14, 12, 13, 14, 12, 13, 14, 12, 13, 14, 12, 13, 14, 12)
#define CLB_LAST4(v) CLB_SHUF (v, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15)

/* Inclusive prefix sums over the lanes of each channel (lanes j, j - c,
 * j - 2c, ...), z zeros (separable_zero16). */
CLB_INLINE uint16
separable_scan16 (uint16 d, int channels, uint16 z)
{
    switch (channels) {
    case 1:
        d += CLB_UP1 (d, z);
        d += CLB_UP2 (d, z);
        d += CLB_UP4 (d, z);
        return d + CLB_UP8 (d, z);
    case 2:
        d += CLB_UP2 (d, z);
        d += CLB_UP4 (d, z);
        return d + CLB_UP8 (d, z);
    case 3:
        d += CLB_UP3 (d, z);
        d += CLB_UP6 (d, z);
        return d + CLB_UP12 (d, z);
    default:
        d += CLB_UP4 (d, z);
        return d + CLB_UP8 (d, z);
    }
}

/* The last pixel's sums in every pixel's lanes. */
uint16
separable_last16 (uint16 v, int channels)
{
    switch (channels) {
    case 1:
        return CLB_LAST1 (v);
    case 2:
        return CLB_LAST2 (v);
    case 3:
        return CLB_LAST3 (v);
    default:
        return CLB_LAST4 (v);
    }
}

/* The 16 results of a step, with the kept lanes (keep16) from the
 * input row kin, where any channel is kept. */
uchar16
separable_kept16 (uint16 q, __global const uchar *kin, int k0, int keep,
                  uchar16 keep16)
{
    uchar16 o = convert_uchar16_sat (q);
    if (keep != 0)
        o = bitselect (o, CLB_LOAD16 (uchar, kin + k0), keep16);
    return o;
}

/* The lanes of a 16-sample step (pixels of channels samples from lane 0)
 * that the store takes from the input row: those of the channels in
 * keep (a bit a channel) and, with any, the lanes past the last whole
 * pixel (RGB's 16th), which the store then writes back as they are. */
uchar16
separable_keep16 (int keep, int channels)
{
    int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15);
    int16 lp = lane / (int16) (channels);
    int used = 16 / channels * channels;
    int16 kept = (((int16) (keep) >> (lane - lp * (int16) (channels))) & 1)
        != 0 || lane >= (int16) (used);
    return as_uchar16 (convert_char16 (kept));
}

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

/* The steps of a row whose windows lie inside it, from sample k0 on:
 * nothing but two loads, the scan, the division by the full area and one
 * store each. Inlined with constant channels and narrow. Returns the
 * carry. */
CLB_INLINE uint16
separable_h_inner (__global const uint *tmp, size_t row, __global uchar *out,
                   int k0, int steps, uint16 carry, int channels, int rx,
                   separable_divisor dv, int narrow,
                   __global const uchar *kin, int keep, uchar16 keep16)
{
    int used = 16 / channels * channels;
    size_t enter = row + k0 + rx * channels, leave = enter
        - (2 * rx + 1) * channels;
    uint16 z = separable_zero16 (steps);
    for (int i = 0; i < steps; i++) {
        uint16 d = separable_load16 (tmp, enter, narrow)
            - separable_load16 (tmp, leave, narrow);
        uint16 sum = carry + separable_scan16 (d, channels, z);
        carry = separable_last16 (sum, channels);
        uint16 q = separable_mean16 (sum, dv);
        CLB_STORE16 (uchar, separable_kept16 (q, kin, k0, keep, keep16),
                     out + k0);
        k0 += used;
        enter += used;
        leave += used;
    }
    return carry;
}

/* separable_horizontal_x16: one work-item per row, 16 / channels pixels
 * (16 samples; 15 for RGB, whose 16th lane is not used) per step. The
 * window sum of pixel x is that of x - 1 plus V(x + r) - V(x - r - 1):
 * the differences of a step are one vector load each side, summed across
 * the step's pixels by a lane scan, plus the previous step's last pixel.
 * Divides by the area and writes the 8-bit result; the channels in keep
 * get the input's samples (src, rows src_pitch apart; it may be dst:
 * each sample is read before it is written). */
/* One row of the horizontal pass: the vertical sums of the row's
 * samples from element row of tmp on (ny rows a window), out the row's
 * output, kin the row the kept lanes (keep: a bit per lane of a pixel)
 * are read from. */
void
separable_h_row (__global const uint *tmp, size_t row, __global uchar *out,
                 __global const uchar *kin, int width, int channels, int rx,
                 uint ny, int border, int narrow, int keep)
{
    int row_len = width * channels;
    int step = 16 / channels;
    int used = step * channels;
    int16 lp = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                        15) / (int16) (channels);
    uchar16 keep16 = separable_keep16 (keep, channels);

    /* the window sums of pixel -1, in every pixel's lanes: pixels
     * -1 - rx .. rx - 1 as the border shows them; where pixels 0 .. rx + 1
     * are inside the row, pixels 0 .. rx - 1 (p(rx - 1), p the prefix
     * sums of the row's pixels), less U(-rx - 2) of the extended row */
    uint4 acc = (uint4) (0);
    int direct = rx + 1 < width;
    for (int d = direct ? 0 : -1 - rx; d <= rx - 1; d++) {
        int px = direct ? d : clb_border_index (d, width, border);
        if (px >= 0)
            acc += separable_pixel4 (tmp, row + (size_t) px * channels,
                                     channels, narrow);
    }
    if (direct && border != CLB_BORDER_SHRINK)
        acc -= CLB_BORDER_PREFIX_BEFORE (
            border, -rx - 2, separable_pixel4 (tmp, row, channels, narrow),
            acc + separable_pixel4 (tmp, row + (size_t) rx * channels,
                                    channels, narrow)
                + separable_pixel4 (tmp, row + (size_t) (rx + 1) * channels,
                                    channels, narrow));
    uint c0 = acc.s0, c1 = acc.s1, c2 = acc.s2, c3 = acc.s3;
    uint16 carry = channels == 1 ? (uint16) (c0)
        : channels == 2 ? (uint16) ((uint2) (c0, c1), (uint2) (c0, c1),
                                    (uint2) (c0, c1), (uint2) (c0, c1),
                                    (uint2) (c0, c1), (uint2) (c0, c1),
                                    (uint2) (c0, c1), (uint2) (c0, c1))
        : channels == 3 ? (uint16) ((uint3) (c0, c1, c2),
                                    (uint3) (c0, c1, c2),
                                    (uint3) (c0, c1, c2),
                                    (uint3) (c0, c1, c2),
                                    (uint3) (c0, c1, c2), c0)
        : (uint16) ((uint4) (c0, c1, c2, c3), (uint4) (c0, c1, c2, c3),
                    (uint4) (c0, c1, c2, c3), (uint4) (c0, c1, c2, c3));

    /* the area of a window that does not cross the row's ends */
    uint full = (uint) (2 * rx + 1) * ny;
    separable_divisor dv = separable_divisor_of (full);

    int k0 = 0, x0 = 0;
    for (; k0 + used <= row_len; k0 += used, x0 += step) {
        if (x0 - rx - 1 >= 0 && (x0 + rx) * channels + 16 <= row_len) {
            /* The windows of this step and of the next ones up to the
             * last whose loads stay inside the row (the stores then do
             * too; so, with SHRINK, do the windows): the fast loop. */
            int steps = ((row_len - 16) / channels - rx - x0) / step + 1;
#define CLB_H_INNER(C) (narrow \
    ? separable_h_inner (tmp, row, out, k0, steps, carry, C, rx, dv, 1, \
                         kin, keep, keep16) \
    : separable_h_inner (tmp, row, out, k0, steps, carry, C, rx, dv, 0, \
                         kin, keep, keep16))
            carry = channels == 1 ? CLB_H_INNER (1) : channels == 2
                ? CLB_H_INNER (2) : channels == 3 ? CLB_H_INNER (3)
                : CLB_H_INNER (4);
#undef CLB_H_INNER
            k0 += (steps - 1) * used;
            x0 += (steps - 1) * step;
            continue;
        }
        int16 x = (int16) (x0) + lp;
        /* a step the fast loop does not take: loads border-mapped where
         * they leave the row */
        uint16 d = separable_tmp16 (tmp, row, x0 + rx, width, channels,
                                    border, narrow)
            - separable_tmp16 (tmp, row, x0 - rx - 1, width, channels, border,
                               narrow);
        uint16 sum = carry + separable_scan16 (d, channels,
                                               separable_zero16 (width));
        carry = separable_last16 (sum, channels);

        uint16 q;
        if (border != CLB_BORDER_SHRINK
            || (x0 - rx >= 0 && x0 + step - 1 + rx < width)) {
            q = separable_mean16 (sum, dv);
        } else {
            uint16 nx = convert_uint16 (CLB_SHRINK_COUNT (int16, x, rx,
                                                          width));
            uint16 area = nx * (uint16) (ny);
            q = separable_div16 (sum + (area >> 1), area);
        }
        separable_store_step (q, out, kin, k0, row_len, channels, keep,
                              keep16);
    }
    /* the samples after the last whole strip, one at a time */
    for (int k = k0; k < row_len; k++) {
        int x = k / channels, c = k - (k / channels) * channels;
        if ((keep >> c) & 1) {
            out[k] = kin[k];
            continue;
        }
        uint s = 0;
        for (int d = -rx; d <= rx; d++)
            s += separable_tmp_at (tmp, row, x + d, c, width, channels,
                                   border, narrow);
        uint area = clb_border_count (x, rx, width, border) * ny;
        out[k] = (uchar) ((s + area / 2) / area);
    }
}

__kernel void
separable_horizontal_x16 (__global const uint *tmp, __global uchar *dst,
                          int pitch, int width, int height, int channels,
                          int rx, int ry, int border, int narrow,
                          __global const uchar *src, int src_pitch, int keep)
{
    int y = get_global_id (0);
    if (y >= height)
        return;
    separable_h_row (tmp, (size_t) y * width * channels,
                     dst + (size_t) y * pitch, src + (size_t) y * src_pitch,
                     width, channels, rx,
                     clb_border_count (y, ry, height, border), border, narrow,
                     keep);
}


/* separable_fused_x16: both passes in one, for 8-bit jobs whose pixels
 * are 1 to 4 bytes (dense, or one of the jobs of packed YUV: a Y job of
 * 2 bytes a pixel, a UV job of 4). One work-item per band of band_rows
 * output rows, the whole row wide, walking down it: a row of vertical
 * window sums (all the row's bytes; in tmp, its own, kept in cache) is
 * moved down a row by adding the row entering the window and subtracting
 * the one leaving it, and each output row is the horizontal pass over
 * it (separable_ext_row). The sums are uint whatever the window's
 * height: the row stays in the core's cache, and ushort sums (the
 * two-kernel run's narrow rows) would cost a widening load, a shuffle,
 * at each step. The frame is read about once and written once;
 * the input must not be the output (rows are read after others are
 * written). The lanes of a pixel in keep are read from kin (the input
 * for kept channels; the output itself for the bytes of another job). */

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

/* separable_fused_x16's row of vertical sums has an apron of
 * CLB_FUSED_APRON (rx, channels) elements each side, so that every load
 * of a step stays inside the extended row and no step maps its loads
 * through the border: 0 with SHRINK (set once a band), else the sums
 * the border shows there, set after each move of the row. */
CLB_INLINE void
separable_fused_apron (__global uint *tmp, size_t row, int width,
                       int channels, int apron, int border)
{
    int row_len = width * channels;
    for (int i = 0; i < 2 * apron; i++) {
        /* element b of the row (b < 0: row >= apron), pixel p, channel c */
        int b = i < apron ? i - apron : row_len + i - apron;
        int p = b >= 0 ? b / channels : -((channels - 1 - b) / channels);
        int c = b - p * channels;
        size_t from = row + (size_t) (clb_border_index (p, width, border)
                                      * channels + c);
        size_t to = row + b;
        tmp[to] = tmp[from];
    }
}

/* One step of separable_ext_row at sample k0 (pixel x0 = k0 / channels):
 * two loads, the scan, the division (by the full area, or with cut, by
 * each lane's: SHRINK near the row's ends) and the store, lane by lane
 * where the step's 16 bytes pass the row's end. Returns the carry. */
CLB_INLINE uint16
separable_ext_step (__global const uint *tmp, size_t row, __global uchar *out,
                    __global const uchar *kin, int k0, uint16 carry,
                    int width, int channels, int rx, uint ny,
                    separable_divisor dv, int keep,
                    uchar16 keep16, int cut)
{
    int row_len = width * channels;
    size_t enter = row + k0 + rx * channels;
    uint16 d = CLB_LOAD16 (uint, tmp + enter)
        - CLB_LOAD16 (uint, tmp + enter - (2 * rx + 1) * channels);
    uint16 sum = carry + separable_scan16 (d, channels,
                                           separable_zero16 (k0));
    uint16 q;
    if (cut) {
        int16 x = (int16) (k0 / channels)
            + (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            / (int16) (channels);
        /* lanes past the row's end: at least 1, not stored */
        uint16 area = convert_uint16 (max (CLB_SHRINK_COUNT (int16, x, rx,
                                                             width),
                                           (int16) (1))) * (uint16) (ny);
        q = separable_div16 (sum + (area >> 1), area);
    } else {
        q = separable_mean16 (sum, dv);
    }
    separable_store_step (q, out, kin, k0, row_len, channels, keep, keep16);
    return separable_last16 (sum, channels);
}

/* One row of separable_fused_x16's horizontal pass over the extended row
 * of vertical sums whose sample 0 is element row of tmp (ny rows a
 * window), into out; kin, keep as separable_h_row; dv the divisor of a
 * window that does not cross the row's ends. separable_h_row without
 * border mapping: the first window (pixels -1 - rx .. rx - 1) a few
 * vector loads, every step two loads. Inlined with constant
 * channels. */
CLB_INLINE void
separable_ext_row (__global const uint *tmp, size_t row, __global uchar *out,
                   __global const uchar *kin, int width, int channels, int rx,
                   uint ny, int border, int keep,
                   separable_divisor dv)
{
    int row_len = width * channels;
    int step = 16 / channels;
    int used = step * channels;
    int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15);
    uchar16 keep16 = separable_keep16 (keep, channels);

    /* the window sums of pixel -1, in every pixel's lanes: its (2 rx + 1)
     * channels samples, used a load (lane j channel j % channels), summed
     * by channel */
    int len = (2 * rx + 1) * channels;
    size_t from = row - (size_t) ((rx + 1) * channels);
    uint16 acc = (uint16) (0);
    for (int i = 0; i < len; i += used)
        acc += select ((uint16) (0), CLB_LOAD16 (uint, tmp + from + i),
                       lane < (int16) (min (len - i, used)));
    uint16 carry = separable_last16 (separable_scan16
                                     (acc, channels,
                                      separable_zero16 (width)), channels);

    /* SHRINK: the steps whose windows cross the row's start, then those
     * up to the last whose windows end inside it and whose store stays
     * in the row (the fast loop), then the rest */
    int k0 = 0;
    if (border == CLB_BORDER_SHRINK) {
        for (; k0 < row_len && k0 / channels < rx; k0 += used)
            carry = separable_ext_step (tmp, row, out, kin, k0, carry, width,
                                        channels, rx, ny, dv, keep,
                                        keep16, 1);
    }
    int end = row_len - 16;
    if (border == CLB_BORDER_SHRINK)
        end = min (end, (width - rx - step) * channels);
    if (k0 <= end) {
        int steps = (end - k0) / used + 1;
        carry = separable_h_inner (tmp, row, out, k0, steps, carry, channels,
                                   rx, dv, 0, kin, keep, keep16);
        k0 += steps * used;
    }
    for (; k0 < row_len; k0 += used)
        carry = separable_ext_step (tmp, row, out, kin, k0, carry, width,
                                    channels, rx, ny, dv, keep,
                                    keep16, border == CLB_BORDER_SHRINK);
}

/* A row of separable_fused_x16: the apron (with a border that shows
 * pixels there), then the horizontal pass, with constant channels. */
CLB_INLINE void
separable_fused_row (__global uint *tmp, size_t row, __global uchar *out,
                     __global const uchar *kin, int width, int channels,
                     int rx, uint ny, int border, int keep,
                     separable_divisor dv, int apron)
{
    if (border != CLB_BORDER_SHRINK)
        separable_fused_apron (tmp, row, width, channels, apron, border);
    separable_ext_row (tmp, row, out, kin, width, channels, rx, ny, border,
                       keep, dv);
}

/* Band @band of a job of separable_fused_x16 (its rows of sums from
 * tmp on). */
CLB_INLINE void
separable_fused_band (__global const uchar *src, int src_pitch,
                      __global uchar *dst, int dst_pitch, __global uint *tmp,
                      int width, int height, int channels, int rx, int ry,
                      int border, int band_rows, __global const uchar *kin,
                      int kin_pitch, int keep, int band)
{
    int y0 = band * band_rows;
    if (y0 >= height)
        return;
    int y1 = min (height, y0 + band_rows);
    int row_len = width * channels;
    int apron = CLB_FUSED_APRON (rx, channels);
    /* this band's extended row, its sample 0 at element row */
    size_t ext = (size_t) band * (row_len + 2 * apron);
    size_t row = ext + apron;

    /* the sums of the window of row y0 (and a SHRINK apron) */
    for (int k = 0; k < row_len + 2 * apron; k++)
        tmp[ext + k] = 0;
    for (int i = y0 - ry; i <= y0 + ry; i++)
        separable_v_step (tmp, row, src, src_pitch,
                          clb_border_index (i, height, border), -1, row_len);
    /* the divisor of a full window, made again where the rows a window
     * (SHRINK, near the frame's top and bottom) change */
    uint dv_ny = (uint) (2 * ry + 1);
    separable_divisor dv = separable_divisor_of ((uint) (2 * rx + 1) * dv_ny);
    for (int y = y0; y < y1; y++) {
        uint ny = clb_border_count (y, ry, height, border);
        if (ny != dv_ny) {
            dv = separable_divisor_of ((uint) (2 * rx + 1) * ny);
            dv_ny = ny;
        }
        __global uchar *out = dst + (size_t) y * dst_pitch;
        __global const uchar *kr = kin + (size_t) y * kin_pitch;
#define CLB_FUSED_ROW(C) \
        separable_fused_row (tmp, row, out, kr, width, C, rx, ny, border, keep, \
                             dv, apron)
        if (channels == 1)
            CLB_FUSED_ROW (1);
        else if (channels == 2)
            CLB_FUSED_ROW (2);
        else if (channels == 3)
            CLB_FUSED_ROW (3);
        else
            CLB_FUSED_ROW (4);
#undef CLB_FUSED_ROW
        if (y + 1 < y1)
            separable_v_step (tmp, row, src, src_pitch,
                              clb_border_index (y + ry + 1, height, border),
                              clb_border_index (y - ry, height, border),
                              row_len);
    }
}

__kernel void
separable_fused_x16 (__global const uchar *src, int src_pitch,
                     __global uchar *dst, int dst_pitch, __global uint *tmp,
                     int width, int height, int channels, int rx, int ry,
                     int border, int band_rows,
                     __global const uchar *kin, int kin_pitch, int keep)
{
    separable_fused_band (src, src_pitch, dst, dst_pitch, tmp, width, height,
                          channels, rx, ry, border, band_rows, kin,
                          kin_pitch, keep, get_global_id (0));
}

/* separable_fused_pair_x16: two jobs of separable_fused_x16 in one
 * launch (NV12's Y and UV planes, two of I420's): bands bands of the
 * first job, bands_b of the second (its _b arguments; its rows of sums
 * from element tmp_b of tmp on), the work-items taking them alternately
 * while both have bands left (PoCL hands a thread a run of consecutive
 * work-groups: the first job's bands then the second's would load one
 * thread with the larger job). A launch costs about 0.05 ms on PoCL (2
 * cores), a tenth of NV12's 1080p frame. */
__kernel void
separable_fused_pair_x16 (__global const uchar *src, int src_pitch,
                          __global uchar *dst, int dst_pitch,
                          __global uint *tmp, int width, int height,
                          int channels, int rx, int ry, int border,
                          int band_rows, __global const uchar *kin,
                          int kin_pitch, int keep, int bands,
                          __global const uchar *src_b, int src_pitch_b,
                          __global uchar *dst_b, int dst_pitch_b, int tmp_b,
                          int width_b, int height_b, int channels_b,
                          int rx_b, int ry_b, int band_rows_b,
                          __global const uchar *kin_b, int kin_pitch_b,
                          int keep_b, int bands_b)
{
    int id = get_global_id (0), both = min (bands, bands_b);
    int second = id < 2 * both ? id & 1 : bands_b > bands;
    int band = id < 2 * both ? id >> 1 : id - both;
    if (!second)
        separable_fused_band (src, src_pitch, dst, dst_pitch, tmp, width,
                              height, channels, rx, ry, border, band_rows,
                              kin, kin_pitch, keep, band);
    else
        separable_fused_band (src_b, src_pitch_b, dst_b, dst_pitch_b,
                              tmp + tmp_b, width_b, height_b, channels_b,
                              rx_b, ry_b, border, band_rows_b, kin_b,
                              kin_pitch_b, keep_b, band);
}
/* separable_fused_422_x16: separable_fused_x16 for both jobs of packed
 * 4:2:2 (YUY2, YVYU: luma in the even bytes, luma = 0; UYVY, VYUY: in
 * the odd ones, luma = 1) in one walk: the rows are 2 width bytes, a
 * luma pixel 2 bytes, a chroma pixel (its U, V) 4; both jobs have the
 * same ry, so one row of vertical sums serves both, and each 16-byte
 * step of the horizontal pass takes luma lanes over a window of
 * 2 rx + 1 luma pixels and chroma lanes over one of 2 rc + 1 chroma
 * pixels: each byte is computed once (separable_fused_x16 computes
 * every byte of the row for each job). */

/* Lane masks and shuffles of a step, by the luma bytes' parity: the
 * luma lanes; the stride-2 lane shift of the luma lanes (the chroma
 * lanes get 0); each lane's last same-channel lane of the step. */
#define CLB_422_LUMA(l) ((l) ? (int16) (0, -1, 0, -1, 0, -1, 0, -1, 0, -1, \
                                        0, -1, 0, -1, 0, -1)                \
                         : (int16) (-1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1,  \
                                    0, -1, 0, -1, 0))
#define CLB_422_UP2(v, z, l) ((l) \
    ? CLB_ZSHUF (v, z, 16, 16, 16, 1, 16, 3, 16, 5, 16, 7, 16, 9, 16, 11, 16, \
                 13) \
    : CLB_ZSHUF (v, z, 16, 16, 0, 16, 2, 16, 4, 16, 6, 16, 8, 16, 10, 16, 12, \
                 16))
#define CLB_422_LAST(v, l) ((l) \
    ? CLB_SHUF (v, 12, 15, 14, 15, 12, 15, 14, 15, 12, 15, 14, 15, 12, 15, 14, 15) \
    : CLB_SHUF (v, 14, 13, 14, 15, 14, 13, 14, 15, 14, 13, 14, 15, 14, 13, 14, 15))

/* Prefix sums over each channel's lanes: the luma lanes 2 apart, the
 * chroma lanes 4 apart; z zeros (separable_zero16). */
CLB_INLINE uint16
separable_422_scan (uint16 d, int luma, uint16 z)
{
    d += CLB_422_UP2 (d, z, luma);
    d += CLB_UP4 (d, z);
    return d + CLB_UP8 (d, z);
}

/* The row of vertical sums (2 width bytes from element row of tmp on)
 * has an apron of CLB_422_APRON (rx, rc) elements each side, so that
 * every load of a step stays inside the extended row: 0 with SHRINK (set
 * once), else the sums the border shows there, set after each move of
 * the row (byte b of it: a luma byte where b & 1 is luma, pixel b >> 1,
 * else a chroma byte, pixel b >> 2, both arithmetic shifts). */
void
separable_422_apron (__global uint *tmp, size_t row, int width, int luma,
                     int apron, int border)
{
    int row_len = 2 * width;
    for (int i = 0; i < 2 * apron; i++) {
        int b = i < apron ? i - apron : row_len + i - apron;
        int s = (b & 1) == luma ? 2 : 4;
        int m = clb_border_index (s == 2 ? b >> 1 : b >> 2, row_len / s,
                                  border);
        size_t from = row + (size_t) (m * s + (b & (s - 1)));
        size_t to = row + b;   /* b < 0: row >= apron */
        tmp[to] = tmp[from];
    }
}

/* The window sum of pixel -1 of the channel at byte o of pixels of s
 * bytes, radius r: pixels -1 - r .. r - 1, from the extended row (the
 * apron holds what the border shows; r is within it). Pixels past the
 * row's other end, where r reaches past it, come from border mapping. */
uint
separable_422_start (__global const uint *tmp, size_t row, int o, int s,
                     int n, int r, int border)
{
    uint acc = 0;
    for (int d = -1 - r; d <= r - 1; d++) {
        int m = d < n ? d : clb_border_index (d, n, border);
        if (m >= 0 || d < 0) {
            size_t i = row + (m * s + o);
            acc += tmp[i];
        }
    }
    return acc;
}

/* One step of the horizontal pass at byte k0 of a row: four loads, the
 * scan, the division (by the full areas, or with SHRINK near the ends
 * by each lane's); the store where all 16 bytes are the row's. Inlined
 * with constant luma. */
CLB_INLINE uint16
separable_422_step (__global const uint *tmp, size_t row,
                    __global uchar *out, int k0, uint16 carry, int rx,
                    int rc, uint16 full, float16 inv_full, int exact,
                    int luma, int cut, int width, uint ny)
{
    int16 is_luma = CLB_422_LUMA (luma);
    size_t at = row + k0;
    uint16 dy = CLB_LOAD16 (uint, tmp + at + 2 * rx)
        - CLB_LOAD16 (uint, tmp + at - 2 * rx - 2);
    uint16 dc = CLB_LOAD16 (uint, tmp + at + 4 * rc)
        - CLB_LOAD16 (uint, tmp + at - 4 * rc - 4);
    uint16 sum = carry + separable_422_scan (select (dc, dy, is_luma), luma,
                                                separable_zero16 (k0));
    uint16 q, area = full;
    if (cut) {
        /* SHRINK, windows cut by the row's ends (lanes past the end: at
         * least 1, not stored) */
        int16 k = (int16) (k0) + (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                          11, 12, 13, 14, 15);
        int16 x = select (k >> 2, k >> 1, is_luma);
        int16 r = select ((int16) (rc), (int16) (rx), is_luma);
        int16 n = select ((int16) (width / 2), (int16) (width), is_luma);
        area = convert_uint16 (max (CLB_SHRINK_COUNT (int16, x, r, n),
                                    (int16) (1))) * (uint16) (ny);
        q = separable_div16 (sum + (area >> 1), area);
    } else {
        q = separable_mean_by16 (sum, full, inv_full, exact);
    }
    if (k0 + 16 <= 2 * width) {
        CLB_STORE16 (uchar, convert_uchar16_sat (q), out + k0);
    } else {
        uchar qs[16];
        vstore16 (convert_uchar16_sat (q), 0, qs);
        for (int j = 0; j < 2 * width - k0; j++)
            out[k0 + j] = qs[j];
    }
    return CLB_422_LAST (sum, luma);
}

/* One row of the horizontal pass over the extended row of vertical sums
 * whose byte 0 is element row of tmp (ny rows a window), into out. */
CLB_INLINE void
separable_422_row (__global const uint *tmp, size_t row, __global uchar *out,
                   int width, int rx, int rc, uint ny, int border,
                   int luma)
{
    int row_len = 2 * width;
    int16 is_luma = CLB_422_LUMA (luma);
    int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15);
    /* the window sums of pixel -1, in each channel's lanes */
    uint sy = separable_422_start (tmp, row, luma, 2, width, rx, border);
    uint su = separable_422_start (tmp, row, 1 - luma, 4, width / 2, rc,
                                   border);
    uint sv = separable_422_start (tmp, row, 3 - luma, 4, width / 2, rc,
                                   border);
    uint16 carry = select (select ((uint16) (sv), (uint16) (su),
                                   (lane & 2) == (int16) (0)),
                           (uint16) (sy), is_luma);
    separable_divisor dy = separable_divisor_of ((uint) (2 * rx + 1) * ny);
    separable_divisor dc = separable_divisor_of ((uint) (2 * rc + 1) * ny);
    uint16 full = select ((uint16) (dc.full), (uint16) (dy.full), is_luma);
    float16 inv_full = select ((float16) (dc.inv), (float16) (dy.inv),
                               is_luma);
    int exact = dy.exact && dc.exact;
    /* with SHRINK, the steps from k0 = reach on whose windows end before
     * the row's do not cross its ends */
    int reach = max (2 * rx, 4 * rc);
    int k0 = 0;

    if (border == CLB_BORDER_SHRINK) {
        for (; k0 < row_len && k0 < reach; k0 += 16)
            carry = separable_422_step (tmp, row, out, k0, carry, rx, rc,
                                        full, inv_full, exact, luma,
                                        1, width, ny);
    }
    int end = border == CLB_BORDER_SHRINK ? row_len - reach - 16
        : row_len - 16;
    for (; k0 <= end; k0 += 16)
        carry = separable_422_step (tmp, row, out, k0, carry, rx, rc, full,
                                    inv_full, exact, luma, 0, width,
                                    ny);
    for (; k0 < row_len; k0 += 16)
        carry = separable_422_step (tmp, row, out, k0, carry, rx, rc, full,
                                    inv_full, exact, luma,
                                    border == CLB_BORDER_SHRINK, width, ny);
}

__kernel void
separable_fused_422_x16 (__global const uchar *src, int src_pitch,
                         __global uchar *dst, int dst_pitch,
                         __global uint *tmp, int width, int height, int luma,
                         int rx, int rc, int ry, int border,
                         int band_rows)
{
    int band = get_global_id (0);
    int y0 = band * band_rows;
    if (y0 >= height)
        return;
    int y1 = min (height, y0 + band_rows);
    int row_len = 2 * width, apron = CLB_422_APRON (rx, rc);
    /* this band's extended row, its byte 0 at element row */
    size_t ext = (size_t) band * (row_len + 2 * apron);
    size_t row = ext + apron;

    /* the sums of the window of row y0 (and a SHRINK apron) */
    for (int k = 0; k < row_len + 2 * apron; k++)
        tmp[ext + k] = 0;
    for (int i = y0 - ry; i <= y0 + ry; i++)
        separable_v_step (tmp, row, src, src_pitch,
                          clb_border_index (i, height, border), -1, row_len);
    for (int y = y0; y < y1; y++) {
        uint ny = clb_border_count (y, ry, height, border);
        __global uchar *out = dst + (size_t) y * dst_pitch;
        if (border != CLB_BORDER_SHRINK)
            separable_422_apron (tmp, row, width, luma, apron, border);
        if (luma)
            separable_422_row (tmp, row, out, width, rx, rc, ny, border, 1);
        else
            separable_422_row (tmp, row, out, width, rx, rc, ny, border, 0);
        if (y + 1 < y1)
            separable_v_step (tmp, row, src, src_pitch,
                              clb_border_index (y + ry + 1, height, border),
                              clb_border_index (y - ry, height, border),
                              row_len);
    }
}
#endif
