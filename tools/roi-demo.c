/* clboxblur-roi-demo: blur region-of-interest metas attached upstream.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A stand-in for a detector: a pad probe on videotestsrc attaches two
 * moving "face" regions and one "plate" region to every buffer, and
 * clboxblur roi-meta=true roi-type=face blurs only the faces.
 *
 *   clboxblur-roi-demo [--png FILE] [--frames N] [--invert]
 *
 * Shows the result in a window, or with --png writes the last frame to
 * FILE (for machines without a display).
 */
#include <stdlib.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#define WIDTH 640
#define HEIGHT 360

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

int
main (int argc, char **argv)
{
  gchar *png = NULL;
  gint frames = 0;
  gboolean invert = FALSE;
  GOptionEntry entries[] = {
    {"png", 0, 0, G_OPTION_ARG_FILENAME, &png, "Write the last frame to FILE",
        "FILE"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "Stop after N frames", "N"},
    {"invert", 0, 0, G_OPTION_ARG_NONE, &invert,
        "Blur everything except the faces", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- blur ROI metas");
  GError *err = NULL;
  GstElement *pipe, *src;
  GstPad *pad;
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
  if (png && frames <= 0)
    frames = 1;

  desc = g_strdup_printf ("videotestsrc name=src num-buffers=%d pattern=smpte "
      "! video/x-raw,format=RGBA,width=%d,height=%d "
      "! clboxblur roi-meta=true roi-type=face roi-padding=8 radius=12 "
      "region-invert=%s ! videoconvert ! %s", frames > 0 ? frames : -1, WIDTH,
      HEIGHT, invert ? "true" : "false",
      png ? "pngenc snapshot=false ! multifilesink max-files=1 location=" :
      "autovideosink");
  if (png) {
    gchar *full = g_strconcat (desc, png, NULL);
    g_free (desc);
    desc = full;
  }
  pipe = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipe) {
    g_printerr ("%s\n", err->message);
    return 1;
  }

  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, add_rois, NULL, NULL);
  gst_object_unref (pad);
  gst_object_unref (src);

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
  } else if (png) {
    g_print ("Wrote %s: %s\n", png, invert ?
        "everything blurred except the two faces (the plate blurred too)" :
        "the two faces blurred, the plate and the rest left sharp");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  g_free (png);
  return ret;
}
