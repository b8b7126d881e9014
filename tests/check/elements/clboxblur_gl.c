/* clboxblur on GL memory: pipelines with GL elements, under Xvfb (or any
 * X or EGL display) with Mesa's software renderer.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames go in and come out as GL textures; gldownload brings them back to
 * compare with the plain-C reference. Which way the textures reach OpenCL
 * (shared or copied) depends on the device: PoCL copies.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "blurcheck.h"
#include "glshare.h"

/* generous: valgrind runs these too, GL and kernel set-up included */
#define PULL_TIMEOUT (180 * GST_SECOND)
/* GST_CAPS_FEATURE_MEMORY_GL_MEMORY, without linking the tests to GL */
#define GL_MEMORY_FEATURE "memory:GLMemory"

/* BOX and BILATERAL as the methods; MOSAIC blocks of rx x ry; MASK the
 * box (rx, ry) with the alpha as the mask */
typedef enum { BOX, BILATERAL, MOSAIC, MASK } Kind;

/* One setting of the element and what the reference does with it. */
typedef struct
{
  const gchar *props;           /* gst-launch properties of clboxblur */
  Kind kind;
  gint rx, ry;
  RefBorder border;
  gint passes;
  gdouble sigma_spatial, sigma_range;
  gboolean preserve_alpha;
  gint region[4];               /* x y w h, all 0: whole frame */
  RefShape shape;               /* the region's */
  gint feather;                 /* the region's */
} Setting;

/* The reference result of @s on tightly packed RGBA @in. */
static guint8 *
reference (const Setting * s, const guint8 * in, gint w, gint h)
{
  gsize n = (gsize) 4 * w * h, i;
  guint16 *in16 = g_new (guint16, n), *out16 = g_new (guint16, n);
  guint8 *out = g_malloc (n);

  for (i = 0; i < n; i++)
    in16[i] = in[i];
  if (s->kind == BOX) {
    fail_unless_equals_int (ref_box_blur (in16, out16, w, h, 4, s->rx, s->ry,
            s->border, s->passes), 0);
  } else if (s->kind == MOSAIC) {
    fail_unless_equals_int (ref_mosaic (in16, out16, w, h, 4, s->rx, s->ry),
        0);
  } else if (s->kind == MASK) {
    /* the colours masked by the alpha, which leaves as it came */
    guint16 *alpha = g_new (guint16, (gsize) w * h);
    guint16 *rgb = g_new (guint16, (gsize) 3 * w * h);
    guint16 *rgb_out = g_new (guint16, (gsize) 3 * w * h);

    for (i = 0; i < (gsize) w * h; i++) {
      alpha[i] = in[4 * i + 3];
      rgb[3 * i] = in[4 * i];
      rgb[3 * i + 1] = in[4 * i + 1];
      rgb[3 * i + 2] = in[4 * i + 2];
    }
    fail_unless_equals_int (ref_mask_blur (rgb, alpha, alpha, NULL, rgb_out,
            w, h, 3, s->rx, s->ry, s->border, 255), 0);
    for (i = 0; i < (gsize) w * h; i++) {
      out16[4 * i] = rgb_out[3 * i];
      out16[4 * i + 1] = rgb_out[3 * i + 1];
      out16[4 * i + 2] = rgb_out[3 * i + 2];
      out16[4 * i + 3] = in[4 * i + 3];
    }
    g_free (alpha);
    g_free (rgb);
    g_free (rgb_out);
  } else {
    fail_unless_equals_int (ref_bilateral (in16, out16, w, h, 4, s->rx,
            s->ry, s->border, s->sigma_spatial, s->sigma_range, 0x7, 255), 0);
  }
  for (i = 0; i < n; i++) {
    gint x = (i / 4) % w, y = i / 4 / w;
    /* the region's weight of the filtered value, out of feather + 1 */
    gint W = s->feather + 1, wt = s->region[2] == 0 ? W :
        ref_region_weight (s->shape, s->feather, 0,
        (const int (*)[4]) s->region, 1, w, h, 0, 0, x, y);

    if (wt == 0 || (s->preserve_alpha && i % 4 == 3))
      out[i] = in[i];
    else
      out[i] = ref_blend (wt, W, out16[i], in[i]);
  }
  g_free (in16);
  g_free (out16);
  return out;
}

/* The frame of @sample, tightly packed RGBA. */
static guint8 *
sample_pixels (GstSample * sample, gint * w, gint * h)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 *px;
  gint y;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (&frame, &info,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  *w = GST_VIDEO_FRAME_WIDTH (&frame);
  *h = GST_VIDEO_FRAME_HEIGHT (&frame);
  px = g_malloc ((gsize) 4 * *w * *h);
  for (y = 0; y < *h; y++)
    memcpy (px + (gsize) 4 * *w * y, (guint8 *)
        GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) * y, 4 * *w);
  gst_video_frame_unmap (&frame);
  return px;
}

static guint8 *
pull_pixels (GstElement * sink, gint * w, gint * h)
{
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      PULL_TIMEOUT);
  guint8 *px;

  fail_unless (sample != NULL, "no frame within the timeout");
  px = sample_pixels (sample, w, h);
  gst_sample_unref (sample);
  return px;
}

static void
compare (const guint8 * out, const guint8 * ref, gint w, gint h, gint tol,
    const gchar * what)
{
  gsize i, n = (gsize) 4 * w * h;

  for (i = 0; i < n; i++) {
    if (ABS ((gint) out[i] - (gint) ref[i]) > tol)
      fail ("%s: %dx%d, byte %" G_GSIZE_FORMAT " (x %d, y %d, channel %d): "
          "%u, reference %u", what, w, h, i, (gint) (i / 4) % w,
          (gint) (i / 4 / w), (gint) (i % 4), out[i], ref[i]);
  }
}

static void
check_bus (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("error from %s: %s (%s)", GST_OBJECT_NAME (msg->src), err->message,
        dbg);
  }
  gst_object_unref (bus);
}

/* The memory negotiated on clboxblur's sink pad: TRUE for GL. */
static gboolean
blur_caps_are_gl (GstElement * pipeline)
{
  GstElement *blur = gst_bin_get_by_name (GST_BIN (pipeline), "blur");
  GstPad *pad = gst_element_get_static_pad (blur, "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean gl;

  fail_unless (caps != NULL, "clboxblur has no caps");
  gl = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      GL_MEMORY_FEATURE);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (blur);
  return gl;
}

static GstBuffer *
random_frame (gint w, gint h, guint8 ** copy, gint n)
{
  gsize size = (gsize) 4 * w * h, i;
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < size; i++)
    map.data[i] = g_random_int_range (0, 256);
  /* some flat areas and an edge too */
  memset (map.data, 200, size / 8);
  *copy = g_memdup2 (map.data, size);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* *INDENT-OFF* */
static const Setting settings[] = {
  {.props = "method=sat radius=4", .kind = BOX, .rx = 4, .ry = 4,
   .border = REF_BORDER_SHRINK, .passes = 1},
  {.props = "method=sat radius=7 radius-y=2 border=reflect", .kind = BOX,
   .rx = 7, .ry = 2, .border = REF_BORDER_REFLECT, .passes = 1},
  {.props = "method=separable radius=3 passes=3 border=replicate",
   .kind = BOX, .rx = 3, .ry = 3, .border = REF_BORDER_REPLICATE,
   .passes = 3},
  {.props = "method=separable radius=2 preserve-alpha=true", .kind = BOX,
   .rx = 2, .ry = 2, .border = REF_BORDER_SHRINK, .passes = 1,
   .preserve_alpha = TRUE},
  {.props = "method=bilateral radius=3 sigma-spatial=2 sigma-range=30",
   .kind = BILATERAL, .rx = 3, .ry = 3, .border = REF_BORDER_SHRINK,
   .passes = 1, .sigma_spatial = 2.0, .sigma_range = 30.0},
  {.props = "method=sat radius=5 region-x=10 region-y=5 region-width=40 "
   "region-height=30", .kind = BOX, .rx = 5, .ry = 5,
   .border = REF_BORDER_SHRINK, .passes = 1, .region = {10, 5, 40, 30}},
  {.props = "method=separable radius=3 region-x=12 region-y=6 "
   "region-width=41 region-height=27 region-shape=ellipse region-feather=4",
   .kind = BOX, .rx = 3, .ry = 3, .border = REF_BORDER_SHRINK, .passes = 1,
   .region = {12, 6, 41, 27}, .shape = REF_SHAPE_ELLIPSE, .feather = 4},
  {.props = "method=mosaic block-size=6", .kind = MOSAIC, .rx = 6, .ry = 6},
  {.props = "method=separable radius=4 border=reflect alpha-mask=true",
   .kind = MASK, .rx = 4, .ry = 4, .border = REF_BORDER_REFLECT,
   .passes = 1},
};
/* *INDENT-ON* */

/* Frames from host memory, uploaded by glupload, filtered on GL memory and
 * downloaded: equal to the reference for every setting. */
GST_START_TEST (test_glupload_matches_reference)
{
  const gint w = 97, h = 61;
  guint s, f;

  for (s = 0; s < G_N_ELEMENTS (settings); s++) {
    gchar *desc = g_strdup_printf ("appsrc name=src format=time "
        "caps=video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1 "
        "! glupload ! clboxblur name=blur %s ! gldownload "
        "! video/x-raw,format=RGBA ! appsink name=sink sync=false",
        w, h, settings[s].props);
    GstElement *pipeline = blurcheck_launch (desc);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

    fail_unless (pipeline != NULL, "%s", desc);
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
    for (f = 0; f < 3; f++) {
      guint8 *in, *out, *ref;
      gint ow, oh;

      fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
              random_frame (w, h, &in, f)), GST_FLOW_OK);
      out = pull_pixels (sink, &ow, &oh);
      fail_unless_equals_int (ow, w);
      fail_unless_equals_int (oh, h);
      ref = reference (&settings[s], in, w, h);
      compare (out, ref, w, h, settings[s].kind == BILATERAL ? 1 : 0,
          settings[s].props);
      g_free (in);
      g_free (out);
      g_free (ref);
    }
    fail_unless (blur_caps_are_gl (pipeline), "%s: not GL memory", desc);
    check_bus (pipeline);
    gst_object_unref (src);
    gst_object_unref (sink);
    blurcheck_release (pipeline);
    g_free (desc);
  }
}

GST_END_TEST;

/* gltestsrc's textures straight into clboxblur: the output equals the
 * reference applied to the same frames downloaded before the filter. */
GST_START_TEST (test_gltestsrc_matches_reference)
{
  static const gchar *patterns[] = { "smpte", "snow", "checkers-8" };
  guint p, s, f;

  for (p = 0; p < G_N_ELEMENTS (patterns); p++) {
    for (s = 0; s < G_N_ELEMENTS (settings); s += 2) {
      gchar *desc = g_strdup_printf ("gltestsrc num-buffers=2 pattern=%s "
          "! video/x-raw(memory:GLMemory),format=RGBA,width=160,height=90 "
          "! tee name=t t. ! queue ! gldownload ! video/x-raw,format=RGBA "
          "! appsink name=in sync=false t. ! queue ! clboxblur name=blur %s "
          "! gldownload ! video/x-raw,format=RGBA ! appsink name=out "
          "sync=false", patterns[p], settings[s].props);
      GstElement *pipeline = blurcheck_launch (desc);
      GstElement *insink = gst_bin_get_by_name (GST_BIN (pipeline), "in");
      GstElement *outsink = gst_bin_get_by_name (GST_BIN (pipeline), "out");

      fail_unless (pipeline != NULL, "%s", desc);
      gst_element_set_state (pipeline, GST_STATE_PLAYING);
      for (f = 0; f < 2; f++) {
        gint w, h, ow, oh;
        guint8 *in = pull_pixels (insink, &w, &h);
        guint8 *out = pull_pixels (outsink, &ow, &oh);
        guint8 *ref = reference (&settings[s], in, w, h);

        fail_unless (w == ow && h == oh);
        compare (out, ref, w, h, settings[s].kind == BILATERAL ? 1 : 0,
            desc);
        g_free (in);
        g_free (out);
        g_free (ref);
      }
      fail_unless (blur_caps_are_gl (pipeline));
      check_bus (pipeline);
      gst_object_unref (insink);
      gst_object_unref (outsink);
      blurcheck_release (pipeline);
      g_free (desc);
    }
  }
}

GST_END_TEST;

/* Runs @desc to EOS; returns whether clboxblur got GL memory, or -1 when
 * the pipeline failed (with the error's message in @error_text). */
static gint
run_to_eos (const gchar * desc, gchar ** error_text)
{
  GstElement *pipeline = blurcheck_launch (desc);
  GstBus *bus;
  GstMessage *msg;
  gint ret;

  fail_unless (pipeline != NULL, "%s", desc);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, PULL_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: neither EOS nor error", desc);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    if (error_text)
      *error_text = g_strdup_printf ("%s (%s)", err->message, dbg);
    else
      fail ("%s: %s (%s)", desc, err->message, dbg);
    g_clear_error (&err);
    g_free (dbg);
    ret = -1;
  } else {
    ret = blur_caps_are_gl (pipeline);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  blurcheck_release (pipeline);
  return ret;
}

/* Which memory is negotiated: GL between GL elements, system memory
 * otherwise. */
GST_START_TEST (test_negotiated_memory)
{
  /* *INDENT-OFF* */
  static const struct { const gchar *desc; gboolean gl; } cases[] = {
    {"gltestsrc num-buffers=3 ! clboxblur name=blur ! gldownload ! fakesink", TRUE},
    {"videotestsrc num-buffers=3 ! glupload ! clboxblur name=blur ! gldownload ! fakesink", TRUE},
    {"gltestsrc num-buffers=3 ! glcolorconvert ! clboxblur name=blur ! glcolorconvert ! gldownload ! fakesink", TRUE},
    {"videotestsrc num-buffers=3 ! clboxblur name=blur ! fakesink", FALSE},
    {"videotestsrc num-buffers=3 ! clboxblur name=blur ! glupload ! gldownload ! fakesink", FALSE},
    {"gltestsrc num-buffers=3 ! gldownload ! clboxblur name=blur ! videoconvert ! video/x-raw,format=I420 ! fakesink", FALSE},
    /* fakesink takes any memory, and gldownload passes GL memory on */
    {"gltestsrc num-buffers=3 ! gldownload ! clboxblur name=blur ! fakesink", TRUE},
    /* both neighbours take GL memory: gldownload and glupload pass it on */
    {"gltestsrc num-buffers=3 ! gldownload ! clboxblur name=blur ! glupload ! glimagesink", TRUE},
    /* gldownload passes GL memory on where downstream takes it */
    {"gltestsrc num-buffers=3 ! gldownload ! clboxblur name=blur ! gldownload ! fakesink", TRUE},
    /* GL NV12 is converted to GL RGBA before clboxblur */
    {"videotestsrc num-buffers=3 ! video/x-raw,format=NV12 ! glupload ! glcolorconvert ! clboxblur name=blur ! gldownload ! fakesink", TRUE},
    /* NV12 stays in host memory: clboxblur filters it without conversion */
    {"videotestsrc num-buffers=3 ! video/x-raw,format=NV12 ! clboxblur name=blur ! glupload ! glcolorconvert ! gldownload ! fakesink", FALSE},
  };
  /* *INDENT-ON* */
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint gl = run_to_eos (cases[i].desc, NULL);

    fail_unless (gl == cases[i].gl, "%s: %s memory", cases[i].desc,
        gl ? "GL" : "system");
    GST_INFO ("%s: %s memory", cases[i].desc, gl ? "GL" : "system");
  }
}

GST_END_TEST;

/* GL memory that clboxblur cannot pass on is refused at negotiation. */
GST_START_TEST (test_refused_gl_caps)
{
  gchar *text = NULL;

  GError *err = NULL;
  GstElement *pipeline;

  fail_unless_equals_int (run_to_eos ("gltestsrc num-buffers=3 "
          "! clboxblur name=blur ! capsfilter caps=video/x-raw ! fakesink",
          &text), -1);
  fail_unless (text && (strstr (text, "not-negotiated")
          || strstr (text, "not-linked")), "%s", text);
  g_free (text);

  /* glupload gives GL memory only: no link to a host-memory-only sink */
  pipeline = gst_parse_launch ("videotestsrc ! glupload ! clboxblur "
      "! video/x-raw ! fakesink", &err);
  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "could not link"), "%s", err->message);
  g_clear_error (&err);
  gst_clear_object (&pipeline);
}

GST_END_TEST;

/* A glimagesink pipeline runs to EOS. */
GST_START_TEST (test_glimagesink)
{
  fail_unless_equals_int (run_to_eos ("gltestsrc num-buffers=20 "
          "! video/x-raw(memory:GLMemory),width=320,height=240 "
          "! clboxblur name=blur radius=6 ! glimagesink sync=false", NULL), 1);
  fail_unless_equals_int (run_to_eos ("videotestsrc num-buffers=20 "
          "! glupload ! clboxblur name=blur method=bilateral radius=2 "
          "! glimagesink sync=false", NULL), 1);
}

GST_END_TEST;

static void
push_size_and_check (GstElement * src, GstElement * sink, gint w, gint h,
    const Setting * s, gint n)
{
  guint8 *in, *out, *ref;
  gint ow, oh;
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);

  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
          random_frame (w, h, &in, n)), GST_FLOW_OK);
  out = pull_pixels (sink, &ow, &oh);
  fail_unless_equals_int (ow, w);
  fail_unless_equals_int (oh, h);
  ref = reference (s, in, w, h);
  compare (out, ref, w, h, 0, "after renegotiation");
  g_free (in);
  g_free (out);
  g_free (ref);
}

/* Mid-stream switches between GL and system memory and between sizes:
 * every frame still equals the reference. */
GST_START_TEST (test_renegotiate_gl_system)
{
  GstElement *pipeline = blurcheck_launch ("appsrc name=src format=time "
      "! glupload ! gldownload ! capsfilter name=cf ! clboxblur name=blur "
      "radius=3 "
      "! gldownload ! video/x-raw,format=RGBA ! appsink name=sink "
      "sync=false");
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *cf = gst_bin_get_by_name (GST_BIN (pipeline), "cf");
  const Setting box3 = {.props = "radius=3",.kind = BOX,.rx = 3,.ry = 3,
    .border = REF_BORDER_SHRINK,.passes = 1
  };
  const Setting *s = &box3;
  gint n = 0, round;

  gst_util_set_object_arg (G_OBJECT (cf), "caps",
      "video/x-raw(memory:GLMemory)");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (round = 0; round < 2; round++) {
    push_size_and_check (src, sink, 64, 48, s, n++);
    fail_unless (blur_caps_are_gl (pipeline));
    push_size_and_check (src, sink, 90, 50, s, n++);
    fail_unless (blur_caps_are_gl (pipeline));

    gst_util_set_object_arg (G_OBJECT (cf), "caps", "video/x-raw");
    push_size_and_check (src, sink, 90, 50, s, n++);
    fail_if (blur_caps_are_gl (pipeline));
    push_size_and_check (src, sink, 33, 70, s, n++);
    fail_if (blur_caps_are_gl (pipeline));

    gst_util_set_object_arg (G_OBJECT (cf), "caps",
        "video/x-raw(memory:GLMemory)");
  }
  check_bus (pipeline);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (cf);
  blurcheck_release (pipeline);
}

GST_END_TEST;

/* Whether the device the element takes lists cl_khr_gl_sharing, as the
 * element asks. */
static gboolean
device_can_share (void)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  gboolean can = clb_runtime_has_extension (rt, CLB_GL_SHARING_EXTENSION);

  clb_runtime_free (rt);
  return can;
}

static gchar *
sharing_pipeline (const gchar * mode)
{
  return g_strdup_printf ("gltestsrc num-buffers=3 "
      "! video/x-raw(memory:GLMemory),width=64,height=48 "
      "! clboxblur name=blur gl-sharing=%s ! gldownload ! fakesink", mode);
}

/* gl-sharing=force on a device without cl_khr_gl_sharing is an element
 * error that says why; off and auto copy and work. */
GST_START_TEST (test_gl_sharing_modes)
{
  gchar *desc, *text = NULL;

  desc = sharing_pipeline ("off");
  fail_unless_equals_int (run_to_eos (desc, NULL), 1);
  g_free (desc);
  desc = sharing_pipeline ("auto");
  fail_unless_equals_int (run_to_eos (desc, NULL), 1);
  g_free (desc);

  desc = sharing_pipeline ("force");
  if (device_can_share ()) {
    /* The zero-copy path runs where the OpenCL driver can tie a context to
     * this GL context (the same vendor's GL); otherwise, e.g. NVIDIA's
     * OpenCL beside Mesa's GL under Xvfb, only making that context can
     * tell, and the error must say so. */
    if (run_to_eos (desc, &text) == 1) {
      g_print ("test_gl_sharing_modes: gl-sharing=force shared the "
          "textures\n");
    } else {
      g_print ("test_gl_sharing_modes: gl-sharing=force: the device lists "
          "cl_khr_gl_sharing but could not share with this GL context: "
          "%s\n", text);
      fail_unless (strstr (text, "gl-sharing=force") && strstr (text,
              "no OpenCL context could be tied to the GL context"), "%s",
          text);
    }
  } else {
    fail_unless_equals_int (run_to_eos (desc, &text), -1);
    fail_unless (strstr (text, "gl-sharing") && strstr (text,
            "cl_khr_gl_sharing"), "%s", text);
  }
  g_free (text);
  g_free (desc);
}

GST_END_TEST;

/* Start and stop with GL memory many times: no GL or OpenCL object left
 * behind (valgrind runs this too). */
GST_START_TEST (test_gl_cycles)
{
  guint i;

  for (i = 0; i < 10; i++)
    fail_unless_equals_int (run_to_eos ("gltestsrc num-buffers=2 "
            "! video/x-raw(memory:GLMemory),width=32,height=32 "
            "! clboxblur name=blur radius=2 ! gldownload ! fakesink", NULL),
        1);
}

GST_END_TEST;

static Suite *
clboxblur_gl_suite (void)
{
  Suite *s = suite_create ("clboxblur_gl");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_glupload_matches_reference);
  tcase_add_test (tc, test_gltestsrc_matches_reference);
  tcase_add_test (tc, test_negotiated_memory);
  tcase_add_test (tc, test_refused_gl_caps);
  tcase_add_test (tc, test_glimagesink);
  tcase_add_test (tc, test_renegotiate_gl_system);
  tcase_add_test (tc, test_gl_sharing_modes);
  tcase_add_test (tc, test_gl_cycles);
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
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL) {
    if (g_getenv ("CI") != NULL) {
      fprintf (stderr, "FAIL: no display for GL in CI: run under xvfb-run "
          "(package xvfb).\n");
      return 1;
    }
    fprintf (stderr, "SKIP: no display for GL; install xvfb so that the "
        "test runs under xvfb-run.\n");
    return CLCHECK_EXIT_SKIP;
  }
  return gst_check_run_suite (clboxblur_gl_suite (), "clboxblur_gl",
      __FILE__);
}
