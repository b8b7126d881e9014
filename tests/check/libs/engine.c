/* Unit tests of the engine on its own (no GStreamer element): each method
 * against the plain-C reference, the options, the variant table, the
 * kernel-argument cursor and the engine's errors.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>

#include "engine.h"
#include "engineargs.h"
#include "runtimemem.h"
#include "refblur.h"
#include "clcheck.h"
void enginegpu_add_tests (TCase * tc);  /* enginegpu.c */

/* The environment variables the engine's options come from: saved, then
 * cleared, by a test that sets them, and put back after. */
static const gchar *option_envs[] = { CLB_DEVICE_CLASS_ENV, CLB_ZERO_COPY_ENV,
  CLB_PROFILE_ENV, CLB_LOOP_CAP_ENV, CLB_MAX_ALLOC_ENV
};

static gchar *saved_envs[G_N_ELEMENTS (option_envs)];

static void
save_option_envs (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (option_envs); i++) {
    saved_envs[i] = g_strdup (g_getenv (option_envs[i]));
    g_unsetenv (option_envs[i]);
  }
}

static void
restore_option_envs (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (option_envs); i++) {
    if (saved_envs[i])
      g_setenv (option_envs[i], saved_envs[i], TRUE);
    else
      g_unsetenv (option_envs[i]);
    g_clear_pointer (&saved_envs[i], g_free);
  }
}

static ClbEngine *
make_engine (ClbRuntime * rt, ClbDeviceClass device_class, GPtrArray * log)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_init (&options);
  options.device_class = device_class;
  options.log = log ? clcheck_collect_log : NULL;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

/* Filters a frame (every sample @fill, or random where @fill < 0) and
 * returns the largest difference from the reference. */
static guint
worst_vs_reference_of (ClbEngine * engine, const ClbParams * params,
    guint w, guint h, guint channels, gint fill)
{
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  gsize n = (gsize) w * h * channels, i, stride = w * channels;
  guint8 *in = g_malloc (n), *out = g_malloc (n);
  guint16 *in16 = g_new (guint16, n), *ref = g_new (guint16, n);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  guint worst = 0;

  clcheck_one_plane (w, h, channels, CLB_SAMPLES_8, 255, &planes, &job);
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < n; i++)
    in16[i] = in[i] = fill < 0 ? g_random_int_range (0, 256) : fill;
  fail_unless (clcheck_filter_plane (engine, params, &job, 1, src, &stride,
          dst, &stride, &err), "%s", err ? err->message : "");
  if (params->method == CLB_METHOD_BILATERAL)
    ref_bilateral (in16, ref, w, h, channels, params->radius_x,
        params->radius_y, (RefBorder) params->border, params->sigma_spatial,
        params->sigma_range, job.dist_mask, 255);
  else
    ref_box_blur (in16, ref, w, h, channels, params->radius_x,
        params->radius_y, (RefBorder) params->border, params->passes);
  for (i = 0; i < n; i++)
    worst = MAX (worst, (guint) ABS ((gint) out[i] - (gint) ref[i]));
  g_free (in);
  g_free (out);
  g_free (in16);
  g_free (ref);
  return worst;
}

static guint
worst_vs_reference (ClbEngine * engine, const ClbParams * params,
    guint w, guint h, guint channels)
{
  return worst_vs_reference_of (engine, params, w, h, channels, -1);
}

/* Mixed interlaced video switches the engine between a frame's planes and
 * a field's (half its rows): the buffers made for the frame hold the
 * field, so the switch back and forth makes no OpenCL object, and both
 * still equal the reference; planes larger than allocated get new ones. */
GST_START_TEST (test_field_planes_reuse_buffers)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngineOptions options;
  ClbEngine *engine;
  ClbParams params = { 0, };
  guint before;

  /* frames copied, never wrapped: no object per frame */
  clb_engine_options_init (&options);
  options.zero_copy = FALSE;
  engine = clb_engine_new (rt, &options, NULL);
  fail_unless (engine != NULL);
  params.method = CLB_METHOD_SEPARABLE;
  params.border = CLB_BORDER_REFLECT;
  params.radius_x = params.radius_y = 3;
  params.passes = 2;
  fail_unless_equals_int (worst_vs_reference (engine, &params, 40, 30, 4), 0);
  before = clb_created_objects ();
  fail_unless_equals_int (worst_vs_reference (engine, &params, 40, 15, 4), 0);
  fail_unless_equals_int (worst_vs_reference (engine, &params, 40, 30, 4), 0);
  fail_unless_equals_int (clb_created_objects (), before);
  fail_unless_equals_int (worst_vs_reference (engine, &params, 40, 31, 4), 0);
  fail_unless (clb_created_objects () > before);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The plan of a frame's work is made once for unchanging parameters,
 * jobs and planes, not per frame, and again when one of them changes (the
 * radius, the planes), each time logged once. */
GST_START_TEST (test_plan_made_once)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_AUTO, log);
  ClbParams params = { 0, };
  guint i;

  params.method = CLB_METHOD_SAT;
  params.border = CLB_BORDER_REPLICATE;
  params.radius_x = params.radius_y = 2;
  params.passes = 1;
  fail_unless_equals_int (clb_engine_count_plans (engine), 0);
  for (i = 0; i < 5; i++)
    fail_unless_equals_int (worst_vs_reference (engine, &params, 24, 20, 3),
        0);
  fail_unless_equals_int (clb_engine_count_plans (engine), 1);
  params.radius_x = 3;
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (worst_vs_reference (engine, &params, 24, 20, 3),
        0);
  fail_unless_equals_int (clb_engine_count_plans (engine), 2);
  fail_unless_equals_int (worst_vs_reference (engine, &params, 25, 20, 3), 0);
  fail_unless_equals_int (clb_engine_count_plans (engine), 3);
  fail_unless_equals_int (clcheck_lines_with (log, "plan "), 3);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Filters a random frame of @bits-bit samples with method sat and
 * returns the largest difference from the reference. The input's rows
 * and the output's are padded, each by its own amount (the kernels take
 * the caller's strides where they read and write its memory). */
static guint
sat_vs_reference (ClbEngine * engine, const ClbParams * params, guint w,
    guint h, guint channels, guint bits)
{
  ClbSampleSize size = bits == 16 ? CLB_SAMPLES_16 : CLB_SAMPLES_8;
  guint max = bits == 16 ? 65535 : 255;
  guint ss = bits == 16 ? 2 : 1;
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  gsize n = (gsize) w * h * channels, i;
  gsize in_stride = (w * channels + 3) * ss, out_stride = (w * channels + 7) * ss;
  guint8 *in = g_malloc0 (in_stride * h), *out = g_malloc0 (out_stride * h);
  guint16 *in16 = g_new (guint16, n), *ref = g_new (guint16, n);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  guint worst = 0;

  clcheck_one_plane (w, h, channels, size, max, &planes, &job);
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < n; i++) {
    gsize at = i / (w * channels) * in_stride + i % (w * channels) * ss;

    /* a few runs of the largest value, for the widest sums */
    in16[i] = g_random_int_range (0, 8) == 0 ? max :
        (guint) g_random_int_range (0, max + 1);
    if (bits == 16)
      memcpy (in + at, &in16[i], 2);
    else
      in[at] = in16[i];
  }
  fail_unless (clcheck_filter_plane (engine, params, &job, 1, src, &in_stride,
          dst, &out_stride, &err), "%s", err ? err->message : "");
  ref_box_blur (in16, ref, w, h, channels, params->radius_x,
      params->radius_y, (RefBorder) params->border, params->passes);
  for (i = 0; i < n; i++) {
    gsize at = i / (w * channels) * out_stride + i % (w * channels) * ss;
    guint16 v16 = out[at];

    if (bits == 16)
      memcpy (&v16, out + at, 2);
    worst = MAX (worst, (guint) ABS ((gint) v16 - (gint) ref[i]));
  }
  g_free (in);
  g_free (out);
  g_free (in16);
  g_free (ref);
  return worst;
}

/* sat_ring, the CPU class's sat (a band of rows a work-item, the table
 * in a ring of 2 ry + 2 rows, or whole where that is no less), equals
 * the reference bit for bit: 8- and 16-bit samples, 1 to 4 channels,
 * every border, 1 and 2 passes; frames of a pixel, odd sizes, radii
 * larger than the frame (the whole table, one band), radii of 0 either
 * way, frames of at least 8 (2 ry + 1) rows, cut into several bands
 * (windows across the bands' edges, the rows past them from the
 * aprons); 16-bit with 1 and 3 channels, second passes with replicate;
 * and with loops capped, many launches a band, the ring carrying its
 * state between them. Where a step does not fit the cap
 * the table gives sat_strip16 instead, as exact. Dense 8-bit rows of 16
 * samples or more with radii up to the width less 2 pad their table rows
 * (the row's ends in vector steps, each border; the 9-wide frame at
 * radius 7 the widest such pad, rows not a multiple of 16 the last step
 * overlapping); the others one sample at a time there. Frames wrapped (8-bit
 * single passes from the caller's input into its output, every band's
 * rows from the input, no aprons) and copied (in place, aprons). */
GST_START_TEST (test_sat_ring)
{
  static const guint sizes[][2] = { {1, 1}, {3, 5}, {37, 23}, {67, 131},
  {9, 260}
  };
  static const guint radii[][2] = { {1, 1}, {3, 2}, {0, 4}, {5, 0},
  {7, 7}, {40, 13}, {2047, 2047}
  };
  static const guint caps[] = { 0, 0, 60000, 3000 };
  static const gboolean wraps[] = { TRUE, FALSE, TRUE, TRUE };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint cap, bits, s, r, c, b, passes;
  ClcheckSweep sweep;

  clcheck_sweep_init (&sweep, "test_sat_ring");
  for (cap = 0; cap < G_N_ELEMENTS (caps); cap++) {
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    ClbEngineOptions options;
    GError *err = NULL;
    ClbEngine *engine;

    clb_engine_options_init (&options);
    options.device_class = CLB_DEVICE_CLASS_CPU;
    options.zero_copy = wraps[cap];
    options.loop_cap = caps[cap];
    options.log = clcheck_collect_log;
    options.log_data = log;
    engine = clb_engine_new (rt, &options, &err);
    fail_unless (engine != NULL, "%s", err ? err->message : "");
    for (bits = 8; bits <= 16; bits += 8) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        for (r = 0; r < G_N_ELEMENTS (radii); r++) {
          for (c = 1; c <= 4; c++) {
            for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
              for (passes = 1; passes <= 2; passes++) {
                ClbParams params = { 0, };
                guint worst;

                /* fewer cases where launches are many, and of 16-bit
                 * and second passes (the same kernels) */
                if ((cap > 0 && (passes > 1 || c == 2 || r % 2))
                    || (bits == 16 && (c == 2 || c == 4))
                    || (passes > 1 && b != CLB_BORDER_REPLICATE))
                  continue;
                if (!clcheck_sweep_take (&sweep))
                  continue;
                params.method = CLB_METHOD_SAT;
                params.border = b;
                params.radius_x = radii[r][0];
                params.radius_y = radii[r][1];
                params.passes = passes;
                worst = sat_vs_reference (engine, &params, sizes[s][0],
                    sizes[s][1], c, bits);
                fail_unless (worst == 0, "loop cap %u, wrapped %d, "
                    "%u-bit, %ux%u, radius %u,%u, %u channels, border %u, "
                    "%u passes: off by %u", caps[cap], wraps[cap], bits,
                    sizes[s][0], sizes[s][1], radii[r][0], radii[r][1], c, b,
                    passes, worst);
              }
            }
          }
        }
      }
    }
    /* no cap: every job sat_ring; with one, the jobs whose step fits it
     * (the largest cap: all but the radii wider than the frame, whose
     * every sample is near the row's ends; the smallest: the smallest
     * frames), the others sat_strip16 */
    fail_unless (clcheck_lines_with (log, "variant sat_ring") > 0);
    fail_unless_equals_int (clcheck_lines_with (log, "variant sat_strip16")
        > 0, caps[cap] > 0);
    /* wrapped: sat_ring on the caller's memory (and in place for 16 bits
     * and second passes); copied: never */
    fail_unless_equals_int (clcheck_lines_with (log, "variant sat_ring (cpu, "
            "16 samples in vector lanes), on the caller's memory") > 0,
        wraps[cap]);
    fail_unless (clcheck_lines_with (log, "variant sat_ring (cpu, "
            "16 samples in vector lanes): ") > 0);
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  clcheck_sweep_done (&sweep);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Every method on small planes, with the CPU and the GPU variants (the
 * device class forced by the options), equals the reference: the box
 * methods exactly, bilateral within 1. The log names the variants. */
GST_START_TEST (test_methods_match_reference)
{
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  static const guint channel_counts[] = { 4, 3, 1 };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint c, m, n, b;

  for (c = 0; c < G_N_ELEMENTS (classes); c++) {
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    ClbEngine *engine = make_engine (rt, classes[c], log);
    gboolean cpu = classes[c] == CLB_DEVICE_CLASS_CPU;

    fail_unless_equals_int (clb_engine_is_cpu (engine), cpu);
    for (m = CLB_METHOD_SAT; m <= CLB_METHOD_BILATERAL; m++) {
      for (n = 0; n < G_N_ELEMENTS (channel_counts); n++) {
        for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
          ClbParams params = { 0, };
          guint worst;

          params.method = m;
          params.border = b;
          params.radius_x = 3;
          params.radius_y = 2;
          params.passes = m == CLB_METHOD_BILATERAL ? 1 : 1 + b;
          params.sigma_spatial = 3;
          params.sigma_range = 30;
          worst = worst_vs_reference (engine, &params, 37, 23,
              channel_counts[n]);
          fail_unless (worst <= (m == CLB_METHOD_BILATERAL ? 1u : 0u),
              "class %s, method %u, %u channels, border %u: off by %u",
              cpu ? "cpu" : "gpu", m, channel_counts[n], b, worst);
        }
      }
    }
    /* the variants the table gives dense 8-bit planes on each class */
    fail_unless_equals_int (clcheck_lines_with (log, "device profile"), 1);
    fail_unless (clcheck_lines_with (log, cpu ? "class cpu (forced)" :
            "class gpu (forced)") == 1);
    fail_unless_equals_int (clcheck_lines_with (log, "variant separable_fused_x16") > 0, cpu);
    fail_unless_equals_int (clcheck_lines_with (log, "variant bilateral_x16") > 0, cpu);
    fail_unless_equals_int (clcheck_lines_with (log, "variant sat_ring") > 0, cpu);
    fail_unless_equals_int (clcheck_lines_with (log, "variant sat_gpu") > 0, !cpu);
    fail_unless_equals_int (clcheck_lines_with (log,
            "variant bilateral_gpu") > 0, !cpu);
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;
/* Per-pass radii (n_pass_radii) equal the reference applied pass after
 * pass, and a job's own radius replaces the params' ones; on both device
 * classes, with the box methods. */
GST_START_TEST (test_pass_and_job_radii)
{
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  static const guint rx[3] = { 1, 4, 2 }, ry[3] = { 3, 0, 2 };
  const guint w = 41, h = 27, channels = 4;
  gsize n = (gsize) w * h * channels, i, stride = w * channels;
  ClbRuntime *rt = clcheck_built_runtime ();
  guint8 *in = g_malloc (n), *out = g_malloc (n);
  guint16 *a = g_new (guint16, n), *b = g_new (guint16, n);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  guint c, m, k;

  for (i = 0; i < n; i++)
    in[i] = g_random_int_range (0, 256);
  for (c = 0; c < G_N_ELEMENTS (classes); c++) {
    ClbEngine *engine = make_engine (rt, classes[c], NULL);
    ClbPlanes planes;
    ClbJob job;
    GError *err = NULL;

    clcheck_one_plane (w, h, channels, CLB_SAMPLES_8, 255, &planes, &job);
    fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
        err ? err->message : "");
    for (m = CLB_METHOD_SAT; m <= CLB_METHOD_SEPARABLE; m++) {
      ClbParams params = { 0, };

      params.method = m;
      params.border = CLB_BORDER_REFLECT;
      params.radius_x = params.radius_y = 9;    /* not used */
      params.passes = 5;
      params.n_pass_radii = 3;
      for (k = 0; k < 3; k++) {
        params.pass_radius_x[k] = rx[k];
        params.pass_radius_y[k] = ry[k];
      }
      fail_unless (clb_params_filter_jobs (&params, &job, 1));
      fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src,
              &stride, dst, &stride, &err), "%s", err ? err->message : "");
      for (i = 0; i < n; i++)
        a[i] = in[i];
      for (k = 0; k < 3; k++) {
        ref_box_blur (a, b, w, h, channels, rx[k], ry[k], REF_BORDER_REFLECT,
            1);
        memcpy (a, b, n * sizeof (guint16));
      }
      for (i = 0; i < n; i++)
        fail_unless_equals_int (out[i], a[i]);

      /* the job's own radius on each of the passes */
      job.own_radius = TRUE;
      job.radius_x = 2;
      job.radius_y = 1;
      fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src,
              &stride, dst, &stride, &err), "%s", err ? err->message : "");
      for (i = 0; i < n; i++)
        a[i] = in[i];
      ref_box_blur (a, b, w, h, channels, 2, 1, REF_BORDER_REFLECT, 3);
      for (i = 0; i < n; i++)
        fail_unless_equals_int (out[i], b[i]);

      /* own radius 0: nothing to filter, and the job comes out as it was */
      job.radius_x = job.radius_y = 0;
      fail_if (clb_params_filter_jobs (&params, &job, 1));
      fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src,
              &stride, dst, &stride, &err), "%s", err ? err->message : "");
      fail_unless (memcmp (in, out, n) == 0);
      job.own_radius = FALSE;
    }
    clb_engine_free (engine);
  }
  g_free (in);
  g_free (out);
  g_free (a);
  g_free (b);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The Gaussian's radii: W. Wells' widths for a few sigmas, worked out by
 * hand (tests/check/elements/clboxblur_planes.c checks the element). */
GST_START_TEST (test_gaussian_radii)
{
  guint r[3];

  clb_gaussian_radii (2.0, 3, r);
  fail_unless (r[0] == 1 && r[1] == 1 && r[2] == 2);
  clb_gaussian_radii (5.0, 3, r);
  fail_unless (r[0] == 4 && r[1] == 4 && r[2] == 5);
  clb_gaussian_radii (0.2, 3, r);
  fail_unless (r[0] == 0 && r[1] == 0 && r[2] == 0);
  clb_gaussian_radii (1.0e6, 3, r);
  fail_unless (r[0] == CLB_MAX_RADIUS && r[2] == CLB_MAX_RADIUS);
}

GST_END_TEST;


/* A packed YUV 4:2:2 plane of @w (even) x @h pixels as the element lays
 * it out: a Y job of 2 bytes a pixel (luma in byte @luma: 0 for YUY2,
 * Y0 U Y1 V, 1 for UYVY, U Y0 V Y1), a UV job of half the width, 4 bytes
 * a pixel, listed first where @uv_first, with a radius of its own where
 * @uv_radius is not 0; rows padded by @pad bytes (the input's and the
 * output's differently). The largest difference from the reference over
 * both jobs, 256 where a padding byte of the output changed. */
static guint
worst_packed_422 (ClbEngine * engine, const ClbParams * params, guint w,
    guint h, guint luma, guint pad, gboolean uv_first, guint uv_radius)
{
  ClbPlanes planes;
  ClbJob jobs[2], *y = &jobs[uv_first ? 1 : 0], *uv = &jobs[uv_first ? 0 : 1];
  GError *err = NULL;
  gsize row = 2 * (gsize) w, in_stride = row + pad, out_stride = row + 2 * pad;
  guint8 *in = g_malloc (in_stride * h), *out = g_malloc (out_stride * h);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  guint worst = 0, j;
  gsize i;

  clcheck_one_plane (w, h, 2, CLB_SAMPLES_8, 255, &planes, y);
  y->channels = 1;
  y->offset[0] = luma;
  y->dist_mask = 1;
  *uv = *y;
  uv->width = w / 2;
  uv->channels = 2;
  uv->pixel_stride = 4;
  uv->offset[0] = 1 - luma;
  uv->offset[1] = 3 - luma;
  uv->dist_mask = 3;
  uv->x_sub = 1;
  if (uv_radius > 0) {
    uv->own_radius = TRUE;
    uv->radius_x = uv->radius_y = uv_radius;
  }
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < in_stride * h; i++)
    in[i] = g_random_int_range (0, 256);
  memset (out, 0x5a, out_stride * h);
  fail_unless (clcheck_filter_plane (engine, params, jobs, 2, src,
          &in_stride, dst, &out_stride, &err), "%s", err ? err->message : "");
  for (j = 0; j < 2; j++) {
    const ClbJob *job = &jobs[j];
    gsize m = (gsize) job->width * h * job->channels, k;
    guint16 *in16 = g_new (guint16, m), *ref = g_new (guint16, m);
    guint c, x, yy;

    for (yy = 0; yy < h; yy++)
      for (x = 0; x < job->width; x++)
        for (c = 0; c < job->channels; c++)
          in16[((gsize) yy * job->width + x) * job->channels + c] =
              in[yy * in_stride + x * job->pixel_stride + job->offset[c]];
    ref_box_blur (in16, ref, job->width, h, job->channels,
        job->own_radius ? job->radius_x : clb_scale_radius (params->radius_x,
            job->x_sub), job->own_radius ? job->radius_y : params->radius_y,
        (RefBorder) params->border, params->passes);
    for (k = 0; k < m; k++) {
      gsize px = k / job->channels;
      guint8 got = out[(px / job->width) * out_stride + (px % job->width)
          * job->pixel_stride + job->offset[k % job->channels]];

      worst = MAX (worst, (guint) ABS ((gint) got - (gint) ref[k]));
    }
    g_free (in16);
    g_free (ref);
  }
  for (i = 0; i < out_stride * h; i++) {
    if (i % out_stride >= row && out[i] != 0x5a)
      worst = 256;
  }
  g_free (in);
  g_free (out);
  return worst;
}

static guint
worst_packed_yuv (ClbEngine * engine, const ClbParams * params, guint w,
    guint h)
{
  return worst_packed_422 (engine, params, w, h, 0, 0, FALSE, 0);
}

/* A 4-channel job with channel @kept kept (RGBx's x: 3, xRGB's x: 0):
 * the other channels equal the reference of their 3 channels alone, the
 * kept one the input; with @region, only pixels inside it are filtered. */
static guint
worst_kept (ClbEngine * engine, const ClbParams * params, guint w, guint h,
    guint kept, gboolean region)
{
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  gsize n = (gsize) w * h * 4, i, stride = w * 4;
  guint8 *in = g_malloc (n), *out = g_malloc (n);
  guint16 *in3 = g_new (guint16, (gsize) w * h * 3);
  guint16 *ref = g_new (guint16, (gsize) w * h * 3);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  ClbRect rect = { w / 4, h / 3, w / 2, h / 2 };
  ClbParams p = *params;
  guint worst = 0;

  clcheck_one_plane (w, h, 4, CLB_SAMPLES_8, 255, &planes, &job);
  job.keep_mask = 1u << kept;
  job.dist_mask = 0xf & ~job.keep_mask;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < n; i++) {
    in[i] = g_random_int_range (0, 256);
    if (i % 4 != kept)
      in3[i / 4 * 3 + i % 4 - (i % 4 > kept)] = in[i];
  }
  if (region) {
    p.use_regions = TRUE;
    p.regions = &rect;
    p.n_regions = 1;
  }
  fail_unless (clcheck_filter_plane (engine, &p, &job, 1, src, &stride, dst,
          &stride, &err), "%s", err ? err->message : "");
  if (params->method == CLB_METHOD_BILATERAL)
    ref_bilateral (in3, ref, w, h, 3, params->radius_x, params->radius_y,
        (RefBorder) params->border, params->sigma_spatial,
        params->sigma_range, 0x7, 255);
  else
    ref_box_blur (in3, ref, w, h, 3, params->radius_x, params->radius_y,
        (RefBorder) params->border, params->passes);
  for (i = 0; i < n; i++) {
    guint x = i / 4 % w, y = i / 4 / w;
    gboolean inside = !region || (x >= (guint) rect.x
        && x < (guint) (rect.x + rect.width) && y >= (guint) rect.y
        && y < (guint) (rect.y + rect.height));
    guint want = i % 4 == kept || !inside ? in[i] :
        ref[i / 4 * 3 + i % 4 - (i % 4 > kept)];

    worst = MAX (worst, (guint) ABS ((gint) out[i] - (gint) want));
    /* kept bytes come out exactly as they went in */
    fail_unless (i % 4 != kept || out[i] == in[i]);
  }
  g_free (in);
  g_free (out);
  g_free (in3);
  g_free (ref);
  return worst;
}

/* Kept channels, with the CPU variants that keep them (vector kernels,
 * in place or on the caller's memory) and the GPU ones that run the job
 * without them, with and without regions. */
GST_START_TEST (test_kept_channels)
{
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint c, m, k, region;

  for (c = 0; c < G_N_ELEMENTS (classes); c++) {
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    ClbEngine *engine = make_engine (rt, classes[c], log);
    gboolean cpu = classes[c] == CLB_DEVICE_CLASS_CPU;

    for (m = CLB_METHOD_SAT; m <= CLB_METHOD_BILATERAL; m++) {
      for (k = 0; k < 4; k += 3) {
        for (region = 0; region < 2; region++) {
          ClbParams params = { 0, };
          guint worst;

          params.method = m;
          params.border = (k / 3 + 2 * region) % 3;
          params.radius_x = 9;
          params.radius_y = 2;
          params.passes = 1;
          params.sigma_spatial = 3;
          params.sigma_range = 30;
          worst = worst_kept (engine, &params, 61, 23, k, region);
          fail_unless (worst <= (m == CLB_METHOD_BILATERAL ? 1u : 0u),
              "class %s, method %u, channel %u kept, region %u: off by %u",
              cpu ? "cpu" : "gpu", m, k, region, worst);
        }
      }
    }
    fail_unless_equals_int (clcheck_lines_with (log, "variant separable_fused_x16") > 0, cpu);
    fail_unless_equals_int (clcheck_lines_with (log, "variant bilateral_x16") > 0, cpu);
    fail_unless_equals_int (clcheck_lines_with (log, "caller's memory") > 0, cpu);
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* A variant is logged for a job when it changes, not every frame. */
GST_START_TEST (test_variant_logged_on_change)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_GPU, log);
  ClbParams params = { 0, };
  guint i;

  params.method = CLB_METHOD_SEPARABLE;
  params.radius_x = params.radius_y = 2;
  params.passes = 1;
  for (i = 0; i < 3; i++)
    fail_unless (worst_vs_reference (engine, &params, 20, 10, 1) == 0);
  fail_unless_equals_int (clcheck_lines_with (log, "job 0 "), 1);
  params.radius_x = 4;
  fail_unless (worst_vs_reference (engine, &params, 20, 10, 1) == 0);
  fail_unless_equals_int (clcheck_lines_with (log, "job 0 "), 2);
  fail_unless_equals_int (clcheck_lines_with (log, "radius 4,2"), 1);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* A profile as a device of @device_class with plenty of everything. */
static ClbDeviceProfile
fake_profile (ClbDeviceClass device_class)
{
  ClbDeviceProfile p;
  guint s;

  memset (&p, 0, sizeof (p));
  p.device_class = device_class;
  p.compute_units = 8;
  p.local_mem_size = 64 * 1024;
  p.max_work_group_size = 1024;
  p.max_items[0] = p.max_items[1] = p.max_items[2] = 1024;
  p.max_constant_size = 64 * 1024;
  p.max_constant_args = 8;
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    p.bilateral_gpu_max_wg[s] = p.gpu_line_max_wg[s] = 256;
  return p;
}

static const gchar *
choose (const ClbDeviceProfile * p, ClbMethod method, const ClbPlanes * planes,
    const ClbJob * job, guint r, ClbWorkShape * shape)
{
  const ClbVariant *v = clb_variant_choose (p, method, planes, NULL, job, r, r,
      shape);

  return v ? clb_variant_get_name (v) : NULL;
}

/* Which variant the table gives a job, for CPU and GPU profiles, sample
 * widths, layouts, local memory and loop caps. */
GST_START_TEST (test_variant_table)
{
  ClbDeviceProfile cpu = fake_profile (CLB_DEVICE_CLASS_CPU);
  ClbDeviceProfile gpu = fake_profile (CLB_DEVICE_CLASS_GPU);
  ClbDeviceProfile p;
  ClbPlanes rgba, deep;
  ClbJob job, strided;
  ClbWorkShape shape;

  clcheck_one_plane (64, 32, 4, CLB_SAMPLES_8, 255, &rgba, &job);
  deep = rgba;
  deep.sample_size = CLB_SAMPLES_16;
  deep.max_value = 1023;
  strided = job;                /* xRGB's colour channels */
  strided.channels = 3;
  strided.pixel_stride = 4;
  strided.offset[0] = 1;
  strided.offset[1] = 2;
  strided.offset[2] = 3;

  /* CPU: vector kernels for dense 8-bit jobs, 16 columns a work-item;
   * sat's table in a ring for every job */
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SAT, &rgba, &job, 5,
          &shape), "sat_ring");
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SAT, &deep, &job, 5,
          &shape), "sat_ring");
  /* (but for 8-bit jobs that are not dense) */
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SAT, &rgba, &strided,
          2047, &shape), "sat_strip16");
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SEPARABLE, &rgba, &job,
          5, &shape), "separable_fused_x16");
  fail_unless (clb_variant_wraps (clb_variant_choose (&cpu,
              CLB_METHOD_SEPARABLE, &rgba, NULL, &job, 5, 5, &shape)));
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_BILATERAL, &rgba, &job,
          5, &shape), "bilateral_x16");
  /* pixels of up to 4 bytes, not all of them the job's: fused too */
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SEPARABLE, &rgba,
          &strided, 5, &shape), "separable_fused_x16");
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_SEPARABLE, &deep, &job,
          5, &shape), "separable_strip16");
  fail_unless_equals_string (choose (&cpu, CLB_METHOD_BILATERAL, &deep, &job,
          5, &shape), "bilateral_gpu");
  fail_unless_equals_int (shape.local[0], 16);
  fail_unless_equals_int (shape.local[1], 16);

  /* GPU: one column a work-item, bilateral's tile in local memory */
  fail_unless_equals_string (choose (&gpu, CLB_METHOD_SAT, &rgba, &job, 5,
          &shape), "sat_gpu");
  fail_unless_equals_int (shape.strip, 1);
  fail_unless_equals_string (choose (&gpu, CLB_METHOD_SEPARABLE, &rgba, &job,
          5, &shape), "separable_gpu");
  fail_if (clb_variant_wraps (clb_variant_choose (&gpu,
              CLB_METHOD_SEPARABLE, &rgba, NULL, &job, 5, 5, &shape)));
  fail_unless_equals_string (choose (&gpu, CLB_METHOD_BILATERAL, &rgba, &job,
          5, &shape), "bilateral_gpu");
  /* a radius whose 16x16 tile is too large: 16x8, then global memory */
  fail_unless_equals_string (choose (&gpu, CLB_METHOD_BILATERAL, &rgba, &job,
          25, &shape), "bilateral_gpu");
  fail_unless_equals_int (shape.local[0], 16);
  fail_unless_equals_int (shape.local[1], 8);
  fail_unless_equals_string (choose (&gpu, CLB_METHOD_BILATERAL, &rgba, &job,
          60, &shape), "bilateral_global");
  p = gpu;
  p.bilateral_gpu_max_wg[CLB_SAMPLES_8] = 16;   /* no 8x4 group */
  fail_unless_equals_string (choose (&p, CLB_METHOD_BILATERAL, &rgba, &job,
          2, &shape), "bilateral_global");

  /* CPU with loops capped (llvmpipe): what does not fit falls back */
  p = cpu;
  p.loop_cap = 4000;
  p.loop_budget = 2000;
  fail_unless_equals_string (choose (&p, CLB_METHOD_SEPARABLE, &rgba, &job,
          1, &shape), "separable_fused_x16");
  fail_unless_equals_string (choose (&p, CLB_METHOD_SEPARABLE, &rgba, &job,
          60, &shape), "separable");
  fail_unless_equals_int (shape.strip, 1);
  fail_unless_equals_string (choose (&p, CLB_METHOD_BILATERAL, &rgba, &job,
          8, &shape), "bilateral_global");
  /* sat_ring where a step of it fits the cap (launches then take as
   * many steps as fit), else 16 columns a work-item */
  p.loop_cap = 80000;
  p.loop_budget = 40000;
  fail_unless_equals_string (choose (&p, CLB_METHOD_SAT, &rgba, &job, 5,
          &shape), "sat_ring");
  p.loop_cap = 4000;
  p.loop_budget = 2000;
  fail_unless_equals_string (choose (&p, CLB_METHOD_SAT, &rgba, &job, 5,
          &shape), "sat_strip16");
  fail_unless_equals_int (shape.strip, 16);
  /* rings over the intermediate's budget: sat_strip16, in bands */
  p = cpu;
  p.max_alloc = 64 * 12 * 4 * 4 - 1;
  fail_unless_equals_string (choose (&p, CLB_METHOD_SAT, &rgba, &job, 5,
          &shape), "sat_strip16");

  fail_unless (choose (&cpu, (ClbMethod) 42, &rgba, &job, 5, &shape) == NULL);
}

GST_END_TEST;

/* separable_fused_x16 (CPU class, 8-bit jobs of 1 to 4 bytes a pixel)
 * against the reference: dense jobs of 1 to 4 channels and packed YUV's
 * two jobs on one plane (Y: 2 bytes a pixel; UV: 4), odd widths, bands of
 * rows (radius across them: taller than a band), radii across the 16-lane
 * vectors and larger than the frame, every border; from the caller's
 * memory to the caller's (its own run) and with passes > 1 (in place:
 * the two-kernel runs it falls back to). 16-bit samples never take it. */
GST_START_TEST (test_separable_fused)
{
  static const guint sizes[][2] = { {37, 23}, {61, 70}, {5, 3}, {18, 9} };
  static const guint radii[] = { 1, 7, 17, 40 };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_CPU, log);
  guint s, r, b, n, pass;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
        for (pass = 1; pass <= 2; pass++) {
          ClbParams params = { 0, };
          guint w = sizes[s][0], h = sizes[s][1], worst;

          params.method = CLB_METHOD_SEPARABLE;
          params.border = b;
          params.radius_x = radii[r];
          params.radius_y = radii[(r + 1) % G_N_ELEMENTS (radii)];
          params.passes = pass;
          for (n = 1; n <= 4; n++) {
            worst = worst_vs_reference (engine, &params, w, h, n);
            fail_unless (worst == 0, "%ux%u, %u channels, radius %u,%u, "
                "border %u, %u passes: off by %u", w, h, n, params.radius_x,
                params.radius_y, b, pass, worst);
          }
          worst = worst_packed_yuv (engine, &params, w + (w & 1), h);
          fail_unless (worst == 0, "packed YUV %ux%u, radius %u,%u, "
              "border %u, %u passes: off by %u", w + (w & 1), h,
              params.radius_x, params.radius_y, b, pass, worst);
        }
      }
    }
  }
  fail_unless (clcheck_lines_with (log, "variant separable_fused_x16") > 0);
  fail_unless (clcheck_lines_with (log, "caller's memory") > 0);
  fail_unless_equals_int (clcheck_lines_with (log, "separable_strip16"), 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* What separable_mean_by16 (kernels/separable.cl) rests on: for every
 * divisor d up to CLB_DIV_EXACT_MAX (16384) and c the smallest float
 * >= 1 / d, the product n c truncated is n / d for 0 <= n <= 255.5 d
 * (a window's sum of 8-bit samples plus half its area). n c - n / d
 * grows with n, so the product is first too large where n / d is just
 * below an integer: checked at every multiple of d and the integer
 * below it, and at the largest n. (Host floats: IEEE single precision,
 * products correctly rounded, as OpenCL C requires.) */
GST_START_TEST (test_division_by_reciprocal)
{
  guint d;

  for (d = 1; d <= 16384; d++) {
    float df = (float) d, c = 1.0f / df;
    guint64 top = 255 * (guint64) d + d / 2, k;

    while (fmaf (-c, df, 1.0f) > 0.0f)
      c = nextafterf (c, 2.0f);
    while (fmaf (-nextafterf (c, 0.0f), df, 1.0f) <= 0.0f)
      c = nextafterf (c, 0.0f);
    for (k = 0; k * d <= top + 1; k++) {
      guint64 n = k * d, m = k > 0 ? n - 1 : 0;

      fail_unless_equals_uint64 ((guint64) ((float) m * c), m / d);
      if (n <= top)
        fail_unless_equals_uint64 ((guint64) ((float) n * c), k);
    }
    fail_unless_equals_uint64 ((guint64) ((float) top * c), top / d);
  }
}

GST_END_TEST;

/* The two ways separable_mean_by16 divides, each against the reference:
 * windows of at most 16384 samples by the product alone (127 x 129 =
 * 16383: radius 63 by 64), larger ones corrected (129 x 129), on random
 * frames and on frames of 255 (every quotient the largest, 255); sat and
 * separable, 1 to 4 channels, each border, the fused and the two-kernel
 * runs (two passes: in place). */
GST_START_TEST (test_division_paths)
{
  static const guint radii[][2] = { {63, 64}, {64, 64}, {64, 63}, {2, 3} };
  static const ClbMethod methods[] = { CLB_METHOD_SEPARABLE, CLB_METHOD_SAT };
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_CPU, NULL);
  guint r, b, m, n, pass;
  gint fill;
  ClcheckSweep sweep;

  clcheck_sweep_init (&sweep, "test_division_paths");
  for (m = 0; m < G_N_ELEMENTS (methods); m++) {
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
        for (pass = 1; pass <= 2; pass++) {
          for (n = 1; n <= 4; n++) {
            for (fill = -1; fill <= 255; fill += 256) {
              ClbParams params = { 0, };
              guint worst;

              if (!clcheck_sweep_take (&sweep))
                continue;
              params.method = methods[m];
              params.border = b;
              params.radius_x = radii[r][0];
              params.radius_y = radii[r][1];
              params.passes = pass;
              worst = worst_vs_reference_of (engine, &params, 160, 140, n,
                  fill);
              fail_unless (worst == 0, "method %d, %u channels, radius "
                  "%u,%u, border %u, %u passes, fill %d: off by %u",
                  methods[m], n, params.radius_x, params.radius_y, b, pass,
                  fill, worst);
            }
          }
        }
      }
    }
  }
  clcheck_sweep_done (&sweep);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Packed 4:2:2 (YUY2, UYVY): the Y and UV jobs run in one walk of
 * separable_fused_422_x16 wherever clb_variant_choose_pair says so (each
 * job alone separable_fused_x16, the same ry, limits of the device),
 * logged as such, and apart otherwise (a chroma radius of its own with
 * another ry); either way every sample equals the reference, for each
 * border, odd heights, padded rows, radii past the frame, two passes
 * (in place: each job's own run), the jobs in either order. */
GST_START_TEST (test_separable_packed_422)
{
  static const guint sizes[][2] = { {2, 1}, {6, 3}, {18, 9}, {40, 23},
  {130, 5}, {96, 70}
  };
  static const guint radii[] = { 1, 2, 3, 8, 17, 33, 150 };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_CPU, log);
  const ClbDeviceProfile *profile = clb_engine_get_profile (engine);
  guint s, r, b, pass, n_paired = 0, n_apart = 0;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
      for (pass = 1; pass <= 2; pass++) {
        for (r = 0; r < G_N_ELEMENTS (radii); r++) {
          ClbParams params = { 0, };
          guint w = sizes[s][0], h = sizes[s][1], worst, luma = (r + b) & 1;
          guint uv_radius = (r + s) % 4 == 3 ? radii[r] / 2 + 1 : 0;
          gboolean uv_first = (r + pass) & 1, expect;
          ClbPlanes planes;
          ClbJob y, uv;
          const ClbVariant *v;

          params.method = CLB_METHOD_SEPARABLE;
          params.border = b;
          params.radius_x = radii[r];
          params.radius_y = radii[(r + s) % G_N_ELEMENTS (radii)];
          params.passes = pass;
          /* what the engine is to do: the pair's variant for these jobs */
          clcheck_one_plane (w, h, 2, CLB_SAMPLES_8, 255, &planes, &y);
          y.channels = 1;
          y.offset[0] = luma;
          uv = y;
          uv.width = w / 2;
          uv.channels = 2;
          uv.pixel_stride = 4;
          uv.offset[0] = 1 - luma;
          uv.offset[1] = 3 - luma;
          v = clb_variant_choose_pair (profile, CLB_METHOD_SEPARABLE,
              &planes, NULL, &y, params.radius_x, params.radius_y, &uv,
              uv_radius ? uv_radius : clb_scale_radius (params.radius_x, 1),
              uv_radius ? uv_radius : params.radius_y);
          expect = v != NULL;
          if (expect)
            fail_unless_equals_string (clb_variant_get_name (v),
                "separable_fused_422_x16");
          n_paired += expect;
          n_apart += !expect;

          g_ptr_array_set_size (log, 0);
          worst = worst_packed_422 (engine, &params, w, h, luma,
              (r * 7 + s) % 5, uv_first, uv_radius);
          fail_unless (worst == 0, "packed 4:2:2 %ux%u (luma byte %u), "
              "radius %u,%u (chroma %u), border %u, %u passes: off by %u",
              w, h, luma, params.radius_x, params.radius_y, uv_radius, b,
              pass, worst);
          /* each case's radius or size differs from the last one's, so
           * the job's line is logged again */
          fail_unless_equals_int (clcheck_lines_with (log,
                  "variant separable_fused_422_x16") > 0, expect);
        }
      }
    }
  }
  /* both ways were taken */
  fail_unless (n_paired > 0 && n_apart > 0, "%u paired, %u apart", n_paired,
      n_apart);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The options: their defaults, the environment read by one function
 * only, and what the engine makes of them. */
GST_START_TEST (test_options)
{
  ClbEngineOptions o;
  ClbRuntime *rt;
  ClbEngine *engine;
  const ClbDeviceProfile *p;
  GError *err = NULL;

  save_option_envs ();
  clb_engine_options_init (&o);
  fail_unless (o.device_class == CLB_DEVICE_CLASS_AUTO && o.zero_copy
      && !o.profile && o.loop_cap == 0 && o.log == NULL);
  clb_engine_options_from_env (&o);
  fail_unless (o.device_class == CLB_DEVICE_CLASS_AUTO && o.zero_copy
      && !o.profile && o.loop_cap == 0 && o.max_alloc == 0);
  fail_unless (clb_engine_wraps_frames (CL_DEVICE_TYPE_CPU, FALSE));
  fail_if (clb_engine_wraps_frames (CL_DEVICE_TYPE_GPU, FALSE));
  /* an integrated GPU */
  fail_unless (clb_engine_wraps_frames (CL_DEVICE_TYPE_GPU, TRUE));

  g_setenv (CLB_DEVICE_CLASS_ENV, "gpu", TRUE);
  g_setenv (CLB_ZERO_COPY_ENV, "0", TRUE);
  g_setenv (CLB_PROFILE_ENV, "1", TRUE);
  g_setenv (CLB_LOOP_CAP_ENV, "40000", TRUE);
  g_setenv (CLB_MAX_ALLOC_ENV, "100000", TRUE);
  clb_engine_options_from_env (&o);
  fail_unless (o.device_class == CLB_DEVICE_CLASS_GPU && !o.zero_copy
      && o.profile && o.loop_cap == 40000 && o.max_alloc == 100000);
  fail_if (clb_engine_wraps_frames (CL_DEVICE_TYPE_CPU, TRUE));
  g_setenv (CLB_DEVICE_CLASS_ENV, "cpu", TRUE);
  g_unsetenv (CLB_ZERO_COPY_ENV);
  clb_engine_options_from_env (&o);
  fail_unless (o.device_class == CLB_DEVICE_CLASS_CPU && o.zero_copy);
  fail_unless (clb_engine_wraps_frames (CL_DEVICE_TYPE_GPU, FALSE));
  restore_option_envs ();

  /* The engine takes its options, not the environment. */
  rt = clcheck_built_runtime ();
  g_setenv (CLB_LOOP_CAP_ENV, "50000", TRUE);
  clb_engine_options_init (&o);
  o.device_class = CLB_DEVICE_CLASS_GPU;
  o.loop_cap = 40000;
  o.max_alloc = 100000;
  engine = clb_engine_new (rt, &o, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  p = clb_engine_get_profile (engine);
  fail_unless_equals_int (clb_engine_get_loop_cap (engine), 40000);
  /* the smaller of the options' limit and the device's */
  fail_unless (p->max_alloc == MIN (100000, clcheck_default_device_ulong
          (CL_DEVICE_MAX_MEM_ALLOC_SIZE)) && p->global_mem > 0);
  fail_unless_equals_int (p->loop_budget, 20000);
  fail_if (clb_engine_is_cpu (engine));
  /* the GPU class wraps frames where the device shares the host's
   * memory (an integrated GPU; PoCL says it does) */
  fail_unless (p->class_forced && p->zero_copy == p->host_unified);
  fail_unless (p->compute_units > 0 && p->local_mem_size > 0
      && p->max_items[0] > 0);
  clb_engine_free (engine);

  o.device_class = CLB_DEVICE_CLASS_CPU;
  o.zero_copy = FALSE;
  o.loop_cap = 0;
  o.max_alloc = 0;
  engine = clb_engine_new (rt, &o, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  p = clb_engine_get_profile (engine);
  fail_unless (clb_engine_is_cpu (engine) && !p->zero_copy);
  fail_unless (p->max_alloc == clcheck_default_device_ulong
      (CL_DEVICE_MAX_MEM_ALLOC_SIZE));
  fail_unless (clb_engine_get_loop_cap (engine) != 50000);
  clb_engine_free (engine);
  restore_option_envs ();

  /* NULL options: the defaults */
  engine = clb_engine_new (rt, NULL, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  fail_if (clb_engine_get_profile (engine)->class_forced);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The argument cursor: arguments in order, the first failure kept and
 * reported with the kernel and the argument; a kept cursor skips the
 * arguments set already. */
GST_START_TEST (test_args_cursor)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  GError *err = NULL;
  cl_kernel kernel = clb_runtime_create_kernel (rt, CLB_SAMPLES_8,
      "region", "region_composite", &err);
  cl_mem buf = clb_runtime_create_buffer (rt, CL_MEM_READ_WRITE, 64, &err);
  cl_int4 off = { {0, 1, 2, 3} };
  ClbArgs a, good;
  guint i;

  fail_unless (kernel != NULL && buf != NULL);
  a = clb_args (kernel);
  clb_arg_mem (&a, buf);
  clb_arg_int (&a, 16);
  clb_arg_mem (&a, buf);
  clb_arg_int (&a, 16);
  clb_arg_int (&a, 4);
  clb_arg_int4 (&a, off);
  for (i = 0; i < 9; i++)
    clb_arg_int (&a, 1);
  clb_arg_mem (&a, buf);
  for (i = 0; i < 4; i++)
    clb_arg_int (&a, 0);
  fail_unless_equals_int (clb_args_count (&a), 20);
  fail_unless (clb_args_done (&a, &err), "%s", err ? err->message : "");
  good = a;

  /* one argument too many */
  clb_arg_int (&a, 7);
  fail_if (clb_args_done (&a, &err));
  fail_unless (g_error_matches (err, CLB_RUNTIME_ERROR,
          CLB_RUNTIME_ERROR_FAILED), "%s", err->message);
  fail_unless (strstr (err->message, "clSetKernelArg (region_composite, "
          "argument 20)") != NULL, "%s", err->message);
  g_clear_error (&err);

  /* a wrong size (an int where an int4 goes): the calls after it do
   * nothing, the first failure is reported */
  a = clb_args (kernel);
  clb_arg_mem (&a, buf);
  clb_arg_int (&a, 16);
  clb_arg_mem (&a, buf);
  clb_arg_int (&a, 16);
  clb_arg_int (&a, 4);
  clb_arg_int (&a, 0);
  clb_arg_int (&a, 1);
  fail_unless_equals_int (clb_args_count (&a), 7);
  fail_if (clb_args_done (&a, &err));
  fail_unless (strstr (err->message, "argument 5)") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "CL_INVALID_ARG_SIZE") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  /* the fault-injection hook */
  g_setenv (CLB_FAULT_ENV, "clSetKernelArg:-49", TRUE);
  a = clb_args (kernel);
  clb_arg_mem (&a, buf);
  g_unsetenv (CLB_FAULT_ENV);
  fail_if (clb_args_done (&a, &err));
  fail_unless (strstr (err->message, "argument 0)") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "CL_INVALID_ARG_INDEX") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  fail_unless (clb_args_done (&good, NULL));

  /* a kept cursor sets only what changed: with every clSetKernelArg
   * failing, the same values again pass (not set), a new one fails; a
   * memory argument is held while kept, let go by keep_mems */
  {
    ClbArgsKept *kept = clb_args_kept_new ();
    cl_mem other = clb_runtime_create_buffer (rt, CL_MEM_READ_WRITE, 64,
        NULL);
    cl_uint refs[2];

    for (i = 0; i < 2; i++) {
      if (i == 1)
        g_setenv (CLB_FAULT_ENV, "clSetKernelArg:-49", TRUE);
      a = clb_args_kept (kept, kernel);
      clb_arg_mem (&a, buf);
      clb_arg_int (&a, 16);
      clb_arg_mem (&a, buf);
      clb_arg_int (&a, 16);
      clb_arg_int (&a, 4);
      clb_arg_int4 (&a, off);
      fail_unless (clb_args_done (&a, NULL));
    }
    a = clb_args_kept (kept, kernel);
    clb_arg_mem (&a, buf);
    clb_arg_int (&a, 17);
    fail_if (clb_args_done (&a, NULL));
    a = clb_args_kept (kept, kernel);
    clb_arg_mem (&a, other);
    fail_if (clb_args_done (&a, NULL));
    g_unsetenv (CLB_FAULT_ENV);
    clGetMemObjectInfo (buf, CL_MEM_REFERENCE_COUNT, sizeof (refs[0]),
        &refs[0], NULL);
    clb_args_kept_keep_mems (kept, NULL, 0);
    clGetMemObjectInfo (buf, CL_MEM_REFERENCE_COUNT, sizeof (refs[1]),
        &refs[1], NULL);
    fail_unless_equals_int (refs[0], refs[1] + 1);  /* argument 2 */
    /* forgotten: set again (and fails) */
    g_setenv (CLB_FAULT_ENV, "clSetKernelArg:-49", TRUE);
    a = clb_args_kept (kept, kernel);
    clb_arg_mem (&a, buf);
    g_unsetenv (CLB_FAULT_ENV);
    fail_if (clb_args_done (&a, NULL));
    /* dropped where it is kept: released at once */
    a = clb_args_kept (kept, kernel);
    clb_arg_mem (&a, other);
    fail_unless (clb_args_done (&a, NULL));
    clGetMemObjectInfo (other, CL_MEM_REFERENCE_COUNT, sizeof (refs[0]),
        &refs[0], NULL);
    clb_args_kept_drop (kept, other);
    clGetMemObjectInfo (other, CL_MEM_REFERENCE_COUNT, sizeof (refs[1]),
        &refs[1], NULL);
    fail_unless_equals_int (refs[0], refs[1] + 1);
    clb_args_kept_forget (kept, kernel);
    clb_args_kept_free (kept);
    clb_runtime_release_buffer (&other);
  }

  clb_runtime_release_buffer (&buf);
  clb_runtime_release_kernel (&kernel);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The engine's own errors are in its domain. */
GST_START_TEST (test_engine_errors)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_AUTO, NULL);
  ClbPlanes planes;
  ClbJob job, bad;
  ClbParams params = { 0, };
  guint8 buf[16 * 8];
  const guint8 *src[1] = { buf };
  guint8 *dst[1] = { buf };
  gsize stride = 16;
  GError *err = NULL;

  clcheck_one_plane (16, 8, 1, CLB_SAMPLES_8, 255, &planes, &job);
  params.method = CLB_METHOD_SAT;
  params.radius_x = params.radius_y = 1;
  params.passes = 1;

  /* not configured */
  fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride, dst,
          &stride, &err));
  fail_unless (g_error_matches (err, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB),
      "%s", err->message);
  g_clear_error (&err);

  fail_unless (clb_engine_set_planes (engine, &planes, &err));
  bad = job;
  bad.width = 17;
  fail_if (clcheck_filter_plane (engine, &params, &bad, 1, src, &stride, dst,
          &stride, &err));
  fail_unless (g_error_matches (err, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_JOB),
      "%s", err->message);
  g_clear_error (&err);

  params.method = (ClbMethod) 42;
  fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride, dst,
          &stride, &err));
  fail_unless (g_error_matches (err, CLB_ENGINE_ERROR,
          CLB_ENGINE_ERROR_METHOD), "%s", err->message);
  g_clear_error (&err);

  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Cancels @data's engine after @delay_us. */
typedef struct
{
  ClbEngine *engine;
  gulong delay_us;
  gint64 cancelled_at;
} Canceller;

static gpointer
cancel_later (gpointer data)
{
  Canceller *c = data;

  g_usleep (c->delay_us);
  c->cancelled_at = g_get_monotonic_time ();
  clb_engine_cancel (c->engine);
  return NULL;
}

/* Bilateral at the largest window on both classes: in bands (whole rows
 * on the CPU, work-groups of columns on the GPU kernels), equal to the
 * reference; a cancelled engine refuses frames until resumed; a cancel
 * from another thread stops a long frame (1280x720 RGBA, about 6e10
 * taps: bilateral_x16 filters 640x200 in about a second, before the
 * cancel) within a second, with CLB_ENGINE_ERROR_CANCELLED. */
GST_START_TEST (test_bilateral_bands_and_cancel)
{
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint c;

  fail_unless_equals_int (clb_bilateral_radius (2047, 21.0), 63);
  fail_unless_equals_int (clb_bilateral_radius (2047, 0.0), 63);
  fail_unless_equals_int (clb_bilateral_radius (40, 2.0), 6);
  fail_unless_equals_int (clb_bilateral_radius (5, 2.0), 5);
  fail_unless_equals_int (clb_bilateral_radius (9, 2.5), 8);

  for (c = 0; c < G_N_ELEMENTS (classes); c++) {
    ClbEngine *engine = make_engine (rt, classes[c], NULL);
    ClbParams params = { 0, };
    ClbPlanes planes;
    ClbJob job;
    GError *err = NULL;
    gsize stride = 1280 * 4, n = stride * 720;
    guint8 *in = g_malloc0 (n), *out = g_malloc (n);
    const guint8 *src[1] = { in };
    guint8 *dst[1] = { out };
    guint pass;

    params.method = CLB_METHOD_BILATERAL;
    params.border = CLB_BORDER_REFLECT;
    params.radius_x = params.radius_y = 63;
    params.sigma_spatial = 21.0;
    params.sigma_range = 30.0;
    fail_unless (worst_vs_reference (engine, &params, 200, 40, 1) <= 1);

    clcheck_one_plane (1280, 720, 4, CLB_SAMPLES_8, 255, &planes, &job);
    fail_unless (clb_engine_set_planes (engine, &planes, &err));
    clb_engine_cancel (engine);
    fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride, dst,
            &stride, &err));
    fail_unless (g_error_matches (err, CLB_ENGINE_ERROR,
            CLB_ENGINE_ERROR_CANCELLED), "%s", err->message);
    g_clear_error (&err);
    clb_engine_resume (engine);
    params.radius_x = params.radius_y = 1;
    fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src, &stride,
            dst, &stride, &err), "%s", err ? err->message : "");

    /* the first pass builds the kernels for the bands' work-groups */
    params.radius_x = params.radius_y = 2047;
    for (pass = 0; pass < 2; pass++) {
      Canceller canceller = { engine, pass ? 300000 : 2000000, 0 };
      GThread *thread = g_thread_new ("cancel", cancel_later, &canceller);
      gint64 took;

      clb_engine_resume (engine);
      fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride,
              dst, &stride, &err));
      took = g_get_monotonic_time () - canceller.cancelled_at;
      g_thread_join (thread);
      fail_unless (g_error_matches (err, CLB_ENGINE_ERROR,
              CLB_ENGINE_ERROR_CANCELLED), "%s", err->message);
      g_clear_error (&err);
      if (pass == 1) {
        g_print ("class %u: stopped %.1f ms after the cancel\n", classes[c],
            took / 1e3);
        fail_unless (took < G_USEC_PER_SEC, "stopped %.1f ms after the "
            "cancel", took / 1e3);
      }
    }
    g_free (in);
    g_free (out);
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
engine_suite (void)
{
  Suite *s = suite_create ("engine");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_variant_table);
  tcase_add_test (tc, test_args_cursor);
  tcase_add_test (tc, test_options);
  tcase_add_test (tc, test_engine_errors);
  tcase_add_test (tc, test_variant_logged_on_change);
  tcase_add_test (tc, test_methods_match_reference);
  tcase_add_test (tc, test_field_planes_reuse_buffers);
  tcase_add_test (tc, test_plan_made_once);
  tcase_add_test (tc, test_sat_ring);
  tcase_add_test (tc, test_bilateral_bands_and_cancel);
  tcase_add_test (tc, test_kept_channels);
  tcase_add_test (tc, test_separable_fused);
  tcase_add_test (tc, test_division_by_reciprocal);
  tcase_add_test (tc, test_division_paths);
  tcase_add_test (tc, test_separable_packed_422);
  tcase_add_test (tc, test_pass_and_job_radii);
  tcase_add_test (tc, test_gaussian_radii);
  enginegpu_add_tests (tc);
  return s;
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_check_init (&argc, &argv);
  ret = clcheck_require_platform ();
  if (ret != 0)
    return ret;
  return gst_check_run_suite (engine_suite (), "engine", __FILE__);
}
