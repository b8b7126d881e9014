/* GStreamer unit tests for clboxblur: privacy that holds
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * roi-hold (a region filtered for N frames after its metas stop, then
 * released; the intersection with region-invert), roi-type lists (several
 * types kept, others ignored, malformed lists refused), roi-fail-closed,
 * the history forgotten on a flush, a segment and new caps, and the held
 * regions of interlaced frames in each field's rows. Every
 * frame is compared with the plain-C reference (tests/check/blurcheck.c:
 * Settings.n_frames and rect_frame describe the frames held, and the
 * reference decides each pixel from them).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

typedef struct
{
  const gchar *type;
  gint x, y, w, h;
} Meta;

/* The metas of one frame: up to 4, type NULL ending the list early. */
typedef struct
{
  Meta m[4];
} Frame;

static guint
frame_n_metas (const Frame * f)
{
  guint n = 0;

  while (n < 4 && f->m[n].type != NULL)
    n++;
  return n;
}

/* Whether @type is in @types (NULL-terminated; NULL: any type). */
static gboolean
type_in (const gchar * const *types, const gchar * type)
{
  if (types == NULL)
    return TRUE;
  for (; *types; types++)
    if (strcmp (*types, type) == 0)
      return TRUE;
  return FALSE;
}

/* The settings of @base with the regions of @n_window held frames:
 * window[0] the current one, window[k] the one k frames before it; their
 * metas of @types grown by @pad. */
static Settings
held (const Settings * base, const Frame * const *window, guint n_window,
    const gchar * const *types, gint pad)
{
  Settings s = *base;
  guint k, i;

  s.use_rects = TRUE;
  s.n_rects = 0;
  s.n_frames = n_window;
  for (k = 0; k < n_window; k++) {
    for (i = 0; i < frame_n_metas (window[k]); i++) {
      const Meta *m = &window[k]->m[i];

      if (!type_in (types, m->type))
        continue;
      fail_unless (s.n_rects < MAX_RECTS);
      s.rects[s.n_rects][0] = m->x - pad;
      s.rects[s.n_rects][1] = m->y - pad;
      s.rects[s.n_rects][2] = m->w + 2 * pad;
      s.rects[s.n_rects][3] = m->h + 2 * pad;
      s.rect_frame[s.n_rects] = k;
      s.n_rects++;
    }
  }
  return s;
}

/* The frames of @seq from @t - @hold (or @first, the first since the last
 * reset) to @t, newest first, into @window; returns how many. */
static guint
window_of (const Frame * seq, guint t, guint hold, guint first,
    const Frame ** window)
{
  guint n = 0;
  gint k;

  for (k = t; k >= (gint) first && k >= (gint) t - (gint) hold; k--)
    window[n++] = &seq[k];
  return n;
}

/* Pushes a random frame carrying @f's metas and checks it under @s. */
static void
push_frame_and_check (GstHarness * h, const GstVideoInfo * info,
    const Frame * f, guint32 seed, const Settings * s)
{
  GstBuffer *in = make_frame (info, 0, seed);
  guint i;

  for (i = 0; i < frame_n_metas (f); i++)
    gst_buffer_add_video_region_of_interest_meta (in, f->m[i].type,
        f->m[i].x, f->m[i].y, f->m[i].w, f->m[i].h);
  push_buffer_and_check (h, info, in, s);
}

static void
new_segment (GstHarness * h)
{
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
}

/* A face held for roi-hold frames after its metas stop, then released
 * (the frame after passes unfiltered): frame by frame, several formats
 * (subsampled chroma: a sample is filtered where its footprint meets a
 * held region) and methods, holds of 0, 1 and 2. */
GST_START_TEST (test_hold_release)
{
  static const Frame seq[] = {
    {{{"face", 5, 4, 10, 8}}},
    {{{"face", 21, 11, 12, 9}, {"face", 40, 25, 15, 12}}},
    {{{NULL}}},
    {{{NULL}}},
    {{{NULL}}},
    {{{"face", 30, 29, 7, 8}}},
    {{{NULL}}},
    {{{NULL}}},
  };
  static const gchar *formats[] = { "RGBA", "I420", "NV12" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint f, hold, m, t;

  base.rx = 3;
  base.ry = 2;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (hold = 0; hold <= 2; hold++) {
      for (m = 0; m < 3; m++) {
        if (m == METHOD_BILATERAL && f > 0)
          continue;
        base.method = m;
        g_object_set (h->element, "roi-meta", TRUE, "roi-hold", hold, NULL);
        new_segment (h);        /* each run from a reset */
        for (t = 0; t < G_N_ELEMENTS (seq); t++) {
          const Frame *window[8];
          guint n = window_of (seq, t, hold, 0, window);
          Settings s = held (&base, window, n, NULL, 0);

          /* the held frames as the test reads the property: released at
           * frame 2 + hold + 1 after the last metas of frame 1 */
          if (t >= 2 && t <= 4)
            fail_unless_equals_int (s.n_rects > 0, t <= 1 + hold);
          push_frame_and_check (h, &info, &seq[t], t * 7 + hold + m, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* region-invert with roi-hold: a pixel stays sharp only where it is inside
 * a region in every held frame; a held frame without metas leaves nothing
 * sharp. Padding applies to held metas too. */
GST_START_TEST (test_hold_invert)
{
  static const Frame seq[] = {
    {{{"face", 10, 5, 30, 25}}},
    {{{"face", 15, 11, 30, 25}}},
    {{{"face", 10, 5, 30, 25}, {"face", 41, 1, 15, 15}}},
    {{{"face", 43, 3, 15, 17}, {"face", 9, 6, 20, 20}}},
    {{{NULL}}},
    {{{"face", 15, 11, 30, 25}}},
    {{{"face", 15, 11, 30, 25}, {"face", 42, 2, 15, 15}}},
    {{{"face", 16, 12, 30, 25}, {"face", 43, 3, 15, 15}}},
  };
  static const gchar *formats[] = { "RGBA", "I420" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint f, hold, pad, t;

  base.rx = base.ry = 3;
  base.invert = TRUE;
  base.method = METHOD_SEPARABLE;
  g_object_set (h->element, "roi-meta", TRUE, "region-invert", TRUE, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (hold = 0; hold <= 3; hold++) {
      for (pad = 0; pad <= 1; pad++) {
        g_object_set (h->element, "roi-hold", hold, "roi-padding", pad, NULL);
        new_segment (h);
        for (t = 0; t < G_N_ELEMENTS (seq); t++) {
          const Frame *window[8];
          guint n = window_of (seq, t, hold, 0, window);
          Settings s = held (&base, window, n, NULL, pad);

          push_frame_and_check (h, &info, &seq[t], t * 5 + hold, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* What a pixel of a GRAY8 frame must be. */
typedef enum
{
  MUST_FILTER,                  /* the box mean, radius 2, shrink */
  MUST_KEEP,                    /* the input */
  EITHER,
} Want;

typedef Want (*WantFunc) (gint x, gint y);

/* Checks every pixel of GRAY8 @out against @in under @want. */
static void
check_gray (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    WantFunc want)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), hgt = GST_VIDEO_INFO_HEIGHT (info);
  GstVideoFrame fin, fout;
  gint x, y, dx, dy, sin, sout;
  const guint8 *a, *b;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  a = GST_VIDEO_FRAME_PLANE_DATA (&fin, 0);
  b = GST_VIDEO_FRAME_PLANE_DATA (&fout, 0);
  sin = GST_VIDEO_FRAME_PLANE_STRIDE (&fin, 0);
  sout = GST_VIDEO_FRAME_PLANE_STRIDE (&fout, 0);
  for (y = 0; y < hgt; y++) {
    for (x = 0; x < w; x++) {
      guint ref = 0, cnt = 0, src = a[y * sin + x], got = b[y * sout + x];
      Want wt = want (x, y);

      for (dy = -2; dy <= 2; dy++)
        for (dx = -2; dx <= 2; dx++) {
          if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= hgt)
            continue;
          ref += a[(y + dy) * sin + x + dx];
          cnt++;
        }
      ref = (ref + cnt / 2) / cnt;
      if (wt == MUST_FILTER)
        fail_unless (got == ref, "(%d, %d): %u, want the filtered %u",
            x, y, got, ref);
      else if (wt == MUST_KEEP)
        fail_unless (got == src, "(%d, %d): %u, want the input %u",
            x, y, got, src);
      else
        fail_unless (got == src || got == ref, "(%d, %d): %u, neither "
            "the input %u nor the filtered %u", x, y, got, src, ref);
    }
  }
  gst_video_frame_unmap (&fout);
  gst_video_frame_unmap (&fin);
}

#define BOUND_FRAMES 300

/* the union of 300 3x3 regions, one a frame at a place of its own (20 x
 * 15 places of 6 x 6 pixels) */
static Want
want_union (gint x, gint y)
{
  return (x % 6) < 3 && (y % 6) < 3 && (x / 6) < 20
      && (x / 6) + 20 * (y / 6) < BOUND_FRAMES ? MUST_FILTER : EITHER;
}

/* sharp, region-invert: the 17 x 17 squares where a frame's 17 columns
 * (x 6k+1, 3 wide) meet the next frame's 17 rows (y 5k+1, 2 high) */
static Want
want_grid (gint x, gint y)
{
  gboolean in = x % 6 >= 1 && x % 6 < 4 && x / 6 < 17
      && y % 5 >= 1 && y % 5 < 3 && y / 5 < 17;

  return in ? EITHER : MUST_FILTER;
}

/* Past GST_CL_BOX_BLUR_MAX_HELD_RECTS (256) held rectangles the element
 * fails safe. The union of 300 frames of one small region each, held 299
 * frames: every pixel of it is still filtered (the smallest rectangles
 * merged into their bounding box filter more). With region-invert, 17
 * columns then 17 rows held 1 frame: an intersection of 289 squares, of
 * which some are dropped, but no pixel outside them stays sharp; and with
 * a large region in every frame besides, the intersection is exact. */
GST_START_TEST (test_hold_bound)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint t, k;

  set_format (h, &info, "GRAY8", 120, 100);
  g_object_set (h->element, "radius", 2, "method", METHOD_SEPARABLE,
      "roi-meta", TRUE, "roi-hold", BOUND_FRAMES - 1, NULL);
  new_segment (h);
  for (t = 0; t < BOUND_FRAMES; t++) {
    in = make_frame (&info, 0, t);
    gst_buffer_add_video_region_of_interest_meta (in, "face", (t % 20) * 6,
        (t / 20) * 6, 3, 3);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    if (t + 1 == BOUND_FRAMES)
      check_gray (&info, in, out, want_union);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  g_object_set (h->element, "region-invert", TRUE, "roi-hold", 1, NULL);
  new_segment (h);
  for (t = 0; t < 2; t++) {
    in = make_frame (&info, 0, 1000 + t);
    for (k = 0; k < 17; k++) {
      if (t == 0)
        gst_buffer_add_video_region_of_interest_meta (in, "face", 6 * k + 1,
            0, 3, 100);
      else
        gst_buffer_add_video_region_of_interest_meta (in, "face", 0,
            5 * k + 1, 120, 2);
    }
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    if (t == 1)
      check_gray (&info, in, out, want_grid);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* roi-type lists: two types kept, others ignored; white space around the
 * types dropped; the list read back normalised; empty or white space: any
 * type. */
GST_START_TEST (test_type_list)
{
  static const Frame f = {
    {{"face", 3, 3, 10, 10}, {"license-plate", 30, 20, 20, 8},
        {"person", 15, 25, 10, 10}, {"plate", 50, 2, 8, 8}}
  };
  static const struct
  {
    const gchar *set, *get;
    const gchar *types[4];
  } cases[] = {
    {"face,license-plate", "face,license-plate", {"face", "license-plate"}},
    {" face ,\tlicense-plate  ", "face,license-plate",
        {"face", "license-plate"}},
    {"person", "person", {"person"}},
    {"plate,face,person", "plate,face,person", {"plate", "face", "person"}},
    {"car", "car", {"car"}},
    {"", NULL, {NULL}},
    {"  ", NULL, {NULL}},
    {NULL, NULL, {NULL}},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint c;

  base.rx = base.ry = 2;
  set_format (h, &info, "NV12", 61, 41);
  g_object_set (h->element, "roi-meta", TRUE, NULL);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    const Frame *window[1] = { &f };
    const gchar *const *types = cases[c].types[0] ? cases[c].types : NULL;
    Settings s = held (&base, window, 1, types, 0);
    gchar *got = NULL;

    g_object_set (h->element, "roi-type", cases[c].set, NULL);
    g_object_get (h->element, "roi-type", &got, NULL);
    fail_unless_equals_string (got, cases[c].get);
    g_free (got);
    push_frame_and_check (h, &info, &f, c, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Malformed lists are refused with a warning, and the property keeps its
 * value, which the next frame still uses. */
GST_START_TEST (test_type_list_refused)
{
  static const gchar *bad[] = {
    "face,,plate", ",", "face,", ",face", " , ", "face, ,plate",
    "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q",
  };
  static const Frame f = {
    {{"face", 3, 3, 10, 10}, {"plate", 30, 20, 20, 8},
        {"person", 15, 25, 10, 10}}
  };
  static const gchar *kept[] = { "face", "plate", NULL };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint i;

  base.rx = base.ry = 2;
  set_format (h, &info, "I420", 61, 41);
  g_object_set (h->element, "roi-meta", TRUE, "roi-type", "face,plate", NULL);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    const Frame *window[1] = { &f };
    Settings s = held (&base, window, 1, kept, 0);
    gchar *got = NULL;

    ASSERT_WARNING (g_object_set (h->element, "roi-type", bad[i], NULL));
    g_object_get (h->element, "roi-type", &got, NULL);
    fail_unless_equals_string (got, "face,plate");
    g_free (got);
    push_frame_and_check (h, &info, &f, i, &s);
  }
  /* 16 types are taken */
  g_object_set (h->element, "roi-type", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p",
      NULL);
  {
    gchar *got = NULL;

    g_object_get (h->element, "roi-type", &got, NULL);
    fail_unless_equals_string (got, "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p");
    g_free (got);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* roi-fail-closed: the whole frame filtered from a reset until the first
 * meta of a selected type, and again once roi-hold + 1 frames in a row
 * came without one; off, those frames pass unfiltered. With and without
 * region-invert. */
GST_START_TEST (test_fail_closed)
{
  static const Frame seq[] = {
    {{{NULL}}},
    {{{"person", 3, 3, 10, 10}}},       /* not a selected type */
    {{{"face", 5, 4, 10, 8}}},
    {{{NULL}}},
    {{{NULL}}},
    {{{"face", 30, 20, 12, 9}}},
    {{{NULL}}},
    {{{NULL}}},
    {{{NULL}}},
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint closed, inv, hold, t;
  static const gchar *types[] = { "face", NULL };

  base.rx = base.ry = 2;
  base.method = METHOD_SEPARABLE;
  set_format (h, &info, "I420", 61, 41);
  g_object_set (h->element, "roi-meta", TRUE, "roi-type", "face", NULL);
  for (closed = 0; closed < 2; closed++) {
    for (inv = 0; inv < 2; inv++) {
      for (hold = 0; hold <= 2; hold++) {
        base.invert = inv;
        g_object_set (h->element, "roi-fail-closed", (gboolean) closed,
            "region-invert", (gboolean) inv, "roi-hold", hold, NULL);
        new_segment (h);
        for (t = 0; t < G_N_ELEMENTS (seq); t++) {
          const Frame *window[8];
          guint n = window_of (seq, t, hold, 0, window);
          Settings s = held (&base, window, n, types, 0);
          /* a face in this frame or the hold before it (since the reset) */
          gboolean any = FALSE;
          guint k;

          for (k = 0; k < n; k++)
            any |= frame_n_metas (window[k]) > 0
                && strcmp (window[k]->m[0].type, "face") == 0;
          if (closed && !any)
            s.use_rects = FALSE;        /* the whole frame */
          /* the frames this describes, spelled out for hold 1 */
          if (hold == 1 && closed)
            fail_unless_equals_int (!s.use_rects, t <= 1 || t == 4 || t >= 7);
          push_frame_and_check (h, &info, &seq[t], t + 10 * hold, &s);
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The frames held are forgotten on a flush (with the segment after it),
 * a new segment alone and new caps: the next frame without metas passes
 * unfiltered; without a reset it keeps the held region. */
GST_START_TEST (test_hold_reset)
{
  static const Frame face = { {{"face", 5, 4, 20, 15}} };
  static const Frame none = { {{NULL}} };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings base = default_settings;
  GstVideoInfo info;
  guint how;

  base.rx = base.ry = 3;
  g_object_set (h->element, "roi-meta", TRUE, "roi-hold", 3, NULL);
  for (how = 0; how < 3; how++) {
    const Frame *window[2] = { &none, &face };
    Settings kept = held (&base, window, 2, NULL, 0);
    Settings released = held (&base, window, 1, NULL, 0);

    set_format (h, &info, how == 2 ? "RGBA" : "I420", 61, 41);
    window[0] = &face;
    {
      Settings s = held (&base, window, 1, NULL, 0);

      push_frame_and_check (h, &info, &face, 1, &s);
    }
    /* held across a plain frame */
    push_frame_and_check (h, &info, &none, 2, &kept);
    switch (how) {
      case 0:
        fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
        fail_unless (gst_harness_push_event (h,
                gst_event_new_flush_stop (TRUE)));
        new_segment (h);
        break;
      case 1:
        new_segment (h);
        break;
      case 2:
        set_format (h, &info, "RGBA", 53, 37);
        break;
    }
    /* released: nothing held */
    fail_unless_equals_int (released.n_rects, 0);
    push_frame_and_check (h, &info, &none, 3, &released);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Interlaced (interleaved) frames: each field filtered apart, with the
 * held regions of the frames (union, or intersection with region-invert)
 * in its rows: a field row is selected where its frame row is. */
GST_START_TEST (test_hold_interlaced)
{
  static const Frame seq[] = {
    {{{"face", 5, 3, 20, 15}}},
    {{{"face", 12, 8, 15, 11}}},
    {{{NULL}}},
    {{{NULL}}},
  };
  static const gchar *formats[] = { "GRAY8", "I420" };
  Settings base = default_settings;
  guint f, inv, t, fld, r;

  base.rx = 2;
  base.ry = 1;
  base.method = METHOD_SEPARABLE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (inv = 0; inv < 2; inv++) {
      GstHarness *h = blurcheck_harness_new ("clboxblur");
      GstVideoInfo info, finfo;

      gst_video_info_set_interlaced_format (&info,
          gst_video_format_from_string (formats[f]),
          GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 38, 28);
      gst_video_info_set_format (&finfo, GST_VIDEO_INFO_FORMAT (&info),
          38, 14);
      gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
      g_object_set (h->element, "roi-meta", TRUE, "roi-hold", 1,
          "region-invert", (gboolean) inv, NULL);
      base.invert = inv;
      for (t = 0; t < G_N_ELEMENTS (seq); t++) {
        const Frame *window[2];
        guint n = window_of (seq, t, 1, 0, window);
        Settings s = held (&base, window, n, NULL, 0);
        GstBuffer *in = make_frame (&info, 0, t + 3 * inv), *out;
        guint i;

        for (i = 0; i < frame_n_metas (&seq[t]); i++)
          gst_buffer_add_video_region_of_interest_meta (in, seq[t].m[i].type,
              seq[t].m[i].x, seq[t].m[i].y, seq[t].m[i].w, seq[t].m[i].h);
        apply_settings (h, &s);
        fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
            GST_FLOW_OK);
        out = gst_harness_pull (h);
        fail_unless (out != NULL);
        for (fld = 0; fld < 2; fld++) {
          GstBuffer *fin = blurcheck_field_of (&info, &finfo, in, fld);
          GstBuffer *fout = blurcheck_field_of (&info, &finfo, out, fld);
          Settings fs = s;

          for (r = 0; r < fs.n_rects; r++) {
            gint top = blurcheck_field_row (s.rects[r][1], fld);

            fs.rects[r][1] = top;
            fs.rects[r][3] = MAX (blurcheck_field_row (s.rects[r][1]
                    + s.rects[r][3], fld) - top, 0);
          }
          check_frame (&finfo, fin, fout, &fs);
          gst_buffer_unref (fin);
          gst_buffer_unref (fout);
        }
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
      blurcheck_harness_teardown (h);
    }
  }
}

GST_END_TEST;

static Suite *
clboxblur_hold_suite (void)
{
  Suite *s = suite_create ("clboxblur_hold");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_hold_release);
  tcase_add_test (tc, test_hold_invert);
  tcase_add_test (tc, test_hold_bound);
  tcase_add_test (tc, test_type_list);
  tcase_add_test (tc, test_type_list_refused);
  tcase_add_test (tc, test_fail_closed);
  tcase_add_test (tc, test_hold_reset);
  tcase_add_test (tc, test_hold_interlaced);
  return s;
}

BLURCHECK_MAIN (clboxblur_hold);
