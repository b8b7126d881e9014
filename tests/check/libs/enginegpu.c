/* Unit tests of the box methods' GPU-shaped variants (sat_gpu,
 * separable_gpu; gst/clblur/enginegpu.c) against the plain-C reference,
 * on whatever device runs the suite with the GPU class forced, and the
 * table's choice between them and the generic rows. Part of the engine
 * test (engine.c adds these cases).
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

void enginegpu_add_tests (TCase * tc);

/* A storage layout for the test frames. */
typedef struct {
  ClbSampleSize size;
  guint shift;
  gboolean big_endian;
  guint pixel_stride;           /* > channels: a padding container first */
} Layout;

static const Layout layouts[] = {
  {CLB_SAMPLES_8, 0, FALSE, 0},         /* dense */
  {CLB_SAMPLES_8, 0, FALSE, 1},         /* xRGB-like: one before */
  {CLB_SAMPLES_16, 0, FALSE, 0},        /* 16-bit */
  {CLB_SAMPLES_16, 6, TRUE, 1},         /* P010-like, big-endian, strided */
};

/* Filters a random @w x @h frame of @channels in layout @l and returns
 * the largest difference of the filtered channels from the reference. */
static guint
gpu_worst (ClbEngine * engine, const ClbParams * params, const Layout * l,
    guint w, guint h, guint channels)
{
  gboolean deep = l->size == CLB_SAMPLES_16;
  guint bits = deep ? (l->shift ? 10 : 16) : 8;
  guint max_value = (1u << bits) - 1;
  guint pad = l->pixel_stride > 0 ? 1 : 0, stride_c = channels + pad;
  gsize bytes = deep ? 2 : 1, n = (gsize) w * h * channels, i;
  gsize stride = (gsize) w * stride_c * bytes;
  guint8 *in = g_malloc (stride * h), *out = g_malloc (stride * h);
  guint16 *vin = g_new (guint16, n), *ref = g_new (guint16, n);
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  guint c, worst = 0;

  memset (&planes, 0, sizeof (planes));
  memset (&job, 0, sizeof (job));
  planes.width = w;
  planes.height = h;
  planes.sample_size = l->size;
  planes.shift = l->shift;
  planes.big_endian = l->big_endian;
  planes.max_value = max_value;
  planes.n_planes = 1;
  planes.plane_width[0] = w * stride_c;
  planes.plane_height[0] = h;
  job.width = w;
  job.height = h;
  job.channels = channels;
  job.pixel_stride = stride_c;
  for (c = 0; c < channels; c++)
    job.offset[c] = pad + c;
  job.dist_mask = (1u << channels) - 1;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");

  for (i = 0; i < (gsize) w * h * stride_c; i++) {
    guint v = g_random_int_range (0, max_value + 1);
    gsize pixel = i / stride_c, k = i % stride_c;

    if (k >= pad)
      vin[pixel * channels + k - pad] = v;
    if (deep) {
      guint16 cont = (guint16) (v << l->shift);

      ((guint16 *) in)[i] = l->big_endian ? GUINT16_SWAP_LE_BE (cont) : cont;
    } else {
      in[i] = v;
    }
  }
  fail_unless (clcheck_filter_plane (engine, params, &job, 1, src, &stride,
          dst, &stride, &err), "%s", err ? err->message : "");
  ref_box_blur (vin, ref, w, h, channels, params->radius_x, params->radius_y,
      (RefBorder) params->border, params->passes);
  for (i = 0; i < n; i++) {
    gsize at = i / channels * stride_c + pad + i % channels;
    guint v;

    if (deep) {
      guint16 cont = ((guint16 *) out)[at];

      v = (l->big_endian ? GUINT16_SWAP_LE_BE (cont) : cont) >> l->shift;
    } else {
      v = out[at];
    }
    worst = MAX (worst, (guint) ABS ((gint) v - (gint) ref[i]));
  }
  g_free (in);
  g_free (out);
  g_free (vin);
  g_free (ref);
  return worst;
}

/* sat_gpu and separable_gpu equal the reference bit for bit: radii 0 to
 * 2047 (windows past the frame), every border, frames from 1x1 up, 8- and
 * 16-bit samples, 1 to 4 channels, dense and strided, shifted and
 * big-endian; and the log names them. */
GST_START_TEST (test_gpu_box_variants)
{
  static const guint radii[] = { 0, 1, 2, 15, 50, 300, 2047 };
  static const guint sizes[][2] = { {1, 1}, {7, 3}, {33, 17}, {640, 480} };
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngineOptions options;
  GError *err = NULL;
  ClbRuntime *rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);
  ClbEngine *engine;
  guint s, r, j, b, m, l, n = 0;

  fail_unless (rt != NULL, "%s", err ? err->message : "");
  fail_unless (clb_runtime_build_program (rt, NULL, &err), "%s",
      err ? err->message : "");
  clb_engine_options_init (&options);
  options.device_class = CLB_DEVICE_CLASS_GPU;
  options.log = clcheck_collect_log;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gboolean large = sizes[s][0] > 100;

    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      /* ry = rx, and (small frames) ry another radius */
      for (j = 0; j < (large ? 1u : 2u); j++) {
        for (b = CLB_BORDER_SHRINK; b <= CLB_BORDER_REFLECT; b++) {
          for (m = CLB_METHOD_SAT; m <= CLB_METHOD_SEPARABLE; m++) {
            for (l = 0; l < G_N_ELEMENTS (layouts); l++) {
              /* large frames: RGBA dense and one 16-bit layout */
              guint channels = large ? 4 : 1 + (r + l + j) % 4;
              ClbParams params = { 0, };
              guint worst;

              if (large && l != 0 && l != 3 - (r % 2))
                continue;
              params.method = m;
              params.border = b;
              params.radius_x = radii[r];
              params.radius_y = radii[(r + 3 * j) % G_N_ELEMENTS (radii)];
              params.passes = !large && s == 2 && b == 1 ? 3 : 1;
              worst = gpu_worst (engine, &params, &layouts[l], sizes[s][0],
                  sizes[s][1], channels);
              fail_unless (worst == 0, "%ux%u, method %u, radii %u,%u, "
                  "border %u, layout %u, %u channels: off by %u",
                  sizes[s][0], sizes[s][1], m, params.radius_x,
                  params.radius_y, b, l, channels, worst);
              n++;
            }
          }
        }
      }
    }
  }
  g_print ("gpu box variants: %u frames equal the reference (log lines: "
      "%u sat_gpu, %u separable_gpu, %u generic)\n", n,
      clcheck_lines_with (log, "variant sat_gpu"),
      clcheck_lines_with (log, "variant separable_gpu"),
      clcheck_lines_with (log, "variant sat (")
      + clcheck_lines_with (log, "variant separable ("));
  fail_unless (clcheck_lines_with (log, "variant sat_gpu") > 0);
  fail_unless (clcheck_lines_with (log, "variant separable_gpu") > 0);
  clb_engine_free (engine);
  clb_runtime_free (rt);
  g_ptr_array_unref (log);
}

GST_END_TEST;

static ClbDeviceProfile
gpu_profile (void)
{
  ClbDeviceProfile p;
  guint s;

  memset (&p, 0, sizeof (p));
  p.device_class = CLB_DEVICE_CLASS_GPU;
  p.compute_units = 132;
  p.local_mem_size = 48 * 1024;
  p.max_work_group_size = 1024;
  p.max_items[0] = p.max_items[1] = p.max_items[2] = 1024;
  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    p.bilateral_gpu_max_wg[s] = p.gpu_line_max_wg[s] = 1024;
  return p;
}

static const gchar *
gpu_choose (const ClbDeviceProfile * p, ClbMethod method,
    const ClbPlanes * planes, const ClbJob * job, guint r)
{
  ClbWorkShape shape;
  const ClbVariant *v = clb_variant_choose (p, method, planes, NULL, job, r, r,
      &shape);

  return v ? clb_variant_get_name (v) : NULL;
}

/* The GPU rows take what they can, the generic rows the rest: a row's
 * scan beyond local memory, loops beyond the cap, an intermediate beyond
 * the memory budget, kernels with no work-group size known. */
GST_START_TEST (test_gpu_box_table)
{
  ClbDeviceProfile gpu = gpu_profile (), p;
  ClbPlanes planes;
  ClbJob job;
  ClbWorkShape shape;

  memset (&planes, 0, sizeof (planes));
  memset (&job, 0, sizeof (job));
  planes.width = 1920;
  planes.height = 1080;
  planes.sample_size = CLB_SAMPLES_8;
  planes.max_value = 255;
  planes.n_planes = 1;
  planes.plane_width[0] = 1920 * 4;
  planes.plane_height[0] = 1080;
  job.width = 1920;
  job.height = 1080;
  job.channels = 4;
  job.pixel_stride = 4;
  job.offset[1] = 1;
  job.offset[2] = 2;
  job.offset[3] = 3;

  fail_unless_equals_string (gpu_choose (&gpu, CLB_METHOD_SAT, &planes, &job,
          15), "sat_gpu");
  fail_unless_equals_string (gpu_choose (&gpu, CLB_METHOD_SEPARABLE, &planes,
          &job, 15), "separable_gpu");
  /* row scans in work-groups of 256 (of the kernels' 1024), then 64 */
  fail_unless (clb_variant_choose (&gpu, CLB_METHOD_SAT, &planes, NULL, &job,
          15, 15, &shape) != NULL);
  fail_unless_equals_int (shape.local[0], 256);
  p = gpu;
  p.gpu_line_max_wg[CLB_SAMPLES_8] = 100;
  fail_unless (clb_variant_choose (&p, CLB_METHOD_SEPARABLE, &planes, NULL,
          &job, 15, 15, &shape) != NULL);
  fail_unless_equals_int (shape.local[0], 64);
  /* 1920 + 2 * 2047 uints and a group's totals: over 16 KiB */
  fail_unless_equals_string (gpu_choose (&gpu, CLB_METHOD_SEPARABLE, &planes,
          &job, 2047), "separable_gpu");
  p = gpu;
  p.local_mem_size = 16 * 1024;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 2047), "separable");
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SAT, &planes, &job,
          2047), "sat_gpu");
  /* 16-bit: a row of the table is 1921 ulongs */
  planes.sample_size = CLB_SAMPLES_16;
  p.local_mem_size = 8 * 1024;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SAT, &planes, &job,
          5), "sat");
  planes.sample_size = CLB_SAMPLES_8;
  /* loops capped (llvmpipe): the column chunks of radius 2047 do not fit */
  p = gpu;
  p.loop_cap = 4000;
  p.loop_budget = 2000;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 15), "separable_gpu");
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 2047), "separable");
  /* an intermediate over the budget: the generic rows, in bands (radius
   * 15: 16-bit window sums, 2 bytes a sample; the table 4) */
  p = gpu;
  p.max_alloc = 1920 * 1080 * 4 * 4 - 1;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 15), "separable_gpu");
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SAT, &planes, &job,
          15), "sat");
  p.max_alloc = 1920 * 1080 * 4 * 2 - 1;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 15), "separable");
  /* radius 200: 401 x 255 is over 16 bits, the sums 4 bytes a sample */
  p.max_alloc = 1920 * 1080 * 4 * 4 - 1;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SEPARABLE, &planes,
          &job, 200), "separable");
  /* no work-group size known */
  p = gpu;
  p.gpu_line_max_wg[CLB_SAMPLES_8] = 0;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SAT, &planes, &job,
          15), "sat");
  /* the CPU class keeps its rows */
  p = gpu;
  p.device_class = CLB_DEVICE_CLASS_CPU;
  fail_unless_equals_string (gpu_choose (&p, CLB_METHOD_SAT, &planes, &job,
          15), "sat_ring");
}

GST_END_TEST;

void
enginegpu_add_tests (TCase * tc)
{
  tcase_add_test (tc, test_gpu_box_table);
  tcase_add_test (tc, test_gpu_box_variants);
}
