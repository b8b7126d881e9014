/* Shared set-up for tests that need an OpenCL platform.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <gst/check/gstcheck.h>
#include <CL/cl.h>

#include "engine.h"

/* meson test reads exit code 77 as "skipped". */
#define CLCHECK_EXIT_SKIP 77

/* 0 when an OpenCL platform with a device is there. Otherwise, in CI
 * (CI set) the run fails: CI installs PoCL, so a missing platform is a broken
 * set-up; elsewhere the test is skipped, saying why. */
static inline int
clcheck_require_platform (void)
{
  cl_uint n_platforms = 0;
  cl_int err = clGetPlatformIDs (0, NULL, &n_platforms);

  if (err == CL_SUCCESS && n_platforms > 0)
    return 0;

  if (g_getenv ("CI") != NULL) {
    fprintf (stderr, "FAIL: no OpenCL platform (clGetPlatformIDs: %d) in CI."
        " Install pocl-opencl-icd.\n", err);
    return 1;
  }
  fprintf (stderr, "SKIP: no OpenCL platform (clGetPlatformIDs: %d); "
      "install pocl-opencl-icd to run these tests.\n", err);
  return CLCHECK_EXIT_SKIP;
}

/* A runtime on the device the element takes with its default properties
 * (device-type=default, i.e. any type; platform-index=-1; device-index=0),
 * made by the call the element makes, so that a test asks the device the
 * element will run on (limits, extensions, the path frames take), on any
 * driver. Call it with CLBOXBLUR_FAULT unset. */
static inline ClbRuntime *
clcheck_default_runtime (void)
{
  GError *err = NULL;
  ClbRuntime *rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);

  fail_unless (rt != NULL, "no device for the default properties: %s",
      err ? err->message : "");
  return rt;
}

/* A cl_ulong or cl_bitfield property of that device (e.g.
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_TYPE). */
static inline cl_ulong
clcheck_default_device_ulong (cl_device_info param)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  cl_ulong value = 0;

  fail_unless_equals_int (clGetDeviceInfo (clb_runtime_get_device (rt), param,
          sizeof (value), &value, NULL), CL_SUCCESS);
  clb_runtime_free (rt);
  return value;
}

/* That device itself (root devices outlive the runtime asked for it). */
static inline cl_device_id
clcheck_default_device (void)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  cl_device_id device = clb_runtime_get_device (rt);

  clb_runtime_free (rt);
  return device;
}

/* clcheck_default_runtime's device with the programs built. */
static inline ClbRuntime *
clcheck_built_runtime (void)
{
  GError *err = NULL;
  ClbRuntime *rt = clcheck_default_runtime ();

  fail_unless (clb_runtime_build_program (rt, NULL, &err), "%s",
      err ? err->message : "");
  return rt;
}

/* An engine log function (ClbEngineOptions.log) keeping each line in the
 * GPtrArray @user_data, and how many of them contain @text. */
static inline void
clcheck_collect_log (gpointer user_data, const gchar * message)
{
  g_ptr_array_add ((GPtrArray *) user_data, g_strdup (message));
}

static inline guint
clcheck_lines_with (GPtrArray * log, const gchar * text)
{
  guint i, n = 0;

  for (i = 0; i < log->len; i++)
    n += strstr (g_ptr_array_index (log, i), text) != NULL;
  return n;
}

/* One plane of @w x @h pixels of @channels interleaved samples of
 * @sample_size, values up to @max_value, as one job (the range distance
 * over the colour channels: alpha left out of four). */
static inline void
clcheck_one_plane (guint w, guint h, guint channels,
    ClbSampleSize sample_size, guint max_value, ClbPlanes * planes,
    ClbJob * job)
{
  guint c;

  memset (planes, 0, sizeof (*planes));
  memset (job, 0, sizeof (*job));
  planes->width = w;
  planes->height = h;
  planes->sample_size = sample_size;
  planes->max_value = max_value;
  planes->n_planes = 1;
  planes->plane_width[0] = w * channels;
  planes->plane_height[0] = h;
  job->width = w;
  job->height = h;
  job->channels = channels;
  job->pixel_stride = channels;
  for (c = 0; c < channels; c++)
    job->offset[c] = c;
  job->dist_mask = channels == 4 ? 0x7 : (1u << channels) - 1;
}

/* One frame of one plane in host memory through the engine's one entry,
 * clb_engine_filter. */
static inline gboolean
clcheck_filter_plane (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const guint8 * const *src,
    const gsize * src_stride, guint8 * const *dst, const gsize * dst_stride,
    GError ** error)
{
  ClbFrame in, out;

  clb_frame_init_host (&in, 1, src, src_stride);
  clb_frame_init_host (&out, 1, (const guint8 * const *) dst, dst_stride);
  return clb_engine_filter (engine, params, jobs, n_jobs, &in, &out, error);
}

/* The same for a frame in the 2D image @src into @dst. */
static inline gboolean
clcheck_filter_image (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, cl_mem src, cl_mem dst,
    GError ** error)
{
  ClbFrame in, out;

  clb_frame_init_image (&in, src, FALSE);
  clb_frame_init_image (&out, dst, FALSE);
  return clb_engine_filter (engine, params, jobs, n_jobs, &in, &out, error);
}

/* The large sweeps (every combination of sizes, radii, borders, channels,
 * passes) run one in CLBOXBLUR_SWEEP_SHARE of their cases where that
 * is set (2 or 3; the rusticl setup sets 3: there a launch costs
 * milliseconds of rusticl's own code, about 0.1 s a case of
 * test_sat_ring against well under 1 ms on PoCL; the full sweeps run on
 * PoCL and with the GPU class).
 * The cases taken are those whose index in the sweep's order has digits
 * in base share that add up to a multiple of the share: one of each
 * share consecutive cases from a multiple of it, and which one moves
 * with the cases before, so that an inner loop of the share's length
 * (the borders: 3) does not always give the same value, as taking every
 * share-th index did (a reviewer's simulation: test_methods_formats ran
 * shrink alone). In a model of the three sweeps' loops, shares 2 and 3,
 * every value of each loop and every pair of values of two loops is
 * among the cases taken; the sweeps' checks of the variants logged still
 * find theirs (at 16 test_sat_ring's did not).
 * The sweep prints how many of its cases ran when it ran a share. */
typedef struct
{
  const gchar *name;
  guint share, seen, ran;
} ClcheckSweep;

static inline void
clcheck_sweep_init (ClcheckSweep * sweep, const gchar * name)
{
  const gchar *env = g_getenv ("CLBOXBLUR_SWEEP_SHARE");
  guint64 share = env && *env ? g_ascii_strtoull (env, NULL, 10) : 1;

  fail_unless (share >= 1 && share <= 3,
      "CLBOXBLUR_SWEEP_SHARE=%s: 1 to 3", env);
  sweep->name = name;
  sweep->share = (guint) share;
  sweep->seen = sweep->ran = 0;
}

/* Whether the sweep's next case runs. */
static inline gboolean
clcheck_sweep_take (ClcheckSweep * sweep)
{
  guint i = sweep->seen++, digits = 0;

  if (sweep->share > 1) {
    for (; i > 0; i /= sweep->share)
      digits += i % sweep->share;
    if (digits % sweep->share != 0)
      return FALSE;
  }
  sweep->ran++;
  return TRUE;
}

static inline void
clcheck_sweep_done (ClcheckSweep * sweep)
{
  fail_unless (sweep->ran > 0, "%s: no case ran", sweep->name);
  if (sweep->share > 1)
    g_print ("%s: %u of its %u cases (CLBOXBLUR_SWEEP_SHARE=%u)\n",
        sweep->name, sweep->ran, sweep->seen, sweep->share);
}
