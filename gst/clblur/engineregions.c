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
 * - the group's boxes: each region's samples in the job's pixels (a
 *   subsampled sample where its footprint meets the region, as the
 *   composite selects it), the core, grown on each side by the job's
 *   reach (the sum of its passes' radii) and clipped to the job, the box;
 *   boxes that meet merged (cores into their bounding box) until none
 *   do; more than 8 boxes (or 64 regions), one box of them all;
 * - each box of plane_in (the original) is copied into a plane of its own
 *   (clEnqueueCopyBufferRect) and filtered there as a frame of that size,
 *   with the frame's border rule;
 * - the box's core goes back to its place in a plane-sized buffer, and
 *   the composite copies the group's regions from it into the result
 *   plane (clb_engine_result_planes: plane_out for the box methods,
 *   plane_in for bilateral; it holds the original, enginerun.c), over the
 *   tiles they reach (all in cores: the regions take no feather with a
 *   strength).
 *
 * Why a sample of a core gets exactly what the whole-frame filter gives
 * it: where a side of the box is not the frame's edge, the sample is at
 * least the reach from it, so pass p's windows of the samples the later
 * passes read never reach that side (each pass's output is right at least
 * the sum of the radii so far from it); where a side is the frame's edge,
 * the border rule applies there as on the frame (shrink clips the window
 * at it, replicate repeats its sample, reflect mirrors about it: a window
 * that also reaches the box's other side would reach past the reach, so
 * the mirrored samples are in the box too). Boxes of one group are apart,
 * so no composite reads another's core.
 *
 * The cost follows the boxes, not the number of regions: at most
 * CLB_N_STRENGTH_RADII + 1 groups, each at most 8 boxes, each box a
 * filter of its size, two copies and a composite over its core.
 *
 * Mosaic: the group's block side is raised instead (clb_strength_block),
 * and a core grows out to the frame's block grid rather than by a reach:
 * the box starts on a block boundary of the job (blocks start at the
 * frame's origin) and ends on one or at the frame's edge, so each of its
 * blocks is the frame's block, cut by the frame's edge alone.
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

/* The params of a group of strength @strength: every radius raised to it
 * (mosaic: the block side, to clb_strength_block of it). */
static void
group_params (const ClbParams * params, guint strength, ClbParams * out)
{
  guint p;

  *out = *params;
  out->region_radius = NULL;
  /* hard edges: a feather's ring lies outside the cores the boxes
   * filter (the element warns) */
  out->region_feather = 0;
  if (params->method == CLB_METHOD_MOSAIC) {
    out->block_size = MAX (CLAMP (params->block_size, CLB_MIN_BLOCK_SIZE,
            CLB_MAX_BLOCK_SIZE), clb_strength_block (strength));
    return;
  }
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

  if (params->method == CLB_METHOD_MOSAIC)
    return clb_strength_block (strength) > CLAMP (params->block_size,
        CLB_MIN_BLOCK_SIZE, CLB_MAX_BLOCK_SIZE);
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

/* A box of a group: @core, the samples of its regions' bounding box (in
 * the job's samples), and @box, the core grown by the reach and clipped
 * to the job; [x0, x1) x [y0, y1). */
typedef struct {
  gint x0, y0, x1, y1;
} Span;

typedef struct {
  Span core, box;
} GroupBox;

/* How a core grows into its box: by the reach on every side (the box
 * methods, bilateral), or out to the block grid of the frame (mosaic:
 * @align_x x @align_y blocks from the job's origin, so that the box's
 * blocks are the frame's). */
typedef struct {
  guint reach_x, reach_y, align_x, align_y;
} Growth;

/* The most boxes a group is filtered in (past that, one: the bounding box
 * of them all), and the most regions whose boxes are merged pair by pair
 * (past that, one box at once): the launches a group makes stay bounded. */
#define MAX_GROUP_BOXES 8
#define MAX_CLUSTERED_REGIONS 64

static void
grow (GroupBox * b, const ClbJob * job, const Growth * g)
{
  gint64 x0 = MAX ((gint64) b->core.x0 - g->reach_x, 0);
  gint64 y0 = MAX ((gint64) b->core.y0 - g->reach_y, 0);
  gint64 x1 = (gint64) b->core.x1 + g->reach_x;
  gint64 y1 = (gint64) b->core.y1 + g->reach_y;

  b->box.x0 = x0 - x0 % g->align_x;
  b->box.y0 = y0 - y0 % g->align_y;
  b->box.x1 = MIN ((x1 + g->align_x - 1) / g->align_x * g->align_x,
      (gint64) job->width);
  b->box.y1 = MIN ((y1 + g->align_y - 1) / g->align_y * g->align_y,
      (gint64) job->height);
}

static void
span_union (Span * a, const Span * b)
{
  a->x0 = MIN (a->x0, b->x0);
  a->y0 = MIN (a->y0, b->y0);
  a->x1 = MAX (a->x1, b->x1);
  a->y1 = MAX (a->y1, b->y1);
}

static gboolean
spans_meet (const Span * a, const Span * b)
{
  return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* The boxes @job is filtered in for the group's @rects: each region's
 * samples (a subsampled sample where its footprint meets the region, the
 * rule of kernels/region.cl), boxes whose grown boxes meet merged into
 * their bounding box until none meet, so that the boxes filtered are
 * apart; past MAX_GROUP_BOXES, or MAX_CLUSTERED_REGIONS regions, the one
 * bounding box of all. Returns how many, into @out (MAX_GROUP_BOXES). */
static guint
group_boxes (const ClbJob * job, const ClbRect * rects, guint n_rects,
    gint frame_w, gint frame_h, const Growth * growth, GroupBox * out)
{
  GroupBox *b = g_new (GroupBox, MAX (n_rects, 1));
  guint n = 0, i, k;
  gboolean merged = TRUE;

  for (i = 0; i < n_rects; i++) {
    const ClbRect *r = &rects[i];
    gint64 rx0 = CLAMP ((gint64) r->x, 0, frame_w);
    gint64 ry0 = CLAMP ((gint64) r->y, 0, frame_h);
    gint64 rx1 = CLAMP ((gint64) r->x + MAX (r->width, 0), 0, frame_w);
    gint64 ry1 = CLAMP ((gint64) r->y + MAX (r->height, 0), 0, frame_h);

    if (rx0 >= rx1 || ry0 >= ry1)
      continue;
    b[n].core.x0 = rx0 >> job->x_sub;
    b[n].core.y0 = ry0 >> job->y_sub;
    b[n].core.x1 = (rx1 + (1 << job->x_sub) - 1) >> job->x_sub;
    b[n].core.y1 = (ry1 + (1 << job->y_sub) - 1) >> job->y_sub;
    grow (&b[n], job, growth);
    n++;
  }
  if (n > MAX_CLUSTERED_REGIONS)
    merged = FALSE;             /* straight to one box */
  while (merged && n > 1) {
    merged = FALSE;
    for (i = 0; i < n && !merged; i++) {
      for (k = i + 1; k < n && !merged; k++) {
        if (!spans_meet (&b[i].box, &b[k].box))
          continue;
        span_union (&b[i].core, &b[k].core);
        grow (&b[i], job, growth);
        b[k] = b[--n];
        merged = TRUE;
      }
    }
  }
  if (n > MAX_GROUP_BOXES) {
    for (i = 1; i < n; i++)
      span_union (&b[0].core, &b[i].core);
    grow (&b[0], job, growth);
    n = 1;
  }
  memcpy (out, b, n * sizeof (GroupBox));
  g_free (b);
  return n;
}

/* The containers of @n pixels of @job from the first's start: whole
 * pixels, up to its last channel. */
static gsize
pixel_containers (const ClbJob * job, gint n)
{
  guint c, last = 0;

  for (c = 0; c < job->channels; c++)
    last = MAX (last, job->offset[c]);
  return (gsize) (n - 1) * job->pixel_stride + last + 1;
}

/* Filters box @b of job @j (params @gp, radii @rx, @ry per pass) in a
 * plane of its own and puts its core at its place in the plane-sized
 * buffer the composite reads. */
static gboolean
run_box (ClbEngine * engine, const ClbParams * gp, guint j,
    const ClbJob * job, const cl_int * rx, const cl_int * ry,
    const GroupBox * b, GError ** error)
{
  const ClbPlanes saved = engine->planes;
  gsize bytes = clb_engine_container_bytes (&saved);
  gsize pitch = (gsize) saved.plane_width[job->plane] * bytes;
  gboolean bilateral = gp->method == CLB_METHOD_BILATERAL;
  guint passes = clb_n_passes (gp), pass;
  cl_mem box = engine->strength_planes[0];
  cl_mem result = bilateral ? engine->strength_planes[1] : box;
  gint w = b->box.x1 - b->box.x0, h = b->box.y1 - b->box.y0;
  gsize row_bytes = pixel_containers (job, w) * bytes;
  ClbPlanes sub = saved;
  ClbJob sub_job = *job;
  gboolean ok = TRUE;

  /* the box as a plane of its own: whole pixels of the job */
  sub.plane_width[job->plane] = pixel_containers (job, w);
  sub.plane_height[job->plane] = h;
  sub_job.width = w;
  sub_job.height = h;

  /* the original: the plane the composites do not write (both hold it at
   * the start, enginerun.c) */
  cl_mem *merged = clb_engine_result_planes (engine, gp);
  cl_mem original = (merged == engine->plane_in ? engine->plane_out :
      engine->plane_in)[job->plane];

  if (!clb_engine_copy_rect (engine, original,
          (gsize) b->box.x0 * job->pixel_stride * bytes, b->box.y0, pitch,
          box, 0, 0, row_bytes, row_bytes, h, "region box", error)
      || (bilateral && !clb_engine_copy_rect (engine, box, 0, 0, row_bytes,
              result, 0, 0, row_bytes, row_bytes, h, "region box", error)))
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
    variant = clb_variant_choose (&engine->profile, gp->method, &sub, gp,
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

  /* the core only: every sample of it is right (the reach from the sides
   * of the box that are not the frame's) */
  return clb_engine_copy_rect (engine, result,
      (gsize) (b->core.x0 - b->box.x0) * job->pixel_stride * bytes,
      b->core.y0 - b->box.y0, row_bytes, engine->strength_planes[2],
      (gsize) b->core.x0 * job->pixel_stride * bytes, b->core.y0, pitch,
      pixel_containers (job, b->core.x1 - b->core.x0) * bytes,
      b->core.y1 - b->core.y0, "region box", error);
}

/* Filters job @j's boxes of one group (params @gp) and merges the
 * group's regions (uploaded) into plane_out, box by box over the box's
 * core (every sample a region of the group selects is in a core). */
static gboolean
run_group_job (ClbEngine * engine, const ClbParams * gp, guint j,
    const ClbJob * job, const ClbJob * keep_for, guint * n_boxes,
    GError ** error)
{
  guint passes = clb_n_passes (gp), pass, n, i;
  cl_int rx[CLB_MAX_PASSES], ry[CLB_MAX_PASSES];
  Growth growth = { 0, 0, 1, 1 };
  GroupBox boxes[MAX_GROUP_BOXES];
  gboolean any = FALSE;
  cl_int pitch = engine->planes.plane_width[job->plane];

  for (pass = 0; pass < passes; pass++) {
    clb_job_radii (gp, job, pass, &rx[pass], &ry[pass]);
    growth.reach_x += rx[pass];
    growth.reach_y += ry[pass];
    any |= rx[pass] > 0 || ry[pass] > 0;
  }
  if (!any)
    return TRUE;                /* plane_out holds the original there */
  if (gp->method == CLB_METHOD_MOSAIC) {
    /* mosaic's "radii" are the job's block: whole blocks of the frame */
    growth.align_x = rx[0];
    growth.align_y = ry[0];
    growth.reach_x = growth.reach_y = 0;
  }
  n = group_boxes (job, gp->regions, gp->n_regions, engine->planes.width,
      engine->planes.height, &growth, boxes);
  *n_boxes += n;
  for (i = 0; i < n; i++) {
    if (!run_box (engine, gp, j, job, rx, ry, &boxes[i], error))
      return FALSE;
  }
  /* the cores hold every sample the group's regions select (no feather
   * with a strength: group_params), and only the group's regions are
   * uploaded: one composite over the tiles they reach */
  return clb_engine_run_composite (engine, gp, job, keep_for,
      engine->strength_planes[2], pitch,
      clb_engine_result_planes (engine, gp)[job->plane], pitch, error);
}

gboolean
clb_engine_run_region_groups (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, GError ** error)
{
  guint n = params->n_regions, i, first, j;
  RegionKey *keys;
  ClbRect *rects;
  gboolean ok = TRUE;
  guint n_groups = 0, n_boxes = 0;
  ClbEngineLogFunc log = engine->options.log;
  gchar *line;

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
    /* the boxes' variants change with their sizes: one line for the
     * frame's groups instead of one per box */
    engine->options.log = NULL;
    for (j = 0; ok && j < n_jobs; j++)
      ok = run_group_job (engine, &gp, j, &jobs[j],
          clb_jobs_subsampled_after (jobs, n_jobs, j), &n_boxes, error);
    engine->options.log = log;
    n_groups++;
    first = end;
  }
  g_free (rects);
  g_free (keys);
  line = g_strdup_printf ("region strengths: %u group(s), %u box(es) over "
      "%u job(s)", n_groups, n_boxes, n_jobs);
  if (g_strcmp0 (line, engine->strength_log) != 0) {
    clb_engine_log (engine, "%s", line);
    g_free (engine->strength_log);
    engine->strength_log = line;
  } else {
    g_free (line);
  }
  return ok;
}
