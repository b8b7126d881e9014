/* clboxblur soak: 10,000 frames of 1280x720, every method in turn
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every frame comes out, in order, and the resident memory at the end is
 * within a few MiB of what it was after a warm-up of 400 frames that runs
 * every setting of the soak once (the OpenCL driver compiles each kernel
 * for its work-group size on first use and keeps it: growth then, but not
 * a leak).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <unistd.h>
#include <gst/check/gstcheck.h>

#include "clcheck.h"

/* CLBOXBLUR_SOAK_FRAMES overrides the count (at least 1000) where a device
 * is slow, as Mesa's llvmpipe is (scripts/run.sh test-rusticl), or the
 * run a second one (the gpu_class setup, after the default run's). */
#define DEFAULT_FRAMES 10000
static guint frames_wanted = DEFAULT_FRAMES;
#define MAX_GROWTH (8 << 20)    /* bytes */

typedef struct
{
  GstElement *blur;
  guint frames;
  GstClockTime last_pts;
  guint out_of_order;
  gint64 rss_after_warmup;
} Soak;

static gint64
resident_bytes (void)
{
  long pages = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f == NULL)
    return -1;
  if (fscanf (f, "%ld %ld", &pages, &resident) != 2)
    resident = -1;
  fclose (f);
  return resident < 0 ? -1 : (gint64) resident * sysconf (_SC_PAGESIZE);
}

static void
set_phase (GstElement * blur, guint phase)
{
  switch (phase) {
    case 0:
      g_object_set (blur, "method", 1 /* separable */ , "radius", 4,
          "region-x", 0, "region-width", 0, "region-invert", FALSE, NULL);
      break;
    case 1:
      g_object_set (blur, "method", 2 /* bilateral */ , "radius", 1, NULL);
      break;
    default:
      g_object_set (blur, "method", 0 /* sat */ , "radius", 6,
          "region-x", 320, "region-width", 640, "region-invert", TRUE, NULL);
      break;
  }
}

/* Counts frames, checks order; runs every setting for 100 frames as a
 * warm-up, then each for a quarter of the soak or so. */
static GstPadProbeReturn
on_output (GstPad * pad, GstPadProbeInfo * info, Soak * soak)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (soak->frames > 0 && pts <= soak->last_pts)
    soak->out_of_order++;
  soak->last_pts = pts;
  soak->frames++;

  if (soak->frames == 100)
    set_phase (soak->blur, 1);
  else if (soak->frames == 200)
    set_phase (soak->blur, 2);
  else if (soak->frames == 300)
    set_phase (soak->blur, 0);
  else if (soak->frames == 400)
    soak->rss_after_warmup = resident_bytes ();
  else if (soak->frames == frames_wanted / 2)
    set_phase (soak->blur, 1);
  else if (soak->frames == 3 * frames_wanted / 4)
    set_phase (soak->blur, 2);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_soak)
{
  GstElement *pipe;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  Soak soak = { NULL, 0, 0, 0, -1 };
  gint64 rss_end, t0 = g_get_monotonic_time ();
  const gchar *env = g_getenv ("CLBOXBLUR_SOAK_FRAMES");
  gchar *desc;

  if (env != NULL)
    frames_wanted = MAX (1000, (guint) g_ascii_strtoull (env, NULL, 10));
  desc = g_strdup_printf ("videotestsrc num-buffers=%u"
      " pattern=ball ! video/x-raw,format=NV12,width=1280,height=720 "
      "! clboxblur name=blur radius=4 ! fakesink name=sink sync=false", frames_wanted);
  pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipe != NULL);
  soak.blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  pad = gst_element_get_static_pad (soak.blur, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
      (GstPadProbeCallback) on_output, &soak, NULL);
  gst_object_unref (pad);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 1200 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timed out");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  rss_end = resident_bytes ();
  gst_element_set_state (pipe, GST_STATE_NULL);

  g_print ("soak: %u frames in %.1f s, resident %.1f MiB after the warm-up, "
      "%.1f MiB at the end\n", soak.frames,
      (g_get_monotonic_time () - t0) / 1e6, soak.rss_after_warmup / 1048576.0,
      rss_end / 1048576.0);
  fail_unless_equals_int (soak.frames, frames_wanted);
  fail_unless_equals_int (soak.out_of_order, 0);
  fail_unless (soak.rss_after_warmup > 0 && rss_end > 0);
  fail_unless (rss_end - soak.rss_after_warmup < MAX_GROWTH,
      "resident memory grew by %.1f MiB",
      (rss_end - soak.rss_after_warmup) / 1048576.0);

  gst_object_unref (bus);
  gst_object_unref (soak.blur);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
soak_suite (void)
{
  Suite *s = suite_create ("clboxblur_soak");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_soak);
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
  return gst_check_run_suite (soak_suite (), "clboxblur_soak", __FILE__);
}
