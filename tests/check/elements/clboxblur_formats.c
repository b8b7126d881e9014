/* GStreamer unit tests for clboxblur: formats and layouts
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every format the element takes and ones it refuses, padded strides, the
 * copy path, radius 0 (passthrough), renegotiation to another format and
 * size, and interlaced video filtered field by field.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

GST_START_TEST (test_refused_caps)
{
  static const gchar *refused[] = { "RGB16", "v210", "NV16", "GBR", "Y41B" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
    GstSegment segment;
    GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
        G_TYPE_STRING, refused[i], "width", G_TYPE_INT, 64, "height",
        G_TYPE_INT, 48, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);

    fail_if (gst_pad_query_accept_caps (sinkpad, caps), "%s accepted",
        refused[i]);
    gst_harness_push_event (h, gst_event_new_stream_start ("refused"));
    gst_harness_push_event (h, gst_event_new_caps (caps));
    gst_segment_init (&segment, GST_FORMAT_TIME);
    gst_harness_push_event (h, gst_event_new_segment (&segment));
    /* Nothing was configured, so the next buffer cannot go through. */
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_new_allocate (NULL, 64 * 48 * 4, NULL)),
        GST_FLOW_NOT_NEGOTIATED);
    fail_unless_equals_int (gst_harness_buffers_received (h), 0);
    gst_caps_unref (caps);
    gst_object_unref (sinkpad);
    blurcheck_harness_teardown (h);
  }
}

GST_END_TEST;

/* radius=0 hands the frame on untouched. */
GST_START_TEST (test_radius_zero_identical)
{
  GstHarness *h = blurcheck_harness_new_parse ("clboxblur radius=0");
  GstVideoInfo info;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    GstBuffer *in, *out;
    GstMapInfo mi, mo;

    set_format (h, &info, packed_formats[f], 33, 17);
    in = make_frame (&info, 7, f);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
    fail_unless_equals_uint64 (mi.size, mo.size);
    fail_unless (memcmp (mi.data, mo.data, mi.size) == 0);
    gst_buffer_unmap (in, &mi);
    gst_buffer_unmap (out, &mo);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_every_format)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {17, 9}, {385, 289} };
  GstVideoInfo info;
  guint f, s, b;

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      set_format (h, &info, packed_formats[f], sizes[s][0], sizes[s][1]);
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        push_and_check (h, &info, 0, 1, -1, borders[b]);
        push_and_check (h, &info, 0, 4, -1, borders[b]);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* CPUs run separable 8-bit frames straight from the input buffer into the
 * output one (CL_MEM_USE_HOST_PTR); the copy path they take elsewhere
 * (CLBOXBLUR_ZERO_COPY=0, and every device not of the CPU class) gives the
 * same pixels. */
GST_START_TEST (test_copy_path)
{
  static const gint sizes[][2] = { {1, 1}, {97, 61}, {385, 289} };
  static const guint radii[] = { 2, 31, 200 };
  GstHarness *h;
  GstVideoInfo info;
  Settings s = default_settings;
  guint f, z, r, b;

  s.method = METHOD_SEPARABLE;
  g_setenv (CLB_ZERO_COPY_ENV, "0", TRUE);
  h = blurcheck_harness_new ("clboxblur");
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    if (f > 0 && g_str_has_prefix (all_formats[f], "GRAY16"))
      break;                    /* the 8-bit formats come first */
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, all_formats[f], sizes[z][0], sizes[z][1]);
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.rx = s.ry = radii[r];
          s.border = borders[b];
          push_settings_and_check (h, &info, z, &s);
        }
    }
  }
  blurcheck_harness_teardown (h);
  g_unsetenv (CLB_ZERO_COPY_ENV);
}

GST_END_TEST;

/* Input rows padded (odd amounts included) and described by GstVideoMeta. */
GST_START_TEST (test_padded_stride)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  static const guint pads[] = { 1, 13, 64 };
  GstVideoInfo info;
  guint f, p, b;

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    set_format (h, &info, packed_formats[f], 385, 289);
    for (p = 0; p < G_N_ELEMENTS (pads); p++)
      for (b = 0; b < G_N_ELEMENTS (borders); b++)
        push_and_check (h, &info, pads[p], 5, 3, borders[b]);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* YUY2 and UYVY at even widths, where the CPU class runs their Y and UV
 * jobs in one walk (separable_fused_422_x16) from the input buffer into
 * the output one: every border, padded rows, radii past the frame, odd
 * heights, a chroma radius of its own (the same radius-y as luma's: still
 * one walk; another: each job alone), two passes (in place). */
GST_START_TEST (test_packed_422_even)
{
  static const gchar *formats[] = { "YUY2", "UYVY" };
  static const gint sizes[][2] = { {2, 1}, {64, 7}, {386, 289} };
  static const guint radii[] = { 1, 6, 120 };
  static const guint pads[] = { 0, 13 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  Settings s = default_settings;
  guint f, z, r, b;

  s.method = METHOD_SEPARABLE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, formats[f], sizes[z][0], sizes[z][1]);
      for (r = 0; r < G_N_ELEMENTS (radii); r++) {
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.rx = s.ry = radii[r];
          s.border = borders[b];
          s.passes = 1 + (r + b) % 2;
          s.chroma_radius = (r + b + z) % 3 == 2 ? (gint) radii[r]
              : (r + b + z) % 3 == 1 ? (gint) radii[r] / 2 + 1 : -1;
          push_settings_and_check (h, &info, pads[(r + b) % 2], &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Renegotiating to another size and format rebuilds the buffers. */
GST_START_TEST (test_renegotiate)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;

  set_format (h, &info, "RGBA", 64, 48);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);
  set_format (h, &info, "GRAY8", 321, 7);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);
  set_format (h, &info, "RGB", 5, 400);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_REFLECT);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Pushes a random interlaced frame of @info through @h under @s and checks
 * each field of the output against the reference applied to that field of
 * the input alone (@s's rectangles are in frame rows). */
static void
push_fields_and_check (GstHarness * h, const GstVideoInfo * info,
    const Settings * s, gboolean flag)
{
  GstVideoInfo finfo;
  GstBuffer *in = make_frame (info, 0, s->rx * 131 + s->method), *out;
  guint f, r;

  if (flag)
    GST_BUFFER_FLAG_SET (in, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  gst_video_info_set_format (&finfo, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info) / 2);
  apply_settings (h, s);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  for (f = 0; f < 2; f++) {
    GstBuffer *fin = blurcheck_field_of (info, &finfo, in, f);
    GstBuffer *fout = blurcheck_field_of (info, &finfo, out, f);
    Settings fs = *s;

    for (r = 0; r < fs.n_rects; r++) {
      gint top = blurcheck_field_row (s->rects[r][1], f);

      fs.rects[r][1] = top;
      fs.rects[r][3] = MAX (blurcheck_field_row (s->rects[r][1]
              + s->rects[r][3], f) - top, 0);
    }
    check_frame (&finfo, fin, fout, &fs);
    gst_buffer_unref (fin);
    gst_buffer_unref (fout);
  }
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Interlaced video: interleaved frames, and mixed ones flagged interlaced,
 * are filtered field by field (mosaic's blocks in field rows), every
 * method, format family and a region;
 * a mixed frame without the flag is filtered whole; a height that would
 * give fields of two sizes is refused. */
GST_START_TEST (test_interlaced)
{
  static const gchar *formats[] = { "RGBA", "BGRx", "RGB", "GRAY8", "I420",
    "NV12", "YUY2", "AYUV", "GRAY16_LE", "P010_10LE"
  };
  GstVideoInterlaceMode modes[] = { GST_VIDEO_INTERLACE_MODE_INTERLEAVED,
    GST_VIDEO_INTERLACE_MODE_MIXED
  };
  guint f, m, k;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      GstHarness *h = blurcheck_harness_new ("clboxblur");
      GstVideoInfo info;

      gst_video_info_set_interlaced_format (&info,
          gst_video_format_from_string (formats[f]), modes[m], 38, 28);
      gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
      /* every method, mosaic and fill too: blocks in field rows */
      for (k = 0; k <= METHOD_FILL; k++) {
        Settings s = default_settings;

        s.method = (Method) k;
        s.rx = k == METHOD_BILATERAL ? 2 : 3;
        s.ry = k == METHOD_BILATERAL ? 2 : 4;
        s.border = borders[k % 3];
        s.block_size = 6;
        s.fill_color = 0xff3080c0u;
        s.sigma_range = 60;
        push_fields_and_check (h, &info, &s, TRUE);
      }
      {
        /* a region from an odd row to an odd row */
        Settings s = default_settings;

        s.rx = s.ry = 2;
        s.use_rects = TRUE;
        s.n_rects = 1;
        s.rects[0][0] = 5;
        s.rects[0][1] = 3;
        s.rects[0][2] = 20;
        s.rects[0][3] = 15;
        g_object_set (h->element, "region-x", 5, "region-y", 3,
            "region-width", 20, "region-height", 15, NULL);
        push_fields_and_check (h, &info, &s, TRUE);
        g_object_set (h->element, "region-x", 0, "region-y", 0,
            "region-width", 0, "region-height", 0, NULL);
      }
      if (modes[m] == GST_VIDEO_INTERLACE_MODE_MIXED) {
        /* a progressive frame of mixed video: filtered whole */
        Settings s = default_settings;
        GstVideoInfo pinfo;

        s.rx = 3;
        s.ry = 3;
        gst_video_info_set_format (&pinfo, GST_VIDEO_INFO_FORMAT (&info),
            38, 28);
        push_settings_and_check (h, &pinfo, 0, &s);
        push_fields_and_check (h, &info, &s, TRUE);
      }
      blurcheck_harness_teardown (h);
    }
  }

  {
    /* I420 of height 26: chroma rows 13, fields of 7 and 6 rows */
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GstVideoInfo info;

    gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420,
        GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 38, 26);
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, 1)),
        GST_FLOW_NOT_NEGOTIATED);
    blurcheck_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
clboxblur_formats_suite (void)
{
  Suite *s = suite_create ("clboxblur_formats");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_refused_caps);
  tcase_add_test (tc, test_radius_zero_identical);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_copy_path);
  tcase_add_test (tc, test_padded_stride);
  tcase_add_test (tc, test_packed_422_even);
  tcase_add_test (tc, test_renegotiate);
  tcase_add_test (tc, test_interlaced);
  return s;
}

BLURCHECK_MAIN (clboxblur_formats);
