/* clboxblur engine: runs the blur methods on the planes of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The engine's life, its buffers and tables: services of the floor below
 * the method files, which call back into nothing above it (docs/design.md,
 * "Layers"). A frame's jobs run in enginerun.c; which kernels run for a
 * job is the variant table's (enginevariants.c); what the device is, the
 * profile's (engineprofile.c).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "engineprivate.h"
#include "progcache.h"

#define CLB_KERNEL_NAME(id, name, unit) name,
static const gchar *kernel_names[N_KERNELS] = {
  CLB_KERNELS (CLB_KERNEL_NAME)
};
#undef CLB_KERNEL_NAME
#define CLB_KERNEL_UNIT(id, name, unit) unit,
static const gchar *kernel_units[N_KERNELS] = {
  CLB_KERNELS (CLB_KERNEL_UNIT)
};
#undef CLB_KERNEL_UNIT

/* Spatial tables are allocated for this radius first, and grown (rarely)
 * when a larger one is asked for. */
#define SPATIAL_INITIAL_RADIUS 16
/* Likewise the regions' array, in ints. */
#define REGIONS_INITIAL 4096
gboolean
clb_engine_ensure_unit (ClbEngine * engine, ClbSampleSize size,
    const gchar * unit, GError ** error)
{
  guint k, bit = 1u << clb_kernel_unit_index (unit);

  if (engine->units_made[size] & bit)
    return TRUE;
  for (k = 0; k < N_KERNELS; k++) {
    if (engine->kernels[size][k] || strcmp (kernel_units[k], unit) != 0
        || (k >= FIRST_8BIT_ONLY && size != CLB_SAMPLES_8))
      continue;
    engine->kernels[size][k] = clb_runtime_create_kernel (engine->rt, size,
        unit, kernel_names[k], error);
    if (!engine->kernels[size][k])
      return FALSE;
  }
  /* plans are made again with the new kernels' limits */
  engine->plan.valid = FALSE;
  if (!clb_engine_probe_kernels (engine, size, error))
    return FALSE;
  engine->units_made[size] |= bit;
  return TRUE;
}

/* alpha-mask's flag (clb_engine_mask_opaque_frames), 0: made with the
 * engine, before any frame's buffers (made on a masked frame's first
 * use, between its buffers, it left Oclgrind's --uninitialized shadow
 * of the work buffer poisoned: scripts/oclgrind-check.sh's GPU mask
 * cases failed). */
static gboolean
make_mask_seen (ClbEngine * engine, GError ** error)
{
  static const cl_uint zero = 0;

  engine->mask_seen = clb_runtime_create_buffer (engine->rt,
      CL_MEM_READ_WRITE, sizeof (cl_uint), error);
  if (engine->mask_seen == NULL)
    return FALSE;
  CHECK (clEnqueueWriteBuffer (engine->queue, engine->mask_seen, CL_FALSE,
          0, sizeof (cl_uint), &zero, 0, NULL, NULL),
      "clEnqueueWriteBuffer (the mask's flag)");
  return TRUE;

failed:
  return FALSE;
}

ClbEngine *
clb_engine_new (ClbRuntime * rt, const ClbEngineOptions * options,
    GError ** error)
{
  ClbEngine *engine = g_new0 (ClbEngine, 1);

  engine->rt = rt;
  engine->queue = clb_runtime_get_queue (rt);
  engine->args_kept = clb_args_kept_new ();
  if (options)
    engine->options = *options;
  else
    clb_engine_options_init (&engine->options);

  if (!clb_engine_ensure_unit (engine, CLB_SAMPLES_8, "base", error)
      || !clb_engine_probe_profile (engine, error)
      || !make_mask_seen (engine, error))
    goto failed;
  return engine;

failed:
  clb_engine_free (engine);
  return NULL;
}

const ClbDeviceProfile *
clb_engine_get_profile (ClbEngine * engine)
{
  return &engine->profile;
}

gboolean
clb_engine_is_cpu (ClbEngine * engine)
{
  return engine->profile.device_class == CLB_DEVICE_CLASS_CPU;
}

guint
clb_engine_get_loop_cap (ClbEngine * engine)
{
  return engine->profile.loop_cap;
}

/* Waits for and drops *@event, if any. */
static void
drop_event (cl_event * event)
{
  if (*event) {
    clWaitForEvents (1, event);
    clReleaseEvent (*event);
    *event = NULL;
  }
}

/* Method temporal's state of every job (ClbTemporalJob). */
static void
release_temporal (ClbEngine * engine)
{
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (engine->temporal); i++) {
    ClbTemporalJob *t = &engine->temporal[i];

    for (k = 0; k < 2; k++) {
      clb_temporal_drop_read (t, k, TRUE);
      drop_event (&t->upload[k]);
      g_clear_pointer (&t->tables_host[k], g_free);
      clb_runtime_release_buffer (&t->history[k]);
    }
    clb_runtime_release_buffer (&t->count);
    clb_runtime_release_buffer (&t->diff);
    clb_runtime_release_buffer (&t->hist);
    clb_runtime_release_buffer (&t->tables);
    t->bytes = t->tables_bytes = 0;
  }
}

void
clb_engine_temporal_reset (ClbEngine * engine)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (engine->temporal); i++)
    engine->temporal[i].fresh = TRUE;
}

gdouble
clb_engine_noise_level (ClbEngine * engine)
{
  return MAX (engine->noise_level, 0) / 16.0;
}

static void
release_buffers (ClbEngine * engine)
{
  guint i;

  release_temporal (engine);
  for (i = 0; i < CLB_MAX_JOBS; i++) {
    clb_runtime_release_buffer (&engine->spatial[i]);
    engine->spatial_capacity[i] = 0;
  }
  clb_runtime_release_buffer (&engine->regions);
  engine->regions_capacity = 0;
  clb_runtime_release_buffer (&engine->region_steps);
  engine->region_steps_bytes = 0;
  engine->region_steps_kept = FALSE;
  for (i = 0; i < 3; i++)
    clb_runtime_release_buffer (&engine->strength_planes[i]);
  engine->strength_bytes = 0;
  clb_runtime_release_buffer (&engine->range);
  clb_runtime_release_buffer (&engine->work);
  engine->work_size = 0;
  for (i = 0; i < CLB_MAX_PLANES; i++) {
    clb_runtime_release_buffer (&engine->plane_out[i]);
    clb_runtime_release_buffer (&engine->plane_in[i]);
    engine->plane_bytes[i] = 0;
  }
  engine->configured = FALSE;
  clb_engine_keep_own_args (engine);
}

void
clb_engine_keep_own_args (ClbEngine * engine)
{
  cl_mem own[2 * CLB_MAX_PLANES + CLB_MAX_JOBS + 7];
  guint n = 0, i;

  if (engine->args_kept == NULL)
    return;
  for (i = 0; i < CLB_MAX_PLANES; i++) {
    own[n++] = engine->plane_in[i];
    own[n++] = engine->plane_out[i];
  }
  for (i = 0; i < CLB_MAX_JOBS; i++)
    own[n++] = engine->spatial[i];
  for (i = 0; i < 3; i++)
    own[n++] = engine->strength_planes[i];
  own[n++] = engine->work;
  own[n++] = engine->range;
  own[n++] = engine->regions;
  own[n++] = engine->region_steps;
  g_assert (n <= G_N_ELEMENTS (own));
  clb_args_kept_keep_mems (engine->args_kept, own, n);
}

static void CL_CALLBACK
landing_done (cl_event event, cl_int status, void *data)
{
  ClbLanding *landing = data;

  g_atomic_int_set (&landing->state, status == CL_COMPLETE ? 1 : -1);
  clb_landing_drop (landing);
}

ClbLanding *
clb_landing_new (cl_event event)
{
  ClbLanding *landing = g_new (ClbLanding, 1);

  landing->refs = 2;
  landing->state = 0;
  if (clSetEventCallback (event, CL_COMPLETE, landing_done,
          landing) != CL_SUCCESS) {
    /* no callback: waited for now */
    landing->refs = 1;
    landing->state = clWaitForEvents (1, &event) == CL_SUCCESS ? 1 : -1;
  }
  return landing;
}

gint
clb_landing_state (ClbLanding * landing)
{
  return g_atomic_int_get (&landing->state);
}

void
clb_landing_drop (ClbLanding * landing)
{
  if (landing && g_atomic_int_dec_and_test (&landing->refs))
    g_free (landing);
}

static void
mask_read_drop (ClbEngine * engine)
{
  clb_landing_drop (engine->mask_read_landed);
  engine->mask_read_landed = NULL;
  if (engine->mask_read_done)
    clReleaseEvent (engine->mask_read_done);
  engine->mask_read_done = NULL;
}

void
clb_engine_free (ClbEngine * engine)
{
  guint s, k;

  if (engine == NULL)
    return;

  if (engine->queue)
    clFinish (engine->queue);
  g_clear_pointer (&engine->args_kept, clb_args_kept_free);
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    for (k = 0; k < N_KERNELS; k++)
      clb_runtime_release_kernel (&engine->kernels[s][N_KERNELS - 1 - k]);
  release_buffers (engine);
  /* (the queue finished: the flag's read, if any, is done) */
  mask_read_drop (engine);
  clb_runtime_release_buffer (&engine->mask_seen);
  g_free (engine->strength_log);
  if (engine->kernel_times)
    g_array_unref (engine->kernel_times);
  g_free (engine);
}

gsize
clb_engine_container_bytes (const ClbPlanes * planes)
{
  return planes->sample_size == CLB_SAMPLES_16 ? 2 : 1;
}

static gboolean
same_planes (const ClbPlanes * a, const ClbPlanes * b)
{
  guint p;

  if (a->width != b->width || a->height != b->height
      || a->sample_size != b->sample_size || a->shift != b->shift
      || a->big_endian != b->big_endian || a->max_value != b->max_value
      || a->n_planes != b->n_planes)
    return FALSE;
  for (p = 0; p < MIN (a->n_planes, CLB_MAX_PLANES); p++) {
    if (a->plane_width[p] != b->plane_width[p]
        || a->plane_height[p] != b->plane_height[p])
      return FALSE;
  }
  return TRUE;
}

/* Whether the engine's buffers already hold frames stored as @planes:
 * as many planes of the same samples, none larger than allocated. */
static gboolean
planes_fit (ClbEngine * engine, const ClbPlanes * planes)
{
  gsize bytes = clb_engine_container_bytes (planes);
  guint p;

  if (!engine->configured || planes->n_planes != engine->planes.n_planes
      || planes->sample_size != engine->planes.sample_size
      || planes->max_value != engine->planes.max_value)
    return FALSE;
  for (p = 0; p < planes->n_planes; p++) {
    if ((gsize) planes->plane_width[p] * planes->plane_height[p] * bytes
        > engine->plane_bytes[p] || planes->plane_width[p] == 0
        || planes->plane_height[p] == 0)
      return FALSE;
  }
  return TRUE;
}

gboolean
clb_engine_set_planes (ClbEngine * engine, const ClbPlanes * planes,
    GError ** error)
{
  gsize bytes = clb_engine_container_bytes (planes);
  guint p, j;

  g_return_val_if_fail (planes->n_planes >= 1
      && planes->n_planes <= CLB_MAX_PLANES, FALSE);
  g_return_val_if_fail (planes->max_value >= 1
      && planes->max_value <= G_MAXUINT16, FALSE);

  if (!clb_engine_ensure_unit (engine, planes->sample_size, "base",
          error))
    return FALSE;
  if (!same_planes (&engine->planes, planes))
    engine->plan.valid = FALSE;
  if (planes_fit (engine, planes)) {
    /* a field of the frame's planes, or the frame again (mixed
     * interlaced video): other views of the same buffers */
    engine->planes = *planes;
    return TRUE;
  }
  release_buffers (engine);
  engine->planes = *planes;

  for (p = 0; p < planes->n_planes; p++) {
    gsize containers = (gsize) planes->plane_width[p] * planes->plane_height[p];

    g_return_val_if_fail (containers > 0, FALSE);
    g_return_val_if_fail (planes->plane_width[p] <= G_MAXINT, FALSE);

    engine->plane_in[p] = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_WRITE, containers * bytes, error);
    if (!engine->plane_in[p])
      goto failed;
    engine->plane_out[p] = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_WRITE, containers * bytes, error);
    if (!engine->plane_out[p])
      goto failed;
    engine->plane_bytes[p] = containers * bytes;
  }

  /* The box methods' work buffer is sized by the method on first use. */
  engine->range = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_ONLY,
      ((gsize) planes->max_value + 1) * sizeof (cl_float), error);
  if (!engine->range)
    goto failed;
  engine->range_sigma = NAN;

  engine->regions = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_ONLY,
      REGIONS_INITIAL * sizeof (cl_int), error);
  if (!engine->regions)
    goto failed;
  engine->regions_capacity = REGIONS_INITIAL * sizeof (cl_int);

  for (j = 0; j < CLB_MAX_JOBS; j++) {
    gsize side = 2 * SPATIAL_INITIAL_RADIUS + 1;

    engine->spatial_capacity[j] = side * side;
    engine->spatial[j] = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_ONLY, engine->spatial_capacity[j] * sizeof (cl_float),
        error);
    if (!engine->spatial[j])
      goto failed;
    engine->spatial_sigma[j] = NAN;
  }

  engine->configured = TRUE;
  return TRUE;

failed:
  release_buffers (engine);
  return FALSE;
}

void
clb_engine_cancel (ClbEngine * engine)
{
  g_atomic_int_set (&engine->cancelled, 1);
}

void
clb_engine_resume (ClbEngine * engine)
{
  g_atomic_int_set (&engine->cancelled, 0);
}

gboolean
clb_engine_is_cancelled (ClbEngine * engine)
{
  return g_atomic_int_get (&engine->cancelled) != 0;
}

gboolean
clb_engine_check_cancelled (ClbEngine * engine, GError ** error)
{
  if (!clb_engine_is_cancelled (engine))
    return TRUE;
  g_set_error_literal (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_CANCELLED,
      "cancelled");
  return FALSE;
}

static void CL_CALLBACK
free_staged (cl_event event, cl_int status, void *data)
{
  g_free (data);
}

/* Copies @size bytes of host memory into @mem, without waiting: from a
 * copy of @data, freed when the write completes (an event callback), so
 * the caller may free or change @data at once and no frame waits for an
 * upload (the queue runs in order: what is enqueued after reads it). */
gboolean
clb_engine_upload (ClbEngine * engine, cl_mem mem, const void *data,
    gsize size, const gchar * what, GError ** error)
{
  cl_int err = clb_fault (what);
  cl_event done = NULL;
  gpointer staged;

  if (err != CL_SUCCESS)
    return clb_set_cl_error (error, err, what);
  if (size == 0)
    return TRUE;
  staged = g_memdup2 (data, size);
  err = clEnqueueWriteBuffer (engine->queue, mem, CL_FALSE, 0, size, staged,
      0, NULL, &done);
  if (err != CL_SUCCESS) {
    g_free (staged);
    return clb_set_cl_error (error, err, what);
  }
  if (clSetEventCallback (done, CL_COMPLETE, free_staged, staged)
      != CL_SUCCESS) {
    /* no callback: freed once written */
    clWaitForEvents (1, &done);
    g_free (staged);
  }
  clReleaseEvent (done);
  return TRUE;
}

/* Weights below 2^-60 are written as 0: a sum of up to 4095^2 taps of at
 * most 65535 times such a weight stays far below what the rounding to
 * integers sees, and the product of two weights at least 2^-60 (spatial
 * times range) is a normal float. No denormals, which CPUs compute a
 * hundred times slower. */
static gdouble
flush_weight (gdouble w)
{
  return w < 0x1p-60 ? 0.0 : w;
}

/* range[d] = exp (-d^2 / (2 s^2)), s = sigma_range scaled to the depth. */
static gboolean
update_range_table (ClbEngine * engine, gdouble sigma_range, GError ** error)
{
  guint n = engine->planes.max_value + 1, d;
  gdouble s = sigma_range * engine->planes.max_value / 255.0;
  cl_float *table;
  gboolean ok;

  if (engine->range_sigma == sigma_range)
    return TRUE;

  table = g_new (cl_float, n);
  for (d = 0; d < n; d++) {
    if (s > 0)
      table[d] = flush_weight (exp (-(gdouble) d * d / (2 * s * s)));
    else
      table[d] = d == 0 ? 1.0f : 0.0f;
  }
  ok = clb_engine_upload (engine, engine->range, table, n * sizeof (cl_float),
      "clEnqueueWriteBuffer (range)", error);
  g_free (table);
  if (!ok)
    return FALSE;
  engine->range_sigma = sigma_range;
  return TRUE;
}

/* spatial[(dy + ry) (2 rx + 1) + dx + rx] = exp (-(dx^2 + dy^2) / (2 s^2)) */
static gboolean
update_spatial_table (ClbEngine * engine, guint j, guint rx, guint ry,
    gdouble sigma, GError ** error)
{
  gsize n = (gsize) (2 * rx + 1) * (2 * ry + 1);
  cl_float *table;
  gboolean ok;
  gint dx, dy;
  gsize i = 0;

  if (engine->spatial_sigma[j] == sigma && engine->spatial_rx[j] == rx
      && engine->spatial_ry[j] == ry)
    return TRUE;

  /* exactly the table: bilateral_gpu passes it as a __constant argument,
   * which must fit the device's constant buffer size */
  if (n != engine->spatial_capacity[j]) {
    engine->spatial_sigma[j] = NAN;
    clb_args_kept_drop (engine->args_kept, engine->spatial[j]);
    clb_runtime_release_buffer (&engine->spatial[j]);
    engine->spatial_capacity[j] = 0;
    engine->spatial[j] = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_ONLY, n * sizeof (cl_float), error);
    if (!engine->spatial[j])
      return FALSE;
    engine->spatial_capacity[j] = n;
  }

  table = g_new (cl_float, n);
  for (dy = -(gint) ry; dy <= (gint) ry; dy++) {
    for (dx = -(gint) rx; dx <= (gint) rx; dx++) {
      table[i++] = sigma > 0 ? flush_weight (exp (-(gdouble) (dx * dx
                  + dy * dy) / (2 * sigma * sigma))) : 1.0;
    }
  }
  ok = clb_engine_upload (engine, engine->spatial[j], table, n * sizeof (cl_float),
      "clEnqueueWriteBuffer (spatial)", error);
  g_free (table);
  if (!ok)
    return FALSE;
  engine->spatial_sigma[j] = sigma;
  engine->spatial_rx[j] = rx;
  engine->spatial_ry[j] = ry;
  return TRUE;
}

static gboolean
check_job (const ClbPlanes * planes, const ClbJob * job, GError ** error)
{
  guint64 last = 0;
  guint c;

  if (job->plane >= planes->n_planes || job->channels < 1
      || job->channels > 4 || job->width < 1 || job->height < 1
      || job->height > planes->plane_height[job->plane]
      || (job->keep_mask >> job->channels) != 0
      || job->keep_mask == (1u << job->channels) - 1)
    goto bad;
  for (c = 0; c < job->channels; c++)
    last = MAX (last, (guint64) (job->width - 1) * job->pixel_stride
        + job->offset[c]);
  if (last >= planes->plane_width[job->plane])
    goto bad;
  return TRUE;

bad:
  g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB,
      "job of %u channels, %ux%u on plane %u does not fit the planes",
      job->channels, job->width, job->height, job->plane);
  return FALSE;
}

/* Checks that the engine is set up for the jobs. */
gboolean
clb_engine_check_jobs (ClbEngine * engine, const ClbJob * jobs, guint n_jobs,
    GError ** error)
{
  guint j;

  if (!engine->configured || n_jobs > CLB_MAX_JOBS) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB,
        "engine not configured, or %u jobs (at most %d)", n_jobs,
        CLB_MAX_JOBS);
    return FALSE;
  }
  for (j = 0; j < n_jobs; j++) {
    if (!check_job (&engine->planes, &jobs[j], error))
      return FALSE;
  }
  return TRUE;
}

/* Box methods filter plane_in in place; bilateral (and temporal) writes
 * plane_out. With regions the other one keeps the original, and the
 * result is the plane that holds what lies outside the regions (the
 * regions' content is merged into it): the original, or with
 * region-invert the filtered. */
cl_mem *
clb_engine_result_planes (ClbEngine * engine, const ClbParams * params)
{
  gboolean bilateral = CLB_METHOD_IS_BILATERAL (params->method);

  if (params->use_regions)
    return bilateral == params->region_invert ? engine->plane_out :
        engine->plane_in;
  return bilateral ? engine->plane_out : engine->plane_in;
}

gboolean
clb_engine_bilateral_tables (ClbEngine * engine, const ClbParams * params,
    guint j, guint rx, guint ry, GError ** error)
{
  return update_range_table (engine, params->sigma_range, error)
      && update_spatial_table (engine, j, rx, ry, params->sigma_spatial,
      error);
}

/* ---- alpha-mask's flag: whether a frame had background
 * (clb_engine_mask_opaque_frames) ---- */

#define MASK_READ_EVERY 4

/* Takes the flag's read-back where it is done, without a wait: the
 * frames up to the read's stamp are answered. The flag holds the stamp
 * of the last frame whose kernels saw background (stamps grow by one a
 * masked frame): one past the last answered means background in this
 * answer's frames, and only the frames after it are opaque. */
static void
mask_seen_collect (ClbEngine * engine)
{
  gint landed;

  if (engine->mask_read_done == NULL)
    return;
  landed = clb_landing_state (engine->mask_read_landed);
  if (landed == 0)
    return;                     /* queued, submitted or running */
  if (landed > 0) {
    if ((gint32) (engine->mask_read - engine->mask_answered) > 0)
      engine->mask_opaque = engine->mask_read_stamp - engine->mask_read;
    else
      engine->mask_opaque += engine->mask_read_stamp - engine->mask_answered;
  }
  engine->mask_answered = engine->mask_read_stamp;
  mask_read_drop (engine);
}

void
clb_engine_mask_seen_begin (ClbEngine * engine)
{
  mask_seen_collect (engine);
  engine->mask_stamp++;
}

gboolean
clb_engine_mask_seen_end (ClbEngine * engine, GError ** error)
{
  /* read every MASK_READ_EVERY frames (a read is a command of its own a
   * frame, about 0.2 ms of a 1080p frame on PoCL): the flag keeps the
   * last frame with background, so a read answers the frames since the
   * one before */
  if (engine->mask_read_done != NULL
      || engine->mask_stamp % MASK_READ_EVERY != 0)
    return TRUE;                /* the last one still on its way */
  CHECK (clEnqueueReadBuffer (engine->queue, engine->mask_seen, CL_FALSE, 0,
          sizeof (cl_uint), &engine->mask_read, 0, NULL,
          &engine->mask_read_done), "clEnqueueReadBuffer (the mask's flag)");
  engine->mask_read_stamp = engine->mask_stamp;
  engine->mask_read_landed = clb_landing_new (engine->mask_read_done);
  return TRUE;

failed:
  engine->mask_read_done = NULL;
  return FALSE;
}

guint
clb_engine_mask_opaque_frames (ClbEngine * engine)
{
  mask_seen_collect (engine);
  return engine->mask_opaque;
}
