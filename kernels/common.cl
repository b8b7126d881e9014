/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Shared by every method. The program is built twice: with
 * CLB_SAMPLE_BITS=8 for 8-bit formats and CLB_SAMPLE_BITS=16 for 16-bit
 * containers (10-bit and 16-bit formats).
 *
 * A "job" is a group of 1..4 channels of one plane with one geometry (RGBA:
 * R, G, B, A; NV12: Y, then U+V). Sample (x, y, c) of a job is the element
 *     y * pitch + x * pstride + off[c]
 * of its plane buffer, counted in sample containers (uchar or ushort).
 * Values are container >> shift (P010 keeps 10 bits in the high bits), with
 * the bytes swapped first for big-endian formats.
 */

#ifndef CLB_SAMPLE_BITS
#define CLB_SAMPLE_BITS 8
#endif

#if CLB_SAMPLE_BITS == 16
typedef ushort sample_t;
/* Box sums: 65535 * (2 * 2047 + 1)^2 needs more than 32 bits. */
typedef ulong wide_t;
typedef uint hist_t;    /* temporal's history: a sample and 8 bits more */
#else
typedef uchar sample_t;
/* Box sums: 255 * (2 * 2047 + 1)^2 < 2^32. */
typedef uint wide_t;
typedef ushort hist_t;
#endif

/* Compiler extensions, only where the host has checked that the device's
 * compiler takes them (it passes -DCLB_CLANG_EXTENSIONS=1 for PoCL, whose
 * compiler is clang); every other compiler gets standard OpenCL C 1.2.
 *
 * Vectors at any element-aligned address. vload16/vstore16 mean the same,
 * but PoCL turns some of them into one access per element; with clang a
 * vector type of element alignment gives one unaligned vector access.
 * Shuffles with constant lane lists (CLB_SHUFFLE_BY, below):
 * __builtin_shufflevector gives one permute instruction, shuffle2 the
 * same result with the lanes in a mask vector (index 16..31 picks lane
 * i - 16 of the second vector). */
#ifndef CLB_CLANG_EXTENSIONS
#define CLB_CLANG_EXTENSIONS 0
#endif

#if CLB_CLANG_EXTENSIONS
typedef uchar16 __attribute__ ((aligned (1))) clb_uchar16_u;
typedef ushort16 __attribute__ ((aligned (2))) clb_ushort16_u;
typedef uint16 __attribute__ ((aligned (4))) clb_uint16_u;
#define CLB_LOAD16(type, p) (*(__global const clb_##type##16_u *) (p))
#define CLB_STORE16(type, v, p) (*(__global clb_##type##16_u *) (p) = (v))
#define CLB_INLINE __attribute__ ((always_inline))
#define CLB_SHUFFLE_BY(mtype, a, b, F, P, Q) \
    __builtin_shufflevector ((a), (b), CLB_LANES16 (F, P, Q))
#else
#define CLB_LOAD16(type, p) vload16 (0, (p))
#define CLB_STORE16(type, v, p) vstore16 ((v), 0, (p))
#define CLB_INLINE
#define CLB_SHUFFLE_BY(mtype, a, b, F, P, Q) \
    shuffle2 ((a), (b), (mtype) (CLB_LANES16 (F, P, Q)))
#endif

/* CLB_SHUFFLE_BY: a shuffle whose lane i is F (P, Q, i), its lane list
 * written as a formula of constants (index 16..31: lane i - 16 of b).
 * The formulas the kernels share: lane i ^ P (a butterfly step); lane
 * P i + Q of the vectors, or 0 past them (the first of channel Q of
 * pixels of P bytes, deinterleaved); after that from a third vector
 * (3-byte pixels, 48 bytes); the low 8 lanes of each vector. */
#define CLB_LANES16(F, P, Q)                                                 \
    F (P, Q, 0), F (P, Q, 1), F (P, Q, 2), F (P, Q, 3), F (P, Q, 4),         \
    F (P, Q, 5), F (P, Q, 6), F (P, Q, 7), F (P, Q, 8), F (P, Q, 9),         \
    F (P, Q, 10), F (P, Q, 11), F (P, Q, 12), F (P, Q, 13), F (P, Q, 14),    \
    F (P, Q, 15)
#define CLB_LANE_XOR(P, Q, i) ((i) ^ (P))
#define CLB_LANE_DEAL(P, Q, i) ((P) * (i) + (Q) < 32 ? (P) * (i) + (Q) : 0)
#define CLB_LANE_DEAL3(P, Q, i) \
    ((P) * (i) + (Q) < 32 ? (i) : ((P) * (i) + (Q) - 16) & 31)
#define CLB_LANE_LOWS(P, Q, i) ((i) < 8 ? (i) : (i) + 8)

/* Channel K (a constant) of 16 pixels of C (2 to 4) channels, a byte or
 * a lane each, in the vectors a, b (and c, d as C needs) of type T. */
#define CLB_DEAL16(T, C, K, a, b, c, d)                                      \
    ((C) == 2 ? CLB_SHUFFLE_BY (T, a, b, CLB_LANE_DEAL, 2, K)                \
     : (C) == 3 ? CLB_SHUFFLE_BY (T, CLB_SHUFFLE_BY (T, a, b, CLB_LANE_DEAL, \
                                                     3, K),                  \
                                  c, CLB_LANE_DEAL3, 3, K)                   \
     : CLB_SHUFFLE_BY (T, CLB_SHUFFLE_BY (T, a, b, CLB_LANE_DEAL, 4, K),     \
                       CLB_SHUFFLE_BY (T, c, d, CLB_LANE_DEAL, 4, K),        \
                       CLB_LANE_LOWS, 0, 0))

/* Each lane's index. */
#define CLB_IOTA (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

#define CLB_BORDER_SHRINK 0
#define CLB_BORDER_REPLICATE 1
#define CLB_BORDER_REFLECT 2

int
clb_comp (int4 v, int c)
{
    return c == 0 ? v.s0 : c == 1 ? v.s1 : c == 2 ? v.s2 : v.s3;
}

uint
clb_load (__global const sample_t *p, size_t i, int swap, int shift)
{
    uint v = p[i];
#if CLB_SAMPLE_BITS == 16
    if (swap)
        v = ((v & 0xffu) << 8) | (v >> 8);
#endif
    return v >> shift;
}

void
clb_store (__global sample_t *p, size_t i, uint v, int swap, int shift)
{
    v <<= shift;
#if CLB_SAMPLE_BITS == 16
    if (swap)
        v = ((v & 0xffu) << 8) | ((v >> 8) & 0xffu);
#endif
    p[i] = (sample_t) v;
}

/* The slot of row j (j >= 0) of an intermediate (sat.cl's table, the
 * separable and mask methods' row sums) in a ring of @ring rows: the
 * frame's height, or fewer where the engine filters a frame in bands of
 * rows (see sat.cl); a band of output rows y0 .. y1 - 1 of the separable
 * box reads rows y0 - ry .. y1 + ry - 1 of it. */
size_t
clb_slot (int j, int ring)
{
    return (size_t) (j < ring ? j : j % ring);
}

/* The border rule, written once: what position i of a line of len
 * samples extended past its ends shows. Every kernel maps positions, clips
 * windows and counts them with what follows; the closed forms below are
 * sums over the extended line in terms of the line's own prefix sums,
 * each checked against plain walks over clb_border_index
 * (tests/check/libs/border.cl). */

/* SHRINK: the window lo .. hi clipped to the line, its ends and the count
 * of a window of radius r around i, in type T (int, or intN with both
 * bounds splat: Oclgrind's min and max of a vector and a scalar are
 * wrong). */
#define CLB_SHRINK_LO(T, lo) max ((lo), (T) (0))
#define CLB_SHRINK_HI(T, hi, len) min ((hi), (T) ((len) - 1))
#define CLB_SHRINK_COUNT(T, i, r, len) \
    (CLB_SHRINK_HI (T, (i) + (r), (len)) - CLB_SHRINK_LO (T, (i) - (r)) \
     + 1)

/* The offsets [*lo, *hi] of the window of radius @r around @i on a line
 * of @len that @border keeps: clipped to the line where it shrinks. */
CLB_INLINE void
clb_window (int i, int r, int len, int border, int *lo, int *hi)
{
    int shrink = border == CLB_BORDER_SHRINK;
    *lo = shrink ? CLB_SHRINK_LO (int, i - r) - i : -r;
    *hi = shrink ? CLB_SHRINK_HI (int, i + r, len) - i : r;
}

/* Index of the sample that position i of the extended line shows, or -1
 * when it lies outside and the border is SHRINK. */
int
clb_border_index (int i, int len, int border)
{
    if (i >= 0 && i < len)
        return i;
    if (border == CLB_BORDER_SHRINK)
        return -1;
    if (border == CLB_BORDER_REPLICATE || len == 1)
        return i < 0 ? 0 : len - 1;
    /* REFLECT without repeating the edge: period 2 (len - 1). One
     * reflection covers windows narrower than the line, without a
     * division. */
    if (i < 0 && i > -len)
        return -i;
    if (i >= len && i < 2 * len - 1)
        return 2 * (len - 1) - i;
    int period = 2 * (len - 1);
    i %= period;
    if (i < 0)
        i += period;
    return i < len ? i : period - i;
}

/* How many samples the window of radius r around i averages. */
uint
clb_border_count (int i, int r, int len, int border)
{
    if (border != CLB_BORDER_SHRINK)
        return (uint) (2 * r + 1);
    return (uint) CLB_SHRINK_COUNT (int, i, r, len);
}

/* The prefix sums U(n) of the extended line (U(n) the sum of positions
 * 0 .. n, U(-1) = 0, and for n < -1 minus the sum of positions n + 1 ..
 * -1) from the line's own prefix sums p(j), where n lies at most one
 * reflection outside: P0 = p(0), PL = p(len - 1), PP = p(len - 2) and PR
 * the prefix the reflection names, an expression evaluated only for
 * REFLECT (of wide_t, or vectors of it). len >= 2. Before the line,
 * -len < n < 0, PR = p(-n - 1): */
#define CLB_BORDER_PREFIX_BEFORE(border, n, P0, PR)                      \
    ((border) == CLB_BORDER_SHRINK ? (wide_t) 0                          \
     : (border) == CLB_BORDER_REPLICATE ? (wide_t) ((n) + 1) * (P0)      \
     : (P0) - (PR))
/* after it, len <= n < 2 len - 1, PR = p(2 len - 3 - n): */
#define CLB_BORDER_PREFIX_AFTER(border, n, len, PL, PP, PR)              \
    ((border) == CLB_BORDER_SHRINK ? (PL)                                \
     : (border) == CLB_BORDER_REPLICATE                                  \
     ? (PL) + (wide_t) ((n) - (len) + 1) * ((PL) - (PP))                 \
     : (PL) + (PP) - (PR))

/* A window sum along a line as a signed combination of prefix sums p(j)
 * of the line's samples (p(-1) = 0): at most CLB_MAX_TERMS of them. */
#define CLB_MAX_TERMS 8
typedef struct {
    int n;
    int idx[CLB_MAX_TERMS];
    wide_t coef[CLB_MAX_TERMS];
} clb_terms;

void
clb_terms_add (clb_terms *t, int idx, wide_t coef)
{
    if (idx < 0)
        return;
    for (int i = 0; i < t->n; i++) {
        if (t->idx[i] == idx) {
            t->coef[i] += coef;
            return;
        }
    }
    t->idx[t->n] = idx;
    t->coef[t->n] = coef;
    t->n++;
}

/* Adds sign * U(n) (any n; REPLICATE or REFLECT) to t. */
void
clb_border_prefix (clb_terms *t, int n, int len, int border, wide_t sign)
{
    if (border == CLB_BORDER_REPLICATE || len == 1) {
        /* With one sample, reflection also repeats sample 0. */
        if (n < 0) {
            clb_terms_add (t, 0, sign * (wide_t) (n + 1));
        } else if (n < len) {
            clb_terms_add (t, n, sign);
        } else {
            wide_t extra = (wide_t) (n - len + 1);
            clb_terms_add (t, len - 1, sign * (extra + 1));
            clb_terms_add (t, len - 2, sign * ((wide_t) 0 - extra));
        }
        return;
    }

    /* Reflect without repeating the edge sample (OpenCV's REFLECT_101):
     * ... c b | a b c d | c b a ...  The extended line has period
     * P = 2 (len - 1), and by symmetry U(n) = p(0) - U(-n - 1) for n < 0. */
    if (n < 0) {
        clb_terms_add (t, 0, sign);
        sign = (wide_t) 0 - sign;
        n = -n - 1;
    }
    int period = 2 * (len - 1);
    wide_t q = (wide_t) (n / period);
    int m = n % period;
    if (q != 0) {
        /* one period: p(len - 1) + p(len - 2) - p(0) */
        clb_terms_add (t, len - 1, sign * q);
        clb_terms_add (t, len - 2, sign * q);
        clb_terms_add (t, 0, ((wide_t) 0 - sign) * q);
    }
    if (m < len) {
        clb_terms_add (t, m, sign);
    } else {
        clb_terms_add (t, len - 1, sign);
        clb_terms_add (t, len - 2, sign);
        clb_terms_add (t, period - m - 1, (wide_t) 0 - sign);
    }
}

/* Terms of the window lo .. hi of the extended line (lo <= hi, a window
 * around a position of the line); *count is the number of samples the
 * window averages. */
void
clb_border_window (clb_terms *t, int lo, int hi, int len, int border,
                   uint *count)
{
    t->n = 0;
    if (border == CLB_BORDER_SHRINK) {
        lo = CLB_SHRINK_LO (int, lo);
        hi = CLB_SHRINK_HI (int, hi, len);
        clb_terms_add (t, hi, 1);
        clb_terms_add (t, lo - 1, (wide_t) 0 - 1);
    } else {
        clb_border_prefix (t, hi, len, border, 1);
        clb_border_prefix (t, lo - 1, len, border, (wide_t) 0 - 1);
    }
    *count = (uint) (hi - lo + 1);
}

/* The loop probe (engine.c): a loop of n iterations whose count the
 * compiler cannot fold, and how many of them ran. Mesa's llvmpipe (under
 * rusticl) ends a kernel's loops after 65535 iterations in all, a guard
 * made for graphics shaders, without an error; the host reads the count
 * to know whether the device does that, and how soon. count[1] and
 * count[2] hold 0. */
__kernel void
clb_loop_probe (__global uint *count, int n)
{
    uint k = 0;
    for (int i = 0; i < n; i++)
        k += count[1 + (i & 1)] + 1;
    count[0] = k;
}

/* @rows rows of @row bytes from @from (rows @from_pitch bytes apart) to
 * @to (@to_pitch apart), a work-item a row, 16 bytes a step: the copy of
 * a frame with regions that runs from the caller's memory (the original
 * outside the regions) on CPUs, where PoCL's clEnqueueCopyBuffer is one
 * thread's memcpy. In the base program: no method's own. */
__kernel void
copy_rows (__global const uchar *from, int from_pitch, __global uchar *to,
           int to_pitch, int row, int rows)
{
    int y = (int) get_global_id (0);
    if (y >= rows)
        return;
    __global const uchar *s = from + (size_t) y * from_pitch;
    __global uchar *d = to + (size_t) y * to_pitch;
    int x = 0;
    for (; x + 16 <= row; x += 16)
        CLB_STORE16 (uchar, CLB_LOAD16 (uchar, s + x), d + x);
    for (; x < row; x++)
        d[x] = s[x];
}
