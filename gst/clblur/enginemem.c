/* clboxblur engine: frames held in OpenCL memory.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame whose planes are in buffers of the engine's context (the
 * element's buffer pool, gstclpool.c) comes in and goes out without a
 * host copy. Where the engine wraps frames (the device works on host
 * memory: PoCL), the kernels run on the planes' sub-buffers: the wrapping
 * variants with any stride, every method (no regions) on packed rows.
 * Otherwise (discrete GPUs, padded rows, regions) device-side copies to
 * and from the engine's buffers.
 */
#include "config.h"

#include "engineprivate.h"

/* Whether the kernels can run on the planes where they are: the engine
 * wraps frames (the device works on host memory), every plane has its
 * sub-buffer, and no output plane shares bytes with an input plane. */
static gboolean
can_run_in_place (ClbEngine * engine, const ClbMemPlane * src,
    const ClbMemPlane * dst)
{
  const ClbPlanes *planes = &engine->planes;
  guint p, q;

  if (!engine->profile.zero_copy)
    return FALSE;
  for (p = 0; p < planes->n_planes; p++) {
    if (src[p].sub == NULL || dst[p].sub == NULL
        || src[p].stride > G_MAXINT || dst[p].stride > G_MAXINT)
      return FALSE;
    /* input and output in different buffers (a pool's buffers never
     * overlap), or apart within one */
    for (q = 0; q < planes->n_planes; q++) {
      gsize s = src[q].offset, d = dst[p].offset;
      gsize sh = planes->plane_height[q], dh = planes->plane_height[p];

      if (src[q].buffer == dst[p].buffer && s < d + dst[p].stride * dh
          && d < s + src[q].stride * sh)
        return FALSE;
    }
  }
  return TRUE;
}

/* Whether every plane's rows are packed in both frames: the methods'
 * kernels take the engine's own pitch (the plane's width). */
static gboolean
rows_packed (ClbEngine * engine, const ClbMemPlane * src,
    const ClbMemPlane * dst)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  guint p;

  for (p = 0; p < planes->n_planes; p++) {
    if (src[p].stride != planes->plane_width[p] * bytes
        || dst[p].stride != planes->plane_width[p] * bytes)
      return FALSE;
  }
  return TRUE;
}

/* Logs how frames in OpenCL memory go when that changes. */
static void
clb_engine_log_mem (ClbEngine * engine, const gchar * how)
{
  if (engine->mem_log == how)
    return;
  engine->mem_log = how;
  clb_engine_log (engine, "frames in OpenCL memory: %s", how);
}

/* clEnqueueCopyBufferRect's buffer and origin for @plane: the whole
 * buffer from the plane's offset, never the sub-buffer (PoCL 5 crashes in
 * clEnqueueCopyBufferRect from a sub-buffer). */
static cl_mem
rect_of (const ClbMemPlane * plane, size_t * origin)
{
  origin[0] = plane->offset;
  origin[1] = origin[2] = 0;
  return plane->buffer;
}

gboolean
clb_engine_process_mem (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbMemPlane * src,
    const ClbMemPlane * dst, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  size_t zero[3] = { 0, 0, 0 };
  cl_mem *result;
  guint p;

  if (can_run_in_place (engine, src, dst)) {
    cl_mem in[CLB_MAX_PLANES], out[CLB_MAX_PLANES];
    gsize in_stride[CLB_MAX_PLANES], out_stride[CLB_MAX_PLANES];
    gboolean ok;

    for (p = 0; p < planes->n_planes; p++) {
      in[p] = src[p].sub;
      out[p] = dst[p].sub;
      in_stride[p] = src[p].stride;
      out_stride[p] = dst[p].stride;
    }
    if (clb_engine_plan (engine, params, jobs, n_jobs)->direct) {
      /* the wrapping variants, at any stride */
      clb_engine_log_mem (engine, "in place");
      ok = clb_engine_run_wrapped_jobs (engine, params, jobs, n_jobs, in,
          in_stride, out, out_stride, error);
    } else if (!params->use_regions && rows_packed (engine, src, dst)) {
      /* every method: its kernels read the input's planes and write the
       * output's (engine.c, frame_in / frame_out) */
      clb_engine_log_mem (engine, "in place, every method");
      engine->frame_in = in;
      engine->frame_out = out;
      ok = clb_engine_run_jobs (engine, params, jobs, n_jobs, error);
      engine->frame_in = engine->frame_out = NULL;
    } else {
      goto copies;
    }
    if (!ok)
      goto failed;
    CHECK (clFinish (engine->queue), "clFinish");
    return TRUE;
  }

copies:
  /* Device-side copies: the samples never cross to the host. */
  clb_engine_log_mem (engine, "through device-side copies");
  result = clb_engine_result_planes (engine, params);
  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };
    size_t origin[3];
    cl_mem mem = rect_of (&src[p], origin);

    if (src[p].stride == row)   /* dense rows: one plain copy */
      CHECK (clEnqueueCopyBuffer (engine->queue, mem, engine->plane_in[p],
              origin[0], 0, row * region[1], 0, NULL, NULL),
          "clEnqueueCopyBuffer (in)");
    else
      CHECK (clEnqueueCopyBufferRect (engine->queue, mem,
              engine->plane_in[p], origin, zero, region, src[p].stride, 0,
              row, 0, 0, NULL, NULL), "clEnqueueCopyBufferRect (in)");
  }
  if (!clb_engine_run_jobs (engine, params, jobs, n_jobs, error))
    goto failed;
  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };
    size_t origin[3];
    cl_mem mem = rect_of (&dst[p], origin);

    if (dst[p].stride == row)
      CHECK (clEnqueueCopyBuffer (engine->queue, result[p], mem, 0,
              origin[0], row * region[1], 0, NULL, NULL),
          "clEnqueueCopyBuffer (out)");
    else
      CHECK (clEnqueueCopyBufferRect (engine->queue, result[p], mem, zero,
              origin, region, row, 0, dst[p].stride, 0, 0, NULL, NULL),
          "clEnqueueCopyBufferRect (out)");
  }
  /* The caller hands the output on (maps on another queue) once this
   * returns. */
  CHECK (clFinish (engine->queue), "clFinish");
  return TRUE;

failed:
  clFinish (engine->queue);
  return FALSE;
}
