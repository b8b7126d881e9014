/* clboxblur engine: the kernel variants' table and the choice of a row.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A variant is one way to run a method on a job: which kernels, in what
 * work shape, on which device class, for which sample width and layout.
 * The variant a job gets is the first row of the table below that matches
 * it and is usable on the device (its loops within the device's cap, its
 * tile within local memory): adding a GPU or CPU variant is adding a row
 * to its method's file (and its run, if it brings new kernels). The
 * launches the rows share are enginelaunch.c's, below the method files;
 * this file, above them, reads their rows and runs them (bilateral's in
 * bands, clb_engine_run_bands), and no method file calls it
 * (docs/design.md, "Layers").
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"


/* ---- the table ---- */

/* First match wins: the specific rows (vector kernels for CPUs, 16
 * columns a work-item) before the general ones every device can run. */
/* The table: each method's rows (enginesat.c, engineseparable.c,
 * enginebilateral.c, ...), the masked box's (enginemask.c: the box
 * methods' steps with the mask) and the composite's (enginecomposite.c),
 * in the order they are tried, and the pairs of jobs run as one. */
static const struct
{
  const ClbVariant *rows;
  const guint *n;
  ClbPairFunc pair;
  ClbTakesFunc takes;
} methods[] = {
  [CLB_METHOD_SAT] = {clb_sat_variants, &clb_sat_n_variants},
  [CLB_METHOD_SEPARABLE] = {clb_separable_variants, &clb_separable_n_variants,
      clb_separable_pair},
  [CLB_METHOD_BILATERAL] = {clb_bilateral_variants, &clb_bilateral_n_variants},
  [CLB_METHOD_MOSAIC] = {clb_mosaic_variants, &clb_mosaic_n_variants,
      clb_mosaic_pair},
  [CLB_METHOD_FILL] = {clb_fill_variants, &clb_fill_n_variants},
  [CLB_METHOD_TEMPORAL] = {clb_temporal_variants, &clb_temporal_n_variants},
  [CLB_VARIANTS_MASK] = {clb_mask_variants, &clb_mask_n_variants,
      clb_mask_pair, clb_mask_takes},
  [CLB_VARIANTS_COMPOSITE] = {clb_composite_variants,
      &clb_composite_n_variants},
};


gboolean
clb_variant_is_generic (const ClbVariant * v)
{
  return v->device_class == CLB_DEVICE_CLASS_AUTO && v->width == CLB_WIDTH_ANY
      && v->layout == CLB_LAYOUT_ANY;
}

ClbDeviceClass
clb_variant_get_device_class (const ClbVariant * v)
{
  return v->device_class;
}

const ClbVariant *
clb_variant_row (ClbMethod method, guint i)
{
  if ((guint) method >= G_N_ELEMENTS (methods) || i >= *methods[method].n)
    return NULL;
  return &methods[method].rows[i];
}

static gboolean
variant_matches (const ClbVariant * v, const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbJob * job)
{
  return v->method == method
      && (v->width == CLB_WIDTH_ANY || planes->sample_size == CLB_SAMPLES_8)
      && (v->layout == CLB_LAYOUT_ANY || clb_job_is_dense_8bit (planes, job))
      && (v->device_class == CLB_DEVICE_CLASS_AUTO
      || v->device_class == profile->device_class)
      && (clb_variant_is_generic (v) || profile->only_variant == NULL
      || g_strcmp0 (profile->only_variant, v->name) == 0);
}

const ClbJob *
clb_variant_job (const ClbVariant * variant, const ClbJob * job,
    ClbJob * unkept)
{
  guint c;

  if (job->keep_mask == 0 || variant->keeps)
    return job;
  *unkept = *job;
  unkept->channels = 0;
  unkept->dist_mask = 0;
  unkept->keep_mask = 0;
  for (c = 0; c < job->channels; c++) {
    if (job->keep_mask & (1u << c))
      continue;
    unkept->offset[unkept->channels] = job->offset[c];
    unkept->fill[unkept->channels] = job->fill[c];
    unkept->dist_mask |= ((job->dist_mask >> c) & 1) << unkept->channels;
    unkept->channels++;
  }
  return unkept;
}

const ClbVariant *
clb_variant_choose (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbParams * params, const ClbJob * job,
    guint rx, guint ry, ClbWorkShape * shape)
{
  guint i;

  if ((guint) method >= G_N_ELEMENTS (methods))
    return NULL;                /* an unknown method */
  for (i = 0; i < *methods[method].n; i++) {
    const ClbVariant *v = &methods[method].rows[i];
    ClbJob unkept;
    const ClbJob *j = clb_variant_job (v, job, &unkept);

    if (!variant_matches (v, profile, method, planes, j)
        || (methods[method].takes
            && !methods[method].takes (v, planes, params, j)))
      continue;
    memset (shape, 0, sizeof (*shape));
    shape->strip = v->strip;
    if (v->usable == NULL || v->usable (profile, planes, j, rx, ry, shape))
      return v;
  }
  return NULL;                  /* an unknown method */
}

const ClbVariant *
clb_variant_pair (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb)
{
  const ClbVariant *v = NULL;

  if ((guint) method < G_N_ELEMENTS (methods) && methods[method].pair)
    v = methods[method].pair (profile, planes, params, alone_a, a, rxa, rya,
        alone_b, b, rxb, ryb);
  if (v && profile->only_variant
      && g_strcmp0 (profile->only_variant, v->name) != 0)
    return NULL;
  return v;
}

const ClbVariant *
clb_variant_choose_pair (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbParams * params, const ClbJob * a,
    guint rxa, guint rya, const ClbJob * b, guint rxb, guint ryb)
{
  ClbWorkShape shape;
  const ClbVariant *va, *vb;

  va = clb_variant_choose (profile, method, planes, params, a, rxa, rya,
      &shape);
  vb = clb_variant_choose (profile, method, planes, params, b, rxb, ryb,
      &shape);
  return clb_variant_pair (profile, method, planes, params, va, a, rxa, rya,
      vb, b, rxb, ryb);
}

const gchar *
clb_variant_get_name (const ClbVariant * variant)
{
  return variant->name;
}

gboolean
clb_variant_wraps (const ClbVariant * variant)
{
  return variant->wraps;
}

/* Logs the variant a job runs, where what the line says changed (made
 * only then: a frame's runs cost no formatting). */
static void
log_variant (ClbEngine * engine, const ClbRun * r,
    const ClbVariant * v)
{
  const ClbJob *job = r->job, *pj = r->pair_job;
  gchar *line, *shape, keep[16] = "", pair[96] = "";
  guint c, kept = 0;
  gint64 key[CLB_LOG_KEY] = { (gintptr) v, job->plane, job->channels,
    job->keep_mask, job->width, job->height, r->rx, r->ry, r->wrapped,
    r->shape.strip, r->shape.local[0], r->shape.local[1],
    pj ? r->pair_index + 1 : 0, pj ? pj->channels : 0, pj ? pj->width : 0,
    pj ? pj->height : 0, r->pair_rx, r->pair_ry
  };

  if (engine->options.log == NULL || r->index >= CLB_MAX_JOBS
      || memcmp (key, engine->job_log[r->index], sizeof (key)) == 0)
    return;
  memcpy (engine->job_log[r->index], key, sizeof (key));
  if (r->shape.local[0] > 0)
    shape = g_strdup_printf ("work-groups of %" G_GSIZE_FORMAT "x%"
        G_GSIZE_FORMAT, (gsize) r->shape.local[0], (gsize) r->shape.local[1]);
  else if (r->shape.strip > 0)
    shape = g_strdup_printf ("%d column%s a work-item", r->shape.strip,
        r->shape.strip > 1 ? "s" : "");
  else
    shape = g_strdup ("16 samples in vector lanes");
  for (c = 0; c < job->channels; c++)
    kept += (job->keep_mask >> c) & 1;
  if (kept > 0)
    g_snprintf (keep, sizeof (keep), " (%u kept)", kept);
  if (r->pair_job)
    g_snprintf (pair, sizeof (pair), " and job %u (%u channels, %ux%u, "
        "radius %d,%d)", r->pair_index, r->pair_job->channels,
        r->pair_job->width, r->pair_job->height, r->pair_rx, r->pair_ry);
  line = g_strdup_printf ("job %u (plane %u, %u channels%s, %ux%u, %s "
      "%d,%d)%s: variant %s (%s, %s)%s: %s", r->index, job->plane,
      job->channels, keep, job->width, job->height,
      v->method == CLB_METHOD_MOSAIC ? "block" : "radius", r->rx, r->ry,
      pair, v->name,
      v->device_class == CLB_DEVICE_CLASS_AUTO ? "any device" :
      v->device_class == CLB_DEVICE_CLASS_CPU ? "cpu" : "gpu", shape,
      r->wrapped ? ", on the caller's memory" : "", v->kernels);
  g_free (shape);
  clb_engine_log (engine, "%s", line);
  g_free (line);
}

gboolean
clb_engine_run_variant (ClbEngine * engine, const ClbVariant * variant,
    const ClbRun * run, GError ** error)
{
  log_variant (engine, run, variant);
  return variant->run (engine, run, error);
}

/* The composite's row for @job, run (not logged: a job's line names the
 * variant of its filter; the composite's row is the one for the class,
 * or with a variant forced, region_composite unless that is forced). */
gboolean
clb_engine_run_composite (ClbEngine * engine, const ClbParams * params,
    const ClbJob * job, const ClbJob * keep_for, cl_mem from,
    cl_int from_pitch, cl_mem to, cl_int to_pitch, GError ** error)
{
  ClbRun r = { 0 };
  const ClbVariant *v = clb_variant_choose (&engine->profile,
      CLB_VARIANTS_COMPOSITE, &engine->planes, params, job, 0, 0, &r.shape);

  r.params = params;
  r.job = job;
  r.keep_for = keep_for;
  r.in = from;
  r.in_pitch = from_pitch;
  r.out = to;
  r.out_pitch = to_pitch;
  return v->run (engine, &r, error);
}

/* ---- a row's run: bilateral in bands ---- */

/* Runs a bilateral job's variant over bands of the job whose taps stay
 * within band_taps, waiting for each but the last and giving up when
 * cancelled: whole rows where the variant takes them (or where rows of
 * work-groups fit), else work-groups' worth of columns of such rows. */
gboolean
clb_engine_run_bands (ClbEngine * engine, const ClbVariant * variant,
    ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  guint64 taps = (2 * (guint64) r->rx + 1) * (2 * (guint64) r->ry + 1)
      * job->channels;
  guint64 pixels = MAX (engine->profile.band_taps / taps, 1);
  guint gx = MAX (r->shape.local[0], 1), gy = MAX (r->shape.local[1], 1);
  guint rows, cols;

  if (r->shape.whole_rows || pixels / job->width >= gy) {
    cols = job->width;
    rows = MAX (pixels / job->width / gy, 1) * gy;
  } else {
    rows = gy;
    cols = MAX (pixels / gy / gx, 1) * gx;
  }
  r->band_rows = rows;
  for (r->y0 = 0; r->y0 < job->height; r->y0 = r->y1) {
    r->y1 = r->y0 + MIN (rows, job->height - r->y0);
    for (r->x0 = 0; r->x0 < job->width; r->x0 = r->x1) {
      r->x1 = r->x0 + MIN (cols, job->width - r->x0);
      if (!clb_engine_check_cancelled (engine, error)
          || !clb_engine_run_variant (engine, variant, r, error))
        return FALSE;
      if (r->y1 < job->height || r->x1 < job->width)
        CHECK (clFinish (engine->queue), "clFinish");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

