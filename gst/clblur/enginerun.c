/* clboxblur engine: the jobs' runs, a frame's orchestration.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame's jobs run as its plan says (engineplan.c): each step's
 * variant (enginevariants.c), the mask's blend, the regions' composite
 * (enginecomposite.c) or their groups at a strength of their own
 * (engineregions.c); from the engine's planes (clb_engine_run_jobs) or
 * on the caller's wrapped memory (clb_engine_run_wrapped_jobs). Above
 * the method files and the table, below the frame's way in and out
 * (engineframe.c, enginemem.c).
 */
#include "config.h"

#include "engineprivate.h"

/* Copies plane @p of the frame @in to @out (its rows, each with its
 * stride) by copy_rows, a work-item a row: only the CPU class's variants
 * run direct (clb_variant_wraps), and PoCL's clEnqueueCopyBuffer
 * is one thread's memcpy (about 0.5 ms a 1080p NV12 frame, the other core
 * idle). */
static gboolean
copy_plane (ClbEngine * engine, cl_mem * in, const gsize * src_stride,
    cl_mem * out, const gsize * dst_stride, guint p, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  ClbArgs a = clb_engine_args (engine, engine->kernels[CLB_SAMPLES_8][K_COPY_ROWS]);

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

  if (regions && !clb_engine_upload_regions (engine, params, planes->width,
          planes->height, error))
    return FALSE;
  if (into_planes && !copy_frame (engine, in, src_stride, out, dst_stride,
          error))
    return FALSE;
  if (mask)
    clb_engine_mask_seen_begin (engine);

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
  /* the mask's plane of its own (A420's A): as it came; the flag read */
  return !mask || ((alpha_written || copy_plane (engine, in, src_stride, out,
              dst_stride, mp, error))
      && clb_engine_mask_seen_end (engine, error));
}

/* Runs job @j's pass @pass as the plan's @step says. Box methods filter
 * plane_in in place; bilateral writes plane_out. */
static gboolean
run_job (ClbEngine * engine, const ClbParams * params, guint j,
    const ClbJob * jobs, const ClbStep * step, GError ** error)
{
  const ClbJob *job = &jobs[j];
  const ClbVariant *variant = step->variant;
  ClbRun r = { .params = params, .job = job, .index = j,
    .border = params->border, .rx = step->rx, .ry = step->ry,
    .shape = step->shape };
  cl_int pitch = engine->planes.plane_width[job->plane];
  ClbJob unkept, stripped;

  if (variant == NULL || step->paired)
    return TRUE;                /* passed through, or run with another */
  if (step->pair) {
    r.pair_index = step->pair - 1;
    r.pair_job = &jobs[r.pair_index];
    r.pair_rx = step->pair_rx;
    r.pair_ry = step->pair_ry;
  }
  /* with the mask, alpha leaves as it came: out of the box's jobs, kept
   * by bilateral's (whose output the mask blends) */
  job = clb_mask_step_job (params, job, &stripped);
  g_assert (job != NULL);       /* the plan passes those through */

  if (params->method == CLB_METHOD_BILATERAL
      && !clb_engine_bilateral_tables (engine, params, j, r.rx, r.ry, error))
    return FALSE;
  r.job = clb_variant_job (variant, job, &unkept);
  if (engine->frame_out) {
    /* a job's first run reads the input, the next ones its own output */
    r.in = (engine->frame_written & (1u << j) ? engine->frame_out :
        engine->frame_in)[job->plane];
    r.out = engine->frame_out[job->plane];
    engine->frame_written |= 1u << j;
    if (step->pair) {
      r.pair_in = (engine->frame_written & (1u << r.pair_index) ?
          engine->frame_out : engine->frame_in)[r.pair_job->plane];
      r.pair_out = engine->frame_out[r.pair_job->plane];
      engine->frame_written |= 1u << r.pair_index;
    }
  } else {
    r.in = engine->plane_in[job->plane];
    r.out = CLB_METHOD_IS_BILATERAL (params->method) ?
        engine->plane_out[job->plane] : r.in;
    if (step->pair)
      r.pair_in = r.pair_out = engine->plane_in[r.pair_job->plane];
  }
  r.in_pitch = r.out_pitch = pitch;
  if (step->pair)
    r.pair_in_pitch = r.pair_out_pitch =
        engine->planes.plane_width[r.pair_job->plane];
  if (CLB_METHOD_IS_BILATERAL (params->method)) {
    /* temporal: the whole job at once (its blend before any window) */
    r.x1 = r.job->width;
    r.y1 = r.band_rows = r.job->height;
    if (!(params->method == CLB_METHOD_TEMPORAL ?
            clb_engine_run_variant (engine, variant, &r, error) :
            clb_engine_run_bands (engine, variant, &r, error)))
      return FALSE;
    if (step->blend) {
      /* the mask only blends bilateral's output with the input, in the
       * colour channels */
      ClbRun b = r;
      ClbJob colours;

      b.job = clb_variant_job (step->blend,
          clb_mask_job (params, &jobs[j], &colours), &unkept);
      b.filtered = r.out;
      return step->blend->run (engine, &b, error);
    }
    return TRUE;
  }
  return clb_engine_run_variant (engine, variant, &r, error);
}

/* Filters the frame in plane_in; the result is in result_planes(). With
 * frame_in and frame_out set (enginemem.c; no regions), from frame_in
 * into frame_out. */
gboolean
clb_engine_run_jobs (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  gboolean bilateral = CLB_METHOD_IS_BILATERAL (params->method);
  gboolean regions = params->use_regions;
  const ClbPlan *plan = clb_engine_plan (engine, params, jobs, n_jobs);
  ClbParams ranged;
  guint p, j, pass;

  if (plan->unknown_method) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_METHOD,
        "unknown method %d", params->method);
    return FALSE;
  }
  if (params->method == CLB_METHOD_BILATERAL && params->range_from_noise > 0
      && n_jobs > 0) {
    /* the range sigma from the noise level, on the first job's input */
    ClbRun r = { .params = params, .job = &jobs[0] };

    r.in = (engine->frame_out ? engine->frame_in :
        engine->plane_in)[jobs[0].plane];
    ranged = *params;
    if (!clb_engine_noise_range (engine, &r, &ranged.sigma_range, error))
      return FALSE;
    params = &ranged;
  }
  if (!clb_mask_check (planes, params, error))
    return FALSE;
  if (clb_mask_active (params))
    clb_engine_mask_seen_begin (engine);
  if (engine->frame_out) {
    /* bytes no job writes (kept channels, gaps, jobs passed through) come
     * from the input */
    gboolean copy = !plan->every_byte;

    engine->frame_written = 0;
    for (p = 0; copy && p < planes->n_planes; p++) {
      size_t row = planes->plane_width[p] * bytes;

      CHECK (clEnqueueCopyBuffer (engine->queue, engine->frame_in[p],
              engine->frame_out[p], 0, 0, row * planes->plane_height[p], 0,
              NULL, NULL), "clEnqueueCopyBuffer");
    }
  } else if (bilateral || regions) {
    /* Bytes no job writes (alpha kept, padding) come from the input; with
     * regions, so do the samples left unfiltered. */
    for (p = 0; p < planes->n_planes; p++) {
      size_t row = planes->plane_width[p] * bytes;

      CHECK (clEnqueueCopyBuffer (engine->queue, engine->plane_in[p],
              engine->plane_out[p], 0, 0, row * planes->plane_height[p], 0,
              NULL, NULL), "clEnqueueCopyBuffer");
    }
  }

  if (clb_regions_have_strength (params))
    /* each region at its own strength, filtered where it is */
    return clb_engine_run_region_groups (engine, params, jobs, n_jobs,
        error) && (!clb_mask_active (params)
        || clb_engine_mask_seen_end (engine, error));

  for (pass = 0; pass < plan->passes; pass++) {
    for (j = 0; j < plan->n_jobs; j++) {
      if (!clb_engine_check_cancelled (engine, error)
          || !run_job (engine, params, j, jobs, &plan->steps[pass][j],
              error))
        return FALSE;
    }
  }

  if (regions && n_jobs > 0) {
    /* The regions' content goes into the result plane, which holds the
     * outside: the filtered samples of plane_in (box) or plane_out
     * (bilateral) into the original, or with region-invert the original
     * into the filtered. */
    cl_mem *to = clb_engine_result_planes (engine, params);
    cl_mem *from = to == engine->plane_in ? engine->plane_out :
        engine->plane_in;

    if (!clb_engine_upload_regions (engine, params, planes->width,
            planes->height, error))
      return FALSE;
    for (j = 0; j < n_jobs; j++) {
      cl_int pitch = planes->plane_width[jobs[j].plane];

      if (!clb_engine_run_composite (engine, params, &jobs[j],
              clb_jobs_subsampled_after (jobs, n_jobs, j),
              from[jobs[j].plane], pitch, to[jobs[j].plane], pitch, error))
        return FALSE;
    }
  }
  return !clb_mask_active (params) || clb_engine_mask_seen_end (engine, error);

failed:
  return FALSE;
}

/* clb_engine_run_jobs from the planes @in into the planes @out (rows of
 * the engine's pitch; no regions): a frame from the pool, or a host frame
 * wrapped where it is. */
gboolean
clb_engine_run_jobs_between (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, cl_mem * in, cl_mem * out,
    GError ** error)
{
  gboolean ok;

  engine->frame_in = in;
  engine->frame_out = out;
  ok = clb_engine_run_jobs (engine, params, jobs, n_jobs, error);
  engine->frame_in = engine->frame_out = NULL;
  return ok;
}
