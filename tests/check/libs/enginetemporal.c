/* Unit tests of method temporal (gst/clblur/enginetemporal.c,
 * kernels/temporal.cl): sequences of frames through the engine against
 * the plain-C reference (ref_temporal_frame) bit for bit, frame after
 * frame: channel counts, 8-, 10- and 16-bit samples, odd sizes, borders,
 * padded rows and pixel strides, two planes (NV12's luma and chroma, the
 * chroma subsampled), the noise level estimated or fixed; and the reset
 * (nothing of the frames before it shows).
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
#include "refblur.h"
#include "clcheck.h"

#define FRAMES 7

/* Frame @f of a sequence: a ramp, a square moving 2 pixels a frame, a
 * cut to other content at frame 4, and noise of about @noise (native
 * units), clipped. */
static guint16
sample (GRand * rand, guint x, guint y, guint c, guint f, guint max_value,
    gdouble noise)
{
  gdouble v = f < 4 ? (gdouble) (x + 2 * y + 16 * c) / 64.0 :
      0.5 + 0.4 * sin (x / 3.0 + c);
  gdouble n = 0.0;
  guint i;

  if (x >= 2 * f + 3 && x < 2 * f + 9 && y >= 2 && y < 8)
    v = 0.9;
  for (i = 0; i < 4; i++)
    n += g_rand_double (rand) - 0.5;
  v = fmod (v, 1.0) * max_value + n * noise * 1.732;
  return (guint16) CLAMP (floor (v + 0.5), 0, max_value);
}

/* An engine of @device_class (AUTO: the device's), its log lines into
 * @log (NULL: none). */
static ClbEngine *
make_engine (ClbRuntime * rt, GPtrArray * log, ClbDeviceClass device_class)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_init (&options);
  options.device_class = device_class;
  if (log) {
    options.log = clcheck_collect_log;
    options.log_data = log;
  }
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

typedef struct {
  guint w, h, channels, pstride, pad;   /* pixels; containers a pixel */
  ClbSampleSize size;
  guint max_value;
  guint radius;
  gdouble sigma_spatial, noise_level;
  ClbBorder border;
  guint reach;
} Case;

/* Runs FRAMES frames of one plane through @engine and the reference;
 * with @reset_at > 0, resets both (a fresh reference) before that frame.
 * Fails at the first sample that differs. */
static void
run_case (ClbEngine * engine, const Case * k, guint reset_at)
{
  ClbParams params = { 0, };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  RefTemporal ref;
  GRand *rand = g_rand_new_with_seed (k->w * 131 + k->h + k->channels);
  gsize n = (gsize) k->w * k->h * k->channels;
  guint bytes = k->size == CLB_SAMPLES_8 ? 1 : 2;
  guint row = (k->w * k->pstride + k->pad);
  gsize stride = (gsize) row * bytes;
  guint8 *in = g_malloc0 (stride * k->h), *out = g_malloc0 (stride * k->h);
  guint16 *src = g_new (guint16, n), *want = g_new (guint16, n);
  guint rx = clb_bilateral_radius (k->radius, k->sigma_spatial);
  guint f, x, y, c;
  gint level;

  clcheck_one_plane (k->w, k->h, k->channels, k->size, k->max_value,
      &planes, &job);
  planes.plane_width[0] = row;
  job.pixel_stride = k->pstride;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  params.method = CLB_METHOD_TEMPORAL;
  params.border = k->border;
  params.radius_x = params.radius_y = k->radius;
  params.passes = 1;
  params.sigma_spatial = k->sigma_spatial;
  params.noise_level = k->noise_level;
  params.temporal_reach = k->reach;
  rx = MIN (rx, CLB_MAX_TEMPORAL_RADIUS);
  fail_unless (ref_temporal_init (&ref, k->w, k->h, k->channels) == 0);
  clb_engine_temporal_reset (engine);
  for (f = 0; f < FRAMES; f++) {
    const guint8 *srcs[1] = { in };
    guint8 *dsts[1] = { out };

    for (y = 0; y < k->h; y++)
      for (x = 0; x < k->w; x++)
        for (c = 0; c < k->channels; c++) {
          guint16 v = sample (rand, x, y, c, f, k->max_value,
              k->max_value / 20.0);
          gsize at = (gsize) y * row + (gsize) x * k->pstride + c;

          src[((gsize) y * k->w + x) * k->channels + c] = v;
          if (bytes == 1)
            in[at] = (guint8) v;
          else
            ((guint16 *) in)[at] = v;
        }
    if (reset_at && f == reset_at) {
      clb_engine_temporal_reset (engine);
      ref_temporal_clear (&ref);
      fail_unless (ref_temporal_init (&ref, k->w, k->h, k->channels) == 0);
    }
    fail_unless (clcheck_filter_plane (engine, &params, &job, 1, srcs,
            &stride, dsts, &stride, &err), "%s", err ? err->message : "");
    fail_unless (ref_temporal_frame (&ref, src, want, job.dist_mask,
            k->max_value, (gint) floor (k->noise_level * 16 + 0.5),
            k->reach ? k->reach : CLB_DEFAULT_TEMPORAL_REACH, rx, rx,
            k->sigma_spatial, (RefBorder) k->border) == 0);
    for (y = 0; y < k->h; y++)
      for (x = 0; x < k->w; x++)
        for (c = 0; c < k->channels; c++) {
          gsize at = (gsize) y * row + (gsize) x * k->pstride + c;
          guint got = bytes == 1 ? out[at] : ((guint16 *) out)[at];
          guint w = want[((gsize) y * k->w + x) * k->channels + c];

          fail_unless (got == w, "%ux%u, %u channels, max %u, radius %u, "
              "border %d, frame %u: (%u, %u) channel %u is %u, the "
              "reference %u", k->w, k->h, k->channels, k->max_value,
              k->radius, k->border, f, x, y, c, got, w);
        }
    /* the level the frame was filtered at: frames 0 .. f - 2's */
    level = ref.level16;
    fail_unless (fabs (clb_engine_noise_level (engine) - MAX (level, 0)
            / 16.0) < 1e-9, "frame %u: level %g, the reference's %d / 16",
        f, clb_engine_noise_level (engine), level);
  }
  ref_temporal_clear (&ref);
  g_rand_free (rand);
  g_free (in);
  g_free (out);
  g_free (src);
  g_free (want);
}

/* Every channel count and sample width, odd sizes, every border, padded
 * rows and gaps between pixels, the level fixed or estimated; on the
 * device's class and on each forced: CPUs run 8-bit jobs' spatial step
 * in temporal_spatial_x16 (the row temporal_x16), 16-bit ones and GPUs
 * in temporal_spatial. */
GST_START_TEST (test_temporal_reference)
{
  static const Case cases[] = {
    {1, 1, 1, 1, 0, CLB_SAMPLES_8, 255, 2, 1.5, 0, CLB_BORDER_SHRINK, 0},
    {37, 23, 1, 1, 3, CLB_SAMPLES_8, 255, 2, 1.5, 0, CLB_BORDER_SHRINK, 0},
    {37, 23, 2, 2, 0, CLB_SAMPLES_8, 255, 3, 3.0, 0, CLB_BORDER_REFLECT, 4},
    {41, 29, 3, 4, 5, CLB_SAMPLES_8, 255, 2, 1.5, 0, CLB_BORDER_REPLICATE, 8},
    {64, 48, 4, 4, 0, CLB_SAMPLES_8, 255, 2, 1.5, 0, CLB_BORDER_SHRINK, 8},
    /* as many samples, another shape: the state's buffers made anew */
    {96, 32, 4, 4, 0, CLB_SAMPLES_8, 255, 2, 1.5, 0, CLB_BORDER_SHRINK, 8},
    {64, 48, 3, 3, 0, CLB_SAMPLES_8, 255, 9, 4.0, 12.5, CLB_BORDER_SHRINK,
        32},
    {45, 33, 1, 1, 1, CLB_SAMPLES_16, 1023, 2, 1.5, 0, CLB_BORDER_REFLECT,
        8},
    {33, 35, 3, 3, 0, CLB_SAMPLES_16, 65535, 2, 1.5, 0, CLB_BORDER_SHRINK,
        1},
    {40, 40, 4, 4, 2, CLB_SAMPLES_16, 65535, 1, 0.0, 0,
        CLB_BORDER_REPLICATE, 8},
  };
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_AUTO,
    CLB_DEVICE_CLASS_CPU, CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint i, k;

  for (k = 0; k < G_N_ELEMENTS (classes); k++) {
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    ClbEngine *engine = make_engine (rt, log, classes[k]);

    for (i = 0; i < G_N_ELEMENTS (cases); i++)
      run_case (engine, &cases[i], 0);
    if (classes[k] != CLB_DEVICE_CLASS_AUTO) {
      fail_unless_equals_int (clcheck_lines_with (log,
              "variant temporal_x16") > 0,
          classes[k] == CLB_DEVICE_CLASS_CPU);
      fail_unless (clcheck_lines_with (log, "variant temporal (") > 0);
    }
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* A reset mid-sequence: the frame after it is what a fresh reference
 * makes of it alone, nothing of the frames before. */
GST_START_TEST (test_temporal_reset)
{
  static const Case k = { 48, 32, 3, 3, 0, CLB_SAMPLES_8, 255, 2, 1.5, 0,
    CLB_BORDER_SHRINK, 8
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngine *engine = make_engine (rt, NULL, CLB_DEVICE_CLASS_AUTO);

  run_case (engine, &k, 3);
  run_case (engine, &k, 5);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* NV12: luma and the interleaved chroma (subsampled 2 x 2, its radius
 * scaled) as two jobs on two planes, each with a history of its own. */
GST_START_TEST (test_temporal_nv12)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngine *engine = make_engine (rt, NULL, CLB_DEVICE_CLASS_AUTO);
  ClbParams params = { 0, };
  ClbPlanes planes = { 0, };
  ClbJob jobs[2];
  GError *err = NULL;
  RefTemporal ref[2];
  GRand *rand = g_rand_new_with_seed (12);
  const guint w = 38, h = 26, cw = w / 2, ch = h / 2;
  gsize stride[2] = { w + 2, w + 4 };
  guint8 *in[2], *out[2];
  guint16 *src[2], *want[2];
  guint f, j, x, y, c;

  planes.width = w;
  planes.height = h;
  planes.sample_size = CLB_SAMPLES_8;
  planes.max_value = 255;
  planes.n_planes = 2;
  planes.plane_width[0] = stride[0];
  planes.plane_height[0] = h;
  planes.plane_width[1] = stride[1];
  planes.plane_height[1] = ch;
  memset (jobs, 0, sizeof (jobs));
  jobs[0].width = w;
  jobs[0].height = h;
  jobs[0].channels = 1;
  jobs[0].pixel_stride = 1;
  jobs[0].dist_mask = 1;
  jobs[1].plane = 1;
  jobs[1].width = cw;
  jobs[1].height = ch;
  jobs[1].channels = 2;
  jobs[1].pixel_stride = 2;
  jobs[1].offset[1] = 1;
  jobs[1].dist_mask = 3;
  jobs[1].x_sub = jobs[1].y_sub = 1;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  params.method = CLB_METHOD_TEMPORAL;
  params.border = CLB_BORDER_REFLECT;
  params.radius_x = params.radius_y = 3;
  params.passes = 1;
  params.sigma_spatial = 1.5;
  for (j = 0; j < 2; j++) {
    in[j] = g_malloc0 (stride[j] * planes.plane_height[j]);
    out[j] = g_malloc0 (stride[j] * planes.plane_height[j]);
    src[j] = g_new (guint16, jobs[j].width * jobs[j].height * 2);
    want[j] = g_new (guint16, jobs[j].width * jobs[j].height * 2);
    fail_unless (ref_temporal_init (&ref[j], jobs[j].width, jobs[j].height,
            jobs[j].channels) == 0);
  }
  for (f = 0; f < FRAMES; f++) {
    ClbFrame fin, fout;

    for (j = 0; j < 2; j++)
      for (y = 0; y < jobs[j].height; y++)
        for (x = 0; x < jobs[j].width; x++)
          for (c = 0; c < jobs[j].channels; c++) {
            guint16 v = sample (rand, x << j, y << j, c + j, f, 255, 12);

            src[j][(y * jobs[j].width + x) * jobs[j].channels + c] = v;
            in[j][y * stride[j] + x * jobs[j].channels + c] = (guint8) v;
          }
    clb_frame_init_host (&fin, 2, (const guint8 * const *) in, stride);
    clb_frame_init_host (&fout, 2, (const guint8 * const *) out, stride);
    fail_unless (clb_engine_filter (engine, &params, jobs, 2, &fin, &fout,
            &err), "%s", err ? err->message : "");
    for (j = 0; j < 2; j++) {
      guint r = clb_bilateral_radius (clb_scale_radius (3, j), 1.5);

      fail_unless (ref_temporal_frame (&ref[j], src[j], want[j],
              jobs[j].dist_mask, 255, 0, CLB_DEFAULT_TEMPORAL_REACH, r, r,
              1.5, REF_BORDER_REFLECT) == 0);
      for (y = 0; y < jobs[j].height; y++)
        for (x = 0; x < jobs[j].width; x++)
          for (c = 0; c < jobs[j].channels; c++) {
            guint got = out[j][y * stride[j] + x * jobs[j].channels + c];
            guint wv = want[j][(y * jobs[j].width + x) * jobs[j].channels
                + c];

            fail_unless (got == wv, "plane %u, frame %u: (%u, %u) channel "
                "%u is %u, the reference %u", j, f, x, y, c, got, wv);
          }
    }
  }
  for (j = 0; j < 2; j++) {
    ref_temporal_clear (&ref[j]);
    g_free (in[j]);
    g_free (out[j]);
    g_free (src[j]);
    g_free (want[j]);
  }
  g_rand_free (rand);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
enginetemporal_suite (void)
{
  Suite *s = suite_create ("engine_temporal");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_temporal_reference);
  tcase_add_test (tc, test_temporal_reset);
  tcase_add_test (tc, test_temporal_nv12);
  return s;
}

GST_CHECK_MAIN (enginetemporal);
