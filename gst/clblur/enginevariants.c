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
 * launches the rows share are enginelaunch.c's.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"


/* ---- the table ---- */

/* First match wins: the specific rows (vector kernels for CPUs, 16
 * columns a work-item) before the general ones every device can run. */
/* The table: each method's rows (enginesat.c, engineseparable.c,
 * enginebilateral.c), in the order they are tried. */
static const struct
{
  const ClbVariant *rows;
  const guint *n;
} methods[] = {
  [CLB_METHOD_SAT] = {clb_sat_variants, &clb_sat_n_variants},
  [CLB_METHOD_SEPARABLE] = {clb_separable_variants, &clb_separable_n_variants},
  [CLB_METHOD_BILATERAL] = {clb_bilateral_variants, &clb_bilateral_n_variants},
  [CLB_METHOD_MOSAIC] = {clb_mosaic_variants, &clb_mosaic_n_variants},
  [CLB_METHOD_FILL] = {clb_fill_variants, &clb_fill_n_variants},
};


static gboolean
variant_matches (const ClbVariant * v, const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbJob * job)
{
  return v->method == method
      && (v->width == CLB_WIDTH_ANY || planes->sample_size == CLB_SAMPLES_8)
      && (v->layout == CLB_LAYOUT_ANY || clb_job_is_dense_8bit (planes, job))
      && (v->device_class == CLB_DEVICE_CLASS_AUTO
      || v->device_class == profile->device_class);
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
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint i;

  if ((guint) method >= G_N_ELEMENTS (methods))
    return NULL;                /* an unknown method */
  for (i = 0; i < *methods[method].n; i++) {
    const ClbVariant *v = &methods[method].rows[i];
    ClbJob unkept;
    const ClbJob *j = clb_variant_job (v, job, &unkept);

    if (!variant_matches (v, profile, method, planes, j))
      continue;
    memset (shape, 0, sizeof (*shape));
    shape->strip = v->strip;
    if (v->usable == NULL || v->usable (profile, planes, j, rx, ry, shape))
      return v;
  }
  return NULL;                  /* an unknown method */
}

gint
clb_packed_422_luma (const ClbPlanes * planes, const ClbJob * y,
    const ClbJob * uv)
{
  guint luma;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || y->plane != uv->plane
      || y->channels != 1 || y->pixel_stride != 2 || y->keep_mask != 0
      || uv->channels != 2 || uv->pixel_stride != 4 || uv->keep_mask != 0
      || y->offset[0] > 1 || y->width != 2 * uv->width
      || y->height != uv->height || y->width == 0)
    return -1;
  luma = y->offset[0];
  if (uv->offset[0] != 1 - luma || uv->offset[1] != 3 - luma)
    return -1;
  return luma;
}

const ClbVariant *
clb_variant_pair (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbVariant * alone_a, const ClbJob * a,
    guint rxa, guint rya, const ClbVariant * alone_b, const ClbJob * b,
    guint rxb, guint ryb)
{
  switch (method) {
    case CLB_METHOD_SEPARABLE:
      return clb_separable_pair (profile, planes, alone_a, a, rxa, rya,
          alone_b, b, rxb, ryb);
    case CLB_METHOD_MOSAIC:
      return clb_mosaic_pair (profile, planes, alone_a, a, rxa, rya,
          alone_b, b, rxb, ryb);
    default:
      return NULL;
  }
}

const ClbVariant *
clb_variant_choose_pair (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbJob * a, guint rxa, guint rya,
    const ClbJob * b, guint rxb, guint ryb)
{
  ClbWorkShape shape;
  const ClbVariant *va, *vb;

  va = clb_variant_choose (profile, method, planes, a, rxa, rya, &shape);
  vb = clb_variant_choose (profile, method, planes, b, rxb, ryb, &shape);
  return clb_variant_pair (profile, method, planes, va, a, rxa, rya, vb, b,
      rxb, ryb);
}

/* The run of @r's paired job alone (ClbRun.pair_job: its job, index,
 * radii, buffers and pitches) into @other: where a pair's variant runs
 * its two jobs one after the other. */
void
clb_run_pair_other (const ClbRun * r, ClbRun * other)
{
  *other = *r;
  other->job = r->pair_job;
  other->index = r->pair_index;
  other->rx = r->pair_rx;
  other->ry = r->pair_ry;
  other->in = r->pair_in;
  other->out = r->pair_out;
  other->in_pitch = r->pair_in_pitch;
  other->out_pitch = r->pair_out_pitch;
  other->pair_job = NULL;
  other->alpha_out = NULL;
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

static void
log_variant (ClbEngine * engine, const ClbRun * r,
    const ClbVariant * v)
{
  const ClbJob *job = r->job;
  gchar *line, *shape, keep[16] = "", pair[96] = "";
  guint c, kept = 0;

  if (engine->options.log == NULL || r->index >= CLB_MAX_JOBS)
    return;
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
  if (g_strcmp0 (line, engine->job_log[r->index]) != 0) {
    clb_engine_log (engine, "%s", line);
    g_free (engine->job_log[r->index]);
    engine->job_log[r->index] = line;
  } else {
    g_free (line);
  }
}

gboolean
clb_engine_run_variant (ClbEngine * engine, const ClbVariant * variant,
    const ClbRun * run, GError ** error)
{
  log_variant (engine, run, variant);
  return variant->run (engine, run, error);
}
