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
#include <CL/cl_gl.h>

static gboolean
can_wrap (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, const guint8 * const *src, const gsize * src_stride,
    guint8 * const *dst, const gsize * dst_stride)
{
  const ClbPlanes *planes = &engine->planes;
  guint p;

  if (!clb_engine_runs_direct (engine, params, jobs, n_jobs))
    return FALSE;
  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p];
    guint q;

    if (src_stride[p] < row || dst_stride[p] < row
        || src_stride[p] > G_MAXINT || dst_stride[p] > G_MAXINT)
      return FALSE;
    /* no output plane may share bytes with any input plane */
    for (q = 0; q < planes->n_planes; q++) {
      const guint8 *s = src[q], *d = dst[p];
      gsize sh = planes->plane_height[q], dh = planes->plane_height[p];

      if (s < d + dst_stride[p] * dh && d < s + src_stride[q] * sh)
        return FALSE;
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
        return FALSE;
    }
  }
  return TRUE;
}

/* Copies plane @p of the frame @in to @out (its rows, each with its
 * stride) by copy_rows, a work-item a row: only CPU-class engines wrap
 * frames (clb_engine_options_wrap_frames), and PoCL's clEnqueueCopyBuffer
 * is one thread's memcpy (about 0.5 ms a 1080p NV12 frame, the other core
 * idle). */
static gboolean
copy_plane (ClbEngine * engine, cl_mem * in, const gsize * src_stride,
    cl_mem * out, const gsize * dst_stride, guint p, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  ClbArgs a = clb_args (engine->kernels[CLB_SAMPLES_8][K_COPY_ROWS]);

  clb_arg_mem (&a, in[p]);
  clb_arg_int (&a, (cl_int) src_stride[p]);
  clb_arg_mem (&a, out[p]);
  clb_arg_int (&a, (cl_int) dst_stride[p]);
  clb_arg_int (&a, planes->plane_width[p]);
  clb_arg_int (&a, planes->plane_height[p]);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_run_lines (engine, CLB_SAMPLES_8, K_COPY_ROWS,
          planes->plane_height[p], "copy_rows"),
      "clEnqueueNDRangeKernel (copy_rows)");
  return TRUE;

failed:
  return FALSE;
}

/* Copies the frame @in to @out, plane by plane (copy_plane). */
static gboolean
copy_frame (ClbEngine * engine, cl_mem * in, const gsize * src_stride,
    cl_mem * out, const gsize * dst_stride, GError ** error)
{
  guint p;

  for (p = 0; p < engine->planes.n_planes; p++) {
    if (!copy_plane (engine, in, src_stride, out, dst_stride, p, error))
      return FALSE;
  }
  return TRUE;
}

/* Runs every job on the wrapped planes with the variant the plan gives
 * it (a plan that runs direct: one pass). With regions, the output is
 * the original outside them: the frame is copied to it and the jobs
 * write the engine's plane_in, whose regions the composite then merges
 * into it; with region-invert the jobs write the output and the composite
 * merges the input's regions into it. */
gboolean
clb_engine_run_wrapped_jobs (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, cl_mem * in, const gsize * src_stride,
    cl_mem * out, const gsize * dst_stride, GError ** error)
{
  const ClbPlan *plan = clb_engine_plan (engine, params, jobs, n_jobs);
  const ClbPlanes *planes = &engine->planes;
  gboolean mask = clb_mask_active (params), alpha_written = FALSE;
  gboolean regions = params->use_regions;
  gboolean into_planes = regions && !params->region_invert;
  guint j, mp = params->mask_plane;

  /* (uploaded first: a blocking write, which waits for what is queued) */
  if (regions && !clb_engine_upload_regions (engine, params, planes->width,
          planes->height, error))
    return FALSE;
  if (into_planes && !copy_frame (engine, in, src_stride, out, dst_stride,
          error))
    return FALSE;

  for (j = 0; j < plan->n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    const ClbStep *step = &plan->steps[0][j];
    ClbRun r = { .params = params, .job = job, .index = j,
      .border = params->border, .rx = step->rx, .ry = step->ry,
      .shape = step->shape };
    const ClbVariant *variant = step->variant;
    ClbJob unkept, stripped;

    if (step->paired)
      continue;                 /* run by its pair's step */
    if (mask && clb_mask_job (params, job, &stripped) == NULL)
      continue;                 /* alpha alone: copied below */
    if (step->pair) {
      r.pair_index = step->pair - 1;
      r.pair_job = &jobs[r.pair_index];
      r.pair_rx = step->pair_rx;
      r.pair_ry = step->pair_ry;
      r.pair_in = in[r.pair_job->plane];
      r.pair_in_pitch = (cl_int) src_stride[r.pair_job->plane];
      r.pair_out = into_planes ? engine->plane_in[r.pair_job->plane] :
          out[r.pair_job->plane];
      r.pair_out_pitch = into_planes ?
          (cl_int) planes->plane_width[r.pair_job->plane] :
          (cl_int) dst_stride[r.pair_job->plane];
    }
    /* with the mask, alpha is not the jobs' (the plan runs direct only
     * where no job is left empty) */
    job = clb_mask_job (params, job, &stripped);
    r.job = clb_variant_job (variant, job, &unkept);
    r.in = in[job->plane];
    r.in_pitch = (cl_int) src_stride[job->plane];
    r.out = into_planes ? engine->plane_in[job->plane] : out[job->plane];
    r.out_pitch = into_planes ? (cl_int) planes->plane_width[job->plane] :
        (cl_int) dst_stride[job->plane];
    r.wrapped = TRUE;
    if (mask) {
      r.alpha = in[mp];
      r.alpha_pitch = (cl_int) src_stride[mp];
      alpha_written |= job->plane == mp;
      /* the alpha plane copied by the job that reads it whole */
      if (!alpha_written && !into_planes
          && clb_mask_copies_alpha (variant, planes, params, r.job)) {
        r.alpha_out = out[mp];
        r.alpha_out_pitch = (cl_int) dst_stride[mp];
        alpha_written = TRUE;
      }
    }
    if (!clb_engine_run_variant (engine, variant, &r, error))
      return FALSE;
  }
  if (regions) {
    for (j = 0; j < n_jobs; j++) {
      guint jp = jobs[j].plane;
      const ClbJob *keep = clb_jobs_subsampled_after (jobs, n_jobs, j);

      if (!(into_planes ? clb_engine_run_composite (engine, params, &jobs[j],
                  keep, engine->plane_in[jp], planes->plane_width[jp],
                  out[jp], dst_stride[jp], error) :
              clb_engine_run_composite (engine, params, &jobs[j], keep,
                  in[jp], src_stride[jp], out[jp], dst_stride[jp], error)))
        return FALSE;
    }
  }
  /* the mask's plane of its own (A420's A): as it came */
  return !mask || alpha_written || copy_plane (engine, in, src_stride, out,
      dst_stride, mp, error);
}

/* The frame through kernels that read the caller's input and write its
 * output in place (CL_MEM_USE_HOST_PTR): no copy in or out. */
static gboolean
process_wrapped (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const guint8 * const *src,
    const gsize * src_stride, guint8 * const *dst, const gsize * dst_stride,
    gboolean * refused, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_mem in[CLB_MAX_PLANES] = { NULL, }, out[CLB_MAX_PLANES] = { NULL, };
  gboolean ok = FALSE;
  guint p;

  for (p = 0; p < planes->n_planes; p++) {
    gsize row = planes->plane_width[p], h = planes->plane_height[p];

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
  if (!clb_engine_run_wrapped_jobs (engine, params, jobs, n_jobs, in, src_stride, out,
          dst_stride, error))
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
          + planes->plane_width[p], 0, NULL, NULL, &err);
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
  guint p;

  if (can_wrap (engine, params, jobs, n_jobs, src, src_stride, dst,
          dst_stride)) {
    gboolean refused = FALSE;

    if (process_wrapped (engine, params, jobs, n_jobs, src, src_stride, dst,
            dst_stride, &refused, error))
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
gboolean
clb_engine_filter (ClbEngine * engine, const ClbParams * params,
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
  if (dst->kind == CLB_FRAME_MEM && src->kind == CLB_FRAME_HOST)
    return clb_engine_process_host_to_mem (engine, params, jobs, n_jobs, src,
        dst->mem, error);
  if (src->kind == CLB_FRAME_MEM)
    return clb_engine_process_mem (engine, params, jobs, n_jobs, src->mem,
        dst->mem, error);
  return process_host (engine, params, jobs, n_jobs, src, dst, error);
}
