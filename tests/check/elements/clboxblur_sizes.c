/* GStreamer unit tests for clboxblur: frame sizes and radii
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 1x1 to 16384x16384, radii beyond the frame, separate vertical radii, and a
 * frame over the device's largest allocation.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "blurcheck.h"

/* Radii larger than the frame, every method (bilateral's tile then no
 * longer fits local memory, or only just). */
GST_START_TEST (test_radius_beyond_frame)
{
  static const gchar *formats[] = { "RGBA", "NV12", "GRAY16_BE", "UYVY" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, b;

  s.rx = 40;
  s.ry = 25;
  s.sigma_spatial = 10.0;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 17, 9);
    for (m = 0; m < 3; m++)
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        s.method = m;
        s.border = borders[b];
        push_settings_and_check (h, &info, 0, &s);
      }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Pops the element error from @bus: RESOURCE/NO_SPACE_LEFT whose debug
 * text contains @debug_has. */
static void
expect_no_space_left (GstBus * bus, const gchar * debug_has)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s", err->message);
  fail_unless (strstr (debug, debug_has) != NULL, "'%s' not in '%s'",
      debug_has, debug);
  GST_INFO ("%s / %s", err->message, debug);
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);
}

/* A frame whose summed-area table is larger than the device can allocate
 * (RGBA64: 32 bytes of 64-bit sums a pixel, the side chosen from the
 * device's limit, which PoCL derives from the machine's free memory, e.g.
 * 2 or 4 GiB): both box methods run it, the table in bands of rows (a
 * uniform frame, which the blur keeps as it is). Where GStreamer takes no
 * frame that large (an H100 allows 21 GB, a frame is under 4 GiB), that
 * is said and the rest is checked on its own: the runtime refuses a
 * buffer one byte over the limit, and the element turns a failed
 * allocation of the table into its memory error and works on. */
GST_START_TEST (test_frame_too_large)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  guint64 max_alloc = 0;
  gint side;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  GError *err = NULL;
  GstBuffer *buf;
  gchar *limit;
  guint i;

  fail_unless_equals_int (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (max_alloc), &max_alloc,
          NULL), CL_SUCCESS);
  side = (gint) MIN (ceil (sqrt ((gdouble) max_alloc / 32.0 * 1.02)),
      G_MAXINT / 8);
  /* the table in bands of a quarter of the limit: less memory in all */
  limit = g_strdup_printf ("%" G_GUINT64_FORMAT, max_alloc / 4);
  g_setenv (CLB_MAX_ALLOC_ENV, limit, TRUE);
  g_free (limit);
  h = blurcheck_harness_new ("clboxblur");

  /* The runtime's own check, one byte over the device's limit. */
  fail_if (clb_runtime_create_buffer (rt, CL_MEM_READ_WRITE,
          (gsize) max_alloc + 1, &err));
  fail_unless (g_error_matches (err, CLB_RUNTIME_ERROR,
          CLB_RUNTIME_ERROR_NO_MEMORY), "%s", err->message);
  fail_unless (strstr (err->message, "exceeds the largest allocation")
      != NULL, "%s", err->message);
  g_clear_error (&err);
  clb_runtime_free (rt);

  gst_element_set_bus (h->element, bus);
  s.method = METHOD_SAT;

  /* A failed allocation of the table (injected): the same element error,
   * no buffer out, and the element goes on with the same frame size. */
  set_format (h, &info, "RGBA64_LE", 67, 45);
  apply_settings (h, &s);
  g_setenv ("CLBOXBLUR_FAULT", "clCreateBuffer:-4", TRUE);
  fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, 1)),
      GST_FLOW_ERROR);
  g_unsetenv ("CLBOXBLUR_FAULT");
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  expect_no_space_left (bus, "clCreateBuffer");
  s.method = METHOD_SEPARABLE;
  push_settings_and_check (h, &info, 0, &s);
  s.method = METHOD_SAT;
  push_settings_and_check (h, &info, 0, &s);

  GST_INFO ("largest allocation %" G_GUINT64_FORMAT " bytes: %dx%d RGBA64",
      max_alloc, side, side);
  if (!gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA64_LE, side,
          side)) {
    g_print ("test_frame_too_large: a real table over the limit does not "
        "apply: the device allows %" G_GUINT64_FORMAT " bytes in one "
        "allocation, and GStreamer takes no %dx%d RGBA64 frame, the "
        "smallest whose table exceeds that; the runtime's check and the "
        "element's error were checked without it\n", max_alloc, side, side);
    goto done;
  }
  /* The table of a real frame over the device's limit: in bands. */
  set_format (h, &info, "RGBA64_LE", side, side);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buf, 0, 0x40, GST_VIDEO_INFO_SIZE (&info));
  for (i = 0; i < 2; i++) {
    GstBuffer *out;
    GstMapInfo map;
    gsize k, size = GST_VIDEO_INFO_SIZE (&info), bad = 0;

    gst_util_set_object_arg (G_OBJECT (h->element), "method",
        i == 0 ? "sat" : "separable");
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buf)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    for (k = 0; k < size; k += 4093)
      bad += map.data[k] != 0x40;
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    fail_unless (bad == 0, "%" G_GSIZE_FORMAT " bytes changed", bad);
  }
  gst_buffer_unref (buf);

done:
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* 8K frames through every box method and passes=3, compared in full. */
GST_START_TEST (test_big_frames)
{
  static const struct
  {
    const gchar *format;
    Method method;
    guint passes;
  } cases[] = {
    {"GRAY8", METHOD_SAT, 1}, {"GRAY8", METHOD_SEPARABLE, 1},
    {"GRAY8", METHOD_SAT, 3}, {"RGBA", METHOD_SAT, 1},
    {"RGBA", METHOD_SEPARABLE, 1},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  s.rx = 9;
  s.ry = 5;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    set_format (h, &info, cases[i].format, 7680, 4320);
    s.method = cases[i].method;
    s.passes = cases[i].passes;
    s.border = borders[i % G_N_ELEMENTS (borders)];
    push_settings_and_check (h, &info, 0, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* 16384x16384 GRAY8 through sat: the table wraps modulo 2^32 many times
 * over (the frame sums to about 3.4e10); and through separable once.
 * Checked on the four corners, stripes along every edge and through the
 * middle, and random pixels, each against a brute-force window sum. A
 * device whose largest allocation is under the table's 1 GiB gets the
 * largest square it takes, and the test says so and how often its table
 * wraps (past a side of about 5800). */
GST_START_TEST (test_huge_frame)
{
  guint64 max_alloc = clcheck_default_device_ulong
      (CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  /* even: the frame is filled 4 bytes at a time */
  const gint n = MIN (16384, (gint) sqrt ((gdouble) max_alloc / 4)) & ~1;
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMapInfo mi, mo;
  GRand *rand = g_rand_new_with_seed (16384);
  guint m, b, k, bad = 0, checked = 0;
  gint x, y;

  if (n < 16384)
    g_print ("test_huge_frame: %dx%d, not 16384x16384: the device allows "
        "%" G_GUINT64_FORMAT " bytes in one allocation, the table takes 4 a "
        "pixel; it wraps about %.1f times\n", n, n, max_alloc,
        (gdouble) n * n * 127.5 / 4294967296.0);
  set_format (h, &info, "GRAY8", n, n);
  in = gst_buffer_new_allocate (NULL, (gsize) n * n, NULL);
  fail_unless (gst_buffer_map (in, &mi, GST_MAP_WRITE));
  for (k = 0; k < (guint) n * n / 4; k++)
    ((guint32 *) mi.data)[k] = g_rand_int (rand);
  gst_buffer_unmap (in, &mi);

  /* the table with every border, then separable once */
  for (m = 0; m <= G_N_ELEMENTS (borders); m++) {
    b = MIN (m, G_N_ELEMENTS (borders) - 1);
    g_object_set (h->element, "radius", 6, "radius-y", 3, "border",
        borders[b], NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "method",
        m < G_N_ELEMENTS (borders) ? "sat" : "separable");
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
#define CHECK_AT(px, py) G_STMT_START { \
      guint16 r_ = ref_box_pixel (mi.data, n, n, n, 1, (px), (py), 0, 6, 3, \
          borders[b]); \
      checked++; \
      if (mo.data[(gsize) (py) * n + (px)] != r_ && bad++ < 5) \
        GST_ERROR ("(%d, %d) %s border %s: %u, reference %u", (px), (py), \
            m < G_N_ELEMENTS (borders) ? "sat" : "separable", \
            border_nicks[b], mo.data[(gsize) (py) * n + (px)], r_); \
    } G_STMT_END
    for (y = 0; y < 12; y++)
      for (x = 0; x < n; x++) {
        CHECK_AT (x, y);
        CHECK_AT (x, n - 1 - y);
        CHECK_AT (y, x);
        CHECK_AT (n - 1 - y, x);
      }
    for (x = 0; x < n; x++)
      CHECK_AT (x, n / 2);
    for (k = 0; k < 100000; k++) {
      gint rx_ = g_rand_int_range (rand, 0, n);
      gint ry_ = g_rand_int_range (rand, 0, n);

      CHECK_AT (rx_, ry_);
    }
#undef CHECK_AT
    gst_buffer_unmap (in, &mi);
    gst_buffer_unmap (out, &mo);
    gst_buffer_unref (out);
  }
  fail_unless (bad == 0, "%u of %u pixels differ from the reference", bad,
      checked);
  g_rand_free (rand);
  gst_buffer_unref (in);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Frames filtered in bands of rows: the element's engine told that the
 * device allows 100000 bytes in one allocation (CLBOXBLUR_MAX_ALLOC), so
 * a 300x200 frame's intermediate (1.2 MB for RGBA's table) is planned as
 * a ring of 20 to 83 rows and the frame goes through in bands of 1 to 79
 * rows. Every box method, border and format family, passes=3 and
 * regions, against the reference; a radius whose windows need more rows
 * than fit is refused with the element's memory error. */
GST_START_TEST (test_strips)
{
  static const gchar *formats[] = { "RGBA", "NV12", "GRAY16_LE" };
  static const guint radii[][2] = { {3, 2}, {1, 9}, {7, 0} };
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, b, r;

  g_setenv (CLB_MAX_ALLOC_ENV, "100000", TRUE);
  h = blurcheck_harness_new ("clboxblur");
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 300, 200);
    for (m = METHOD_SAT; m <= METHOD_SEPARABLE; m++) {
      s = default_settings;
      s.method = m;
      for (b = 0; b < G_N_ELEMENTS (borders); b++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++) {
          s.border = borders[b];
          s.rx = radii[r][0];
          s.ry = radii[r][1];
          s.passes = r == 0 ? 3 : 1;
          push_settings_and_check (h, &info, 0, &s);
        }
      /* a region across band edges, and outside it */
      s.rx = 4;
      s.ry = 3;
      s.passes = 2;
      s.use_rects = TRUE;
      s.n_rects = 1;
      s.rects[0][0] = 10;
      s.rects[0][1] = 7;
      s.rects[0][2] = 220;
      s.rects[0][3] = 150;
      for (b = 0; b < 2; b++) {
        s.invert = b;
        s.border = borders[(f + b) % G_N_ELEMENTS (borders)];
        g_object_set (h->element, "region-x", 10, "region-y", 7,
            "region-width", 220, "region-height", 150, "region-invert",
            (gboolean) b, NULL);
        push_settings_and_check (h, &info, 0, &s);
      }
      g_object_set (h->element, "region-width", 0, "region-height", 0,
          "region-x", 0, "region-y", 0, "region-invert", FALSE, NULL);
    }
  }

  /* RGBA's table takes 4800 bytes a row: radius-y 20 needs 42 rows */
  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "RGBA", 300, 200);
  s = default_settings;
  s.ry = 20;
  apply_settings (h, &s);
  fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, 3)),
      GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  expect_no_space_left (bus, "at least 42 rows");
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The size issue 16 found refused: 12000x12000 RGBA (576 MB a frame),
 * whose intermediate of 4 bytes a sample (2304000000 bytes) is over the
 * 1 GiB a PoCL device commonly allows in one allocation, through sat and
 * separable. The engine is told the device allows at most 1 GiB
 * (CLBOXBLUR_MAX_ALLOC; a device that allows less keeps its own limit),
 * so the frame goes through in bands wherever the test runs. Checked on
 * the edges, a row through the middle and random pixels against the
 * reference. A device that cannot hold the frame's input and output says
 * so, and the test checks nothing more. */
GST_START_TEST (test_frame_12000)
{
  const gint n = 12000;
  const guint64 frame = (guint64) n * n * 4;
  guint64 max_alloc = clcheck_default_device_ulong
      (CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  guint64 global_mem = clcheck_default_device_ulong
      (CL_DEVICE_GLOBAL_MEM_SIZE);
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMapInfo mi, mo;
  GRand *rand;
  guint m, k, bad = 0, checked = 0;
  gint x, y;

  if (max_alloc < frame || global_mem < 2 * frame + (64 << 20)) {
    g_print ("test_frame_12000: not run: the device allows %"
        G_GUINT64_FORMAT " bytes in one allocation and %" G_GUINT64_FORMAT
        " in all; a 12000x12000 RGBA frame needs %" G_GUINT64_FORMAT
        " bytes for its input and as much for its output\n", max_alloc,
        global_mem, frame);
    return;
  }
  g_print ("test_frame_12000: the device allows %" G_GUINT64_FORMAT
      " bytes in one allocation, the engine told %" G_GUINT64_FORMAT
      "; the intermediate of the whole frame would take %" G_GUINT64_FORMAT
      "\n", max_alloc, MIN (max_alloc, (guint64) 1 << 30), frame * 4);
  g_setenv (CLB_MAX_ALLOC_ENV, "1073741824", TRUE);
  h = blurcheck_harness_new ("clboxblur");
  rand = g_rand_new_with_seed (12000);
  set_format (h, &info, "RGBA", n, n);
  in = gst_buffer_new_allocate (NULL, (gsize) frame, NULL);
  fail_unless (gst_buffer_map (in, &mi, GST_MAP_WRITE));
  for (k = 0; k < (guint) (frame / 4); k++)
    ((guint32 *) mi.data)[k] = g_rand_int (rand);
  gst_buffer_unmap (in, &mi);

  for (m = 0; m < 2; m++) {
    RefBorder border = borders[m + 1];
    const gint rx = 5, ry = m == 0 ? 300 : 40;

    g_object_set (h->element, "radius", rx, "radius-y", ry, "border",
        border, NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "method",
        m == 0 ? "sat" : "separable");
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
#define CHECK_AT(px, py) G_STMT_START { \
      guint c_ = g_rand_int_range (rand, 0, 4); \
      guint16 r_ = ref_box_pixel (mi.data, (gsize) n * 4, n, n, 4, (px), \
          (py), c_, rx, ry, border); \
      guint8 v_ = mo.data[((gsize) (py) * n + (px)) * 4 + c_]; \
      checked++; \
      if (v_ != r_ && bad++ < 5) \
        GST_ERROR ("(%d, %d, %u) %s: %u, reference %u", (px), (py), c_, \
            m == 0 ? "sat" : "separable", v_, r_); \
    } G_STMT_END
    for (y = 0; y < 3; y++)
      for (x = 0; x < n; x += 7) {
        CHECK_AT (x, y);
        CHECK_AT (x, n - 1 - y);
        CHECK_AT (y, x);
        CHECK_AT (n - 1 - y, x);
      }
    for (x = 0; x < n; x += 3)
      CHECK_AT (x, n / 2);
    for (k = 0; k < 20000; k++) {
      gint x_ = g_rand_int_range (rand, 0, n);
      gint y_ = g_rand_int_range (rand, 0, n);

      CHECK_AT (x_, y_);
    }
#undef CHECK_AT
    gst_buffer_unmap (in, &mi);
    gst_buffer_unmap (out, &mo);
    gst_buffer_unref (out);
  }
  fail_unless (bad == 0, "%u of %u samples differ from the reference", bad,
      checked);
  g_rand_free (rand);
  gst_buffer_unref (in);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_radius_y)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  static const gint radii[][2] = { {3, 7}, {0, 5}, {6, 0}, {40, 2}, {1, 300} };
  GstVideoInfo info;
  guint r, b;

  set_format (h, &info, "RGBA", 97, 61);
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    for (b = 0; b < G_N_ELEMENTS (borders); b++)
      push_and_check (h, &info, 0, radii[r][0], radii[r][1], borders[b]);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Sizes from 1x1 to 1080p, radii 1, 4, 31 and one larger than the frame,
 * both box methods. */
GST_START_TEST (test_sizes_and_radii)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  static const gint sizes[][2] = {
    {1, 1}, {2, 3}, {17, 9}, {385, 289}, {1920, 1080}
  };
  static const gchar *formats[] = { "RGBA", "GRAY8", "RGB" };
  GstVideoInfo info;
  guint f, s, b, r, m;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint beyond = MIN (MAX (sizes[s][0], sizes[s][1]) + 5, 2047);
      guint radii[] = { 1, 4, 31, beyond };

      /* 1080p in RGB is covered by RGBA and GRAY8; keep the run short. */
      if (sizes[s][0] == 1920 && f == 2)
        continue;
      set_format (h, &info, formats[f], sizes[s][0], sizes[s][1]);
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (b = 0; b < G_N_ELEMENTS (borders); b++)
          for (m = METHOD_SAT; m <= METHOD_SEPARABLE; m++) {
            Settings st = default_settings;

            st.method = m;
            st.rx = st.ry = radii[r];
            st.border = borders[b];
            push_settings_and_check (h, &info, 0, &st);
          }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_sizes_suite (void)
{
  Suite *s = suite_create ("clboxblur_sizes");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_radius_beyond_frame);
  tcase_add_test (tc, test_frame_too_large);
  tcase_add_test (tc, test_big_frames);
  tcase_add_test (tc, test_huge_frame);
  tcase_add_test (tc, test_strips);
  tcase_add_test (tc, test_frame_12000);
  tcase_add_test (tc, test_radius_y);
  tcase_add_test (tc, test_sizes_and_radii);
  return s;
}

BLURCHECK_MAIN (clboxblur_sizes);
