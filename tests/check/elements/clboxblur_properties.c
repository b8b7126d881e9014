/* GStreamer unit tests for clboxblur: properties
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Their flags, changes between frames while playing, a controller ramp, and
 * a thread changing them while frames flow.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>

#include "blurcheck.h"

GST_START_TEST (test_property_specs)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  static const gchar *effect[] = {
    "radius", "radius-y", "method", "border", "passes", "sigma-spatial",
    "sigma-range", "preserve-alpha", "region-x", "region-y",
    "region-width", "region-height", "region-invert", "roi-padding",
    "region-shape", "region-feather"
  };
  static const gchar *device[] = {
    "device-type", "platform-index", "device-index"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (effect); i++) {
    GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        effect[i]);
    fail_unless (p != NULL, "%s", effect[i]);
    fail_unless (p->flags & GST_PARAM_CONTROLLABLE, "%s", effect[i]);
    fail_unless (p->flags & GST_PARAM_MUTABLE_PLAYING, "%s", effect[i]);
    fail_unless (p->flags & G_PARAM_STATIC_STRINGS, "%s", effect[i]);
  }
  for (i = 0; i < G_N_ELEMENTS (device); i++) {
    GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        device[i]);
    fail_unless (p != NULL, "%s", device[i]);
    fail_unless (p->flags & GST_PARAM_MUTABLE_READY, "%s", device[i]);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Property storm: one thread pushes frames while another changes method,
 * radius, border and region as fast as it can. Every output must equal the
 * reference for one consistent set of properties. */
typedef struct
{
  GstHarness *h;
  volatile gint stop;
  guint changes;
} Storm;

static gpointer
storm_thread (gpointer data)
{
  Storm *st = data;
  GRand *rand = g_rand_new_with_seed (7);

  while (!g_atomic_int_get (&st->stop)) {
    switch (g_rand_int_range (rand, 0, 4)) {
      case 0:
        gst_util_set_object_arg (G_OBJECT (st->h->element), "method",
            method_nicks[g_rand_int_range (rand, 0, 3)]);
        break;
      case 1:
        g_object_set (st->h->element, "radius", g_rand_boolean (rand) ? 1 :
            4, NULL);
        break;
      case 2:
        g_object_set (st->h->element, "border", g_rand_boolean (rand) ?
            REF_BORDER_SHRINK : REF_BORDER_REFLECT, NULL);
        break;
      default:
        g_object_set (st->h->element, "region-x", g_rand_boolean (rand) ? 0 :
            10, NULL);
        break;
    }
    st->changes++;
  }
  g_rand_free (rand);
  return NULL;
}

/* Whether @out is @in filtered under @s (tolerance as in check_frame). */
static gboolean
frame_matches (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const Settings * s)
{
  GstVideoFrame fin, fout;
  Group g;
  guint16 *src, *got, *ref;
  gsize i, total;
  gboolean ok = TRUE;
  gint tol = s->method == METHOD_BILATERAL ? BILATERAL_TOLERANCE : 0;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  make_groups (info, FALSE, &g);        /* GRAY8: one group */
  src = extract (&fin, &g);
  got = extract (&fout, &g);
  total = (gsize) g.width * g.height;
  ref = g_new (guint16, total);
  if (s->method == METHOD_BILATERAL)
    ref_bilateral (src, ref, g.width, g.height, 1, s->rx, s->ry, s->border,
        s->sigma_spatial, s->sigma_range, 1, 255);
  else
    ref_box_blur (src, ref, g.width, g.height, 1, s->rx, s->ry, s->border,
        s->passes);
  for (i = 0; i < total && ok; i++) {
    gint x = i % g.width, y = i / g.width;
    guint16 want = selected (s, info, x, y, 0, 0) ? ref[i] : src[i];

    ok = ABS ((gint) got[i] - (gint) want) <= tol;
  }
  g_free (src);
  g_free (got);
  g_free (ref);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  return ok;
}

GST_START_TEST (test_property_storm)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Storm st = { h, 0, 0 };
  GstVideoInfo info;
  GThread *thread;
  GstBuffer *in;
  gint64 end;
  guint frames = 0, torn = 0;

  set_format (h, &info, "GRAY8", 48, 32);
  in = make_frame (&info, 0, 5);
  thread = g_thread_new ("storm", storm_thread, &st);
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < end) {
    GstBuffer *out;
    gboolean found = FALSE;
    guint m, r, b, x;

    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    frames++;
    /* radius 1 or 4, the others' sets as the storm thread's */
    for (m = 0; m < 3 && !found; m++)
      for (r = 0; r < 2 && !found; r++)
        for (b = 0; b < 2 && !found; b++)
          for (x = 0; x < 2 && !found; x++) {
            Settings s = default_settings;

            s.method = m;
            s.rx = s.ry = r ? 4 : 1;
            s.border = b ? REF_BORDER_REFLECT : REF_BORDER_SHRINK;
            s.use_rects = x;
            s.n_rects = 1;
            s.rects[0][0] = 10;
            s.rects[0][2] = 38;
            s.rects[0][3] = 32;
            found = frame_matches (&info, in, out, &s);
          }
    torn += !found;
    gst_buffer_unref (out);
  }
  g_atomic_int_set (&st.stop, 1);
  g_thread_join (thread);
  GST_INFO ("%u frames, %u property changes", frames, st.changes);
  fail_unless (frames > 50 && st.changes > 1000, "storm too small: %u "
      "frames, %u changes", frames, st.changes);
  fail_unless_equals_int (torn, 0);
  gst_buffer_unref (in);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A "blur-in": an interpolation control source ramps radius from 0 to 30
 * over one second; each frame is blurred with the radius the controller
 * gives for that buffer's timestamp. */
GST_START_TEST (test_controller_ramp)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstControlBinding *binding;
  Settings s = default_settings;
  GstVideoInfo info;
  guint i, seen_zero = 0, seen_max = 0;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs), 0,
      0.0);
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
      GST_SECOND, 30.0);
  binding = gst_direct_control_binding_new_absolute (GST_OBJECT (h->element),
      "radius", cs);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          binding));

  set_format (h, &info, "RGBA", 96, 54);
  g_object_set (h->element, "radius-y", -1, NULL);
  for (i = 0; i <= 30; i++) {
    GstBuffer *in = make_frame (&info, 0, i);
    GstBuffer *out;
    GstClockTime ts = gst_util_uint64_scale (i, GST_SECOND, 30);
    GValue *v;

    GST_BUFFER_PTS (in) = ts;
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    /* What the controller gives for this timestamp. */
    v = gst_control_binding_get_value (binding, ts);
    fail_unless (v != NULL);
    s.rx = s.ry = g_value_get_uint (v);
    g_value_unset (v);
    g_free (v);

    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), ts);
    check_frame (&info, in, out, &s);
    seen_zero += s.rx == 0;
    seen_max += s.rx == 30;
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  fail_unless (seen_zero == 1 && seen_max == 1, "ramp did not span 0..30");
  gst_object_unref (cs);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A property set between two buffers shows in the very next frame. */
GST_START_TEST (test_change_while_playing)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstState state;
  Settings s = default_settings;

  set_format (h, &info, "BGRA", 160, 90);
  fail_unless_equals_int (gst_element_get_state (h->element, &state, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);

  push_and_check (h, &info, 0, 2, -1, REF_BORDER_SHRINK);
  push_and_check (h, &info, 0, 9, -1, REF_BORDER_SHRINK);
  push_and_check (h, &info, 0, 9, 1, REF_BORDER_REFLECT);
  push_and_check (h, &info, 0, 0, -1, REF_BORDER_REFLECT);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_REPLICATE);

  /* Only one property changes: the rest keep their values. */
  in = make_frame (&info, 0, 99);
  g_object_set (h->element, "radius", 12, NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  s.rx = 12;                    /* radius-y stays 3, as last set */
  s.ry = 3;
  s.border = REF_BORDER_REPLICATE;
  check_frame (&info, in, out, &s);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  /* Method, passes, sigmas and preserve-alpha too, frame by frame. */
  s.method = METHOD_SEPARABLE;
  s.passes = 3;
  push_settings_and_check (h, &info, 0, &s);
  s.method = METHOD_BILATERAL;
  s.rx = s.ry = 3;
  push_settings_and_check (h, &info, 0, &s);
  s.sigma_range = 5.0;
  s.sigma_spatial = 1.0;
  push_settings_and_check (h, &info, 0, &s);
  s.method = METHOD_SAT;
  s.passes = 2;
  push_settings_and_check (h, &info, 0, &s);

  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_properties_suite (void)
{
  Suite *s = suite_create ("clboxblur_properties");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_property_specs);
  tcase_add_test (tc, test_property_storm);
  tcase_add_test (tc, test_controller_ramp);
  tcase_add_test (tc, test_change_while_playing);
  return s;
}

BLURCHECK_MAIN (clboxblur_properties);
