/* GStreamer unit tests for clboxblur: regions
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The region-* properties and region-of-interest metas.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

/* One rectangle from the region-* properties, plain and inverted, inside
 * the frame, on its edges and partly outside, every method, with
 * subsampled chroma. */
GST_START_TEST (test_region)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2" };
  static const gint rects[][4] = {
    {10, 5, 20, 12}, {0, 0, 7, 40}, {50, 30, 100, 100}, {3, 3, 0, 0},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, r, m, inv;

  s.rx = 3;
  s.ry = 2;
  s.use_rects = TRUE;
  s.n_rects = 1;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (r = 0; r < G_N_ELEMENTS (rects); r++) {
      for (inv = 0; inv < 2; inv++) {
        for (m = 0; m < 3; m++) {
          s.method = m;
          s.invert = inv;
          s.passes = m == METHOD_SEPARABLE ? 3 : 1;
          memcpy (s.rects[0], rects[r], sizeof (rects[r]));
          g_object_set (h->element, "region-x", rects[r][0], "region-y",
              rects[r][1], "region-width", rects[r][2], "region-height",
              rects[r][3], "region-invert", (gboolean) inv, NULL);
          /* width/height 0 reach the frame's edge */
          if (rects[r][2] == 0)
            s.rects[0][2] = 61 - rects[r][0];
          if (rects[r][3] == 0)
            s.rects[0][3] = 41 - rects[r][1];
          push_settings_and_check (h, &info, 0, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Region-of-interest metas: several per frame, typed, padded, at the
 * frame's edges and partly outside it; they stay on the output buffer. */
GST_START_TEST (test_roi_meta)
{
  static const struct
  {
    const gchar *type;
    gint x, y, w, h;
  } rois[] = {
    {"face", 5, 4, 10, 8}, {"face", 50, 30, 30, 30}, {"plate", 0, 0, 6, 6},
    {"face", 30, 0, 5, 41},
  };
  static const gchar *formats[] = { "RGBA", "NV12" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, t, pad, m, i;

  s.rx = s.ry = 2;
  s.use_rects = TRUE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (t = 0; t < 3; t++) {
      const gchar *type = t == 0 ? NULL : t == 1 ? "face" : "plate";

      for (pad = 0; pad <= 3; pad += 3) {
        for (m = 0; m < 3; m++) {
          GstBuffer *in = make_frame (&info, 0, t * 10 + pad + m);
          GstBuffer *out;
          guint n_out = 0;
          gpointer state = NULL;

          s.method = m;
          s.n_rects = 0;
          for (i = 0; i < G_N_ELEMENTS (rois); i++) {
            gst_buffer_add_video_region_of_interest_meta (in, rois[i].type,
                rois[i].x, rois[i].y, rois[i].w, rois[i].h);
            if (type && strcmp (type, rois[i].type) != 0)
              continue;
            s.rects[s.n_rects][0] = rois[i].x - pad;
            s.rects[s.n_rects][1] = rois[i].y - pad;
            s.rects[s.n_rects][2] = rois[i].w + 2 * pad;
            s.rects[s.n_rects][3] = rois[i].h + 2 * pad;
            s.n_rects++;
          }
          g_object_set (h->element, "roi-meta", TRUE, "roi-type", type,
              "roi-padding", pad, NULL);
          apply_settings (h, &s);
          fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
              GST_FLOW_OK);
          out = gst_harness_pull (h);
          check_frame (&info, in, out, &s);
          while (gst_buffer_iterate_meta_filtered (out, &state,
                  GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
            n_out++;
          fail_unless_equals_int (n_out, G_N_ELEMENTS (rois));
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
      }
    }
    /* A buffer without metas passes unfiltered; inverted, all filtered. */
    s.n_rects = 0;
    s.invert = FALSE;
    push_settings_and_check (h, &info, 0, &s);
    g_object_set (h->element, "region-invert", TRUE, NULL);
    s.invert = TRUE;
    push_settings_and_check (h, &info, 0, &s);
    g_object_set (h->element, "region-invert", FALSE, NULL);
    s.invert = FALSE;
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* region-shape and region-feather on the region-* rectangle: rectangle and
 * ellipse, hard and feathered, plain and inverted, box and bilateral, on
 * odd sizes of packed, 4:2:0, packed YUV, 10-bit (shifted) and big-endian
 * formats; a rectangle wider than high, one reaching the frame's edge, a
 * large one. */
GST_START_TEST (test_region_shape_feather)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2", "RGB",
    "P010_10LE", "GRAY16_BE"
  };
  /* the last one holds whole 16x16 tiles, which the engine copies
   * without testing each sample */
  static const gint rects[][4] = { {9, 6, 31, 17}, {40, 20, 21, 21},
    {2, 3, 57, 37}
  };
  static const guint feathers[] = { 0, 1, 5 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, r, shape, fe, inv, m;

  s.rx = 3;
  s.ry = 2;
  s.use_rects = TRUE;
  s.n_rects = 1;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (r = 0; r < G_N_ELEMENTS (rects); r++) {
      memcpy (s.rects[0], rects[r], sizeof (rects[r]));
      g_object_set (h->element, "region-x", rects[r][0], "region-y",
          rects[r][1], "region-width", rects[r][2], "region-height",
          rects[r][3], NULL);
      for (shape = 0; shape < 2; shape++) {
        for (fe = 0; fe < G_N_ELEMENTS (feathers); fe++) {
          for (inv = 0; inv < 2; inv++) {
            /* bilateral on one format: its own composite direction */
            for (m = 0; m < (f == 0 ? 3u : 1u); m++) {
              s.method = m == 0 ? METHOD_SAT : m == 1 ? METHOD_SEPARABLE :
                  METHOD_BILATERAL;
              s.shape = shape;
              s.feather = feathers[fe];
              s.invert = inv;
              g_object_set (h->element, "region-invert", (gboolean) inv,
                  NULL);
              push_settings_and_check (h, &info, 0, &s);
            }
          }
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A crowd: 100 small region-of-interest metas of random sizes, many
 * overlapping, some partly or wholly outside the frame (within and past
 * the feather), every shape and feather, plain and inverted, on 4:2:0 and
 * packed formats at odd sizes: the tiles' lists against the reference. */
GST_START_TEST (test_roi_crowd)
{
  static const gchar *formats[] = { "NV12", "RGBx", "I420" };
  static const guint feathers[] = { 0, 4 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, shape, fe, inv, i;

  s.rx = s.ry = 2;
  s.use_rects = TRUE;
  g_object_set (h->element, "roi-meta", TRUE, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gint width = 131 + 2 * f, height = 77;

    set_format (h, &info, formats[f], width, height);
    for (shape = 0; shape < 2; shape++) {
      for (fe = 0; fe < G_N_ELEMENTS (feathers); fe++) {
        for (inv = 0; inv < 2; inv++) {
          GRand *rand = g_rand_new_with_seed (f * 8 + shape * 4 + fe * 2 + inv);
          GstBuffer *in = make_frame (&info, 0, 100 + f + shape + fe + inv);

          s.shape = shape;
          s.feather = feathers[fe];
          s.invert = inv;
          s.n_rects = 100;
          for (i = 0; i < s.n_rects; i++) {
            /* x, y from a few pixels before the frame to a few past it */
            gint x = g_rand_int_range (rand, 0, width + 8);
            gint y = g_rand_int_range (rand, 0, height + 8);
            gint w = g_rand_int_range (rand, 1, 14);
            gint hh = g_rand_int_range (rand, 1, 14);

            gst_buffer_add_video_region_of_interest_meta (in, "face", x, y, w,
                hh);
            /* roi-padding 3: the metas grown by 3 on every side */
            s.rects[i][0] = x - 3;
            s.rects[i][1] = y - 3;
            s.rects[i][2] = w + 6;
            s.rects[i][3] = hh + 6;
          }
          g_rand_free (rand);
          g_object_set (h->element, "roi-padding", 3, "region-invert",
              (gboolean) inv, NULL);
          push_buffer_and_check (h, &info, in, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Circles: ROI metas as squares (the demo's crowd, facedetect's windows),
 * whose steps the CPU class's composite takes in closed form, and in a
 * full-resolution plane row after row from the first row reached
 * (kernels/region.cl, clb_ellipse_rows16), odd and even sides from 1 to
 * 48 and four of 70 to 97 (past the frame's right and bottom edges),
 * feathers from 0 to past the frame's height, plain and inverted, on
 * GRAY8 (the steps made a plane alone), NV12 and I420 (the chroma's from
 * the luma's map, 2x2 blocks), Y42B and YUY2 (4:2:2: 2x1 blocks) and
 * RGBA at odd sizes. */
GST_START_TEST (test_roi_circles)
{
  static const gchar *formats[] = { "GRAY8", "NV12", "I420", "Y42B", "YUY2",
    "RGBA"
  };
  static const guint feathers[] = { 0, 1, 3, 8, 21, 90 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, fe, inv, i;

  s.rx = s.ry = 2;
  s.use_rects = TRUE;
  s.shape = REF_SHAPE_ELLIPSE;
  g_object_set (h->element, "roi-meta", TRUE, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "region-shape", "ellipse");
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    gint width = 97 + 2 * f, height = 65;

    set_format (h, &info, formats[f], width, height);
    for (fe = 0; fe < G_N_ELEMENTS (feathers); fe++) {
      for (inv = 0; inv < 2; inv++) {
        GRand *rand = g_rand_new_with_seed (100 + f * 16 + fe * 2 + inv);
        GstBuffer *in = make_frame (&info, 0, 200 + f + fe + inv);

        s.feather = feathers[fe];
        s.invert = inv;
        s.n_rects = 40;
        for (i = 0; i < s.n_rects; i++) {
          gint side = i < 4 ? 70 + 9 * (gint) i :
              g_rand_int_range (rand, 1, 49);
          gint x = g_rand_int_range (rand, -side / 2, width);
          gint y = g_rand_int_range (rand, -side / 2, height);

          gst_buffer_add_video_region_of_interest_meta (in, "face",
              MAX (x, 0), MAX (y, 0), side, side);
          s.rects[i][0] = MAX (x, 0);
          s.rects[i][1] = MAX (y, 0);
          s.rects[i][2] = side;
          s.rects[i][3] = side;
        }
        g_rand_free (rand);
        g_object_set (h->element, "region-feather", feathers[fe],
            "region-invert", (gboolean) inv, NULL);
        push_buffer_and_check (h, &info, in, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The two properties: defaults, values, the feather's bound. */
GST_START_TEST (test_region_properties)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  guint feather;
  gint shape;

  g_object_get (h->element, "region-shape", &shape, "region-feather",
      &feather, NULL);
  fail_unless_equals_int (shape, REF_SHAPE_RECTANGLE);
  fail_unless_equals_int (feather, 0);
  gst_util_set_object_arg (G_OBJECT (h->element), "region-shape", "ellipse");
  g_object_set (h->element, "region-feather", 1024, NULL);
  g_object_get (h->element, "region-shape", &shape, "region-feather",
      &feather, NULL);
  fail_unless_equals_int (shape, REF_SHAPE_ELLIPSE);
  fail_unless_equals_int (feather, 1024);
  /* values past the bound are refused by GLib at set time */
  fail_unless_equals_int (G_PARAM_SPEC_UINT (g_object_class_find_property
          (G_OBJECT_GET_CLASS (h->element), "region-feather"))->maximum,
      1024);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_regions_suite (void)
{
  Suite *s = suite_create ("clboxblur_regions");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_region);
  tcase_add_test (tc, test_roi_meta);
  tcase_add_test (tc, test_region_shape_feather);
  tcase_add_test (tc, test_roi_crowd);
  tcase_add_test (tc, test_roi_circles);
  tcase_add_test (tc, test_region_properties);
  return s;
}

BLURCHECK_MAIN (clboxblur_regions);
