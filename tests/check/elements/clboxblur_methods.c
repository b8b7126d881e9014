/* GStreamer unit tests for clboxblur: the methods
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Sat, separable and bilateral on every format and border, flat frames, step
 * edges, several passes, preserve-alpha, bilateral at large radii, and
 * bilateral's window bound.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

/* Every method on every format and border, odd sizes, padded strides. */
GST_START_TEST (test_methods_formats)
{
  static const gint sizes[][2] = { {1, 1}, {17, 9}, {385, 289} };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, z, m, b;
  ClcheckSweep sweep;

  s.rx = 2;
  s.ry = 3;
  s.sigma_spatial = 2.0;
  s.sigma_range = 25.0;
  clcheck_sweep_init (&sweep, "test_methods_formats");
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, all_formats[f], sizes[z][0], sizes[z][1]);
      for (m = 0; m < 3; m++) {
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          if (!clcheck_sweep_take (&sweep))
            continue;
          s.method = m;
          s.border = borders[b];
          push_settings_and_check (h, &info, 16, &s);
        }
      }
    }
  }
  clcheck_sweep_done (&sweep);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static guint
flat_pattern (gint x, gint y, gint c, guint max)
{
  return (max * 3 / 5 + c * 7) % (max + 1);
}

/* A flat frame stays exactly flat: every method, border and format. */
GST_START_TEST (test_flat_frame)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, b;

  s.rx = 5;
  s.ry = 3;
  s.passes = 3;
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    set_format (h, &info, all_formats[f], 37, 21);
    for (m = 0; m < 3; m++) {
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        GstBuffer *in = make_frame_with (&info, 0, f, flat_pattern);
        GstBuffer *out;
        GstVideoFrame fin, fout;
        Group groups[GST_VIDEO_MAX_COMPONENTS];
        guint g, n;

        s.method = m;
        s.border = borders[b];
        apply_settings (h, &s);
        fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
            GST_FLOW_OK);
        out = gst_harness_pull (h);
        fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
        fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
        n = make_groups (&info, FALSE, groups);
        for (g = 0; g < n; g++) {
          guint16 *a = extract (&fin, &groups[g]);
          guint16 *o = extract (&fout, &groups[g]);

          fail_unless (memcmp (a, o, sizeof (guint16) * groups[g].width *
                  groups[g].height * groups[g].channels) == 0,
              "%s %s border=%s: a flat frame changed", all_formats[f],
              method_nicks[m], border_nicks[b]);
          g_free (a);
          g_free (o);
        }
        gst_video_frame_unmap (&fin);
        gst_video_frame_unmap (&fout);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static guint
step_pattern (gint x, gint y, gint c, guint max)
{
  return x < 20 ? max / 10 : max * 8 / 10;
}

/* A step edge: bilateral keeps it, the box blurs it. */
GST_START_TEST (test_step_edge)
{
  static const gchar *formats[] = { "RGBA", "GRAY8", "NV12", "GRAY16_LE",
    "P010_10LE"
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m;

  s.rx = s.ry = 4;
  s.sigma_spatial = 3.0;
  s.sigma_range = 10.0;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 40, 12);
    for (m = 0; m < 3; m++) {
      GstBuffer *in = make_frame_with (&info, 0, f, step_pattern);
      GstBuffer *out;
      GstVideoFrame fin, fout;
      Group groups[GST_VIDEO_MAX_COMPONENTS];
      const Group *g = &groups[0];

      s.method = m;
      apply_settings (h, &s);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_pull (h);
      check_frame (&info, in, out, &s);

      /* Luma (the first group) next to the edge, on both sides. */
      make_groups (&info, FALSE, groups);
      fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
      {
        guint a = read_sample (&info, sample_ptr (&fin, g, 19, 5, 0));
        guint b = read_sample (&info, sample_ptr (&fout, g, 19, 5, 0));
        guint c = read_sample (&info, sample_ptr (&fin, g, 20, 5, 0));
        guint d = read_sample (&info, sample_ptr (&fout, g, 20, 5, 0));

        if (m == METHOD_BILATERAL)
          fail_unless (a == b && c == d, "%s: bilateral moved the edge: "
              "%u->%u, %u->%u", formats[f], a, b, c, d);
        else
          fail_unless (a != b && c != d, "%s: %s left the edge sharp",
              formats[f], method_nicks[m]);
      }
      gst_video_frame_unmap (&fin);
      gst_video_frame_unmap (&fout);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* passes=1 and passes=3 for both box methods, against the reference applied
 * as many times. */
GST_START_TEST (test_passes)
{
  static const gchar *formats[] = { "RGBA", "I420", "YUY2", "RGBA64_LE" };
  static const guint passes[] = { 1, 3, 8 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, p, m, b;

  s.rx = 3;
  s.ry = 2;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 65, 33);
    for (p = 0; p < G_N_ELEMENTS (passes); p++)
      for (m = 0; m < 2; m++)
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.passes = passes[p];
          s.method = m;
          s.border = borders[b];
          push_settings_and_check (h, &info, 0, &s);
        }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* preserve-alpha keeps alpha bytes untouched (check_frame checks every byte
 * outside the filtered groups), the colour is still filtered. */
GST_START_TEST (test_preserve_alpha)
{
  static const gchar *formats[] = { "RGBA", "ARGB", "AYUV", "A420",
    "RGBA64_LE"
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m;

  s.preserve_alpha = TRUE;
  s.rx = s.ry = 3;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 33, 20);
    for (m = 0; m < 3; m++) {
      s.method = m;
      push_settings_and_check (h, &info, 8, &s);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Bilateral at large radii: float sums over (2r+1)^2 taps must not drift.
 * Flat frames come back exact; random 16-bit samples within the tolerance of
 * the double-precision reference. */
GST_START_TEST (test_bilateral_large_radius)
{
  static const struct
  {
    const gchar *format;
    gint w, h;
    guint r;
  } flat[] = {
    {"GRAY8", 24, 16, 300}, {"GRAY16_LE", 24, 16, 150}, {"RGBA", 20, 12, 90},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  s.method = METHOD_BILATERAL;
  s.border = REF_BORDER_REPLICATE;
  s.sigma_spatial = 0.0;
  s.sigma_range = 1000.0;
  for (i = 0; i < G_N_ELEMENTS (flat); i++) {
    GstBuffer *in, *out;
    GstVideoFrame fin, fout;
    Group groups[GST_VIDEO_MAX_COMPONENTS];
    guint16 *a, *o;

    set_format (h, &info, flat[i].format, flat[i].w, flat[i].h);
    in = make_frame_with (&info, 0, i, flat_pattern);
    s.rx = s.ry = flat[i].r;
    apply_settings (h, &s);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    make_groups (&info, FALSE, groups);
    a = extract (&fin, &groups[0]);
    o = extract (&fout, &groups[0]);
    fail_unless (memcmp (a, o, sizeof (guint16) * groups[0].width *
            groups[0].height * groups[0].channels) == 0,
        "%s bilateral radius %u: a flat frame changed (%u -> %u)",
        flat[i].format, flat[i].r, a[0], o[0]);
    g_free (a);
    g_free (o);
    gst_video_frame_unmap (&fin);
    gst_video_frame_unmap (&fout);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  set_format (h, &info, "GRAY16_LE", 40, 30);
  s.rx = s.ry = 50;
  s.sigma_spatial = 21.0;       /* the largest: a window of radius 63 */
  s.sigma_range = 60.0;
  push_settings_and_check (h, &info, 0, &s);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The lines the element logs (the engine's choice of a variant). */
static void
collect_variants (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (g_str_equal (gst_debug_category_get_name (category), "clbasefilter")
      && strstr (text, "variant bilateral") != NULL)
    g_ptr_array_add (user_data, g_strdup (text));
}

/* Whether a line of @lines names @text. */
static gboolean
logged (GPtrArray * lines, const gchar * text)
{
  guint i;

  for (i = 0; i < lines->len; i++)
    if (strstr (g_ptr_array_index (lines, i), text))
      return TRUE;
  return FALSE;
}

/* Bilateral at radii 19 to 25 (sigma-spatial 10: a window of 2r+1) on
 * RGBA and NV12, against the reference. Under the GPU class with a GPU's
 * limits (meson test --setup gpu_class: 48 KiB of local memory,
 * work-groups of 256), these are the tiles and the fallback a GPU picks
 * (issue 40): bilateral_gpu in work-groups of 16x16 (radius 19), 16x8
 * (20, 21), 8x8 (22, 23), 8x4 (24), then bilateral_global (25); there the
 * test also checks that each ran. Elsewhere whatever the device picks. */
GST_START_TEST (test_bilateral_gpu_tiles_r19_to_25)
{
  static const struct
  {
    guint r;
    const gchar *variant;
  } radii[] = {
    {19, "bilateral_gpu (any device, work-groups of 16x16)"},
    {20, "bilateral_gpu (any device, work-groups of 16x8)"},
    {21, "bilateral_gpu (any device, work-groups of 16x8)"},
    {22, "bilateral_gpu (any device, work-groups of 8x8)"},
    {23, "bilateral_gpu (any device, work-groups of 8x8)"},
    {24, "bilateral_gpu (any device, work-groups of 8x4)"},
    {25, "bilateral_global"},
  };
  static const gchar *formats[] = { "RGBA", "NV12" };
  gboolean gpu_limits = g_strcmp0 (g_getenv ("CLBOXBLUR_DEVICE_CLASS"),
      "gpu") == 0
      && g_strcmp0 (g_getenv ("CLBOXBLUR_MAX_LOCAL_MEM"), "49152") == 0
      && g_strcmp0 (g_getenv ("CLBOXBLUR_MAX_WORK_GROUP"), "256") == 0;
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GstHarness *h;
  Settings s = default_settings;
  GstVideoInfo info;
  guint i, f;

  gst_debug_set_threshold_for_name ("clbasefilter", GST_LEVEL_DEBUG);
  gst_debug_add_log_function (collect_variants, lines, NULL);
  h = blurcheck_harness_new ("clboxblur");
  s.method = METHOD_BILATERAL;
  s.sigma_spatial = 10.0;
  s.sigma_range = 60.0;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 70, 44);
    for (i = 0; i < G_N_ELEMENTS (radii); i++) {
      s.rx = s.ry = radii[i].r;
      g_ptr_array_set_size (lines, 0);
      push_settings_and_check (h, &info, 0, &s);
      if (gpu_limits && f == 0)
        fail_unless (logged (lines, radii[i].variant), "RGBA radius %u did "
            "not run %s under a GPU's limits", radii[i].r, radii[i].variant);
    }
  }
  blurcheck_harness_teardown (h);
  gst_debug_remove_log_function (collect_variants);
  gst_debug_unset_threshold_for_name ("clbasefilter");
  g_ptr_array_unref (lines);
}

GST_END_TEST;

/* The filtered frame of @in under @s. */
static GstBuffer *
filter (GstHarness * h, GstBuffer * in, const Settings * s)
{
  apply_settings (h, s);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  return gst_harness_pull (h);
}

/* Bilateral's documented window: min (radius, ceil (3 sigma-spatial), 63)
 * in each plane's pixels (sigma-spatial 0: no 3-sigma term). A radius past
 * it filters like the reference at the bound (check_frame applies it,
 * tests/check/blurcheck.c) and, on one plane, exactly like the element at
 * a radius of the bound. */
GST_START_TEST (test_bilateral_window_bound)
{
  static const struct
  {
    const gchar *format;
    gint w, h;
    guint r;
    gdouble sigma;
    guint bound;                /* the luma or RGB window's */
  } cases[] = {
    {"RGBA", 70, 50, 40, 2.0, 6},
    {"GRAY8", 70, 50, 9, 2.5, 8},
    {"NV12", 70, 50, 40, 2.0, 6},       /* chroma: 20, bound to 6 too */
    {"GRAY16_LE", 150, 140, 2047, 21.0, 63},
    {"GRAY8", 150, 140, 200, 0.0, 63},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  s.method = METHOD_BILATERAL;
  s.border = REF_BORDER_REFLECT;
  s.sigma_range = 40.0;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBuffer *in, *out, *at_bound;
    GstMapInfo a, b;

    fail_unless_equals_int (bilateral_radius (cases[i].r, cases[i].sigma),
        cases[i].bound);
    set_format (h, &info, cases[i].format, cases[i].w, cases[i].h);
    in = make_frame (&info, 0, 11 + i);
    s.sigma_spatial = cases[i].sigma;
    s.rx = s.ry = cases[i].r;
    out = filter (h, in, &s);
    check_frame (&info, in, out, &s);

    if (GST_VIDEO_INFO_N_PLANES (&info) == 1) {
      s.rx = s.ry = cases[i].bound;
      at_bound = filter (h, in, &s);
      fail_unless (gst_buffer_map (out, &a, GST_MAP_READ));
      fail_unless (gst_buffer_map (at_bound, &b, GST_MAP_READ));
      fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
          "%s: radius %u differs from radius %u", cases[i].format,
          cases[i].r, cases[i].bound);
      gst_buffer_unmap (out, &a);
      gst_buffer_unmap (at_bound, &b);
      gst_buffer_unref (at_bound);
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_methods_suite (void)
{
  Suite *s = suite_create ("clboxblur_methods");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_methods_formats);
  tcase_add_test (tc, test_flat_frame);
  tcase_add_test (tc, test_step_edge);
  tcase_add_test (tc, test_passes);
  tcase_add_test (tc, test_preserve_alpha);
  tcase_add_test (tc, test_bilateral_large_radius);
  tcase_add_test (tc, test_bilateral_window_bound);
  tcase_add_test (tc, test_bilateral_gpu_tiles_r19_to_25);
  return s;
}

BLURCHECK_MAIN (clboxblur_methods);
