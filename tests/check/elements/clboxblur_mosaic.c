/* GStreamer unit tests for clboxblur: mosaic and fill
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * method=mosaic (block-size) and method=fill (fill-color) against the
 * plain-C reference (ref_mosaic, ref_rgb_to_yuv): every format, sizes
 * that are not multiples of the block, padded strides, inside regions
 * and ROI metas, alpha kept, odd block sizes refused.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

/* Every format, odd sizes (blocks cut off at the right and bottom edges,
 * 4:2:0 chroma of odd size), block sizes from the smallest (chroma blocks
 * of one sample) to larger than the frame, rows packed and padded. */
GST_START_TEST (test_mosaic_formats)
{
  static const guint blocks[] = { 2, 6, 16, 64 };
  /* odd and even widths: packed 4:2:2 takes its two jobs in one walk
   * at even widths (whole 16-byte steps and blocks, then a row's last
   * bytes one block at a time: 70 pixels) */
  static const gint sizes[][2] = { {37, 23}, {16, 9}, {70, 9} };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, z, b, pad;

  s.method = METHOD_MOSAIC;
  for (f = 0; f < BLURCHECK_N_ALL_FORMATS; f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, all_formats[f], sizes[z][0], sizes[z][1]);
      for (b = 0; b < G_N_ELEMENTS (blocks); b++) {
        for (pad = 0; pad <= 12; pad += 12) {
          s.block_size = blocks[b];
          /* the radii are not used: a radius of 0 does not pass through */
          s.rx = s.ry = b == 1 ? 0 : 3;
          push_settings_and_check (h, &info, pad, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Every format, colours with and without alpha; YUV with each matrix and
 * both ranges the caps may give. */
GST_START_TEST (test_fill_formats)
{
  static const guint32 colors[] = { 0xff000000u, 0xffffffffu, 0x80336699u,
    0x00ff0000u, 0xff00ff00u, 0x400000ffu, 0xff808080u
  };
  static const gchar *colorimetries[] = { "bt601", "bt709", "bt2020",
    "1:4:0:0", "2:3:5:1", "1:6:0:0", "2:2:0:0", "2:5:0:0"
  };
  static const gchar *yuv[] = { "I420", "NV12", "AYUV", "YUY2", "P010_10LE",
    "Y444_10LE", "A420"
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, c, k;

  s.method = METHOD_FILL;
  for (f = 0; f < BLURCHECK_N_ALL_FORMATS; f++) {
    set_format (h, &info, all_formats[f], 21, 13);
    for (c = 0; c < G_N_ELEMENTS (colors); c++) {
      s.fill_color = colors[c];
      push_settings_and_check (h, &info, c % 2 ? 8 : 0, &s);
    }
  }
  for (f = 0; f < G_N_ELEMENTS (yuv); f++) {
    for (k = 0; k < G_N_ELEMENTS (colorimetries); k++) {
      GstCaps *caps;

      gst_video_info_set_format (&info, gst_video_format_from_string (yuv[f]),
          19, 11);
      fail_unless (gst_video_colorimetry_from_string (&info.colorimetry,
              colorimetries[k]));
      caps = gst_video_info_to_caps (&info);
      gst_harness_set_src_caps (h, caps);
      for (c = 0; c < G_N_ELEMENTS (colors); c++) {
        s.fill_color = colors[c];
        push_settings_and_check (h, &info, 0, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The formula itself on known colours (BT.601 limited range, 8 bits):
 * black 16/128/128, white 235/128/128, and the conversion of pure red. */
GST_START_TEST (test_fill_known_values)
{
  gint yuv[3];

  ref_rgb_to_yuv (0, 0, 0, 0.299, 0.114, 8, 0, yuv);
  fail_unless (yuv[0] == 16 && yuv[1] == 128 && yuv[2] == 128);
  ref_rgb_to_yuv (255, 255, 255, 0.299, 0.114, 8, 0, yuv);
  fail_unless (yuv[0] == 235 && yuv[1] == 128 && yuv[2] == 128);
  /* red: Y = 16 + 219 x 0.299 = 81.48, V = 128 + 112 = 240 */
  ref_rgb_to_yuv (255, 0, 0, 0.299, 0.114, 8, 0, yuv);
  fail_unless (yuv[0] == 81 && yuv[2] == 240, "%d %d %d", yuv[0], yuv[1],
      yuv[2]);
  /* full range, 10 bits: white 1023, mid-grey chroma 512 */
  ref_rgb_to_yuv (255, 255, 255, 0.2126, 0.0722, 10, 1, yuv);
  fail_unless (yuv[0] == 1023 && yuv[1] == 512 && yuv[2] == 512);
}

GST_END_TEST;

/* Inside the region-* rectangle (and outside it, inverted) and inside ROI
 * metas: the filtered frame composited, the rest unchanged; blocks stay
 * aligned to the frame as the region moves. */
GST_START_TEST (test_mosaic_regions)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2",
    "P010_10LE", "RGB"
  };
  static const gint rects[][4] = {
    {10, 5, 20, 12}, {11, 6, 20, 12}, {0, 0, 7, 40}, {50, 30, 100, 100},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, r, m, inv;

  s.use_rects = TRUE;
  s.n_rects = 1;
  s.block_size = 8;
  s.fill_color = 0xff20c040u;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (r = 0; r < G_N_ELEMENTS (rects); r++) {
      for (inv = 0; inv < 2; inv++) {
        for (m = METHOD_MOSAIC; m <= METHOD_FILL; m++) {
          s.method = m;
          s.invert = inv;
          memcpy (s.rects[0], rects[r], sizeof (rects[r]));
          g_object_set (h->element, "region-x", rects[r][0], "region-y",
              rects[r][1], "region-width", rects[r][2], "region-height",
              rects[r][3], "region-invert", (gboolean) inv, NULL);
          push_settings_and_check (h, &info, 0, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_mosaic_roi_meta)
{
  static const gint rois[][4] = {
    {5, 4, 10, 8}, {50, 30, 30, 30}, {0, 0, 6, 6}, {30, 0, 5, 41},
  };
  static const gchar *formats[] = { "RGBA", "NV12", "I420_10LE" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, i;

  s.use_rects = TRUE;
  s.block_size = 6;
  s.fill_color = 0xff000000u;
  g_object_set (h->element, "roi-meta", TRUE, "roi-padding", 2, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (m = METHOD_MOSAIC; m <= METHOD_FILL; m++) {
      GstBuffer *in = make_frame (&info, 0, f * 3 + m);

      s.method = m;
      s.n_rects = 0;
      for (i = 0; i < G_N_ELEMENTS (rois); i++) {
        gst_buffer_add_video_region_of_interest_meta (in, "face",
            rois[i][0], rois[i][1], rois[i][2], rois[i][3]);
        s.rects[i][0] = rois[i][0] - 2;
        s.rects[i][1] = rois[i][1] - 2;
        s.rects[i][2] = rois[i][2] + 4;
        s.rects[i][3] = rois[i][3] + 4;
        s.n_rects++;
      }
      push_buffer_and_check (h, &info, in, &s);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Alpha kept with preserve-alpha or alpha-radius=0; chroma-radius, the
 * radii, passes, sigma and border ignored (chroma always mosaicked). */
GST_START_TEST (test_mosaic_other_properties)
{
  static const gchar *formats[] = { "RGBA", "AYUV", "A420", "I420",
    "RGBA64_LE"
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, k;

  s.block_size = 4;
  s.fill_color = 0x80c08040u;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 30, 17);
    for (m = METHOD_MOSAIC; m <= METHOD_FILL; m++) {
      for (k = 0; k < 4; k++) {
        s.method = m;
        s.preserve_alpha = k == 1;
        s.alpha_radius = k == 2 ? 0 : k == 3 ? 5 : -1;
        s.chroma_radius = k == 0 ? 0 : k == 3 ? 2 : -1;
        s.passes = k + 1;
        s.sigma = k == 3 ? 2.5 : 0.0;
        s.border = k % 3;
        push_settings_and_check (h, &info, 0, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* An odd block size is refused at set time, with a warning, and the
 * previous one kept; the range is CLB_MIN_BLOCK_SIZE..CLB_MAX_BLOCK_SIZE. */
GST_START_TEST (test_block_size_refused)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  GParamSpecUInt *spec;
  guint v;

  fail_unless (e != NULL);
  g_object_set (e, "block-size", 10, NULL);
  ASSERT_WARNING (g_object_set (e, "block-size", 7, NULL));
  g_object_get (e, "block-size", &v, NULL);
  fail_unless_equals_int (v, 10);
  ASSERT_WARNING (g_object_set (e, "block-size", 255, NULL));
  g_object_get (e, "block-size", &v, NULL);
  fail_unless_equals_int (v, 10);
  g_object_set (e, "block-size", 256, NULL);
  g_object_get (e, "block-size", &v, NULL);
  fail_unless_equals_int (v, 256);
  spec = G_PARAM_SPEC_UINT (g_object_class_find_property (G_OBJECT_GET_CLASS
          (e), "block-size"));
  fail_unless_equals_int (spec->minimum, 2);
  fail_unless_equals_int (spec->maximum, 256);
  fail_unless_equals_int (spec->default_value, 16);
  gst_object_unref (e);
}

GST_END_TEST;

/* The largest block on 16-bit samples of the maximum value: the sums are
 * exact in 32 bits (65536 x 65535 + 32768 < 2^32). */
GST_START_TEST (test_mosaic_largest_block)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;

  s.method = METHOD_MOSAIC;
  s.block_size = 256;
  set_format (h, &info, "GRAY16_LE", 300, 260);
  push_settings_and_check (h, &info, 0, &s);
  set_format (h, &info, "RGBA", 300, 260);
  push_settings_and_check (h, &info, 4, &s);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_mosaic_suite (void)
{
  Suite *s = suite_create ("clboxblur_mosaic");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_mosaic_formats);
  tcase_add_test (tc, test_fill_formats);
  tcase_add_test (tc, test_fill_known_values);
  tcase_add_test (tc, test_mosaic_regions);
  tcase_add_test (tc, test_mosaic_roi_meta);
  tcase_add_test (tc, test_mosaic_other_properties);
  tcase_add_test (tc, test_block_size_refused);
  tcase_add_test (tc, test_mosaic_largest_block);
  return s;
}

BLURCHECK_MAIN (clboxblur_mosaic);
