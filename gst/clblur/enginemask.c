/* clboxblur engine: alpha as the foreground mask, its CPU and GPU variants.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * With ClbParams.mask, the box methods run the normalised box of
 * kernels/mask.cl in place of sat or separable (the background blurred
 * from background pixels only, blended with the original by alpha):
 * on CPUs, 8-bit jobs take the one vector walk of mask_band: mask_x16
 * (pixels of 4 bytes with alpha) and mask_planar_x16 (one sample a pixel,
 * the alpha a plane of its own: A420; the chroma's two jobs in one
 * launch, mask_planar_pair_x16; the Y job's launch copies the alpha
 * plane); mask_cpu (mask_rows, then mask_columns_strip or mask_columns)
 * the rest; the generic mask (mask_rows, mask_columns) every device's,
 * the GPUs'. Its rows are the variant table's (CLB_VARIANTS_MASK),
 * chosen there, and so is the row that blends bilateral's output with
 * the original by alpha (ClbStep.blend: ClbRun.filtered). The alpha channel itself is never filtered:
 * it is taken out of every job (clb_mask_job). Kernels flag background.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

gboolean
clb_mask_active (const ClbParams * params)
{
  /* mosaic and fill take no mask (the element warns) */
  return params->mask && params->method != CLB_METHOD_MOSAIC
      && params->method != CLB_METHOD_FILL;
}

const ClbJob *
clb_mask_job (const ClbParams * params, const ClbJob * job, ClbJob * stripped)
{
  guint c;

  if (!params->mask || job->plane != params->mask_plane
      || job->pixel_stride != params->mask_pixel_stride
      || job->x_sub != 0 || job->y_sub != 0)
    return job;
  *stripped = *job;
  stripped->channels = 0;
  stripped->dist_mask = 0;
  stripped->keep_mask = 0;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] == params->mask_offset)
      continue;
    stripped->offset[stripped->channels] = job->offset[c];
    stripped->dist_mask |= ((job->dist_mask >> c) & 1) << stripped->channels;
    stripped->keep_mask |= ((job->keep_mask >> c) & 1) << stripped->channels;
    stripped->channels++;
  }
  if (stripped->channels == 0
      || stripped->keep_mask == (1u << stripped->channels) - 1)
    return NULL;                /* alpha alone (A420's alpha plane) */
  if (stripped->dist_mask == 0)
    stripped->dist_mask = (1u << stripped->channels) - 1;
  return stripped;
}

const ClbJob *
clb_mask_bilateral_job (const ClbParams * params, const ClbJob * job,
    ClbJob * kept)
{
  ClbJob stripped;
  const ClbJob *s = clb_mask_job (params, job, &stripped);
  guint c, colours = 0;

  if (s == NULL || s == job)
    return s;
  *kept = *job;
  kept->dist_mask = 0;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] == params->mask_offset) {
      kept->keep_mask |= 1u << c;
      continue;
    }
    colours |= 1u << c;
    kept->dist_mask |= job->dist_mask & (1u << c);
  }
  /* as the stripped job's: its channels' distance, or all of them */
  if (kept->dist_mask == 0)
    kept->dist_mask = colours;
  return kept;
}

const ClbJob *
clb_mask_step_job (const ClbParams * params, const ClbJob * job,
    ClbJob * tmp)
{
  return CLB_METHOD_IS_BILATERAL (params->method) ?
      clb_mask_bilateral_job (params, job, tmp) :
      clb_mask_job (params, job, tmp);
}

gboolean
clb_mask_check (const ClbPlanes * planes, const ClbParams * params,
    GError ** error)
{
  guint p = params->mask_plane;

  if (!params->mask)
    return TRUE;
  if (p >= planes->n_planes || params->mask_pixel_stride == 0
      || planes->width == 0
      || (guint64) (planes->width - 1) * params->mask_pixel_stride
      + params->mask_offset >= planes->plane_width[p]) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB,
        "mask of plane %u, offset %u, pixel stride %u does not fit the "
        "planes", p, params->mask_offset, params->mask_pixel_stride);
    return FALSE;
  }
  return TRUE;
}

/* The feather radius of a job subsampled by 2^@sub, -1 for none. */
static cl_int
feather_radius (const ClbParams * params, guint sub)
{
  if (params->mask_feather == 0)
    return -1;
  return clb_scale_radius (MIN (params->mask_feather, CLB_MAX_RADIUS), sub);
}

/* Loop costs (as clb_loops_fit counts them) of a step of mask_rows and of
 * mask_columns: the channels' loops, the alpha's footprint (up to 2x2) for
 * the pixels entering and leaving both windows. */
#define MASK_ROW_STEP 48
#define MASK_COLUMN_STEP 40

/* Columns of a row one mask_rows work-item takes: the whole row on CPUs
 * (@cpu), 64 or the window on GPUs; fewer where the device caps loops;
 * 0 where not even one fits. */
static guint
mask_row_part (const ClbDeviceProfile * profile, const ClbJob * job,
    guint rx, gint fx, gboolean cpu)
{
  guint64 start = (2 * (guint64) rx + 2) * 8 + (2 * (guint64) MAX (fx, 0)
      + 2) * 6;
  guint64 part = cpu ? job->width : MAX (64, 2 * (guint64) rx + 1);

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + MASK_ROW_STEP)
      return 0;
    part = MIN (part, (profile->loop_budget - start) / MASK_ROW_STEP);
  }
  return (guint) CLAMP (part, 1, job->width);
}

/* Rows of a column one mask_columns work-item walks: the job's rows
 * shared among twice the compute units on CPUs, max (64, 2 ry + 1) on
 * GPUs; fewer where the device caps loops; 0 where not one fits. */
static guint
mask_column_chunk (const ClbDeviceProfile * profile, const ClbJob * job,
    guint ry, gint fy, gboolean cpu)
{
  guint64 start = (2 * (guint64) ry + 2) * 6 + 2 * (guint64) MAX (fy, 0) + 2;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 chunk = cpu ? (job->height + bands - 1) / bands :
      MAX (CLB_GPU_CHUNK_MIN, 2 * (guint64) ry + 1);

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + MASK_COLUMN_STEP)
      return 0;
    chunk = MIN (chunk, (profile->loop_budget - start) / MASK_COLUMN_STEP);
  }
  return (guint) CLAMP (chunk, 1, job->height);
}

/* mask_columns_strip (CPUs, the box): rows of a strip of 16 columns one
 * work-item walks, as mask_column_chunk; 0 where not one fits the loop
 * cap (then mask_columns). */
#define MASK_STRIP 16

static guint
mask_strip_chunk (const ClbDeviceProfile * profile, const ClbJob * job,
    guint ry, gint fy)
{
  guint64 elems = job->channels + 2;
  guint64 reach = MAX (ry, (guint) MAX (fy, 0));
  guint64 start = (2 * reach + 2) * (MASK_STRIP * elems + 2) + 2 * MASK_STRIP
      * elems;
  guint64 step = MASK_STRIP * (job->channels * 4 + 12) + MASK_STRIP * elems
      + 8;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 chunk = (job->height + bands - 1) / bands;

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + step)
      return 0;
    chunk = MIN (chunk, (profile->loop_budget - start) / step);
  }
  return (guint) CLAMP (chunk, 1, job->height);
}

/* Bytes of a row of the intermediate. */
static gsize
mask_row_bytes (const ClbPlanes * planes, const ClbJob * job, gboolean blend,
    gint fx)
{
  gsize elems = (blend ? 0 : job->channels + 1) + (fx >= 0 ? 1 : 0);

  return (gsize) job->width * elems * (planes->sample_size == CLB_SAMPLES_16 ?
      sizeof (cl_ulong) : sizeof (cl_uint));
}

static gboolean
mask_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, gboolean cpu)
{
  /* without a feather (the run checks it with the feather's radius) */
  return mask_row_part (profile, job, rx, -1, cpu) > 0
      && mask_column_chunk (profile, job, ry, -1, cpu) > 0;
}

static gboolean
mask_cpu_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, ClbWorkShape * shape)
{
  return mask_usable (profile, planes, job, rx, ry, TRUE);
}

static gboolean
mask_any_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, ClbWorkShape * shape)
{
  return mask_usable (profile, planes, job, rx, ry, FALSE);
}

/* The alpha's arguments: its plane (@alpha), where a pixel's alpha is,
 * the frame's size, the job's subsampling, amax. */
static void
args_alpha (ClbArgs * a, ClbEngine * engine, cl_mem alpha, cl_int pitch,
    const ClbParams * params, const ClbJob * job)
{
  const ClbPlanes *planes = &engine->planes;

  clb_arg_mem (a, alpha);
  clb_arg_int (a, pitch);
  clb_arg_int (a, params->mask_pixel_stride);
  clb_arg_int (a, params->mask_offset);
  clb_arg_int (a, planes->width);
  clb_arg_int (a, planes->plane_height[params->mask_plane]);
  clb_arg_int (a, job->x_sub);
  clb_arg_int (a, job->y_sub);
}

/* The alpha plane of the frame being filtered (the input's: no job
 * writes alpha) and its rows' pitch: the caller's where @r reads it
 * (wrapped), else the engine's. */
static cl_mem
alpha_plane (ClbEngine * engine, const ClbRun * r, cl_int * pitch)
{
  guint p = r->params->mask_plane;

  if (r->alpha != NULL) {
    *pitch = r->alpha_pitch;
    return r->alpha;
  }
  *pitch = engine->planes.plane_width[p];
  return (engine->frame_in ? engine->frame_in : engine->plane_in)[p];
}

/* The shape of one masked run (run_mask): radii of the box (0 for a
 * blend) and of the feather (-1: none), the ring of rows of the
 * intermediate and the rows a work-item of the column pass takes. */
typedef struct {
  cl_mem alpha, filtered;
  cl_int alpha_pitch;
  gboolean blend, rows_needed;
  cl_int rx, ry, fx, fy;
  guint ring, chunk;
} MaskShape;

/* The arguments the column kernels share, after their buffers: the
 * input's layout, the alpha, the depth, the job's size. */
static void
args_frame (ClbArgs * cols, ClbEngine * engine, const ClbRun * r,
    const MaskShape * m)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbJob *job = r->job;

  clb_arg_int (cols, r->in_pitch);
  clb_arg_int (cols, job->pixel_stride);
  clb_arg_int4 (cols, clb_job_offsets (job));
  clb_arg_int (cols, planes->big_endian);
  clb_arg_int (cols, planes->shift);
  args_alpha (cols, engine, m->alpha, m->alpha_pitch, r->params, job);
  clb_arg_int (cols, planes->max_value);
  clb_args_size (cols, job);
}

/* mask_columns_strip's fixed arguments (CPUs: strips of 16 columns). */
static ClbArgs
strip_args (ClbEngine * engine, const ClbRun * r, const MaskShape * m)
{
  const ClbPlanes *planes = &engine->planes;
  ClbArgs cols =
      clb_engine_args (engine, engine->kernels[planes->sample_size][K_MASK_COLUMNS_STRIP]);

  clb_arg_mem (&cols, engine->work);
  clb_arg_mem (&cols, r->in);
  clb_arg_mem (&cols, r->out);
  args_frame (&cols, engine, r, m);
  clb_arg_int (&cols, m->ry);
  clb_arg_int (&cols, m->fx);
  clb_arg_int (&cols, m->fy);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, m->ring);
  clb_arg_int (&cols, m->chunk);
  return cols;
}

/* mask_columns' fixed arguments (any device). */
static ClbArgs
column_args (ClbEngine * engine, const ClbRun * r, const MaskShape * m)
{
  const ClbPlanes *planes = &engine->planes;
  ClbArgs cols =
      clb_engine_args (engine, engine->kernels[planes->sample_size][K_MASK_COLUMNS]);

  clb_arg_mem (&cols, m->rows_needed ? engine->work : r->in);
  clb_arg_mem (&cols, r->in);
  clb_arg_mem (&cols, r->out);
  clb_arg_mem (&cols, m->blend ? m->filtered : r->in);
  args_frame (&cols, engine, r, m);
  clb_arg_int (&cols, m->rx);
  clb_arg_int (&cols, m->ry);
  clb_arg_int (&cols, m->fx);
  clb_arg_int (&cols, m->fy);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, m->blend);
  clb_arg_int (&cols, m->ring);
  clb_arg_int (&cols, m->chunk);
  return cols;
}

/* Work-groups of one work-item for the CPU launches of the general
 * kernels: left to the runtime, PoCL makes the 2-D ranges (1, rows) and
 * (strips, chunks) one work-group each, which one thread runs (RGBA64's
 * masked blur on one core of two); NULL (the runtime's choice) else. */
static const size_t *
mask_cpu_local (gboolean cpu)
{
  static const size_t one[2] = { 1, 1 };

  return cpu ? one : NULL;
}

/* mask_rows over the rows [@done, @reach) of the job, @part pixels a
 * work-item, into the ring of the intermediate. */
static gboolean
run_rows (ClbEngine * engine, const ClbRun * r, const MaskShape * m,
    guint part, guint done, guint reach, gboolean cpu, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbJob *job = r->job;
  cl_kernel kernel = engine->kernels[planes->sample_size][K_MASK_ROWS];
  size_t rglobal[2] = { (job->width + part - 1) / part, reach - done };
  ClbArgs rows = clb_engine_args (engine, kernel);

  /* the run's pitch: the caller's rows where run_mask_general wraps */
  clb_arg_mem (&rows, r->in);
  clb_arg_int (&rows, r->in_pitch);
  clb_arg_int (&rows, job->pixel_stride);
  clb_arg_int4 (&rows, clb_job_offsets (job));
  clb_arg_int (&rows, planes->big_endian);
  clb_arg_int (&rows, planes->shift);
  args_alpha (&rows, engine, m->alpha, m->alpha_pitch, r->params, job);
  clb_arg_int (&rows, planes->max_value);
  clb_arg_mem (&rows, engine->work);
  clb_args_size (&rows, job);
  clb_arg_int (&rows, m->rx);
  clb_arg_int (&rows, m->fx);
  clb_arg_int (&rows, r->border);
  clb_arg_int (&rows, m->blend);
  clb_arg_int (&rows, m->ring);
  clb_arg_int (&rows, part);
  clb_arg_int (&rows, done);
  clb_arg_int (&rows, reach);
  if (!clb_args_done (&rows, error))
    return FALSE;
  CHECK (clb_engine_run_kernel (engine, kernel, 2, rglobal,
          mask_cpu_local (cpu),
          "mask_rows"), "clEnqueueNDRangeKernel (mask_rows)");
  return TRUE;

failed:
  return FALSE;
}

/* The masked box (@filtered NULL) or the blend of @filtered (bilateral's
 * output) with @in by alpha (from @alpha, the mask's plane, rows
 * @alpha_pitch apart), of job r->job into r->out, in bands of rows where
 * the intermediate does not fit whole. */
static gboolean
run_mask_from (ClbEngine * engine, const ClbRun * r, cl_mem filtered,
    gboolean cpu, cl_mem alpha, cl_int alpha_pitch, GError ** error)
{
  const ClbParams *params = r->params;
  const ClbJob *job = r->job;
  const ClbPlanes *planes = &engine->planes;
  ClbSampleSize size = planes->sample_size;
  cl_kernel *k = engine->kernels[size];
  MaskShape m;
  cl_int h = job->height;
  guint part, strip_chunk, reach_y, band, done = 0, y0, y1;
  gsize row_bytes;
  size_t local[2] = { 64, 1 };
  ClbArgs cols;

  m.alpha = alpha;
  m.alpha_pitch = alpha_pitch;
  m.filtered = filtered;
  m.blend = filtered != NULL;
  m.fx = feather_radius (params, job->x_sub);
  m.fy = feather_radius (params, job->y_sub);
  m.rx = m.blend ? 0 : r->rx;
  m.ry = m.blend ? 0 : r->ry;
  m.rows_needed = !m.blend || m.fx >= 0;
  m.ring = h;
  part = mask_row_part (&engine->profile, job, m.rx, m.fx, cpu);
  m.chunk = mask_column_chunk (&engine->profile, job, m.ry, m.fy, cpu);
  row_bytes = mask_row_bytes (planes, job, m.blend, m.fx);
  reach_y = MAX (m.ry, MAX (m.fy, 0));
  strip_chunk = cpu && !m.blend ? mask_strip_chunk (&engine->profile, job,
      m.ry, m.fy) : 0;

  if (part == 0 || m.chunk == 0) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_DEVICE,
        "the masked blur's loops do not fit the device's loop cap");
    return FALSE;
  }
  if (m.rows_needed
      && (!clb_plan_ring (engine, "the masked blur", row_bytes, h,
              2 * reach_y, &m.ring, error)
          || !clb_engine_ensure_work (engine, (gsize) m.ring * row_bytes,
              error)))
    return FALSE;
  band = m.ring == (guint) h ? m.ring : m.ring - 2 * reach_y;
  if (engine->max_wg[size][K_MASK_COLUMNS] < 64
      || engine->profile.max_items[0] < 64)
    local[0] = 1;
  if (strip_chunk > 0) {
    /* CPUs: strips of 16 columns */
    m.chunk = strip_chunk;
    cols = strip_args (engine, r, &m);
  } else {
    cols = column_args (engine, r, &m);
  }

  for (y0 = 0; y0 < (guint) h; y0 = y1) {
    guint reach = MIN ((guint) h, y0 + band + reach_y);
    ClbArgs a = cols;
    size_t cglobal[2];

    y1 = MIN ((guint) h, y0 + band);
    if (m.rows_needed && reach > done) {
      if (!run_rows (engine, r, &m, part, done, reach, cpu, error))
        return FALSE;
      done = reach;
    }
    clb_arg_int (&a, y0);
    clb_arg_int (&a, y1);
    clb_args_mask_seen (&a, engine);
    if (!clb_args_done (&a, error))
      return FALSE;
    cglobal[1] = (y1 - y0 + m.chunk - 1) / m.chunk;
    if (strip_chunk > 0) {
      cglobal[0] = ((size_t) job->width + MASK_STRIP - 1) / MASK_STRIP;
      CHECK (clb_engine_run_kernel (engine, k[K_MASK_COLUMNS_STRIP], 2,
              cglobal, mask_cpu_local (TRUE), "mask_columns_strip"),
          "clEnqueueNDRangeKernel (mask_columns_strip)");
    } else {
      cglobal[0] = ((size_t) job->width + local[0] - 1) / local[0]
          * local[0];
      CHECK (clb_engine_run_kernel (engine, k[K_MASK_COLUMNS], 2, cglobal,
              local, "mask_columns"),
          "clEnqueueNDRangeKernel (mask_columns)");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

/* run_mask_from with the alpha of the frame being filtered. */
static gboolean
run_mask (ClbEngine * engine, const ClbRun * r, cl_mem filtered,
    gboolean cpu, GError ** error)
{
  cl_int pitch;
  cl_mem alpha = alpha_plane (engine, r, &pitch);

  return run_mask_from (engine, r, filtered, cpu, alpha, pitch, error);
}

static gboolean
run_mask_cpu (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_mask (engine, r, r->filtered, TRUE, error);
}

static gboolean
run_mask_any (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_mask (engine, r, r->filtered, FALSE, error);
}

/* ---- the CPU's vector schedules (kernels/mask_x16.cl's mask_band): 8-bit
 * jobs, sums in 32 bits; mask_x16 (mask_fused_x16: pixels of 4 bytes
 * with alpha), mask_planar_x16 (one sample a pixel, the alpha a plane of
 * its own) and its pair ---- */

/* The alpha's lane in the pixel where mask_x16 takes @job (the colour
 * lanes of 4-byte 8-bit pixels whose fourth byte is the mask's alpha),
 * else -1. */
static gint
mask_x16_lane (const ClbPlanes * planes, const ClbParams * params,
    const ClbJob * job)
{
  guint lanes = 0, c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->plane != params->mask_plane
      || job->pixel_stride != 4 || params->mask_pixel_stride != 4
      || params->mask_offset > 3 || job->x_sub != 0 || job->y_sub != 0
      || job->channels != 3 || job->keep_mask != 0
      || (guint64) job->width * 4 != planes->plane_width[job->plane])
    return -1;
  for (c = 0; c < job->channels; c++)
    lanes |= 1u << job->offset[c];
  if ((lanes | (1u << params->mask_offset)) != 0xf)
    return -1;
  return params->mask_offset;
}

/* Whether mask_planar_x16 takes @job: 8-bit samples, one a pixel, the
 * alpha a plane of its own of one byte a pixel, the job at most 2 x 2
 * subsampled. */
static gboolean
mask_planar_takes (const ClbPlanes * planes, const ClbParams * params,
    const ClbJob * job)
{
  return planes->sample_size == CLB_SAMPLES_8 && planes->shift == 0
      && !planes->big_endian && job->plane != params->mask_plane
      && job->channels == 1 && job->pixel_stride == 1
      && job->keep_mask == 0 && params->mask_pixel_stride == 1
      && job->x_sub <= 1 && job->y_sub <= 1;
}

/* The pad of the rows of sums past each end: more than either radius
 * along the row. */
static guint
mask_band_pad (guint rx, gint fx)
{
  return MAX (rx, (guint) MAX (fx, 0)) + 1;
}

/* uint of a band's rows of sums: @nc of I w, w and (feather) alpha. */
static guint64
mask_band_uints (const ClbJob * job, guint rx, gint fx, guint nc)
{
  return ((job->width + 15) / 16 * 16 + 2 * (guint64) mask_band_pad (rx,
          fx)) * (nc + 1 + (fx >= 0 ? 1 : 0));
}

/* Rows a work-item of mask_band walks: the job's rows shared among twice
 * the compute units, fewer where the device caps loops; 0 where not one
 * fits. Loop costs, upper bounds (a tail's load or store: 16): the zeros,
 * the first windows (a step a 16 pixels and row), a move of the sums, the
 * pads, a row of the horizontal pass (its first windows, the feather's,
 * shrink's counts) and, subsampled (@sub), the alphas of the rows the
 * band reads (mask_sub_row: a step a 16 pixels, then 2 x 2 a pixel). */
static guint
mask_band_rows (const ClbDeviceProfile * profile, const ClbJob * job,
    guint rx, guint ry, gint fx, gint fy, guint nc, gboolean sub)
{
  guint64 chunks = (job->width + 15) / 16, nrows = nc + 1 + (fx >= 0);
  guint64 wy = 2 * (guint64) ry + 1, wf = fy >= 0 ? 2 * (guint64) fy + 1 : 0;
  guint64 move = chunks + 2 * (nc + 2) * 16 + 2;
  guint64 pads = (nrows + 1) * (guint64) mask_band_pad (rx, fx);
  guint64 row = (nc + 1) * (2 * (guint64) rx + 1) + chunks + 6 * 16 + 4
      + (fx >= 0 ? 4 * (guint64) fx + 66 : 0);
  guint64 sub_row = sub ? chunks + 7 * (guint64) job->width + 2 : 0;
  guint64 reach = MAX ((gint64) ry, (gint64) fy);
  guint64 start = mask_band_uints (job, rx, fx, nc) + 4
      + chunks * (wy + wf + 2) + (wy * (nc + 1) + wf) * 16
      + 2 * reach * sub_row;
  guint64 step = move + pads + row + sub_row + 2;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 rows = (job->height + bands - 1) / bands;

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + step)
      return 0;
    rows = MIN (rows, (profile->loop_budget - start) / step);
  }
  return (guint) CLAMP (rows, 1, MAX (job->height, 1));
}

/* Bytes of the alphas each band makes for itself (a subsampled job): the
 * rows it reads, @rows and the larger vertical radius each side, at most
 * all of them (the kernel's lo .. hi). */
static guint64
mask_sub_band (const ClbJob * job, guint ry, gint fy, guint rows)
{
  guint64 r = MAX ((gint64) ry, (gint64) fy);

  return (r < job->height ? MIN (job->height, rows + 2 * r) : job->height)
      * (guint64) job->width;
}

/* Bytes of mask_band's work buffer: the bands' sums, a subsampled job's
 * alphas (mask_sub_band a band), the input's copy where the job is
 * filtered in place (@copy: the plane's bytes). */
static guint64
mask_band_work (const ClbJob * job, guint rx, guint ry, gint fx, gint fy,
    guint rows, guint64 copy, guint nc)
{
  guint64 bands = (job->height + rows - 1) / rows;
  guint64 sub = job->x_sub || job->y_sub ?
      bands * mask_sub_band (job, ry, fy, rows) : 0;

  return bands * mask_band_uints (job, rx, fx, nc) * sizeof (cl_uint)
      + sub + copy;
}

/* The 32-bit sums' bound, the loops (without a feather: the run checks
 * it with the feather's) and the memory (in place: the plane copied), of
 * mask_x16 (pixels of 4 bytes: three samples a pixel) or mask_planar_x16
 * (one). */
static gboolean
mask_band_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 area = (2 * (guint64) rx + 1) * (2 * (guint64) ry + 1);
  guint nc = job->pixel_stride == 4 ? 3 : 1;
  guint rows = mask_band_rows (profile, job, rx, ry, -1, -1, nc,
      job->x_sub || job->y_sub);

  return area * 255 * 255 + area * 255 / 2 <= G_MAXUINT32 && rows > 0
      && mask_band_work (job, rx, ry, -1, -1, rows,
      (guint64) planes->plane_width[job->plane] * job->height, nc)
      <= clb_work_budget (profile, planes);
}

/* A run of the CPU variants by the general kernels (mask_rows,
 * mask_columns_strip), which take one pitch for the input and the
 * output and write the job's channels only: where the two differ, the
 * input's rows go to the output first (the other bytes, alpha, as they
 * came) and are filtered there in place; the alpha plane copied where
 * the run was to copy it (ClbRun.alpha_out). */
static gboolean
run_mask_general (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  ClbRun b = *r;
  cl_int apitch;
  cl_mem alpha = alpha_plane (engine, r, &apitch);

  if (r->in != r->out) {
    if (!clb_engine_copy_rect (engine, r->in, 0, 0, r->in_pitch, r->out, 0,
            0, r->out_pitch, (gsize) r->job->width * r->job->pixel_stride,
            r->job->height, "the job's rows", error))
      return FALSE;
    b.in = r->out;
    b.in_pitch = r->out_pitch;
  }
  return run_mask (engine, &b, NULL, TRUE, error)
      && (r->alpha_out == NULL || clb_engine_copy_rect (engine, alpha, 0, 0,
          apitch, r->alpha_out, 0, 0, r->alpha_out_pitch, r->job->width,
          r->job->height, "the alpha", error));
}

/* mask_band on r->job (@nc 1: mask_planar_x16; 3: mask_fused_x16, the
 * alpha byte @ao) or, @nc 2, mask_planar_pair_x16 on it and r->pair_job
 * (the same size and alphas; not in place). In place, from a copy of the
 * input (the bands read rows that others write). */
static gboolean
run_mask_band (ClbEngine * engine, const ClbRun * r, guint nc, gint ao,
    GError ** error)
{
  static const gint kernels[] = { K_MASK_PLANAR_X16, K_MASK_PLANAR_PAIR_X16,
    K_MASK_FUSED_X16
  };
  static const gchar *names[] = { "mask_planar_x16", "mask_planar_pair_x16",
    "mask_fused_x16"
  };
  const ClbParams *params = r->params;
  const ClbJob *job = r->job;
  cl_int fx = feather_radius (params, job->x_sub);
  cl_int fy = feather_radius (params, job->y_sub);
  gboolean sub = job->x_sub || job->y_sub, in_place = r->in == r->out;
  guint rows = mask_band_rows (&engine->profile, job, r->rx, r->ry, fx, fy,
      nc, sub);
  gsize copy = in_place ? (gsize) r->in_pitch * job->height : 0;
  gsize at_sub, at_copy, bands = rows ? (job->height + rows - 1) / rows : 0;
  cl_int apitch, off = nc < 3 ? (cl_int) job->offset[0] : 0, src_off = off;
  cl_int off2 = nc == 2 ? (cl_int) r->pair_job->offset[0] : off;
  cl_mem alpha = alpha_plane (engine, r, &apitch), src = r->in;
  gint k = kernels[nc - 1];
  ClbArgs a;

  g_assert (nc != 2 || (!in_place && r->pair_in != r->pair_out));
  /* mask_fused_x16 reads and writes the pixels as uint: rows at
   * multiples of 4 bytes (the buffers' starts are: clb_engine_filter
   * wraps no others) */
  if (rows == 0 || (nc == 3 && ((r->in_pitch | r->out_pitch) & 3)))
    return run_mask_general (engine, r, error);
  /* engine->work: the bands' sums, the alphas (sub), the copy */
  at_sub = bands * mask_band_uints (job, r->rx, fx, nc) * sizeof (cl_uint);
  at_copy = mask_band_work (job, r->rx, r->ry, fx, fy, rows, 0, nc);
  if (!clb_engine_ensure_work (engine, at_copy + copy, error))
    return FALSE;
  if (in_place) {
    CHECK (clEnqueueCopyBuffer (engine->queue, r->in, engine->work, 0,
            at_copy, copy, 0, NULL, NULL), "clEnqueueCopyBuffer");
    src = engine->work;
    src_off += at_copy;
  }
  a = clb_engine_args (engine, engine->kernels[CLB_SAMPLES_8][k]);
  clb_arg_mem (&a, src);
  clb_arg_int (&a, src_off);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, off);
  clb_arg_int (&a, r->out_pitch);
  clb_arg_mem (&a, nc == 2 ? r->pair_in : src);
  clb_arg_int (&a, nc == 2 ? off2 : src_off);
  clb_arg_int (&a, nc == 2 ? r->pair_in_pitch : r->in_pitch);
  clb_arg_mem (&a, nc == 2 ? r->pair_out : r->out);
  clb_arg_int (&a, off2);
  clb_arg_int (&a, nc == 2 ? r->pair_out_pitch : r->out_pitch);
  /* the frame's alpha plane (the bands of a subsampled job make theirs
   * from it, at at_sub); mask_fused_x16's are in its pixels */
  clb_arg_mem (&a, alpha);
  clb_arg_int (&a, params->mask_offset);
  clb_arg_int (&a, apitch);
  /* the alpha plane's copy (any buffer where there is none) */
  clb_arg_mem (&a, r->alpha_out ? r->alpha_out : r->out);
  clb_arg_int (&a, 0);
  clb_arg_int (&a, r->alpha_out_pitch);
  clb_arg_int (&a, r->alpha_out != NULL);
  clb_arg_int (&a, engine->planes.width);
  clb_arg_int (&a, engine->planes.plane_height[params->mask_plane]);
  clb_arg_int (&a, job->x_sub);
  clb_arg_int (&a, job->y_sub);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, at_sub);
  clb_arg_int (&a, sub ? (cl_int) mask_sub_band (job, r->ry, fy, rows) : 0);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, 0);
  clb_arg_int (&a, job->width);
  clb_arg_int (&a, job->height);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, fx);
  clb_arg_int (&a, fy);
  clb_arg_int (&a, r->border);
  clb_arg_int (&a, rows);
  clb_arg_int (&a, mask_band_pad (r->rx, fx));
  clb_arg_int (&a, ao);
  clb_args_mask_seen (&a, engine);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_run_lines (engine, CLB_SAMPLES_8, k, bands,
          names[nc - 1]), "clEnqueueNDRangeKernel (mask_band)");
  return TRUE;

failed:
  return FALSE;
}

static gboolean
run_mask_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_mask_band (engine, r, 3, mask_x16_lane (&engine->planes,
          r->params, r->job), error);
}

static gboolean
run_mask_planar (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_mask_band (engine, r, 1, 0, error);
}

/* Both jobs in one launch from one buffer into another; in place (frames
 * copied in: the plan's later uses), each alone. */
static gboolean
run_mask_planar_pair (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  ClbRun b;

  if (r->in != r->out && r->pair_in != r->pair_out)
    return run_mask_band (engine, r, 2, 0, error);
  clb_run_pair_other (r, &b);
  return run_mask_planar (engine, r, error)
      && run_mask_planar (engine, &b, error);
}

/* Not a row of the table: the plan pairs the jobs (clb_mask_pair). */
static const ClbVariant mask_planar_pair = {
  "mask_planar_pair_x16", CLB_VARIANTS_MASK, CLB_WIDTH_8, CLB_LAYOUT_ANY,
  FALSE, CLB_DEVICE_CLASS_CPU, "mask_planar_pair_x16 (subsampled jobs: "
      "the alphas made in its bands)", 0, TRUE, NULL, run_mask_planar_pair
};

/* The masked box's rows of the variant table (CLB_VARIANTS_MASK: for the
 * box methods, both alike), in the order they are tried; "mask", the
 * generic row, every device's. The kernels of the last two are the same;
 * the work's shape is the class's. */
const ClbVariant clb_mask_variants[] = {
  {"mask_x16", CLB_VARIANTS_MASK, CLB_WIDTH_8, CLB_LAYOUT_ANY, FALSE,
        CLB_DEVICE_CLASS_CPU, "mask_fused_x16 (in place: from a copy of "
        "the input)", 0,
      TRUE, mask_band_usable, run_mask_x16},
  {"mask_planar_x16", CLB_VARIANTS_MASK, CLB_WIDTH_8, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "mask_planar_x16 (subsampled jobs: the "
        "alphas made in its bands)", 0, TRUE, mask_band_usable,
      run_mask_planar},
  {"mask_cpu", CLB_VARIANTS_MASK, CLB_WIDTH_ANY, CLB_LAYOUT_ANY, FALSE,
        CLB_DEVICE_CLASS_CPU, "mask_rows, mask_columns_strip", 1, FALSE,
      mask_cpu_usable, run_mask_cpu},
  {"mask", CLB_VARIANTS_MASK, CLB_WIDTH_ANY, CLB_LAYOUT_ANY, FALSE,
        CLB_DEVICE_CLASS_AUTO, "mask_rows, mask_columns", 1, FALSE,
      mask_any_usable, run_mask_any},
};

const guint clb_mask_n_variants = G_N_ELEMENTS (clb_mask_variants);

/* The vector rows only for the box's jobs their walk takes (bilateral's
 * blend: the general kernels). */
gboolean
clb_mask_takes (const ClbVariant * v, const ClbPlanes * planes,
    const ClbParams * params, const ClbJob * job)
{
  gboolean box = !CLB_METHOD_IS_BILATERAL (params->method);

  if (v->run == run_mask_x16)
    return box && mask_x16_lane (planes, params, job) >= 0;
  return v->run != run_mask_planar || (box && mask_planar_takes (planes,
          params, job));
}

/* mask_planar_pair for two jobs that mask_planar_x16 takes alone (@alone_a
 * and @alone_b) on planes of their own, of one size and subsampling (so
 * one alpha: A420's U and V) and radii, where the device does not cap
 * loops and the bands' rows of sums fit the budget; else NULL. */
const ClbVariant *
clb_mask_pair (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbParams * params, const ClbVariant * alone_a, const ClbJob * a,
    guint rxa, guint rya, const ClbVariant * alone_b, const ClbJob * b,
    guint rxb, guint ryb)
{
  gint fx = feather_radius (params, a->x_sub);
  gint fy = feather_radius (params, a->y_sub);
  guint rows;

  if (alone_a == NULL || alone_b == NULL || alone_a->run != run_mask_planar
      || alone_b->run != run_mask_planar || a->plane == b->plane
      || a->width != b->width || a->height != b->height
      || a->x_sub != b->x_sub || a->y_sub != b->y_sub || rxa != rxb
      || rya != ryb || profile->loop_budget != 0)
    return NULL;
  rows = mask_band_rows (profile, a, rxa, rya, fx, fy, 2,
      a->x_sub || a->y_sub);
  if (rows == 0 || mask_band_work (a, rxa, rya, fx, fy, rows, 0, 2)
      > clb_work_budget (profile, planes))
    return NULL;
  return &mask_planar_pair;
}

/* Whether a wrapped run of @variant on @job can copy the frame's alpha
 * plane as it came (ClbRun.alpha_out): mask_planar_x16's and its pair's
 * jobs whose alpha is that whole plane, a byte a pixel (A420's Y); the
 * copy then costs a store of each row its band reads. */
gboolean
clb_mask_copies_alpha (const ClbVariant * variant, const ClbPlanes * planes,
    const ClbParams * params, const ClbJob * job)
{
  guint mp = params->mask_plane;

  return variant != NULL && (variant->run == run_mask_planar
      || variant->run == run_mask_planar_pair) && job->plane != mp
      && job->x_sub == 0 && job->y_sub == 0 && params->mask_offset == 0
      && params->mask_pixel_stride == 1
      && planes->plane_width[mp] == job->width
      && planes->plane_height[mp] == job->height;
}
