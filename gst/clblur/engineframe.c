/* clboxblur engine: a frame's way in and out.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * clb_engine_filter, the engine's one entry, and the frames it takes:
 * host memory (wrapped where the device works on host memory, else copied
 * in and out), OpenCL memory (enginemem.c) and 2D images.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"
#include "progcache.h"
#include <CL/cl_gl.h>

/* How a host frame goes through the kernels where it is (wrapped,
 * CL_MEM_USE_HOST_PTR): WRAP_DIRECT, the wrapping variants at any stride
 * (clb_engine_runs_direct); WRAP_PLANES, every method, on packed rows
 * without regions, as a frame from the pool (enginemem.c); WRAP_NONE,
 * copied in and out. */
typedef enum
{
  WRAP_NONE,
  WRAP_DIRECT,
  WRAP_PLANES
} WrapWay;

static WrapWay
can_wrap (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, const guint8 * const *src, const gsize * src_stride,
    guint8 * const *dst, const gsize * dst_stride)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  WrapWay way = clb_engine_runs_direct (engine, params, jobs, n_jobs) ?
      WRAP_DIRECT : engine->profile.zero_copy && !params->use_regions ?
      WRAP_PLANES : WRAP_NONE;
  guint p;

  if (way == WRAP_NONE)
    return WRAP_NONE;
  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p] * bytes;
    guint q;

    if (src_stride[p] < row || dst_stride[p] < row
        || src_stride[p] > G_MAXINT || dst_stride[p] > G_MAXINT
        || (way == WRAP_PLANES && (src_stride[p] != row
                || dst_stride[p] != row)))
      return WRAP_NONE;
    /* no output plane may share bytes with any input plane */
    for (q = 0; q < planes->n_planes; q++) {
      const guint8 *s = src[q], *d = dst[p];
      gsize sh = planes->plane_height[q], dh = planes->plane_height[p];

      if (s < d + dst_stride[p] * dh && d < s + src_stride[q] * sh)
        return WRAP_NONE;
    }
  }
  /* mask_fused_x16 reads and writes pixels of 4 bytes as uint: their
   * rows at addresses of 4 bytes (else the frame is copied in and out) */
  if (clb_mask_active (params)) {
    guint j;

    for (j = 0; j < n_jobs; j++) {
      p = jobs[j].plane;
      if (jobs[j].pixel_stride == 4 && (((guintptr) src[p]
                  | (guintptr) dst[p] | src_stride[p] | dst_stride[p]) & 3))
        return WRAP_NONE;
    }
  }
  return way;
}

/* The frame through kernels that read the caller's input and write its
 * output in place (CL_MEM_USE_HOST_PTR), the @way can_wrap gives: no
 * copy in or out. */
static gboolean
process_wrapped (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, WrapWay way, const guint8 * const *src,
    const gsize * src_stride, guint8 * const *dst, const gsize * dst_stride,
    gboolean * refused, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_mem in[CLB_MAX_PLANES] = { NULL, }, out[CLB_MAX_PLANES] = { NULL, };
  gsize bytes = clb_engine_container_bytes (planes);
  gboolean ok = FALSE;
  guint p;

  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p] * bytes, h = planes->plane_height[p];

    /* A device may refuse a host pointer (alignment, limits): nothing is
     * queued yet, so the caller copies the frame instead. */
    in[p] = clb_runtime_wrap_host (engine->rt, CL_MEM_READ_ONLY,
        (gpointer) src[p], src_stride[p] * (h - 1) + row, NULL);
    /* the output is read too: a packed YUV job run alone
     * (separable_fused_x16, mosaic_x16) reads the other job's bytes from
     * it to write them back as they are */
    if (in[p])
      out[p] = clb_runtime_wrap_host (engine->rt, CL_MEM_READ_WRITE, dst[p],
          dst_stride[p] * (h - 1) + row, NULL);
    if (!in[p] || !out[p]) {
      *refused = TRUE;
      goto done;
    }
  }
  if (!(way == WRAP_DIRECT ? clb_engine_run_wrapped_jobs (engine, params,
              jobs, n_jobs, in, src_stride, out, dst_stride, error) :
          clb_engine_run_jobs_between (engine, params, jobs, n_jobs, in, out,
              error)))
    goto done;
  /* A blocking map brings the results into the caller's memory where the
   * device worked on a copy of it. (The pointer of a map that is not
   * blocking may not be used, unmapping included, before the map is done:
   * rusticl answers such an unmap CL_INVALID_VALUE.) */
  for (p = 0; p < planes->n_planes; p++) {
    cl_int err = clb_fault ("clEnqueueMapBuffer");
    gpointer mapped = NULL;

    if (err == CL_SUCCESS)
      mapped = clEnqueueMapBuffer (engine->queue, out[p], CL_TRUE, CL_MAP_READ,
          0, dst_stride[p] * (planes->plane_height[p] - 1)
          + planes->plane_width[p] * bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
      clb_set_cl_error (error, err, "clEnqueueMapBuffer");
      goto failed;
    }
    CHECK (clEnqueueUnmapMemObject (engine->queue, out[p], mapped, 0, NULL,
            NULL), "clEnqueueUnmapMemObject");
  }
  CHECK (clFinish (engine->queue), "clFinish");
  ok = TRUE;
  goto done;

failed:
  ok = FALSE;
done:
  if (!ok)
    clFinish (engine->queue);
  for (p = 0; p < planes->n_planes; p++) {
    clb_runtime_release_buffer (&in[p]);
    clb_runtime_release_buffer (&out[p]);
  }
  return ok;
}

/* A frame in host memory: wrapped, or copied in and out. */
static gboolean
process_host (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * in,
    const ClbFrame * out, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const guint8 *const *src = (const guint8 * const *) in->data;
  guint8 *const *dst = out->data;
  const gsize *src_stride = in->stride, *dst_stride = out->stride;
  gsize bytes = clb_engine_container_bytes (planes);
  size_t origin[3] = { 0, 0, 0 };
  cl_mem *result;
  WrapWay way;
  guint p;

  way = can_wrap (engine, params, jobs, n_jobs, src, src_stride, dst,
      dst_stride);
  if (way != WRAP_NONE) {
    gboolean refused = FALSE;

    if (process_wrapped (engine, params, jobs, n_jobs, way, src, src_stride,
            dst, dst_stride, &refused, error))
      return TRUE;
    if (!refused)
      return FALSE;
  }
  result = clb_engine_result_planes (engine, params);

  /* Copies in, not waited for one by one: the queue runs in order, so the
   * kernels follow them and the last (blocking) read back follows those;
   * every way out waits for the queue before the caller's memory, valid
   * only until we return, is let go. */
  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };

    CHECK (clEnqueueWriteBufferRect (engine->queue, engine->plane_in[p],
            CL_FALSE, origin, origin, region, row, 0, src_stride[p], 0, src[p],
            0, NULL, NULL), "clEnqueueWriteBufferRect");
  }

  if (!clb_engine_run_jobs (engine, params, jobs, n_jobs, error))
    goto failed;

  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };

    /* the last read blocks: the queue is then empty */
    CHECK (clEnqueueReadBufferRect (engine->queue, result[p],
            p + 1 == planes->n_planes, origin, origin, region, row, 0,
            dst_stride[p], 0, dst[p], 0, NULL, NULL),
        "clEnqueueReadBufferRect");
  }
  return TRUE;

failed:
  /* Nothing may still be running against the caller's memory. */
  clFinish (engine->queue);
  return FALSE;
}

/* A frame in a 2D image: device-side copies to and from the buffers. */
static gboolean
process_image (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * in,
    const ClbFrame * out, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_mem src = in->image, dst = out->image;
  gboolean gl_objects = in->gl || out->gl;
  size_t origin[3] = { 0, 0, 0 };
  size_t region[3] = { planes->width, planes->height, 1 };
  cl_mem objects[2] = { src, dst };
  gboolean acquired = FALSE;
  cl_mem *result;

  if (planes->n_planes != 1 || planes->sample_size != CLB_SAMPLES_8
      || planes->plane_width[0] != 4 * planes->width) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_FORMAT,
        "images hold one plane of 8-bit RGBA, not this format");
    return FALSE;
  }
  result = clb_engine_result_planes (engine, params);

  if (gl_objects) {
    /* The caller has finished the GL commands on the textures (glFinish:
     * without cl_khr_gl_event there is no finer fence). */
    CHECK (clEnqueueAcquireGLObjects (engine->queue, 2, objects, 0, NULL,
            NULL), "clEnqueueAcquireGLObjects");
    acquired = TRUE;
  }
  /* Device-side copies: no pixel crosses the bus. */
  CHECK (clEnqueueCopyImageToBuffer (engine->queue, src, engine->plane_in[0],
          origin, region, 0, 0, NULL, NULL), "clEnqueueCopyImageToBuffer");
  if (!clb_engine_run_jobs (engine, params, jobs, n_jobs, error))
    goto failed;
  CHECK (clEnqueueCopyBufferToImage (engine->queue, result[0], dst, 0,
          origin, region, 0, NULL, NULL), "clEnqueueCopyBufferToImage");
  if (acquired) {
    acquired = FALSE;
    CHECK (clEnqueueReleaseGLObjects (engine->queue, 2, objects, 0, NULL,
            NULL), "clEnqueueReleaseGLObjects");
  }
  /* GL may use the textures once this returns. */
  CHECK (clFinish (engine->queue), "clFinish");
  return TRUE;

failed:
  if (acquired)
    clEnqueueReleaseGLObjects (engine->queue, 2, objects, 0, NULL, NULL);
  clFinish (engine->queue);
  return FALSE;
}

void
clb_frame_init_host (ClbFrame * frame, guint n_planes,
    const guint8 * const *data, const gsize * stride)
{
  guint p;

  memset (frame, 0, sizeof (*frame));
  frame->kind = CLB_FRAME_HOST;
  for (p = 0; p < MIN (n_planes, CLB_MAX_PLANES); p++) {
    frame->data[p] = (guint8 *) data[p];
    frame->stride[p] = stride[p];
  }
}

void
clb_frame_init_mem (ClbFrame * frame, guint n_planes,
    const ClbMemPlane * planes)
{
  guint p;

  memset (frame, 0, sizeof (*frame));
  frame->kind = CLB_FRAME_MEM;
  for (p = 0; p < MIN (n_planes, CLB_MAX_PLANES); p++) {
    frame->mem[p] = planes[p];
    frame->stride[p] = planes[p].stride;
  }
}

void
clb_frame_init_image (ClbFrame * frame, cl_mem image, gboolean gl)
{
  memset (frame, 0, sizeof (*frame));
  frame->kind = CLB_FRAME_IMAGE;
  frame->image = image;
  frame->gl = gl;
}

void
clb_frame_field (const ClbFrame * frame, guint n_planes, guint field,
    ClbFrame * view)
{
  guint p;

  *view = *frame;
  for (p = 0; p < MIN (n_planes, CLB_MAX_PLANES); p++) {
    if (frame->kind == CLB_FRAME_HOST)
      view->data[p] = frame->data[p] + field * frame->stride[p];
    /* a MEM field has no sub-buffer of its own: device-side copies */
    view->mem[p].offset = frame->mem[p].offset + field * frame->stride[p];
    view->mem[p].sub = NULL;
    view->mem[p].stride = view->stride[p] = 2 * frame->stride[p];
  }
}

/* The checks every kind of frame shares, then the kind's own way. */
static gboolean
filter_frame (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * src,
    const ClbFrame * dst, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  guint p;

  if (!clb_engine_check_jobs (engine, jobs, n_jobs, error))
    return FALSE;
  if (src->kind != dst->kind && !(src->kind == CLB_FRAME_HOST
          && dst->kind == CLB_FRAME_MEM)) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_FORMAT,
        "source and destination frames of different kinds (%d, %d)",
        src->kind, dst->kind);
    return FALSE;
  }
  if (src->kind == CLB_FRAME_IMAGE)
    return process_image (engine, params, jobs, n_jobs, src, dst, error);
  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p] * bytes;

    if (src->stride[p] < row || dst->stride[p] < row) {
      g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB,
          "plane %u: rows of %" G_GSIZE_FORMAT " / %" G_GSIZE_FORMAT
          " bytes, but %" G_GSIZE_FORMAT " bytes of samples", p,
          src->stride[p], dst->stride[p], row);
      return FALSE;
    }
  }
  if (dst->kind == CLB_FRAME_MEM && !clb_engine_wait_on_device (engine,
          dst->n_wait, dst->wait, error))
    return FALSE;
  if (dst->kind == CLB_FRAME_MEM && src->kind == CLB_FRAME_HOST)
    return clb_engine_process_host_to_mem (engine, params, jobs, n_jobs, src,
        dst->mem, error);
  if (src->kind == CLB_FRAME_MEM)
    return clb_engine_process_mem (engine, params, jobs, n_jobs, src->mem,
        dst->mem, dst->done, error);
  return process_host (engine, params, jobs, n_jobs, src, dst, error);
}

/* The program units a frame of @params runs, into @units; how many. */
static guint
units_of (const ClbParams * params, const gchar ** units)
{
  static const gchar *method_units[] = {
    [CLB_METHOD_SAT] = "sat",
    [CLB_METHOD_SEPARABLE] = "separable",
    [CLB_METHOD_BILATERAL] = "bilateral",
    [CLB_METHOD_MOSAIC] = "mosaic",
    [CLB_METHOD_FILL] = "mosaic",
    [CLB_METHOD_TEMPORAL] = "temporal",
  };
  guint n = 0;

  /* the box methods under the mask run the mask's kernels alone */
  if ((guint) params->method < G_N_ELEMENTS (method_units)
      && method_units[params->method] && !(clb_mask_active (params)
          && !CLB_METHOD_IS_BILATERAL (params->method)))
    units[n++] = method_units[params->method];
  if (params->method == CLB_METHOD_BILATERAL && params->range_from_noise > 0)
    units[n++] = "temporal";    /* the noise estimate */
  if (params->use_regions)
    units[n++] = "region";
  if (clb_mask_active (params))
    units[n++] = "mask";
  return n;
}

/* Makes the kernels of the program units a frame of @params runs (the
 * method's, the regions', the mask's) for @size's samples, before the
 * frame is planned. */
static gboolean
ensure_units (ClbEngine * engine, ClbSampleSize size,
    const ClbParams * params, GError ** error)
{
  const gchar *units[CLB_MAX_FRAME_UNITS];
  guint n = units_of (params, units), i;

  for (i = 0; i < n; i++)
    if (!clb_engine_ensure_unit (engine, size, units[i], error))
      return FALSE;
  return TRUE;
}

guint
clb_engine_units_to_build (ClbEngine * engine, const ClbParams * params,
    const gchar ** units, ClbSampleSize * size)
{
  const gchar *all[CLB_MAX_FRAME_UNITS];
  guint n = units_of (params, all), i, k = 0;

  *size = engine->planes.sample_size;
  if (!engine->configured)
    return 0;
  for (i = 0; i < n; i++)
    if (!(engine->units_made[*size] & (1u << clb_kernel_unit_index (all[i])))
        && clb_runtime_program_pending (engine->rt, *size, all[i]))
      units[k++] = all[i];
  return k;
}

gboolean
clb_engine_units_pending (ClbEngine * engine, const ClbParams * params)
{
  const gchar *units[CLB_MAX_FRAME_UNITS];
  ClbSampleSize size;

  return clb_engine_units_to_build (engine, params, units, &size) > 0;
}

gboolean
clb_engine_prepare (ClbEngine * engine, const ClbParams * params,
    GError ** error)
{
  return !engine->configured || ensure_units (engine,
      engine->planes.sample_size, params, error);
}

gboolean
clb_engine_filter (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * src,
    const ClbFrame * dst, GError ** error)
{
  gboolean ok;

  /* the kernels this frame runs, before it is planned */
  if (!clb_engine_prepare (engine, params, error))
    return FALSE;
  ok = filter_frame (engine, params, jobs, n_jobs, src, dst, error);

  /* the kernels' arguments keep no reference to the frame's memory past
   * the frame; the engine's own buffers stay set */
  clb_engine_keep_own_args (engine);
  return ok;
}
