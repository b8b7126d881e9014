/* GStreamer unit tests for clboxblur: alpha as the foreground mask
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * alpha-mask and mask-feather against the plain-C reference
 * (ref_mask_blur): every format with alpha, odd sizes, padded strides,
 * borders, feather on and off, inside regions, the box methods and
 * bilateral; the halo test; the warnings (a format without alpha, passes
 * with the mask); the property changed while playing. Run with
 * `--setup gpu_class` for the GPU class's work shapes.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "blurcheck.h"

static const gchar *alpha_formats[] = { "RGBA", "BGRA", "ARGB", "ABGR",
  "AYUV", "A420", "RGBA64_LE"
};

/* What a masked frame went through, beside Settings' rectangles. */
typedef struct
{
  Method method;
  RefBorder border;
  guint rx, ry;
  guint feather;
  gboolean mask;                /* FALSE: the plain blur expected */
  gdouble sigma_spatial, sigma_range;
} MaskCase;

static guint
scaled (guint r, guint sub)
{
  guint s;

  if (r == 0 || sub == 0)
    return r;
  s = (r + (1u << (sub - 1))) >> sub;
  return MAX (s, 1);
}

static guint
max_value (const GstVideoInfo * info)
{
  return (1u << GST_VIDEO_INFO_COMP_DEPTH (info, 0)) - 1;
}

static guint8 *
alpha_ptr (GstVideoFrame * f, gint x, gint y)
{
  return (guint8 *) GST_VIDEO_FRAME_COMP_DATA (f, GST_VIDEO_COMP_A)
      + (gsize) y * GST_VIDEO_FRAME_COMP_STRIDE (f, GST_VIDEO_COMP_A)
      + (gsize) x * GST_VIDEO_FRAME_COMP_PSTRIDE (f, GST_VIDEO_COMP_A);
}

/* The full-resolution alpha of @f. */
static guint16 *
extract_alpha (GstVideoFrame * f)
{
  gint w = GST_VIDEO_FRAME_WIDTH (f), h = GST_VIDEO_FRAME_HEIGHT (f), x, y;
  guint16 *a = g_new (guint16, (gsize) w * h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      a[(gsize) y * w + x] = read_sample (&f->info, alpha_ptr (f, x, y));
  return a;
}

/* Alpha of blocks: 7x5 blocks of foreground (max), of background (0) and
 * of random alphas, so that windows see all of one, all of another, and
 * mixtures. */
static void
fill_alpha (GstBuffer * buf, const GstVideoInfo * info, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint max = max_value (info);
  GstVideoFrame f;
  gint x, y;

  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++) {
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++) {
      guint kind = (x / 7 + y / 5 + seed) % 3;
      guint a = kind == 0 ? max : kind == 1 ? 0 :
          (guint) g_rand_int_range (rand, 0, max + 1);

      write_sample (info, alpha_ptr (&f, x, y), a);
    }
  }
  gst_video_frame_unmap (&f);
  g_rand_free (rand);
}

/* Checks @out against the reference for @in under @m (and @s's
 * rectangles): every colour sample, exact for the box (within
 * BILATERAL_TOLERANCE for bilateral), alpha unchanged. */
static void
check_mask_frame (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const MaskCase * m, const Settings * s)
{
  GstVideoFrame fin, fout;
  Group groups[GST_VIDEO_MAX_COMPONENTS];
  guint amax = max_value (info), n, g;
  gint fw = GST_VIDEO_INFO_WIDTH (info), fh = GST_VIDEO_INFO_HEIGHT (info);
  guint16 *alpha, *alpha_out;
  gint tolerance = m->method == METHOD_BILATERAL ? BILATERAL_TOLERANCE : 0;
  gsize i;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  alpha = extract_alpha (&fin);
  alpha_out = extract_alpha (&fout);
  for (i = 0; i < (gsize) fw * fh; i++)
    fail_unless (alpha[i] == alpha_out[i], "%s %dx%d: alpha of pixel %"
        G_GSIZE_FORMAT " %u, was %u", GST_VIDEO_INFO_NAME (info), fw, fh, i,
        alpha_out[i], alpha[i]);

  n = make_groups (info, TRUE, groups);
  for (g = 0; g < n; g++) {
    const Group *gr = &groups[g];
    gsize np = (gsize) gr->width * gr->height, ns = np * gr->channels;
    guint16 *src = extract (&fin, gr), *ref = g_new (guint16, ns);
    guint16 *ja = g_new (guint16, np), *blend = g_new (guint16, np);
    guint16 *filtered = NULL;
    gint rx = scaled (m->rx, gr->x_sub), ry = scaled (m->ry, gr->y_sub);
    gint x, y, c;

    if (gr->x_sub || gr->y_sub)
      ref_alpha_subsample (alpha, fw, fh, gr->x_sub, gr->y_sub, ja);
    else
      memcpy (ja, alpha, np * sizeof (guint16));
    if (m->feather > 0)
      fail_unless (ref_box_blur (ja, blend, gr->width, gr->height, 1,
              scaled (m->feather, gr->x_sub), scaled (m->feather,
                  gr->y_sub), m->border, 1) == 0);
    else
      memcpy (blend, ja, np * sizeof (guint16));
    if (m->method == METHOD_BILATERAL) {
      filtered = g_new (guint16, ns);
      fail_unless (ref_bilateral (src, filtered, gr->width, gr->height,
              gr->channels, bilateral_radius (rx, m->sigma_spatial),
              bilateral_radius (ry, m->sigma_spatial), m->border,
              m->sigma_spatial, m->sigma_range, gr->dist_mask, amax) == 0);
      if (!m->mask)
        memcpy (ref, filtered, ns * sizeof (guint16));
    } else if (!m->mask) {
      fail_unless (ref_box_blur (src, ref, gr->width, gr->height,
              gr->channels, rx, ry, m->border, 1) == 0);
    }
    if (m->mask)
      fail_unless (ref_mask_blur (src, ja, blend, filtered, ref, gr->width,
              gr->height, gr->channels, rx, ry, m->border, amax) == 0);

    for (y = 0; y < gr->height; y++) {
      for (x = 0; x < gr->width; x++) {
        for (c = 0; c < gr->channels; c++) {
          gsize k = ((gsize) y * gr->width + x) * gr->channels + c;
          gint want = selected (s, info, x, y, gr->x_sub, gr->y_sub) ?
              ref[k] : src[k];
          gint got = read_sample (info, sample_ptr (&fout, gr, x, y, c));

          fail_unless (ABS (got - want) <= tolerance, "%s %dx%d, %s, border "
              "%d, radius %u,%u, feather %u, mask %d: component %u at "
              "(%d,%d) of plane %u is %d, expected %d (input %d, alpha %u)",
              GST_VIDEO_INFO_NAME (info), fw, fh, method_nicks[m->method],
              m->border, m->rx, m->ry, m->feather, m->mask, gr->comp[c], x,
              y, gr->plane, got, want, src[k], ja[(gsize) y * gr->width + x]);
        }
      }
    }
    g_free (src);
    g_free (ref);
    g_free (ja);
    g_free (blend);
    g_free (filtered);
  }
  g_free (alpha);
  g_free (alpha_out);
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
}

static void
apply_mask_case (GstHarness * h, const MaskCase * m)
{
  g_object_set (h->element, "radius", m->rx, "radius-y", (gint) m->ry,
      "border", m->border, "alpha-mask", m->mask, "mask-feather", m->feather,
      "sigma-spatial", m->sigma_spatial, "sigma-range", m->sigma_range,
      "preserve-alpha", !m->mask, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "method",
      method_nicks[m->method]);
}

/* (Without the mask, alpha is kept by preserve-alpha, so that the check
 * is the same: colours against the reference, alpha unchanged.) */

/* Pushes a random frame (rows padded by @pad bytes) with block alphas
 * through @h under @m and checks it. */
static void
push_mask_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    const MaskCase * m, const Settings * s, guint32 seed)
{
  GstBuffer *in = make_frame (info, pad, seed), *out;

  fill_alpha (in, info, seed);
  apply_mask_case (h, m);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  check_mask_frame (info, in, out, m, s);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* Every format with alpha, odd and tiny sizes, padded rows, every border,
 * feather off and on, both box methods. */
GST_START_TEST (test_mask_formats)
{
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {17, 9}, {45, 31} };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_SHRINK, 3, 2, 0, TRUE, 3, 30 };
  GstVideoInfo info;
  guint f, z, b, feather, seed = 1;

  for (f = 0; f < G_N_ELEMENTS (alpha_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, alpha_formats[f], sizes[z][0], sizes[z][1]);
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        for (feather = 0; feather <= 2; feather += 2) {
          m.border = borders[b];
          m.feather = feather;
          m.method = (b + feather) % 2 ? METHOD_SAT : METHOD_SEPARABLE;
          push_mask_and_check (h, &info, (seed % 2) * 7, &m, &s, seed);
          seed++;
        }
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The copy path (frames copied to the device and filtered in place:
 * on CPUs mask_x16 from a device-side copy of the frame), and radii past
 * what mask_x16's 32-bit sums take (the general kernels then). */
GST_START_TEST (test_mask_copy_path)
{
  static const gchar *formats[] = { "RGBA", "ABGR", "AYUV" };
  static const guint radii[] = { 2, 9, 200 };
  GstHarness *h;
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_SHRINK, 0, 0, 0, TRUE, 3, 30 };
  GstVideoInfo info;
  guint f, r, b;

  g_setenv (CLB_ZERO_COPY_ENV, "0", TRUE);
  h = blurcheck_harness_new ("clboxblur");
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 47, 33);
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        m.rx = radii[r];
        m.ry = radii[r] / 2;
        m.border = borders[b];
        push_mask_and_check (h, &info, 0, &m, &s, 700 + f * 16 + r * 3 + b);
      }
    }
  }
  blurcheck_harness_teardown (h);
  g_unsetenv (CLB_ZERO_COPY_ENV);
}

GST_END_TEST;

/* Radii from 0 to beyond the frame, x and y apart, feather larger than
 * the radius. */
GST_START_TEST (test_mask_radii)
{
  static const guint radii[][3] = { {0, 0, 0}, {1, 0, 0}, {0, 4, 1},
  {8, 8, 12}, {40, 3, 3}
  };
  static const gchar *formats[] = { "RGBA", "A420", "RGBA64_LE" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_REFLECT, 0, 0, 0, TRUE, 3, 30 };
  GstVideoInfo info;
  guint f, r;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 37, 29);
    for (r = 0; r < G_N_ELEMENTS (radii); r++) {
      m.rx = radii[r][0];
      m.ry = radii[r][1];
      m.feather = radii[r][2];
      m.border = borders[r % 3];
      push_mask_and_check (h, &info, 0, &m, &s, 100 + r);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Inside the region-* rectangle (plain and inverted): the masked output
 * inside, the input outside, through the region composite. */
GST_START_TEST (test_mask_in_region)
{
  static const gchar *formats[] = { "RGBA", "A420", "AYUV" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_REPLICATE, 3, 3, 0, TRUE, 3,
    30
  };
  GstVideoInfo info;
  guint f, inv, meth;

  s.use_rects = TRUE;
  s.n_rects = 1;
  s.rects[0][0] = 9;
  s.rects[0][1] = 5;
  s.rects[0][2] = 20;
  s.rects[0][3] = 13;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 41, 27);
    for (inv = 0; inv < 2; inv++) {
      for (meth = 0; meth < 3; meth++) {
        s.invert = inv;
        m.method = meth;
        m.feather = inv ? 2 : 0;
        g_object_set (h->element, "region-x", 9, "region-y", 5,
            "region-width", 20, "region-height", 13, "region-invert",
            (gboolean) inv, NULL);
        push_mask_and_check (h, &info, 0, &m, &s, 200 + f * 8 + inv * 3
            + meth);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Bilateral with the mask: the mask only blends bilateral's output. */
GST_START_TEST (test_mask_bilateral)
{
  static const gchar *formats[] = { "RGBA", "AYUV", "A420", "RGBA64_LE" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  MaskCase m = { METHOD_BILATERAL, REF_BORDER_SHRINK, 3, 3, 0, TRUE, 2, 40 };
  GstVideoInfo info;
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 29, 19);
    m.feather = f % 2 ? 0 : 2;
    m.border = borders[f % 3];
    push_mask_and_check (h, &info, 5, &m, &s, 300 + f);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* The bright disc (alpha max) on a flat dark background (alpha 0): with
 * the mask the background comes out exactly as it was, however near the
 * disc; without it the disc's colour bleeds into the background around
 * it (the halo). */
GST_START_TEST (test_halo)
{
  static const guint8 bg[4] = { 20, 30, 40 }, fg[4] = { 250, 240, 230 };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  guint mask;

  set_format (h, &info, "RGBA", 64, 48);
  for (mask = 0; mask < 2; mask++) {
    GstBuffer *in = gst_buffer_new_allocate (NULL, info.size, NULL), *out;
    GstMapInfo mi, mo;
    guint halo = 0;
    gint x, y, c;

    fail_unless (gst_buffer_map (in, &mi, GST_MAP_WRITE));
    for (y = 0; y < 48; y++) {
      for (x = 0; x < 64; x++) {
        guint8 *p = mi.data + (gsize) y * info.stride[0] + x * 4;
        gboolean disc = (x - 30) * (x - 30) + (y - 22) * (y - 22) <= 12 * 12;

        for (c = 0; c < 3; c++)
          p[c] = disc ? fg[c] : bg[c];
        p[3] = disc ? 255 : 0;
      }
    }
    gst_buffer_unmap (in, &mi);
    g_object_set (h->element, "radius", 6, "alpha-mask", (gboolean) mask,
        NULL);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
    for (y = 0; y < 48; y++) {
      for (x = 0; x < 64; x++) {
        const guint8 *p = mi.data + (gsize) y * info.stride[0] + x * 4;
        const guint8 *q = mo.data + (gsize) y * info.stride[0] + x * 4;

        if (p[3] != 0)
          continue;             /* the disc */
        for (c = 0; c < 3; c++) {
          if (mask)
            fail_unless_equals_int (q[c], bg[c]);
          halo += q[c] != bg[c];
        }
        if (mask)
          fail_unless_equals_int (q[3], 0);
      }
    }
    /* without the mask: a rim of the disc's colour around it */
    if (!mask)
      fail_unless (halo > 100, "no halo without the mask (%u samples)",
          halo);
    gst_buffer_unmap (in, &mi);
    gst_buffer_unmap (out, &mo);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Counts the warnings on @bus whose text contains @what, and drops every
 * message. */
static guint
count_warnings (GstBus * bus, const gchar * what)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      n += strstr (err->message, what) != NULL;
      g_error_free (err);
    }
    gst_message_unref (msg);
  }
  return n;
}

/* A mask on a format without alpha: a warning once, and the plain blur;
 * then, the property changed while playing, a format with alpha gets the
 * mask, and off again the plain blur. */
GST_START_TEST (test_mask_without_alpha)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_SHRINK, 4, 4, 0, TRUE, 3, 30 };
  GstVideoInfo info;
  guint i;

  gst_element_set_bus (h->element, bus);
  s.rx = s.ry = 4;
  s.method = METHOD_SEPARABLE;
  set_format (h, &info, "I420", 33, 21);
  for (i = 0; i < 3; i++) {
    apply_settings (h, &s);
    g_object_set (h->element, "alpha-mask", TRUE, NULL);
    fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, i)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless_equals_int (count_warnings (bus, "no alpha"), 1);
  /* and the plain blur it gives */
  g_object_set (h->element, "alpha-mask", TRUE, NULL);
  push_settings_and_check (h, &info, 0, &s);
  g_object_set (h->element, "alpha-mask", FALSE, NULL);

  set_format (h, &info, "RGBA", 33, 21);
  for (i = 0; i < 4; i++) {
    m.mask = i % 2 == 0;
    push_mask_and_check (h, &info, 0, &m, &s, 400 + i);
  }
  fail_unless_equals_int (count_warnings (bus, "no alpha"), 0);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Frames of @info (random colours) whose alpha is full everywhere but,
 * with @below, at the last pixel (max - 1: some background, where the
 * CPU's 16-pixel walks have their tail), pushed @n at a time with
 * alpha-mask on. */
static void
push_opaque (GstHarness * h, const GstVideoInfo * info, guint n,
    gboolean below)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), hh = GST_VIDEO_INFO_HEIGHT (info);
  guint max = max_value (info), i;
  gint x, y;

  for (i = 0; i < n; i++) {
    GstBuffer *buf = make_frame (info, 0, 700 + i);
    GstVideoFrame f;

    fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
    for (y = 0; y < hh; y++)
      for (x = 0; x < w; x++)
        write_sample (info, alpha_ptr (&f, x, y), below && x == w - 1
            && y == hh - 1 ? max - 1 : max);
    gst_video_frame_unmap (&f);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
  }
}

/* alpha-mask on frames whose alpha is full everywhere (RGBA from
 * videoconvert): one warning that nothing is background after 30 of them
 * in a row (the engine's answer from its kernels' flag, a frame or two
 * late), not again; frames with one alpha below full: none. For each
 * mask schedule of the class: pixels of 4 bytes (mask_x16 or the
 * general kernels), A420's planes (mask_planar_x16 and its pair),
 * 16-bit samples (the general kernels), bilateral's blend. */
GST_START_TEST (test_mask_opaque_warned)
{
  static const struct {
    const gchar *format;
    gint method;
  } cases[] = {
    {"RGBA", METHOD_SEPARABLE}, {"A420", METHOD_SAT},
    {"RGBA64_LE", METHOD_SEPARABLE}, {"BGRA", METHOD_BILATERAL},
  };
  const gchar *what = "nothing is background";
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GstBus *bus = gst_bus_new ();
    Settings s = default_settings;
    GstVideoInfo info;

    gst_element_set_bus (h->element, bus);
    s.rx = s.ry = 3;
    s.method = cases[c].method;
    set_format (h, &info, cases[c].format, 37, 23);
    apply_settings (h, &s);
    g_object_set (h->element, "alpha-mask", TRUE, NULL);
    push_opaque (h, &info, 10, TRUE);
    fail_unless_equals_int (count_warnings (bus, what), 0);
    push_opaque (h, &info, 40, FALSE);
    fail_unless_equals_int (count_warnings (bus, what), 1);
    push_opaque (h, &info, 40, FALSE);
    fail_unless_equals_int (count_warnings (bus, what), 0);
    /* background, then opaque again: warned again */
    push_opaque (h, &info, 3, TRUE);
    push_opaque (h, &info, 40, FALSE);
    fail_unless_equals_int (count_warnings (bus, what), 1);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    blurcheck_harness_teardown (h);

    /* a stream with some alpha below full in every frame: none */
    h = blurcheck_harness_new ("clboxblur");
    bus = gst_bus_new ();
    gst_element_set_bus (h->element, bus);
    set_format (h, &info, cases[c].format, 37, 23);
    apply_settings (h, &s);
    g_object_set (h->element, "alpha-mask", TRUE, NULL);
    push_opaque (h, &info, 45, TRUE);
    fail_unless_equals_int (count_warnings (bus, what), 0);
    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    blurcheck_harness_teardown (h);
  }
}

GST_END_TEST;

/* passes and sigma with the mask: a warning once, and one box pass at the
 * radius. */
GST_START_TEST (test_mask_passes_warned)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_SHRINK, 2, 2, 0, TRUE, 3, 30 };
  GstVideoInfo info;

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "BGRA", 30, 20);
  g_object_set (h->element, "passes", 3, NULL);
  push_mask_and_check (h, &info, 0, &m, &s, 500);
  g_object_set (h->element, "passes", 1, "sigma", 3.0, NULL);
  push_mask_and_check (h, &info, 0, &m, &s, 501);
  fail_unless_equals_int (count_warnings (bus, "passes and sigma"), 1);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* mosaic and fill take no mask: a warning once, and the mosaic or fill the
 * reference gives without it (alpha mosaicked with the colours). */
GST_START_TEST (test_mask_mosaic_fill_warned)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "RGBA", 31, 19);
  for (i = 0; i < 4; i++) {
    s.method = i % 2 ? METHOD_FILL : METHOD_MOSAIC;
    s.block_size = 4;
    s.fill_color = 0x80c02040u;
    apply_settings (h, &s);
    g_object_set (h->element, "alpha-mask", TRUE, "mask-feather", 1, NULL);
    push_settings_and_check (h, &info, 0, &s);
  }
  fail_unless_equals_int (count_warnings (bus, "alpha-mask is ignored"), 1);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Frames in the element's OpenCL memory (its proposed pool, its output
 * pool): the masked output from the input's planes into the output's. */
GST_START_TEST (test_mask_pool)
{
  static const gchar *formats[] = { "RGBA", "AYUV", "A420" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_REPLICATE, 4, 3, 0, TRUE, 2,
    30
  };
  GstVideoInfo info;
  guint f, k;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstBufferPool *pool;

    set_format (h, &info, formats[f], 33, 21);
    pool = blurcheck_proposed_pool (h, &info);
    for (k = 0; k < 3; k++) {
      GstBuffer *src = make_frame (&info, 0, 800 + f * 4 + k), *in = NULL;
      GstBuffer *out;
      GstVideoFrame fs, fd;
      guint i;

      fill_alpha (src, &info, 800 + f * 4 + k);
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &in,
              NULL), GST_FLOW_OK);
      for (i = 0; i < gst_buffer_n_memory (in); i++)
        fail_unless (gst_memory_is_type (gst_buffer_peek_memory (in, i),
                CL_BLUR_MEMORY_TYPE));
      fail_unless (gst_video_frame_map (&fs, &info, src, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fd, &info, in, GST_MAP_WRITE));
      fail_unless (gst_video_frame_copy (&fd, &fs));
      gst_video_frame_unmap (&fd);
      gst_video_frame_unmap (&fs);
      gst_buffer_unref (src);

      m.method = k == 2 ? METHOD_BILATERAL : METHOD_SEPARABLE;
      m.feather = k == 1 ? 2 : 0;
      apply_mask_case (h, &m);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_pull (h);
      fail_unless (out != NULL);
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0),
              CL_BLUR_MEMORY_TYPE), "output not from the element's pool");
      check_mask_frame (&info, in, out, &m, &s);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Intermediates that do not fit one allocation (bands of rows) and
 * devices that end loops early (launches in parts): the same pixels. */
GST_START_TEST (test_mask_bands_and_loop_cap)
{
  static const gchar *formats[] = { "RGBA", "A420" };
  GstHarness *h;
  Settings s = default_settings;
  MaskCase m = { METHOD_SEPARABLE, REF_BORDER_REFLECT, 5, 4, 3, TRUE, 3,
    30
  };
  GstVideoInfo info;
  guint f;

  g_setenv (CLB_MAX_ALLOC_ENV, "20000", TRUE);
  g_setenv (CLB_LOOP_CAP_ENV, "700", TRUE);
  h = blurcheck_harness_new ("clboxblur");
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 57, 43);
    push_mask_and_check (h, &info, 3, &m, &s, 600 + f);
  }
  blurcheck_harness_teardown (h);
  g_unsetenv (CLB_MAX_ALLOC_ENV);
  g_unsetenv (CLB_LOOP_CAP_ENV);
}

GST_END_TEST;

static Suite *
clboxblur_mask_suite (void)
{
  Suite *s = suite_create ("clboxblur_mask");
  TCase *tc = tcase_create ("mask");

  blurcheck_add_fixture (tc);
  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mask_formats);
  tcase_add_test (tc, test_mask_radii);
  tcase_add_test (tc, test_mask_copy_path);
  tcase_add_test (tc, test_mask_in_region);
  tcase_add_test (tc, test_mask_bilateral);
  tcase_add_test (tc, test_halo);
  tcase_add_test (tc, test_mask_without_alpha);
  tcase_add_test (tc, test_mask_passes_warned);
  tcase_add_test (tc, test_mask_mosaic_fill_warned);
  tcase_add_test (tc, test_mask_opaque_warned);
  tcase_add_test (tc, test_mask_bands_and_loop_cap);
  tcase_add_test (tc, test_mask_pool);
  return s;
}

BLURCHECK_MAIN (clboxblur_mask);
