/* GStreamer unit tests for clboxblur: method=temporal
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Sequences of RGBA and GRAY8 frames through the element against the
 * plain-C reference (ref_temporal_frame) frame after frame; the history
 * starting again after a flush, a new segment (a seek), a discontinuity
 * and a gap in the timestamps (the frame after shows nothing of the
 * frames before: it is what a fresh reference makes of it); noise-level
 * read back as the estimate, and fixed.
 *
 * Helpers and the teardown fixture are in tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "blurcheck.h"

#define W 45
#define H 31
#define FRAME_NS (GST_SECOND / 30)

typedef struct {
  GstHarness *h;
  GstVideoInfo info;
  guint channels;
  RefTemporal ref;
  GRand *rand;
  guint frame;                  /* the next frame's number */
  gdouble noise_level;
  guint rx;                     /* the window the reference takes */
  gdouble ss;
} Seq;

/* A sequence of @format; @rx and @ss (-1: left unset, the method's own
 * 2 and 1.5) set on the element after the method. */
static void
seq_start_window (Seq * q, const gchar * format, gdouble noise_level,
    gint rx, gdouble ss)
{
  q->h = blurcheck_harness_new ("clboxblur");
  gst_util_set_object_arg (G_OBJECT (q->h->element), "method", "temporal");
  g_object_set (q->h->element, "noise-level", noise_level, NULL);
  if (rx >= 0)
    g_object_set (q->h->element, "radius", rx, NULL);
  if (ss >= 0)
    g_object_set (q->h->element, "sigma-spatial", ss, NULL);
  q->rx = rx >= 0 ? (guint) rx : 2;
  q->ss = ss >= 0 ? ss : 1.5;
  q->noise_level = noise_level;
  set_format (q->h, &q->info, format, W, H);
  q->channels = GST_VIDEO_INFO_COMP_PSTRIDE (&q->info, 0);
  fail_unless (ref_temporal_init (&q->ref, W, H, q->channels) == 0);
  q->rand = g_rand_new_with_seed (7);
  q->frame = 0;
}

static void
seq_start (Seq * q, const gchar * format, gdouble noise_level)
{
  seq_start_window (q, format, noise_level, 2, 1.5);
}

static void
seq_end (Seq * q)
{
  ref_temporal_clear (&q->ref);
  g_rand_free (q->rand);
  blurcheck_harness_teardown (q->h);
}

/* The reference forgets its history, as the element must. */
static void
seq_fresh (Seq * q)
{
  ref_temporal_clear (&q->ref);
  fail_unless (ref_temporal_init (&q->ref, W, H, q->channels) == 0);
}

/* Pushes frame q->frame (a scene that moves after frame 3, noise of
 * about 12) at @pts and checks the output against the reference. */
static void
seq_push (Seq * q, GstClockTime pts, gboolean discont)
{
  GstBuffer *in = gst_buffer_new_allocate (NULL, q->info.size, NULL), *out;
  GstMapInfo map;
  guint16 *src = g_new (guint16, W * H * q->channels);
  guint16 *want = g_new (guint16, W * H * q->channels);
  guint x, y, c, stride = GST_VIDEO_INFO_PLANE_STRIDE (&q->info, 0);

  fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (c = 0; c < q->channels; c++) {
        gdouble v = 60 + 3 * x + 2 * y + 20 * c, n = 0;
        guint i;

        if (q->frame > 3 && (x + y + q->frame) % 16 < 5)
          v = 220;
        for (i = 0; i < 4; i++)
          n += g_rand_double (q->rand) - 0.5;
        v = CLAMP (floor (v + 12 * 1.732 * n + 0.5), 0, 255);
        map.data[y * stride + x * q->channels + c] = (guint8) v;
        src[(y * W + x) * q->channels + c] = (guint16) v;
      }
  gst_buffer_unmap (in, &map);
  GST_BUFFER_PTS (in) = pts;
  GST_BUFFER_DURATION (in) = FRAME_NS;
  if (discont)
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int (gst_harness_push (q->h, in), GST_FLOW_OK);
  out = gst_harness_pull (q->h);
  fail_unless (out != NULL);
  fail_unless (ref_temporal_frame (&q->ref, src, want, q->channels == 4 ?
          0x7 : 0x1, 255, (gint) floor (q->noise_level * 16 + 0.5), 8, q->rx,
          q->rx, q->ss, REF_BORDER_SHRINK) == 0);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (c = 0; c < q->channels; c++) {
        guint got = map.data[y * stride + x * q->channels + c];
        guint w = want[(y * W + x) * q->channels + c];

        fail_unless (got == w, "frame %u: (%u, %u) channel %u is %u, the "
            "reference %u", q->frame, x, y, c, got, w);
      }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  g_free (src);
  g_free (want);
  q->frame++;
}

/* RGBA and GRAY8, the level estimated and fixed, frame after frame. */
GST_START_TEST (test_temporal_sequence)
{
  static const gchar *formats[] = { "RGBA", "GRAY8" };
  guint f, n, k;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (k = 0; k < 2; k++) {
      Seq q;

      seq_start (&q, formats[f], k ? 9.5 : 0);
      for (n = 0; n < 8; n++)
        seq_push (&q, n * FRAME_NS, n == 0);
      seq_end (&q);
    }
  }
}

GST_END_TEST;

/* The window: the method's own (radius 2, sigma-spatial 1.5) while
 * radius and sigma-spatial are unset, each set one taken as set (4 and
 * 3, the defaults the other methods take, among them). */
GST_START_TEST (test_temporal_window)
{
  static const struct
  {
    gint rx;
    gdouble ss;
  } windows[] = { {-1, -1}, {4, 3}, {3, -1}, {-1, 0.8}, {2, 1.5} };
  guint w, n;

  for (w = 0; w < G_N_ELEMENTS (windows); w++) {
    Seq q;

    seq_start_window (&q, "RGBA", 0, windows[w].rx, windows[w].ss);
    for (n = 0; n < 4; n++)
      seq_push (&q, n * FRAME_NS, n == 0);
    seq_end (&q);
  }
}

GST_END_TEST;

/* A flush, a new segment, a discontinuity, a gap in time, time running
 * backwards: the next frame is filtered as a first one. Frames in
 * sequence before and after each keep their history. */
GST_START_TEST (test_temporal_resets)
{
  Seq q;
  GstClockTime t = 0;
  GstSegment segment;
  guint n, i;

  seq_start (&q, "RGBA", 0);
  for (i = 0; i < 5; i++) {
    for (n = 0; n < 3; n++, t += FRAME_NS)
      seq_push (&q, t, FALSE);
    seq_fresh (&q);
    switch (i) {
      case 0:
        fail_unless (gst_harness_push_event (q.h,
                gst_event_new_flush_start ()));
        fail_unless (gst_harness_push_event (q.h,
                gst_event_new_flush_stop (TRUE)));
        gst_segment_init (&segment, GST_FORMAT_TIME);
        fail_unless (gst_harness_push_event (q.h,
                gst_event_new_segment (&segment)));
        break;
      case 1:
        gst_segment_init (&segment, GST_FORMAT_TIME);
        segment.start = segment.time = t;
        fail_unless (gst_harness_push_event (q.h,
                gst_event_new_segment (&segment)));
        break;
      case 2:
        seq_push (&q, t, TRUE);       /* a discontinuity */
        t += FRAME_NS;
        continue;
      case 3:
        t += 5 * FRAME_NS;            /* a gap */
        break;
      default:
        t = 0;                        /* backwards */
        break;
    }
    seq_push (&q, t, FALSE);
    t += FRAME_NS;
  }
  seq_end (&q);
}

GST_END_TEST;

/* noise-level 0 reads back the estimate: the level the reference
 * filtered the last frame prepared at (that of the frames before it but
 * one), near the noise. */
GST_START_TEST (test_temporal_noise_level)
{
  Seq q;
  gdouble level;
  gint want = 0;
  guint n;

  seq_start (&q, "RGBA", 0);
  g_object_get (q.h->element, "noise-level", &level, NULL);
  fail_unless_equals_float (level, 0.0);
  for (n = 0; n < 6; n++)
    seq_push (&q, n * FRAME_NS, FALSE);
  /* the element reads the engine's level before each frame, a frame
   * behind: that frame 5 was filtered at (of frames 0..3) when frame 6 is
   * prepared */
  want = q.ref.level16;
  seq_push (&q, 6 * FRAME_NS, FALSE);
  g_object_get (q.h->element, "noise-level", &level, NULL);
  fail_unless (fabs (level - want / 16.0) < 1e-9, "level %g, want %g",
      level, want / 16.0);
  fail_unless (level > 6 && level < 18, "level %g for noise of 12", level);
  seq_end (&q);
}

GST_END_TEST;

/* Interlaced (interleaved) GRAY8: each field keeps a history of its own.
 * The two fields show different scenes (a shared history would blend
 * them); each field's rows out are what the reference makes of that
 * field's rows alone, frame after frame. */
GST_START_TEST (test_temporal_fields)
{
  const guint fh = 15;          /* rows a field */
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  RefTemporal ref[2];
  GRand *rand = g_rand_new_with_seed (11);
  guint16 *src = g_new (guint16, W * fh), *want = g_new (guint16, W * fh);
  guint n, f, x, i, stride;

  gst_util_set_object_arg (G_OBJECT (h->element), "method", "temporal");
  g_object_set (h->element, "radius", 2, "sigma-spatial", 1.5,
      "noise-level", 9.5, NULL);
  gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED, W, 2 * fh);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  for (f = 0; f < 2; f++)
    fail_unless (ref_temporal_init (&ref[f], W, fh, 1) == 0);

  for (n = 0; n < 6; n++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;
    GstMapInfo map;

    fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
    for (i = 0; i < 2 * fh; i++)
      for (x = 0; x < W; x++) {
        /* top field dark and still, bottom bright with a moving bar */
        gdouble v = i % 2 ? 190 - 2 * x : 40 + x + i;

        if (i % 2 && (x + n * 3) % 12 < 4)
          v = 90;
        v += 20 * (g_rand_double (rand) - 0.5);
        map.data[i * stride + x] = (guint8) CLAMP (floor (v + 0.5), 0, 255);
      }
    gst_buffer_unmap (in, &map);
    GST_BUFFER_PTS (in) = n * FRAME_NS;
    GST_BUFFER_DURATION (in) = FRAME_NS;
    fail_unless (gst_buffer_map (in, &map, GST_MAP_READ));
    gst_buffer_ref (in);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    for (f = 0; f < 2; f++) {
      GstMapInfo got;

      for (i = 0; i < fh; i++)
        for (x = 0; x < W; x++)
          src[i * W + x] = map.data[(2 * i + f) * stride + x];
      fail_unless (ref_temporal_frame (&ref[f], src, want, 0x1, 255,
              (gint) floor (9.5 * 16 + 0.5), 8, 2, 2, 1.5,
              REF_BORDER_SHRINK) == 0);
      fail_unless (gst_buffer_map (out, &got, GST_MAP_READ));
      for (i = 0; i < fh; i++)
        for (x = 0; x < W; x++)
          fail_unless (got.data[(2 * i + f) * stride + x] == want[i * W + x],
              "frame %u, field %u: (%u, %u) is %u, the reference %u", n, f,
              x, i, got.data[(2 * i + f) * stride + x], want[i * W + x]);
      gst_buffer_unmap (out, &got);
    }
    gst_buffer_unmap (in, &map);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  for (f = 0; f < 2; f++)
    ref_temporal_clear (&ref[f]);
  g_free (src);
  g_free (want);
  g_rand_free (rand);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Bilateral with range-from-noise 1.5: each frame's sigma-range is 1.5
 * times the noise level, estimated as temporal's (the reference's level
 * for that frame), or fixed by noise-level; the output within 1 of the
 * reference bilateral at that sigma (the bilateral's float sums), frame
 * after frame. (Noise of about 12: 1.5 times it is far from the default
 * sigma-range of 30.) */
GST_START_TEST (test_bilateral_range_from_noise)
{
  guint16 *src = g_new (guint16, W * H), *want = g_new (guint16, W * H);
  guint16 *scratch = g_new (guint16, W * H);
  guint k, n, x, y;

  for (k = 0; k < 2; k++) {
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GRand *rand = g_rand_new_with_seed (5);
    gdouble fixed = k ? 9.5 : 0.0;
    GstVideoInfo info;
    RefTemporal rt;
    guint stride;

    gst_util_set_object_arg (G_OBJECT (h->element), "method", "bilateral");
    g_object_set (h->element, "radius", 3, "sigma-spatial", 1.5,
        "range-from-noise", 1.5, "noise-level", fixed, NULL);
    set_format (h, &info, "GRAY8", W, H);
    stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
    fail_unless (ref_temporal_init (&rt, W, H, 1) == 0);
    for (n = 0; n < 6; n++) {
      GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;
      GstMapInfo map;
      gint level;

      fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
      for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
          gdouble v = (x + n) % 14 < 7 ? 70 : 170, e = 0;
          guint i;

          for (i = 0; i < 4; i++)
            e += g_rand_double (rand) - 0.5;
          v = CLAMP (floor (v + 12 * 1.732 * e + 0.5), 0, 255);
          map.data[y * stride + x] = (guint8) v;
          src[y * W + x] = (guint16) v;
        }
      gst_buffer_unmap (in, &map);
      GST_BUFFER_PTS (in) = n * FRAME_NS;
      GST_BUFFER_DURATION (in) = FRAME_NS;
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      /* the level of this frame: the reference estimator's, as taken */
      fail_unless (ref_temporal_frame (&rt, src, scratch, 0x1, 255, 0, 8, 2,
              2, 1.5, REF_BORDER_SHRINK) == 0);
      level = k ? (gint) floor (fixed * 16 + 0.5) : rt.level16 < 0 ? 16 * 8
          : MAX (rt.level16, 1);
      fail_unless (ref_bilateral (src, want, W, H, 1, 3, 3,
              REF_BORDER_SHRINK, 1.5, 1.5 * level / 16.0, 0x1, 255) == 0);
      fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
      for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
          fail_unless (ABS ((gint) map.data[y * stride + x]
                  - (gint) want[y * W + x]) <= 1, "%s level, frame %u: (%u, "
              "%u) is %u, the reference %u at sigma-range %g", k ? "fixed" :
              "estimated", n, x, y, map.data[y * stride + x],
              want[y * W + x], 1.5 * level / 16.0);
      gst_buffer_unmap (out, &map);
      gst_buffer_unref (out);
    }
    ref_temporal_clear (&rt);
    g_rand_free (rand);
    blurcheck_harness_teardown (h);
  }
  g_free (src);
  g_free (want);
  g_free (scratch);
}

GST_END_TEST;

static Suite *
clboxblur_temporal_suite (void)
{
  Suite *s = suite_create ("clboxblur_temporal");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_temporal_sequence);
  tcase_add_test (tc, test_temporal_window);
  tcase_add_test (tc, test_temporal_fields);
  tcase_add_test (tc, test_temporal_resets);
  tcase_add_test (tc, test_temporal_noise_level);
  tcase_add_test (tc, test_bilateral_range_from_noise);
  return s;
}

BLURCHECK_MAIN (clboxblur_temporal);
