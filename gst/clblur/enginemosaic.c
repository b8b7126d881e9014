/* clboxblur engine: methods mosaic and fill.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Mosaic (kernels/mosaic.cl): mosaic_columns sums each sample column over
 * a block row's rows, mosaic_blocks adds a block's column sums and writes
 * the rounded mean down the block. A work-item per sample of a row and
 * block row in both, neighbours on neighbouring memory, which suits CPUs
 * (PoCL runs a work-group's items as vector lanes) and GPUs alike: one
 * row serves both classes. The step's radii are the block's side in the
 * job's pixels (engineradii.c).
 *
 * mosaic_x16 (CPUs, 8-bit jobs of 1 to 4 bytes a pixel, packed YUV's
 * jobs too): a work-item per block row and span of blocks, the column sums
 * in 16 ushort lanes, the block's row of means copied down its rows 16
 * bytes a step (the job's lanes only, where it shares its pixels).
 *
 * Fill: fill_samples writes each channel's value, a work-item a pixel.
 */
#include "config.h"

#include "engineprivate.h"

/* The layout arguments (clb_args_layout's) with the run's pitch. */
static void
layout_args (ClbArgs * a, cl_mem buffer, cl_int pitch,
    const ClbPlanes * planes, const ClbJob * job)
{
  clb_arg_mem (a, buffer);
  clb_arg_int (a, pitch);
  clb_arg_int (a, job->pixel_stride);
  clb_arg_int4 (a, clb_job_offsets (job));
  clb_arg_int (a, planes->big_endian);
  clb_arg_int (a, planes->shift);
}

/* The work buffer every job of the frame fits (4 bytes a sample of the
 * widest plane's row, as many block rows as the tallest job has), within
 * what the device allows: the first job makes it, so that no later job of
 * the frame replaces it while the earlier jobs' kernels are queued (legal
 * OpenCL, but Oclgrind's shadow memory then reads the new buffer as
 * unwritten). */
static gsize
mosaic_frame_work (ClbEngine * engine, guint block)
{
  const ClbPlanes *planes = &engine->planes;
  guint64 widest = 0, rows, most;
  guint p;

  for (p = 0; p < planes->n_planes; p++)
    widest = MAX (widest, planes->plane_width[p]);
  /* luma: height / block rows; chroma of half the height, blocks of half
   * the size: as many, one more for the rounding */
  block = CLAMP (block, CLB_MIN_BLOCK_SIZE, CLB_MAX_BLOCK_SIZE);
  rows = (planes->height + block - 1) / block + 1;
  most = clb_work_budget (&engine->profile, planes);
  return (gsize) MIN (rows * widest * 4, most);
}

/* a work-item's loops, as kernels/loops.h counts them */
static gboolean
mosaic_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint bw, guint bh, ClbWorkShape * shape)
{
  return clb_loops_fit (profile, CLB_LOOPS_MOSAIC ((guint64) bw,
          (guint64) bh));
}

static gboolean
run_mosaic (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int bw = r->rx, bh = r->ry;
  size_t row_len = (size_t) job->width * job->channels;
  guint block_rows = (job->height + bh - 1) / bh, band, by;
  ClbArgs cols, blocks;

  /* the column sums of as many block rows as the memory allows */
  if (!clb_plan_ring (engine, "mosaic", row_len * sizeof (cl_uint),
          block_rows, 0, &band, error)
      || !clb_engine_ensure_work (engine, MAX (band * row_len *
              sizeof (cl_uint), mosaic_frame_work (engine,
                  r->params->block_size)), error))
    return FALSE;

  for (by = 0; by < block_rows; by += band) {
    guint n = MIN (band, block_rows - by);
    size_t global[2] = { (row_len + 63) / 64 * 64, n };
    size_t offset[2] = { 0, by };
    /* the band's column sums from the start of the work buffer */
    cl_int first = by;

    cols = clb_engine_args (engine, k[K_MOSAIC_COLUMNS]);
    layout_args (&cols, r->in, r->in_pitch, &engine->planes, job);
    clb_arg_mem (&cols, engine->work);
    clb_args_size (&cols, job);
    clb_arg_int (&cols, bh);
    clb_arg_int (&cols, first);
    blocks = clb_engine_args (engine, k[K_MOSAIC_BLOCKS]);
    clb_arg_mem (&blocks, engine->work);
    layout_args (&blocks, r->out, r->out_pitch, &engine->planes, job);
    clb_args_size (&blocks, job);
    clb_arg_int (&blocks, bw);
    clb_arg_int (&blocks, bh);
    clb_arg_int (&blocks, first);
    if (!clb_args_done (&cols, error) || !clb_args_done (&blocks, error))
      return FALSE;
    CHECK (clb_engine_run_grid (engine, K_MOSAIC_COLUMNS, offset, global,
            "mosaic_columns"), "clEnqueueNDRangeKernel (mosaic_columns)");
    CHECK (clb_engine_run_grid (engine, K_MOSAIC_BLOCKS, offset, global,
            "mosaic_blocks"), "clEnqueueNDRangeKernel (mosaic_blocks)");
  }
  return TRUE;

failed:
  return FALSE;
}

/* ---- mosaic_x16: CPUs, dense 8-bit jobs ---- */

/* The bytes of a row a work-item of mosaic_x16 takes: whole blocks, a
 * multiple of 16 bytes where the block's bytes allow, at least 256 and at
 * least MOSAIC_X16_BYTES over the block's rows (a work-item is a
 * work-group: few enough that starting them costs little beside their
 * work, with small blocks too), no more than the row needs. */
#define MOSAIC_X16_BYTES 8192

static guint
mosaic_x16_span (const ClbJob * job, guint bw, guint bh)
{
  guint bspan = bw * job->pixel_stride, blocks = 1;
  guint64 row = (guint64) job->width * job->pixel_stride;

  while ((blocks * bspan) % 16 != 0 && blocks < 16)
    blocks++;
  while ((guint64) blocks * bspan < MAX (256, MOSAIC_X16_BYTES / MAX (bh, 1))
      && (guint64) blocks * bspan < row)
    blocks *= 2;
  return blocks * bspan;
}

/* Whether mosaic_x16 takes the job's layout: 8-bit samples as stored,
 * each channel its own byte of pixels of 1 to 4 bytes; where the channels
 * are not all the pixel's bytes, pixels of 1, 2 or 4 bytes (a 16-byte
 * step then starts on a pixel, and one mask serves every step). */
static gboolean
mosaic_x16_layout (const ClbPlanes * planes, const ClbJob * job,
    gboolean * dense)
{
  guint lanes = 0, c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->pixel_stride < 1 || job->pixel_stride > 4)
    return FALSE;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] >= job->pixel_stride || (lanes >> job->offset[c]) & 1)
      return FALSE;
    lanes |= 1u << job->offset[c];
  }
  *dense = lanes == (1u << job->pixel_stride) - 1;
  return *dense || job->pixel_stride != 3;
}

/* Whether mosaic_x16 takes the job's blocks' means in vector lanes: 1 for
 * pixels of 1, 2 or 4 bytes, blocks of a power of 2 bytes below 16 or of
 * a multiple of 16 (a step of 16 bytes or of one block); 2 for 3-byte
 * pixels all the job's (RGB), blocks of a power of 2 pixels up to 16 (a
 * 48-byte step holds whole blocks); 0: one block at a time. */
static cl_int
mosaic_x16_small (const ClbJob * job, guint bw)
{
  guint ps = job->pixel_stride, bspan = bw * ps;

  if (ps == 3 && job->channels == 3 && bw <= 16 && (bw & (bw - 1)) == 0)
    return 2;                   /* RGB: 48 bytes a step */
  return (ps == 1 || ps == 2 || ps == 4) && (bspan % 16 == 0
      || (bspan < 16 && (bspan & (bspan - 1)) == 0));
}

static gboolean
mosaic_x16_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint bw, guint bh,
    ClbWorkShape * shape)
{
  guint64 span = mosaic_x16_span (job, bw, bh);
  gboolean dense;

  if (!mosaic_x16_layout (planes, job, &dense))
    return FALSE;

  /* as kernels/loops.h counts them */
  return clb_loops_fit (profile, CLB_LOOPS_MOSAIC_X16 (span, (guint64) bh));
}

/* mosaic_x16 over r->job, with @luma >= 0 packed 4:2:2's Y job and its
 * UV job (r->pair_job) together (clb_mosaic_pair). */
static gboolean
run_mosaic_x16_as (ClbEngine * engine, const ClbRun * r, gint luma,
    GError ** error)
{
  const ClbJob *job = r->job;
  cl_kernel kernel = engine->kernels[CLB_SAMPLES_8][K_MOSAIC_X16];
  cl_int bw = r->rx, bh = r->ry, span = mosaic_x16_span (job, r->rx, r->ry);
  size_t row_len = (size_t) job->width * job->pixel_stride;
  gboolean dense = luma >= 0;
  size_t spans = (row_len + span - 1) / span;
  guint block_rows = (job->height + bh - 1) / bh, band, by;

  if (luma < 0)
    mosaic_x16_layout (&engine->planes, job, &dense);
  /* a block row's sums (ushort) and means (uchar): 4 bytes a byte */
  if (!clb_plan_ring (engine, "mosaic", row_len * 4, block_rows, 0, &band,
          error)
      || !clb_engine_ensure_work (engine, MAX (band * row_len * 4,
              mosaic_frame_work (engine, r->params->block_size)), error))
    return FALSE;
  for (by = 0; by < block_rows; by += band) {
    size_t global[2] = { spans, MIN (band, block_rows - by) };
    size_t local[2] = { 1, 1 };
    size_t offset[2] = { 0, by };
    ClbArgs a = clb_engine_args (engine, kernel);

    clb_arg_mem (&a, r->in);
    clb_arg_int (&a, r->in_pitch);
    clb_arg_mem (&a, r->out);
    clb_arg_int (&a, r->out_pitch);
    clb_arg_mem (&a, engine->work);
    clb_arg_int (&a, job->width);
    clb_arg_int (&a, job->height);
    clb_arg_int (&a, job->pixel_stride);
    clb_arg_int4 (&a, clb_job_offsets (job));
    clb_arg_int (&a, job->channels);
    clb_arg_int (&a, bw);
    clb_arg_int (&a, bh);
    clb_arg_int (&a, span);
    clb_arg_int (&a, by);
    clb_arg_int (&a, dense);
    clb_arg_int (&a, mosaic_x16_small (job, bw));
    clb_arg_int (&a, luma);
    if (!clb_args_done (&a, error))
      return FALSE;
    /* a work-item a work-group: the threads share them */
    CHECK (clb_engine_run_kernel_at (engine, kernel, 2, offset, global,
            local, "mosaic_x16"), "clEnqueueNDRangeKernel (mosaic_x16)");
  }
  return TRUE;

failed:
  return FALSE;
}

static gboolean
run_mosaic_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_mosaic_x16_as (engine, r, -1, error);
}

/* CPUs, packed 4:2:2's Y job (r->job) and UV job (r->pair_job) in one
 * walk of mosaic_x16: every byte of the plane read once and written once
 * (each alone reads them all and writes its own, keeping the others). */
static gboolean
run_mosaic_422 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  gint luma = clb_packed_422_luma (&engine->planes, r->job, r->pair_job);

  g_assert (luma >= 0);
  return run_mosaic_x16_as (engine, r, luma, error);
}

/* Not a row of the table: the plan pairs the jobs (clb_mosaic_pair). */
static const ClbVariant mosaic_422 = {
  "mosaic_422_x16", CLB_METHOD_MOSAIC, CLB_WIDTH_8, CLB_LAYOUT_ANY, FALSE,
  CLB_DEVICE_CLASS_CPU, "mosaic_x16 (both packed 4:2:2 jobs)", 0, TRUE,
  NULL, run_mosaic_422
};

const ClbVariant *
clb_mosaic_pair (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbParams * params, const ClbVariant * alone_a, const ClbJob * a,
    guint rxa, guint rya, const ClbVariant * alone_b, const ClbJob * b,
    guint rxb, guint ryb)
{
  /* blocks whose means mosaic_x16 takes in its vector lanes (small 1):
   * the Y job's and the UV job's span the same bytes */
  if (alone_a != &clb_mosaic_variants[0] || alone_b != alone_a
      || clb_packed_422_luma (planes, a, b) < 0 || rya != ryb || rxa < 2
      || rxb * 2 != rxa || mosaic_x16_small (a, rxa) != 1)
    return NULL;
  return &mosaic_422;
}

static gboolean
run_fill (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  cl_kernel kernel = engine->kernels[engine->planes.sample_size]
      [K_FILL_SAMPLES];
  size_t pixels[2] = { job->width, job->height };
  cl_int4 value;
  ClbArgs a;
  guint c;

  for (c = 0; c < 4; c++)
    value.s[c] = c < job->channels ? (cl_int) MIN (job->fill[c],
        engine->planes.max_value) : 0;
  a = clb_engine_args (engine, kernel);
  layout_args (&a, r->out, r->out_pitch, &engine->planes, job);
  clb_args_size (&a, job);
  clb_arg_int4 (&a, value);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_engine_run_grid (engine, K_FILL_SAMPLES, NULL, pixels,
          "fill_samples"), "clEnqueueNDRangeKernel (fill_samples)");
  return TRUE;

failed:
  return FALSE;
}

/* The methods' rows of the variant table (enginevariants.c), in the
 * order they are tried: mosaic_x16 for 8-bit jobs on CPUs (it may
 * read and write the caller's memory, at its strides), then one row for
 * every device and layout. */
const ClbVariant clb_mosaic_variants[] = {
  {"mosaic_x16", CLB_METHOD_MOSAIC, CLB_WIDTH_8, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "mosaic_x16", 0, TRUE,
      mosaic_x16_usable, run_mosaic_x16},
  {"mosaic", CLB_METHOD_MOSAIC, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "mosaic_columns, mosaic_blocks", 1,
      FALSE, mosaic_usable, run_mosaic},
};

const guint clb_mosaic_n_variants = G_N_ELEMENTS (clb_mosaic_variants);

const ClbVariant clb_fill_variants[] = {
  {"fill", CLB_METHOD_FILL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "fill_samples", 1, FALSE, NULL,
      run_fill},
};

const guint clb_fill_n_variants = G_N_ELEMENTS (clb_fill_variants);
