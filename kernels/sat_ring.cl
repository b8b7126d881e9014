/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Box blur through a summed-area table, shaped for CPUs: the table of a
 * band of rows is built and read in one pass, in a ring of rows that
 * stays in cache.
 *
 *   sat_ring  one work-item per band of output rows; it walks down the
 *             rows its windows reach, for each row the row's prefix sums
 *             (a row scan) added to the table row above (the column
 *             scan), into a ring of 2 ry + 2 table rows; as soon as the
 *             table row y + ry is done, output row y from the four
 *             corners of its windows (table rows y + ry and y - ry - 1).
 *
 * Table rows are the sat_scan_rows / sat_scan_columns ones (sat.cl),
 * row j in ring slot j % ring, entry (x, c) at x * channels + c. A band
 * below the top starts its column scan at its first row s0 (no carry
 * from above): its entries are the frame's table less row s0 - 1's, which
 * every box sum it takes cancels (each window sum along y is a
 * combination of table rows whose coefficients sum to 0 once the window
 * does not reach above the frame, and those of bands at the top start at
 * row 0). Along x the rows are whole: any term clb_border_window gives
 * is there.
 * Along y, while 2 ry + 2 < height every row a border term names lies
 * within rows y - ry - 1 .. y + ry (one reflection suffices); otherwise
 * ring is the height, the whole table, one band, and it is built before
 * any row is written.
 *
 * Where the frame is filtered in place (src is dst) a band writes its own
 * rows only, and the rows it reads outside them (up to ry + 1 above, ry
 * below, which its neighbours write) come from a copy the engine makes
 * before the launch (the apron, after the rings in work). From one buffer
 * into another (the caller's memory) there is no apron (apron_rows 0):
 * every row from src.
 *
 * 8-bit dense jobs (channels back to back, samples as stored) take 16
 * samples a step in vector lanes: the row scan a lane scan
 * (separable_scan16), the box two unaligned vector loads per table row
 * and a division in float corrected to the exact quotient
 * (separable_fix16). Where rx <= width - 2 and the row has 16 samples
 * (padded), each table row carries the border-extended prefix sums of
 * the rx + 1 pixels before it and rx after (sat_ring_pad), so that the
 * samples near the row's ends take the same vector steps (shrink: each
 * lane divided by its own clipped count). A packed 8-bit job whose
 * pixels are 2 or 4 bytes (YUY2's Y and UV jobs, RGBx's colours) runs
 * as a dense one of that many channels, padded only: each byte a
 * channel of its own, the bytes of the pixel that are not the job's
 * (keep, a bit each) computed too and left as the output has them. Other
 * jobs, and dense ones whose rows are not padded (too narrow for a step
 * whose window the row's ends do not clip), go one pixel at a time:
 * sat.cl's four corners (SHRINK) or border terms (sat_terms_pixel).
 *
 * A launch runs steps t_begin .. t_end - 1 of each band (a step: a row
 * scanned and at most one written); the ring carries the band's state
 * from one launch to the next on devices that cap loops.
 */

/* Row j of a band (rows ya .. yb - 1 of src, the others from its apron:
 * s0 .. ya - 1, then yb .. ; every row from src where there is no apron,
 * apron_rows 0) */
__global const sample_t *
sat_ring_source (__global const sample_t *src, __global const sample_t *apron,
                 int pitch, int j, int s0, int ya, int yb, int apron_rows)
{
    if (apron_rows == 0 || (j >= ya && j < yb))
        return src + (size_t) j * pitch;
    return apron + (size_t) (j < ya ? j - s0 : ya - s0 + j - yb) * pitch;
}

/* A padded table row (dense 8-bit jobs with rx <= width - 2): the
 * entries of pixels -rx - 1 .. -1 before the row and width .. width +
 * rx - 1 after it, each the prefix sum U(n) of the border-extended row
 * (CLB_BORDER_PREFIX_BEFORE and _AFTER: one reflection at most) in
 * terms of the row's own entries T(p). Linear in the row's entries, so
 * right for the column sums and for a band's table less row s0 - 1 as
 * the row is. A window's sum along
 * x is then U(x + rx) - U(x - rx - 1) at every x, two vector loads. */
void
sat_ring_pad (__global wide_t *cur, int width, int channels, int rx,
              int border)
{
    __global wide_t *last = cur + (width - 1) * channels;

    for (int c = 0; c < channels; c++) {
        wide_t t0 = cur[c], tl = last[c], tp = last[c - channels];
        __global wide_t *before = cur + c - channels;
        __global wide_t *after = last + c + channels;

        /* a loop for each border, with the border constant */
#define SAT_RING_PAD(B)                                                     \
        for (int m = 0; m <= rx; m++)                                       \
            before[-m * channels] = CLB_BORDER_PREFIX_BEFORE (              \
                B, -m - 1, t0, cur[m * channels + c]);                      \
        for (int e = 0; e < rx; e++)                                        \
            after[e * channels] = CLB_BORDER_PREFIX_AFTER (                 \
                B, width + e, width, tl, tp, last[c - (e + 2) * channels]);
        if (border == CLB_BORDER_SHRINK) {
            SAT_RING_PAD (CLB_BORDER_SHRINK)
        } else if (border == CLB_BORDER_REPLICATE) {
            SAT_RING_PAD (CLB_BORDER_REPLICATE)
        } else {
            SAT_RING_PAD (CLB_BORDER_REFLECT)
        }
#undef SAT_RING_PAD
    }
}

/* Table row cur = prefix sums of the samples of row (+ prev, the table
 * row above, where has_prev). */
void
sat_ring_scan (__global const sample_t *row, int pstride, int4 off,
               int swap, int shift, __global wide_t *cur,
               __global const wide_t *prev, int has_prev, int width,
               int channels, int dense, int rx, int border, int padded)
{
    int row_len = width * channels;
#if CLB_SAMPLE_BITS == 8
    if (dense) {
        int used = 16 / channels * channels, k = 0;
        uint16 carry = (uint16) (0), z = separable_zero16 (width);
        /* (two loops: no load of prev, not even a speculative one, in
         * the band's first row) */
#define SAT_RING_SCAN16(PREV)                                               \
        for (; k + 16 <= row_len; k += used) {                              \
            uint16 sum = carry + separable_scan16 (convert_uint16           \
                                                   (CLB_LOAD16 (uchar,      \
                                                                row + k)), \
                                                   channels, z);            \
            carry = separable_lanes_last (sum, channels, -1);              \
            CLB_STORE16 (uint, sum PREV, cur + k);                          \
        }
        if (has_prev)
            SAT_RING_SCAN16 (+ CLB_LOAD16 (uint, prev + k))
        else
            SAT_RING_SCAN16 ()
#undef SAT_RING_SCAN16
        /* the rest one at a time, from each channel's running sum (lane
         * c of carry) */
        uint acc[16];
        vstore16 (carry, 0, acc);
        for (; k < row_len; k++) {
            int c = k % channels;
            acc[c] += row[k];
            cur[k] = has_prev ? acc[c] + prev[k] : acc[c];
        }
        if (padded)
            sat_ring_pad (cur, width, channels, rx, border);
        return;
    }
#endif
    for (int c = 0; c < channels; c++) {
        size_t s = clb_comp (off, c);
        wide_t acc = 0;
        for (int k = c; k < row_len; k += channels, s += pstride) {
            acc += clb_load (row, s, swap, shift);
            cur[k] = has_prev ? acc + prev[k] : acc;
        }
    }
}

#if CLB_SAMPLE_BITS == 8
/* The steps of 16 samples from k of a padded row (sat_ring_emit) up to
 * end, whose windows the row's ends do not clip, from table row b less
 * row a (pair), or b alone: four loads (two), the mean, the store (with
 * keep, the bytes of a pixel that are not the job's, keep16, as the
 * output has them: packed jobs, whose pixels of 2 or 4 bytes the kernel
 * filters whole). Inlined with constant pair. Returns the next step's
 * k. */
CLB_INLINE int
sat_ring_fast (__global const uint *a, __global const uint *b,
               __global uchar *out, int k, int end, int ahead, int behind,
               separable_divisor dv, int pair, int keep, uchar16 keep16)
{
    for (; k <= end; k += 16) {
        uint16 v = CLB_LOAD16 (uint, b + k + ahead)
            - CLB_LOAD16 (uint, b + k - behind);
        if (pair)
            v -= CLB_LOAD16 (uint, a + k + ahead)
                - CLB_LOAD16 (uint, a + k - behind);
        CLB_STORE16 (uchar, separable_kept16 (separable_mean16 (v, dv), out,
                                              k, keep, keep16), out + k);
    }
    return k;
}

/* Any step of a padded row: at k0, or where that passes the row's end
 * at its last 16 samples (writing again some of the step before); the
 * table's terms in general (terms) or a pair / one row as
 * sat_ring_fast; with shrink, windows the row's ends clip divided lane
 * by lane by their own counts. */
void
sat_ring_step (__global const uint *table, const size_t *rows,
               const clb_terms *ty, __global const uint *a,
               __global const uint *b, __global uchar *out, int k0,
               int row_len, int ahead, int behind, int channels, int width,
               int rx, uint ny, separable_divisor dv, int shrink, int terms,
               int keep, uchar16 keep16)
{
    int k = min (k0, row_len - 16);
    uint16 v;
    if (!terms) {
        v = CLB_LOAD16 (uint, b + k + ahead)
            - CLB_LOAD16 (uint, b + k - behind);
        if (a != b)
            v -= CLB_LOAD16 (uint, a + k + ahead)
                - CLB_LOAD16 (uint, a + k - behind);
    } else {
        v = (uint16) (0);
        for (int j = 0; j < ty->n; j++) {
            __global const uint *t = table + rows[j] + k;
            v += (uint16) (ty->coef[j])
                * (CLB_LOAD16 (uint, t + ahead)
                   - CLB_LOAD16 (uint, t - behind));
        }
    }
    uint16 q;
    if (shrink && (k < ahead || k + 16 > row_len - ahead)) {
        /* windows clipped to the row: each lane its own count */
        int16 x = ((int16) (k) + CLB_IOTA) / (int16) (channels);
        int16 nx = CLB_SHRINK_COUNT (int16, x, rx, width);
        uint16 area = convert_uint16 (nx) * (uint16) (ny);
        q = separable_div16 (v + area / 2, area);
    } else {
        q = separable_mean16 (v, dv);
    }
    CLB_STORE16 (uchar, separable_kept16 (q, out, k, keep, keep16), out + k);
}
#endif

/* Output row y from the table rows in the ring, rows tstride entries
 * apart, entry 0 of each at lpad (padded rows: sat_ring_pad). */
void
sat_ring_emit (__global const wide_t *table, int ring, int tstride, int lpad,
               __global sample_t *dst, int pitch, int pstride, int4 off,
               int swap, int shift, int width, int height, int channels,
               int rx, int ry, int border, int keep, int y)
{
    size_t o = (size_t) y * pitch;
    clb_terms ty;
    uint ny;
    size_t rows[CLB_MAX_TERMS];

    clb_border_window (&ty, y - ry, y + ry, height, border, &ny);
    for (int j = 0; j < ty.n; j++)
        rows[j] = clb_slot (ty.idx[j], ring) * tstride + lpad;
#if CLB_SAMPLE_BITS == 8
    if (lpad > 0) {
        /* padded rows: every sample 16 at a time, the last step ending at
         * the row's end (it writes again some of the step before it) */
        int row_len = width * channels;
        uint full = (uint) (2 * rx + 1) * ny;
        separable_divisor dv = separable_divisor_of (full);
        int ahead = rx * channels, behind = (rx + 1) * channels;
        int shrink = border == CLB_BORDER_SHRINK;
        __global const uint *b = table + rows[0];
        __global const uint *a = table + (ty.n > 1 ? rows[1] : rows[0]);
        int pair = ty.n == 2 && ty.coef[0] == 1 && ty.coef[1] == (uint) -1;
        int single = ty.n == 1 && ty.coef[0] == 1;
        /* the kept lanes: every step starts at a pixel (keep: pixels of
         * 2 or 4 bytes, rows a whole number of them) */
        uchar16 keep16 = separable_keep16 (keep, channels);
        int k0 = 0;
        if (pair || single) {
            /* the steps whose windows the row's ends clip (shrink), the
             * ones between without a test (a pair of table rows, or one,
             * inlined each), then the rest */
            int clip = shrink ? ahead : 0;
            for (; k0 < row_len && k0 < clip; k0 += 16)
                sat_ring_step (table, rows, &ty, a, b, dst + o, k0, row_len,
                               ahead, behind, channels, width, rx, ny, dv,
                               shrink, 0, keep, keep16);
            int end = row_len - 16 - clip;
            k0 = pair ? sat_ring_fast (a, b, dst + o, k0, end, ahead, behind,
                                       dv, 1, keep, keep16)
                : sat_ring_fast (a, b, dst + o, k0, end, ahead, behind, dv, 0,
                                 keep, keep16);
        }
        for (; k0 < row_len; k0 += 16)
            sat_ring_step (table, rows, &ty, a, b, dst + o, k0, row_len,
                           ahead, behind, channels, width, rx, ny, dv,
                           shrink, !(pair || single), keep, keep16);
        return;
    }
#endif
    /* one pixel at a time: with SHRINK the four corners (the table rows
     * a band holds, see above), else the border's terms */
    for (int x = 0; x < width; x++) {
        if (border == CLB_BORDER_SHRINK)
            sat_corners (table, dst, pitch, pstride, off, swap, shift, width,
                         height, channels, rx, ry, ring, x, y);
        else
            sat_terms_pixel (table, rows, &ty, ny, dst, o, pstride, off,
                             swap, shift, width, channels, rx, border, x);
    }
}

/* One work-item per band of band_rows output rows. work holds bands
 * rings of ring table rows (of row_len entries, or padded: rx + 1 pixels
 * more before, rx after, sat_ring_pad), then bands aprons of apron_rows
 * rows of pitch samples. */
__kernel void
sat_ring (__global const sample_t *src, int pitch, int pstride, int4 off,
          int swap, int shift, __global sample_t *dst, int dst_pitch,
          __global wide_t *work, int width, int height, int channels, int rx,
          int ry, int border, int dense, int padded, int keep, int bands,
          int band_rows, int ring, int apron_rows, int t_begin, int t_end)
{
    int b = get_global_id (0);
    if (b >= bands)
        return;

    size_t row_len = (size_t) width * channels;
    /* table rows: padded, rx + 1 pixels before, rx after */
    int lpad = padded ? (rx + 1) * channels : 0;
    int tstride = (int) row_len + (padded ? (2 * rx + 1) * channels : 0);
    int whole = ring >= height;
    int ya = b * band_rows, yb = min (height, ya + band_rows);
    int s0 = bands > 1 ? max (0, ya - ry - 1) : 0;
    int e1 = whole ? height : min (height, yb + ry);
    /* rows written after the last row is scanned */
    int tail = whole ? ya : max (ya, e1 - ry);
    int n_scan = e1 - s0, n_steps = n_scan + (yb - tail);
    __global wide_t *table = work + (size_t) b * ring * tstride;
    __global const sample_t *apron = (__global const sample_t *)
        (work + (size_t) bands * ring * tstride)
        + (size_t) b * apron_rows * pitch;

    for (int t = t_begin; t < min (t_end, n_steps); t++) {
        if (t < n_scan) {
            int j = s0 + t;
            sat_ring_scan (sat_ring_source (src, apron, pitch, j, s0, ya, yb,
                                            apron_rows),
                           pstride, off, swap, shift,
                           table + clb_slot (j, ring) * tstride + lpad,
                           table + clb_slot (max (j - 1, 0), ring) * tstride
                           + lpad, j > s0, width, channels, dense, rx,
                           border, padded);
            int y = j - ry;
            if (whole || y < ya || y >= yb)
                continue;
            sat_ring_emit (table, ring, tstride, lpad, dst, dst_pitch,
                           pstride, off, swap, shift, width, height, channels,
                           rx, ry, border, keep, y);
        } else {
            sat_ring_emit (table, ring, tstride, lpad, dst, dst_pitch,
                           pstride, off, swap, shift, width, height, channels,
                           rx, ry, border, keep, tail + t - n_scan);
        }
    }
}
