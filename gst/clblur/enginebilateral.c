/* clboxblur engine: method bilateral, its CPU and GPU variants.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * bilateral_x16 (CPUs: 16 pixels in vector lanes, kernels/bilateral.cl),
 * bilateral_gpu (kernels/gpu_bilateral.cl: tiles in local memory, tables
 * in __constant memory; any device, GPUs first) and bilateral_global (any
 * device: the windows bilateral_gpu does not take); their rows of the
 * variant table.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

/* ---- bilateral ---- */

/* The most loop iterations of a bilateral_global work-item over a
 * window block of @cols x @rows: per tap the dx loop and two channel
 * loops; per window row the channel loop adding its sums; the centre,
 * the partial sums and the result (channel loops). */
static guint64
bilateral_loops (guint64 channels, guint64 cols, guint64 rows)
{
  return rows * (cols * (2 * channels + 3) + channels + 3)
      + 4 * (channels + 1) + 8;
}

/* Whether bilateral_x16's loops fit the device's cap (always where there
 * is none): its costliest blocks, those at the row's ends, as
 * CLB_LOOPS_BILATERAL_X16 (kernels/loops.h) counts them. */
static gboolean
bilateral_x16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  shape->whole_rows = TRUE;     /* a work-item's block is its row's */
  return clb_loops_fit (profile, CLB_LOOPS_BILATERAL_X16 ((guint64) rx,
          (guint64) ry, (guint64) job->channels));
}

/* CPUs: 16 pixels in vector lanes, each tap's weight computed as one
 * power of 2 of the spatial and range exponents together (no tables) */
static gboolean
run_bilateral_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  gdouble s = r->params->sigma_range * engine->planes.max_value / 255.0;
  /* -log2 (e) / (2 s^2): the exponent of 2 per squared difference */
  cl_float kr = s > 0 ? (cl_float) MAX (-1.0 / (2.0 * s * s * G_LN2), -1e30)
      : -1e30f;
  gdouble ss = r->params->sigma_spatial;
  cl_float ks = ss > 0 ? (cl_float) MAX (-1.0 / (2.0 * ss * ss * G_LN2),
      -1e30) : 0.0f;
  cl_float4 k;
  guint c;
  ClbArgs a = clb_engine_args (engine, engine->kernels[CLB_SAMPLES_8][K_BILATERAL_X16]);

  for (c = 0; c < 4; c++)
    k.s[c] = job->dist_mask & (1u << c) ? kr : 0.0f;
  clb_arg_mem (&a, r->in);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, r->out_pitch);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg (&a, sizeof (k), &k);
  clb_arg_float (&a, ks);
  clb_arg_int (&a, job->keep_mask);
  clb_arg_int (&a, r->y1);
  if (!clb_args_done (&a, error))
    return FALSE;
  /* the band's rows; lines past them, where the launch is rounded up to
   * whole work-groups, write what the next band writes again */
  CHECK (clb_run_lines_at (engine, CLB_SAMPLES_8, K_BILATERAL_X16,
          (size_t) (job->width + 15) / 16 * r->y0,
          (size_t) (job->width + 15) / 16 * (r->y1 - r->y0),
          (size_t) (job->width + 15) / 16 * r->band_rows, "bilateral_x16"),
      "clEnqueueNDRangeKernel (bilateral_x16)");
  return TRUE;

failed:
  return FALSE;
}

ClbArgs
clb_bilateral_args (ClbEngine * engine, cl_kernel kernel, const ClbRun * r)
{
  const ClbJob *job = r->job;
  ClbArgs a = clb_engine_args (engine, kernel);

  clb_args_layout (&a, r->in, &engine->planes, job);
  clb_arg_mem (&a, r->out);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg_mem (&a, engine->spatial[r->index]);
  clb_arg_mem (&a, engine->range);
  clb_arg_int (&a, job->dist_mask);
  clb_arg_int (&a, engine->planes.max_value);
  return a;
}

/* bilateral_global's window blocks (kernels/bilateral.cl) */
#define BLOCK_FIRST 1
#define BLOCK_LAST 2

static gboolean
run_bilateral_global (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbDeviceProfile *profile = &engine->profile;
  cl_kernel kernel =
      engine->kernels[engine->planes.sample_size][K_BILATERAL_GLOBAL];
  const ClbJob *job = r->job;
  cl_int rx = r->rx, ry = r->ry;
  size_t offset[2] = { r->x0, r->y0 };
  size_t global[2] = { r->x1 - r->x0, r->y1 - r->y0 };
  guint64 cn = job->channels, sw = 2 * (guint64) rx + 1;
  guint64 sh = 2 * (guint64) ry + 1;
  /* the window whole, or blocks of whole rows, or of parts of a row */
  guint cols = clb_steps_per_launch (profile, bilateral_loops (cn, 0, 1),
      2 * cn + 3, sw);
  guint rows = clb_steps_per_launch (profile, bilateral_loops (cn, 0, 0),
      cols * (2 * cn + 3) + cn + 3, sh);
  cl_mem sums = engine->range;  /* a buffer never touched with one block */
  ClbArgs fixed = clb_bilateral_args (engine, kernel, r);
  cl_int4 block;

  if (!clb_args_done (&fixed, error))
    return FALSE;
  if (cols < sw || rows < sh) {
    if (!clb_engine_ensure_work (engine, (gsize) job->width * job->height
            * (cn + 1) * sizeof (cl_float), error))
      return FALSE;
    sums = engine->work;
  }
  for (block.s[2] = -ry; block.s[2] <= ry; block.s[2] = block.s[3]) {
    block.s[3] = block.s[2] + MIN ((guint) (ry + 1 - block.s[2]), rows);
    for (block.s[0] = -rx; block.s[0] <= rx; block.s[0] = block.s[1]) {
      ClbArgs a = fixed;

      block.s[1] = block.s[0] + MIN ((guint) (rx + 1 - block.s[0]), cols);
      clb_arg_int4 (&a, block);
      clb_arg_mem (&a, sums);
      clb_arg_int (&a, (block.s[2] == -ry && block.s[0] == -rx ?
              BLOCK_FIRST : 0) | (block.s[3] > ry
              && block.s[1] > rx ? BLOCK_LAST : 0));
      if (!clb_args_done (&a, error))
        return FALSE;
      CHECK (clb_engine_run_kernel_at (engine, kernel, 2, offset, global,
              NULL, "bilateral_global"),
          "clEnqueueNDRangeKernel (bilateral_global)");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

/* ---- bilateral_gpu (kernels/gpu_bilateral.cl) ---- */

/* Work-group shapes, the least apron a pixel first (the tile is staged in
 * the order of its rows, coalesced whatever the shape). */
static const size_t gpu_shapes[][2] = {
  {16, 16}, {32, 8}, {16, 8}, {8, 8}, {8, 4}
};

/* The range table's floats staged in local memory: 8-bit samples only. */
static guint64
range_staged (const ClbPlanes * planes)
{
  return planes->sample_size == CLB_SAMPLES_8 ?
      (guint64) planes->max_value + 1 : 0;
}

/* The local memory of a work-group of @l: the tile (a float a sample),
 * then the range table staged (8-bit). As kernels/gpu_bilateral.cl lays
 * it out. */
static guint64
local_bytes (const ClbPlanes * planes, guint channels, const size_t * l,
    guint rx, guint ry)
{
  return ((guint64) (l[0] + 2 * rx) * (l[1] + 2 * ry) * channels
      + range_staged (planes)) * sizeof (cl_float);
}

/* The most loop iterations of a bilateral_gpu work-item (counted as
 * enginelaunch.c counts them, each iteration plus one a loop's end):
 * staging the tile (a channel loop a pixel) and the range table, the
 * window (the dx loop and three channel loops a tap, one a row), the
 * centre and the result. */
static guint64
gpu_loops (guint64 channels, guint rx, guint ry, const size_t * local,
    guint64 range)
{
  guint64 items = (guint64) local[0] * local[1];
  guint64 tile = (guint64) (local[0] + 2 * rx) * (local[1] + 2 * ry);
  guint64 sw = 2 * (guint64) rx + 1, sh = 2 * (guint64) ry + 1;

  return sh * (sw * (3 * channels + 4) + channels + 3)
      + (tile + items - 1) / items * (channels + 2) + 1
      + (range + items - 1) / items + 1 + 4 * (channels + 2) + 8;
}

static gboolean
clb_bilateral_gpu_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  ClbSampleSize size = planes->sample_size;
  guint64 range = range_staged (planes);
  guint64 constant = ((2 * (guint64) rx + 1) * (2 * (guint64) ry + 1)
      + range) * sizeof (cl_float);
  guint i;

  /* both tables at once within the constant memory (8-bit; 16-bit: the
   * spatial one, range being __global there) */
  if (profile->max_constant_args < 2 || constant > profile->max_constant_size)
    return FALSE;
  for (i = 0; i < G_N_ELEMENTS (gpu_shapes); i++) {
    const size_t *l = gpu_shapes[i];
    guint64 local = local_bytes (planes, job->channels, l, rx, ry);

    if (l[0] * l[1] <= profile->bilateral_gpu_max_wg[size]
        && l[0] <= profile->max_items[0] && l[1] <= profile->max_items[1]
        && local + profile->bilateral_gpu_static_local[size] <=
        profile->local_mem_size
        && (profile->loop_budget == 0 || gpu_loops (job->channels, rx, ry,
                l, range) <= profile->loop_budget)) {
      shape->local[0] = l[0];
      shape->local[1] = l[1];
      return TRUE;
    }
  }
  return FALSE;
}

static gboolean
clb_bilateral_gpu_run (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  const ClbPlanes *planes = &engine->planes;
  cl_kernel kernel = engine->kernels[planes->sample_size][K_BILATERAL_GPU];
  const size_t *local = r->shape.local;
  size_t offset[2] = { r->x0, r->y0 }, global[2];
  ClbArgs a;
  gboolean ok = FALSE;

  /* the spatial table among them: exactly the table, a __constant
   * argument (engine.c sizes its buffer so) */
  a = clb_bilateral_args (engine, kernel, r);
  clb_arg_int (&a, r->x1);
  clb_arg_int (&a, r->y1);
  /* the tile, then (8-bit) the range table */
  clb_arg_local (&a, local_bytes (planes, job->channels, local, r->rx,
          r->ry));
  if (!clb_args_done (&a, error))
    goto failed;
  /* the band in whole work-groups; the work-items past it only stage */
  global[0] = (r->x1 - r->x0 + local[0] - 1) / local[0] * local[0];
  global[1] = (r->y1 - r->y0 + local[1] - 1) / local[1] * local[1];
  CHECK (clb_engine_run_kernel_at (engine, kernel, 2, offset, global, local,
          "bilateral_gpu"), "clEnqueueNDRangeKernel (bilateral_gpu)");
  ok = TRUE;

failed:
  return ok;
}

/* The method's rows of the variant table (enginevariants.c), in the
 * order they are tried. */
const ClbVariant clb_bilateral_variants[] = {
  {"bilateral_x16", CLB_METHOD_BILATERAL, CLB_WIDTH_8, CLB_LAYOUT_DENSE,
        TRUE, CLB_DEVICE_CLASS_CPU, "bilateral_x16", 0, FALSE,
      bilateral_x16_fits, run_bilateral_x16},
  {"bilateral_gpu", CLB_METHOD_BILATERAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "bilateral_gpu", 0, FALSE,
      clb_bilateral_gpu_fits, clb_bilateral_gpu_run},
  {"bilateral_global", CLB_METHOD_BILATERAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "bilateral_global", 0, FALSE, NULL,
      run_bilateral_global},
};

const guint clb_bilateral_n_variants = G_N_ELEMENTS (clb_bilateral_variants);
