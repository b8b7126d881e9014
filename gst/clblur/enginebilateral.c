/* clboxblur engine: the bilateral_gpu variant (kernels/gpu_bilateral.cl).
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bilateral on GPUs: 2-D work-groups over output tiles, each staging its
 * tile and apron in local memory (planar floats, a plane a channel), the
 * spatial
 * table in __constant memory, and for 8-bit samples the range table too
 * (copied into local memory by each work-group). Where the tables do not
 * fit the device's constant memory, the tile its local memory, or the
 * loops its loop cap, the variant refuses the job and the table's next
 * row (bilateral_local, then bilateral_global) takes it.
 */
#include "config.h"

#include "engineprivate.h"

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
 * enginevariants.c counts them, each iteration plus one a loop's end):
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

gboolean
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

gboolean
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
