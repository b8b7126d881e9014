/* clboxblur-roi-demo: blur region-of-interest metas attached upstream.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A stand-in for a detector: a pad probe on videotestsrc attaches two
 * moving "face" regions and one "plate" region to every buffer, and
 * clboxblur roi-meta=true roi-type=face blurs only the faces.
 *
 *   clboxblur-roi-demo [--png FILE] [--frames N] [--invert]
 *                      [--shape rectangle|ellipse] [--feather PIXELS]
 *
 * Shows the result in a window, or with --png writes the last frame to
 * FILE (for machines without a display).
 *
 * With --crowd N it measures instead what a crowd of regions costs: N
 * "face" metas of --size pixels square, spread over a 1920x1080 frame
 * (--format, NV12 by default; radius 8), into fakesink, and prints the
 * median time the element spends on a frame (from the buffer's arrival on
 * its sink pad to its push on the source pad), the first 5 frames left
 * out. docs/benchmarks.md ("Regions") has the figures:
 *
 *   clboxblur-roi-demo --crowd 100 --size 24 --frames 60
 */
#include <stdlib.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#define WIDTH 640
#define HEIGHT 360

#define CROWD_WIDTH 1920
#define CROWD_HEIGHT 1080

static gint crowd, crowd_size = 24;
static gint64 arrived;
static GArray *times;           /* gdouble, ms */

/* @crowd metas of crowd_size, in a grid over the frame, a cell apart. */
static GstPadProbeReturn
add_crowd (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  gint cols = 1, i;

  while (cols * cols < crowd)
    cols++;
  for (i = 0; i < crowd; i++) {
    guint cw = CROWD_WIDTH / cols, ch = CROWD_HEIGHT / cols;

    gst_buffer_add_video_region_of_interest_meta (buf, "face",
        (i % cols) * cw + (cw - crowd_size) / 2,
        (i / cols) * ch + (ch - crowd_size) / 2, crowd_size, crowd_size);
  }
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_arrival (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  arrived = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_push (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  gdouble ms = (g_get_monotonic_time () - arrived) / 1000.0;

  g_array_append_val (times, ms);
  return GST_PAD_PROBE_OK;
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

static GstPadProbeReturn
add_rois (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  guint64 n = GST_BUFFER_OFFSET (buf);
  guint x = 40 + (n * 4) % (WIDTH - 200);

  buf = gst_buffer_make_writable (buf);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", x, 60, 120, 120);
  gst_buffer_add_video_region_of_interest_meta (buf, "face", WIDTH - 160,
      200, 100, 100);
  gst_buffer_add_video_region_of_interest_meta (buf, "plate", 20, 280, 160,
      50);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

/* What the command line asks for. */
typedef struct
{
  gchar *png, *shape, *format;
  gint frames, feather;
  gboolean invert;
} DemoOptions;

/* The pipeline's description for @o: the crowd measured into fakesink, or
 * the two faces shown (or written to o->png). */
static gchar *
describe (const DemoOptions * o)
{
  /* set only when asked for, so that the tool runs older builds too */
  gchar *shape_args = o->shape || o->feather != 0 ?
      g_strdup_printf ("region-shape=%s region-feather=%d",
      o->shape ? o->shape : "rectangle", o->feather) : g_strdup ("");
  gchar *desc;

  if (crowd > 0)
    desc = g_strdup_printf ("videotestsrc name=src num-buffers=%d "
        "pattern=smpte ! video/x-raw,format=%s,width=%d,height=%d "
        "! clboxblur name=blur roi-meta=true radius=8 region-invert=%s "
        "%s ! fakesink", o->frames,
        o->format ? o->format : "NV12", CROWD_WIDTH, CROWD_HEIGHT,
        o->invert ? "true" : "false", shape_args);
  else
    desc = g_strdup_printf ("videotestsrc name=src num-buffers=%d "
        "pattern=smpte ! video/x-raw,format=RGBA,width=%d,height=%d "
        "! clboxblur roi-meta=true roi-type=face roi-padding=8 radius=12 "
        "region-invert=%s %s ! videoconvert ! %s%s",
        o->frames > 0 ? o->frames : -1, WIDTH, HEIGHT,
        o->invert ? "true" : "false", shape_args,
        o->png ? "pngenc snapshot=false ! multifilesink max-files=1 "
        "location=" : "autovideosink", o->png ? o->png : "");
  g_free (shape_args);
  return desc;
}

/* The probes: the source's metas, and with --crowd the times each buffer
 * spends in clboxblur. */
static void
add_probes (GstElement * pipe)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstPad *pad = gst_element_get_static_pad (src, "src");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
      crowd > 0 ? add_crowd : add_rois, NULL, NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  if (crowd > 0) {
    GstElement *blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");

    times = g_array_new (FALSE, FALSE, sizeof (gdouble));
    pad = gst_element_get_static_pad (blur, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_arrival, NULL,
        NULL);
    gst_object_unref (pad);
    pad = gst_element_get_static_pad (blur, "src");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_push, NULL, NULL);
    gst_object_unref (pad);
    gst_object_unref (blur);
  }
}

/* The crowd's time in clboxblur: median, p10 and p90 of the frames after
 * the first few. */
static void
print_crowd (const DemoOptions * o)
{
  guint skip = MIN (times->len / 2, 5);
  gdouble *t = &g_array_index (times, gdouble, skip);
  guint n = times->len - skip;

  qsort (t, n, sizeof (gdouble), compare_doubles);
  g_print ("%d regions of %dx%d, %s, feather %d%s, %s %dx%d radius 8: "
      "median %.2f ms a frame in clboxblur (p10 %.2f, p90 %.2f, %u frames)\n",
      crowd, crowd_size, crowd_size, o->shape ? o->shape : "rectangle",
      o->feather, o->invert ? ", inverted" : "",
      o->format ? o->format : "NV12", CROWD_WIDTH, CROWD_HEIGHT,
      n > 0 ? t[n / 2] : 0.0, n > 0 ? t[n / 10] : 0.0,
      n > 0 ? t[n * 9 / 10] : 0.0, n);
}

int
main (int argc, char **argv)
{
  DemoOptions o = { NULL, NULL, NULL, 0, 0, FALSE };
  GOptionEntry entries[] = {
    {"shape", 0, 0, G_OPTION_ARG_STRING, &o.shape, "region-shape "
          "(rectangle, ellipse)", "SHAPE"},
    {"feather", 0, 0, G_OPTION_ARG_INT, &o.feather, "region-feather",
        "PIXELS"},
    {"crowd", 0, 0, G_OPTION_ARG_INT, &crowd, "Measure N metas on a 1080p "
          "frame into fakesink", "N"},
    {"size", 0, 0, G_OPTION_ARG_INT, &crowd_size, "With --crowd, the metas' "
          "side (24)", "PIXELS"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &o.format, "With --crowd, the "
          "format (NV12)", "FORMAT"},
    {"png", 0, 0, G_OPTION_ARG_FILENAME, &o.png, "Write the last frame to "
          "FILE", "FILE"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &o.frames, "Stop after N frames", "N"},
    {"invert", 0, 0, G_OPTION_ARG_NONE, &o.invert,
        "Blur everything except the faces", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- blur ROI metas");
  GError *err = NULL;
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  gchar *desc;
  int ret = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (o.png && o.frames <= 0)
    o.frames = 1;
  if (crowd > 0 && o.frames <= 0)
    o.frames = 60;

  desc = describe (&o);
  pipe = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipe) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  add_probes (pipe);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    g_printerr ("Error: %s\n%s\n", err->message, debug ? debug : "");
    g_free (debug);
    g_clear_error (&err);
    ret = 1;
  } else if (crowd > 0) {
    print_crowd (&o);
  } else if (o.png) {
    g_print ("Wrote %s: %s\n", o.png, o.invert ?
        "everything blurred except the two faces (the plate blurred too)" :
        "the two faces blurred, the plate and the rest left sharp");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  g_free (o.png);
  g_free (o.shape);
  g_free (o.format);
  if (times)
    g_array_free (times, TRUE);
  return ret;
}
