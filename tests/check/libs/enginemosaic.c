/* Unit tests of the engine's mosaic and fill (gst/clblur/enginemosaic.c,
 * kernels/mosaic.cl) against the plain-C reference (ref_mosaic): both
 * device classes, 8- and 16-bit samples (shifted, big-endian), 1 to 4
 * channels, strided pixels, padded rows, frames wrapped or copied, in
 * OpenCL memory, in 2D images, in bands of block rows, inside regions; the
 * variant each
 * job gets; fill values and kept channels.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>

#include "engine.h"
#include "runtimemem.h"
#include "refblur.h"
#include "clcheck.h"

/* the runtime of the running test: MEM frames' buffers are made in its
 * context */
static ClbRuntime *test_rt;

static ClbEngine *
make_engine_with (ClbRuntime * rt, ClbDeviceClass device_class,
    gboolean zero_copy, guint64 max_alloc, GPtrArray * log)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_init (&options);
  options.device_class = device_class;
  options.zero_copy = zero_copy;
  options.max_alloc = max_alloc;
  options.log = log ? clcheck_collect_log : NULL;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

/* One plane of @w x @h pixels, @pstride containers a pixel of which the
 * job takes @channels (offsets @first, @first + 1, ...), containers of
 * @size (16-bit: values up to @max, stored << @shift, swapped with
 * @big_endian), rows @pad bytes longer than packed. */
typedef struct
{
  guint w, h, channels, pstride, first;
  ClbSampleSize size;
  guint max, shift;
  gboolean big_endian;
  guint pad;
} Case;

static guint
load (const Case * k, const guint8 * row, guint i)
{
  guint v;

  if (k->size == CLB_SAMPLES_8)
    return row[i];
  v = k->big_endian ? (row[2 * i] << 8) | row[2 * i + 1] :
      row[2 * i] | (row[2 * i + 1] << 8);
  return v >> k->shift;
}

static void
store (const Case * k, guint8 * row, guint i, guint v)
{
  if (k->size == CLB_SAMPLES_8) {
    row[i] = v;
    return;
  }
  v <<= k->shift;
  row[2 * i + (k->big_endian ? 1 : 0)] = v & 0xff;
  row[2 * i + (k->big_endian ? 0 : 1)] = v >> 8;
}

/* Runs mosaic with blocks of @block (or, with @fill, fill with the
 * channel values 1000 + 77 c clamped, the first channel kept when
 * @keep_first) on a random frame of @k through @engine (MEM frames with
 * @mem), inside @region when not NULL; returns how many samples differ
 * from the reference (samples outside the job and the region unchanged). */
static guint
mismatches (ClbEngine * engine, const Case * k, guint block, gboolean fill,
    gboolean keep_first, const ClbRect * region, gboolean mem)
{
  guint bytes = k->size == CLB_SAMPLES_16 ? 2 : 1;
  gsize stride = (gsize) k->w * k->pstride * bytes + k->pad;
  gsize n = stride * k->h, i;
  guint8 *in = g_malloc (n), *out = g_malloc (n);
  gsize m = (gsize) k->w * k->h * k->channels;
  guint16 *in16 = g_new (guint16, m), *ref = g_new (guint16, m);
  ClbParams params = { 0, };
  ClbPlanes planes;
  ClbJob job;
  GError *err = NULL;
  guint x, y, c, bad = 0;

  memset (&planes, 0, sizeof (planes));
  memset (&job, 0, sizeof (job));
  planes.width = k->w;
  planes.height = k->h;
  planes.sample_size = k->size;
  planes.shift = k->shift;
  planes.big_endian = k->big_endian;
  planes.max_value = k->max;
  planes.n_planes = 1;
  planes.plane_width[0] = k->w * k->pstride;
  planes.plane_height[0] = k->h;
  job.width = k->w;
  job.height = k->h;
  job.channels = k->channels;
  job.pixel_stride = k->pstride;
  for (c = 0; c < k->channels; c++) {
    job.offset[c] = k->first + c;
    job.fill[c] = MIN (1000 + 77 * c, k->max);
  }
  job.dist_mask = 1;
  if (keep_first)
    job.keep_mask = 1;
  params.method = fill ? CLB_METHOD_FILL : CLB_METHOD_MOSAIC;
  params.block_size = block;
  params.passes = 1;
  /* radii are not used by these methods */
  params.radius_x = params.radius_y = 0;
  if (region) {
    params.use_regions = TRUE;
    params.regions = region;
    params.n_regions = 1;
  }
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < n; i++)
    in[i] = g_random_int_range (0, 256);
  for (y = 0; y < k->h; y++)
    for (x = 0; x < k->w * k->pstride; x++)
      store (k, in + y * stride, x, g_random_int_range (0, k->max + 1));
  memcpy (out, in, n);
  for (y = 0; y < k->h; y++)
    for (x = 0; x < k->w; x++)
      for (c = 0; c < k->channels; c++)
        in16[((gsize) y * k->w + x) * k->channels + c] =
            load (k, in + y * stride, x * k->pstride + k->first + c);

  if (mem) {
    /* planes in OpenCL buffers with sub-buffers, as the pool gives them */
    cl_command_queue q = clb_runtime_get_queue (test_rt);
    cl_buffer_region whole = { 0, n };
    cl_mem b[2], sub[2];
    ClbMemPlane planes_mem[2];
    ClbFrame fin, fout;
    cl_int e;
    guint f;

    for (f = 0; f < 2; f++) {
      b[f] = clb_runtime_create_buffer (test_rt, CL_MEM_READ_WRITE, n, &err);
      fail_unless (b[f] != NULL, "%s", err ? err->message : "");
      sub[f] = clCreateSubBuffer (b[f], CL_MEM_READ_WRITE,
          CL_BUFFER_CREATE_TYPE_REGION, &whole, &e);
      fail_unless_equals_int (e, CL_SUCCESS);
      fail_unless_equals_int (clEnqueueWriteBuffer (q, b[f], CL_TRUE, 0, n,
              f == 0 ? in : out, 0, NULL, NULL), CL_SUCCESS);
      planes_mem[f].buffer = b[f];
      planes_mem[f].offset = 0;
      planes_mem[f].stride = stride;
      planes_mem[f].sub = sub[f];
    }
    clb_frame_init_mem (&fin, 1, &planes_mem[0]);
    clb_frame_init_mem (&fout, 1, &planes_mem[1]);
    fail_unless (clb_engine_filter (engine, &params, &job, 1, &fin, &fout,
            &err), "%s", err ? err->message : "");
    fail_unless_equals_int (clEnqueueReadBuffer (q, b[1], CL_TRUE, 0, n, out,
            0, NULL, NULL), CL_SUCCESS);
    for (f = 0; f < 2; f++) {
      clReleaseMemObject (sub[f]);
      clReleaseMemObject (b[f]);
    }
  } else {
    const guint8 *src[1] = { in };
    guint8 *dst[1] = { out };

    fail_unless (clcheck_filter_plane (engine, &params, &job, 1, src, &stride,
            dst, &stride, &err), "%s", err ? err->message : "");
  }

  if (fill) {
    for (i = 0; i < m; i++)
      ref[i] = job.fill[i % k->channels];
  } else {
    fail_unless_equals_int (ref_mosaic (in16, ref, k->w, k->h, k->channels,
            block, block), 0);
  }
  for (y = 0; y < k->h; y++) {
    for (x = 0; x < k->w * k->pstride; x++) {
      guint px = x / k->pstride, o = x % k->pstride;
      gboolean in_job = o >= k->first && o < k->first + k->channels
          && !(keep_first && o == k->first);
      gboolean inside = region == NULL || ((gint) px >= region->x
          && (gint) px < region->x + region->width && (gint) y >= region->y
          && (gint) y < region->y + region->height);
      guint want = in_job && inside ? ref[((gsize) y * k->w + px)
          * k->channels + o - k->first] : load (k, in + y * stride, x);
      guint got = load (k, out + y * stride, x);

      if (got != want && bad++ < 3)
        g_printerr ("%ux%u %u/%u channels block %u%s: (%u, %u) lane %u is "
            "%u, want %u\n", k->w, k->h, k->channels, k->pstride, block,
            fill ? " fill" : "", px, y, o, got, want);
    }
    /* the row's padding as it was */
    for (x = k->w * k->pstride * bytes; x < stride; x++)
      bad += out[y * stride + x] != in[y * stride + x];
  }
  g_free (in);
  g_free (out);
  g_free (in16);
  g_free (ref);
  return bad;
}

static const Case cases[] = {
  /* w, h, channels, pstride, first, size, max, shift, big_endian, pad */
  {37, 23, 4, 4, 0, CLB_SAMPLES_8, 255, 0, FALSE, 0},
  {37, 23, 3, 3, 0, CLB_SAMPLES_8, 255, 0, FALSE, 5},
  {61, 17, 1, 1, 0, CLB_SAMPLES_8, 255, 0, FALSE, 0},
  {30, 11, 2, 2, 0, CLB_SAMPLES_8, 255, 0, FALSE, 3},
  /* YUY2's U, V: every 4th byte from 1 */
  {19, 13, 2, 4, 1, CLB_SAMPLES_8, 255, 0, FALSE, 0},
  /* a 3-channel job of 4-byte pixels (xRGB's colours) */
  {33, 9, 3, 4, 1, CLB_SAMPLES_8, 255, 0, FALSE, 8},
  /* YUY2's Y: every 2nd byte; 2 of 3 bytes (the generic run) */
  {41, 13, 1, 2, 0, CLB_SAMPLES_8, 255, 0, FALSE, 6},
  {23, 11, 2, 3, 1, CLB_SAMPLES_8, 255, 0, FALSE, 0},
  {37, 23, 4, 4, 0, CLB_SAMPLES_16, 65535, 0, FALSE, 0},
  {29, 15, 2, 2, 0, CLB_SAMPLES_16, 1023, 6, FALSE, 4},
  {29, 15, 1, 1, 0, CLB_SAMPLES_16, 65535, 0, TRUE, 0},
};

/* Every case at blocks from 2 to past the frame, both classes, frames
 * wrapped (CPU, zero copy) or copied. */
GST_START_TEST (test_mosaic_matches_reference)
{
  static const guint blocks[] = { 2, 4, 6, 16, 40, 256 };
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  guint cls, zc, k, b;

  for (cls = 0; cls < 2; cls++) {
    for (zc = 0; zc < 2; zc++) {
      ClbEngine *engine = make_engine_with (rt, cls ? CLB_DEVICE_CLASS_GPU :
          CLB_DEVICE_CLASS_CPU, zc, 0, NULL);

      for (k = 0; k < G_N_ELEMENTS (cases); k++) {
        for (b = 0; b < G_N_ELEMENTS (blocks); b++) {
          guint bad = mismatches (engine, &cases[k], blocks[b], FALSE, FALSE,
              NULL, FALSE);

          fail_unless (bad == 0, "case %u block %u class %s zero-copy %u: "
              "%u samples differ", k, blocks[b], cls ? "gpu" : "cpu", zc,
              bad);
        }
      }
      clb_engine_free (engine);
    }
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Frames in OpenCL memory (packed rows, sub-buffers: read and written in
 * place where the device wraps them, else copied on the device). */
GST_START_TEST (test_mosaic_mem_frames)
{
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  guint cls, k;

  for (cls = 0; cls < 2; cls++) {
    ClbEngine *engine = make_engine_with (rt, cls ? CLB_DEVICE_CLASS_GPU :
        CLB_DEVICE_CLASS_CPU, TRUE, 0, NULL);

    for (k = 0; k < G_N_ELEMENTS (cases); k++) {
      if (cases[k].pad != 0)
        continue;
      fail_unless_equals_int (mismatches (engine, &cases[k], 6, FALSE, FALSE,
              NULL, TRUE), 0);
      fail_unless_equals_int (mismatches (engine, &cases[k], 2, TRUE, FALSE,
              NULL, TRUE), 0);
    }
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* A frame in 2D images (GL memory's way, shared): RGBA mosaic, whole and
 * in a region, both classes. */
GST_START_TEST (test_mosaic_image_frames)
{
  static const ClbRect region = { 9, 4, 30, 20 };
  const guint w = 53, h = 31, block = 6;
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  cl_command_queue queue = clb_runtime_get_queue (rt);
  size_t origin[3] = { 0, 0, 0 }, size[3] = { w, h, 1 };
  guint8 *in = g_malloc (4 * w * h), *out = g_malloc (4 * w * h);
  guint16 *in16 = g_new (guint16, 4 * w * h), *ref = g_new (guint16,
      4 * w * h);
  GError *err = NULL;
  cl_mem src, dst;
  guint cls, r, i;

  for (i = 0; i < 4 * w * h; i++)
    in16[i] = in[i] = g_random_int_range (0, 256);
  fail_unless_equals_int (ref_mosaic (in16, ref, w, h, 4, block, block), 0);
  src = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, w, h, &err);
  fail_unless (src != NULL, "%s", err ? err->message : "");
  dst = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, w, h, &err);
  fail_unless (dst != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (clEnqueueWriteImage (queue, src, CL_TRUE, origin,
          size, 4 * w, 0, in, 0, NULL, NULL), CL_SUCCESS);
  for (cls = 0; cls < 2; cls++) {
    ClbEngine *engine = make_engine_with (rt, cls ? CLB_DEVICE_CLASS_GPU :
        CLB_DEVICE_CLASS_CPU, TRUE, 0, NULL);
    ClbParams params = { 0, };
    ClbPlanes planes;
    ClbJob job;

    clcheck_one_plane (w, h, 4, CLB_SAMPLES_8, 255, &planes, &job);
    fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
        err ? err->message : "");
    params.method = CLB_METHOD_MOSAIC;
    params.block_size = block;
    params.passes = 1;
    for (r = 0; r < 2; r++) {
      params.use_regions = r == 1;
      params.regions = &region;
      params.n_regions = 1;
      fail_unless (clcheck_filter_image (engine, &params, &job, 1, src, dst,
              &err), "%s", err ? err->message : "");
      fail_unless_equals_int (clEnqueueReadImage (queue, dst, CL_TRUE,
              origin, size, 4 * w, 0, out, 0, NULL, NULL), CL_SUCCESS);
      for (i = 0; i < 4 * w * h; i++) {
        guint x = (i / 4) % w, y = i / 4 / w;
        gboolean inside = r == 0 || (x >= 9 && x < 39 && y >= 4 && y < 24);
        guint want = inside ? ref[i] : in[i];

        if (out[i] != want)
          fail ("class %u region %u: byte %u (x %u, y %u) is %u, want %u",
              cls, r, i, x, y, out[i], want);
      }
    }
    clb_engine_free (engine);
  }
  clReleaseMemObject (src);
  clReleaseMemObject (dst);
  g_free (in);
  g_free (out);
  g_free (in16);
  g_free (ref);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* An intermediate allowed only a block row or two: the engine goes in
 * bands of block rows, and the result is the same. */
GST_START_TEST (test_mosaic_bands)
{
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  guint cls, k;

  for (cls = 0; cls < 2; cls++) {
    /* 37 x 4 x 4 bytes: one block row of the widest case a band */
    ClbEngine *engine = make_engine_with (rt, cls ? CLB_DEVICE_CLASS_GPU :
        CLB_DEVICE_CLASS_CPU, FALSE, 37 * 4 * 4, NULL);

    for (k = 0; k < G_N_ELEMENTS (cases); k++)
      fail_unless_equals_int (mismatches (engine, &cases[k], 4, FALSE, FALSE,
              NULL, FALSE), 0);
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Fill: each channel its value, a kept channel and the other lanes as
 * they came; mosaic and fill inside a region, the rest unchanged. */
GST_START_TEST (test_fill_and_regions)
{
  static const ClbRect region = { 5, 3, 17, 9 };
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  guint cls, k;

  for (cls = 0; cls < 2; cls++) {
    ClbEngine *engine = make_engine_with (rt, cls ? CLB_DEVICE_CLASS_GPU :
        CLB_DEVICE_CLASS_CPU, TRUE, 0, NULL);

    for (k = 0; k < G_N_ELEMENTS (cases); k++) {
      fail_unless_equals_int (mismatches (engine, &cases[k], 2, TRUE, FALSE,
              NULL, FALSE), 0);
      if (cases[k].channels > 1)
        fail_unless_equals_int (mismatches (engine, &cases[k], 2, TRUE, TRUE,
                NULL, FALSE), 0);
      fail_unless_equals_int (mismatches (engine, &cases[k], 6, FALSE, FALSE,
              &region, FALSE), 0);
      fail_unless_equals_int (mismatches (engine, &cases[k], 2, TRUE, FALSE,
              &region, FALSE), 0);
    }
    clb_engine_free (engine);
  }
  clb_runtime_free (rt);
}

GST_END_TEST;

/* The variant each job gets: mosaic_x16 for 8-bit jobs on CPUs,
 * mosaic elsewhere and where a loop cap is too small for it; fill one row;
 * a new block size is a new plan. */
GST_START_TEST (test_mosaic_variants)
{
  ClbDeviceProfile p;
  ClbPlanes planes;
  ClbJob job;
  ClbWorkShape shape;
  const ClbVariant *v;

  clcheck_one_plane (64, 32, 4, CLB_SAMPLES_8, 255, &planes, &job);
  memset (&p, 0, sizeof (p));
  p.device_class = CLB_DEVICE_CLASS_CPU;
  p.compute_units = 4;
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 16, 16,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic_x16");
  fail_unless (clb_variant_wraps (v));
  p.loop_budget = 100;
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 16, 16,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic");
  fail_if (clb_variant_wraps (v));
  p.loop_budget = 0;
  p.device_class = CLB_DEVICE_CLASS_GPU;
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 16, 16,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic");
  v = clb_variant_choose (&p, CLB_METHOD_FILL, &planes, NULL, &job, 1, 1,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "fill");
  p.device_class = CLB_DEVICE_CLASS_CPU;
  /* YUY2's U, V: 2 of 4 bytes a pixel */
  job.channels = 2;
  job.pixel_stride = 4;
  job.offset[0] = 1;
  job.offset[1] = 3;
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 8, 16,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic_x16");
  /* 2 of 3 bytes: a 16-byte step would not start on a pixel */
  clcheck_one_plane (64, 32, 3, CLB_SAMPLES_8, 255, &planes, &job);
  job.channels = 2;
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 8, 8,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic");
  clcheck_one_plane (64, 32, 4, CLB_SAMPLES_16, 65535, &planes, &job);
  v = clb_variant_choose (&p, CLB_METHOD_MOSAIC, &planes, NULL, &job, 16, 16,
      &shape);
  fail_unless_equals_string (clb_variant_get_name (v), "mosaic");
}

GST_END_TEST;

GST_START_TEST (test_mosaic_plans)
{
  ClbRuntime *rt = test_rt = clcheck_built_runtime ();
  GPtrArray *log = g_ptr_array_new_with_free_func (g_free);
  ClbEngine *engine = make_engine_with (rt, CLB_DEVICE_CLASS_CPU, TRUE, 0,
      log);
  guint plans;

  fail_unless_equals_int (mismatches (engine, &cases[0], 8, FALSE, FALSE,
          NULL, FALSE), 0);
  plans = clb_engine_count_plans (engine);
  fail_unless_equals_int (mismatches (engine, &cases[0], 8, FALSE, FALSE,
          NULL, FALSE), 0);
  fail_unless_equals_int (clb_engine_count_plans (engine), plans);
  fail_unless_equals_int (mismatches (engine, &cases[0], 10, FALSE, FALSE,
          NULL, FALSE), 0);
  fail_unless_equals_int (clb_engine_count_plans (engine), plans + 1);
  /* a CPU engine that wraps frames runs dense 8-bit mosaic on them */
  if (clb_engine_get_profile (engine)->zero_copy)
    fail_unless (clcheck_lines_with (log, "caller's memory") > 0);
  clb_engine_free (engine);
  g_ptr_array_unref (log);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
enginemosaic_suite (void)
{
  Suite *s = suite_create ("engine_mosaic");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mosaic_variants);
  tcase_add_test (tc, test_mosaic_matches_reference);
  tcase_add_test (tc, test_mosaic_bands);
  tcase_add_test (tc, test_mosaic_mem_frames);
  tcase_add_test (tc, test_mosaic_image_frames);
  tcase_add_test (tc, test_fill_and_regions);
  tcase_add_test (tc, test_mosaic_plans);
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
  return gst_check_run_suite (enginemosaic_suite (), "engine_mosaic",
      __FILE__);
}
