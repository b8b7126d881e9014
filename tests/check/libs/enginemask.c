/* Unit tests of the engine's alpha mask (ClbParams.mask, enginemask.c,
 * kernels/mask.cl) on its own: both device classes, 8- and 16-bit
 * samples, the alpha first or last in the pixel, a job that holds the
 * alpha (which must come out as it went in) or not, feather on and off,
 * every border, intermediates in bands, against ref_mask_blur; mask_x16's
 * fused rows around their vector steps, radii and feathers; the alpha
 * in a plane of its own (full-size and subsampled jobs); the variant each
 * class runs; a mask outside the planes refused.
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

static ClbEngine *
make_engine (ClbRuntime * rt, ClbDeviceClass device_class, guint64 max_alloc,
    GPtrArray * log)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_init (&options);
  options.device_class = device_class;
  options.max_alloc = max_alloc;
  options.log = log ? clcheck_collect_log : NULL;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

/* One frame of w x h pixels of 4 samples, alpha at @lane, block alphas
 * (all max, all 0, random); the engine's masked box against the
 * reference. @with_alpha: the job holds all 4 channels, alpha among them
 * (the engine leaves it out); else the 3 colour channels. Returns the
 * largest difference of a colour sample; fails at once on an alpha that
 * changed. @skew (8 bits only): the input's rows @skew bytes longer than
 * the pixels and the first @skew bytes into its memory, the output's
 * 2 @skew (pitches and addresses that are not multiples of 4 for 1 and
 * 3). */
static guint
masked_worst_skewed (ClbEngine * engine, guint w, guint h, gboolean wide,
    guint lane, gboolean with_alpha, guint rx, guint ry, guint feather,
    ClbBorder border, guint32 seed, guint skew)
{
  ClbSampleSize size = wide ? CLB_SAMPLES_16 : CLB_SAMPLES_8;
  guint max = wide ? 65535 : 255, c, k;
  ClbParams params = { 0, };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize np = (gsize) w * h, i;
  gsize stride = (gsize) w * 4 * (wide ? 2 : 1);
  gsize in_stride = stride + skew, out_stride = stride + 2 * skew;
  guint16 *in = g_new (guint16, np * 4), *out = g_new (guint16, np * 4);
  guint8 *in_mem = g_malloc0 (in_stride * h + skew);
  guint8 *out_mem = g_malloc0 (out_stride * h + 2 * skew);
  guint8 *in8 = in_mem + skew, *out8 = out_mem + 2 * skew;
  guint16 *colour = g_new (guint16, np * 3), *ref = g_new (guint16, np * 3);
  guint16 *alpha = g_new (guint16, np), *blend = g_new (guint16, np);
  const guint8 *src[1];
  guint8 *dst[1];
  guint worst = 0;

  clcheck_one_plane (w, h, 4, size, max, &planes, &job);
  if (!with_alpha) {
    job.channels = 0;
    for (c = 0; c < 4; c++) {
      if (c != lane)
        job.offset[job.channels++] = c;
    }
    job.dist_mask = 7;
  }
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < np; i++) {
    guint x = i % w, y = i / w, kind = (x / 5 + y / 3 + seed) % 3;

    for (c = 0; c < 4; c++)
      in[i * 4 + c] = g_rand_int_range (rand, 0, max + 1);
    in[i * 4 + lane] = kind == 0 ? max : kind == 1 ? 0 :
        (guint) g_rand_int_range (rand, 0, max + 1);
    for (c = 0; c < 4; c++)
      in8[y * in_stride + x * 4 + c] = (guint8) in[i * 4 + c];
    alpha[i] = in[i * 4 + lane];
    for (c = 0, k = 0; c < 4; c++) {
      if (c != lane)
        colour[i * 3 + k++] = in[i * 4 + c];
    }
  }
  params.method = CLB_METHOD_SEPARABLE;
  params.border = border;
  params.radius_x = rx;
  params.radius_y = ry;
  params.passes = 1;
  params.mask = TRUE;
  params.mask_plane = 0;
  params.mask_offset = lane;
  params.mask_pixel_stride = 4;
  params.mask_feather = feather;
  src[0] = wide ? (const guint8 *) in : in8;
  dst[0] = wide ? (guint8 *) out : out8;
  g_assert (skew == 0 || !wide);
  fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src,
          wide ? &stride : &in_stride, dst, wide ? &stride : &out_stride,
          &err), "%s", err ? err->message : "");

  if (feather > 0)
    fail_unless (ref_box_blur (alpha, blend, w, h, 1, feather, feather,
            (RefBorder) border, 1) == 0);
  else
    memcpy (blend, alpha, np * sizeof (guint16));
  fail_unless (ref_mask_blur (colour, alpha, blend, NULL, ref, w, h, 3, rx,
          ry, (RefBorder) border, max) == 0);
  for (i = 0; i < np; i++) {
    for (c = 0, k = 0; c < 4; c++) {
      guint got = wide ? out[i * 4 + c] : out8[(i / w) * out_stride
          + (i % w) * 4 + c];

      if (c == lane) {
        fail_unless (got == in[i * 4 + c], "alpha of pixel %" G_GSIZE_FORMAT
            " is %u, was %u", i, got, in[i * 4 + c]);
        continue;
      }
      worst = MAX (worst, (guint) ABS ((gint) got - (gint) ref[i * 3 + k]));
      k++;
    }
  }
  g_rand_free (rand);
  g_free (in);
  g_free (out);
  g_free (in_mem);
  g_free (out_mem);
  g_free (colour);
  g_free (ref);
  g_free (alpha);
  g_free (blend);
  return worst;
}

static guint
masked_worst (ClbEngine * engine, guint w, guint h, gboolean wide,
    guint lane, gboolean with_alpha, guint rx, guint ry, guint feather,
    ClbBorder border, guint32 seed)
{
  return masked_worst_skewed (engine, w, h, wide, lane, with_alpha, rx, ry,
      feather, border, seed, 0);
}

/* Both classes, 8 and 16 bits, alpha first or last, the job with or
 * without it, feather off and on, every border, odd sizes. */
GST_START_TEST (test_mask_engine)
{
  static const guint sizes[][2] = { {1, 1}, {5, 3}, {37, 23} };
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint cl, wide, lane, with, feather, b, z, seed = 1;

  for (cl = 0; cl < G_N_ELEMENTS (classes); cl++) {
    ClbEngine *engine = make_engine (rt, classes[cl], 0, NULL);

    for (wide = 0; wide < 2; wide++)
      for (lane = 0; lane < 4; lane += 3)
        for (with = 0; with < 2; with++)
          for (feather = 0; feather <= 2; feather += 2)
            for (b = 0; b < 3; b++)
              for (z = 0; z < G_N_ELEMENTS (sizes); z++, seed++)
                fail_unless_equals_int (masked_worst (engine, sizes[z][0],
                        sizes[z][1], wide, lane, with, 3, 2, feather, b,
                        seed), 0);
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The variants: on the CPU class, 8-bit pixels of 4 bytes take mask_x16
 * (where the device does not cap loops), 16-bit ones mask_cpu; the GPU
 * class the generic mask. */
GST_START_TEST (test_mask_variants)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_CPU, 0, log);

  fail_unless_equals_int (masked_worst (engine, 40, 20, FALSE, 3, FALSE, 4,
          4, 0, CLB_BORDER_SHRINK, 7), 0);
  if (clb_engine_get_loop_cap (engine) == 0)
    fail_unless (clcheck_lines_with (log, "variant mask_x16") > 0);
  fail_unless_equals_int (masked_worst (engine, 40, 20, TRUE, 3, FALSE, 4,
          4, 0, CLB_BORDER_SHRINK, 8), 0);
  fail_unless (clcheck_lines_with (log, "variant mask_cpu") > 0);
  clb_engine_free (engine);
  g_ptr_array_set_size (log, 0);
  engine = make_engine (rt, CLB_DEVICE_CLASS_GPU, 0, log);
  fail_unless_equals_int (masked_worst (engine, 40, 20, FALSE, 0, TRUE, 4,
          4, 1, CLB_BORDER_REFLECT, 9), 0);
  fail_unless (clcheck_lines_with (log, "variant mask ") > 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* mask_x16's fused rows (from one buffer into another, the CPU class):
 * widths around the 4- and 16-pixel steps of its padded rows of sums,
 * radii and feathers past the frame's width and past a 16-pixel step
 * (several of shrink's end steps), the alpha in each of the 4 lanes,
 * every border. The GPU class runs the same frames (the generic mask:
 * mask_x16 is the CPU class's). */
GST_START_TEST (test_mask_x16_rows)
{
  static const guint widths[] = { 1, 3, 4, 15, 17, 67 };
  static const guint radii[][2] = { {1, 1}, {9, 2}, {40, 3} };
  static const guint feathers[] = { 0, 1, 3, 20 };
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  guint cl, z, rad, f, b, seed = 700;

  for (cl = 0; cl < G_N_ELEMENTS (classes); cl++) {
    ClbEngine *engine = make_engine (rt, classes[cl], 0, log);

    for (z = 0; z < G_N_ELEMENTS (widths); z++)
      for (rad = 0; rad < G_N_ELEMENTS (radii); rad++)
        for (f = 0; f < G_N_ELEMENTS (feathers); f++)
          for (b = 0; b < 3; b++, seed++)
            fail_unless_equals_int (masked_worst (engine, widths[z],
                    7 + z % 3, FALSE, seed % 4, seed % 2, radii[rad][0],
                    radii[rad][1], feathers[f], b, seed), 0);
    if (classes[cl] == CLB_DEVICE_CLASS_CPU
        && clb_engine_get_loop_cap (engine) == 0)
      fail_unless (clcheck_lines_with (log, "variant mask_x16") > 0);
    g_ptr_array_set_size (log, 0);
    clb_engine_free (engine);
  }
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* 4-byte pixels whose rows lie at addresses or pitches that are not
 * multiples of 4 (the engine copies such frames in: mask_fused_x16 reads
 * pixels as uint) and rows longer than their pixels (4 and 8 bytes more:
 * wrapped, the fused kernel at those pitches), both classes, the alpha
 * in each lane, with and without a feather. */
GST_START_TEST (test_mask_x16_pitch)
{
  static const guint widths[] = { 3, 17, 67 };
  static const guint skews[] = { 1, 2, 3, 4 };
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  guint cl, z, k, f, seed = 900;

  for (cl = 0; cl < G_N_ELEMENTS (classes); cl++) {
    ClbEngine *engine = make_engine (rt, classes[cl], 0, log);

    for (z = 0; z < G_N_ELEMENTS (widths); z++)
      for (k = 0; k < G_N_ELEMENTS (skews); k++)
        for (f = 0; f < 2; f++, seed++)
          fail_unless_equals_int (masked_worst_skewed (engine, widths[z], 9,
                  FALSE, seed % 4, seed % 2, 4, 2, f * 3, seed % 3, seed,
                  skews[k]), 0);
    g_ptr_array_set_size (log, 0);
    clb_engine_free (engine);
  }
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* An intermediate larger than one allocation may be: bands of rows
 * (mask_x16, which takes the frame whole, gives way to mask_cpu). */
GST_START_TEST (test_mask_bands)
{
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint cl, feather;

  for (cl = 0; cl < G_N_ELEMENTS (classes); cl++) {
    ClbEngine *engine = make_engine (rt, classes[cl], 40000, NULL);

    for (feather = 0; feather <= 3; feather += 3) {
      fail_unless_equals_int (masked_worst (engine, 61, 47, FALSE, 3, TRUE,
              5, 4, feather, CLB_BORDER_REFLECT, 20 + feather), 0);
      fail_unless_equals_int (masked_worst (engine, 61, 47, TRUE, 0, FALSE,
              2, 6, feather, CLB_BORDER_SHRINK, 30 + feather), 0);
    }
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The engine's radius of a job subsampled by 2^@sub (as the plan scales
 * the feather). */
static guint
scaled (guint r, guint sub)
{
  guint s;

  if (r == 0 || sub == 0)
    return r;
  s = (r + (1u << (sub - 1))) >> sub;
  return MAX (s, 1);
}

/* A frame of two planes: plane 0 the samples of one job (one a pixel, 8
 * bits, the job's pixel subsampled by 2^@xs x 2^@ys, from the plane's
 * byte 1, 2 bytes of the plane's rows past the job's), plane 1 the alpha
 * (w x h, a byte a pixel), block alphas as masked_worst; the box of radii
 * @rx, @ry (the job's own). The engine's masked box against the
 * reference: the job's alpha by ref_alpha_subsample, the feather's by
 * ref_box_blur of it, ref_mask_blur. Returns the largest difference of a
 * sample; fails at once on a byte outside the job that changed. */
static guint
planar_worst (ClbEngine * engine, guint w, guint h, guint xs, guint ys,
    guint rx, guint ry, guint feather, ClbBorder border, guint32 seed)
{
  guint jw = (w + (1u << xs) - 1) >> xs, jh = (h + (1u << ys) - 1) >> ys;
  gsize pw = jw + 3, np = (gsize) w * h, jn = (gsize) jw * jh, i;
  ClbParams params = { 0, };
  ClbPlanes planes = { 0, };
  ClbJob job = { 0, };
  ClbFrame fin, fout;
  GError *err = NULL;
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *in = g_malloc (pw * jh), *out = g_malloc (pw * jh);
  guint8 *alpha8 = g_malloc (np), *alpha_out = g_malloc (np);
  guint16 *alpha = g_new (guint16, np), *ja = g_new (guint16, jn);
  guint16 *blend = g_new (guint16, jn), *colour = g_new (guint16, jn);
  guint16 *ref = g_new (guint16, jn);
  const guint8 *src[2] = { in, alpha8 };
  guint8 *dst[2] = { out, alpha_out };
  gsize stride[2] = { pw, w };
  guint worst = 0, x, y;

  planes.width = w;
  planes.height = h;
  planes.sample_size = CLB_SAMPLES_8;
  planes.max_value = 255;
  planes.n_planes = 2;
  planes.plane_width[0] = pw;
  planes.plane_height[0] = jh;
  planes.plane_width[1] = w;
  planes.plane_height[1] = h;
  job.plane = 0;
  job.width = jw;
  job.height = jh;
  job.channels = 1;
  job.pixel_stride = 1;
  job.offset[0] = 1;
  job.dist_mask = 1;
  job.x_sub = xs;
  job.y_sub = ys;
  job.own_radius = TRUE;
  job.radius_x = rx;
  job.radius_y = ry;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < pw * jh; i++)
    in[i] = g_rand_int_range (rand, 0, 256);
  for (i = 0; i < np; i++) {
    guint kind = (i % w / 5 + i / w / 3 + seed) % 3;

    alpha8[i] = kind == 0 ? 255 : kind == 1 ? 0 :
        g_rand_int_range (rand, 0, 256);
    alpha[i] = alpha8[i];
  }
  for (i = 0; i < jn; i++)
    colour[i] = in[i / jw * pw + 1 + i % jw];
  params.method = CLB_METHOD_SEPARABLE;
  params.border = border;
  params.radius_x = rx;
  params.radius_y = ry;
  params.passes = 1;
  params.mask = TRUE;
  params.mask_plane = 1;
  params.mask_offset = 0;
  params.mask_pixel_stride = 1;
  params.mask_feather = feather;
  clb_frame_init_host (&fin, 2, src, stride);
  clb_frame_init_host (&fout, 2, (const guint8 * const *) dst, stride);
  fail_unless (clb_engine_filter (engine, &params, &job, 1, &fin, &fout,
          &err), "%s", err ? err->message : "");

  ref_alpha_subsample (alpha, w, h, xs, ys, ja);
  if (feather > 0)
    fail_unless (ref_box_blur (ja, blend, jw, jh, 1, scaled (feather, xs),
            scaled (feather, ys), (RefBorder) border, 1) == 0);
  else
    memcpy (blend, ja, jn * sizeof (guint16));
  fail_unless (ref_mask_blur (colour, ja, blend, NULL, ref, jw, jh, 1, rx,
          ry, (RefBorder) border, 255) == 0);
  fail_unless (memcmp (alpha8, alpha_out, np) == 0, "the alpha changed");
  for (y = 0; y < jh; y++) {
    for (x = 0; x < pw; x++) {
      guint got = out[y * pw + x];

      if (x == 0 || x > jw) {
        fail_unless (got == in[y * pw + x], "byte %u of row %u outside the "
            "job is %u, was %u", x, y, got, in[y * pw + x]);
        continue;
      }
      worst = MAX (worst, (guint) ABS ((gint) got - (gint) ref[(gsize) y
                  * jw + x - 1]));
    }
  }
  g_rand_free (rand);
  g_free (in);
  g_free (out);
  g_free (alpha8);
  g_free (alpha_out);
  g_free (alpha);
  g_free (ja);
  g_free (blend);
  g_free (colour);
  g_free (ref);
  return worst;
}

/* The alpha in a plane of its own (A420, planar RGB with alpha): both
 * classes, the job full-size or subsampled 2 x 2 or 2 x 1, feather off
 * and on, every border, odd sizes about the 16 pixels of a vector, radii
 * beyond the frame; on the CPU class (where the device does not cap
 * loops) mask_planar_x16 runs. */
GST_START_TEST (test_mask_planar)
{
  static const guint sizes[][2] = { {1, 1}, {5, 3}, {33, 21}, {67, 9} };
  static const guint radii[][2] = { {3, 2}, {9, 12} };
  static const guint subs[][2] = { {0, 0}, {1, 1}, {1, 0} };
  static const ClbDeviceClass classes[] = { CLB_DEVICE_CLASS_CPU,
    CLB_DEVICE_CLASS_GPU
  };
  ClbRuntime *rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  guint cl, sub, rad, feather, b, z, seed = 100;

  for (cl = 0; cl < G_N_ELEMENTS (classes); cl++) {
    ClbEngine *engine = make_engine (rt, classes[cl], 0, log);

    g_ptr_array_set_size (log, 0);
    for (sub = 0; sub < G_N_ELEMENTS (subs); sub++)
      for (rad = 0; rad < G_N_ELEMENTS (radii); rad++)
        for (feather = 0; feather <= 3; feather += 3)
          for (b = 0; b < 3; b++)
            for (z = 0; z < G_N_ELEMENTS (sizes); z++, seed++)
              fail_unless_equals_int (planar_worst (engine, sizes[z][0],
                      sizes[z][1], subs[sub][0], subs[sub][1],
                      radii[rad][0], radii[rad][1], feather, b, seed), 0);
    if (classes[cl] == CLB_DEVICE_CLASS_CPU
        && clb_engine_get_loop_cap (engine) == 0)
      fail_unless (clcheck_lines_with (log, "variant mask_planar_x16") > 0);
    if (classes[cl] == CLB_DEVICE_CLASS_GPU)
      fail_unless (clcheck_lines_with (log, "variant mask ") > 0);
    clb_engine_free (engine);
  }
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The alpha in a plane of its own under a loop cap (the bands of
 * mask_planar_x16 shortened to fit, or the general kernels where not
 * one row fits) and under a small allocation (the general kernels'
 * bands): exact all the same. */
GST_START_TEST (test_mask_planar_caps)
{
  static const guint caps[] = { 2400, 6000, 60000 };
  ClbRuntime *rt = clcheck_built_runtime ();
  guint c, feather, seed = 500;

  for (c = 0; c < G_N_ELEMENTS (caps); c++) {
    ClbEngineOptions options;
    GError *err = NULL;
    ClbEngine *engine;

    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);

    clb_engine_options_init (&options);
    options.device_class = CLB_DEVICE_CLASS_CPU;
    options.loop_cap = caps[c];
    options.log = clcheck_collect_log;
    options.log_data = log;
    engine = clb_engine_new (rt, &options, &err);
    fail_unless (engine != NULL, "%s", err ? err->message : "");
    for (feather = 0; feather <= 3; feather += 3) {
      fail_unless_equals_int (planar_worst (engine, 95, 61, 1, 1, 6, 5,
              feather, CLB_BORDER_REFLECT, seed++), 0);
      fail_unless_equals_int (planar_worst (engine, 95, 61, 0, 0, 4, 7,
              feather, CLB_BORDER_SHRINK, seed++), 0);
    }
    /* (at the smallest cap, bands of 1 to 4 rows, and the full-size job
     * with a feather gives way to the general kernels; 7 to 14 rows at
     * the next) */
    fail_unless (clcheck_lines_with (log, "variant mask_planar_x16") > 0);
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  {
    /* the plane's copy (in place) alone over the allocation */
    GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
    ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_CPU, 20000, log);

    for (feather = 0; feather <= 3; feather += 3)
      fail_unless_equals_int (planar_worst (engine, 95, 301, 0, 0, 6, 5,
              feather, CLB_BORDER_REPLICATE, seed++), 0);
    fail_unless (clcheck_lines_with (log, "variant mask_cpu") > 0);
    fail_unless (clcheck_lines_with (log, "variant mask_planar_x16") == 0);
    clb_engine_free (engine);
    g_ptr_array_unref (log);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* A mask whose alpha lies outside the planes: the frame is refused. */
GST_START_TEST (test_mask_outside_planes)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  ClbEngine *engine = make_engine (rt, CLB_DEVICE_CLASS_AUTO, 0, NULL);
  ClbParams params = { 0, };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  guint8 in[8 * 4 * 4] = { 0, }, out[8 * 4 * 4];
  const guint8 *src[1] = { in };
  guint8 *dst[1] = { out };
  gsize stride = 8 * 4;

  clcheck_one_plane (8, 4, 4, CLB_SAMPLES_8, 255, &planes, &job);
  fail_unless (clb_engine_set_planes (engine, &planes, &err));
  params.method = CLB_METHOD_SEPARABLE;
  params.radius_x = params.radius_y = 1;
  params.passes = 1;
  params.mask = TRUE;
  params.mask_plane = 1;        /* there is one plane */
  params.mask_pixel_stride = 4;
  fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride, dst,
          &stride, &err));
  fail_unless (g_error_matches (err, CLB_ENGINE_ERROR,
          CLB_ENGINE_ERROR_JOB), "%s", err ? err->message : "");
  g_clear_error (&err);
  params.mask_plane = 0;
  params.mask_offset = 4;       /* past the pixel */
  fail_if (clcheck_filter_plane (engine, &params, &job, 1, src, &stride, dst,
          &stride, &err));
  g_clear_error (&err);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
enginemask_suite (void)
{
  Suite *s = suite_create ("engine_mask");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mask_engine);
  tcase_add_test (tc, test_mask_variants);
  tcase_add_test (tc, test_mask_x16_rows);
  tcase_add_test (tc, test_mask_x16_pitch);
  tcase_add_test (tc, test_mask_bands);
  tcase_add_test (tc, test_mask_planar);
  tcase_add_test (tc, test_mask_planar_caps);
  tcase_add_test (tc, test_mask_outside_planes);
  return s;
}

GST_CHECK_MAIN (enginemask);
