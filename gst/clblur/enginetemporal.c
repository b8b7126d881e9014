/* clboxblur engine: method temporal, its state, tables and runs.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each frame of a job: the noise histogram (temporal_noise), read back
 * without a host wait and taken two frames later (the first frame's at
 * once); each pixel's difference from the history (temporal_diff); the
 * blend with the history where a 5 x 5 patch of them agrees
 * (temporal_blend, from one history buffer into the other); the
 * bilateral on the blended history at the noise left (temporal_spatial;
 * on CPUs, 8-bit samples, temporal_blend_x16 and temporal_spatial_x16:
 * 16 pixels of a row in vector lanes, where their loads stay in the row,
 * the other kernels on the columns left). Integer
 * tables from the level, made here as ref_temporal_tables defines them
 * (tests/reference/refblur.h), uploaded without a host wait when the
 * level changes. The history is planar: a plane a channel.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "engineprivate.h"

/* the agreement threshold and the range sigma in the noise left */
#define AGREE 1.2
#define KEEP 1.08
#define RANGE_SIGMAS 3.0
#define ONE (1u << 24)          /* 2^0 in the weights' exponents */

/* 10th percentile of the histogram's bins for Gaussian noise of sigma 1,
 * over D = 1..4 judged channels (measured: scripts/temporal-psnr.py) */
static const gdouble noise_k[5] = { 1.0, 3.808, 4.085, 4.212, 4.285 };

static guint
depth_shift (guint max_value)
{
  guint bits = g_bit_storage (max_value);

  return bits > 8 ? bits - 8 : 0;
}

/* The level (1/16 of an 8-bit unit) of histogram @hist, or -1: none. */
static gint
noise_level (const guint32 * hist, guint d, guint max_value)
{
  guint64 total = 0, cum = 0;
  guint b;

  for (b = 0; b < CLB_NOISE_BINS; b++)
    total += hist[b];
  if (total == 0 || d < 1 || d > 4)
    return -1;
  for (b = 0; b < CLB_NOISE_BINS && (cum += hist[b]) * 10 < total; b++);
  return (gint) floor (16.0 * (b + 0.5) * (1 << depth_shift (max_value))
      / 8.0 / noise_k[d] * 255.0 / max_value + 0.5);
}

static void
fold_level (ClbTemporalJob * t, gint e)
{
  if (e < 0)
    return;
  if (t->level < 0)
    t->level = e;
  t->level = (3 * t->level + e + 2) >> 2;
}

/* weight[cap + 1], agree[cap + 1], keep[cap + 1], mul[cap + 1],
 * kcut[cap + 1] (the range's exponent of 2: min (k, kcut) mul), spatial
 * (each tap's exponent) */
static void
make_tables (guint32 * tab, gint level, guint reach, guint d,
    guint max_value, gint rx, gint ry, gdouble ss)
{
  guint cap = 2 * reach, n;
  gdouble sigma = level / 16.0 * max_value / 255.0, var = 0.0;
  guint32 *sp = tab + 5 * (cap + 1);
  gint dx, dy, rshift = 6 + depth_shift (max_value);
  gdouble unit = (gdouble) (1 << rshift) / 256.0;

  memset (tab, 0, 5 * (cap + 1) * sizeof (guint32));
  for (n = 1; n <= cap; n++) {
    gdouble a, sr, m;

    tab[n] = (guint32) floor (256.0 / MIN (n, reach) + 0.5);
    a = tab[n] / 256.0;
    var = (1 - a) * (1 - a) * var + a * a;
    tab[cap + 1 + n] = (guint32) floor (AGREE * sigma * 256.0 *
        sqrt (2.0 / G_PI) * sqrt (1.0 + var) * 25 * d + 0.5);
    tab[2 * (cap + 1) + n] = (guint32) floor (KEEP * sigma * 256.0 *
        sqrt (2.0 / G_PI) * sqrt (1.0 + var) * 25 * d + 0.5);
    sr = RANGE_SIGMAS * sigma * sqrt (var);
    m = sr > 0 ? floor (ONE * M_LOG2E * unit * unit / (2 * sr * sr) + 0.5)
        : ONE;
    tab[3 * (cap + 1) + n] = (guint32) CLAMP (m, 1, ONE);
    tab[4 * (cap + 1) + n] = (9 * ONE + tab[3 * (cap + 1) + n] - 1) /
        tab[3 * (cap + 1) + n];
  }
  for (dy = -ry; dy <= ry; dy++)
    for (dx = -rx; dx <= rx; dx++)
      *sp++ = ss > 0 ? (guint32) MIN (floor (ONE * M_LOG2E * (dx * dx +
                  dy * dy) / (2 * ss * ss) + 0.5), 9.0 * ONE) : 0;
}

static gboolean
grow (ClbEngine * engine, cl_mem * mem, gsize size, GError ** error)
{
  gsize none = 0;

  return clb_engine_grow_buffer (engine, mem, &none, size,
      CL_MEM_READ_WRITE, error);
}

/* The job's buffers for @width x @height pixels of @channels; new ones
 * start fresh. The history's values: a sample and 8 fraction bits, in 16
 * bits for 8-bit samples (kernels/common.cl's hist_t). */
static gboolean
ensure_state (ClbEngine * engine, ClbTemporalJob * t, guint width,
    guint height, guint channels, GError ** error)
{
  gsize pixels = (gsize) width * height;
  gsize bytes = pixels * channels * (engine->planes.sample_size
      == CLB_SAMPLES_8 ? sizeof (cl_ushort) : sizeof (cl_uint));
  gpointer zeros;
  gboolean ok;

  /* the D buffer's size is the shape's, not the samples' count */
  if (t->bytes == bytes && t->width == width && t->height == height)
    return TRUE;
  t->bytes = 0;
  t->fresh = TRUE;
  if (!grow (engine, &t->history[0], bytes, error)
      || !grow (engine, &t->history[1], bytes, error)
      || !grow (engine, &t->count, pixels, error)
      || !grow (engine, &t->diff, (gsize) (width + 4) * (height + 4)
          * sizeof (cl_uint), error)
      || (!t->hist && !grow (engine, &t->hist,
              CLB_NOISE_BINS * sizeof (cl_uint), error)))
    return FALSE;
  /* written once, so that no kernel reads memory never written (the
   * first frame's blend reads none of it: fresh) */
  zeros = g_malloc0 (bytes);
  ok = clb_engine_upload (engine, t->history[0], zeros, bytes,
      "clEnqueueWriteBuffer (temporal)", error)
      && clb_engine_upload (engine, t->history[1], zeros, bytes,
      "clEnqueueWriteBuffer (temporal)", error)
      && clb_engine_upload (engine, t->count, zeros, pixels,
      "clEnqueueWriteBuffer (temporal)", error);
  g_free (zeros);
  if (ok) {
    t->bytes = bytes;
    t->width = width;
    t->height = height;
  }
  return ok;
}

/* The tables for this frame in t->tables, uploaded where they changed
 * from host memory kept until the upload is done (two in turn). */
static gboolean
upload_tables (ClbEngine * engine, ClbTemporalJob * t, gint level,
    guint reach, guint d, const ClbRun * r, GError ** error)
{
  gint64 key[6] = { level, reach, d, r->rx, r->ry,
    (gint64) (r->params->sigma_spatial * 1e6)
  };
  gsize n = (2 * reach + 1) * 5 + (2 * r->rx + 1) *
      (2 * r->ry + 1), bytes = n * sizeof (guint32);
  guint k = t->tables_turn ^= 1;

  if (t->tables_bytes && memcmp (key, t->tables_key, sizeof (key)) == 0)
    return TRUE;
  if (t->upload[k]) {
    clWaitForEvents (1, &t->upload[k]);
    clReleaseEvent (t->upload[k]);
    t->upload[k] = NULL;
  }
  if (bytes > t->tables_bytes) {
    /* the other upload reads the buffer being replaced: done first */
    if (t->upload[k ^ 1])
      clWaitForEvents (1, &t->upload[k ^ 1]);
    t->tables_bytes = 0;
    if (!grow (engine, &t->tables, bytes, error))
      return FALSE;
    g_free (t->tables_host[0]);
    g_free (t->tables_host[1]);
    t->tables_host[0] = g_new (guint32, n);
    t->tables_host[1] = g_new (guint32, n);
    t->tables_bytes = bytes;
  }
  make_tables (t->tables_host[k], level, reach, d, engine->planes.max_value,
      r->rx, r->ry, r->params->sigma_spatial);
  memset (t->tables_key, 0, sizeof (t->tables_key));
  CHECK (clEnqueueWriteBuffer (engine->queue, t->tables, CL_FALSE, 0, bytes,
          t->tables_host[k], 0, NULL, &t->upload[k]),
      "clEnqueueWriteBuffer (temporal tables)");
  memcpy (t->tables_key, key, sizeof (key));
  return TRUE;

failed:
  return FALSE;
}

/* The noise histogram of frame n, read back into slot n & 1 without a
 * host wait (frame 0's at once) and taken at frame n + 2, waited for
 * only if its read is not done by then: the level frame n is filtered at
 * is frames 0 .. n - 2's (frames 0 and 1 at frame 0's), as
 * ref_temporal_frame's. */
static gboolean
run_noise (ClbEngine * engine, ClbTemporalJob * t, const ClbRun * r,
    guint d, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbJob *job = r->job;
  cl_kernel kernel = engine->kernels[planes->sample_size][K_TEMPORAL_NOISE];
  /* a work-item a block, in groups of 32 x 2, the rest returning */
  size_t local[2] = { 32, 2 }, global[2];
  const cl_uint zero = 0;
  guint k = t->turn;
  ClbArgs a = clb_engine_args (engine, kernel);

  if (t->frames >= 3 && t->read[k]) {
    if (clb_landing_state (t->read_done[k]) == 0)
      CHECK (clWaitForEvents (1, &t->read[k]), "clWaitForEvents (noise)");
    clb_temporal_drop_read (t, k, FALSE);
    fold_level (t, noise_level (t->hist_host[k], d, planes->max_value));
  }
  clb_args_layout (&a, r->in, planes, job);
  clb_args_size (&a, job);
  clb_arg_int (&a, job->dist_mask);
  clb_arg_int (&a, planes->max_value);
  clb_arg_int (&a, depth_shift (planes->max_value));
  clb_arg_int (&a, d);
  clb_arg_mem (&a, t->hist);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clEnqueueFillBuffer (engine->queue, t->hist, &zero, sizeof (zero),
          0, CLB_NOISE_BINS * sizeof (cl_uint), 0, NULL, NULL),
      "clEnqueueFillBuffer (noise)");
  while (local[0] * local[1] > MAX (engine->profile.max_work_group_size, 1))
    local[local[0] > local[1] ? 0 : 1] /= 2;
  global[0] = (MAX (job->width / 8, 1) + local[0] - 1) / local[0] * local[0];
  global[1] = (MAX (job->height / 8, 1) + local[1] - 1) / local[1] * local[1];
  CHECK (clb_engine_run_kernel (engine, kernel, 2, global, local,
          "temporal_noise"), "clEnqueueNDRangeKernel (temporal_noise)");
  CHECK (clEnqueueReadBuffer (engine->queue, t->hist, t->frames == 0, 0,
          sizeof (t->hist_host[k]), t->hist_host[k], 0, NULL,
          t->frames == 0 ? NULL : &t->read[k]), "clEnqueueReadBuffer (noise)");
  if (t->frames == 0)
    fold_level (t, noise_level (t->hist_host[k], d, planes->max_value));
  else
    t->read_done[k] = clb_landing_new (t->read[k]);
  t->frames += t->frames < 3;
  return TRUE;

failed:
  return FALSE;
}

/* Where @t is to start afresh: the reads of the frames before dropped
 * unwaited (the queue runs in order, so they are done before this
 * frame's reads), no level yet. */
static void
start_fresh (ClbTemporalJob * t)
{
  if (!t->fresh)
    return;
  clb_temporal_drop_read (t, 0, FALSE);
  clb_temporal_drop_read (t, 1, FALSE);
  t->level = -1;
  t->frames = 0;
  t->fresh = FALSE;
}

static guint
judged_channels (const ClbJob * job)
{
  guint d = 0, c;

  for (c = 0; c < job->channels; c++)
    d += (job->dist_mask >> c) & 1u;
  return d;
}

gboolean
clb_engine_noise_range (ClbEngine * engine, const ClbRun * r,
    gdouble * sigma_range, GError ** error)
{
  ClbTemporalJob *t = &engine->temporal[CLB_NOISE_STATE];
  gint level;

  if (r->params->noise_level > 0)
    level = (gint) floor (r->params->noise_level * 16 + 0.5);
  else {
    if (t->hist == NULL) {
      if (!grow (engine, &t->hist, CLB_NOISE_BINS * sizeof (cl_uint), error))
        return FALSE;
      t->fresh = TRUE;
    }
    start_fresh (t);
    if (!run_noise (engine, t, r, judged_channels (r->job), error))
      return FALSE;
    t->turn ^= 1;               /* the histogram's slot */
    engine->noise_level = t->level;
    /* as temporal takes it: none yet 8, 0 taken as 1/16 */
    level = t->level < 0 ? 16 * 8 : MAX (t->level, 1);
  }
  *sigma_range = r->params->range_from_noise * level / 16.0;
  return TRUE;
}

/* The blend: each pixel's D and a 2-pixel border's (temporal_diff; a
 * fresh history reads none), then the blend, from one history into the
 * other (temporal_blend; with @x16, temporal_blend_x16 on each row's
 * whole blocks of 16 pixels, temporal_blend on the rest). The kernels
 * of a work-item a pixel in groups of 64 x 2: 1080p RGBA on PoCL 5.5
 * and 10.7 ms against 6.9 and 12.5 in 16 x 8. */
static gboolean
blend_pass (ClbEngine * engine, const ClbRun * r, ClbTemporalJob * t,
    guint reach, gboolean fresh, gboolean x16, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbJob *job = r->job;
  guint size = planes->sample_size, s, full = x16 ? job->width / 16 * 16 : 0;
  size_t global[2], rows[2] = { 64, 2 }, at[2] = { full, 0 };
  ClbArgs a;

  while (rows[0] * rows[1] > MAX (engine->profile.max_work_group_size, 1))
    rows[rows[0] > 1 ? 0 : 1] /= 2;
  if (!fresh) {
    a = clb_engine_args (engine, engine->kernels[size][K_TEMPORAL_DIFF]);
    clb_args_layout (&a, r->in, planes, job);
    clb_args_size (&a, job);
    clb_arg_int (&a, job->dist_mask);
    clb_arg_mem (&a, t->history[t->turn]);
    clb_arg_mem (&a, t->diff);
    if (!clb_args_done (&a, error))
      return FALSE;
    global[0] = (job->width + 4 + rows[0] - 1) / rows[0] * rows[0];
    global[1] = (job->height + 4 + rows[1] - 1) / rows[1] * rows[1];
    CHECK (clb_engine_run_kernel (engine,
            engine->kernels[size][K_TEMPORAL_DIFF], 2, global, rows,
            "temporal_diff"), "clEnqueueNDRangeKernel (temporal_diff)");
  }
  /* the x16 kernel on columns 0 to full, temporal_blend on the rest */
  for (s = full ? 0 : 1; s < 2 && (s == 0 || full < job->width); s++) {
    guint k = s ? K_TEMPORAL_BLEND : K_TEMPORAL_BLEND_X16;

    a = clb_engine_args (engine, engine->kernels[size][k]);
    clb_args_layout (&a, r->in, planes, job);
    clb_args_size (&a, job);
    clb_arg_int (&a, job->dist_mask);
    clb_arg_mem (&a, t->history[t->turn]);
    clb_arg_mem (&a, t->history[t->turn ^ 1]);
    clb_arg_mem (&a, t->count);
    clb_arg_mem (&a, t->tables);
    clb_arg_int (&a, 2 * reach);
    clb_arg_int (&a, fresh);
    clb_arg_mem (&a, t->diff);
    if (!clb_args_done (&a, error))
      return FALSE;
    if (s == 0) {
      CHECK (clb_run_lines (engine, size, k, (size_t) full / 16 * job->height,
              "temporal_blend_x16"),
          "clEnqueueNDRangeKernel (temporal_blend_x16)");
      continue;
    }
    global[0] = (job->width - full + rows[0] - 1) / rows[0] * rows[0];
    global[1] = (job->height + rows[1] - 1) / rows[1] * rows[1];
    CHECK (clb_engine_run_kernel_at (engine, engine->kernels[size][k], 2,
            at, global, rows, "temporal_blend"),
        "clEnqueueNDRangeKernel (temporal_blend)");
  }
  t->turn ^= 1;
  return TRUE;

failed:
  return FALSE;
}

/* The spatial step: temporal_spatial, a work-item a pixel, the group's
 * tile in local memory; with @x16 temporal_spatial_x16 on each row's
 * blocks of 16 pixels whose window stays in the row (columns xa to xb),
 * temporal_spatial on the columns either side. */
static gboolean
spatial_pass (ClbEngine * engine, const ClbRun * r, ClbTemporalJob * t,
    guint reach, gboolean x16, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbJob *job = r->job;
  guint size = planes->sample_size, xa = (r->rx + 15) / 16 * 16, xb = 0;
  guint k, s;
  size_t global[2], local[2] = { 16, 8 }, at[2] = { 0, 0 };
  ClbArgs a;

  while (local[0] * local[1] > MAX (engine->profile.max_work_group_size, 1))
    local[local[0] > local[1] ? 0 : 1] /= 2;
  if (x16 && job->width >= xa + 16 + r->rx)
    xb = xa + (job->width - r->rx - xa) / 16 * 16;
  else
    xa = xb = job->width;       /* no block: the row is one strip */
  /* the x16 blocks (s 0), then the strips [0, xa) and [xb, width); an
   * empty one (radius 0, or blocks that end the row) has no launch: a
   * global size of 0 is invalid before OpenCL 2.1 */
  for (s = xb > xa ? 0 : 1; s < 3; s++) {
    guint from = s == 2 ? xb : 0, to = s == 1 ? xa : job->width;

    if (s > 0 && to == from)
      continue;
    k = s ? K_TEMPORAL_SPATIAL : K_TEMPORAL_SPATIAL_X16;
    a = clb_engine_args (engine, engine->kernels[size][k]);
    clb_args_layout (&a, r->out, planes, job);
    clb_args_size (&a, job);
    clb_arg_int (&a, job->dist_mask);
    clb_arg_int (&a, planes->max_value);
    clb_arg_int (&a, r->rx);
    clb_arg_int (&a, r->ry);
    clb_arg_int (&a, r->border);
    clb_arg_mem (&a, t->history[t->turn]);
    clb_arg_mem (&a, t->count);
    clb_arg_mem (&a, t->tables);
    clb_arg_int (&a, 2 * reach);
    clb_arg_int (&a, 6 + depth_shift (planes->max_value));
    if (s == 0) {
      clb_arg_int (&a, xa);
      clb_arg_int (&a, (xb - xa) / 16);
      if (!clb_args_done (&a, error))
        return FALSE;
      CHECK (clb_run_lines (engine, size, k, (size_t) (xb - xa) / 16 *
              job->height, "temporal_spatial_x16"),
          "clEnqueueNDRangeKernel (temporal_spatial_x16)");
      continue;
    }
    /* the tile (at most 30 x 22 pixels, 10.3 KiB at radius 7 in 4
     * channels): far below the 32 KiB every device has */
    clb_arg_local (&a, (local[0] + 2 * r->rx) * (local[1] + 2 * r->ry)
        * job->channels * sizeof (cl_uint));
    if (!clb_args_done (&a, error))
      return FALSE;
    at[0] = from;
    global[0] = (to - from + local[0] - 1) / local[0] * local[0];
    global[1] = (job->height + local[1] - 1) / local[1] * local[1];
    CHECK (clb_engine_run_kernel_at (engine, engine->kernels[size][k], 2,
            at, global, local, "temporal_spatial"),
        "clEnqueueNDRangeKernel (temporal_spatial)");
  }
  return TRUE;

failed:
  return FALSE;
}

/* A frame of the job: the noise, the blend, then the spatial step (with
 * @x16 on CPUs, 8-bit samples, the x16 kernels where they fit). */
static gboolean
temporal_frame (ClbEngine * engine, const ClbRun * r, gboolean x16,
    GError ** error)
{
  const ClbJob *job = r->job;
  ClbTemporalJob *t =
      &engine->temporal[MIN (r->params->field, 1) * CLB_MAX_JOBS + r->index];
  guint reach = r->params->temporal_reach ? MIN (r->params->temporal_reach,
      CLB_MAX_TEMPORAL_REACH) : CLB_DEFAULT_TEMPORAL_REACH;
  guint d = judged_channels (job);
  gint level;
  gboolean fresh = t->fresh;

  if (!ensure_state (engine, t, job->width, job->height, job->channels,
          error))
    return FALSE;
  start_fresh (t);
  if (!run_noise (engine, t, r, d, error))
    return FALSE;
  level = r->params->noise_level > 0 ?
      (gint) floor (r->params->noise_level * 16 + 0.5) : t->level;
  level = level < 0 ? 16 * 8 : MAX (level, 1);
  if (r->index == 0)
    engine->noise_level = t->level;     /* the estimate, as read back */
  return upload_tables (engine, t, level, reach, d, r, error)
      && blend_pass (engine, r, t, reach, fresh, x16, error)
      && spatial_pass (engine, r, t, reach, x16, error);
}

static gboolean
run_temporal (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return temporal_frame (engine, r, FALSE, error);
}

/* Whether the x16 kernels' loops fit the device's cap:
 * temporal_spatial_x16's, a block's window (its channel loops a tap, the
 * window's rows, the centre's lanes and the result's stores), and
 * temporal_blend_x16's (the patch, a channel's 16 lanes), counted
 * generously. */
static gboolean
temporal_x16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 rows = 2 * (guint64) ry + 1, taps = rows * (2 * (guint64) rx + 1);

  return clb_loops_fit (profile, taps * (2 * job->channels + 4) + 2 * rows
      + CLB_LANES * (job->channels + 3) + 64)
      && clb_loops_fit (profile, 40 + job->channels * (CLB_LANES + 2));
}

/* CPUs, 8-bit samples: the blend and the spatial step 16 pixels of a
 * row a work-item where they fit (kernels/temporal.cl,
 * temporal_blend_x16, temporal_spatial_x16) */
static gboolean
run_temporal_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return temporal_frame (engine, r, TRUE, error);
}

/* The method's rows of the variant table (enginevariants.c), in the
 * order they are tried. */
const ClbVariant clb_temporal_variants[] = {
  {"temporal_x16", CLB_METHOD_TEMPORAL, CLB_WIDTH_8, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "temporal_noise, temporal_diff, "
        "temporal_blend_x16, temporal_spatial_x16 (temporal_blend, "
        "temporal_spatial at the rows' ends)", 0, FALSE, temporal_x16_fits,
      run_temporal_x16},
  {"temporal", CLB_METHOD_TEMPORAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "temporal_noise, temporal_diff, "
        "temporal_blend, temporal_spatial", 0, FALSE, NULL, run_temporal},
};

const guint clb_temporal_n_variants = G_N_ELEMENTS (clb_temporal_variants);
