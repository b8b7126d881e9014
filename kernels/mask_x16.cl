/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Alpha as the foreground mask (mask.cl: the algorithm and the generic
 * kernels), the CPU's vector schedules: 8-bit jobs, sums in 32 bits (the
 * engine takes them only where (2 rx + 1) (2 ry + 1) 255 255 + Σw / 2 <
 * 2^32, radii up to about 127): one walk, mask_band, for three kinds of
 * job (@nc, a constant):
 * (@nc, a constant):
 *   3  pixels of 4 bytes, the alpha byte @ao among them (RGBA and its
 *      orders, AYUV: mask_fused_x16), read and written as uint, each byte
 *      shifted out and back in, the alpha byte written as read;
 *   1  one sample a pixel, the alpha a plane of its own (A420's Y, U, V;
 *      planar RGB with alpha: mask_planar_x16);
 *   2  two such jobs of one size and alpha (A420's U and V:
 *      mask_planar_pair_x16), whose weights' sums, reciprocals and
 *      feathered alphas are made once for both.
 * A work-item walks down a band of rows with rows of vertical window
 * sums in tmp (the band's, in cache), 16 pixels in the lanes of a
 * vector: one of I w per sample of a pixel, one of w and, with a feather
 * (fx >= 0), one of the alpha over the feather's rows; the band's first
 * window summed in registers (mask_first), then moved down a row by the
 * entering row minus the leaving one (mask_move). Each of those rows is
 * extended past the row's ends by @pad (> max (rx, fx)) positions that
 * hold the border's values (0 for shrink: mask_pv_pad), so that the
 * horizontal pass (mask_row) needs no branch: the window sums of 16
 * neighbouring pixels are the last one's sum plus the prefix sums of
 * (entering - leaving) columns; the wrapped differences add up to the
 * exact sums. One float reciprocal of Σw serves a pixel's samples
 * (mask_mix16). A subsampled job's alphas (the rounded mean of its
 * footprint, as mask_alpha) are made by each band for the rows it reads
 * (mask_sub_row), in the same launch. Where some pixel's alpha (as
 * blended) is below 255, the work-item writes @stamp to *@seen (mask.cl).
 */

#if CLB_SAMPLE_BITS == 8
/* @load: the first @n (< 16: the rest 0) or 16 elements of @type at @p;
 * @store: the first @n (or all 16) lanes of @v to @p. For bytes
 * (mask_load_part, mask_store_part) and for pixels of 4 bytes read as
 * uint (mask_load_px, mask_store_px). */
#define MASK_PART(type, load, store)                                    \
    type##16                                                            \
    load (__global const type *p, int n)                                \
    {                                                                   \
        if (n >= 16)                                                    \
            return CLB_LOAD16 (type, p);                                \
        type b[16];                                                     \
        for (int k = 0; k < 16; k++)                                    \
            b[k] = k < n ? p[k] : 0;                                    \
        return vload16 (0, b);                                          \
    }                                                                   \
                                                                        \
    void                                                                \
    store (type##16 v, __global type *p, int n)                         \
    {                                                                   \
        if (n >= 16) {                                                  \
            CLB_STORE16 (type, v, p);                                   \
            return;                                                     \
        }                                                               \
        type b[16];                                                     \
        vstore16 (v, 0, b);                                             \
        for (int k = 0; k < n; k++)                                     \
            p[k] = b[k];                                                \
    }
MASK_PART (uchar, mask_load_part, mask_store_part)
MASK_PART (uint, mask_load_px, mask_store_px)
#undef MASK_PART

/* 16 bytes at @p, @n of them left in the row. */
#define MASK_BYTES(p, n) ((n) < 16 ? mask_load_part ((p), (n))           \
                          : CLB_LOAD16 (uchar, (p)))

/* @v to 16 bytes at @p, @n of them left in the row. */
#define MASK_PUT16(v, p, n)                                             \
    do {                                                                \
        if ((n) < 16)                                                   \
            mask_store_part ((v), (p), (n));                            \
        else                                                            \
            CLB_STORE16 (uchar, (v), (p));                              \
    } while (0)

/* @v += @d, 16 uint at @p. */
#define MASK_ADD16(p, d) CLB_STORE16 (uint, CLB_LOAD16 (uint, (p)) + (d), (p))

/* Byte @k (0 .. 3, in memory order) of each of 16 pixels read as uint;
 * @v (0 .. 255 a lane) as byte @k of a uint. */
#ifdef __ENDIAN_LITTLE__
#define MASK_SHIFT(k) (8 * (k))
#else
#define MASK_SHIFT(k) (24 - 8 * (k))
#endif
#define MASK_BYTE16(px, k)                                              \
    (((px) >> (uint16) (MASK_SHIFT (k))) & (uint16) (0xff))
#define MASK_AT_BYTE16(v, k) ((v) << (uint16) (MASK_SHIFT (k)))

/* The colour bytes of a pixel whose alpha is byte @ao: the first, second
 * and third of the others (@i 0, 1, 2). */
#define MASK_K(ao, i) ((i) + ((ao) <= (i) ? 1 : 0))

/* The weighed samples (I w, both factors below 2^16: one 16-bit
 * multiply-add a lane on CPUs that have it) @c0 (@c1, @c2) and @w =
 * 255 - alpha of pixels x .. x + 15 of a row (@n pixels left in it):
 * @nc == 3, the pixels of 4 bytes at @s (alpha byte @ao); else the
 * samples at @s (@nc == 2, and @s2), the alphas at @a (@nc and @ao the
 * caller's, each pointer evaluated only where read). */
#define MASK_WEIGH(s, s2, a, x, n, c0, c1, c2, w)                       \
    do {                                                                \
        if (nc == 3) {                                                  \
            uint16 px_ = mask_load_px ((__global const uint *) (s) + (x), \
                                       (n));                            \
            w = MASK_BYTE16 (px_, ao) ^ (uint16) (0xff);                \
            c0 = as_uint16 (as_int16 (MASK_BYTE16 (px_, MASK_K (ao, 0)))  \
                            * as_int16 (w));                            \
            c1 = as_uint16 (as_int16 (MASK_BYTE16 (px_, MASK_K (ao, 1)))  \
                            * as_int16 (w));                            \
            c2 = as_uint16 (as_int16 (MASK_BYTE16 (px_, MASK_K (ao, 2)))  \
                            * as_int16 (w));                            \
        } else {                                                        \
            ushort16 w_ = (ushort16) (255)                              \
                - convert_ushort16 (MASK_BYTES ((a) + (x), (n)));       \
            c0 = convert_uint16 (convert_ushort16 (MASK_BYTES ((s) + (x), \
                                                               (n))) * w_); \
            if (nc == 2)                                                \
                c1 = convert_uint16 (convert_ushort16                   \
                                     (MASK_BYTES ((s2) + (x), (n))) * w_); \
            w = convert_uint16 (w_);                                    \
        }                                                               \
    } while (0)

/* The alphas of pixels x .. x + 15 of row @a (@nc == 3: of its pixels). */
CLB_INLINE uint16
mask_alphas (__global const uchar *a, int x, int n, int nc, int ao)
{
    return nc == 3 ? MASK_BYTE16 (mask_load_px ((__global const uint *) a
                                                + x, n), ao)
        : convert_uint16 (MASK_BYTES (a + x, n));
}

/* Row @y of the alphas of a job subsampled by 2^xs x 2^ys (xs, ys <= 1)
 * into @o (@width bytes): mask_alpha's rounded mean of each pixel's
 * footprint in @alpha (@aw x @ah, rows @apitch apart); 16 pixels at a
 * time where the 2 x 2 footprints lie inside the frame. */
CLB_INLINE void
mask_sub_row (__global const uchar *alpha, int apitch, int aw, int ah,
              int xs, int ys, __global uchar *o, int width, int y)
{
    __global const uchar *a0 = alpha + (size_t) (y << ys) * apitch;
    __global const uchar *a1 = a0 + apitch;
    int x = 0;
    if (xs == 1 && ys == 1 && 2 * y + 1 < ah) {
        for (; 2 * x + 32 <= aw && x + 16 <= width; x += 16) {
            uchar16 p0 = CLB_LOAD16 (uchar, a0 + 2 * x);
            uchar16 p1 = CLB_LOAD16 (uchar, a0 + 2 * x + 16);
            uchar16 q0 = CLB_LOAD16 (uchar, a1 + 2 * x);
            uchar16 q1 = CLB_LOAD16 (uchar, a1 + 2 * x + 16);
            ushort16 s = convert_ushort16 ((uchar16) (p0.even, p1.even))
                + convert_ushort16 ((uchar16) (p0.odd, p1.odd))
                + convert_ushort16 ((uchar16) (q0.even, q1.even))
                + convert_ushort16 ((uchar16) (q0.odd, q1.odd));
            CLB_STORE16 (uchar, convert_uchar16 ((s + (ushort16) (2)) >> 2),
                         o + x);
        }
    }
    for (; x < width; x++) {
        int x0 = x << xs, y0 = y << ys;
        int x1 = min (aw, (x + 1) << xs), y1 = min (ah, (y + 1) << ys);
        uint sum = 0, n = 0;
        for (int j = y0; j < y1; j++) {
            for (int i = x0; i < x1; i++) {
                sum += alpha[(size_t) j * apitch + i];
                n++;
            }
        }
        o[x] = (uchar) (n > 0 ? (sum + n / 2) / n : 0);
    }
}

/* The positions -pad .. -1 and width .. width + pad - 1 of @rows rows
 * @len apart from @v as the border maps them (0 where it drops them). */
void
mask_pv_pad (__global uint *v, int rows, int len, int width, int pad,
             int border)
{
    for (int i = 1; i <= pad; i++) {
        int j = clb_border_index (-i, width, border);
        int k = clb_border_index (width - 1 + i, width, border);
        for (int c = 0; c < rows; c++) {
            __global uint *w = v + c * len;
            w[-i] = j >= 0 ? w[j] : 0;
            w[width - 1 + i] = k >= 0 ? w[k] : 0;
        }
    }
}

/* The sums of the windows of radius @r of pixels x .. x + 15 from @v
 * (padded): @carry the sum of pixel x - 1's in every lane, updated to
 * pixel x + 15's; the prefix sums of (entering - leaving) columns modulo
 * 2^32 (the wrapped differences add up to the exact sums), the shifts'
 * zeros opaque (separable_zero16). */
CLB_INLINE uint16
mask_pv_window (__global const uint *v, int x, int r, uint16 * carry)
{
    uint16 s = *carry + separable_scan16 (CLB_LOAD16 (uint, v + x + r)
                                          - CLB_LOAD16 (uint, v + x - r - 1),
                                          1, separable_zero16 (r));
    *carry = CLB_LAST (s, 1);
    return s;
}

/* The sums of a row's first window (pixel -1's, the pad's), radius @r,
 * in every lane. */
CLB_INLINE uint16
mask_pv_start (__global const uint *v, int r)
{
    uint c = 0;
    for (int i = -r - 1; i < r; i++)
        c += v[i];
    return (uint16) (c);
}

/* A float reciprocal of each lane of @sw (of max (Σw, 1)) scaled by
 * 1 - 2^-20 = 0.99999904632568359375 for mask_mix16. */
#define MASK_RCP(type, ftype, sw)                                       \
    ((ftype) (1.0f) / convert_##ftype (max ((sw), (type) (1)))          \
     * (ftype) (0.99999904632568359375f))

/* The feathered alphas of pixels x .. x + 15: the rounded means
 * (sa + n / 2) / n of @va's (padded) window sums of radius @fx (@ca the
 * carry, as mask_pv_window's), n = @cy (2 fx + 1) pixels and @r_in its
 * reciprocal scaled as MASK_RCP (shrink: fewer pixels at the row's ends,
 * their counts and reciprocals made there). The scaled reciprocal puts
 * the product below the quotient and within 2^-20 * 257 of it (n < 2^25,
 * the quotient <= 255): one upward correction, as in mask_mix16. */
CLB_INLINE uint16
mask_feather16 (__global const uint *va, int x, int fx, uint16 * ca,
                uint cy, float r_in, int width, int border)
{
    uint16 sa = mask_pv_window (va, x, fx, ca);
    uint16 cnt = (uint16) (cy * (uint) (2 * fx + 1));
    float16 r = (float16) (r_in);
    if (border == CLB_BORDER_SHRINK && (x < fx || x + 15 + fx >= width)) {
        uint c[16];
        for (int k = 0; k < 16; k++)
            c[k] = x + k < width ? cy * clb_border_count (x + k, fx, width,
                                                          border) : 1;
        cnt = vload16 (0, c);
        r = MASK_RCP (uint16, float16, cnt);
    }
    uint16 num = sa + (cnt >> 1);
    uint16 q = convert_uint16 (convert_float16 (num) * r);
    return select (q, q + (uint16) (1), num - q * cnt >= cnt);
}

/* B and the blend of 16 samples: @n = S + Σw / 2 (S the window's
 * sum of I w), @sw = Σw, @r its reciprocal (MASK_RCP), @v the samples,
 * @a their alphas.
 *
 * B = n / Σw: the reciprocal, scaled by 1 - 2^-20, lies below 1 / Σw
 * (a division is within 2.5 ulp in OpenCL), and its rounded product with
 * n below n / Σw and within 2^-20 * 257 of it, so its truncation q is
 * the quotient or one less, and n - q Σw >= Σw says which.
 *
 * B = I where Σw = 0, which only @feathered alphas need: otherwise
 * Σw = 0 means the pixel's own w is 0, its alpha 255 (amax), and the
 * blend is I whatever B is. The blend a I + (255 - a) B + 127 =
 * 255 B + a (I - B) + 127 (modulo 2^32 in the lanes: the result lies in
 * 0 .. 65152, so it is exact), divided by 255 as (t + (t >> 8)) >> 8
 * with t = that + 1 (exact for every such value). Both products'
 * factors are known below 2^16 (B & 0xff changes nothing: B <= 255), so
 * CPUs that have one make each a 16-bit multiply-add. */
CLB_INLINE uint16
mask_mix16 (uint16 n, uint16 sw, float16 r, uint16 v, uint16 a, int feathered)
{
    uint16 q = convert_uint16 (convert_float16 (n) * r);
    q = select (q, q + (uint16) (1), n - q * sw >= sw);
    uint16 b = (feathered ? select (q, v, sw == (uint16) (0)) : q)
        & (uint16) (0xff);
    uint16 t = b * (uint16) (255)
        + as_uint16 (as_int16 (a & (uint16) (0xff))
                     * (as_int16 (v) - as_int16 (b))) + (uint16) (128);
    return (t + (t >> 8)) >> 8;
}

/* The vertical sums' move down a row: the sums at @v (@nc of I w, then
 * w; @len uint apart) += the weighed pixels of row @si (@si2, alphas @ai)
 * and -= those of row @so (@so2, @ao_), each NULL for none; with a
 * feather (@va not NULL), @va += row @fi's alphas, -= row @fo's. */
CLB_INLINE void
mask_move (__global uint *v, int len, __global uint *va,
           __global const uchar *si, __global const uchar *si2,
           __global const uchar *ai, __global const uchar *so,
           __global const uchar *so2, __global const uchar *ao_,
           __global const uchar *fi, __global const uchar *fo, int width,
           int nc, int ao)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 d0 = (uint16) (0), d1 = d0, d2 = d0, dw = d0;
        uint16 c0 = d0, c1 = d0, c2 = d0, w = d0;
        if (si != 0)
            MASK_WEIGH (si, si2, ai, x, n, d0, d1, d2, dw);
        if (so != 0) {
            MASK_WEIGH (so, so2, ao_, x, n, c0, c1, c2, w);
            d0 -= c0;
            d1 -= c1;
            d2 -= c2;
            dw -= w;
        }
        MASK_ADD16 (v + x, d0);
        if (nc > 1)
            MASK_ADD16 (v + len + x, d1);
        if (nc > 2)
            MASK_ADD16 (v + 2 * len + x, d2);
        MASK_ADD16 (v + nc * len + x, dw);
        if (va == 0)
            continue;
        uint16 d = (uint16) (0);
        if (fi != 0)
            d += mask_alphas (fi, x, n, nc, ao);
        if (fo != 0)
            d -= mask_alphas (fo, x, n, nc, ao);
        MASK_ADD16 (va + x, d);
    }
}

/* The vertical sums of the band's first row (@y0): the box's window of
 * rows (@ry) and, with a feather (@va not NULL), the feather's (@fy),
 * 16 pixels at a time summed in registers; the rows as mask_move's, @alo
 * the first row of @alpha. */
CLB_INLINE void
mask_first (__global uint *v, int len, __global uint *va,
            __global const uchar *src, int src_pitch,
            __global const uchar *src2, int src2_pitch,
            __global const uchar *alpha, int apitch, int alo, int width,
            int height, int y0, int ry, int fy, int border, int nc, int ao)
{
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 s0 = (uint16) (0), s1 = s0, s2 = s0, sw = s0, sa = s0;
        uint16 c0 = s0, c1 = s0, c2 = s0, w = s0;
        for (int i = y0 - ry; i <= y0 + ry; i++) {
            int r = clb_border_index (i, height, border);
            if (r < 0)
                continue;
            MASK_WEIGH (src + (size_t) r * src_pitch,
                        src2 + (size_t) r * src2_pitch,
                        alpha + (size_t) (r - alo) * apitch, x, n, c0, c1,
                        c2, w);
            s0 += c0;
            s1 += c1;
            s2 += c2;
            sw += w;
        }
        CLB_STORE16 (uint, s0, v + x);
        if (nc > 1)
            CLB_STORE16 (uint, s1, v + len + x);
        if (nc > 2)
            CLB_STORE16 (uint, s2, v + 2 * len + x);
        CLB_STORE16 (uint, sw, v + nc * len + x);
        if (va == 0)
            continue;
        for (int i = y0 - fy; i <= y0 + fy; i++) {
            int r = clb_border_index (i, height, border);
            if (r >= 0)
                sa += mask_alphas (nc == 3 ? src + (size_t) r * src_pitch
                                   : alpha + (size_t) (r - alo) * apitch, x,
                                   n, nc, ao);
        }
        CLB_STORE16 (uint, sa, va + x);
    }
}

/* *@full &= @a, the alphas of pixels x .. x + 15 (@n left in the row:
 * 255 for those past it). */
#define MASK_FULL(a, n)                                                 \
    (*full &= (n) >= 16 ? (a) : (a) | as_uint16 ((int16) (0, 1, 2, 3, 4, \
        5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) >= (int16) (n)))

/* One output row: the window sums along the row from the vertical ones
 * (mask_pv_window), B and the blend as mask_mix16 makes them, the alpha
 * as read (@al, @nc == 3: the pixels' byte @ao) or, with a feather
 * (@feathered, a constant), the rounded mean of @va's window sums (cy
 * rows); @s (and @s2) into @d (and @d2); with @copy, @al's row copied to
 * @ac in the same walk (@nc < 3). Those alphas ANDed into @full's lanes
 * (where all are 255, they stay 255). */
CLB_INLINE void
mask_row (__global const uint *v, int len, __global const uint *va,
          __global const uchar *s, __global const uchar *s2,
          __global const uchar *al, __global uchar *d, __global uchar *d2,
          __global uchar *ac, int copy, int width, int rx, int fx, uint cy,
          int border, int nc, int ao, int feathered, uint16 * full)
{
    __global const uint *v1 = v + len, *v2 = v1 + len, *vw = v + nc * len;
    uint16 z = (uint16) (0), c0 = mask_pv_start (v, rx), cw;
    uint16 c1 = nc > 1 ? mask_pv_start (v1, rx) : z;
    uint16 c2 = nc > 2 ? mask_pv_start (v2, rx) : z;
    uint16 ca = feathered ? mask_pv_start (va, fx) : z;
    float r_in = 1.0f / (float) (cy * (uint) (2 * max (fx, 0) + 1))
        * 0.99999904632568359375f;      /* as MASK_RCP */
    cw = mask_pv_start (vw, rx);
    for (int x = 0; x < width; x += 16) {
        int n = width - x;
        uint16 s0 = mask_pv_window (v, x, rx, &c0);
        uint16 sw = mask_pv_window (vw, x, rx, &cw);
        float16 r = MASK_RCP (uint16, float16, sw);
        uint16 h = sw >> 1, a = z;
        if (nc == 3) {
            uint16 s1 = mask_pv_window (v1, x, rx, &c1);
            uint16 s2_ = mask_pv_window (v2, x, rx, &c2);
            uint16 px = mask_load_px ((__global const uint *) s + x, n);
            a = feathered ? mask_feather16 (va, x, fx, &ca, cy, r_in, width,
                                            border) : MASK_BYTE16 (px, ao);
            MASK_FULL (a, n);
#define MASK_MIX(sc, k)                                                 \
            MASK_AT_BYTE16 (mask_mix16 (sc + h, sw, r,                  \
                                        MASK_BYTE16 (px, k), a,         \
                                        feathered), k)
            mask_store_px ((px & MASK_AT_BYTE16 ((uint16) (0xff), ao))
                           | MASK_MIX (s0, MASK_K (ao, 0))
                           | MASK_MIX (s1, MASK_K (ao, 1))
                           | MASK_MIX (s2_, MASK_K (ao, 2)),
                           (__global uint *) d + x, n);
#undef MASK_MIX
            continue;
        }
        /* the row's alphas: read where they blend or are copied */
        if (copy || !feathered) {
            uchar16 ab = MASK_BYTES (al + x, n);
            if (copy)
                MASK_PUT16 (ab, ac + x, n);
            a = convert_uint16 (ab);
        }
        if (feathered)
            a = mask_feather16 (va, x, fx, &ca, cy, r_in, width, border);
        MASK_FULL (a, n);
        MASK_PUT16 (convert_uchar16 (mask_mix16 (s0 + h, sw, r, convert_uint16
                                               (MASK_BYTES (s + x, n)), a,
                                               feathered)), d + x, n);
        if (nc == 2)
            MASK_PUT16 (convert_uchar16 (mask_mix16 (mask_pv_window (v1, x, rx,
                                                                   &c1) + h,
                                                   sw, r, convert_uint16
                                                   (MASK_BYTES (s2 + x, n)),
                                                   a, feathered)), d2 + x, n);
    }
}
#undef MASK_FULL

/* Band @band of @band_rows rows, from @src into @dst (@nc == 2: and
 * @src2 into @dst2, the same size and alphas), the alphas at @alpha (a
 * byte a pixel, rows @apitch apart, row @alo first: the rows the band
 * reads, or all of them; @nc == 3: in the pixels), with @copy each of
 * the band's rows of alpha copied to @acopy (rows @acpitch apart: the
 * frame's alpha plane, as it came), the band's rows of sums from @tmp:
 * @nc of I w, w and (feather) alpha, each (width rounded up to 16) +
 * 2 @pad uint. Returns whether some blended alpha is below 255. */
CLB_INLINE int
mask_band (__global const uchar *src, int src_pitch, __global uchar *dst,
           int dst_pitch, __global const uchar *src2, int src2_pitch,
           __global uchar *dst2, int dst2_pitch,
           __global const uchar *alpha, int apitch, int alo,
           __global uchar *acopy, int acpitch, int copy,
           __global uint *tmp, int band, int width, int height, int rx,
           int ry, int fx, int fy, int border, int band_rows, int pad,
           int nc, int ao)
{
    int y0 = band * band_rows, y1 = min (height, y0 + band_rows);
    int len = ((width + 15) & ~15) + 2 * pad;
    int rows = nc + 1 + (fx >= 0 ? 1 : 0);
    __global uint *base = tmp + (size_t) band * len * rows;
    __global uint *v = base + pad;
    __global uint *va = fx >= 0 ? v + (nc + 1) * len : 0;
    uint16 full = (uint16) (0xff);

/* Row @r of the source (2: of the second job; AL: of the alphas), 0 for
 * none. */
#define MASK_SRC(r) ((r) >= 0 ? src + (size_t) (r) * src_pitch : 0)
#define MASK_SRC2(r) ((r) >= 0 ? src2 + (size_t) (r) * src2_pitch : 0)
#define MASK_AL(r) ((r) < 0 ? 0 : nc == 3 ? MASK_SRC (r)                \
                    : alpha + (size_t) ((r) - alo) * apitch)
    for (int k = 0; k < len * rows; k++)
        base[k] = 0;
    mask_first (v, len, va, src, src_pitch, src2, src2_pitch, alpha, apitch,
                alo, width, height, y0, ry, fy, border, nc, ao);
    for (int y = y0; y < y1; y++) {
        mask_pv_pad (v, rows, len, width, pad, border);
        uint cy = fx >= 0 ? clb_border_count (y, fy, height, border) : 1;
#define MASK_ROW(f)                                                     \
        mask_row (v, len, va, MASK_SRC (y), MASK_SRC2 (y), MASK_AL (y),   \
                  dst + (size_t) y * dst_pitch,                           \
                  dst2 + (size_t) y * dst2_pitch,                         \
                  acopy + (size_t) y * acpitch, copy, width, rx, fx, cy,  \
                  border, nc, ao, f, &full)
        fx >= 0 ? MASK_ROW (1) : MASK_ROW (0);
#undef MASK_ROW
        if (y + 1 == y1)
            break;
        int in = clb_border_index (y + ry + 1, height, border);
        int out = clb_border_index (y - ry, height, border);
        int fin = fx >= 0 ? clb_border_index (y + fy + 1, height, border) : -1;
        int fout = fx >= 0 ? clb_border_index (y - fy, height, border) : -1;
        mask_move (v, len, va, MASK_SRC (in), MASK_SRC2 (in), MASK_AL (in),
                   MASK_SRC (out), MASK_SRC2 (out), MASK_AL (out),
                   MASK_AL (fin), MASK_AL (fout), width, nc, ao);
    }
#undef MASK_SRC
#undef MASK_SRC2
#undef MASK_AL
    return any (full != (uint16) (0xff));
}

/* A work-item per band of @band_rows rows of one job (@src + @src_off
 * into @dst + @dst_off) or, where @nc is 2, of two (and @src2 + @src2_off
 * into @dst2 + @dst2_off), the alphas at @alpha + @a_off (a byte a
 * pixel, rows @apitch apart; with @copy, copied to @acopy + @ac_off;
 * @nc == 3: the pixels' byte @ao), the bands' rows of sums at @tmp +
 * @tmp_off (mask_band). With @sub_band > 0 the jobs are subsampled by
 * 2^xs x 2^ys and @alpha + @a_off is the frame's alpha plane (@aw x
 * @ah): the band first makes the alphas of the rows it reads
 * (mask_sub_row; y0 - r .. y1 - 1 + r with r the larger vertical radius,
 * mapped by the border: within 0 .. height - 1 and the band's reach
 * where r < height, else all rows) into @sub + @sub_off + band *
 * @sub_band, then walks them. @nc is the kernel's constant; @ao, where it
 * is 3, made one for each place of the alpha byte. @stamp to *@seen
 * where the band blends some alpha below 255 (mask.cl). */
#define MASK_BAND(nc_, ao_)                                                \
    mask_band (src + src_off, src_pitch, dst + dst_off, dst_pitch,         \
               src2 + src2_off, src2_pitch, dst2 + dst2_off, dst2_pitch,   \
               alpha, apitch, alo, acopy + ac_off, acpitch, copy,          \
               tmp + tmp_off, band, width, height, rx, ry, fx, fy, border, \
               band_rows, pad, nc_, ao_)
#define MASK_X16_KERNEL(name, nc)                                          \
    __kernel void                                                          \
    name (__global const uchar *src, int src_off, int src_pitch,           \
          __global uchar *dst, int dst_off, int dst_pitch,                 \
          __global const uchar *src2, int src2_off, int src2_pitch,        \
          __global uchar *dst2, int dst2_off, int dst2_pitch,              \
          __global const uchar *alpha, int a_off, int apitch,              \
          __global uchar *acopy, int ac_off, int acpitch, int copy,        \
          int aw, int ah, int xs, int ys, __global uchar *sub,             \
          int sub_off, int sub_band, __global uint *tmp, int tmp_off,      \
          int width, int height, int rx, int ry, int fx, int fy,           \
          int border, int band_rows, int pad, int ao, __global uint *seen, \
          uint stamp)                                                      \
    {                                                                      \
        int band = get_global_id (0);                                      \
        int y0 = band * band_rows, alo = 0;                                \
        if (y0 >= height)                                                  \
            return;                                                        \
        alpha += a_off;                                                    \
        if (sub_band > 0) {                                                \
            int r = max (ry, fy);                                          \
            int lo = r < height ? max (0, y0 - r) : 0;                     \
            int hi = r < height ? min (height, y0 + band_rows + r)         \
                : height;                                                  \
            __global uchar *own = sub + sub_off + (size_t) band * sub_band; \
            for (int y = lo; y < hi; y++)                                  \
                mask_sub_row (alpha, apitch, aw, ah, xs, ys,               \
                              own + (size_t) (y - lo) * width, width, y);  \
            alpha = own;                                                   \
            apitch = width;                                                \
            alo = lo;                                                      \
        }                                                                  \
        if (nc < 3 ? MASK_BAND (nc, 0) : ao == 0 ? MASK_BAND (3, 0)        \
            : ao == 1 ? MASK_BAND (3, 1) : ao == 2 ? MASK_BAND (3, 2)      \
            : MASK_BAND (3, 3))                                            \
            *seen = stamp;                                                 \
    }
MASK_X16_KERNEL (mask_planar_x16, 1)
MASK_X16_KERNEL (mask_planar_pair_x16, 2)
MASK_X16_KERNEL (mask_fused_x16, 3)
#undef MASK_X16_KERNEL
#undef MASK_BAND
#endif
