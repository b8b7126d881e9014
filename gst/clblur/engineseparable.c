/* clboxblur engine: method separable, its CPU and GPU variants.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The generic run (separable_rows, separable_columns), separable_fused_x16
 * (CPUs, vector lanes; in place from a copy of the input), separable_gpu
 * (kernels/gpu_separable.cl), and their rows of the variant table.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

/* ---- separable: running sums along rows, then along columns ---- */

/* separable_columns starts every part with the 2 ry + 1 rows of its first
 * window (kernels/loops.h) */
static guint64
separable_columns_start (cl_int strip, guint ry)
{
  return CLB_LOOPS_SEPARABLE_COLUMNS_START ((guint64) strip, (guint64) ry);
}

/* Whether the column pass fits a loop cap with 16 columns a work-item. */
static gboolean
separable_strip16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  return clb_loops_fit (profile, separable_columns_start
      (CLB_SEPARABLE_MAX_STRIP, ry));
}

static gboolean
run_separable (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbDeviceProfile *profile = &engine->profile;
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int strip = r->shape.strip;
  cl_int w = job->width, h = job->height, cn = job->channels;
  /* horizontal sums fit in 32 bits for every depth */
  gsize row_bytes = (gsize) w * cn * sizeof (cl_uint);
  /* separable_rows: 2 rx + 1 to start, then an iteration a column */
  guint row_part = clb_steps_per_launch (profile, 2 * (guint64) r->rx + 4, 1, w);
  guint column_part = clb_steps_per_launch (profile,
      separable_columns_start (strip, r->ry), strip + 2, h);
  guint apron = 2 * r->ry, ring, band, done = 0, y0, y1;
  ClbArgs rows, cols;

  if (!clb_plan_ring (engine, "separable", row_bytes, h, apron, &ring, error)
      || !clb_engine_ensure_work (engine, (gsize) ring * row_bytes, error))
    return FALSE;
  band = ring == (guint) h ? ring : ring - apron;

  cols = clb_engine_args (engine, k[K_SEPARABLE_COLUMNS]);
  clb_arg_mem (&cols, engine->work);
  clb_args_layout (&cols, r->out, &engine->planes, job);
  clb_args_size (&cols, job);
  clb_arg_int (&cols, r->rx);
  clb_arg_int (&cols, r->ry);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, strip);
  clb_arg_int (&cols, ring);
  if (!clb_args_done (&cols, error))
    return FALSE;

  /* Bands of output rows, top down: the horizontal sums of the rows a
   * band reaches, then its columns (kernels/separable.cl); in parts where
   * the device caps loops (one part elsewhere). */
  for (y0 = 0; y0 < (guint) h; y0 = y1) {
    guint reach = MIN ((guint) h, y0 + band + r->ry);

    y1 = MIN ((guint) h, y0 + band);
    if (reach > done) {
      rows = clb_engine_args (engine, k[K_SEPARABLE_ROWS]);
      clb_args_layout (&rows, r->in, &engine->planes, job);
      clb_arg_mem (&rows, engine->work);
      clb_arg_int (&rows, w);
      clb_arg_int (&rows, reach);
      clb_arg_int (&rows, cn);
      clb_arg_int (&rows, r->rx);
      clb_arg_int (&rows, r->border);
      clb_arg_int (&rows, done);
      clb_arg_int (&rows, ring);
      if (!clb_args_done (&rows, error)
          || !clb_run_parts (engine, &rows, K_SEPARABLE_ROWS, 0, w, row_part, cn,
              reach - done, "separable_rows", error))
        return FALSE;
      done = reach;
    }
    if (!clb_run_parts (engine, &cols, K_SEPARABLE_COLUMNS, y0, y1, column_part,
            0, ((size_t) w * cn + strip - 1) / strip, "separable_columns",
            error))
      return FALSE;
  }
  return TRUE;
}

/* ---- separable_fused_x16: both passes in one walk down the rows ---- */

/* The lanes (bytes) of a pixel of @job that separable_fused_x16 computes,
 * or 0 where it does not take the job: 8-bit samples as stored, 1 to 4
 * bytes a pixel, each channel its own byte; kept channels only where
 * every byte is the job's (bytes of other jobs are left as they are in
 * the output, kept ones are read from the input). */
static guint
separable_fused_lanes (const ClbPlanes * planes, const ClbJob * job)
{
  guint lanes = 0, c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->pixel_stride < 1 || job->pixel_stride > 4)
    return 0;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] >= job->pixel_stride || (lanes >> job->offset[c]) & 1)
      return 0;
    lanes |= 1u << job->offset[c];
  }
  if (job->keep_mask != 0 && lanes != (1u << job->pixel_stride) - 1)
    return 0;
  return lanes;
}

/* The elements of separable_fused_x16's extended row: the row's samples
 * and an apron each side (CLB_FUSED_APRON). */
static guint64
separable_fused_row_len (const ClbJob * job, guint rx)
{
  return (guint64) job->width * job->pixel_stride
      + 2 * (guint64) CLB_FUSED_APRON ((guint64) rx,
      (guint64) job->pixel_stride);
}

/* Rows a work-item of separable_fused_x16 walks: the job's rows shared
 * among twice the compute units (a band's start, its first window of
 * 2 ry + 1 rows, is paid once a band), fewer where the device caps loops;
 * 0 where not even one row fits the cap. Loop costs as kernels/loops.h
 * counts them: a move of the window sums, and a row of the horizontal
 * pass. */
static guint
separable_fused_band_rows (const ClbDeviceProfile * profile,
    const ClbJob * job, guint rx, guint ry)
{
  guint64 c = job->pixel_stride, step = CLB_LANES / c, used = step * c;
  guint64 row_len = (guint64) job->width * c;
  guint64 steps = row_len / used + 1;
  guint64 horizontal = CLB_LOOPS_SEPARABLE_FUSED_ROW ((guint64) rx, c, steps);
  guint64 move = CLB_LOOPS_SEPARABLE_FUSED_MOVE (row_len);
  guint64 start = separable_fused_row_len (job, rx) + 1
      + (2 * (guint64) ry + 2) * move;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 rows = (job->height + bands - 1) / bands;

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + horizontal + 8)
      return 0;
    rows = MIN (rows, (profile->loop_budget - start - 8)
        / (horizontal + move + 2));
  }
  return (guint) CLAMP (rows, 1, MAX (job->height, 1));
}

/* The elements of work before separable_fused_x16's rows of sums where
 * it filters a job in place: a copy of the job's rows, @pitch bytes each
 * (a multiple of 16 elements). */
static guint64
separable_fused_copy (guint64 pitch, const ClbJob * job)
{
  return (pitch * job->height + 63) / 64 * 16;
}

/* Whether separable_fused_x16 takes the job, its rows of sums and the
 * copy of its plane it reads in place (later passes, frames not in the
 * caller's memory) within the budget. */
static gboolean
separable_fused_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint bands, rows;

  if (separable_fused_lanes (planes, job) == 0)
    return FALSE;
  rows = separable_fused_band_rows (profile, job, rx, ry);
  if (rows == 0)
    return FALSE;
  bands = (job->height + rows - 1) / rows;
  return ((guint64) bands * separable_fused_row_len (job, rx)
      + separable_fused_copy (planes->plane_width[job->plane], job))
      * sizeof (cl_uint)
      <= clb_work_budget (profile, planes);
}

/* The arguments of one job of separable_fused_x16 (kernels/separable.cl:
 * a launch runs one or two), run @r's job from @in: its buffers, its rows
 * of sums from element @at of work on, its size and radii, band rows,
 * kept input and the kept lanes, and its @bands (0: no job). */
static void
separable_fused_job_args (ClbArgs * a, const ClbPlanes * planes,
    const ClbRun * r, cl_mem in, guint64 at, guint rows, guint64 bands)
{
  const ClbJob *job = r->job;
  guint lanes = separable_fused_lanes (planes, job), c;
  guint ps = job->pixel_stride;
  gboolean dense = lanes == (1u << ps) - 1;
  cl_int keep = 0;

  clb_arg_mem (a, in);
  clb_arg_int (a, r->in_pitch);
  clb_arg_mem (a, r->out);
  clb_arg_int (a, r->out_pitch);
  clb_arg_int (a, at);
  clb_arg_int (a, job->width);
  clb_arg_int (a, job->height);
  clb_arg_int (a, ps);
  clb_arg_int (a, r->rx);
  clb_arg_int (a, r->ry);
  if (dense) {
    for (c = 0; c < job->channels; c++)
      keep |= ((job->keep_mask >> c) & 1) << job->offset[c];
  } else {
    keep = ((1u << ps) - 1) & ~lanes;
  }
  clb_arg_int (a, rows);
  /* kept channels from the input; other jobs' bytes from the output */
  clb_arg_mem (a, dense ? in : r->out);
  clb_arg_int (a, dense ? r->in_pitch : r->out_pitch);
  clb_arg_int (a, keep);
  clb_arg_int (a, bands);
}

/* The second job of a launch that runs one: no bands (the kernel never
 * reads the rest), its buffers NULL and its numbers 0. The launch takes a
 * kernel object of its own (K_SEPARABLE_FUSED_ONE_X16), on which these
 * stay as set: a frame skips them (set every frame, even kept, they cost
 * about 2,000 host instructions a frame, scripts/host-guard.sh
 * separable-RGBA; set from the first job's, about 4,000). */
static void
separable_fused_no_job_args (ClbArgs * a)
{
  guint i;

  if (clb_args_skip_kept (a, 15))
    return;
  /* as separable_fused_job_args: in, out and kept input are buffers */
  for (i = 0; i < 15; i++) {
    if (i == 0 || i == 2 || i == 11)
      clb_arg_mem (a, NULL);
    else
      clb_arg_int (a, 0);
  }
}

/* CPUs, 8-bit jobs of 1 to 4 bytes a pixel: both passes in one kernel, a
 * band of rows a work-item, from one buffer into another; in place, from
 * a copy of the input at the start of work (the rows of sums after it). */
static gboolean
run_separable_fused (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  guint rows = separable_fused_band_rows (&engine->profile, job, r->rx,
      r->ry);
  cl_int h = job->height;
  size_t bands = (h + rows - 1) / rows;
  cl_int at = r->in == r->out ? separable_fused_copy (r->in_pitch, job) : 0;
  cl_mem in;
  ClbArgs a;

  if (!clb_engine_ensure_work (engine, (at + bands
              * separable_fused_row_len (job, r->rx)) * sizeof (cl_uint),
          error))
    return FALSE;
  in = at ? engine->work : r->in;
  if (at)
    CHECK (clEnqueueCopyBuffer (engine->queue, r->in, engine->work, 0, 0,
            (size_t) r->in_pitch * h, 0, NULL, NULL),
        "clEnqueueCopyBuffer (separable_fused_x16 input)");
  a = clb_engine_args (engine,
      engine->kernels[CLB_SAMPLES_8][K_SEPARABLE_FUSED_ONE_X16]);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, r->border);
  separable_fused_job_args (&a, &engine->planes, r, in, at, rows, bands);
  separable_fused_no_job_args (&a);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_FUSED_ONE_X16,
          bands, "separable_fused_x16"),
      "clEnqueueNDRangeKernel (separable_fused_x16)");
  return TRUE;

failed:
  return FALSE;
}

/* ---- separable_fused_422_x16: packed 4:2:2's two jobs in one walk ---- */

/* The elements of separable_fused_422_x16's extended row: the row's
 * bytes and an apron each side. */
static guint64
separable_422_row_elems (const ClbJob * y, guint rx, guint rc)
{
  return 2 * (guint64) y->width + 2 * (guint64) CLB_422_APRON ((guint64) rx,
      (guint64) rc);
}

/* Rows a work-item of separable_fused_422_x16 walks (as
 * separable_fused_band_rows), 0 where not even one fits the cap. */
static guint
separable_422_band_rows (const ClbDeviceProfile * profile,
    const ClbJob * y, guint rx, guint rc, guint ry)
{
  guint64 row_len = 2 * (guint64) y->width;
  guint64 steps = row_len / CLB_LANES + 1;
  guint64 horizontal = CLB_LOOPS_SEPARABLE_422_ROW ((guint64) rx,
      (guint64) rc, steps);
  guint64 move = CLB_LOOPS_SEPARABLE_FUSED_MOVE (row_len);
  guint64 start = separable_422_row_elems (y, rx, rc) + 1
      + (2 * (guint64) ry + 2) * move;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 rows = (y->height + bands - 1) / bands;

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + horizontal + 8)
      return 0;
    rows = MIN (rows, (profile->loop_budget - start - 8)
        / (horizontal + move + 2));
  }
  return (guint) CLAMP (rows, 1, MAX (y->height, 1));
}

static gboolean run_separable_fused_422 (ClbEngine * engine,
    const ClbRun * r, GError ** error);

/* Not a row of the table: the plan pairs the jobs (clb_separable_pair). */
static const ClbVariant separable_fused_422 = {
  "separable_fused_422_x16", CLB_METHOD_SEPARABLE, CLB_WIDTH_8,
  CLB_LAYOUT_ANY, FALSE, CLB_DEVICE_CLASS_CPU, "separable_fused_422_x16", 0,
  TRUE, NULL, run_separable_fused_422
};

static gboolean run_separable_fused_pair (ClbEngine * engine,
    const ClbRun * r, GError ** error);

/* Not a row of the table either: two jobs of separable_fused_x16 in one
 * launch (clb_separable_pair). */
static const ClbVariant separable_fused_pair = {
  "separable_fused_pair_x16", CLB_METHOD_SEPARABLE, CLB_WIDTH_8,
  CLB_LAYOUT_ANY, TRUE, CLB_DEVICE_CLASS_CPU, "separable_fused_x16 (two "
      "jobs)", 0, TRUE, NULL, run_separable_fused_pair
};

/* The elements of work a job's bands take in separable_fused_x16. */
static guint64
separable_fused_work (const ClbDeviceProfile * profile, const ClbJob * job,
    guint rx, guint ry)
{
  guint rows = separable_fused_band_rows (profile, job, rx, ry);

  return (guint64) ((job->height + rows - 1) / rows)
      * separable_fused_row_len (job, rx);
}

const ClbVariant *
clb_separable_pair (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb)
{
  const ClbVariant *fused = &clb_separable_variants[0];
  guint rows, bands;

  /* each job's own run is the fallback in place (later passes) */
  if (alone_a != fused || alone_b != fused)
    return NULL;
  if (rya != ryb || clb_packed_422_luma (planes, a, b) < 0) {
    /* any two jobs the fused kernel takes (it took each alone: its band
     * rows are not 0) on planes of their own (a job that shares its
     * pixels' bytes writes the others back as it read them: two such
     * jobs in one launch would race), their rows of sums within the
     * budget together; not where the device caps loops (rusticl's
     * llvmpipe, which does, ran NV12 slower paired: 640x360 30 -> 44 ms) */
    if (a->plane == b->plane || profile->loop_budget != 0
        || (separable_fused_work (profile, a, rxa, rya)
            + separable_fused_work (profile, b, rxb, ryb)) * sizeof (cl_uint)
        > clb_work_budget (profile, planes))
      return NULL;
    return &separable_fused_pair;
  }
  rows = separable_422_band_rows (profile, a, rxa, rxb, rya);
  if (rows == 0)
    return NULL;
  bands = (a->height + rows - 1) / rows;
  if (bands * separable_422_row_elems (a, rxa, rxb) * sizeof (cl_uint)
      > clb_work_budget (profile, planes))
    return NULL;
  return &separable_fused_422;
}

/* CPUs, packed 4:2:2's Y job (r->job) and UV job (r->pair_job) from one
 * buffer into another: both passes of both jobs in one kernel, a band of
 * rows a work-item. In place, each job's own run. */
static gboolean
run_separable_fused_422 (ClbEngine * engine, const ClbRun * r,
    GError ** error)
{
  const ClbJob *job = r->job;
  gint luma = clb_packed_422_luma (&engine->planes, job, r->pair_job);
  guint rows = separable_422_band_rows (&engine->profile, job, r->rx,
      r->pair_rx, r->ry);
  cl_int w = job->width, h = job->height;
  size_t bands = (h + rows - 1) / rows;
  ClbArgs a;

  g_assert (luma >= 0 && rows > 0);
  if (r->in == r->out) {
    ClbRun uv = *r;

    uv.job = r->pair_job;
    uv.index = r->pair_index;
    uv.rx = r->pair_rx;
    uv.pair_job = NULL;
    return run_separable_fused (engine, r, error)
        && run_separable_fused (engine, &uv, error);
  }
  if (!clb_engine_ensure_work (engine, bands
          * separable_422_row_elems (job, r->rx, r->pair_rx)
          * sizeof (cl_uint), error))
    return FALSE;
  a = clb_engine_args (engine, engine->kernels[CLB_SAMPLES_8][K_SEPARABLE_FUSED_422_X16]);
  clb_arg_mem (&a, r->in);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, r->out_pitch);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, w);
  clb_arg_int (&a, h);
  clb_arg_int (&a, luma);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->pair_rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg_int (&a, rows);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_FUSED_422_X16,
          bands, "separable_fused_422_x16"),
      "clEnqueueNDRangeKernel (separable_fused_422_x16)");
  return TRUE;

failed:
  return FALSE;
}

/* CPUs, two jobs of separable_fused_x16 (r->job, r->pair_job), each from
 * one buffer into another: one launch, the first job's bands then the
 * second's. In place, each job's own run. */
static gboolean
run_separable_fused_pair (ClbEngine * engine, const ClbRun * r,
    GError ** error)
{
  const ClbJob *ja = r->job, *jb = r->pair_job;
  ClbRun b;
  guint rows_a, rows_b;
  guint64 bands_a, bands_b, work_a;
  ClbArgs a;

  clb_run_pair_other (r, &b);
  if (r->in == r->out || b.in == b.out)
    return run_separable_fused (engine, r, error)
        && run_separable_fused (engine, &b, error);
  rows_a = separable_fused_band_rows (&engine->profile, ja, r->rx, r->ry);
  rows_b = separable_fused_band_rows (&engine->profile, jb, b.rx, b.ry);
  bands_a = (ja->height + rows_a - 1) / rows_a;
  bands_b = (jb->height + rows_b - 1) / rows_b;
  work_a = bands_a * separable_fused_row_len (ja, r->rx);
  if (!clb_engine_ensure_work (engine, (work_a + bands_b
              * separable_fused_row_len (jb, b.rx)) * sizeof (cl_uint),
          error))
    return FALSE;
  a = clb_engine_args (engine, engine->kernels[CLB_SAMPLES_8][K_SEPARABLE_FUSED_X16]);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, r->border);
  separable_fused_job_args (&a, &engine->planes, r, r->in, 0, rows_a,
      bands_a);
  separable_fused_job_args (&a, &engine->planes, &b, b.in, work_a, rows_b,
      bands_b);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_FUSED_X16,
          bands_a + bands_b, "separable_fused_x16 (two jobs)"),
      "clEnqueueNDRangeKernel (separable_fused_x16, two jobs)");
  return TRUE;

failed:
  return FALSE;
}

/* ---- separable_gpu (kernels/gpu_separable.cl) ---- */

static guint
separable_chunk (guint ry)
{
  return MAX (CLB_GPU_CHUNK_MIN, 2 * ry + 1);
}

/* separable_gpu's horizontal window sums in 16 bits where every one fits
 * (gpu_box_sep_rows16, gpu_box_sep_columns16: half the traffic of its
 * intermediate), else in 32. The bound is the largest sample the
 * container holds after the shift (not max_value: a 10-bit sample in the
 * low bits of 16 may hold more), so the sums stay exact on any input. */
static gsize
gpu_separable_sum_bytes (const ClbPlanes * planes, guint rx)
{
  guint64 largest = (planes->sample_size == CLB_SAMPLES_16 ? G_MAXUINT16 :
      G_MAXUINT8) >> planes->shift;

  return (2 * (guint64) rx + 1) * largest <= G_MAXUINT16 ?
      sizeof (cl_ushort) : sizeof (cl_uint);
}

/* The channels a work-group of gpu_box_sep_rows scans (@lanes: the
 * job's all, a row's samples loaded whole, where their line fits local
 * memory, else one), or FALSE where even one does not fit. */
static gboolean
gpu_separable_lanes (const ClbDeviceProfile * profile, const ClbJob * job,
    guint rx, size_t group, guint * lanes)
{
  guint64 n = (guint64) job->width + 2 * (guint64) rx;

  *lanes = job->channels;
  if (clb_gpu_line_fits (profile, group, *lanes * (n + 1) - 1,
          (guint64) *lanes * job->width, sizeof (cl_uint)))
    return TRUE;
  *lanes = 1;
  return clb_gpu_line_fits (profile, group, n, job->width, sizeof (cl_uint));
}

static gboolean
clb_gpu_separable_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 row_len = (guint64) job->width * job->channels;
  size_t group = clb_gpu_line_group (profile, planes->sample_size);
  guint lanes;

  if (!gpu_separable_lanes (profile, job, rx, group, &lanes)
      || !clb_loops_fit (profile, 2 * (guint64) ry + separable_chunk (ry) + 8)
      || row_len * job->height * gpu_separable_sum_bytes (planes, rx) >
      clb_work_budget (profile, planes))
    return FALSE;
  /* the row scans' work-groups (logged; the run takes the same) */
  shape->local[0] = group;
  shape->local[1] = 1;
  return TRUE;
}

static gboolean
clb_run_gpu_separable (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int w = job->width, h = job->height, cn = job->channels;
  size_t group = clb_gpu_line_group (&engine->profile, size);
  size_t row_len = (size_t) w * cn;
  guint chunk = separable_chunk (r->ry), lanes;
  gsize sum_bytes = gpu_separable_sum_bytes (&engine->planes, r->rx);
  guint kr = sum_bytes == sizeof (cl_ushort) ? K_GPU_BOX_SEP_ROWS16 :
      K_GPU_BOX_SEP_ROWS;
  guint kc = sum_bytes == sizeof (cl_ushort) ? K_GPU_BOX_SEP_COLUMNS16 :
      K_GPU_BOX_SEP_COLUMNS;
  size_t rows_global[2] = { group, 0 };
  size_t rows_local[2] = { group, 1 };
  size_t cols_global[2] = { (row_len + 63) / 64 * 64,
    ((size_t) h + chunk - 1) / chunk
  };
  size_t cols_local[2] = { 64, 1 };
  ClbArgs rows, cols;

  /* (it fits: clb_gpu_separable_usable took the job) */
  gpu_separable_lanes (&engine->profile, job, r->rx, group, &lanes);
  if (!clb_engine_ensure_work (engine, row_len * h * sum_bytes, error))
    return FALSE;
  rows_global[1] = (size_t) h * (cn / lanes);
  rows = clb_engine_args (engine, k[kr]);
  clb_args_layout (&rows, r->in, &engine->planes, job);
  clb_arg_mem (&rows, engine->work);
  clb_args_size (&rows, job);
  clb_arg_int (&rows, r->rx);
  clb_arg_int (&rows, r->border);
  clb_arg_int (&rows, lanes);
  clb_arg_local (&rows, (size_t) lanes * (w + 2 * r->rx + 1)
      * sizeof (cl_uint));
  clb_arg_local (&rows, group * sizeof (cl_uint));

  cols = clb_engine_args (engine, k[kc]);
  clb_arg_mem (&cols, engine->work);
  clb_args_layout (&cols, r->out, &engine->planes, job);
  clb_args_size (&cols, job);
  clb_arg_int (&cols, r->rx);
  clb_arg_int (&cols, r->ry);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, chunk);
  if (!clb_args_done (&rows, error) || !clb_args_done (&cols, error))
    return FALSE;
  if (engine->max_wg[size][kc] < 64)
    cols_local[0] = 1;
  CHECK (clb_engine_run_kernel (engine, k[kr], 2, rows_global, rows_local,
          kr == K_GPU_BOX_SEP_ROWS ? "gpu_box_sep_rows" :
          "gpu_box_sep_rows16"), "clEnqueueNDRangeKernel (gpu_box_sep_rows)");
  CHECK (clb_engine_run_kernel (engine, k[kc], 2, cols_global, cols_local,
          kc == K_GPU_BOX_SEP_COLUMNS ? "gpu_box_sep_columns" :
          "gpu_box_sep_columns16"),
      "clEnqueueNDRangeKernel (gpu_box_sep_columns)");
  return TRUE;

failed:
  return FALSE;
}

/* The method's rows of the variant table (enginevariants.c), in the
 * order they are tried. */
const ClbVariant clb_separable_variants[] = {
  {"separable_fused_x16", CLB_METHOD_SEPARABLE, CLB_WIDTH_8,
        CLB_LAYOUT_ANY, TRUE, CLB_DEVICE_CLASS_CPU, "separable_fused_x16",
        0, TRUE, separable_fused_fits, run_separable_fused},
  {"separable_strip16", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "separable_rows, separable_columns", 16,
        FALSE, separable_strip16_fits, run_separable},
  {"separable_gpu", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_GPU, "gpu_box_sep_rows[16], "
        "gpu_box_sep_columns[16]",
        1, FALSE, clb_gpu_separable_usable, clb_run_gpu_separable},
  {"separable", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "separable_rows, separable_columns", 1,
        FALSE, NULL, run_separable},
};

const guint clb_separable_n_variants = G_N_ELEMENTS (clb_separable_variants);
