/* GStreamer unit tests for clboxblur: per-plane radii and sigma
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * chroma-radius and alpha-radius on planar, semi-planar and packed YUV and
 * on RGBA; luma only (chroma-radius=0) leaving the chroma bytes as they
 * were; sigma's three box passes against the reference applied three
 * times with radii computed here from the formula.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/base/gstbasetransform.h>

#include "blurcheck.h"

static const gchar *yuv_formats[] = {
  "I420", "NV12", "NV21", "AYUV", "YUY2", "UYVY", "A420", "Y444",
  "P010_10LE",
};

/* Luma and chroma radii apart (0 for either), every method. */
GST_START_TEST (test_chroma_radius)
{
  static const gint chroma[] = { -1, 0, 1, 3 };
  static const guint luma[] = { 0, 2 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, c, l, m;

  s.sigma_spatial = 2.0;
  s.sigma_range = 25.0;
  for (f = 0; f < G_N_ELEMENTS (yuv_formats); f++) {
    set_format (h, &info, yuv_formats[f], 37, 22);
    for (c = 0; c < G_N_ELEMENTS (chroma); c++) {
      for (l = 0; l < G_N_ELEMENTS (luma); l++) {
        for (m = 0; m < 3; m++) {
          s.method = m;
          s.rx = s.ry = luma[l];
          s.chroma_radius = chroma[c];
          s.ry = luma[l] + (l == 1);    /* radius-y apart */
          push_settings_and_check (h, &info, 8, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Alpha's own radius, untouched alpha, and preserve-alpha winning. */
GST_START_TEST (test_alpha_radius)
{
  static const gchar *formats[] = { "A420", "AYUV", "RGBA", "ARGB" };
  static const gint alpha[] = { -1, 0, 2, 5 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, a, m, keep;

  s.rx = s.ry = 3;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 29, 18);
    for (a = 0; a < G_N_ELEMENTS (alpha); a++) {
      for (keep = 0; keep < 2; keep++) {
        for (m = 0; m < 3; m++) {
          s.method = m;
          s.alpha_radius = alpha[a];
          s.preserve_alpha = keep;
          /* AYUV: Y, UV and A in three jobs on one plane */
          s.chroma_radius = a == 3 ? 1 : -1;
          push_settings_and_check (h, &info, 0, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* chroma-radius=0: every chroma byte comes out as it went in, also with no
 * luma radius left to filter anything else. */
GST_START_TEST (test_luma_only)
{
  static const gchar *formats[] = { "I420", "NV12", "AYUV", "YUY2" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBuffer *in, *out;
    GstVideoFrame fin, fout;
    gint x, y, c, changed = 0;

    set_format (h, &info, formats[f], 40, 24);
    in = make_frame (&info, 0, 99 + f);
    g_object_set (h->element, "radius", 4, "radius-y", -1, "chroma-radius",
        0, "sigma", 0.0, NULL);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (&info); c++) {
      gint w = GST_VIDEO_INFO_COMP_WIDTH (&info, c);
      gint ht = GST_VIDEO_INFO_COMP_HEIGHT (&info, c);
      gint ps = GST_VIDEO_INFO_COMP_PSTRIDE (&info, c);

      for (y = 0; y < ht; y++) {
        for (x = 0; x < w; x++) {
          guint8 a = GST_VIDEO_FRAME_COMP_DATA (&fin, c)
              [y * GST_VIDEO_FRAME_COMP_STRIDE (&fin, c) + x * ps];
          guint8 b = GST_VIDEO_FRAME_COMP_DATA (&fout, c)
              [y * GST_VIDEO_FRAME_COMP_STRIDE (&fout, c) + x * ps];

          if (c == GST_VIDEO_COMP_Y)
            changed += a != b;
          else if (c != GST_VIDEO_COMP_A && a != b)
            fail ("%s: chroma component %d (%d, %d) changed from %u to %u",
                formats[f], c, x, y, a, b);
        }
      }
    }
    fail_unless (changed > 0, "%s: luma not filtered", formats[f]);
    gst_video_frame_unmap (&fin);
    gst_video_frame_unmap (&fout);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The test's own formula against radii worked out by hand. */
GST_START_TEST (test_sigma_formula)
{
  /* sigma, then the three radii */
  static const struct
  {
    gdouble sigma;
    guint r[3];
  } cases[] = {
    /* w = sqrt (5) = 2.24, wl = 1, m = round ((12 - 3 - 12 - 9) / -8) = 2 */
    {1.0, {0, 0, 1}},
    /* w = sqrt (17) = 4.12, wl = 3, m = round ((48 - 27 - 36 - 9) / -16)
     * = round (1.5) = 2 */
    {2.0, {1, 1, 2}},
    /* w = sqrt (37) = 6.08, wl = 5, m = round ((108 - 75 - 60 - 9) / -24)
     * = round (1.5) = 2 */
    {3.0, {2, 2, 3}},
    /* w = sqrt (101) = 10.05, wl = 9, m = round ((300 - 243 - 108 - 9) /
     * -40) = round (1.5) = 2 */
    {5.0, {4, 4, 5}},
    /* w = sqrt (1.16) = 1.08, wl = 1, m = round ((0.48 - 3 - 12 - 9) /
     * -8) = round (2.94) = 3: no blur left */
    {0.2, {0, 0, 0}},
    /* w = sqrt (1601) = 40.01, wl = 39, m = round ((4800 - 4563 - 468 -
     * 9) / -160) = round (1.5) = 2 */
    {20.0, {19, 19, 20}},
  };
  guint i, k, r[3];

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gaussian_box_radii (cases[i].sigma, 3, r);
    for (k = 0; k < 3; k++)
      fail_unless_equals_int (r[k], cases[i].r[k]);
  }
}

GST_END_TEST;

/* sigma's three passes equal the reference applied three times, with
 * chroma derived and of its own, on every box method and border. */
GST_START_TEST (test_sigma)
{
  static const gchar *formats[] = { "GRAY8", "RGBA", "I420", "NV12", "AYUV",
    "YUY2", "A420", "GRAY16_LE"
  };
  static const gdouble sigmas[] = { 0.6, 1.0, 2.0, 3.3, 7.5 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, k, m, b;

  s.rx = s.ry = 9;              /* overridden by sigma */
  s.passes = 2;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 45, 31);
    for (k = 0; k < G_N_ELEMENTS (sigmas); k++) {
      for (m = 0; m < 2; m++) {
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.method = m;
          s.border = borders[b];
          s.sigma = sigmas[k];
          s.chroma_radius = k == 2 ? 2 : -1;
          s.alpha_radius = k == 3 ? 0 : -1;
          push_settings_and_check (h, &info, 4, &s);
        }
      }
    }
  }
  /* bilateral ignores sigma */
  s.method = METHOD_BILATERAL;
  s.sigma = 4.0;
  s.rx = s.ry = 2;
  s.passes = 1;
  s.chroma_radius = -1;
  s.alpha_radius = -1;
  push_settings_and_check (h, &info, 0, &s);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A region with chroma and alpha radii of their own: each job
 * composited, left-out components untouched inside the region too. */
GST_START_TEST (test_planes_region)
{
  static const gchar *formats[] = { "NV12", "AYUV", "YUY2", "A420" };
  static const gint chroma[] = { 0, 2 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, c, m;

  s.rx = s.ry = 3;
  s.use_rects = TRUE;
  s.n_rects = 1;
  s.rects[0][0] = 7;
  s.rects[0][1] = 5;
  s.rects[0][2] = 20;
  s.rects[0][3] = 11;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 36, 24);
    for (c = 0; c < G_N_ELEMENTS (chroma); c++) {
      for (m = 0; m < 3; m++) {
        s.method = m;
        s.chroma_radius = chroma[c];
        s.alpha_radius = c == 0 ? 4 : 0;
        s.invert = c == 1;
        g_object_set (h->element, "region-x", s.rects[0][0], "region-y",
            s.rects[0][1], "region-width", s.rects[0][2], "region-height",
            s.rects[0][3], "region-invert", s.invert, NULL);
        push_settings_and_check (h, &info, 0, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* radius 0 with a chroma radius filters chroma: no passthrough. */
GST_START_TEST (test_chroma_without_luma)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;

  set_format (h, &info, "I420", 32, 16);
  s.rx = s.ry = 0;
  s.chroma_radius = 2;
  push_settings_and_check (h, &info, 0, &s);
  fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (h->element)));
  s.chroma_radius = 0;
  s.sigma = 0;
  push_settings_and_check (h, &info, 0, &s);
  fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
          (h->element)));
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_planes_suite (void)
{
  Suite *s = suite_create ("clboxblur_planes");
  TCase *tc = tcase_create ("general");

  blurcheck_add_fixture (tc);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_chroma_radius);
  tcase_add_test (tc, test_alpha_radius);
  tcase_add_test (tc, test_luma_only);
  tcase_add_test (tc, test_sigma_formula);
  tcase_add_test (tc, test_sigma);
  tcase_add_test (tc, test_chroma_without_luma);
  tcase_add_test (tc, test_planes_region);
  return s;
}

BLURCHECK_MAIN (clboxblur_planes);
