/* clboxblur engine: runs the blur methods on the planes of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The engine's life, its buffers and tables, and a frame's way in and out.
 * Which kernels run for a job is the variant table's (enginevariants.c);
 * what the device is, the profile's (engineprofile.c).
 */
#include "config.h"

#include <math.h>

#include "engineprivate.h"
#include <CL/cl_gl.h>

static const gchar *kernel_names[N_KERNELS] = {
  "sat_scan_rows", "sat_scan_columns", "sat_box", "sat_box_border",
  "separable_rows", "separable_columns", "bilateral_local",
  "bilateral_global", "bilateral_gpu",
  "region_composite", "gpu_box_sep_rows", "gpu_box_sep_columns",
  "gpu_box_sat_rows", "gpu_box_sat_totals", "gpu_box_sat_columns",
  "sat_ring",
  "separable_vertical_x16",
  "separable_horizontal_x16", "bilateral_x16",
};

/* Spatial tables are allocated for this radius first, and grown (rarely)
 * when a larger one is asked for. */
#define SPATIAL_INITIAL_RADIUS 16
/* Likewise the region list. */
#define REGIONS_INITIAL 64
/* Bilateral runs a job in bands of at most this many taps (pixels x
 * window x channels), each waited for, so that clb_engine_cancel takes
 * effect within one band: 30 to 150 ms a band on 2 busy CPU cores under
 * PoCL (load 10; bilateral_x16 and bilateral_local at radius 63), the
 * slowest device the element meets. A band is at least one work-group
 * (bilateral_local) or one row (bilateral_x16), at most the job. */
#define CLB_BAND_TAPS (G_GUINT64_CONSTANT (1) << 24)

/* The taps of a band on this device: CLB_BAND_TAPS per compute unit on
 * devices other than CPUs, each of whose compute units (an SM, a CU)
 * runs its share of a band at least as fast as a CPU core; so a GPU does
 * not wait for dozens of small bands a frame (a wait costs tens of
 * microseconds there: on an H100's 132 units, 1080p RGBA at radius 4 is
 * one band, not 40). */
static guint64
band_taps (const ClbDeviceProfile * profile)
{
  if (profile->type & CL_DEVICE_TYPE_CPU)
    return CLB_BAND_TAPS;
  return CLB_BAND_TAPS * MAX (profile->compute_units, 1);
}

ClbEngine *
clb_engine_new (ClbRuntime * rt, const ClbEngineOptions * options,
    GError ** error)
{
  ClbEngine *engine = g_new0 (ClbEngine, 1);
  guint s, k;

  engine->rt = rt;
  engine->queue = clb_runtime_get_queue (rt);
  if (options)
    engine->options = *options;
  else
    clb_engine_options_init (&engine->options);

  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++) {
    for (k = 0; k < N_KERNELS; k++) {
      if (k >= K_SEPARABLE_VERTICAL_X16 && s != CLB_SAMPLES_8)
        continue;
      engine->kernels[s][k] = clb_runtime_create_kernel (rt, s,
          kernel_names[k], error);
      if (!engine->kernels[s][k])
        goto failed;
    }
  }
  if (!clb_engine_probe_profile (engine, error))
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

static void
release_buffers (ClbEngine * engine)
{
  guint i;

  for (i = 0; i < CLB_MAX_JOBS; i++) {
    clb_runtime_release_buffer (&engine->spatial[i]);
    engine->spatial_capacity[i] = 0;
  }
  clb_runtime_release_buffer (&engine->regions);
  engine->regions_capacity = 0;
  clb_runtime_release_buffer (&engine->range);
  clb_runtime_release_buffer (&engine->work);
  engine->work_size = 0;
  for (i = 0; i < CLB_MAX_PLANES; i++) {
    clb_runtime_release_buffer (&engine->plane_out[i]);
    clb_runtime_release_buffer (&engine->plane_in[i]);
  }
  engine->configured = FALSE;
}

void
clb_engine_free (ClbEngine * engine)
{
  guint s, k;

  if (engine == NULL)
    return;

  if (engine->queue)
    clFinish (engine->queue);
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    for (k = 0; k < N_KERNELS; k++)
      clb_runtime_release_kernel (&engine->kernels[s][N_KERNELS - 1 - k]);
  release_buffers (engine);
  for (k = 0; k < CLB_MAX_JOBS; k++)
    g_free (engine->job_log[k]);
  if (engine->kernel_times)
    g_array_unref (engine->kernel_times);
  g_free (engine);
}

gsize
clb_engine_container_bytes (const ClbPlanes * planes)
{
  return planes->sample_size == CLB_SAMPLES_16 ? 2 : 1;
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
  }

  /* The box methods' work buffer is sized by the method on first use. */
  engine->range = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_ONLY,
      ((gsize) planes->max_value + 1) * sizeof (cl_float), error);
  if (!engine->range)
    goto failed;
  engine->range_sigma = NAN;

  engine->regions = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_ONLY,
      REGIONS_INITIAL * sizeof (cl_int4), error);
  if (!engine->regions)
    goto failed;
  engine->regions_capacity = REGIONS_INITIAL;

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

static gboolean
check_cancelled (ClbEngine * engine, GError ** error)
{
  if (!clb_engine_is_cancelled (engine))
    return TRUE;
  g_set_error_literal (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_CANCELLED,
      "cancelled");
  return FALSE;
}

/* Copies @size bytes of host memory into @mem, blocking. */
static gboolean
upload (ClbEngine * engine, cl_mem mem, const void *data, gsize size,
    const gchar * what, GError ** error)
{
  cl_int err = clb_fault (what);

  if (err == CL_SUCCESS && size > 0)
    err = clEnqueueWriteBuffer (engine->queue, mem, CL_TRUE, 0, size, data, 0,
        NULL, NULL);
  if (err != CL_SUCCESS)
    return clb_set_cl_error (error, err, what);
  return TRUE;
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
      table[d] = exp (-(gdouble) d * d / (2 * s * s));
    else
      table[d] = d == 0 ? 1.0f : 0.0f;
  }
  ok = upload (engine, engine->range, table, n * sizeof (cl_float),
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
      table[i++] = sigma > 0 ?
          exp (-(gdouble) (dx * dx + dy * dy) / (2 * sigma * sigma)) : 1.0;
    }
  }
  ok = upload (engine, engine->spatial[j], table, n * sizeof (cl_float),
      "clEnqueueWriteBuffer (spatial)", error);
  g_free (table);
  if (!ok)
    return FALSE;
  engine->spatial_sigma[j] = sigma;
  engine->spatial_rx[j] = rx;
  engine->spatial_ry[j] = ry;
  return TRUE;
}

/* Uploads the regions, clipped to the frame. */
static gboolean
upload_regions (ClbEngine * engine, const ClbParams * params, gint width,
    gint height, GError ** error)
{
  cl_int4 *rects;
  gboolean ok;
  guint i, n = 0;

  engine->n_rects = 0;
  if (params->n_regions > engine->regions_capacity) {
    clb_runtime_release_buffer (&engine->regions);
    engine->regions_capacity = 0;
    engine->regions = clb_runtime_create_buffer (engine->rt,
        CL_MEM_READ_ONLY, params->n_regions * sizeof (cl_int4), error);
    if (!engine->regions)
      return FALSE;
    engine->regions_capacity = params->n_regions;
  }
  if (params->n_regions == 0)
    return TRUE;

  rects = g_new (cl_int4, params->n_regions);
  for (i = 0; i < params->n_regions; i++) {
    const ClbRect *r = &params->regions[i];
    gint64 x1 = (gint64) r->x + MAX (r->width, 0);
    gint64 y1 = (gint64) r->y + MAX (r->height, 0);

    rects[n].s[0] = CLAMP (r->x, 0, width);
    rects[n].s[1] = CLAMP (r->y, 0, height);
    rects[n].s[2] = CLAMP (x1, 0, width);
    rects[n].s[3] = CLAMP (y1, 0, height);
    if (rects[n].s[0] < rects[n].s[2] && rects[n].s[1] < rects[n].s[3])
      n++;                      /* empty after clipping: dropped */
  }
  ok = upload (engine, engine->regions, rects, n * sizeof (cl_int4),
      "clEnqueueWriteBuffer (regions)", error);
  g_free (rects);
  if (!ok)
    return FALSE;
  engine->n_rects = n;
  return TRUE;
}

static gboolean
run_composite (ClbEngine * engine, cl_kernel * k, const ClbJob * job,
    cl_int copy_inside, GError ** error)
{
  cl_kernel kernel = k[K_REGION_COMPOSITE];
  size_t pixels[2] = { job->width, job->height };
  ClbArgs a = clb_args (kernel);

  clb_arg_mem (&a, engine->plane_in[job->plane]);
  clb_arg_mem (&a, engine->plane_out[job->plane]);
  clb_arg_int (&a, engine->planes.plane_width[job->plane]);
  clb_arg_int (&a, job->pixel_stride);
  clb_arg_int4 (&a, clb_job_offsets (job));
  clb_args_size (&a, job);
  clb_arg_int (&a, job->x_sub);
  clb_arg_int (&a, job->y_sub);
  clb_arg_mem (&a, engine->regions);
  clb_arg_int (&a, engine->n_rects);
  clb_arg_int (&a, copy_inside);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_engine_run_kernel (engine, kernel, 2, pixels, NULL,
          "region_composite"), "clEnqueueNDRangeKernel (region_composite)");
  return TRUE;

failed:
  return FALSE;
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

/* Box methods filter plane_in in place; bilateral writes plane_out. With
 * regions, plane_out also keeps the original for the composite. */
cl_mem *
clb_engine_result_planes (ClbEngine * engine, const ClbParams * params)
{
  return params->method == CLB_METHOD_BILATERAL || params->use_regions ?
      engine->plane_out : engine->plane_in;
}

/* Runs a bilateral job's variant over bands of the job whose taps stay
 * within band_taps, waiting for each but the last and giving up when
 * cancelled: whole rows where the variant takes them (or where rows of
 * work-groups fit), else work-groups' worth of columns of such rows. */
static gboolean
run_bands (ClbEngine * engine, const ClbVariant * variant, ClbRun * r,
    GError ** error)
{
  const ClbJob *job = r->job;
  guint64 taps = (2 * (guint64) r->rx + 1) * (2 * (guint64) r->ry + 1)
      * job->channels;
  guint64 pixels = MAX (band_taps (&engine->profile) / taps, 1);
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
      if (!check_cancelled (engine, error)
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

/* Runs job @j's pass @pass with the variant the table gives it. Box
 * methods filter plane_in in place; bilateral writes plane_out. */
static gboolean
run_job (ClbEngine * engine, const ClbParams * params, guint j,
    const ClbJob * job, guint pass, GError ** error)
{
  const ClbVariant *variant;
  ClbRun r = { .params = params, .job = job, .index = j,
    .border = params->border };
  cl_int pitch = engine->planes.plane_width[job->plane];
  ClbJob unkept;

  clb_job_radii (params, job, pass, &r.rx, &r.ry);
  if (r.rx == 0 && r.ry == 0)
    return TRUE;                /* this job is passed through */

  if (params->method == CLB_METHOD_BILATERAL
      && (!update_range_table (engine, params->sigma_range, error)
          || !update_spatial_table (engine, j, r.rx, r.ry,
              params->sigma_spatial, error)))
    return FALSE;
  variant = clb_variant_choose (&engine->profile, params->method,
      &engine->planes, job, r.rx, r.ry, &r.shape);
  if (variant == NULL) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_METHOD,
        "unknown method %d", params->method);
    return FALSE;
  }
  r.job = clb_variant_job (variant, job, &unkept);
  if (engine->frame_out) {
    /* a job's first run reads the input, the next ones its own output */
    r.in = (engine->frame_written & (1u << j) ? engine->frame_out :
        engine->frame_in)[job->plane];
    r.out = engine->frame_out[job->plane];
    engine->frame_written |= 1u << j;
  } else {
    r.in = engine->plane_in[job->plane];
    r.out = params->method == CLB_METHOD_BILATERAL ?
        engine->plane_out[job->plane] : r.in;
  }
  r.in_pitch = r.out_pitch = pitch;
  if (params->method == CLB_METHOD_BILATERAL)
    return run_bands (engine, variant, &r, error);
  return clb_engine_run_variant (engine, variant, &r, error);
}

/* Whether the jobs write every byte of every plane: each plane one job of
 * all its bytes (no kept channels, no gaps) that runs in some pass. */
static gboolean
jobs_write_every_byte (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  const ClbPlanes *planes = &engine->planes;
  guint covered = 0, j, pass;

  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    gboolean runs = FALSE;

    for (pass = 0; pass < clb_n_passes (params); pass++) {
      cl_int rx, ry;

      clb_job_radii (params, job, pass, &rx, &ry);
      runs |= rx > 0 || ry > 0;
    }
    if (!runs || job->keep_mask != 0 || job->pixel_stride != job->channels
        || job->width * job->channels != planes->plane_width[job->plane]
        || job->height != planes->plane_height[job->plane]
        || (covered & (1u << job->plane)))
      return FALSE;
    covered |= 1u << job->plane;
  }
  return covered == (1u << planes->n_planes) - 1;
}

/* Filters the frame in plane_in; the result is in result_planes(). With
 * frame_in and frame_out set (enginemem.c; no regions), from frame_in
 * into frame_out. */
gboolean
clb_engine_run_jobs (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_kernel *k = engine->kernels[planes->sample_size];
  gsize bytes = clb_engine_container_bytes (planes);
  gboolean bilateral = params->method == CLB_METHOD_BILATERAL;
  gboolean regions = params->use_regions;
  guint p, j, pass, passes;

  if (engine->frame_out) {
    /* bytes no job writes (kept channels, gaps, jobs passed through) come
     * from the input */
    gboolean copy = !jobs_write_every_byte (engine, params, jobs, n_jobs);

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

  passes = clb_n_passes (params);
  for (pass = 0; pass < passes; pass++) {
    for (j = 0; j < n_jobs; j++) {
      if (!check_cancelled (engine, error)
          || !run_job (engine, params, j, &jobs[j], pass, error))
        return FALSE;
    }
  }

  if (regions && n_jobs > 0) {
    /* Box: the filtered samples (plane_in) go into the original
     * (plane_out) where selected. Bilateral: the original (plane_in) goes
     * into the filtered (plane_out) where not selected. */
    cl_int copy_inside = bilateral ? params->region_invert :
        !params->region_invert;

    if (!upload_regions (engine, params, planes->width, planes->height,
            error))
      return FALSE;
    for (j = 0; j < n_jobs; j++) {
      if (!run_composite (engine, k, &jobs[j], copy_inside, error))
        return FALSE;
    }
  }
  return TRUE;

failed:
  return FALSE;
}

/* Whether the frame can go from the caller's input to its output memory
 * through the kernels alone: one box pass of separable with a radius in
 * every job, every plane one job whose variant reads and writes in place
 * (dense 8-bit in vector registers), input and output apart. */
gboolean
clb_engine_runs_direct (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  const ClbPlanes *planes = &engine->planes;
  guint covered = 0, j;

  if (!engine->profile.zero_copy
      || params->method != CLB_METHOD_SEPARABLE || params->use_regions
      || clb_n_passes (params) != 1)
    return FALSE;
  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    const ClbVariant *variant;
    ClbWorkShape shape;
    ClbJob unkept;
    cl_int rx, ry;

    clb_job_radii (params, job, 0, &rx, &ry);
    if (rx == 0 && ry == 0)
      return FALSE;
    variant = clb_variant_choose (&engine->profile, params->method, planes,
        job, rx, ry, &shape);
    if (!clb_variant_wraps (variant))
      return FALSE;
    /* a variant that wraps writes every sample of its job's rows */
    job = clb_variant_job (variant, job, &unkept);
    if (job->width * job->channels != planes->plane_width[job->plane]
        || job->height != planes->plane_height[job->plane]
        || (covered & (1u << job->plane)))
      return FALSE;
    covered |= 1u << job->plane;
  }
  return covered == (1u << planes->n_planes) - 1;
}

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
  return TRUE;
}

/* Runs every job on the wrapped planes with the variant
 * clb_engine_runs_direct saw. */
gboolean
clb_engine_run_wrapped_jobs (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, cl_mem * in, const gsize * src_stride,
    cl_mem * out, const gsize * dst_stride, GError ** error)
{
  guint j;

  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    ClbRun r = { .params = params, .job = job, .index = j,
    .border = params->border };
    const ClbVariant *variant;
    ClbJob unkept;

    clb_job_radii (params, job, 0, &r.rx, &r.ry);
    variant = clb_variant_choose (&engine->profile, params->method,
        &engine->planes, job, r.rx, r.ry, &r.shape);
    r.job = clb_variant_job (variant, job, &unkept);
    r.in = in[job->plane];
    r.out = out[job->plane];
    r.in_pitch = (cl_int) src_stride[job->plane];
    r.out_pitch = (cl_int) dst_stride[job->plane];
    r.wrapped = TRUE;
    if (!clb_engine_run_variant (engine, variant, &r, error))
      return FALSE;
  }
  return TRUE;
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
    if (in[p])
      out[p] = clb_runtime_wrap_host (engine->rt, CL_MEM_WRITE_ONLY, dst[p],
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
   * device worked on a copy of it. */
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

gboolean
clb_engine_process (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const guint8 * const *src,
    const gsize * src_stride, guint8 * const *dst, const gsize * dst_stride,
    GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  gsize bytes = clb_engine_container_bytes (planes);
  size_t origin[3] = { 0, 0, 0 };
  cl_mem *result;
  guint p;

  if (!clb_engine_check_jobs (engine, jobs, n_jobs, error))
    return FALSE;
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

    if (src_stride[p] < row || dst_stride[p] < row) {
      g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB,
          "plane %u: rows of %" G_GSIZE_FORMAT " / %" G_GSIZE_FORMAT
          " bytes, but %" G_GSIZE_FORMAT " bytes of samples", p,
          src_stride[p], dst_stride[p], (gsize) row);
      goto failed;
    }
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

gboolean
clb_engine_process_image (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, cl_mem src, cl_mem dst,
    gboolean gl_objects, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  size_t origin[3] = { 0, 0, 0 };
  size_t region[3] = { planes->width, planes->height, 1 };
  cl_mem objects[2] = { src, dst };
  gboolean acquired = FALSE;
  cl_mem *result;

  if (!clb_engine_check_jobs (engine, jobs, n_jobs, error))
    return FALSE;
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
