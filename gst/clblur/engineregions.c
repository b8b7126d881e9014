/* clboxblur engine: regions whose strength follows their size.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * With ClbParams.region_radius, each region is filtered with radii of its
 * own: every radius of the params raised to at least its strength radius
 * (clb_round_radius_up of region_radius, so at most CLB_N_STRENGTH_RADII
 * distinct values and one group more). The regions are grouped by that
 * radius and, in ascending order (a sample in several regions keeps the
 * largest), each group is filtered once, job by job:
 *
 * - the group's box: the bounding box of its regions' samples in the
 *   job's pixels (a subsampled sample where its footprint meets a region,
 *   as the composite selects it), grown on each side by the job's reach
 *   (the sum of its passes' radii), clipped to the job;
 * - that box of plane_in (the original) is copied into a plane of its own
 *   (clEnqueueCopyBufferRect) and filtered there as a frame of that size,
 *   with the frame's border rule;
 * - the result is put back at its place in a plane-sized buffer, and the
 *   composite copies the group's regions from it into plane_out, which
 *   holds the original (engine.c), job by job.
 *
 * Why a sample of a region gets exactly what the whole-frame filter gives
 * it: where a side of the box is not the frame's edge, the sample is at
 * least the reach from it, so pass p's windows of the samples the later
 * passes read never reach that side (each pass's output is right at least
 * the sum of the radii so far from it); where a side is the frame's edge,
 * the border rule applies there as on the frame (shrink clips the window
 * at it, replicate repeats its sample, reflect mirrors about it: a window
 * that also reaches the box's other side would reach past the reach, so
 * the mirrored samples are in the box too).
 *
 * The cost follows the groups' boxes, not the number of regions: at most
 * CLB_N_STRENGTH_RADII + 1 groups, each a box filter and one composite
 * per job. Mosaic (block size) is not in the engine yet: a block size
 * that follows a region's size would be chosen here, group by group, the
 * same way.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engineprivate.h"

typedef struct {
  guint strength;               /* rounded strength radius; 0: the params' */
  guint index;                  /* the region's, to sort stably */
} RegionKey;

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  const RegionKey *ka = a, *kb = b;

  if (ka->strength != kb->strength)
    return ka->strength < kb->strength ? -1 : 1;
  return ka->index < kb->index ? -1 : ka->index > kb->index;
}

/* The params of a group of strength @strength: every radius raised to it. */
static void
group_params (const ClbParams * params, guint strength, ClbParams * out)
{
  guint p;

  *out = *params;
  out->region_radius = NULL;
  out->radius_x = MAX (params->radius_x, strength);
  out->radius_y = MAX (params->radius_y, strength);
  for (p = 0; p < CLB_MAX_PASSES; p++) {
    out->pass_radius_x[p] = MAX (params->pass_radius_x[p], strength);
    out->pass_radius_y[p] = MAX (params->pass_radius_y[p], strength);
  }
}

/* Whether @strength raises some radius of @params (else the region is in
 * the params' own group, strength 0). */
static gboolean
raises (const ClbParams * params, guint strength)
{
  guint p;

  if (strength > params->radius_x || strength > params->radius_y)
    return TRUE;
  for (p = 0; p < MIN (params->n_pass_radii, CLB_MAX_PASSES); p++) {
    if (strength > params->pass_radius_x[p]
        || strength > params->pass_radius_y[p])
      return TRUE;
  }
  return FALSE;
}

static gboolean
ensure_buffers (ClbEngine * engine, GError ** error)
{
  gsize bytes = 0;
  guint p, i;

  for (p = 0; p < engine->planes.n_planes; p++)
    bytes = MAX (bytes, engine->plane_bytes[p]);
  if (engine->strength_bytes >= bytes)
    return TRUE;
  for (i = 0; i < 3; i++)
    clb_runtime_release_buffer (&engine->strength_planes[i]);
  engine->strength_bytes = 0;
  for (i = 0; i < 3; i++) {
    engine->strength_planes[i] = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_WRITE, bytes, error);
    if (!engine->strength_planes[i])
      return FALSE;
  }
  engine->strength_bytes = bytes;
  return TRUE;
}

/* The box of @job's samples the group's clipped @rects select, grown by
 * the reach and clipped to the job: [x0, x1) x [y0, y1). FALSE: none. */
static gboolean
group_box (const ClbJob * job, const ClbRect * rects, guint n_rects,
    gint frame_w, gint frame_h, guint reach_x, guint reach_y, gint * x0,
    gint * y0, gint * x1, gint * y1)
{
  gint64 bx0 = G_MAXINT64, by0 = G_MAXINT64, bx1 = G_MININT64,
      by1 = G_MININT64;
  guint i;

  for (i = 0; i < n_rects; i++) {
    const ClbRect *r = &rects[i];
    gint64 rx0 = CLAMP ((gint64) r->x, 0, frame_w);
    gint64 ry0 = CLAMP ((gint64) r->y, 0, frame_h);
    gint64 rx1 = CLAMP ((gint64) r->x + MAX (r->width, 0), 0, frame_w);
    gint64 ry1 = CLAMP ((gint64) r->y + MAX (r->height, 0), 0, frame_h);

    if (rx0 >= rx1 || ry0 >= ry1)
      continue;
    /* the footprint rule of kernels/region.cl */
    bx0 = MIN (bx0, rx0 >> job->x_sub);
    by0 = MIN (by0, ry0 >> job->y_sub);
    bx1 = MAX (bx1, (rx1 + (1 << job->x_sub) - 1) >> job->x_sub);
    by1 = MAX (by1, (ry1 + (1 << job->y_sub) - 1) >> job->y_sub);
  }
  if (bx0 >= bx1 || by0 >= by1)
    return FALSE;
  *x0 = MAX (bx0 - (gint64) reach_x, 0);
  *y0 = MAX (by0 - (gint64) reach_y, 0);
  *x1 = MIN (bx1 + (gint64) reach_x, (gint64) job->width);
  *y1 = MIN (by1 + (gint64) reach_y, (gint64) job->height);
  return *x0 < *x1 && *y0 < *y1;
}

static gboolean
copy_rect (ClbEngine * engine, cl_mem from, gsize from_x, gsize from_y,
    gsize from_pitch, cl_mem to, gsize to_x, gsize to_y, gsize to_pitch,
    gsize row_bytes, gsize rows, GError ** error)
{
  size_t src[3] = { from_x, from_y, 0 }, dst[3] = { to_x, to_y, 0 };
  size_t region[3] = { row_bytes, rows, 1 };

  CHECK (clEnqueueCopyBufferRect (engine->queue, from, to, src, dst, region,
          from_pitch, 0, to_pitch, 0, 0, NULL, NULL),
      "clEnqueueCopyBufferRect (region box)");
  return TRUE;

failed:
  return FALSE;
}

/* Filters job @j's box of one group (params @gp) in a plane of its own
 * and merges the group's regions (uploaded) into plane_out. */
static gboolean
run_group_job (ClbEngine * engine, const ClbParams * gp, guint j,
    const ClbJob * job, GError ** error)
{
  const ClbPlanes saved = engine->planes;
  gsize bytes = clb_engine_container_bytes (&saved);
  gsize pitch = (gsize) saved.plane_width[job->plane] * bytes;
  gboolean bilateral = gp->method == CLB_METHOD_BILATERAL;
  guint passes = clb_n_passes (gp), pass, c, last = 0;
  cl_int rx[CLB_MAX_PASSES], ry[CLB_MAX_PASSES];
  guint reach_x = 0, reach_y = 0;
  cl_mem box = engine->strength_planes[0];
  cl_mem result = bilateral ? engine->strength_planes[1] : box;
  cl_mem placed = engine->strength_planes[2];
  gint x0, y0, x1, y1;
  gsize first, row_bytes, rows;
  ClbPlanes sub;
  ClbJob sub_job;
  gboolean any = FALSE, ok = TRUE;

  for (pass = 0; pass < passes; pass++) {
    clb_job_radii (gp, job, pass, &rx[pass], &ry[pass]);
    reach_x += rx[pass];
    reach_y += ry[pass];
    any |= rx[pass] > 0 || ry[pass] > 0;
  }
  if (!any || !group_box (job, gp->regions, gp->n_regions, saved.width,
          saved.height, reach_x, reach_y, &x0, &y0, &x1, &y1))
    return TRUE;                /* plane_out holds the original there */

  /* the box as a plane of its own: whole pixels of the job */
  for (c = 0; c < job->channels; c++)
    last = MAX (last, job->offset[c]);
  first = (gsize) x0 * job->pixel_stride;
  sub = saved;
  sub.plane_width[job->plane] = (x1 - x0 - 1) * job->pixel_stride + last + 1;
  sub.plane_height[job->plane] = y1 - y0;
  sub_job = *job;
  sub_job.width = x1 - x0;
  sub_job.height = y1 - y0;
  row_bytes = sub.plane_width[job->plane] * bytes;
  rows = y1 - y0;

  if (!copy_rect (engine, engine->plane_in[job->plane], first * bytes, y0,
          pitch, box, 0, 0, row_bytes, row_bytes, rows, error)
      || (bilateral && !copy_rect (engine, box, 0, 0, row_bytes, result, 0,
              0, row_bytes, row_bytes, rows, error)))
    return FALSE;

  /* the variants read the planes' layout from the engine */
  engine->planes = sub;
  for (pass = 0; ok && pass < passes; pass++) {
    ClbRun r = { .params = gp, .index = j, .border = gp->border,
      .rx = rx[pass], .ry = ry[pass], .in = box, .out = result,
      .in_pitch = sub.plane_width[job->plane],
      .out_pitch = sub.plane_width[job->plane] };
    const ClbVariant *variant;
    ClbJob unkept;

    if (rx[pass] == 0 && ry[pass] == 0)
      continue;
    if (clb_engine_is_cancelled (engine)) {
      g_set_error_literal (error, CLB_ENGINE_ERROR,
          CLB_ENGINE_ERROR_CANCELLED, "cancelled");
      ok = FALSE;
      break;
    }
    variant = clb_variant_choose (&engine->profile, gp->method, &sub,
        &sub_job, rx[pass], ry[pass], &r.shape);
    if (variant == NULL) {
      g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_METHOD,
          "unknown method %d", gp->method);
      ok = FALSE;
      break;
    }
    r.job = clb_variant_job (variant, &sub_job, &unkept);
    if (bilateral)
      ok = clb_engine_bilateral_tables (engine, gp, j, r.rx, r.ry, error)
          && clb_engine_run_bands (engine, variant, &r, error);
    else
      ok = clb_engine_run_variant (engine, variant, &r, error);
  }
  engine->planes = saved;
  if (!ok)
    return FALSE;

  return copy_rect (engine, result, 0, 0, row_bytes, placed, first * bytes,
      y0, pitch, row_bytes, rows, error)
      && clb_engine_run_composite (engine, job, placed, TRUE, error);
}

gboolean
clb_engine_run_region_groups (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, GError ** error)
{
  guint n = params->n_regions, i, first, j;
  RegionKey *keys;
  ClbRect *rects;
  gboolean ok = TRUE;

  if (!ensure_buffers (engine, error))
    return FALSE;
  keys = g_new (RegionKey, n);
  rects = g_new (ClbRect, n);
  for (i = 0; i < n; i++) {
    guint s = clb_round_radius_up (params->region_radius[i]);

    keys[i].strength = raises (params, s) ? s : 0;
    keys[i].index = i;
  }
  qsort (keys, n, sizeof (RegionKey), compare_keys);

  /* each group in ascending strength: the last merged is the largest */
  for (first = 0; ok && first < n;) {
    ClbParams gp;
    guint end = first;

    while (end < n && keys[end].strength == keys[first].strength) {
      rects[end - first] = params->regions[keys[end].index];
      end++;
    }
    group_params (params, keys[first].strength, &gp);
    gp.regions = rects;
    gp.n_regions = end - first;
    ok = clb_engine_upload_regions (engine, &gp, engine->planes.width,
        engine->planes.height, error);
    for (j = 0; ok && j < n_jobs; j++)
      ok = run_group_job (engine, &gp, j, &jobs[j], error);
    first = end;
  }
  g_free (rects);
  g_free (keys);
  return ok;
}
