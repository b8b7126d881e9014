/* Unit tests of the bilateral_gpu variant (gst/clblur/enginebilateral.c,
 * kernels/gpu_bilateral.cl): the engine with its device class forced to
 * GPU against the plain-C reference at many radii, sizes, borders, sample
 * widths and channel counts, and when the variant table gives it a job.
 * Then the CPU rows (bilateral_x16 for 8-bit, bilateral_gpu for 16-bit)
 * on the content and sigmas where computed weights go wrong: grey noise,
 * sigma-range huge or tiny (weights that underflow), odd sizes, radii
 * across the 16-pixel blocks and the staged edge spans.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>

#include "engine.h"
#include "refblur.h"
#include "clcheck.h"

/* Filters a random frame with the engine and the reference and returns
 * the largest difference; with @keep_last, the job keeps its last channel,
 * which must come out as it went in and is left out of the distance. */
typedef enum
{
  CONTENT_EDGES,                /* ramps and random spikes */
  CONTENT_GREY_NOISE,           /* a random value a pixel in every channel */
} Content;

static guint
worst_with (ClbEngine * engine, guint w, guint h, guint channels,
    ClbSampleSize size, guint max_value, guint r, ClbBorder border,
    gboolean keep_last, Content content, gdouble sigma_spatial,
    gdouble sigma_range)
{
  ClbParams params = { 0, };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  gsize n = (gsize) w * h * channels, i;
  gsize stride = (gsize) w * channels * (size == CLB_SAMPLES_8 ? 1 : 2);
  guint8 *in8 = g_malloc (n), *out8 = g_malloc (n);
  guint16 *in16 = g_new (guint16, n), *out16 = g_new (guint16, n);
  guint16 *ref = g_new (guint16, n);
  const guint8 *src[1];
  guint8 *dst[1];
  guint worst = 0;

  clcheck_one_plane (w, h, channels, size, max_value, &planes, &job);
  if (keep_last)
    job.keep_mask = 1u << (channels - 1);
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < n; i++) {
    guint v;

    if (content == CONTENT_GREY_NOISE)
      v = i % channels ? in16[i - 1] :
          (guint) g_random_int_range (0, max_value + 1);
    else                        /* smooth areas and edges: weights vary */
      v = g_random_int_range (0, 8) == 0 ?
          (guint) g_random_int_range (0, max_value + 1) :
          (guint) ((gdouble) (i / channels % w) / MAX (w, 2) * max_value);
    in16[i] = v;
    in8[i] = (guint8) v;
  }
  src[0] = size == CLB_SAMPLES_8 ? in8 : (const guint8 *) in16;
  dst[0] = size == CLB_SAMPLES_8 ? out8 : (guint8 *) out16;
  params.method = CLB_METHOD_BILATERAL;
  params.border = border;
  params.radius_x = params.radius_y = r;
  params.passes = 1;
  params.sigma_spatial = sigma_spatial;
  params.sigma_range = sigma_range;
  fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src, &stride,
          dst, &stride, &err), "%s", err ? err->message : "");
  /* the window the engine bounds bilateral's to */
  r = clb_bilateral_radius (r, sigma_spatial);
  fail_unless (ref_bilateral (in16, ref, w, h, channels, r, r,
          (RefBorder) border, params.sigma_spatial, params.sigma_range,
          job.dist_mask & ~job.keep_mask, max_value) == 0);
  for (i = 0; i < n; i++) {
    gint out = size == CLB_SAMPLES_8 ? out8[i] : out16[i];
    gint want = keep_last && i % channels == channels - 1 ? in16[i] : ref[i];

    worst = MAX (worst, (guint) ABS (out - want));
  }
  g_free (in8);
  g_free (out8);
  g_free (in16);
  g_free (out16);
  g_free (ref);
  return worst;
}

/* The GPU tests' frames: edges, sigma-range 30, a window bound (3 sigma)
 * that leaves the radius as it is. */
static guint
worst_vs_reference (ClbEngine * engine, guint w, guint h, guint channels,
    ClbSampleSize size, guint max_value, guint r, ClbBorder border,
    gboolean keep_last)
{
  return worst_with (engine, w, h, channels, size, max_value, r, border,
      keep_last, CONTENT_EDGES, MAX (r / 2.0, 1.0), 30);
}

static ClbEngine *
make_engine (ClbRuntime * rt, GPtrArray * log, ClbDeviceClass device_class)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_init (&options);
  options.device_class = device_class;
  options.log = clcheck_collect_log;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

static ClbEngine *
make_gpu_engine (ClbRuntime * rt, GPtrArray * log)
{
  return make_engine (rt, log, CLB_DEVICE_CLASS_GPU);
}

/* Small frames: every radius, border, channel count and sample width. */
GST_START_TEST (test_bilateral_gpu_small)
{
  static const guint radii[] = { 1, 4, 7, 15, 63 };
  static const guint sizes[][2] = { {1, 1}, {7, 3}, {33, 17} };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_gpu_engine (rt, log);
  guint r, s, b, c, d;

  for (d = 0; d < 3; d++) {
    ClbSampleSize size = d == 0 ? CLB_SAMPLES_8 : CLB_SAMPLES_16;
    guint max_value = d == 0 ? 255 : d == 1 ? 1023 : 65535;

    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
          for (c = 1; c <= 4; c++) {
            guint worst = worst_vs_reference (engine, sizes[s][0],
                sizes[s][1], c, size, max_value, radii[r], (ClbBorder) b,
                FALSE);

            fail_unless (worst <= 1, "max %u, radius %u, %ux%u, border %u, "
                "%u channels: off by %u", max_value, radii[r], sizes[s][0],
                sizes[s][1], b, c, worst);
          }
        }
      }
    }
  }
  fail_unless (clcheck_lines_with (log, "variant bilateral_gpu") > 0);
  if (clb_engine_get_loop_cap (engine) == 0) {
    fail_unless_equals_int (clcheck_lines_with (log,
            "variant bilateral_global"), 0);
  } else {
    /* bilateral_gpu's usable refuses windows whose loops pass the cap */
    g_print ("test_bilateral_gpu_small: that bilateral_gpu takes every "
        "case does not apply: the device ends loops after %u iterations, "
        "so the largest windows go to bilateral_global (%u jobs), each "
        "checked against the reference the same\n",
        clb_engine_get_loop_cap (engine), clcheck_lines_with (log,
            "variant bilateral_global"));
  }
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* 640x480 (bands of work-groups, several per frame at the larger radii),
 * and kept channels (the variant runs the job without them). */
GST_START_TEST (test_bilateral_gpu_frames)
{
  static const guint radii[] = { 1, 4, 7, 15 };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_gpu_engine (rt, log);
  guint r, b, worst;

  for (r = 0; r < G_N_ELEMENTS (radii); r++) {
    for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
      guint c = 1 + (r + b) % 4;

      worst = worst_vs_reference (engine, 640, 480, c, CLB_SAMPLES_8, 255,
          radii[r], (ClbBorder) b, FALSE);
      fail_unless (worst <= 1, "radius %u, border %u, %u channels: off by "
          "%u", radii[r], b, c, worst);
    }
  }
  worst = worst_vs_reference (engine, 640, 480, 3, CLB_SAMPLES_16, 65535, 4,
      CLB_BORDER_REFLECT, FALSE);
  fail_unless (worst <= 1, "16-bit: off by %u", worst);
  worst = worst_vs_reference (engine, 640, 480, 4, CLB_SAMPLES_8, 255, 7,
      CLB_BORDER_REPLICATE, TRUE);
  fail_unless (worst <= 1, "kept channel: off by %u", worst);
  worst = worst_vs_reference (engine, 97, 61, 2, CLB_SAMPLES_16, 1023, 63,
      CLB_BORDER_SHRINK, TRUE);
  fail_unless (worst <= 1, "kept channel, 16-bit: off by %u", worst);
  fail_unless (clcheck_lines_with (log, "variant bilateral_gpu") > 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

static const gchar *
choose (const ClbDeviceProfile * p, const ClbPlanes * planes,
    const ClbJob * job, guint r, ClbWorkShape * shape)
{
  const ClbVariant *v = clb_variant_choose (p, CLB_METHOD_BILATERAL, planes,
      NULL, job, r, r, shape);

  return v ? clb_variant_get_name (v) : NULL;
}

/* When the table gives a job bilateral_gpu, and when the tables, the tile
 * or the loops do not fit and the next rows take it. */
GST_START_TEST (test_bilateral_gpu_choice)
{
  ClbDeviceProfile gpu, p;
  ClbPlanes rgba, deep;
  ClbJob job, gray;
  ClbWorkShape shape;
  guint s;

  memset (&gpu, 0, sizeof (gpu));
  gpu.device_class = CLB_DEVICE_CLASS_GPU;
  gpu.compute_units = 8;
  gpu.local_mem_size = 64 * 1024;
  gpu.max_work_group_size = 1024;
  gpu.max_items[0] = gpu.max_items[1] = gpu.max_items[2] = 1024;
  gpu.max_constant_size = 64 * 1024;
  gpu.max_constant_args = 8;
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    gpu.bilateral_gpu_max_wg[s] = 256;
  clcheck_one_plane (64, 32, 4, CLB_SAMPLES_8, 255, &rgba, &job);
  clcheck_one_plane (64, 32, 1, CLB_SAMPLES_16, 1023, &deep, &gray);

  fail_unless_equals_string (choose (&gpu, &rgba, &job, 5, &shape),
      "bilateral_gpu");
  fail_unless_equals_int (shape.local[0], 16);
  fail_unless_equals_int (shape.local[1], 16);
  fail_unless_equals_string (choose (&gpu, &deep, &gray, 5, &shape),
      "bilateral_gpu");
  /* a tile of 32x8 or 16x16 too large for local memory: 16x8 (a float
   * a sample, and 1 KiB of range table) */
  fail_unless_equals_string (choose (&gpu, &rgba, &job, 25, &shape),
      "bilateral_gpu");
  fail_unless_equals_int (shape.local[0], 16);
  fail_unless_equals_int (shape.local[1], 8);
  /* the spatial table (127 x 127 floats) and the range table beyond
   * 64 KiB of constant memory; the tile beyond local memory too */
  fail_unless_equals_string (choose (&gpu, &rgba, &job, 63, &shape),
      "bilateral_global");
  /* 16-bit: the range table is global; the spatial one fits */
  p = gpu;
  p.local_mem_size = 1024 * 1024;
  fail_unless_equals_string (choose (&p, &deep, &gray, 63, &shape),
      "bilateral_gpu");
  fail_unless_equals_string (choose (&p, &rgba, &job, 63, &shape),
      "bilateral_global");
  /* too little constant memory, or too few constant arguments */
  p = gpu;
  p.max_constant_size = 1024;
  fail_unless_equals_string (choose (&p, &rgba, &job, 5, &shape),
      "bilateral_global");
  p = gpu;
  p.max_constant_args = 1;
  fail_unless_equals_string (choose (&p, &rgba, &job, 5, &shape),
      "bilateral_global");
  /* work-groups of at most 16 work-items: none of its shapes */
  p = gpu;
  p.bilateral_gpu_max_wg[CLB_SAMPLES_8] = 16;
  fail_unless_equals_string (choose (&p, &rgba, &job, 2, &shape),
      "bilateral_global");
  /* loops capped (llvmpipe) */
  p = gpu;
  p.loop_cap = 4000;
  p.loop_budget = 2000;
  fail_unless_equals_string (choose (&p, &rgba, &job, 2, &shape),
      "bilateral_gpu");
  fail_if (g_strcmp0 (choose (&p, &rgba, &job, 8, &shape),
          "bilateral_gpu") == 0);
  /* CPUs: the jobs bilateral_x16 does not take (16-bit) */
  p = gpu;
  p.device_class = CLB_DEVICE_CLASS_CPU;
  fail_unless_equals_string (choose (&p, &deep, &gray, 5, &shape),
      "bilateral_gpu");
  fail_unless_equals_string (choose (&p, &rgba, &job, 5, &shape),
      "bilateral_x16");
}

GST_END_TEST;

/* The CPU rows on the content and sigmas where a computed weight goes
 * wrong: R=G=B noise (distances 3 d^2, the weights that used to fall
 * into denormals), sigma-range so large that range weights are all 1,
 * so small that every weight but the centre's underflows (and 0), a
 * spatial sigma so small that the spatial weights underflow too. */
GST_START_TEST (test_bilateral_cpu_weights)
{
  static const gdouble sigmas[] = { 30, 1e6, 2, 0.5, 0.05, 0 };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, log, CLB_DEVICE_CLASS_CPU);
  guint s, c, b, worst;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    for (c = 1; c <= 4; c++) {
      for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
        worst = worst_with (engine, 83, 19, c, CLB_SAMPLES_8, 255, 4,
            (ClbBorder) b, FALSE, CONTENT_GREY_NOISE, 5, sigmas[s]);
        fail_unless (worst <= 1, "grey noise, sigma-range %g, %u channels, "
            "border %u: off by %u", sigmas[s], c, b, worst);
        worst = worst_with (engine, 83, 19, c, CLB_SAMPLES_8, 255, 4,
            (ClbBorder) b, FALSE, CONTENT_EDGES, 5, sigmas[s]);
        fail_unless (worst <= 1, "edges, sigma-range %g, %u channels, "
            "border %u: off by %u", sigmas[s], c, b, worst);
      }
    }
    /* 16-bit: bilateral_gpu with the flushed tables */
    worst = worst_with (engine, 41, 13, 3, CLB_SAMPLES_16, 65535, 3,
        CLB_BORDER_REFLECT, FALSE, CONTENT_GREY_NOISE, 2, sigmas[s]);
    fail_unless (worst <= 1, "16-bit grey noise, sigma-range %g: off by %u",
        sigmas[s], worst);
    worst = worst_with (engine, 41, 13, 1, CLB_SAMPLES_16, 1023, 3,
        CLB_BORDER_SHRINK, FALSE, CONTENT_EDGES, 2, sigmas[s]);
    fail_unless (worst <= 1, "10-bit edges, sigma-range %g: off by %u",
        sigmas[s], worst);
  }
  /* spatial weights of e^-100 and less (window bound ceil (3 sigma) = 1) */
  for (c = 1; c <= 4; c++) {
    worst = worst_with (engine, 37, 9, c, CLB_SAMPLES_8, 255, 3,
        CLB_BORDER_REPLICATE, FALSE, CONTENT_GREY_NOISE, 0.1, 30);
    fail_unless (worst <= 1, "sigma-spatial 0.1, %u channels: off by %u", c,
        worst);
  }
  /* a kept channel, left out of the distance */
  worst = worst_with (engine, 50, 11, 4, CLB_SAMPLES_8, 255, 4,
      CLB_BORDER_REFLECT, TRUE, CONTENT_GREY_NOISE, 5, 0.5);
  fail_unless (worst <= 1, "kept channel: off by %u", worst);
  if (clb_engine_get_loop_cap (engine) == 0)
    fail_unless (clcheck_lines_with (log, "variant bilateral_x16") > 0);
  /* 16-bit: bilateral_gpu, or bilateral_global where loops are capped */
  fail_unless (clcheck_lines_with (log, "variant bilateral_gpu")
      + clcheck_lines_with (log, "variant bilateral_global") > 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Odd sizes and radii around bilateral_x16's 16-pixel blocks: frames
 * narrower than a block, one pixel more or less than whole blocks;
 * radii whose edge span (16 + 2 rx) just fits its private staging (24)
 * or just does not (25, the per-lane gather), and windows wider than
 * the frame. */
GST_START_TEST (test_bilateral_cpu_blocks)
{
  static const guint widths[] = { 1, 5, 15, 16, 17, 31, 33, 47, 65, 97 };
  static const guint radii[] = { 1, 7, 8, 9, 15, 16, 17, 24, 25 };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, log, CLB_DEVICE_CLASS_CPU);
  guint wi, r, worst;

  for (wi = 0; wi < G_N_ELEMENTS (widths); wi++) {
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      guint c = 1 + (wi + r) % 4;
      ClbBorder b = (ClbBorder) ((wi + 2 * r) % 3);
      guint h = 3 + (wi * 7 + r) % 11;

      worst = worst_with (engine, widths[wi], h, c, CLB_SAMPLES_8, 255,
          radii[r], b, FALSE, (wi + r) % 2 ? CONTENT_GREY_NOISE :
          CONTENT_EDGES, radii[r] / 2.0, 20);
      fail_unless (worst <= 1, "%ux%u, radius %u, %u channels, border %u: "
          "off by %u", widths[wi], h, radii[r], c, b, worst);
    }
  }
  if (clb_engine_get_loop_cap (engine) == 0)
    fail_unless (clcheck_lines_with (log, "variant bilateral_x16") > 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
enginebilateral_suite (void)
{
  Suite *s = suite_create ("engine_bilateral");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bilateral_gpu_choice);
  tcase_add_test (tc, test_bilateral_gpu_small);
  tcase_add_test (tc, test_bilateral_gpu_frames);
  tcase_add_test (tc, test_bilateral_cpu_weights);
  tcase_add_test (tc, test_bilateral_cpu_blocks);
  return s;
}

GST_CHECK_MAIN (enginebilateral);
