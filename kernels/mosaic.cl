/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Mosaic (pixelate) and solid fill, for every layout the jobs describe
 * (common.cl: pitch, pixel stride, channel offsets, shift, byte swap), on
 * CPUs and GPUs alike.
 *
 * Mosaic: the job's pixels are cut into blocks of bw x bh pixels (the
 * element's block size shifted by the job's subsampling), aligned to the
 * frame's origin; blocks at the right and bottom edges are clipped to the
 * frame. Every sample of a block becomes the block's rounded mean,
 * (sum + n / 2) / n, n the pixels of the block inside the frame. Two
 * launches, a work-item per (sample of a row, block row), so neighbouring
 * work-items touch neighbouring memory:
 *
 *   mosaic_columns  each sample column's sum over its block row's rows,
 *                   into tmp (block row by, sample i at (by - first) *
 *                   row_len + i: a band of block rows from first, as many
 *                   as the memory holds)
 *   mosaic_blocks   each sample's block: the bw column sums added, the
 *                   mean written down the block's rows
 *
 * The first reads every sample before the second writes one, so input and
 * output may be the same buffer. Sums in uint are exact: a block is at most
 * 256 x 256 samples (CLB_MAX_BLOCK_SIZE), 65536 x 65535 + 32768 < 2^32.
 *
 * Fill: every sample of the job's channels takes the channel's value.
 */

__kernel void
mosaic_columns (__global const sample_t *src, int pitch, int pstride,
                int4 off, int swap, int shift, __global uint *tmp,
                int width, int height, int channels, int bh, int first)
{
    int i = get_global_id (0), by = get_global_id (1);
    int row_len = width * channels;
    if (i >= row_len)
        return;
    int x = i / channels, c = i - x * channels;
    int y0 = by * bh, y1 = min (height, y0 + bh);
    size_t o = (size_t) x * pstride + clb_comp (off, c);
    uint sum = 0;
    for (int y = y0; y < y1; y++)
        sum += clb_load (src, (size_t) y * pitch + o, swap, shift);
    tmp[(size_t) (by - first) * row_len + i] = sum;
}

__kernel void
mosaic_blocks (__global const uint *tmp, __global sample_t *dst, int pitch,
               int pstride, int4 off, int swap, int shift, int width,
               int height, int channels, int bw, int bh, int first)
{
    int i = get_global_id (0), by = get_global_id (1);
    int row_len = width * channels;
    if (i >= row_len)
        return;
    int x = i / channels, c = i - x * channels;
    int x0 = x / bw * bw, x1 = min (width, x0 + bw);
    int y0 = by * bh, y1 = min (height, y0 + bh);
    __global const uint *sums = tmp + (size_t) (by - first) * row_len + c;
    uint sum = 0;
    for (int k = x0; k < x1; k++)
        sum += sums[k * channels];
    uint n = (uint) ((x1 - x0) * (y1 - y0)), v = (sum + n / 2) / n;
    size_t o = (size_t) x * pstride + clb_comp (off, c);
    for (int y = y0; y < y1; y++)
        clb_store (dst, (size_t) y * pitch + o, v, swap, shift);
}

__kernel void
fill_samples (__global sample_t *dst, int pitch, int pstride, int4 off,
              int swap, int shift, int width, int height, int channels,
              int4 value)
{
    int x = get_global_id (0), y = get_global_id (1);
    if (x >= width || y >= height)
        return;
    size_t o = (size_t) y * pitch + (size_t) x * pstride;
    for (int c = 0; c < channels; c++)
        clb_store (dst, o + clb_comp (off, c), (uint) clb_comp (value, c),
                   swap, shift);
}

#if CLB_SAMPLE_BITS == 8
/* Small blocks (mosaic_x16): lane i of @g plus lane i ^ d, a butterfly
 * step; after the steps d = pstride, 2 pstride, ... below the block's
 * bytes, every lane holds the sum of its channel over its block (blocks
 * of a power-of-2 bytes, 16 at most, aligned in the vector). */
uint16
clb_mosaic_fold (uint16 g, int d)
{
    if (d == 1)
        return g + CLB_SHUFFLE_BY (uint16, g, g, CLB_LANE_XOR, 1, 0);
    if (d == 2)
        return g + CLB_SHUFFLE_BY (uint16, g, g, CLB_LANE_XOR, 2, 0);
    if (d == 4)
        return g + CLB_SHUFFLE_BY (uint16, g, g, CLB_LANE_XOR, 4, 0);
    return g + CLB_SHUFFLE_BY (uint16, g, g, CLB_LANE_XOR, 8, 0);
}

/* 3-byte pixels (RGB), 48 bytes: the bytes 16 O .. 16 O + 15 of the
 * channels' vectors r, g, b interleaved, lane i byte 16 O + i: of r and
 * g first, then of b. */
#define CLB_LANE_RG(O, Q, i)                                                \
    ((16 * (O) + (i)) % 3 == 0 ? (16 * (O) + (i)) / 3                        \
     : (16 * (O) + (i)) % 3 == 1 ? 16 + (16 * (O) + (i)) / 3 : 0)
#define CLB_LANE_B(O, Q, i)                                                 \
    ((16 * (O) + (i)) % 3 == 2 ? 16 + (16 * (O) + (i)) / 3 : (i))
#define CLB_WEAVE(O)                                                        \
    CLB_SHUFFLE_BY (uchar16, CLB_SHUFFLE_BY (uchar16, r, g, CLB_LANE_RG, O, \
                                             0), b, CLB_LANE_B, O, 0)

uchar16
clb_rgb_interleave (uchar16 r, uchar16 g, uchar16 b, int o)
{
    return o == 0 ? CLB_WEAVE (0) : o == 1 ? CLB_WEAVE (1) : CLB_WEAVE (2);
}

/* The rounded means t / n of 16 lanes, from @inv, a float reciprocal
 * of n: within one of the quotient, corrected to it (lanes.cl). */
#define CLB_MEAN16(t, n, inv) \
    convert_uchar16 (separable_fix16 (convert_uint16 (convert_float16 (t) \
                                                      * (inv)), t, n))

/* mosaic_x16's small 2: 3-byte pixels, 48 bytes (16 pixels, whole blocks)
 * a step from byte k, each channel's lanes gathered, folded and put back,
 * stored straight into the block's rows (the step's input is read), not
 * through pat; returns the first byte left. */
int
mosaic_x16_rgb (__global const uchar *src, int in_pitch, __global uchar *dst,
                int out_pitch, int k, int k1, int y0, int y1, int bw,
                uint n_full, float inv)
{
    for (; k + 48 <= k1; k += 48) {
        __global const uchar *col = src + (size_t) y0 * in_pitch + k;
        ushort16 a0 = (ushort16) (0), a1 = (ushort16) (0);
        ushort16 a2 = (ushort16) (0);
        uchar16 m[3];
        for (int y = y0; y < y1; y++, col += in_pitch) {
            a0 += convert_ushort16 (CLB_LOAD16 (uchar, col));
            a1 += convert_ushort16 (CLB_LOAD16 (uchar, col + 16));
            a2 += convert_ushort16 (CLB_LOAD16 (uchar, col + 32));
        }
        for (int c = 0; c < 3; c++) {
#define CLB_RGB(K) CLB_DEAL16 (ushort16, 3, K, a0, a1, a2, a2)
            uint16 g = convert_uint16 (c == 0 ? CLB_RGB (0) : c == 1 ?
                                       CLB_RGB (1) : CLB_RGB (2));
#undef CLB_RGB
            for (int d = 1; d < bw; d <<= 1)
                g = clb_mosaic_fold (g, d);
            m[c] = CLB_MEAN16 (g + (uint16) (n_full / 2), (uint16) (n_full),
                               inv);
        }
        for (int o = 0; o < 3; o++) {
            uchar16 v = clb_rgb_interleave (m[0], m[1], m[2], o);
            __global uchar *out = dst + (size_t) y0 * out_pitch + k + 16 * o;
            for (int y = y0; y < y1; y++, out += out_pitch)
                CLB_STORE16 (uchar, v, out);
        }
    }
    return k;
}

/* mosaic_x16's small 1: whole blocks in a step of 16 bytes or of one
 * block (a multiple of 16 bytes) from byte k: the column sums of the
 * step's vectors added lane by lane, each channel's lanes folded within
 * the vector, the means in the lanes, stored straight into the block's
 * rows where @dense (the step's input is read), else into pat. Packed
 * 4:2:2 (@luma >= 0: its Y job's geometry, both jobs at once): the Y
 * lanes folded from 2 bytes apart, the U and V lanes from 4, each with
 * its own count. Returns the first byte left. */
int
mosaic_x16_lanes (__global const uchar *src, int in_pitch,
                  __global uchar *dst, int out_pitch, __global uchar *pat,
                  int k, int k1, int y0, int y1, int bw, int pstride,
                  int dense, int luma, uint n_full, float inv)
{
    int bspan = bw * pstride, step = max (16, bspan), fend = min (bspan, 16);
    int16 yl = (int16) (0);
    uint16 nv = (uint16) (n_full);
    float16 iv = (float16) (inv);
    if (luma >= 0) {
        uint n_uv = (uint) (bw / 2 * (y1 - y0));
        yl = (CLB_IOTA & (int16) (1)) == (int16) (luma);
        nv = select ((uint16) (n_uv), nv, yl);
        iv = select ((float16) (1.0f / (float) n_uv), iv, yl);
    }
    for (; k + step <= k1; k += step) {
        uint16 g = (uint16) (0);
        __global const uchar *col = src + (size_t) y0 * in_pitch + k;
        /* row by row (whole lines of the cache), a row's vectors summed
         * lane by lane in 16 bits (64 x 255 at most) */
        if (step == 16) {
            ushort16 acc = (ushort16) (0);
            for (int y = y0; y < y1; y++, col += in_pitch)
                acc += convert_ushort16 (CLB_LOAD16 (uchar, col));
            g = convert_uint16 (acc);
        } else {
            for (int y = y0; y < y1; y++, col += in_pitch) {
                ushort16 acc = (ushort16) (0);
                for (int i = 0; i < step; i += 16)
                    acc += convert_ushort16 (CLB_LOAD16 (uchar, col + i));
                g += convert_uint16 (acc);
            }
        }
        uint16 gc = g;
        for (int d = luma >= 0 ? 2 : pstride; d < fend; d <<= 1)
            g = clb_mosaic_fold (g, d);
        for (int d = 4; luma >= 0 && d < fend; d <<= 1)
            gc = clb_mosaic_fold (gc, d);
        if (luma >= 0)
            g = select (gc, g, yl);
        uchar16 v = CLB_MEAN16 (g + (nv >> 1), nv, iv);
        __global uchar *out = dense ? dst + (size_t) y0 * out_pitch + k
            : pat + k;
        for (int y = y0; y < (dense ? y1 : y0 + 1); y++, out += out_pitch) {
            for (int i = 0; i < step; i += 16)
                CLB_STORE16 (uchar, v, out + i);
        }
    }
    return k;
}

/* mosaic_x16: the means of the blocks from byte kv to k1 one block at a
 * time, from the column sums in sums, into pat, a channel at a time:
 * each job channel's bytes, or packed 4:2:2's (@luma >= 0: 4-byte pairs,
 * an even width and block) Y every 2 bytes from @luma, U and V every 4. */
void
mosaic_x16_blocks (__global const ushort *sums, __global uchar *pat, int kv,
                   int k1, int y0, int y1, int bw, int pstride, int4 off,
                   int channels, int luma)
{
    int bspan = bw * pstride;
    for (int b0 = kv; b0 < k1; b0 += bspan) {
        int b1 = min (k1, b0 + bspan);
        for (int c = 0; c < (luma >= 0 ? 3 : channels); c++) {
            int st = luma < 0 ? pstride : c == 0 ? 2 : 4;
            int i0 = b0 + (luma < 0 ? clb_comp (off, c)
                           : c == 0 ? luma : 2 * c - 1 - luma);
            uint n = (uint) ((b1 - b0) / st * (y1 - y0)), s = 0;
            for (int i = i0; i < b1; i += st)
                s += sums[i];
            for (int i = i0; i < b1; i += st)
                pat[i] = (uchar) ((s + n / 2) / n);
        }
    }
}

/* mosaic_x16: CPUs, 8-bit jobs of 1 to 4 bytes a pixel (pstride), each
 * channel its own byte (RGBA, RGB, GRAY8, NV12's planes, YUY2's Y and its
 * U, V, RGBx's colours). A work-item per block row and span of whole
 * blocks (span bytes, a multiple of 16 where the blocks allow): the span's
 * column sums over the block's rows, 16 bytes a step in ushort lanes
 * (256 x 255 < 2^16), into sums; each block's means into the span's row
 * of pat; that row copied down the block's rows, 16 bytes a step (the
 * vectors of small blocks in a dense job: stored straight into the block's
 * rows, with no pat). Blocks
 * of 1 to 8 bytes, a power of 2, or of a multiple of 16 bytes (small 1:
 * pixels of 1, 2 or 4 bytes; a step of 16 bytes or of one block), and of 2
 * to 16 RGB pixels, a power of 2 (small 2: 48 bytes a step, the channels
 * gathered) take their means in the vector lanes
 * (clb_mosaic_fold, a division by n through a float reciprocal corrected
 * to the exact quotient); the others, and a row's last bytes short of a
 * step, one block at a time. With @luma >= 0 the job is packed 4:2:2's Y
 * job (pixels of 2 bytes, luma at byte @luma, an even width and block)
 * and the run does its UV job too (blocks of bw / 2 pixels of 4 bytes:
 * the same bytes), every byte written (dense). Where
 * the job is not every byte of its pixels (dense 0), the other bytes are
 * left as the output has them (a select with the lanes' mask: pixels of
 * 1, 2 or 4 bytes, so a 16-byte step starts on a pixel). Its own span of
 * the work buffer (4 x row_len bytes a block row: sums, then pat), its
 * own pixels: input and output may be the same buffer. */
__kernel void
mosaic_x16 (__global const uchar *src, int in_pitch, __global uchar *dst,
            int out_pitch, __global ushort *work, int width, int height,
            int pstride, int4 off, int channels, int bw, int bh, int span,
            int first, int dense, int small, int luma)
{
    int row_len = width * pstride, k0 = get_global_id (0) * span;
    int by = get_global_id (1);
    if (k0 >= row_len)
        return;
    int k1 = min (row_len, k0 + span);
    int y0 = by * bh, y1 = min (height, y0 + bh);
    __global ushort *sums = work + (size_t) (by - first) * 2 * row_len;
    __global uchar *pat = (__global uchar *) (sums + row_len);
    int k = k0;
    uint n_full = (uint) (bw * (y1 - y0));
    float inv = 1.0f / (float) n_full;

    if (small == 2)
        k = mosaic_x16_rgb (src, in_pitch, dst, out_pitch, k, k1, y0, y1, bw,
                            n_full, inv);
    if (small == 1)
        k = mosaic_x16_lanes (src, in_pitch, dst, out_pitch, pat, k, k1, y0,
                              y1, bw, pstride, dense, luma, n_full, inv);
    /* the first byte the vectors left to the blocks one at a time */
    int kv = k;

    for (; k + 16 <= k1; k += 16) {
        __global const uchar *col = src + (size_t) y0 * in_pitch + k;
        ushort16 acc = (ushort16) (0);
        for (int y = y0; y < y1; y++, col += in_pitch)
            acc += convert_ushort16 (CLB_LOAD16 (uchar, col));
        CLB_STORE16 (ushort, acc, sums + k);
    }
    for (; k < k1; k++) {
        uint acc = 0;
        for (int y = y0; y < y1; y++)
            acc += src[(size_t) y * in_pitch + k];
        sums[k] = (ushort) acc;
    }

    /* where the job shares its pixels: the lanes of a 16-byte step that
     * are the job's; the others' pat bytes set (never stored) */
    uchar lanes[16];
    uchar16 mask = (uchar16) (0);
    if (!dense) {
        for (int j = 0; j < 16; j++) {
            int o = j % pstride, mine = 0;
            for (int c = 0; c < channels; c++)
                mine |= clb_comp (off, c) == o;
            lanes[j] = mine ? 0xff : 0;
            if (!mine) {
                for (int i = k0 + j; i < k1; i += 16)
                    pat[i] = 0;
            }
        }
        mask = vload16 (0, lanes);
    }
    mosaic_x16_blocks (sums, pat, kv, k1, y0, y1, bw, pstride, off, channels,
                       luma);

    /* small blocks of a dense job stored their vectors' bytes already */
    int kc = dense && small != 0 ? kv : k0;
    for (int y = y0; y < y1; y++) {
        __global uchar *row = dst + (size_t) y * out_pitch;
        if (dense) {
            for (k = kc; k + 16 <= k1; k += 16)
                CLB_STORE16 (uchar, CLB_LOAD16 (uchar, pat + k), row + k);
            for (; k < k1; k++)
                row[k] = pat[k];
        } else {
            for (k = k0; k + 16 <= k1; k += 16)
                CLB_STORE16 (uchar, select (CLB_LOAD16 (uchar, row + k),
                                            CLB_LOAD16 (uchar, pat + k),
                                            mask), row + k);
            for (; k < k1; k++) {
                if (lanes[(k - k0) & 15])
                    row[k] = pat[k];
            }
        }
    }
}
#endif
