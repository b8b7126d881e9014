/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The CPU walks' lanes (8-bit samples, 16 to a vector), written once for
 * the walks of separable.cl, sat_ring.cl, mask_x16.cl, mosaic.cl and
 * temporal.cl: the rounded division of window sums (a float estimate corrected to the exact
 * quotient, vector integer division being scalarised), the lane scans and
 * shuffles, and the kept channels' bytes. In every unit of
 * kernels/meson.build that holds one of those walks.
 */

#if CLB_SAMPLE_BITS == 8
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
 * way did not reach it. Once a row, not a step. (Loops of a constant
 * count, which the compilers unroll.) */
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
 * separable_mean_by16 needs: the reciprocal rounded up, and whether
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
#define CLB_LANE_UP(P, Q, i) ((i) < (P) ? 16 : (i) - (P))
#define CLB_UP(v, z, P) CLB_SHUFFLE_BY (uint16, v, z, CLB_LANE_UP, P, 0)
/* packed 4:2:2 (Q: the luma bytes' parity): the luma lanes 2 apart */
#define CLB_LANE_422_UP(P, Q, i) (((i) & 1) == (Q) && (i) >= 2 ? (i) - 2 : 16)
#define CLB_422_UP2(v, z, luma) ((luma) \
    ? CLB_SHUFFLE_BY (uint16, v, z, CLB_LANE_422_UP, 2, 1) \
    : CLB_SHUFFLE_BY (uint16, v, z, CLB_LANE_422_UP, 2, 0))

/* Zeros from n >= 0 (a size or count the kernel was given or counts):
 * its sign bit. */
CLB_INLINE uint16
separable_zero16 (int n)
{
    return (uint16) ((uint) n >> 31);
}
/* Broadcasts: the lanes of the step's last whole pixel of P lanes to
 * each pixel's lanes; packed 4:2:2 (Q as above), the last luma lane to
 * the luma lanes, the last U and V lanes to the chroma ones. */
#define CLB_LANE_LAST(P, Q, i) (16 / (P) * (P) - (P) + (i) % (P))
#define CLB_LAST(v, P) \
    CLB_SHUFFLE_BY (uint16, v, (uint16) (0), CLB_LANE_LAST, P, 0)
#define CLB_LANE_422_LAST(P, Q, i) \
    (((i) & 1) == (Q) ? 14 + (Q) : 12 + ((i) & 3))
#define CLB_422_LAST(v, luma) ((luma) \
    ? CLB_SHUFFLE_BY (uint16, v, (uint16) (0), CLB_LANE_422_LAST, 0, 1) \
    : CLB_SHUFFLE_BY (uint16, v, (uint16) (0), CLB_LANE_422_LAST, 0, 0))

/* Inclusive prefix sums over the lanes of each channel (lanes j, j - c,
 * j - 2c, ...), z zeros (separable_zero16). */
CLB_INLINE uint16
separable_scan16 (uint16 d, int channels, uint16 z)
{
    switch (channels) {
    case 1:
        d += CLB_UP (d, z, 1);
        d += CLB_UP (d, z, 2);
        d += CLB_UP (d, z, 4);
        return d + CLB_UP (d, z, 8);
    case 2:
        d += CLB_UP (d, z, 2);
        d += CLB_UP (d, z, 4);
        return d + CLB_UP (d, z, 8);
    case 3:
        d += CLB_UP (d, z, 3);
        d += CLB_UP (d, z, 6);
        return d + CLB_UP (d, z, 12);
    default:
        d += CLB_UP (d, z, 4);
        return d + CLB_UP (d, z, 8);
    }
}

/* Each channel's last lane of the step in its every lane. */
CLB_INLINE uint16
separable_lanes_last (uint16 v, int channels, int luma)
{
    if (luma >= 0)
        return CLB_422_LAST (v, luma);
    return channels == 1 ? CLB_LAST (v, 1) : channels == 2 ? CLB_LAST (v, 2)
        : channels == 3 ? CLB_LAST (v, 3) : CLB_LAST (v, 4);
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
 * pixel (RGB's 16th), which the store then writes back as they are. (|
 * of the two comparisons: Oclgrind 21.10 got lanes of || wrong.) */
uchar16
separable_keep16 (int keep, int channels)
{
    int16 lane = CLB_IOTA;
    int16 lp = lane / (int16) (channels);
    int used = 16 / channels * channels;
    int16 kept = (((int16) (keep) >> (lane - lp * (int16) (channels))) & 1)
        != 0 | lane >= (int16) (used);
    return as_uchar16 (convert_char16 (kept));
}

#endif
