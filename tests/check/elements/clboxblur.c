/* GStreamer unit tests for clboxblur
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every output is compared with the plain-C reference in tests/reference,
 * bit for bit: the box blur is exact by design.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "refblur.h"
#include "clcheck.h"

static const gchar *packed_formats[] = {
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB",
  "BGR", "GRAY8",
};

static const RefBorder borders[] = {
  REF_BORDER_SHRINK, REF_BORDER_REPLICATE, REF_BORDER_REFLECT,
};

static const gchar *border_nicks[] = { "shrink", "replicate", "reflect" };

/* A frame of random samples. @pad > 0 adds that many bytes to each row and
 * describes the layout with a GstVideoMeta, as a padded upstream would. */
static GstBuffer *
make_frame (const GstVideoInfo * info, guint pad, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gsize stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0) + pad;
  gsize size = stride * GST_VIDEO_INFO_HEIGHT (info);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);

  if (pad > 0) {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
    gint strides[GST_VIDEO_MAX_PLANES] = { (gint) stride, };

    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), 1, offset, strides);
  }
  return buf;
}

/* Checks @out against the reference blur of @in, sample for sample. */
static void
check_blur (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    guint rx, guint ry, RefBorder border)
{
  GstVideoFrame fin, fout;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint cn = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gsize row = (gsize) w * cn;
  guint8 *ref = g_malloc (row * h);
  gint y;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  fail_unless_equals_int (ref_box_blur_u8 (GST_VIDEO_FRAME_PLANE_DATA (&fin,
              0), GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0), ref, row, w, h, cn,
          rx, ry, border), 0);

  for (y = 0; y < h; y++) {
    const guint8 *o = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, 0)
        + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
    const guint8 *r = ref + y * row;

    if (memcmp (o, r, row) != 0) {
      gsize i;

      for (i = 0; i < row && o[i] == r[i]; i++);
      fail ("%s %dx%d rx=%u ry=%u border=%s: sample (x=%d, y=%d, c=%d) is "
          "%u, reference %u", GST_VIDEO_INFO_NAME (info), w, h, rx, ry,
          border_nicks[border], (gint) (i / cn), y, (gint) (i % cn), o[i],
          r[i]);
    }
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
  g_free (ref);
}

static void
set_format (GstHarness * h, GstVideoInfo * info, const gchar * format,
    gint width, gint height)
{
  GstCaps *caps;

  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  caps = gst_video_info_to_caps (info);
  gst_harness_set_src_caps (h, caps);
}

/* Pushes one frame through @h with the given settings and checks it. */
static void
push_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    guint rx, gint ry, RefBorder border)
{
  GstBuffer *in = make_frame (info, pad, rx * 7919 + border * 31 + pad);
  GstBuffer *out;

  g_object_set (h->element, "radius", rx, "radius-y", ry, "border", border,
      NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  check_blur (info, in, out, rx, ry < 0 ? rx : (guint) ry, border);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

GST_START_TEST (test_every_format)
{
  GstHarness *h = gst_harness_new ("clboxblur");
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
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Sizes from 1x1 to 1080p, radii 1, 4, 31 and one larger than the frame. */
GST_START_TEST (test_sizes_and_radii)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  static const gint sizes[][2] = {
    {1, 1}, {2, 3}, {17, 9}, {385, 289}, {1920, 1080}
  };
  static const gchar *formats[] = { "RGBA", "GRAY8", "RGB" };
  GstVideoInfo info;
  guint f, s, b, r;

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
          push_and_check (h, &info, 0, radii[r], -1, borders[b]);
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_radius_y)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  static const gint radii[][2] = { {3, 7}, {0, 5}, {6, 0}, {40, 2}, {1, 300} };
  GstVideoInfo info;
  guint r, b;

  set_format (h, &info, "RGBA", 97, 61);
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    for (b = 0; b < G_N_ELEMENTS (borders); b++)
      push_and_check (h, &info, 0, radii[r][0], radii[r][1], borders[b]);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Input rows padded (odd amounts included) and described by GstVideoMeta. */
GST_START_TEST (test_padded_stride)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  static const guint pads[] = { 1, 13, 64 };
  GstVideoInfo info;
  guint f, p, b;

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    set_format (h, &info, packed_formats[f], 385, 289);
    for (p = 0; p < G_N_ELEMENTS (pads); p++)
      for (b = 0; b < G_N_ELEMENTS (borders); b++)
        push_and_check (h, &info, pads[p], 5, 3, borders[b]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* radius=0 hands the frame on untouched. */
GST_START_TEST (test_radius_zero_identical)
{
  GstHarness *h = gst_harness_new_parse ("clboxblur radius=0");
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
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A property set between two buffers shows in the very next frame. */
GST_START_TEST (test_change_while_playing)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstState state;

  set_format (h, &info, "BGRx", 160, 90);
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
  check_blur (&info, in, out, 12, 12, REF_BORDER_REPLICATE);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  gst_harness_teardown (h);
}

GST_END_TEST;

/* Renegotiating to another size and format rebuilds the buffers. */
GST_START_TEST (test_renegotiate)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstVideoInfo info;

  set_format (h, &info, "RGBA", 64, 48);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);
  set_format (h, &info, "GRAY8", 321, 7);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);
  set_format (h, &info, "RGB", 5, 400);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_REFLECT);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_refused_caps)
{
  static const gchar *refused[] = { "I420", "NV12", "GRAY16_LE", "RGB16" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstHarness *h = gst_harness_new ("clboxblur");
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
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Methods named by the enum but not implemented yet are refused loudly. */
GST_START_TEST (test_method_not_implemented)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  gint method;

  fail_unless (e != NULL);
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "method",
          "separable"));
  ASSERT_WARNING (gst_util_set_object_arg (G_OBJECT (e), "method",
          "bilateral"));
  g_object_get (e, "method", &method, NULL);
  fail_unless_equals_int (method, 0);   /* sat */
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_specs)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  static const gchar *effect[] = { "radius", "radius-y", "method", "border" };
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

/* Brings @e to PAUSED expecting failure; returns the error posted. */
static GError *
start_expecting_error (GstElement * e, gchar ** debug)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message posted");
  gst_message_parse_error (msg, &err, debug);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  return err;
}

GST_START_TEST (test_no_such_device)
{
  static const gchar *settings[][2] = {
    {"device-type", "accelerator"},
    {"device-index", "99"},
    {"platform-index", "99"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    GstElement *e = gst_element_factory_make ("clboxblur", NULL);
    GError *err;
    gchar *debug = NULL;

    gst_util_set_object_arg (G_OBJECT (e), settings[i][0], settings[i][1]);
    err = start_expecting_error (e, &debug);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND), "%s=%s: %s", settings[i][0],
        settings[i][1], err->message);
    fail_unless (strstr (err->message, "device") != NULL, "%s", err->message);
    GST_INFO ("%s=%s: %s (%s)", settings[i][0], settings[i][1], err->message,
        debug);
    g_error_free (err);
    g_free (debug);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* CLBOXBLUR_KERNEL_PATH pointing at a broken kernel: LIBRARY/INIT with the
 * compiler's log, naming the file, in the debug text. */
GST_START_TEST (test_build_failure)
{
  gchar *dir = g_dir_make_tmp ("clboxblur-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "sat.cl", NULL);
  GstElement *e;
  GError *err;
  gchar *debug = NULL;

  fail_unless (g_file_set_contents (path,
          "__kernel void sat_box (__global int *a)\n"
          "{\n    a[0] = this_is_not_defined;\n}\n", -1, NULL));
  g_setenv ("CLBOXBLUR_KERNEL_PATH", dir, TRUE);

  e = gst_element_factory_make ("clboxblur", NULL);
  err = start_expecting_error (e, &debug);
  g_unsetenv ("CLBOXBLUR_KERNEL_PATH");

  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_INIT), "%s", err->message);
  fail_unless (debug != NULL);
  fail_unless (strstr (debug, "clBuildProgram") != NULL, "%s", debug);
  fail_unless (strstr (debug, "sat.cl:3") != NULL, "no file:line in %s",
      debug);
  fail_unless (strstr (debug, "this_is_not_defined") != NULL, "%s", debug);

  g_error_free (err);
  g_free (debug);
  gst_object_unref (e);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* The same variable pointing at the real sources loads them from disk. */
GST_START_TEST (test_kernel_path_from_disk)
{
  GstHarness *h;
  GstVideoInfo info;

  g_setenv ("CLBOXBLUR_KERNEL_PATH", KERNELS_SRCDIR, TRUE);
  h = gst_harness_new ("clboxblur");
  set_format (h, &info, "RGBA", 40, 30);
  g_unsetenv ("CLBOXBLUR_KERNEL_PATH");
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_REFLECT);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstFlowReturn
on_new_sample (GstElement * sink, GQueue * queue)
{
  GstSample *sample = NULL;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  if (sample == NULL)
    return GST_FLOW_ERROR;
  g_queue_push_tail (queue, sample);
  return GST_FLOW_OK;
}

/* The pipeline of the issue, videotestsrc at 1080p RGBA, radius 15, to EOS:
 * each frame before the element (from a tee) against each frame after it. */
GST_START_TEST (test_pipeline_1080p)
{
  GstElement *pipe;
  GstElement *in_sink, *out_sink;
  GQueue in_q = G_QUEUE_INIT, out_q = G_QUEUE_INIT;
  GstMessage *msg;
  GstBus *bus;
  GstVideoInfo info;
  guint n = 0;

  pipe = gst_parse_launch ("videotestsrc num-buffers=4 pattern=ball "
      "! video/x-raw,format=RGBA,width=1920,height=1080 ! tee name=t "
      "t. ! queue ! appsink name=in emit-signals=true sync=false "
      "t. ! queue ! clboxblur radius=15 "
      "! appsink name=out emit-signals=true sync=false", NULL);
  fail_unless (pipe != NULL);
  in_sink = gst_bin_get_by_name (GST_BIN (pipe), "in");
  out_sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  g_signal_connect (in_sink, "new-sample", G_CALLBACK (on_new_sample), &in_q);
  g_signal_connect (out_sink, "new-sample", G_CALLBACK (on_new_sample),
      &out_q);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timed out");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);

  fail_unless_equals_int (g_queue_get_length (&in_q), 4);
  fail_unless_equals_int (g_queue_get_length (&out_q), 4);
  while (!g_queue_is_empty (&in_q)) {
    GstSample *si = g_queue_pop_head (&in_q);
    GstSample *so = g_queue_pop_head (&out_q);

    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (si)));
    fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (si)),
        GST_BUFFER_PTS (gst_sample_get_buffer (so)));
    check_blur (&info, gst_sample_get_buffer (si), gst_sample_get_buffer (so),
        15, 15, REF_BORDER_SHRINK);
    gst_sample_unref (si);
    gst_sample_unref (so);
    n++;
  }
  fail_unless_equals_int (n, 4);

  gst_object_unref (in_sink);
  gst_object_unref (out_sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

GST_START_TEST (test_start_stop_cycles)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstVideoInfo info;
  guint i;

  set_format (h, &info, "RGBA", 32, 24);
  for (i = 0; i < 5; i++) {
    push_and_check (h, &info, 0, 2, -1, REF_BORDER_SHRINK);
    fail_unless_equals_int (gst_element_set_state (h->element,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    gst_harness_play (h);
    /* the caps are sent again after a restart */
    set_format (h, &info, "RGBA", 32, 24);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_suite (void)
{
  Suite *s = suite_create ("clboxblur");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_property_specs);
  tcase_add_test (tc, test_method_not_implemented);
  tcase_add_test (tc, test_refused_caps);
  tcase_add_test (tc, test_no_such_device);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_kernel_path_from_disk);
  tcase_add_test (tc, test_radius_zero_identical);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_radius_y);
  tcase_add_test (tc, test_padded_stride);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_renegotiate);
  tcase_add_test (tc, test_start_stop_cycles);
  tcase_add_test (tc, test_sizes_and_radii);
  tcase_add_test (tc, test_pipeline_1080p);
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
  return gst_check_run_suite (clboxblur_suite (), "clboxblur", __FILE__);
}
