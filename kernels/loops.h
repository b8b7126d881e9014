/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernels' loop shapes, written once for the kernels and the host.
 *
 * Some devices end a kernel's loops after a number of iterations (see
 * ClbDeviceProfile.loop_budget); the host then takes a variant only where
 * its costliest work-item stays under that cap. This file holds the sizes
 * that shape those kernels' loops and, beside them, how many iterations a
 * work-item walks, so that the kernels (it is embedded first, before
 * common.cl) and the host's usable() checks (gst/clblur/engine*.c include
 * it) read the same numbers. A change to a loop counted here changes its
 * macro here.
 *
 * Plain macros, valid C and OpenCL C; the CLB_LOOPS_* ones are used by the
 * host only, with 64-bit unsigned arguments.
 */
#ifndef CLB_LOOPS_H
#define CLB_LOOPS_H

/* Samples in a vector step of the x16 kernels. */
#define CLB_LANES 16

/* separable_columns / separable_rows: the widest strip of columns a
 * work-item takes. */
#define CLB_SEPARABLE_MAX_STRIP 16

/* bilateral_x16's edge blocks stage each window row's span in private
 * memory, CLB_EDGE_SPAN pixels: CLB_EDGE_TAPS taps of a 16-pixel block at
 * a time. */
#define CLB_EDGE_SPAN 64
#define CLB_EDGE_TAPS (CLB_EDGE_SPAN - (CLB_LANES - 1))

/* separable_columns, a strip of @strip columns: the 2 ry + 1 rows of the
 * first window (and the loop's own step), @strip samples each, then its
 * set-up. */
#define CLB_LOOPS_SEPARABLE_COLUMNS_START(strip, ry) \
  ((2 * (ry) + 2) * ((strip) + 2) + (strip) + 4)

/* separable_fused_x16: moving the window sums down a row, @row_len
 * samples: the vector steps and up to CLB_LANES - 1 samples, plus the
 * move's set-up. */
#define CLB_LOOPS_SEPARABLE_FUSED_MOVE(row_len) \
  ((row_len) / CLB_LANES + (CLB_LANES - 1) + 3)

/* separable_fused_x16: the apron each side of its row of vertical sums,
 * in elements (samples of the row), so that every load of a step of @c
 * samples a pixel, (rx + 1) c back and rx c + CLB_LANES on, stays
 * inside: a multiple of CLB_LANES. */
#define CLB_FUSED_APRON(rx, c) \
  ((((rx) + 1) * (c) + 2 * CLB_LANES - 1) / CLB_LANES * CLB_LANES)

/* separable_fused_x16 (separable_row), a row of @c channels walked
 * in @steps vector steps: the aprons' fill (each side CLB_FUSED_APRON),
 * the first window's vector loads ((2 rx + 1) c samples, at least
 * CLB_LANES - 1 a load), the steps (twice: the fast loop and the steps
 * near the ends), the lane-by-lane store of the last. */
#define CLB_LOOPS_SEPARABLE_FUSED_ROW(rx, c, steps) \
  (2 * CLB_FUSED_APRON (rx, c) + ((2 * (rx) + 1) * (c)) / (CLB_LANES - 1) + 2 \
   + 2 * (steps) + CLB_LANES + 8)

/* separable_fused_422_x16: the apron each side of its row of vertical
 * sums, in elements (bytes of the row), so that every load of a step,
 * 2 rx + 2 luma bytes or 4 rc + 4 chroma bytes back, 2 rx or 4 rc and
 * CLB_LANES on, stays inside: a multiple of CLB_LANES. */
#define CLB_422_APRON(rx, rc) \
  ((((2 * (rx) > 4 * (rc) ? 2 * (rx) : 4 * (rc)) + 2 * CLB_LANES - 1) \
    / CLB_LANES) * CLB_LANES)

/* separable_fused_422_x16 (separable_row), a row of packed 4:2:2
 * walked in @steps steps of CLB_LANES bytes: the aprons' fill (each side
 * CLB_422_APRON), the three channels' first windows (2 rx + 1 luma
 * pixels, 2 rc + 1 chroma pixels twice), the steps and the lane-by-lane
 * store of the last. */
#define CLB_LOOPS_SEPARABLE_422_ROW(rx, rc, steps) \
  (2 * CLB_422_APRON (rx, rc) + (2 * (rx) + 2) + 2 * (2 * (rc) + 2) \
   + 3 * (steps) + CLB_LANES + 8)

/* bilateral_x16, a window row of @c channels and width 2 rx + 1: a tap
 * a pixel, and at the row's ends the span staged, CLB_EDGE_SPAN pixels
 * (a channel loop each, and the distance) for every CLB_EDGE_TAPS taps
 * (inner blocks do less besides their taps: the row's 2 rx + 1 spatial
 * exponents, and with several channels its span staged 16 pixels a
 * step). */
#define CLB_LOOPS_BILATERAL_X16_ROW(rx, c) \
  ((2 * (rx) + 1) + ((2 * (rx) + 1) + CLB_EDGE_TAPS - 1) / CLB_EDGE_TAPS \
   * (CLB_EDGE_SPAN * ((c) + 2) + 1))

/* bilateral_x16, a block: the 2 ry + 1 window rows (and their set-up),
 * the centre's gather of CLB_LANES pixels, the row of spatial exponents
 * (windows up to CLB_EDGE_SPAN wide), the result. */
#define CLB_LOOPS_BILATERAL_X16(rx, ry, c) \
  ((2 * (ry) + 1) * (CLB_LOOPS_BILATERAL_X16_ROW (rx, c) + 2) \
   + CLB_LANES * ((c) + 2) + 1 \
   + (2 * (rx) + 1 <= CLB_EDGE_SPAN ? 2 * (rx) + 2 : 0) + 40)

/* sat_ring: the loops a band walks outside its steps (set-up, the apron
 * copy's bookkeeping), counted generously. */
#define CLB_LOOPS_SAT_RING_FIXED 64

/* sat_ring, a step over a row of @row_len samples of @cn channels, counted
 * generously: the row scan (CLB_LANES - 1 new samples a vector step where
 * @dense, else one at a time), the window's terms, the vector loop over up
 * to 8 table rows, and the @edge samples near the ends (all of them one
 * at a time but for dense jobs: the next macro), each up to 8 x 8 terms
 * and their set-up (padded rows write instead (2 rx + 1) @cn entries
 * of pad, one a loop iteration, and take their ends in the vector
 * loop: fewer). */
#define CLB_LOOPS_SAT_RING_STEP(row_len, cn, dense, edge) \
  (((dense) ? (row_len) / (CLB_LANES - 1) + 20 : 2 * (row_len) + 8) \
   + 80 + ((row_len) / CLB_LANES + 2) * 10 + (edge) * 100 \
   + (row_len) / (cn) * 60)

/* sat_ring: the samples near a row's ends that a step takes one at a
 * time: for dense jobs those whose window leaves the row, else all. */
#define CLB_LOOPS_SAT_RING_EDGE(row_len, rx, cn, dense) \
  (!(dense) ? (row_len) \
   : (row_len) < (2 * (rx) + 3) * (cn) + 2 * CLB_LANES ? (row_len) \
   : (2 * (rx) + 3) * (cn) + 2 * CLB_LANES)

/* mosaic_columns / mosaic_blocks, a block of @bw x @bh samples: its rows,
 * then its columns and rows, and their set-up. */
#define CLB_LOOPS_MOSAIC(bw, bh) ((bw) + (bh) + 8)

/* mosaic_x16, a band of block rows @span bytes wide, @bh rows a block: the
 * column sums (CLB_LANES bytes a step, up to CLB_LANES - 1 one at a time)
 * and the copies down the rows, the means, and the set-up. */
#define CLB_LOOPS_MOSAIC_X16(span, bh) \
  (((span) / CLB_LANES + CLB_LANES) * ((bh) + 2) * 2 + 2 * (span) + 64)

#endif /* CLB_LOOPS_H */
