/* clboxblur engine: its options, and the device profile probed once.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "engineprivate.h"

/* The loop probe's loop (see probe_loop_cap), and the fewest iterations a
 * device may let a work-item run for the engine to plan around it. */
#define LOOP_PROBE_ITERATIONS (1 << 17)
#define LOOP_CAP_MIN (1 << 15)

G_DEFINE_QUARK (clb-engine-error-quark, clb_engine_error);

void
clb_engine_options_init (ClbEngineOptions * options)
{
  memset (options, 0, sizeof (*options));
  options->device_class = CLB_DEVICE_CLASS_AUTO;
  options->zero_copy = TRUE;
}

void
clb_engine_options_from_env (ClbEngineOptions * options)
{
  const gchar *device_class = g_getenv (CLB_DEVICE_CLASS_ENV);
  const gchar *loop_cap = g_getenv (CLB_LOOP_CAP_ENV);
  const gchar *max_alloc = g_getenv (CLB_MAX_ALLOC_ENV);
  const gchar *local_mem = g_getenv (CLB_MAX_LOCAL_MEM_ENV);
  const gchar *work_group = g_getenv (CLB_MAX_WORK_GROUP_ENV);

  clb_engine_options_init (options);
  if (g_strcmp0 (device_class, "cpu") == 0)
    options->device_class = CLB_DEVICE_CLASS_CPU;
  else if (g_strcmp0 (device_class, "gpu") == 0)
    options->device_class = CLB_DEVICE_CLASS_GPU;
  options->zero_copy = g_strcmp0 (g_getenv (CLB_ZERO_COPY_ENV), "0") != 0;
  options->profile = g_getenv (CLB_PROFILE_ENV) != NULL;
  options->profile_print = options->profile
      && g_strcmp0 (g_getenv (CLB_PROFILE_ENV), "summary") != 0;
  if (loop_cap && *loop_cap)
    options->loop_cap = (guint) CLAMP (g_ascii_strtoull (loop_cap, NULL, 10),
        2, G_MAXUINT);
  if (max_alloc && *max_alloc)
    options->max_alloc = MAX (g_ascii_strtoull (max_alloc, NULL, 10), 1);
  if (local_mem && *local_mem)
    options->max_local_mem = MAX (g_ascii_strtoull (local_mem, NULL, 10),
        1024);
  if (work_group && *work_group)
    options->max_work_group = CLAMP (g_ascii_strtoull (work_group, NULL, 10),
        1, G_MAXINT);
}

/* @value capped by @cap where @cap is set (options' max_local_mem,
 * max_work_group). */
static guint64
capped (guint64 value, guint64 cap)
{
  return cap > 0 ? MIN (value, cap) : value;
}

static ClbDeviceClass
class_of (const ClbEngineOptions * options, cl_device_type type)
{
  if (options->device_class != CLB_DEVICE_CLASS_AUTO)
    return options->device_class;
  return (type & CL_DEVICE_TYPE_CPU) ? CLB_DEVICE_CLASS_CPU :
      CLB_DEVICE_CLASS_GPU;
}

gboolean
clb_engine_options_wrap_frames (const ClbEngineOptions * options,
    cl_device_type type, gboolean unified)
{
  return (class_of (options, type) == CLB_DEVICE_CLASS_CPU || unified)
      && options->zero_copy;
}

gboolean
clb_engine_wraps_frames (cl_device_type type, gboolean unified)
{
  ClbEngineOptions options;

  clb_engine_options_from_env (&options);
  return clb_engine_options_wrap_frames (&options, type, unified);
}

void
clb_engine_log (ClbEngine * engine, const gchar * format, ...)
{
  va_list args;
  gchar *message;

  if (engine->options.log == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  engine->options.log (engine->options.log_data, message);
  g_free (message);
}

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
 * that lifts the cap gets the usual launches. The options' loop_cap
 * replaces the probe (a test hook). */
static gboolean
probe_loop_cap (ClbEngine * engine, GError ** error)
{
  cl_uint init[3] = { 0, 0, 0 }, ran = 0;
  cl_int n = LOOP_PROBE_ITERATIONS, err;
  size_t one = 1;
  cl_kernel kernel = NULL;
  cl_mem count = NULL;
  gboolean ok = FALSE;
  ClbArgs a;

  if (engine->options.loop_cap > 0) {
    ran = MAX (engine->options.loop_cap, 2);
    goto done;
  }

  kernel = clb_runtime_create_kernel (engine->rt, CLB_SAMPLES_8, "base",
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
  a = clb_args (kernel);
  clb_arg_mem (&a, count);
  clb_arg_int (&a, n);
  if (!clb_args_done (&a, error))
    goto failed;
  CHECK (clEnqueueNDRangeKernel (engine->queue, kernel, 1, NULL, &one, &one,
          0, NULL, NULL), "loop probe: clEnqueueNDRangeKernel");
  CHECK (clEnqueueReadBuffer (engine->queue, count, CL_TRUE, 0, sizeof (ran),
          &ran, 0, NULL, NULL), "loop probe: clEnqueueReadBuffer");
  if (ran >= (cl_uint) n)
    ran = 0;                    /* not capped */
  else if (ran < LOOP_CAP_MIN) {
    g_set_error (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_DEVICE,
        "'%s' ends kernel loops after %u iterations: too few to run the "
        "kernels", clb_runtime_get_device_name (engine->rt), ran);
    goto failed;
  }

done:
  engine->profile.loop_cap = ran;
  engine->profile.loop_budget = ran / 2;
  ok = TRUE;

failed:
  clb_runtime_release_buffer (&count);
  clb_runtime_release_kernel (&kernel);
  return ok;
}

/* What the profile shows, and host_unified, which decides whether frames
 * are wrapped: a failed query leaves the field 0. */
static void
probe_informational (ClbEngine * engine)
{
  ClbDeviceProfile *p = &engine->profile;
  cl_device_id device = clb_runtime_get_device (engine->rt);
  cl_bool unified = CL_FALSE;

  clGetDeviceInfo (device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
      sizeof (p->vector_width), &p->vector_width, NULL);
  clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
      sizeof (p->max_work_group_size), &p->max_work_group_size, NULL);
  if (clGetDeviceInfo (device, CL_DEVICE_HOST_UNIFIED_MEMORY,
          sizeof (unified), &unified, NULL) == CL_SUCCESS)
    p->host_unified = unified == CL_TRUE;
  p->gl_sharing = clb_runtime_has_extension (engine->rt, "cl_khr_gl_sharing");
  p->fp16 = clb_runtime_has_extension (engine->rt, "cl_khr_fp16");
}

/* The largest work-group of the line scans (gpu_box_sep_rows,
 * gpu_box_sat_rows) made so far: the least of theirs. */
static void
fold_line_max_wg (size_t * line, size_t wg)
{
  *line = *line == 0 ? wg : MIN (*line, wg);
}

gboolean
clb_engine_probe_kernels (ClbEngine * engine, ClbSampleSize s,
    GError ** error)
{
  ClbDeviceProfile *p = &engine->profile;
  cl_device_id device = clb_runtime_get_device (engine->rt);
  cl_kernel kernel;
  guint k;

  /* the kernels made since the last probe: each is probed once, before
   * any __local argument is set (afterwards the query counts the last
   * tile too) */
  for (k = 0; k < N_KERNELS; k++) {
    kernel = engine->kernels[s][k];
    if (!kernel || engine->max_wg[s][k] != 0)
      continue;
    CHECK (clGetKernelWorkGroupInfo (kernel, device,
            CL_KERNEL_WORK_GROUP_SIZE, sizeof (engine->max_wg[s][k]),
            &engine->max_wg[s][k], NULL),
        "clGetKernelWorkGroupInfo (WORK_GROUP_SIZE)");
    engine->max_wg[s][k] = capped (engine->max_wg[s][k],
        engine->options.max_work_group);
    if (k == K_GPU_BOX_SEP_ROWS || k == K_GPU_BOX_SAT_ROWS)
      fold_line_max_wg (&p->gpu_line_max_wg[s], engine->max_wg[s][k]);
    if (k == K_BILATERAL_GPU) {
      p->bilateral_gpu_max_wg[s] = engine->max_wg[s][k];
      CHECK (clGetKernelWorkGroupInfo (kernel, device,
              CL_KERNEL_LOCAL_MEM_SIZE,
              sizeof (p->bilateral_gpu_static_local[s]),
              &p->bilateral_gpu_static_local[s], NULL),
          "clGetKernelWorkGroupInfo (LOCAL_MEM_SIZE)");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

/* Bilateral runs a job in bands of at most this many taps (pixels x
 * window x channels), each waited for, so that clb_engine_cancel takes
 * effect within one band: 30 to 150 ms a band on 2 busy CPU cores under
 * PoCL (load 10; bilateral_x16 and the tiled kernel then at radius 63),
 * the slowest device the element meets. A band is at least one
 * work-group (bilateral_gpu) or one row (bilateral_x16), at most the
 * job. */
#define CLB_BAND_TAPS (G_GUINT64_CONSTANT (1) << 24)

/* The launches' shapes the device class asks for, decided here with the
 * kernels' (the class read in this file alone). The taps of a bilateral
 * band on this device: CLB_BAND_TAPS per compute unit on
 * devices other than CPUs, each of whose compute units (an SM, a CU)
 * runs its share of a band at least as fast as a CPU core; so a GPU does
 * not wait for dozens of small bands a frame (a wait costs tens of
 * microseconds there: on an H100's 132 units, 1080p RGBA at radius 4 is
 * one band, not 40). */
static void
launch_shapes (ClbDeviceProfile * p)
{
  gboolean cpu = p->device_class == CLB_DEVICE_CLASS_CPU;

  p->band_taps = CLB_BAND_TAPS * (p->type & CL_DEVICE_TYPE_CPU ? 1 :
      MAX (p->compute_units, 1));
  /* GPUs: the grid kernels (sat_box, mosaic, fill) in groups of 64, as
   * the GPU kernels' own launches; CPUs: the driver's */
  p->grid_local = cpu ? 0 : 64;
  /* CPUs: line kernels in 4 groups a compute unit; GPUs: groups of 64 */
  p->line_groups = cpu ? 4 : 0;
}

gboolean
clb_engine_probe_profile (ClbEngine * engine, GError ** error)
{
  ClbDeviceProfile *p = &engine->profile;
  cl_device_id device = clb_runtime_get_device (engine->rt);
  cl_ulong max_alloc = 0, global_mem = 0;
  guint d;

  CHECK (clGetDeviceInfo (device, CL_DEVICE_LOCAL_MEM_SIZE,
          sizeof (p->local_mem_size), &p->local_mem_size, NULL),
      "clGetDeviceInfo (LOCAL_MEM_SIZE)");
  p->local_mem_size = capped (p->local_mem_size,
      engine->options.max_local_mem);
  CHECK (clGetDeviceInfo (device, CL_DEVICE_TYPE, sizeof (p->type), &p->type,
          NULL), "clGetDeviceInfo (TYPE)");
  p->device_class = class_of (&engine->options, p->type);
  p->class_forced = engine->options.device_class != CLB_DEVICE_CLASS_AUTO;
  p->only_variant = engine->options.variant;
  probe_informational (engine);
  p->zero_copy = clb_engine_options_wrap_frames (&engine->options, p->type,
      p->host_unified);
  CHECK (clGetDeviceInfo (device, CL_DEVICE_MAX_COMPUTE_UNITS,
          sizeof (p->compute_units), &p->compute_units, NULL),
      "clGetDeviceInfo (MAX_COMPUTE_UNITS)");
  CHECK (clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
          sizeof (p->max_items), p->max_items, NULL),
      "clGetDeviceInfo (MAX_WORK_ITEM_SIZES)");
  CHECK (clGetDeviceInfo (device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
          sizeof (p->max_constant_size), &p->max_constant_size, NULL),
      "clGetDeviceInfo (MAX_CONSTANT_BUFFER_SIZE)");
  CHECK (clGetDeviceInfo (device, CL_DEVICE_MAX_CONSTANT_ARGS,
          sizeof (p->max_constant_args), &p->max_constant_args, NULL),
      "clGetDeviceInfo (MAX_CONSTANT_ARGS)");
  CHECK (clGetDeviceInfo (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
          sizeof (max_alloc), &max_alloc, NULL),
      "clGetDeviceInfo (MAX_MEM_ALLOC_SIZE)");
  CHECK (clGetDeviceInfo (device, CL_DEVICE_GLOBAL_MEM_SIZE,
          sizeof (global_mem), &global_mem, NULL),
      "clGetDeviceInfo (GLOBAL_MEM_SIZE)");
  p->max_alloc = max_alloc;
  if (engine->options.max_alloc > 0)
    p->max_alloc = MIN (p->max_alloc, engine->options.max_alloc);
  p->global_mem = global_mem;
  if (!probe_loop_cap (engine, error))
    goto failed;
  launch_shapes (p);
  p->max_work_group_size = capped (p->max_work_group_size,
      engine->options.max_work_group);
  for (d = 0; d < G_N_ELEMENTS (p->max_items); d++)
    p->max_items[d] = capped (p->max_items[d],
        engine->options.max_work_group);

  if (engine->options.log) {
    gchar *text = clb_device_profile_describe (p);

    clb_engine_log (engine, "device profile of '%s': %s",
        clb_runtime_get_device_name (engine->rt), text);
    g_free (text);
  }
  return TRUE;

failed:
  return FALSE;
}

gchar *
clb_device_profile_describe (const ClbDeviceProfile * p)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "class %s (%s), %u compute units, "
      "char vectors of %u, local memory %" G_GUINT64_FORMAT " KiB, "
      "work-groups up to %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT "x%"
      G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT "), host memory %s, frames %s",
      p->device_class == CLB_DEVICE_CLASS_CPU ? "cpu" : "gpu",
      p->class_forced ? "forced" : "device type", p->compute_units,
      p->vector_width, (guint64) p->local_mem_size / 1024,
      (gsize) p->max_work_group_size, (gsize) p->max_items[0],
      (gsize) p->max_items[1], (gsize) p->max_items[2],
      p->host_unified ? "unified" : "separate",
      p->zero_copy ? "wrapped where they can be" : "copied");
  g_string_append_printf (s, ", allocations up to %" G_GUINT64_FORMAT
      " MiB of %" G_GUINT64_FORMAT " MiB", p->max_alloc >> 20,
      p->global_mem >> 20);
  if (p->gl_sharing || p->fp16)
    g_string_append_printf (s, ", extensions:%s%s",
        p->gl_sharing ? " cl_khr_gl_sharing" : "",
        p->fp16 ? " cl_khr_fp16" : "");
  if (p->loop_cap)
    g_string_append_printf (s, ", loops capped at %u iterations (launches "
        "planned for %" G_GUINT64_FORMAT ")", p->loop_cap, p->loop_budget);
  else
    g_string_append (s, ", loops not capped");
  return g_string_free (s, FALSE);
}
