/* clboxblur engine: the plan of a frame's work.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a frame's jobs run, worked out once for the parameters, the jobs
 * and the planes, and reused for every frame until one of them changes:
 * each job's radii in each pass, the variant and its work shape, whether
 * the jobs write every byte of the frame, whether the frame can go from
 * the caller's memory to the caller's memory through the kernels alone.
 * The per-frame path only compares and enqueues.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

/* Whether @a and @b give the same plan: every field but the regions
 * themselves (which change per frame and go to the device each frame). */
static gboolean
same_params (const ClbParams * a, const ClbParams * b)
{
  guint p;

  if (a->method != b->method || a->border != b->border
      || a->radius_x != b->radius_x || a->radius_y != b->radius_y
      || a->passes != b->passes || a->sigma_spatial != b->sigma_spatial
      || a->sigma_range != b->sigma_range || a->use_regions != b->use_regions
      || a->region_invert != b->region_invert
      || a->n_pass_radii != b->n_pass_radii
      || a->block_size != b->block_size || a->mask != b->mask
      || a->mask_plane != b->mask_plane || a->mask_offset != b->mask_offset
      || a->mask_pixel_stride != b->mask_pixel_stride
      || a->mask_feather != b->mask_feather)
    return FALSE;
  for (p = 0; p < MIN (a->n_pass_radii, CLB_MAX_PASSES); p++) {
    if (a->pass_radius_x[p] != b->pass_radius_x[p]
        || a->pass_radius_y[p] != b->pass_radius_y[p])
      return FALSE;
  }
  return TRUE;
}

static gboolean
same_jobs (const ClbJob * a, const ClbJob * b, guint n_jobs)
{
  guint j, c;

  for (j = 0; j < n_jobs; j++) {
    if (a[j].plane != b[j].plane || a[j].width != b[j].width
        || a[j].height != b[j].height || a[j].channels != b[j].channels
        || a[j].pixel_stride != b[j].pixel_stride
        || a[j].dist_mask != b[j].dist_mask
        || a[j].keep_mask != b[j].keep_mask || a[j].x_sub != b[j].x_sub
        || a[j].y_sub != b[j].y_sub || a[j].own_radius != b[j].own_radius
        || a[j].radius_x != b[j].radius_x || a[j].radius_y != b[j].radius_y)
      return FALSE;
    for (c = 0; c < 4; c++) {
      if (a[j].offset[c] != b[j].offset[c])
        return FALSE;
    }
  }
  return TRUE;
}

/* Whether the jobs write every byte of every plane: each plane one job of
 * all its bytes (no kept channels, no gaps) that runs in some pass. */
static gboolean
writes_every_byte (const ClbPlan * plan, const ClbPlanes * planes)
{
  guint covered = 0, j, pass;

  for (j = 0; j < plan->n_jobs; j++) {
    const ClbJob *job = &plan->jobs[j];
    gboolean runs = FALSE;

    for (pass = 0; pass < plan->passes; pass++)
      runs |= plan->steps[pass][j].variant != NULL;
    if (!runs || job->keep_mask != 0 || job->pixel_stride != job->channels
        || job->width * job->channels != planes->plane_width[job->plane]
        || job->height != planes->plane_height[job->plane]
        || (covered & (1u << job->plane)))
      return FALSE;
    covered |= 1u << job->plane;
  }
  return covered == (1u << planes->n_planes) - 1;
}

/* Whether the frame can go from the caller's input to its output memory
 * through the kernels alone: one box pass of separable or sat (or
 * mosaic) with a radius in every job, 8-bit samples (the caller's strides
 * are bytes), every plane one job whose variant reads and writes in place
 * (dense 8-bit in vector registers); with regions, also a device-side
 * copy of the frame and the composite. */
static gboolean
runs_direct (const ClbEngine * engine, const ClbPlan * plan)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbParams *params = &plan->params;
  guint bytes[CLB_MAX_PLANES] = { 0, }, lanes, c, j;

  /* regions: the box's output goes to a plane of the engine's and the
   * composite merges it (clb_engine_run_wrapped_jobs); not with the mask
   * (a frame whose regions have a strength: clb_engine_runs_direct) */
  if (!engine->profile.zero_copy || (params->use_regions
          && clb_mask_active (params))
      || planes->sample_size != CLB_SAMPLES_8
      || plan->passes != 1 || (params->method != CLB_METHOD_SEPARABLE
          && params->method != CLB_METHOD_SAT
          && params->method != CLB_METHOD_MOSAIC
          && !(clb_mask_active (params)
              && !CLB_METHOD_IS_BILATERAL (params->method))))
    return FALSE;
  for (j = 0; j < plan->n_jobs; j++) {
    const ClbStep *step = &plan->steps[0][j];
    const ClbJob *job;
    ClbJob unkept, stripped;

    if (clb_mask_active (params)) {
      /* the mask's variants that wrap write their jobs' every byte: 4
       * a pixel (alpha as it came) or 1 (a plane of its own); the alpha
       * plane that no job has is copied (clb_engine_run_wrapped_jobs) */
      job = clb_mask_job (params, &plan->jobs[j], &stripped);
      if (job == NULL)
        continue;
      if (step->variant == NULL || !clb_variant_wraps (step->variant)
          || job->width * job->pixel_stride != planes->plane_width[job->plane]
          || job->height != planes->plane_height[job->plane]
          || (job->pixel_stride != 4 && job->pixel_stride != 1))
        return FALSE;
      bytes[job->plane] = 0xf;
      bytes[params->mask_plane] = 0xf;
      continue;
    }
    if (step->variant == NULL || !clb_variant_wraps (step->variant))
      return FALSE;
    /* a variant that wraps writes every byte of its job's rows: its
     * channels' bytes, the others as the output has them (packed YUV's
     * Y and UV jobs share a plane); the bytes of a plane, counted modulo
     * 4 (pixels of 1, 2 or 4 bytes; 3 only as one job), must all be some
     * job's */
    job = clb_variant_job (step->variant, &plan->jobs[j], &unkept);
    lanes = 0;
    for (c = 0; c < job->channels; c++)
      lanes |= 1u << job->offset[c];
    if (job->width * job->pixel_stride != planes->plane_width[job->plane]
        || job->height != planes->plane_height[job->plane]
        || job->pixel_stride == 0 || job->pixel_stride > 4
        || (job->pixel_stride == 3 && lanes != 7))
      return FALSE;
    for (c = 0; c < 4; c++)
      bytes[job->plane] |= ((lanes >> (c % job->pixel_stride)) & 1) << c;
  }
  for (j = 0; j < planes->n_planes; j++) {
    if (bytes[j] != 0xf)
      return FALSE;
  }
  return TRUE;
}

/* The table's key for the steps of @params: the method, or with the
 * mask on a box method the masked box's rows (bilateral's output is only
 * blended). */
static ClbMethod
table_key (const ClbParams * params)
{
  return clb_mask_active (params) && !CLB_METHOD_IS_BILATERAL
      (params->method) ? CLB_VARIANTS_MASK : params->method;
}

/* Pairs the jobs of pass @pass that one variant runs together
 * (clb_variant_pair: packed 4:2:2's Y and UV jobs, two planes'
 * separable jobs, two planes' masked jobs of one alpha): the first job's
 * step runs both, the other's is marked paired. */
static void
pair_steps (ClbEngine * engine, ClbPlan * plan, guint pass)
{
  ClbStep *steps = plan->steps[pass];
  guint a, b;

  for (a = 0; a < plan->n_jobs; a++) {
    for (b = 0; b < plan->n_jobs; b++) {
      const ClbVariant *v;

      if (a == b || steps[a].pair || steps[a].paired || steps[b].pair
          || steps[b].paired)
        continue;
      v = clb_variant_pair (&engine->profile, table_key (&plan->params),
          &engine->planes, &plan->params, steps[a].variant, &plan->jobs[a],
          steps[a].rx, steps[a].ry, steps[b].variant, &plan->jobs[b],
          steps[b].rx, steps[b].ry);
      if (v == NULL)
        continue;
      steps[a].variant = v;
      steps[a].pair = b + 1;
      steps[a].pair_rx = steps[b].rx;
      steps[a].pair_ry = steps[b].ry;
      steps[b].paired = TRUE;
    }
  }
}

/* Works the plan out for @params and @jobs on the engine's planes. */
static void
make_plan (ClbEngine * engine, ClbPlan * plan, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  guint j, pass;

  memset (plan, 0, sizeof (*plan));
  plan->params = *params;
  plan->params.regions = NULL;
  plan->params.n_regions = 0;
  memcpy (plan->jobs, jobs, n_jobs * sizeof (ClbJob));
  plan->n_jobs = n_jobs;
  plan->passes = MIN (clb_n_passes (params), CLB_MAX_PASSES);
  for (pass = 0; pass < plan->passes; pass++) {
    for (j = 0; j < n_jobs; j++) {
      ClbStep *step = &plan->steps[pass][j];
      ClbJob stripped;
      const ClbJob *job = clb_mask_step_job (params, &jobs[j], &stripped);

      clb_job_radii (params, &jobs[j], pass, &step->rx, &step->ry);
      if ((step->rx == 0 && step->ry == 0) || job == NULL)
        continue;               /* this job is passed through */
      step->variant = clb_variant_choose (&engine->profile,
          table_key (params), &engine->planes, params, job, step->rx,
          step->ry, &step->shape);
      if (clb_mask_active (params)
          && CLB_METHOD_IS_BILATERAL (params->method)) {
        ClbJob colours;
        ClbWorkShape shape;

        step->blend = clb_variant_choose (&engine->profile,
            CLB_VARIANTS_MASK, &engine->planes, params,
            clb_mask_job (params, &jobs[j], &colours), 0, 0, &shape);
        if (step->blend == NULL)
          plan->unknown_method = TRUE;
      }
      if (step->variant == NULL)
        plan->unknown_method = TRUE;
    }
    pair_steps (engine, plan, pass);
  }
  /* with the mask, the jobs leave alpha out */
  plan->every_byte = !clb_mask_active (params)
      && writes_every_byte (plan, &engine->planes);
  plan->direct = runs_direct (engine, plan);
  plan->valid = TRUE;
  engine->plans_made++;
  clb_engine_log (engine, "plan %u: method %d, %u pass(es), %u job(s)%s%s%s",
      engine->plans_made, params->method, plan->passes, n_jobs,
      plan->direct ? ", from the caller's memory to the caller's" : "",
      params->use_regions ? ", regions" : "",
      clb_mask_active (params) ? ", alpha mask" : "");
}

const ClbPlan *
clb_engine_plan (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  ClbPlan *plan = &engine->plan;

  n_jobs = MIN (n_jobs, CLB_MAX_JOBS);
  if (!plan->valid || plan->n_jobs != n_jobs
      || !same_params (&plan->params, params)
      || !same_jobs (plan->jobs, jobs, n_jobs))
    make_plan (engine, plan, params, jobs, n_jobs);
  return plan;
}

guint
clb_engine_count_plans (ClbEngine * engine)
{
  return engine->plans_made;
}

/* Whether this frame goes from the caller's input to its output through
 * the kernels alone: the plan's answer, but for a frame whose regions
 * have a strength (a property of the frame's regions, not of the plan:
 * those are filtered in boxes of their own, clb_engine_run_region_groups). */
gboolean
clb_engine_runs_direct (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  return clb_engine_plan (engine, params, jobs, n_jobs)->direct
      && !clb_regions_have_strength (params);
}
