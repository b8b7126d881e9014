/* GStreamer unit tests for clboxblur: a region's strength follows its size
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * roi-strength k: each region filtered with every radius raised to at
 * least k x its smaller side (rounded up to 1, 2, 3, 4, 6, 8, 12, ...).
 * Every frame is compared with the plain-C reference
 * (tests/check/blurcheck.c, Settings.strength): each sample inside a
 * region takes the whole frame filtered at the largest strength of the
 * regions it is in, every other sample its input. Regions of different
 * sizes in one frame, overlapping, at the frame's edges under each
 * border, held (roi-hold), the region-* rectangle, a subsampled and a
 * packed format, three methods and sigma; strength 0 is today's output;
 * region-invert ignores it with a warning.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"
#include "clblur/engine.h"

typedef struct
{
  gint x, y, w, h;
} Box;

/* @s with the rects @boxes (ROI metas of one frame). */
static Settings
with_boxes (const Settings * base, const Box * boxes, guint n)
{
  Settings s = *base;
  guint i;

  fail_unless (n <= MAX_RECTS);
  s.use_rects = TRUE;
  s.n_rects = n;
  s.n_frames = 1;
  for (i = 0; i < n; i++) {
    s.rects[i][0] = boxes[i].x;
    s.rects[i][1] = boxes[i].y;
    s.rects[i][2] = boxes[i].w;
    s.rects[i][3] = boxes[i].h;
    s.rect_frame[i] = 0;
  }
  return s;
}

/* Pushes a random frame carrying @boxes as "face" metas through @h (set
 * up with roi-meta) and checks it under @s. */
static void
push_boxes_and_check (GstHarness * h, const GstVideoInfo * info,
    const Box * boxes, guint n, guint32 seed, const Settings * s)
{
  GstBuffer *in = make_frame (info, 0, seed);
  guint i;

  for (i = 0; i < n; i++)
    gst_buffer_add_video_region_of_interest_meta (in, "face", boxes[i].x,
        boxes[i].y, boxes[i].w, boxes[i].h);
  push_buffer_and_check (h, info, in, s);
}

static GstHarness *
strength_harness (const Settings * s)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");

  apply_settings (h, s);
  g_object_set (h->element, "roi-meta", TRUE, NULL);
  return h;
}

/* The reference's rounding, as documented: ceil (k side), up to the next
 * step. */
GST_START_TEST (test_strength_radius)
{
  fail_unless_equals_int (strength_radius (0.0, 100, 100), 0);
  fail_unless_equals_int (strength_radius (0.5, 0, 100), 0);
  fail_unless_equals_int (strength_radius (0.25, 8, 40), 2);
  fail_unless_equals_int (strength_radius (0.25, 40, 9), 3);   /* 2.25 */
  fail_unless_equals_int (strength_radius (0.1, 30, 30), 3);   /* 3.0 */
  fail_unless_equals_int (strength_radius (0.25, 20, 20), 6);  /* 5 */
  fail_unless_equals_int (strength_radius (0.25, 28, 30), 8);  /* 7 */
  fail_unless_equals_int (strength_radius (0.5, 50, 60), 32);  /* 25 */
  fail_unless_equals_int (strength_radius (2.0, 5000, 5000), 2047);
}

GST_END_TEST;

/* The engine's rounding (what the element passes) is the reference's. */
GST_START_TEST (test_strength_radius_engine)
{
  static const gdouble ks[] = { 0.01, 0.1, 0.125, 0.2, 0.25, 0.3, 1.0 / 3,
    0.5, 0.7, 1.0, 1.5, 2.0
  };
  guint i;
  gint side;

  for (i = 0; i < G_N_ELEMENTS (ks); i++)
    for (side = 0; side <= 3000; side++)
      fail_unless_equals_int (clb_strength_radius (ks[i], side, side + 1),
          strength_radius (ks[i], side + 1, side));
}

GST_END_TEST;

/* Two regions of different sizes in one frame, each at its own radius
 * (2 and 8 with radius 1): RGBA, I420 (4:2:0, odd size), YUY2 (packed),
 * NV12; sat and separable, one and two passes. */
GST_START_TEST (test_strength_sizes)
{
  static const gchar *formats[] = { "RGBA", "I420", "YUY2", "NV12" };
  static const Box boxes[] = { {6, 5, 8, 9}, {30, 14, 32, 28} };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint f, m, passes;

  base.rx = base.ry = 1;
  base.strength = 0.25;
  h = strength_harness (&base);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 75, 53);
    for (m = METHOD_SAT; m <= METHOD_SEPARABLE; m++) {
      for (passes = 1; passes <= 2; passes++) {
        Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

        s.method = m;
        s.passes = passes;
        apply_settings (h, &s);
        push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes),
            f * 10 + m * 2 + passes, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Kept channels and radii of their own: RGBx (the x kept), AYUV with
 * preserve-alpha, I420 with chroma-radius 2 (chroma keeps its own radius,
 * luma follows the size), A420 with alpha-radius 1, 16-bit RGBA64. */
GST_START_TEST (test_strength_own_radius)
{
  static const Box boxes[] = { {4, 3, 9, 10}, {22, 12, 24, 22} };
  static const struct
  {
    const gchar *format;
    gboolean preserve_alpha;
    gint chroma_radius, alpha_radius;
  } cases[] = {
    {"RGBx", FALSE, -1, -1},
    {"AYUV", TRUE, -1, -1},
    {"I420", FALSE, 2, -1},
    {"A420", FALSE, -1, 1},
    {"RGBA64_LE", FALSE, -1, -1},
  };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint c;

  base.rx = base.ry = 1;
  base.strength = 0.25;
  base.method = METHOD_SEPARABLE;
  h = strength_harness (&base);
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

    s.preserve_alpha = cases[c].preserve_alpha;
    s.chroma_radius = cases[c].chroma_radius;
    s.alpha_radius = cases[c].alpha_radius;
    s.method = c % 2 ? METHOD_SAT : METHOD_SEPARABLE;
    set_format (h, &info, cases[c].format, 51, 39);
    apply_settings (h, &s);
    push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes), c, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Overlapping regions of different strengths (the overlap takes the
 * larger), a region inside another, and a radius larger than the
 * strengths for one of them (its own group then). */
GST_START_TEST (test_strength_overlap)
{
  static const Box boxes[] = {
    {10, 8, 30, 26}, {28, 20, 12, 10}, {35, 30, 6, 6}, {0, 40, 4, 4},
    {50, 2, 16, 40},
  };
  static const gchar *formats[] = { "RGBA", "I420" };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint f, r;

  base.strength = 0.3;
  base.method = METHOD_SEPARABLE;
  h = strength_harness (&base);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 70, 48);
    for (r = 1; r <= 4; r += 3) {
      Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

      s.rx = s.ry = r;
      apply_settings (h, &s);
      push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes), f + r, &s);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* mosaic: each region's block follows its size (the strength radius made
 * even), blocks on the frame's grid, boxes cut at the frame's edges; fill
 * has nothing to raise: it gives what it gives without the strength (the
 * reference ignores the strength for it). Sizes that give blocks of 2 (a
 * strength of 1), 4 (3), 6 and 12, regions against the right and bottom
 * edges and overlapping ones, formats subsampled and packed. */
GST_START_TEST (test_strength_mosaic_fill)
{
  static const Box boxes[] = {
    {10, 8, 30, 26}, {50, 2, 19, 40}, {3, 37, 12, 10}, {20, 30, 7, 5},
    {60, 40, 20, 20},
  };
  static const gchar *formats[] = { "I420", "RGBA", "YUY2", "NV12" };
  static const Method methods[] = { METHOD_MOSAIC, METHOD_FILL };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint f, m, b;

  base.strength = 0.25;
  h = strength_harness (&base);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 71, 49);
    for (m = 0; m < G_N_ELEMENTS (methods); m++) {
      for (b = 2; b <= 8; b += 6) {
        Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

        s.method = methods[m];
        s.block_size = b;
        s.fill_color = 0xff20c040u;
        apply_settings (h, &s);
        push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes),
            f * 10 + m * 2 + b, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Regions at each edge and corner of the frame (and past the right and
 * bottom ones: a meta's x and y are unsigned), under each
 * border: the box of a region that touches the frame's edge filters with
 * the frame's border there. Strengths large against the frame (windows
 * wider than the frame), several passes and sigma. */
GST_START_TEST (test_strength_edges)
{
  static const Box boxes[] = {
    {0, 0, 14, 12}, {44, 0, 9, 7}, {0, 30, 6, 11}, {40, 33, 30, 30},
    {20, 15, 3, 3},
  };
  static const gchar *formats[] = { "GRAY8", "I420", "UYVY", "RGB" };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint f, b, variant;

  base.rx = base.ry = 1;
  base.strength = 0.7;
  h = strength_harness (&base);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 53, 41);
    for (b = 0; b < 3; b++) {
      for (variant = 0; variant < 4; variant++) {
        Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

        s.border = borders[b];
        s.method = variant == 1 ? METHOD_SEPARABLE : METHOD_SAT;
        if (variant == 2)
          s.passes = 3;
        if (variant == 3) {
          s.method = METHOD_SEPARABLE;
          s.sigma = 1.5;
          s.strength = 2.0;     /* windows beyond the frame */
        }
        apply_settings (h, &s);
        push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes),
            f * 31 + b * 7 + variant, &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Bilateral: the strength raises its window up to 3 sigma-spatial (here
 * sigma-spatial 0, no bound but 63), at the edges under each border. */
GST_START_TEST (test_strength_bilateral)
{
  static const Box boxes[] = { {0, 0, 7, 9}, {20, 12, 16, 15}, {33, 20, 9, 9} };
  static const gchar *formats[] = { "RGBA", "NV12" };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint f, b;

  base.method = METHOD_BILATERAL;
  base.rx = base.ry = 1;
  base.sigma_spatial = 0.0;
  base.strength = 0.25;
  h = strength_harness (&base);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 42, 32);
    for (b = 0; b < 3; b++) {
      Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));

      s.border = borders[b];
      apply_settings (h, &s);
      push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes), f + b, &s);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Held regions (roi-hold=2) keep the radius of their own rectangle: a
 * large face that leaves is held at its strength beside a small one. */
GST_START_TEST (test_strength_hold)
{
  static const Box frames[4][2] = {
    {{4, 4, 30, 30}, {50, 30, 6, 6}},
    {{50, 30, 6, 6}, {0, 0, 0, 0}},
    {{52, 31, 6, 6}, {0, 0, 0, 0}},
    {{0, 0, 0, 0}, {0, 0, 0, 0}},
  };
  static const guint n_boxes[4] = { 2, 1, 1, 0 };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  GstSegment segment;
  guint t;

  base.rx = base.ry = 2;
  base.strength = 0.5;
  base.method = METHOD_SEPARABLE;
  h = strength_harness (&base);
  g_object_set (h->element, "roi-hold", 2, NULL);
  set_format (h, &info, "I420", 64, 48);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  for (t = 0; t < 4; t++) {
    Settings s = base;
    gint k;

    /* frames t, t - 1, t - 2, newest first */
    s.use_rects = TRUE;
    s.n_rects = 0;
    s.n_frames = MIN (t + 1, 3);
    for (k = t; k >= 0 && k >= (gint) t - 2; k--) {
      guint i;

      for (i = 0; i < n_boxes[k]; i++) {
        s.rects[s.n_rects][0] = frames[k][i].x;
        s.rects[s.n_rects][1] = frames[k][i].y;
        s.rects[s.n_rects][2] = frames[k][i].w;
        s.rects[s.n_rects][3] = frames[k][i].h;
        s.rect_frame[s.n_rects] = t - k;
        s.n_rects++;
      }
    }
    push_boxes_and_check (h, &info, frames[t], n_boxes[t], t, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The region-* rectangle follows its size too (clipped to the frame: a
 * width of 0 reaching the right edge); radius 0 filters the region at its
 * strength alone. */
GST_START_TEST (test_strength_region_property)
{
  Settings s = default_settings;
  GstVideoInfo info;
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  guint r;

  for (r = 0; r <= 3; r += 3) {
    s.rx = s.ry = r;
    s.strength = 0.2;
    s.use_rects = TRUE;
    s.n_rects = 1;
    s.rects[0][0] = 20;
    s.rects[0][1] = 10;
    s.rects[0][2] = 64 - 20;    /* region-width 0: to the right edge */
    s.rects[0][3] = 25;
    apply_settings (h, &s);
    g_object_set (h->element, "region-x", 20, "region-y", 10,
        "region-width", 0, "region-height", 25, NULL);
    set_format (h, &info, "NV12", 64, 40);
    push_settings_and_check (h, &info, 0, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Many regions of many sizes (several strength groups) on a larger frame:
 * each at its own radius. */
GST_START_TEST (test_strength_many)
{
  Box boxes[MAX_RECTS];
  Settings base = default_settings, s;
  GstVideoInfo info;
  GstHarness *h;
  GRand *rand = g_rand_new_with_seed (25);
  guint i, m;

  base.rx = base.ry = 1;
  base.strength = 0.2;
  for (i = 0; i < MAX_RECTS; i++) {
    boxes[i].w = g_rand_int_range (rand, 2, 60);
    boxes[i].h = g_rand_int_range (rand, 2, 60);
    boxes[i].x = g_rand_int_range (rand, 0, 160);
    boxes[i].y = g_rand_int_range (rand, 0, 110);
  }
  g_rand_free (rand);
  h = strength_harness (&base);
  set_format (h, &info, "NV12", 161, 113);
  for (m = METHOD_SAT; m <= METHOD_SEPARABLE; m++) {
    s = with_boxes (&base, boxes, MAX_RECTS);
    s.method = m;
    s.border = m == METHOD_SAT ? REF_BORDER_REFLECT : REF_BORDER_REPLICATE;
    apply_settings (h, &s);
    push_boxes_and_check (h, &info, boxes, MAX_RECTS, m, &s);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Regions of one size apart from each other (one strength: filtered in
 * a box each, up to 8, else in their bounding box), on a grid, some
 * touching the frame's edges: 3, 8, 9 and 16 of them, under each
 * border. */
GST_START_TEST (test_strength_same_size)
{
  static const guint counts[] = { 3, 8, 9, 16 };
  Settings base = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  guint c, b;

  base.rx = base.ry = 1;
  base.strength = 0.3;
  base.method = METHOD_SEPARABLE;
  h = strength_harness (&base);
  set_format (h, &info, "I420", 123, 97);
  for (c = 0; c < G_N_ELEMENTS (counts); c++) {
    for (b = 0; b < 3; b++) {
      Box boxes[MAX_RECTS];
      Settings s;
      guint i;

      for (i = 0; i < counts[c]; i++) {
        boxes[i].x = (i % 4) * 37;
        boxes[i].y = (i / 4) * 29;
        boxes[i].w = 11;
        boxes[i].h = 13;
      }
      s = with_boxes (&base, boxes, counts[c]);
      s.border = borders[b];
      s.method = b == 1 ? METHOD_SAT : METHOD_SEPARABLE;
      apply_settings (h, &s);
      push_boxes_and_check (h, &info, boxes, counts[c], c * 3 + b, &s);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Interlaced frames: each field filtered apart, each region at the
 * strength of its rectangle in the frame (not of its half-height rows in
 * a field). */
GST_START_TEST (test_strength_interlaced)
{
  static const Box boxes[] = { {2, 1, 9, 14}, {16, 6, 20, 20} };
  static const gchar *formats[] = { "GRAY8", "I420" };
  Settings base = default_settings;
  guint f, fld, r;

  base.rx = base.ry = 1;
  base.strength = 0.25;
  base.method = METHOD_SEPARABLE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = strength_harness (&base);
    GstVideoInfo info, finfo;
    Settings s = with_boxes (&base, boxes, G_N_ELEMENTS (boxes));
    GstBuffer *in, *out;

    gst_video_info_set_interlaced_format (&info,
        gst_video_format_from_string (formats[f]),
        GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 38, 28);
    gst_video_info_set_format (&finfo, GST_VIDEO_INFO_FORMAT (&info), 38, 14);
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    in = make_frame (&info, 0, f);
    for (r = 0; r < G_N_ELEMENTS (boxes); r++)
      gst_buffer_add_video_region_of_interest_meta (in, "face", boxes[r].x,
          boxes[r].y, boxes[r].w, boxes[r].h);
    apply_settings (h, &s);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    for (fld = 0; fld < 2; fld++) {
      GstBuffer *fin = blurcheck_field_of (&info, &finfo, in, fld);
      GstBuffer *fout = blurcheck_field_of (&info, &finfo, out, fld);
      Settings fs = s;

      fs.rect_strength_given = TRUE;
      for (r = 0; r < fs.n_rects; r++) {
        gint top = blurcheck_field_row (s.rects[r][1], fld);

        fs.rect_strength[r] = strength_radius (s.strength,
            MIN (s.rects[r][2], 38 - s.rects[r][0]),
            MIN (s.rects[r][3], 28 - s.rects[r][1]));
        fs.rects[r][1] = top;
        fs.rects[r][3] = MAX (blurcheck_field_row (s.rects[r][1]
                + s.rects[r][3], fld) - top, 0);
      }
      /* the frame's strengths differ from the fields' halved rects' */
      fail_unless (fs.rect_strength[1] == 6);
      check_frame (&finfo, fin, fout, &fs);
      gst_buffer_unref (fin);
      gst_buffer_unref (fout);
    }
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    blurcheck_harness_teardown (h);
  }
}

GST_END_TEST;

static GstBuffer *
pull_one (GstHarness * h, GstBuffer * in, const Box * boxes, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    gst_buffer_add_video_region_of_interest_meta (in, "face", boxes[i].x,
        boxes[i].y, boxes[i].w, boxes[i].h);
  return gst_harness_push_and_pull (h, in);
}

/* roi-strength 0 (the default, or set back to 0) gives exactly the output
 * of an element that never had it set, and that of the reference without
 * strength. */
GST_START_TEST (test_strength_zero)
{
  static const Box boxes[] = { {3, 3, 20, 20}, {30, 10, 12, 30} };
  static const gchar *formats[] = { "RGBA", "I420", "YUY2" };
  Settings s = default_settings;
  GstVideoInfo info;
  GstHarness *plain = strength_harness (&s);
  GstHarness *h = strength_harness (&s);
  guint f;

  s = with_boxes (&s, boxes, G_N_ELEMENTS (boxes));
  g_object_set (h->element, "roi-strength", 0.5, NULL);
  g_object_set (h->element, "roi-strength", 0.0, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBuffer *in, *a, *b;
    GstMapInfo ma, mb;

    set_format (plain, &info, formats[f], 50, 44);
    set_format (h, &info, formats[f], 50, 44);
    in = make_frame (&info, 0, f);
    a = pull_one (plain, gst_buffer_copy (in), boxes, G_N_ELEMENTS (boxes));
    b = pull_one (h, gst_buffer_copy (in), boxes, G_N_ELEMENTS (boxes));
    check_frame (&info, in, b, &s);
    fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
    fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
    fail_unless_equals_int (ma.size, mb.size);
    fail_unless (memcmp (ma.data, mb.data, ma.size) == 0);
    gst_buffer_unmap (a, &ma);
    gst_buffer_unmap (b, &mb);
    gst_buffer_unref (a);
    gst_buffer_unref (b);
    gst_buffer_unref (in);
  }
  blurcheck_harness_teardown (h);
  blurcheck_harness_teardown (plain);
}

GST_END_TEST;

/* With region-invert the regions are what stays sharp: roi-strength is
 * ignored (the output is that without it) and a warning says so, once. */
GST_START_TEST (test_strength_invert)
{
  static const Box boxes[] = { {3, 3, 20, 20}, {30, 10, 12, 30} };
  Settings s = default_settings;
  GstVideoInfo info;
  GstHarness *h = strength_harness (&s);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  guint t, warnings = 0;

  gst_element_set_bus (h->element, bus);
  s = with_boxes (&s, boxes, G_N_ELEMENTS (boxes));
  s.invert = TRUE;
  s.strength = 0.5;             /* the reference ignores it with invert */
  g_object_set (h->element, "region-invert", TRUE, NULL);
  set_format (h, &info, "I420", 50, 44);
  for (t = 0; t < 3; t++)
    push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes), t, &s);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;

    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "roi-strength") != NULL,
        "unexpected warning: %s", err->message);
    warnings++;
    g_error_free (err);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (warnings, 1);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A failure of the copy into a box's plane (fault injection) is an
 * element error naming the call, not a wrong frame; the element works
 * again once the fault is gone. */
GST_START_TEST (test_strength_fault)
{
  static const Box boxes[] = { {3, 3, 20, 20}, {30, 10, 12, 30} };
  Settings s = default_settings;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  GstBuffer *in;
  guint i;

  s.strength = 0.5;
  h = strength_harness (&s);
  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "I420", 50, 44);
  s = with_boxes (&s, boxes, G_N_ELEMENTS (boxes));
  g_setenv ("CLBOXBLUR_FAULT", "clEnqueueCopyBufferRect (region box)", TRUE);
  in = make_frame (&info, 0, 1);
  for (i = 0; i < G_N_ELEMENTS (boxes); i++)
    gst_buffer_add_video_region_of_interest_meta (in, "face", boxes[i].x,
        boxes[i].y, boxes[i].w, boxes[i].h);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  g_unsetenv ("CLBOXBLUR_FAULT");
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (strstr (debug, "clEnqueueCopyBufferRect (region box)") != NULL,
      "debug text '%s' does not name the call", debug);
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);

  /* a new stream: the element filters again */
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
  h = strength_harness (&s);
  set_format (h, &info, "I420", 50, 44);
  push_boxes_and_check (h, &info, boxes, G_N_ELEMENTS (boxes), 2, &s);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_strength_suite (void)
{
  Suite *s = suite_create ("clboxblur_strength");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_strength_radius);
  tcase_add_test (tc, test_strength_radius_engine);
  tcase_add_test (tc, test_strength_sizes);
  tcase_add_test (tc, test_strength_overlap);
  tcase_add_test (tc, test_strength_mosaic_fill);
  tcase_add_test (tc, test_strength_own_radius);
  tcase_add_test (tc, test_strength_edges);
  tcase_add_test (tc, test_strength_bilateral);
  tcase_add_test (tc, test_strength_hold);
  tcase_add_test (tc, test_strength_region_property);
  tcase_add_test (tc, test_strength_many);
  tcase_add_test (tc, test_strength_same_size);
  tcase_add_test (tc, test_strength_interlaced);
  tcase_add_test (tc, test_strength_zero);
  tcase_add_test (tc, test_strength_invert);
  tcase_add_test (tc, test_strength_fault);
  return s;
}

BLURCHECK_MAIN (clboxblur_strength);
