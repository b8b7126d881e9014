/* clboxblur engine: the radii each job and pass filters with.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Arithmetic only, no OpenCL call: chroma radii scaled by subsampling,
 * bilateral's window bound, the three box radii of a Gaussian (sigma), and
 * a job's radii in a pass from the params and its own radius.
 */
#include "config.h"

#include <math.h>

#include "engineprivate.h"

guint
clb_bilateral_radius (guint radius, gdouble sigma_spatial)
{
  radius = MIN (radius, CLB_MAX_BILATERAL_RADIUS);
  if (sigma_spatial > 0 && ceil (3 * sigma_spatial) < radius)
    radius = (guint) ceil (3 * sigma_spatial);
  return radius;
}

guint
clb_scale_radius (guint radius, guint sub)
{
  guint r;

  if (radius == 0 || sub == 0)
    return radius;
  r = (radius + (1u << (sub - 1))) >> sub;
  return MAX (r, 1);
}

void
clb_gaussian_radii (gdouble sigma, guint n, guint * radii)
{
  gdouble w, m;
  gint wl, i;

  g_return_if_fail (n >= 1 && n <= CLB_MAX_PASSES);

  sigma = MAX (sigma, 0.0);
  w = sqrt (12.0 * sigma * sigma / n + 1.0);
  wl = (gint) MIN (floor (w), 2.0 * CLB_MAX_RADIUS + 1);
  if (wl % 2 == 0)
    wl--;
  m = round ((12.0 * sigma * sigma - n * wl * wl - 4.0 * n * wl - 3.0 * n)
      / (-4.0 * wl - 4.0));
  m = CLAMP (m, 0, n);
  for (i = 0; i < (gint) n; i++) {
    gint width = i < m ? wl : wl + 2;

    radii[i] = MIN ((width - 1) / 2, CLB_MAX_RADIUS);
  }
}

/* How many times the box methods filter the frame (bilateral and the
 * mask: once). */
guint
clb_n_passes (const ClbParams * params)
{
  if (CLB_METHOD_IS_BILATERAL (params->method)
      || params->method == CLB_METHOD_MOSAIC
      || params->method == CLB_METHOD_FILL || params->mask)
    return 1;
  if (params->n_pass_radii > 0)
    return MIN (params->n_pass_radii, CLB_MAX_PASSES);
  return CLAMP (params->passes, 1, CLB_MAX_PASSES);
}

/* Bilateral's window bound (clb_bilateral_radius) on radii @rx, @ry. */
static void
bilateral_bound (const ClbParams * params, cl_int * rx, cl_int * ry)
{
  if (CLB_METHOD_IS_BILATERAL (params->method)) {
    *rx = clb_bilateral_radius (*rx, params->sigma_spatial);
    *ry = clb_bilateral_radius (*ry, params->sigma_spatial);
  }
  if (params->method == CLB_METHOD_TEMPORAL) {
    *rx = MIN (*rx, CLB_MAX_TEMPORAL_RADIUS);
    *ry = MIN (*ry, CLB_MAX_TEMPORAL_RADIUS);
  }
}

/* A job's radii in its own pixels in pass @pass. */
void
clb_job_radii (const ClbParams * params, const ClbJob * job, guint pass,
    cl_int * rx, cl_int * ry)
{
  guint x = params->radius_x, y = params->radius_y;

  if (params->method == CLB_METHOD_MOSAIC) {
    /* the block's side in the job's pixels, passed as its radii */
    guint b = CLAMP (params->block_size, CLB_MIN_BLOCK_SIZE,
        CLB_MAX_BLOCK_SIZE);

    *rx = MAX (b >> job->x_sub, 1);
    *ry = MAX (b >> job->y_sub, 1);
    return;
  }
  if (params->method == CLB_METHOD_FILL) {
    *rx = *ry = 1;              /* every job runs */
    return;
  }
  if (job->own_radius) {
    *rx = MIN (job->radius_x, CLB_MAX_RADIUS);
    *ry = MIN (job->radius_y, CLB_MAX_RADIUS);
    bilateral_bound (params, rx, ry);
    return;
  }
  if (!CLB_METHOD_IS_BILATERAL (params->method) && params->n_pass_radii > 0
      && !params->mask) {
    pass = MIN (pass, CLB_MAX_PASSES - 1);
    x = params->pass_radius_x[pass];
    y = params->pass_radius_y[pass];
  }
  *rx = clb_scale_radius (MIN (x, CLB_MAX_RADIUS), job->x_sub);
  *ry = clb_scale_radius (MIN (y, CLB_MAX_RADIUS), job->y_sub);
  bilateral_bound (params, rx, ry);
}

guint
clb_round_radius_up (guint radius)
{
  guint p;

  if (radius == 0)
    return 0;
  if (radius >= CLB_MAX_RADIUS)
    return CLB_MAX_RADIUS;
  for (p = 1;; p *= 2) {
    if (radius <= p)
      return MIN (p, CLB_MAX_RADIUS);   /* 2048: the largest radius */
    if (p >= 2 && radius <= p + p / 2)
      return p + p / 2;
  }
}

guint
clb_strength_radius (gdouble k, gint width, gint height)
{
  gint side = MIN (width, height);
  gdouble v;

  if (!(k > 0) || side <= 0)
    return 0;
  v = ceil (k * side - 1e-9);
  return clb_round_radius_up (v >= CLB_MAX_RADIUS ? CLB_MAX_RADIUS :
      (guint) v);
}

guint
clb_strength_block (guint strength)
{
  if (strength == 0)
    return 0;
  /* the steps past 3 are even; 1 and 3 go up to 2 and 4 */
  strength += strength & 1;
  return MIN (strength, CLB_MAX_BLOCK_SIZE);
}

gboolean
clb_regions_have_strength (const ClbParams * params)
{
  guint i;

  /* fill has no radius or block to raise; temporal's history is the
   * whole frame's */
  if (!params->use_regions || params->region_invert
      || params->region_radius == NULL || params->method == CLB_METHOD_FILL
      || params->method == CLB_METHOD_TEMPORAL)
    return FALSE;
  for (i = 0; i < params->n_regions; i++) {
    if (params->region_radius[i] > 0)
      return TRUE;
  }
  return FALSE;
}

gboolean
clb_params_filter_jobs (const ClbParams * params, const ClbJob * jobs,
    guint n_jobs)
{
  guint j, pass;

  /* a region's strength filters the jobs that take the params' radii */
  if (clb_regions_have_strength (params)) {
    for (j = 0; j < n_jobs; j++) {
      if (!jobs[j].own_radius)
        return TRUE;
    }
  }

  for (j = 0; j < n_jobs; j++) {
    for (pass = 0; pass < clb_n_passes (params); pass++) {
      cl_int rx, ry;

      clb_job_radii (params, &jobs[j], pass, &rx, &ry);
      if (rx > 0 || ry > 0)
        return TRUE;
    }
  }
  return FALSE;
}
