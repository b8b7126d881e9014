/* clboxblur engine: frames held in OpenCL memory.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame whose planes are in buffers of the engine's context (the
 * element's buffer pool, gstclpool.c) comes in and goes out without a
 * host copy. The kernels run on the planes' sub-buffers, on any device:
 * every method on packed rows without regions; where the engine wraps
 * frames (the device works on host memory: PoCL), the wrapping variants
 * with any stride too (with regions too, their composite merging into the
 * output: clb_engine_run_wrapped_jobs). Otherwise (padded rows, regions
 * the wrapping variants do not take: bilateral, a strength, the mask)
 * device-side copies to and from the engine's buffers.
 */
#include "config.h"

#include "engineprivate.h"

/* Whether the kernels can run on the planes where they are: every plane
 * has its sub-buffer, and no output plane shares bytes with an input
 * plane. On any device: the pool's frames are OpenCL buffers, in the
 * device's memory (discrete GPUs) or the host's (unified memory). */
static gboolean
can_run_in_place (ClbEngine * engine, const ClbMemPlane * src,
    const ClbMemPlane * dst)
{
  const ClbPlanes *planes = &engine->planes;
  guint p, q;

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

/* Device-side copies of @result into @dst's planes (queued, not waited
 * for). */
static gboolean
copy_out (ClbEngine * engine, cl_mem * result, const ClbMemPlane * dst,
    GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  size_t zero[3] = { 0, 0, 0 };
  guint p;

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
  return TRUE;

failed:
  return FALSE;
}

gboolean
clb_engine_wait_on_device (ClbEngine * engine, guint n_wait,
    const cl_event * wait, GError ** error)
{
  if (n_wait > 0)
    CHECK (clEnqueueBarrierWithWaitList (engine->queue, n_wait, wait, NULL),
        "clEnqueueBarrierWithWaitList");
  return TRUE;

failed:
  return FALSE;
}

/* The frame's end: with @done, an event of it, the queue flushed so that
 * other queues may wait for it (issue 40: the caller's memory carries it;
 * no host wait); else waited for. */
static gboolean
end_frame (ClbEngine * engine, cl_event * done, GError ** error)
{
  if (done == NULL) {
    CHECK (clFinish (engine->queue), "clFinish");
    return TRUE;
  }
  *done = NULL;
  CHECK (clEnqueueMarkerWithWaitList (engine->queue, 0, NULL, done),
      "clEnqueueMarkerWithWaitList");
  CHECK (clFlush (engine->queue), "clFlush");
  return TRUE;

failed:
  if (*done) {
    clReleaseEvent (*done);
    *done = NULL;
  }
  return FALSE;
}

gboolean
clb_engine_process_mem (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbMemPlane * src,
    const ClbMemPlane * dst, cl_event * done, GError ** error)
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
    if (clb_engine_runs_direct (engine, params, jobs, n_jobs)) {
      /* the wrapping variants, at any stride */
      clb_engine_log_mem (engine, "in place");
      ok = clb_engine_run_wrapped_jobs (engine, params, jobs, n_jobs, in,
          in_stride, out, out_stride, error);
    } else if (!params->use_regions && rows_packed (engine, src, dst)) {
      /* every method: its kernels read the input's planes and write the
       * output's (enginerun.c, frame_in / frame_out) */
      clb_engine_log_mem (engine, "in place, every method");
      ok = clb_engine_run_jobs_between (engine, params, jobs, n_jobs, in, out,
          error);
    } else {
      goto copies;
    }
    if (!ok || !end_frame (engine, done, error))
      goto failed;
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
  /* The caller hands the output on (maps on another queue) once this
   * returns, or once *done is complete. */
  if (!copy_out (engine, result, dst, error)
      || !end_frame (engine, done, error))
    goto failed;
  return TRUE;

failed:
  clFinish (engine->queue);
  return FALSE;
}

/* Whether the kernels can read @src, wrapped, and write @dst's planes in
 * place: the engine wraps frames, the plan runs direct, every output
 * plane has its sub-buffer. */
static gboolean
can_wrap_into (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * src,
    const ClbMemPlane * dst)
{
  const ClbPlanes *planes = &engine->planes;
  guint p;

  if (!engine->profile.zero_copy
      || !clb_engine_runs_direct (engine, params, jobs, n_jobs))
    return FALSE;
  for (p = 0; p < planes->n_planes; p++) {
    if (dst[p].sub == NULL || dst[p].stride > G_MAXINT
        || src->stride[p] > G_MAXINT)
      return FALSE;
  }
  return TRUE;
}

/* The wrapped input into @dst's planes in place; *@refused where the
 * device would not wrap a plane (nothing queued yet). */
static gboolean
wrap_into (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, const ClbFrame * src, const ClbMemPlane * dst,
    gboolean * refused, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_mem in[CLB_MAX_PLANES] = { NULL, }, out[CLB_MAX_PLANES];
  gsize out_stride[CLB_MAX_PLANES];
  gboolean ok = FALSE;
  guint p;

  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p], h = planes->plane_height[p];

    in[p] = clb_runtime_wrap_host (engine->rt, CL_MEM_READ_ONLY,
        src->data[p], src->stride[p] * (h - 1) + row, NULL);
    if (in[p] == NULL) {
      *refused = TRUE;
      goto done;
    }
    out[p] = dst[p].sub;
    out_stride[p] = dst[p].stride;
  }
  clb_engine_log_mem (engine, "host memory into OpenCL memory in place");
  if (!clb_engine_run_wrapped_jobs (engine, params, jobs, n_jobs, in,
          src->stride, out, out_stride, error))
    goto failed;
  /* the caller's input is let go once this returns */
  CHECK (clFinish (engine->queue), "clFinish");
  ok = TRUE;
  goto done;

failed:
  clFinish (engine->queue);
done:
  for (p = 0; p < planes->n_planes; p++)
    clb_runtime_release_buffer (&in[p]);
  return ok;
}

gboolean
clb_engine_process_host_to_mem (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * src,
    const ClbMemPlane * dst, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  size_t origin[3] = { 0, 0, 0 };
  cl_mem *result;
  guint p;

  if (can_wrap_into (engine, params, jobs, n_jobs, src, dst)) {
    gboolean refused = FALSE;

    if (wrap_into (engine, params, jobs, n_jobs, src, dst, &refused, error))
      return TRUE;
    if (!refused)
      return FALSE;
  }
  /* Copies in from the host, the kernels, device-side copies out: the
   * queue runs in order and the clFinish waits for all of them. */
  clb_engine_log_mem (engine, "host memory into OpenCL memory by copies");
  result = clb_engine_result_planes (engine, params);
  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };

    CHECK (clEnqueueWriteBufferRect (engine->queue, engine->plane_in[p],
            CL_FALSE, origin, origin, region, row, 0, src->stride[p], 0,
            src->data[p], 0, NULL, NULL), "clEnqueueWriteBufferRect");
  }
  if (!clb_engine_run_jobs (engine, params, jobs, n_jobs, error)
      || !copy_out (engine, result, dst, error))
    goto failed;
  CHECK (clFinish (engine->queue), "clFinish");
  return TRUE;

failed:
  /* Nothing may still be running against the caller's memory. */
  clFinish (engine->queue);
  return FALSE;
}
