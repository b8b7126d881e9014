/* clboxblur engine: runs the blur methods on the planes of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "engine.h"
#include <CL/cl_gl.h>

enum
{
  K_SAT_SCAN_ROWS,
  K_SAT_SCAN_COLUMNS,
  K_SAT_BOX,
  K_SAT_BOX_BORDER,
  K_SEPARABLE_ROWS,
  K_SEPARABLE_COLUMNS,
  K_BILATERAL_LOCAL,
  K_BILATERAL_GLOBAL,
  K_REGION_COMPOSITE,
  K_SEPARABLE_VERTICAL_X16,     /* 8-bit program only, from here on */
  K_SEPARABLE_HORIZONTAL_X16,
  K_BILATERAL_X16,
  N_KERNELS
};

static const gchar *kernel_names[N_KERNELS] = {
  "sat_scan_rows", "sat_scan_columns", "sat_box", "sat_box_border",
  "separable_rows", "separable_columns", "bilateral_local",
  "bilateral_global",
  "region_composite", "separable_vertical_x16",
  "separable_horizontal_x16", "bilateral_x16",
};

/* Spatial tables are allocated for this radius first, and grown (rarely)
 * when a larger one is asked for. */
#define SPATIAL_INITIAL_RADIUS 16
/* Likewise the region list. */
#define REGIONS_INITIAL 64

/* The loop probe's loop (see probe_loop_cap), and the fewest iterations a
 * device may let a work-item run for the engine to plan around it. */
#define LOOP_PROBE_ITERATIONS (1 << 17)
#define LOOP_CAP_MIN (1 << 15)
/* Test hook: plan launches as if loops were capped at this many
 * iterations, on any device. */
#define LOOP_CAP_ENV "CLBOXBLUR_LOOP_CAP"

struct _ClbEngine
{
  ClbRuntime *rt;               /* not owned */
  cl_command_queue queue;
  cl_kernel kernels[CLB_N_SAMPLE_SIZES][N_KERNELS];
  cl_ulong local_mem_size;
  /* Adjacent columns one work-item of sat_scan_columns and
   * separable_columns walks: 1 on GPUs (coalesced), 16 on CPUs (whole
   * cache lines, row by row). */
  cl_int column_strip;
  /* Work-items of line kernels (one row or strip each, walked serially)
   * are grouped so that every compute unit gets several work-groups:
   * left to itself, PoCL makes one work-group of all of them, which one
   * thread runs. */
  cl_uint compute_units;
  gboolean is_cpu;
  size_t max_wg[CLB_N_SAMPLE_SIZES][N_KERNELS];
  size_t max_items[3];          /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  /* CPUs (where the vector kernels run) work on host memory: frames those
   * kernels can take as they are are wrapped, not copied
   * (clb_engine_wraps_frames). */
  gboolean zero_copy;
  /* Local memory bilateral_local uses besides its tile, and its largest
   * work-group, read before any __local argument is set (afterwards the
   * query counts the last tile too). */
  cl_ulong bilateral_static_local[CLB_N_SAMPLE_SIZES];
  size_t bilateral_max_wg[CLB_N_SAMPLE_SIZES];
  /* Devices that end a work-item's loops after a number of iterations
   * (probe_loop_cap): that number, and the most a launch is planned to
   * run, half of it. 0: loops run to the end. */
  guint loop_cap;
  guint64 loop_budget;

  ClbPlanes planes;
  gboolean configured;
  cl_mem plane_in[CLB_MAX_PLANES];   /* the frame, filtered in place by box */
  cl_mem plane_out[CLB_MAX_PLANES];  /* bilateral output */
  cl_mem work;                  /* summed-area table or box intermediate */
  gsize work_size;              /* bytes; grown on first need */

  cl_mem range;                 /* max_value + 1 floats */
  gdouble range_sigma;          /* what range holds; NAN = nothing yet */

  cl_mem regions;               /* cl_int4 (x0, y0, x1, y1) */
  gsize regions_capacity;

  cl_mem spatial[CLB_MAX_JOBS];
  gsize spatial_capacity[CLB_MAX_JOBS];   /* floats */
  guint spatial_rx[CLB_MAX_JOBS], spatial_ry[CLB_MAX_JOBS];
  gdouble spatial_sigma[CLB_MAX_JOBS];    /* NAN = nothing yet */

  guint n_rects;                /* regions uploaded for this frame */
};

/* Every OpenCL call: the fault-injection hook, then the call. */
#define CHECK(expr, what) G_STMT_START {                      \
    cl_int e_ = clb_fault (what);                             \
    if (e_ == CL_SUCCESS)                                     \
      e_ = (expr);                                            \
    if (e_ != CL_SUCCESS) {                                   \
      clb_set_cl_error (error, e_, what);                     \
      goto failed;                                            \
    }                                                         \
  } G_STMT_END

#define SET_ARG(kernel, idx, value)                                     \
  CHECK (clSetKernelArg (kernel, idx, sizeof (value), &(value)),        \
      "clSetKernelArg (" G_STRINGIFY (idx) ")")

/* Whether the device ends long loops early, and after how many
 * iterations. Mesa's llvmpipe, the CPU device of rusticl (seen with 22.3,
 * Debian 12's mesa-opencl-icd), stops the loops of a work-item once they
 * have run 65535 iterations in all, nested ones counted too, then runs
 * the rest of the kernel: a guard against endless loops in graphics
 * shaders (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS) that it also applies to
 * OpenCL kernels, without an error. A column scan of a 4320-row frame, or
 * a bilateral window of 81x81, gives wrong pixels there. The probe runs
 * one work-item through a loop of LOOP_PROBE_ITERATIONS and reads back how
 * many ran; fewer means a cap, and the engine then plans every launch to
 * stay within half of it (the rest a margin for loops the compiler adds):
 * long lines in parts, large bilateral windows in blocks, and the vector
 * kernels only where their loops fit. No name or version check: a driver
 * that lifts the cap gets the usual launches. */
static gboolean
probe_loop_cap (ClbEngine * engine, GError ** error)
{
  const gchar *forced = g_getenv (LOOP_CAP_ENV);
  cl_uint init[3] = { 0, 0, 0 }, ran = 0;
  cl_int n = LOOP_PROBE_ITERATIONS, err;
  size_t one = 1;
  cl_kernel kernel = NULL;
  cl_mem count = NULL;
  gboolean ok = FALSE;

  if (forced && *forced) {
    ran = (cl_uint) CLAMP (g_ascii_strtoull (forced, NULL, 10), 2, G_MAXUINT);
    goto done;
  }

  kernel = clb_runtime_create_kernel (engine->rt, CLB_SAMPLES_8,
      "clb_loop_probe", error);
  if (kernel == NULL)
    return FALSE;
  err = clb_fault ("loop probe: clCreateBuffer");
  if (err == CL_SUCCESS)
    count = clCreateBuffer (clb_runtime_get_context (engine->rt),
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof (init), init, &err);
  if (err != CL_SUCCESS) {
    count = NULL;
    clb_set_cl_error (error, err, "loop probe: clCreateBuffer");
    goto failed;
  }
  SET_ARG (kernel, 0, count);
  SET_ARG (kernel, 1, n);
  CHECK (clEnqueueNDRangeKernel (engine->queue, kernel, 1, NULL, &one, &one,
          0, NULL, NULL), "loop probe: clEnqueueNDRangeKernel");
  CHECK (clEnqueueReadBuffer (engine->queue, count, CL_TRUE, 0, sizeof (ran),
          &ran, 0, NULL, NULL), "loop probe: clEnqueueReadBuffer");
  if (ran >= (cl_uint) n)
    ran = 0;                    /* not capped */
  else if (ran < LOOP_CAP_MIN) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
        "'%s' ends kernel loops after %u iterations: too few to run the "
        "kernels", clb_runtime_get_device_name (engine->rt), ran);
    goto failed;
  }

done:
  engine->loop_cap = ran;
  engine->loop_budget = ran / 2;
  ok = TRUE;

failed:
  clb_runtime_release_buffer (&count);
  clb_runtime_release_kernel (&kernel);
  return ok;
}

ClbEngine *
clb_engine_new (ClbRuntime * rt, GError ** error)
{
  ClbEngine *engine = g_new0 (ClbEngine, 1);
  guint s, k;

  engine->rt = rt;
  engine->queue = clb_runtime_get_queue (rt);

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

  CHECK (clGetDeviceInfo (clb_runtime_get_device (rt), CL_DEVICE_LOCAL_MEM_SIZE,
          sizeof (engine->local_mem_size), &engine->local_mem_size, NULL),
      "clGetDeviceInfo (LOCAL_MEM_SIZE)");
  {
    cl_device_type type = 0;

    CHECK (clGetDeviceInfo (clb_runtime_get_device (rt), CL_DEVICE_TYPE,
            sizeof (type), &type, NULL), "clGetDeviceInfo (TYPE)");
    engine->is_cpu = clb_device_class_is_cpu (type);
    engine->column_strip = engine->is_cpu ? 16 : 1;
    engine->zero_copy = clb_engine_wraps_frames (type);
  }
  CHECK (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (engine->compute_units),
          &engine->compute_units, NULL),
      "clGetDeviceInfo (MAX_COMPUTE_UNITS)");
  CHECK (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof (engine->max_items),
          engine->max_items, NULL),
      "clGetDeviceInfo (MAX_WORK_ITEM_SIZES)");
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++) {
    for (k = 0; k < N_KERNELS; k++) {
      if (!engine->kernels[s][k])
        continue;
      CHECK (clGetKernelWorkGroupInfo (engine->kernels[s][k],
              clb_runtime_get_device (rt), CL_KERNEL_WORK_GROUP_SIZE,
              sizeof (engine->max_wg[s][k]), &engine->max_wg[s][k], NULL),
          "clGetKernelWorkGroupInfo (WORK_GROUP_SIZE)");
    }
  }
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++) {
    cl_kernel kernel = engine->kernels[s][K_BILATERAL_LOCAL];
    cl_device_id device = clb_runtime_get_device (rt);

    CHECK (clGetKernelWorkGroupInfo (kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
            sizeof (engine->bilateral_max_wg[s]), &engine->bilateral_max_wg[s],
            NULL), "clGetKernelWorkGroupInfo (WORK_GROUP_SIZE)");
    CHECK (clGetKernelWorkGroupInfo (kernel, device, CL_KERNEL_LOCAL_MEM_SIZE,
            sizeof (engine->bilateral_static_local[s]),
            &engine->bilateral_static_local[s], NULL),
        "clGetKernelWorkGroupInfo (LOCAL_MEM_SIZE)");
  }
  if (!probe_loop_cap (engine, error))
    goto failed;

  return engine;

failed:
  clb_engine_free (engine);
  return NULL;
}

gboolean
clb_engine_is_cpu (ClbEngine * engine)
{
  return engine->is_cpu;
}

gboolean
clb_engine_wraps_frames (cl_device_type type)
{
  return clb_device_class_is_cpu (type)
      && g_strcmp0 (g_getenv (CLB_ZERO_COPY_ENV), "0") != 0;
}

guint
clb_engine_get_loop_cap (ClbEngine * engine)
{
  return engine->loop_cap;
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
  g_free (engine);
}

static gsize
container_bytes (const ClbPlanes * planes)
{
  return planes->sample_size == CLB_SAMPLES_16 ? 2 : 1;
}

gboolean
clb_engine_set_planes (ClbEngine * engine, const ClbPlanes * planes,
    GError ** error)
{
  gsize bytes = container_bytes (planes);
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

guint
clb_scale_radius (guint radius, guint sub)
{
  guint r;

  if (radius == 0 || sub == 0)
    return radius;
  r = (radius + (1u << (sub - 1))) >> sub;
  return MAX (r, 1);
}

/* Grows the work buffer to at least @size bytes. */
static gboolean
ensure_work (ClbEngine * engine, gsize size, GError ** error)
{
  if (size <= engine->work_size)
    return TRUE;
  clb_runtime_release_buffer (&engine->work);
  engine->work_size = 0;
  engine->work = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_WRITE,
      size, error);
  if (!engine->work)
    return FALSE;
  engine->work_size = size;
  return TRUE;
}

/* A job's channel offsets as the kernels take them. */
static cl_int4
job_offsets (const ClbJob * job)
{
  cl_int4 off;
  guint c;

  for (c = 0; c < 4; c++)
    off.s[c] = c < job->channels ? job->offset[c] : 0;
  return off;
}

/* Kernel arguments 0..5: where a job's samples are. */
/* clEnqueueNDRangeKernel; with CLBOXBLUR_PROFILE set, also waits for the
 * kernel and prints its time (a profile of where a frame's time goes:
 * clboxblur-bench with CLBOXBLUR_PROFILE=1). */
static cl_int
run_kernel (ClbEngine * engine, cl_kernel kernel, cl_uint dims,
    const size_t * offset, const size_t * global, const size_t * local,
    const gchar * name)
{
  static gsize profile = 0;
  gint64 start = 0;
  cl_int err;

  if (g_once_init_enter (&profile))
    g_once_init_leave (&profile, g_getenv ("CLBOXBLUR_PROFILE") ? 2 : 1);
  if (profile == 2) {
    clFinish (engine->queue);
    start = g_get_monotonic_time ();
  }
  err = clEnqueueNDRangeKernel (engine->queue, kernel, dims, offset, global,
      local, 0, NULL, NULL);
  if (profile == 2 && err == CL_SUCCESS) {
    err = clFinish (engine->queue);
    g_printerr ("clboxblur profile: %-26s %8.3f ms\n", name,
        (g_get_monotonic_time () - start) / 1000.0);
  }
  return err;
}

/* Runs a 1-D kernel of n line work-items (rows or strips, each walked
 * serially; the kernel returns for ids >= n). CPUs: at least 4
 * work-groups per compute unit, so the threads share the lines evenly,
 * and at most 256 work-items a group (PoCL keeps a group's private arrays
 * side by side); GPUs: groups of 64 (two warps, one wavefront). Either
 * way within the kernel's largest work-group and the device's largest
 * first dimension (@dim_max). */
static size_t
lines_per_group (ClbEngine * engine, size_t n, size_t max_wg, size_t dim_max)
{
  size_t local, groups;

  if (engine->is_cpu) {
    groups = MAX (engine->compute_units, 1) * 4;
    local = MIN ((n + groups - 1) / groups, 256);
  } else {
    local = 64;
  }
  return CLAMP (local, 1, MAX (MIN (max_wg, dim_max), 1));
}

static cl_int
run_lines (ClbEngine * engine, guint sample_size, guint kernel, size_t n,
    const gchar * name)
{
  size_t local = lines_per_group (engine, n,
      engine->max_wg[sample_size][kernel], engine->max_items[0]);
  size_t global = (n + local - 1) / local * local;

  return run_kernel (engine, engine->kernels[sample_size][kernel], 1, NULL,
      &global, &local, name);
}

/* The same for kernels of (channel, row) work-items: a work-group takes
 * all channels of its rows. */
static cl_int
run_channel_lines (ClbEngine * engine, guint sample_size, guint kernel,
    size_t channels, size_t n, const gchar * name)
{
  size_t max_wg = MAX (engine->max_wg[sample_size][kernel] / channels, 1);
  size_t local[2] = { channels, lines_per_group (engine, n, max_wg,
          engine->max_items[1])
  };
  size_t global[2] = { channels, (n + local[1] - 1) / local[1] * local[1] };

  return run_kernel (engine, engine->kernels[sample_size][kernel], 2, NULL,
      global, local, name);
}

static gboolean
set_layout_args (cl_kernel kernel, guint first, cl_mem buffer,
    const ClbPlanes * planes, const ClbJob * job, GError ** error)
{
  cl_int pitch = planes->plane_width[job->plane];
  cl_int pstride = job->pixel_stride;
  cl_int swap = planes->big_endian;
  cl_int shift = planes->shift;
  cl_int4 off = job_offsets (job);

  SET_ARG (kernel, first, buffer);
  SET_ARG (kernel, first + 1, pitch);
  SET_ARG (kernel, first + 2, pstride);
  SET_ARG (kernel, first + 3, off);
  SET_ARG (kernel, first + 4, swap);
  SET_ARG (kernel, first + 5, shift);
  return TRUE;

failed:
  return FALSE;
}

/* Launches planned around a loop cap (probe_loop_cap). Loop costs are
 * counted as llvmpipe counts them: each iteration of every loop, nested
 * ones included, plus one each time a loop ends. The bounds below are
 * for the costliest work-item of a launch. */
static gboolean
loops_fit (ClbEngine * engine, guint64 iterations)
{
  return engine->loop_budget == 0 || iterations <= engine->loop_budget;
}

/* How many of @n steps of @per_step iterations one launch may take after
 * @fixed iterations of set-up: all of them where loops run to the end, at
 * least 1. */
static guint
steps_per_launch (ClbEngine * engine, guint64 fixed, guint64 per_step,
    guint n)
{
  guint64 k;

  if (engine->loop_budget == 0)
    return n;
  k = engine->loop_budget > fixed ?
      (engine->loop_budget - fixed) / per_step : 0;
  return (guint) CLAMP (k, 1, MAX (n, 1));
}

static gboolean
run_sat (ClbEngine * engine, cl_kernel * k, const ClbJob * job, cl_int rx,
    cl_int ry, cl_int border, GError ** error)
{
  cl_mem plane = engine->plane_in[job->plane];
  cl_kernel box = border == CLB_BORDER_SHRINK ? k[K_SAT_BOX] :
      k[K_SAT_BOX_BORDER];
  cl_int strip = engine->column_strip;
  size_t columns = ((size_t) job->width * job->channels + strip - 1) / strip;
  size_t pixels[2] = { job->width, job->height };
  cl_int w = job->width, h = job->height, cn = job->channels;
  gsize wide = engine->planes.sample_size == CLB_SAMPLES_16 ? 8 : 4;
  /* sat_scan_rows: an iteration a column; sat_scan_columns: strip + 2 a
   * row (the strip's loop and its end), as much to start */
  guint row_part = steps_per_launch (engine, 4, 1, w);
  guint column_part = steps_per_launch (engine, strip + 4, strip + 2, h);
  cl_int begin, end;

  if (!ensure_work (engine, (gsize) w * h * cn * wide, error))
    goto failed;
  if (!set_layout_args (k[K_SAT_SCAN_ROWS], 0, plane, &engine->planes, job,
          error))
    goto failed;
  SET_ARG (k[K_SAT_SCAN_ROWS], 6, engine->work);
  SET_ARG (k[K_SAT_SCAN_ROWS], 7, w);
  SET_ARG (k[K_SAT_SCAN_ROWS], 8, h);
  SET_ARG (k[K_SAT_SCAN_ROWS], 9, cn);

  SET_ARG (k[K_SAT_SCAN_COLUMNS], 0, engine->work);
  SET_ARG (k[K_SAT_SCAN_COLUMNS], 1, w);
  SET_ARG (k[K_SAT_SCAN_COLUMNS], 2, h);
  SET_ARG (k[K_SAT_SCAN_COLUMNS], 3, cn);
  SET_ARG (k[K_SAT_SCAN_COLUMNS], 4, strip);

  SET_ARG (box, 0, engine->work);
  if (!set_layout_args (box, 1, plane, &engine->planes, job, error))
    goto failed;
  SET_ARG (box, 7, w);
  SET_ARG (box, 8, h);
  SET_ARG (box, 9, cn);
  SET_ARG (box, 10, rx);
  SET_ARG (box, 11, ry);
  if (border != CLB_BORDER_SHRINK)
    SET_ARG (box, 12, border);

  /* Rows and columns in parts where the device caps loops, each part
   * going on from the sums the previous one left (one part elsewhere). */
  for (begin = 0; begin < w; begin = end) {
    end = begin + MIN ((guint) (w - begin), row_part);
    SET_ARG (k[K_SAT_SCAN_ROWS], 10, begin);
    SET_ARG (k[K_SAT_SCAN_ROWS], 11, end);
    CHECK (run_channel_lines (engine, engine->planes.sample_size,
            K_SAT_SCAN_ROWS, job->channels, job->height, "sat_scan_rows"),
        "clEnqueueNDRangeKernel (sat_scan_rows)");
  }
  for (begin = 0; begin < h; begin = end) {
    end = begin + MIN ((guint) (h - begin), column_part);
    SET_ARG (k[K_SAT_SCAN_COLUMNS], 5, begin);
    SET_ARG (k[K_SAT_SCAN_COLUMNS], 6, end);
    CHECK (run_lines (engine, engine->planes.sample_size, K_SAT_SCAN_COLUMNS,
            columns, "sat_scan_columns"),
        "clEnqueueNDRangeKernel (sat_scan_columns)");
  }
  if (border == CLB_BORDER_SHRINK)
    CHECK (run_kernel (engine, box, 2, NULL, pixels, NULL, "sat_box"),
        "clEnqueueNDRangeKernel (sat_box)");
  else
    CHECK (run_kernel (engine, box, 2, NULL, pixels, NULL, "sat_box_border"),
        "clEnqueueNDRangeKernel (sat_box_border)");
  return TRUE;

failed:
  return FALSE;
}

/* 8-bit samples stored as they are (no shift, no swap), the job's channels
 * back to back in every pixel: a row of the job is width * channels
 * consecutive bytes. */
static gboolean
job_is_dense_8bit (const ClbPlanes * planes, const ClbJob * job)
{
  guint c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->pixel_stride != job->channels)
    return FALSE;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] != c)
      return FALSE;
  }
  return TRUE;
}

/* CPUs, dense 8-bit jobs: the vertical pass first, then the horizontal
 * one sliding 16 samples at a time, both in vector registers. Reads @src,
 * writes @dst (rows @src_pitch and @dst_pitch bytes apart; they may be
 * the same buffer). */
static gboolean
run_separable_x16 (ClbEngine * engine, const ClbJob * job, cl_int rx,
    cl_int ry, cl_int border, cl_mem src, cl_int src_pitch, cl_mem dst,
    cl_int dst_pitch, GError ** error)
{
  cl_kernel *k = engine->kernels[CLB_SAMPLES_8];
  cl_kernel v = k[K_SEPARABLE_VERTICAL_X16];
  cl_kernel hz = k[K_SEPARABLE_HORIZONTAL_X16];
  cl_int w = job->width, h = job->height, cn = job->channels;
  size_t strips = ((size_t) w * cn + 63) / 64;
  /* the vertical sums in 16 bits where they fit: half the intermediate's
   * memory traffic */
  cl_int narrow = (2 * ry + 1) * 255 <= G_MAXUINT16;

  if (!ensure_work (engine, (gsize) w * h * cn * sizeof (cl_uint), error))
    goto failed;
  SET_ARG (v, 0, src);
  SET_ARG (v, 1, src_pitch);
  SET_ARG (v, 2, engine->work);
  SET_ARG (v, 3, w);
  SET_ARG (v, 4, h);
  SET_ARG (v, 5, cn);
  SET_ARG (v, 6, ry);
  SET_ARG (v, 7, border);
  SET_ARG (v, 8, narrow);
  SET_ARG (hz, 0, engine->work);
  SET_ARG (hz, 1, dst);
  SET_ARG (hz, 2, dst_pitch);
  SET_ARG (hz, 3, w);
  SET_ARG (hz, 4, h);
  SET_ARG (hz, 5, cn);
  SET_ARG (hz, 6, rx);
  SET_ARG (hz, 7, ry);
  SET_ARG (hz, 8, border);
  SET_ARG (hz, 9, narrow);
  CHECK (run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_VERTICAL_X16, strips,
          "separable_vertical_x16"),
      "clEnqueueNDRangeKernel (separable_vertical_x16)");
  CHECK (run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_HORIZONTAL_X16,
          (size_t) h, "separable_horizontal_x16"),
      "clEnqueueNDRangeKernel (separable_horizontal_x16)");
  return TRUE;

failed:
  return FALSE;
}

/* Whether the loops of run_separable_x16's kernels fit the device's cap
 * for this job (always where there is none). */
static gboolean
separable_x16_fits (ClbEngine * engine, const ClbJob * job, cl_int rx,
    cl_int ry)
{
  guint64 c = job->channels, step = 16 / c, used = step * c;
  guint64 steps = (guint64) job->width * c / used + 1;
  guint64 mapped = MIN (steps, (2 * (guint64) rx + 17) / step + 2);
  /* separable_vertical_x16: at the row's end up to 3 strips of 16 and 15
   * samples one at a time, each 2 ry + 1 rows to start and the height */
  guint64 vertical = 18 * (2 * (guint64) ry + job->height + 4) + 8;
  /* separable_horizontal_x16: the start, 2 rx + 1 pixels of 2 channel
   * loops; each step, and in the steps near the ends 16-lane border
   * mapping twice and a lane-by-lane store; up to 15 samples at the end,
   * a window each */
  guint64 horizontal = (2 * (guint64) rx + 2) * (2 * c + 3) + 2 * steps
      + 52 * mapped + 15 * (2 * (guint64) rx + 2) + 16;

  return loops_fit (engine, vertical) && loops_fit (engine, horizontal);
}

static gboolean
run_separable (ClbEngine * engine, cl_kernel * k, const ClbJob * job,
    cl_int rx, cl_int ry, cl_int border, GError ** error)
{
  cl_mem plane = engine->plane_in[job->plane];
  cl_int strip = engine->column_strip;
  size_t rows[2] = { job->channels, job->height };
  cl_int w = job->width, h = job->height, cn = job->channels;
  guint row_part, column_part;
  cl_int begin, end;

  if (engine->column_strip == 16 && job_is_dense_8bit (&engine->planes, job)
      && separable_x16_fits (engine, job, rx, ry))
    return run_separable_x16 (engine, job, rx, ry, border, plane,
        engine->planes.plane_width[job->plane], plane,
        engine->planes.plane_width[job->plane], error);

  /* separable_columns starts every part with the 2 ry + 1 rows of its
   * first window, strip + 2 iterations each: where a loop cap leaves no
   * room for that with 16 columns a work-item, 1 */
  if (!loops_fit (engine, (2 * (guint64) ry + 2) * (strip + 2) + strip + 4))
    strip = 1;
  /* separable_rows: 2 rx + 1 to start, then an iteration a column */
  row_part = steps_per_launch (engine, 2 * (guint64) rx + 4, 1, w);
  column_part = steps_per_launch (engine,
      (2 * (guint64) ry + 2) * (strip + 2) + strip + 4, strip + 2, h);

  /* horizontal sums fit in 32 bits for every depth */
  if (!ensure_work (engine, (gsize) w * h * cn * sizeof (cl_uint), error))
    goto failed;
  if (!set_layout_args (k[K_SEPARABLE_ROWS], 0, plane, &engine->planes, job,
          error))
    goto failed;
  SET_ARG (k[K_SEPARABLE_ROWS], 6, engine->work);
  SET_ARG (k[K_SEPARABLE_ROWS], 7, w);
  SET_ARG (k[K_SEPARABLE_ROWS], 8, h);
  SET_ARG (k[K_SEPARABLE_ROWS], 9, cn);
  SET_ARG (k[K_SEPARABLE_ROWS], 10, rx);
  SET_ARG (k[K_SEPARABLE_ROWS], 11, border);

  SET_ARG (k[K_SEPARABLE_COLUMNS], 0, engine->work);
  if (!set_layout_args (k[K_SEPARABLE_COLUMNS], 1, plane, &engine->planes,
          job, error))
    goto failed;
  SET_ARG (k[K_SEPARABLE_COLUMNS], 7, w);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 8, h);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 9, cn);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 10, rx);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 11, ry);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 12, border);
  SET_ARG (k[K_SEPARABLE_COLUMNS], 13, strip);

  /* in parts where the device caps loops (one part elsewhere) */
  for (begin = 0; begin < w; begin = end) {
    end = begin + MIN ((guint) (w - begin), row_part);
    SET_ARG (k[K_SEPARABLE_ROWS], 12, begin);
    SET_ARG (k[K_SEPARABLE_ROWS], 13, end);
    CHECK (run_channel_lines (engine, engine->planes.sample_size,
            K_SEPARABLE_ROWS, rows[0], rows[1], "separable_rows"),
        "clEnqueueNDRangeKernel (separable_rows)");
  }
  for (begin = 0; begin < h; begin = end) {
    end = begin + MIN ((guint) (h - begin), column_part);
    SET_ARG (k[K_SEPARABLE_COLUMNS], 14, begin);
    SET_ARG (k[K_SEPARABLE_COLUMNS], 15, end);
    CHECK (run_lines (engine, engine->planes.sample_size, K_SEPARABLE_COLUMNS,
            ((size_t) w * cn + strip - 1) / strip, "separable_columns"),
        "clEnqueueNDRangeKernel (separable_columns)");
  }
  return TRUE;

failed:
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

  if (n > engine->spatial_capacity[j]) {
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

/* The most loop iterations of a bilateral_local work-item with work-groups
 * of @local, or of a bilateral_global one over a window block of
 * @cols x @rows: per tap the dx loop and two channel loops; per window
 * row the channel loop adding its sums; the tile's staging (local), the
 * centre, the partial sums and the result (channel loops). */
static guint64
bilateral_loops (guint64 channels, guint64 cols, guint64 rows,
    const size_t * local, cl_int rx, cl_int ry)
{
  guint64 cost = rows * (cols * (2 * channels + 3) + channels + 3)
      + 4 * (channels + 1) + 8;

  if (local) {
    guint64 tile = (guint64) (local[0] + 2 * rx) * (local[1] + 2 * ry);
    guint64 items = (guint64) local[0] * local[1];

    cost += (tile + items - 1) / items * (channels + 2) + 1;
  }
  return cost;
}

/* A work-group shape whose tile and apron fit in local memory, and whose
 * loops fit the device's cap, or FALSE to use the global-memory kernel. */
static gboolean
choose_local_size (ClbEngine * engine, const ClbJob * job, cl_int rx,
    cl_int ry, size_t * local)
{
  static const size_t shapes[][2] = { {16, 16}, {8, 8} };
  ClbSampleSize size = engine->planes.sample_size;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (shapes); i++) {
    guint64 tile = (guint64) (shapes[i][0] + 2 * rx) * (shapes[i][1] + 2 * ry)
        * job->channels * sizeof (cl_float);

    if (shapes[i][0] * shapes[i][1] <= engine->bilateral_max_wg[size]
        && tile + engine->bilateral_static_local[size] <=
        engine->local_mem_size
        && loops_fit (engine, bilateral_loops (job->channels, 2 * rx + 1,
                2 * ry + 1, shapes[i], rx, ry))) {
      local[0] = shapes[i][0];
      local[1] = shapes[i][1];
      return TRUE;
    }
  }
  return FALSE;
}

/* Whether bilateral_x16's loops fit the device's cap (always where there
 * is none). Its costliest blocks are those at the row's ends, which
 * gather each tap's 16 lanes one by one, a channel loop each. */
static gboolean
bilateral_x16_fits (ClbEngine * engine, const ClbJob * job, cl_int rx,
    cl_int ry)
{
  guint64 gather = 16 * ((guint64) job->channels + 2) + 1;

  return loops_fit (engine, (2 * (guint64) ry + 1) * ((2 * (guint64) rx + 1)
          * (gather + 1) + 2) + gather + 40);
}

/* bilateral_global's window blocks (kernels/bilateral.cl) */
#define BLOCK_FIRST 1
#define BLOCK_LAST 2

static gboolean
run_bilateral_global (ClbEngine * engine, cl_kernel kernel,
    const ClbJob * job, cl_int rx, cl_int ry, GError ** error)
{
  size_t global[2] = { job->width, job->height };
  guint64 cn = job->channels, sw = 2 * (guint64) rx + 1;
  guint64 sh = 2 * (guint64) ry + 1;
  /* the window whole, or blocks of whole rows, or of parts of a row */
  guint cols = steps_per_launch (engine, bilateral_loops (cn, 0, 1, NULL, rx,
          ry), 2 * cn + 3, sw);
  guint rows = steps_per_launch (engine, bilateral_loops (cn, 0, 0, NULL, rx,
          ry), cols * (2 * cn + 3) + cn + 3, sh);
  cl_mem sums = engine->range;  /* a buffer never touched with one block */
  cl_int4 block;
  cl_int mode;

  if (cols < sw || rows < sh) {
    if (!ensure_work (engine, (gsize) job->width * job->height * (cn + 1)
            * sizeof (cl_float), error))
      goto failed;
    sums = engine->work;
  }
  SET_ARG (kernel, 18, sums);
  for (block.s[2] = -ry; block.s[2] <= ry; block.s[2] = block.s[3]) {
    block.s[3] = block.s[2] + MIN ((guint) (ry + 1 - block.s[2]), rows);
    for (block.s[0] = -rx; block.s[0] <= rx; block.s[0] = block.s[1]) {
      block.s[1] = block.s[0] + MIN ((guint) (rx + 1 - block.s[0]), cols);
      mode = (block.s[2] == -ry && block.s[0] == -rx ? BLOCK_FIRST : 0)
          | (block.s[3] > ry && block.s[1] > rx ? BLOCK_LAST : 0);
      SET_ARG (kernel, 17, block);
      SET_ARG (kernel, 19, mode);
      CHECK (run_kernel (engine, kernel, 2, NULL, global, NULL,
              "bilateral_global"),
          "clEnqueueNDRangeKernel (bilateral_global)");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

static gboolean
run_bilateral (ClbEngine * engine, cl_kernel * k, guint j, const ClbJob * job,
    cl_int rx, cl_int ry, cl_int border, const ClbParams * params,
    GError ** error)
{
  cl_kernel kernel;
  size_t local[2], global[2];
  cl_int w = job->width, h = job->height, cn = job->channels;
  cl_int mask = job->dist_mask, max_value = engine->planes.max_value;
  gboolean use_local;

  if (!update_range_table (engine, params->sigma_range, error)
      || !update_spatial_table (engine, j, rx, ry, params->sigma_spatial,
          error))
    goto failed;

  if (engine->column_strip == 16 && job_is_dense_8bit (&engine->planes, job)
      && bilateral_x16_fits (engine, job, rx, ry)) {
    /* CPUs: 16 pixels in vector lanes, the range weight computed */
    gdouble s = params->sigma_range * max_value / 255.0;
    cl_float kr = s > 0 ? (cl_float) MAX (-1.0 / (2.0 * s * s), -1e30) :
        -1e30f;
    cl_int pitch = engine->planes.plane_width[job->plane];
    cl_kernel x16 = engine->kernels[CLB_SAMPLES_8][K_BILATERAL_X16];

    SET_ARG (x16, 0, engine->plane_in[job->plane]);
    SET_ARG (x16, 1, pitch);
    SET_ARG (x16, 2, engine->plane_out[job->plane]);
    SET_ARG (x16, 3, pitch);
    SET_ARG (x16, 4, w);
    SET_ARG (x16, 5, h);
    SET_ARG (x16, 6, cn);
    SET_ARG (x16, 7, rx);
    SET_ARG (x16, 8, ry);
    SET_ARG (x16, 9, border);
    SET_ARG (x16, 10, engine->spatial[j]);
    SET_ARG (x16, 11, mask);
    SET_ARG (x16, 12, kr);
    CHECK (run_lines (engine, CLB_SAMPLES_8, K_BILATERAL_X16,
            (size_t) (w + 15) / 16 * h, "bilateral_x16"),
        "clEnqueueNDRangeKernel (bilateral_x16)");
    return TRUE;
  }

  use_local = choose_local_size (engine, job, rx, ry, local);
  kernel = use_local ? k[K_BILATERAL_LOCAL] : k[K_BILATERAL_GLOBAL];

  if (!set_layout_args (kernel, 0, engine->plane_in[job->plane],
          &engine->planes, job, error))
    goto failed;
  SET_ARG (kernel, 6, engine->plane_out[job->plane]);
  SET_ARG (kernel, 7, w);
  SET_ARG (kernel, 8, h);
  SET_ARG (kernel, 9, cn);
  SET_ARG (kernel, 10, rx);
  SET_ARG (kernel, 11, ry);
  SET_ARG (kernel, 12, border);
  SET_ARG (kernel, 13, engine->spatial[j]);
  SET_ARG (kernel, 14, engine->range);
  SET_ARG (kernel, 15, mask);
  SET_ARG (kernel, 16, max_value);

  if (!use_local)
    return run_bilateral_global (engine, kernel, job, rx, ry, error);

  {
    size_t tile = (local[0] + 2 * rx) * (local[1] + 2 * ry) * job->channels
        * sizeof (cl_float);

    CHECK (clSetKernelArg (kernel, 17, tile, NULL),
        "clSetKernelArg (bilateral tile)");
    global[0] = (job->width + local[0] - 1) / local[0] * local[0];
    global[1] = (job->height + local[1] - 1) / local[1] * local[1];
    CHECK (run_kernel (engine, kernel, 2, NULL, global, local,
            "bilateral_local"),
      "clEnqueueNDRangeKernel (bilateral_local)");
  }
  return TRUE;

failed:
  return FALSE;
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
  cl_int pitch = engine->planes.plane_width[job->plane];
  cl_int pstride = job->pixel_stride;
  cl_int w = job->width, h = job->height, cn = job->channels;
  cl_int x_sub = job->x_sub, y_sub = job->y_sub;
  cl_int n_rects = engine->n_rects;
  cl_int4 off = job_offsets (job);

  SET_ARG (kernel, 0, engine->plane_in[job->plane]);
  SET_ARG (kernel, 1, engine->plane_out[job->plane]);
  SET_ARG (kernel, 2, pitch);
  SET_ARG (kernel, 3, pstride);
  SET_ARG (kernel, 4, off);
  SET_ARG (kernel, 5, w);
  SET_ARG (kernel, 6, h);
  SET_ARG (kernel, 7, cn);
  SET_ARG (kernel, 8, x_sub);
  SET_ARG (kernel, 9, y_sub);
  SET_ARG (kernel, 10, engine->regions);
  SET_ARG (kernel, 11, n_rects);
  SET_ARG (kernel, 12, copy_inside);
  CHECK (run_kernel (engine, kernel, 2, NULL, pixels, NULL, "region_composite"),
      "clEnqueueNDRangeKernel (region_composite)");
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
      || job->height > planes->plane_height[job->plane])
    goto bad;
  for (c = 0; c < job->channels; c++)
    last = MAX (last, (guint64) (job->width - 1) * job->pixel_stride
        + job->offset[c]);
  if (last >= planes->plane_width[job->plane])
    goto bad;
  return TRUE;

bad:
  g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
      "job of %u channels, %ux%u on plane %u does not fit the planes",
      job->channels, job->width, job->height, job->plane);
  return FALSE;
}

/* Checks that the engine is set up for the jobs. */
static gboolean
check_jobs (ClbEngine * engine, const ClbJob * jobs, guint n_jobs,
    GError ** error)
{
  guint j;

  if (!engine->configured || n_jobs > CLB_MAX_JOBS) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
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
static cl_mem *
result_planes (ClbEngine * engine, const ClbParams * params)
{
  return params->method == CLB_METHOD_BILATERAL || params->use_regions ?
      engine->plane_out : engine->plane_in;
}

/* Filters the frame in plane_in; the result is in result_planes(). */
static gboolean
run_jobs (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  cl_kernel *k = engine->kernels[planes->sample_size];
  gsize bytes = container_bytes (planes);
  gboolean bilateral = params->method == CLB_METHOD_BILATERAL;
  gboolean regions = params->use_regions;
  cl_int border = params->border;
  guint p, j, pass, passes;

  if (bilateral || regions) {
    /* Bytes no job writes (alpha kept, padding) come from the input; with
     * regions, so do the samples left unfiltered. */
    for (p = 0; p < planes->n_planes; p++) {
      size_t row = planes->plane_width[p] * bytes;

      CHECK (clEnqueueCopyBuffer (engine->queue, engine->plane_in[p],
              engine->plane_out[p], 0, 0, row * planes->plane_height[p], 0,
              NULL, NULL), "clEnqueueCopyBuffer");
    }
  }

  passes = bilateral ? 1 : CLAMP (params->passes, 1, CLB_MAX_PASSES);
  for (pass = 0; pass < passes; pass++) {
    for (j = 0; j < n_jobs; j++) {
      const ClbJob *job = &jobs[j];
      cl_int rx = clb_scale_radius (MIN (params->radius_x, CLB_MAX_RADIUS),
          job->x_sub);
      cl_int ry = clb_scale_radius (MIN (params->radius_y, CLB_MAX_RADIUS),
          job->y_sub);
      gboolean ok;

      if (rx == 0 && ry == 0)
        continue;               /* this job is passed through */

      switch (params->method) {
        case CLB_METHOD_SAT:
          ok = run_sat (engine, k, job, rx, ry, border, error);
          break;
        case CLB_METHOD_SEPARABLE:
          ok = run_separable (engine, k, job, rx, ry, border, error);
          break;
        case CLB_METHOD_BILATERAL:
          ok = run_bilateral (engine, k, j, job, rx, ry, border, params,
              error);
          break;
        default:
          g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
              "unknown method %d", params->method);
          ok = FALSE;
          break;
      }
      if (!ok)
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
 * through the kernels alone: one box pass of separable with a radius,
 * every plane one dense 8-bit job in vector registers, input and output
 * apart. */
static gboolean
can_wrap (ClbEngine * engine, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs, const guint8 * const *src, const gsize * src_stride,
    guint8 * const *dst, const gsize * dst_stride)
{
  const ClbPlanes *planes = &engine->planes;
  guint covered = 0, j, p;

  if (!engine->zero_copy
      || params->method != CLB_METHOD_SEPARABLE || params->use_regions
      || CLAMP (params->passes, 1, CLB_MAX_PASSES) != 1)
    return FALSE;
  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    cl_int rx = clb_scale_radius (MIN (params->radius_x, CLB_MAX_RADIUS),
        job->x_sub);
    cl_int ry = clb_scale_radius (MIN (params->radius_y, CLB_MAX_RADIUS),
        job->y_sub);

    if (!job_is_dense_8bit (planes, job)
        || (params->radius_x == 0 && params->radius_y == 0)
        || !separable_x16_fits (engine, job, rx, ry)
        || job->width * job->channels != planes->plane_width[job->plane]
        || job->height != planes->plane_height[job->plane]
        || (covered & (1u << job->plane)))
      return FALSE;
    covered |= 1u << job->plane;
  }
  if (covered != (1u << planes->n_planes) - 1)
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
  guint p, j;

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
  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    cl_int rx = clb_scale_radius (MIN (params->radius_x, CLB_MAX_RADIUS),
        job->x_sub);
    cl_int ry = clb_scale_radius (MIN (params->radius_y, CLB_MAX_RADIUS),
        job->y_sub);

    if (!run_separable_x16 (engine, job, rx, ry, params->border,
            in[job->plane], (cl_int) src_stride[job->plane], out[job->plane],
            (cl_int) dst_stride[job->plane], error))
      goto done;
  }
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
  gsize bytes = container_bytes (planes);
  size_t origin[3] = { 0, 0, 0 };
  cl_mem *result;
  guint p;

  if (!check_jobs (engine, jobs, n_jobs, error))
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
  result = result_planes (engine, params);

  /* Blocking copies in: the caller's memory is only valid until we return.
   * The final reads block too. */
  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };

    if (src_stride[p] < row || dst_stride[p] < row) {
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
          "plane %u: rows of %" G_GSIZE_FORMAT " / %" G_GSIZE_FORMAT
          " bytes, but %" G_GSIZE_FORMAT " bytes of samples", p,
          src_stride[p], dst_stride[p], (gsize) row);
      goto failed;
    }
    CHECK (clEnqueueWriteBufferRect (engine->queue, engine->plane_in[p],
            CL_TRUE, origin, origin, region, row, 0, src_stride[p], 0, src[p],
            0, NULL, NULL), "clEnqueueWriteBufferRect");
  }

  if (!run_jobs (engine, params, jobs, n_jobs, error))
    goto failed;

  for (p = 0; p < planes->n_planes; p++) {
    size_t row = planes->plane_width[p] * bytes;
    size_t region[3] = { row, planes->plane_height[p], 1 };

    CHECK (clEnqueueReadBufferRect (engine->queue, result[p], CL_TRUE, origin,
            origin, region, row, 0, dst_stride[p], 0, dst[p], 0, NULL, NULL),
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

  if (!check_jobs (engine, jobs, n_jobs, error))
    return FALSE;
  if (planes->n_planes != 1 || planes->sample_size != CLB_SAMPLES_8
      || planes->plane_width[0] != 4 * planes->width) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
        "images hold one plane of 8-bit RGBA, not this format");
    return FALSE;
  }
  result = result_planes (engine, params);

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
  if (!run_jobs (engine, params, jobs, n_jobs, error))
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
