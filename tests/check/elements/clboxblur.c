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

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#include "refblur.h"
#include "clcheck.h"

static const gchar *packed_formats[] = {
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB",
  "BGR", "GRAY8",
};

/* Every format the element takes. */
static const gchar *all_formats[] = {
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB",
  "BGR", "GRAY8", "I420", "YV12", "Y42B", "Y444", "NV12", "NV21", "A420",
  "AYUV", "YUY2", "UYVY", "GRAY16_LE", "GRAY16_BE", "RGBA64_LE", "P010_10LE",
  "I420_10LE", "I422_10LE", "Y444_10LE",
};

static const RefBorder borders[] = {
  REF_BORDER_SHRINK, REF_BORDER_REPLICATE, REF_BORDER_REFLECT,
};

static const gchar *border_nicks[] = { "shrink", "replicate", "reflect" };

typedef enum
{
  METHOD_SAT,
  METHOD_SEPARABLE,
  METHOD_BILATERAL,
} Method;

static const gchar *method_nicks[] = { "sat", "separable", "bilateral" };

#define MAX_RECTS 8

/* What one frame went through. */
typedef struct
{
  Method method;
  RefBorder border;
  guint rx, ry;
  guint passes;
  gdouble sigma_spatial, sigma_range;
  gboolean preserve_alpha;
  /* Which pixels are filtered: all unless use_rects; else those inside one
   * of the rects (x, y, width, height, possibly beyond the frame), or with
   * invert those outside all of them. */
  gboolean use_rects;
  gboolean invert;
  guint n_rects;
  gint rects[MAX_RECTS][4];
} Settings;

static const Settings default_settings = {
  METHOD_SAT, REF_BORDER_SHRINK, 4, 4, 1, 3.0, 30.0, FALSE, FALSE, FALSE, 0,
  {{0}}
};

/* Whether sample (x, y) of a group subsampled by (xs, ys) is filtered: the
 * rectangles are clipped to the frame, and a sample is inside when its
 * footprint overlaps one. */
static gboolean
selected (const Settings * s, const GstVideoInfo * info, gint x, gint y,
    guint xs, guint ys)
{
  gint fw = GST_VIDEO_INFO_WIDTH (info), fh = GST_VIDEO_INFO_HEIGHT (info);
  gboolean inside = FALSE;
  guint i;

  if (!s->use_rects)
    return TRUE;
  for (i = 0; i < s->n_rects && !inside; i++) {
    gint x0 = CLAMP (s->rects[i][0], 0, fw);
    gint y0 = CLAMP (s->rects[i][1], 0, fh);
    gint x1 = CLAMP ((gint64) s->rects[i][0] + s->rects[i][2], 0, fw);
    gint y1 = CLAMP ((gint64) s->rects[i][1] + s->rects[i][3], 0, fh);

    if (x0 >= x1 || y0 >= y1)
      continue;
    /* footprint of the sample: [x << xs, (x + 1) << xs) */
    inside = (x << xs) < x1 && ((x + 1) << xs) > x0
        && (y << ys) < y1 && ((y + 1) << ys) > y0;
  }
  return inside != s->invert;
}

/* Bilateral results may differ from the double-precision reference by this
 * much (the kernels use float weights); box results must be exact. */
#define BILATERAL_TOLERANCE 1

/* A group of components filtered together, as documented for the element:
 * the components of one plane with one geometry. Written here from
 * GStreamer's format description, not taken from the element. */
typedef struct
{
  guint plane;
  gint width, height;
  gint pstride;                 /* bytes */
  gint channels;
  gint offset[4];               /* bytes */
  guint comp[4];
  guint dist_mask;
  guint x_sub, y_sub;
} Group;

static gboolean
is_alpha (const GstVideoInfo * info, guint c)
{
  return GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A;
}

static guint
make_groups (const GstVideoInfo * info, gboolean preserve_alpha,
    Group * groups)
{
  guint n = 0, c, g;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    Group *to = NULL;

    if (preserve_alpha && is_alpha (info, c))
      continue;
    for (g = 0; g < n; g++) {
      if (groups[g].plane == GST_VIDEO_INFO_COMP_PLANE (info, c)
          && groups[g].width == GST_VIDEO_INFO_COMP_WIDTH (info, c)
          && groups[g].height == GST_VIDEO_INFO_COMP_HEIGHT (info, c)
          && groups[g].pstride == GST_VIDEO_INFO_COMP_PSTRIDE (info, c))
        to = &groups[g];
    }
    if (to == NULL) {
      to = &groups[n++];
      memset (to, 0, sizeof (*to));
      to->plane = GST_VIDEO_INFO_COMP_PLANE (info, c);
      to->width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
      to->height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
      to->pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
      to->x_sub = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c);
      to->y_sub = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c);
    }
    to->offset[to->channels] = GST_VIDEO_INFO_COMP_POFFSET (info, c);
    /* GStreamer 1.22 lists P010_10LE's V at byte 1; it is at byte 2. */
    if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_P010_10LE && c == 2)
      to->offset[to->channels] = 2;
    to->comp[to->channels] = c;
    if (!is_alpha (info, c))
      to->dist_mask |= 1u << to->channels;
    to->channels++;
  }
  for (g = 0; g < n; g++) {
    if (groups[g].dist_mask == 0)
      groups[g].dist_mask = (1u << groups[g].channels) - 1;
  }
  return n;
}

/* Chroma radius: the luma radius divided by the subsampling, rounded, and
 * at least 1 when the luma radius is not 0. */
static guint
scaled_radius (guint r, guint sub)
{
  guint s;

  if (r == 0 || sub == 0)
    return r;
  s = (r + (1u << (sub - 1))) >> sub;
  return s > 0 ? s : 1;
}

static guint
sample_bytes (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;
}

static guint
read_sample (const GstVideoInfo * info, const guint8 * p)
{
  guint v = p[0];

  if (sample_bytes (info) == 2)
    v = GST_VIDEO_FORMAT_INFO_IS_LE (info->finfo) ? (guint) (p[0] | p[1] << 8)
        : (guint) (p[0] << 8 | p[1]);
  return v >> GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
}

static void
write_sample (const GstVideoInfo * info, guint8 * p, guint v)
{
  v <<= GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
  if (sample_bytes (info) == 1) {
    p[0] = v;
  } else if (GST_VIDEO_FORMAT_INFO_IS_LE (info->finfo)) {
    p[0] = v & 0xff;
    p[1] = v >> 8;
  } else {
    p[0] = v >> 8;
    p[1] = v & 0xff;
  }
}

static guint8 *
sample_ptr (const GstVideoFrame * f, const Group * g, gint x, gint y, gint c)
{
  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, g->plane)
      + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (f, g->plane)
      + (gsize) x * g->pstride + g->offset[c];
}

static guint16 *
extract (const GstVideoFrame * f, const Group * g)
{
  guint16 *s = g_new (guint16, (gsize) g->width * g->height * g->channels);
  gint x, y, c;

  for (y = 0; y < g->height; y++)
    for (x = 0; x < g->width; x++)
      for (c = 0; c < g->channels; c++)
        s[((gsize) y * g->width + x) * g->channels + c] =
            read_sample (&f->info, sample_ptr (f, g, x, y, c));
  return s;
}

/* A frame of random valid samples (and random padding). @pad > 0 adds that
 * many bytes to each plane's rows, described with a GstVideoMeta. @pattern
 * other than NULL fills sample (x, y, c) with pattern (x, y, c, max). */
typedef guint (*PatternFunc) (gint x, gint y, gint c, guint max);

static GstBuffer *
make_frame_with (const GstVideoInfo * info, guint pad, guint32 seed,
    PatternFunc pattern)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
  guint max = (1u << GST_VIDEO_INFO_COMP_DEPTH (info, 0)) - 1;
  GstVideoInfo padded = *info;
  GstBuffer *buf;
  GstVideoFrame f;
  GstMapInfo map;
  Group groups[GST_VIDEO_MAX_COMPONENTS];
  gsize size = 0, i;
  guint p, n, g;

  /* Plane heights: the largest component height stored in each plane. */
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint h = 0, c;

    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + pad;

    for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_INFO_COMP_PLANE (info, c) == p)
        h = MAX (h, GST_VIDEO_INFO_COMP_HEIGHT (info, c));
    offset[p] = size;
    padded.offset[p] = size;
    padded.stride[p] = strides[p];
    size += (gsize) strides[p] * h;
  }
  padded.size = size;
  if (pad == 0)
    padded = *info;             /* GStreamer's own layout, no meta */
  size = padded.size;

  buf = gst_buffer_new_allocate (NULL, size, NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  if (pad > 0)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
        strides);

  /* Valid values in every component. */
  fail_unless (gst_video_frame_map (&f, &padded, buf, GST_MAP_WRITE));
  n = make_groups (info, FALSE, groups);
  for (g = 0; g < n; g++) {
    gint x, y, c;

    for (y = 0; y < groups[g].height; y++)
      for (x = 0; x < groups[g].width; x++)
        for (c = 0; c < groups[g].channels; c++)
          write_sample (info, sample_ptr (&f, &groups[g], x, y, c),
              pattern ? pattern (x, y, c, max) :
              (guint) g_rand_int_range (rand, 0, max + 1));
  }
  gst_video_frame_unmap (&f);
  g_rand_free (rand);
  return buf;
}

static GstBuffer *
make_frame (const GstVideoInfo * info, guint pad, guint32 seed)
{
  return make_frame_with (info, pad, seed, NULL);
}

/* Marks the bytes of each plane's rows that some group covers. */
static void
mark_covered (const GstVideoInfo * info, const Group * groups, guint n,
    guint p, gint y, guint8 * covered, gsize row)
{
  guint g;
  gint x, c, b;

  memset (covered, 0, row);
  for (g = 0; g < n; g++) {
    if (groups[g].plane != p || y >= groups[g].height)
      continue;
    for (x = 0; x < groups[g].width; x++)
      for (c = 0; c < groups[g].channels; c++)
        for (b = 0; b < (gint) sample_bytes (info); b++)
          covered[(gsize) x * groups[g].pstride + groups[g].offset[c] + b] = 1;
  }
}

/* Checks @out against the reference applied to @in under @s: every group's
 * samples (exact for box methods, within BILATERAL_TOLERANCE for bilateral)
 * and every byte no group covers (alpha with preserve-alpha, the x of RGBx)
 * unchanged. */
static void
check_frame (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const Settings * s)
{
  GstVideoFrame fin, fout;
  Group groups[GST_VIDEO_MAX_COMPONENTS];
  guint max = (1u << GST_VIDEO_INFO_COMP_DEPTH (info, 0)) - 1;
  guint n, g, p;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  n = make_groups (info, s->preserve_alpha, groups);

  for (g = 0; g < n; g++) {
    const Group *gr = &groups[g];
    guint rx = scaled_radius (s->rx, gr->x_sub);
    guint ry = scaled_radius (s->ry, gr->y_sub);
    guint16 *src = extract (&fin, gr);
    guint16 *got = extract (&fout, gr);
    guint16 *ref = g_new (guint16, (gsize) gr->width * gr->height *
        gr->channels);
    gint tol = s->method == METHOD_BILATERAL ? BILATERAL_TOLERANCE : 0;
    gsize i, total = (gsize) gr->width * gr->height * gr->channels;

    if (s->method == METHOD_BILATERAL) {
      fail_unless_equals_int (ref_bilateral (src, ref, gr->width, gr->height,
              gr->channels, rx, ry, s->border, s->sigma_spatial,
              s->sigma_range, gr->dist_mask, max), 0);
    } else {
      fail_unless_equals_int (ref_box_blur (src, ref, gr->width, gr->height,
              gr->channels, rx, ry, s->border, s->passes), 0);
    }

    /* Unselected samples keep their input value, exactly. */
    for (i = 0; i < total; i++) {
      gint px = (i / gr->channels) % gr->width;
      gint py = i / gr->channels / gr->width;

      if (!selected (s, info, px, py, gr->x_sub, gr->y_sub)) {
        ref[i] = src[i];
        if (got[i] != src[i])
          fail ("%s %dx%d %s: unselected component %u (%d, %d) changed "
              "from %u to %u", GST_VIDEO_INFO_NAME (info),
              GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
              method_nicks[s->method], gr->comp[i % gr->channels], px, py,
              src[i], got[i]);
      }
    }
    for (i = 0; i < total; i++) {
      if (ABS ((gint) got[i] - (gint) ref[i]) > tol) {
        gint c = i % gr->channels, x = (i / gr->channels) % gr->width;
        gint y = i / gr->channels / gr->width;

        fail ("%s %dx%d %s rx=%u ry=%u passes=%u border=%s: component %u "
            "(%d, %d) of %dx%d is %u, reference %u (tolerance %d)",
            GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), method_nicks[s->method], rx, ry,
            s->passes, border_nicks[s->border], gr->comp[c], x, y, gr->width,
            gr->height, got[i], ref[i], tol);
      }
    }
    g_free (src);
    g_free (got);
    g_free (ref);
  }

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint y, h = 0;
    gsize row = 0, b;
    guint c;
    guint8 *covered;

    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
      if (GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
        continue;
      h = MAX (h, GST_VIDEO_INFO_COMP_HEIGHT (info, c));
      row = MAX (row, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
          GST_VIDEO_INFO_COMP_PSTRIDE (info, c));
    }
    covered = g_malloc (row);
    for (y = 0; y < h; y++) {
      const guint8 *a = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fin, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fin, p);
      const guint8 *o = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fout, p)
          + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fout, p);

      mark_covered (info, groups, n, p, y, covered, row);
      /* No fail_unless per byte: each call writes to check's log. */
      for (b = 0; b < row; b++) {
        if (!covered[b] && a[b] != o[b])
          fail ("%s plane %u row %d byte %" G_GSIZE_FORMAT ": untouched byte "
              "changed", GST_VIDEO_INFO_NAME (info), p, y, b);
      }
    }
    g_free (covered);
  }
  gst_video_frame_unmap (&fin);
  gst_video_frame_unmap (&fout);
}

static void
apply_settings (GstHarness * h, const Settings * s)
{
  g_object_set (h->element, "radius", s->rx, "radius-y", (gint) s->ry,
      "border", s->border, "passes", s->passes, "sigma-spatial",
      s->sigma_spatial, "sigma-range", s->sigma_range, "preserve-alpha",
      s->preserve_alpha, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "method",
      method_nicks[s->method]);
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

/* Pushes @in through @h with settings @s and checks the result. */
static void
push_buffer_and_check (GstHarness * h, const GstVideoInfo * info,
    GstBuffer * in, const Settings * s)
{
  GstBuffer *out;

  apply_settings (h, s);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  check_frame (info, in, out, s);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

static void
push_settings_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    const Settings * s)
{
  push_buffer_and_check (h, info, make_frame (info, pad, s->rx * 7919 +
          s->border * 31 + pad + s->method * 17), s);
}

/* The box blur with the given radii and border, other settings default. */
static void
push_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    guint rx, gint ry, RefBorder border)
{
  Settings s = default_settings;

  s.rx = rx;
  s.ry = ry < 0 ? rx : (guint) ry;
  s.border = border;
  push_settings_and_check (h, info, pad, &s);
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

/* Every method on every format and border, odd sizes, padded strides. */
GST_START_TEST (test_methods_formats)
{
  static const gint sizes[][2] = { {1, 1}, {17, 9}, {385, 289} };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, z, m, b;

  s.rx = 2;
  s.ry = 3;
  s.sigma_spatial = 2.0;
  s.sigma_range = 25.0;
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, all_formats[f], sizes[z][0], sizes[z][1]);
      for (m = 0; m < 3; m++) {
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.method = m;
          s.border = borders[b];
          push_settings_and_check (h, &info, 16, &s);
        }
      }
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
flat_pattern (gint x, gint y, gint c, guint max)
{
  return (max * 3 / 5 + c * 7) % (max + 1);
}

/* A flat frame stays exactly flat: every method, border and format. */
GST_START_TEST (test_flat_frame)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, b;

  s.rx = 5;
  s.ry = 3;
  s.passes = 3;
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    set_format (h, &info, all_formats[f], 37, 21);
    for (m = 0; m < 3; m++) {
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        GstBuffer *in = make_frame_with (&info, 0, f, flat_pattern);
        GstBuffer *out;
        GstVideoFrame fin, fout;
        Group groups[GST_VIDEO_MAX_COMPONENTS];
        guint g, n;

        s.method = m;
        s.border = borders[b];
        apply_settings (h, &s);
        fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
            GST_FLOW_OK);
        out = gst_harness_pull (h);
        fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
        fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
        n = make_groups (&info, FALSE, groups);
        for (g = 0; g < n; g++) {
          guint16 *a = extract (&fin, &groups[g]);
          guint16 *o = extract (&fout, &groups[g]);

          fail_unless (memcmp (a, o, sizeof (guint16) * groups[g].width *
                  groups[g].height * groups[g].channels) == 0,
              "%s %s border=%s: a flat frame changed", all_formats[f],
              method_nicks[m], border_nicks[b]);
          g_free (a);
          g_free (o);
        }
        gst_video_frame_unmap (&fin);
        gst_video_frame_unmap (&fout);
        gst_buffer_unref (out);
        gst_buffer_unref (in);
      }
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
step_pattern (gint x, gint y, gint c, guint max)
{
  return x < 20 ? max / 10 : max * 8 / 10;
}

/* A step edge: bilateral keeps it, the box blurs it. */
GST_START_TEST (test_step_edge)
{
  static const gchar *formats[] = { "RGBA", "GRAY8", "NV12", "GRAY16_LE",
    "P010_10LE"
  };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m;

  s.rx = s.ry = 4;
  s.sigma_spatial = 3.0;
  s.sigma_range = 10.0;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 40, 12);
    for (m = 0; m < 3; m++) {
      GstBuffer *in = make_frame_with (&info, 0, f, step_pattern);
      GstBuffer *out;
      GstVideoFrame fin, fout;
      Group groups[GST_VIDEO_MAX_COMPONENTS];
      const Group *g = &groups[0];

      s.method = m;
      apply_settings (h, &s);
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
          GST_FLOW_OK);
      out = gst_harness_pull (h);
      check_frame (&info, in, out, &s);

      /* Luma (the first group) next to the edge, on both sides. */
      make_groups (&info, FALSE, groups);
      fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
      {
        guint a = read_sample (&info, sample_ptr (&fin, g, 19, 5, 0));
        guint b = read_sample (&info, sample_ptr (&fout, g, 19, 5, 0));
        guint c = read_sample (&info, sample_ptr (&fin, g, 20, 5, 0));
        guint d = read_sample (&info, sample_ptr (&fout, g, 20, 5, 0));

        if (m == METHOD_BILATERAL)
          fail_unless (a == b && c == d, "%s: bilateral moved the edge: "
              "%u->%u, %u->%u", formats[f], a, b, c, d);
        else
          fail_unless (a != b && c != d, "%s: %s left the edge sharp",
              formats[f], method_nicks[m]);
      }
      gst_video_frame_unmap (&fin);
      gst_video_frame_unmap (&fout);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* passes=1 and passes=3 for both box methods, against the reference applied
 * as many times. */
GST_START_TEST (test_passes)
{
  static const gchar *formats[] = { "RGBA", "I420", "YUY2", "RGBA64_LE" };
  static const guint passes[] = { 1, 3, 8 };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, p, m, b;

  s.rx = 3;
  s.ry = 2;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 65, 33);
    for (p = 0; p < G_N_ELEMENTS (passes); p++)
      for (m = 0; m < 2; m++)
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.passes = passes[p];
          s.method = m;
          s.border = borders[b];
          push_settings_and_check (h, &info, 0, &s);
        }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Radii larger than the frame, every method (bilateral's tile then no
 * longer fits local memory, or only just). */
GST_START_TEST (test_radius_beyond_frame)
{
  static const gchar *formats[] = { "RGBA", "NV12", "GRAY16_BE", "UYVY" };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, b;

  s.rx = 40;
  s.ry = 25;
  s.sigma_spatial = 10.0;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 17, 9);
    for (m = 0; m < 3; m++)
      for (b = 0; b < G_N_ELEMENTS (borders); b++) {
        s.method = m;
        s.border = borders[b];
        push_settings_and_check (h, &info, 0, &s);
      }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* preserve-alpha keeps alpha bytes untouched (check_frame checks every byte
 * outside the filtered groups), the colour is still filtered. */
GST_START_TEST (test_preserve_alpha)
{
  static const gchar *formats[] = { "RGBA", "ARGB", "AYUV", "A420",
    "RGBA64_LE"
  };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m;

  s.preserve_alpha = TRUE;
  s.rx = s.ry = 3;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 33, 20);
    for (m = 0; m < 3; m++) {
      s.method = m;
      push_settings_and_check (h, &info, 8, &s);
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* One rectangle from the region-* properties, plain and inverted, inside
 * the frame, on its edges and partly outside, every method, with
 * subsampled chroma. */
GST_START_TEST (test_region)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2" };
  static const gint rects[][4] = {
    {10, 5, 20, 12}, {0, 0, 7, 40}, {50, 30, 100, 100}, {3, 3, 0, 0},
  };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, r, m, inv;

  s.rx = 3;
  s.ry = 2;
  s.use_rects = TRUE;
  s.n_rects = 1;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (r = 0; r < G_N_ELEMENTS (rects); r++) {
      for (inv = 0; inv < 2; inv++) {
        for (m = 0; m < 3; m++) {
          s.method = m;
          s.invert = inv;
          s.passes = m == METHOD_SEPARABLE ? 3 : 1;
          memcpy (s.rects[0], rects[r], sizeof (rects[r]));
          g_object_set (h->element, "region-x", rects[r][0], "region-y",
              rects[r][1], "region-width", rects[r][2], "region-height",
              rects[r][3], "region-invert", (gboolean) inv, NULL);
          /* width/height 0 reach the frame's edge */
          if (rects[r][2] == 0)
            s.rects[0][2] = 61 - rects[r][0];
          if (rects[r][3] == 0)
            s.rects[0][3] = 41 - rects[r][1];
          push_settings_and_check (h, &info, 0, &s);
        }
      }
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Region-of-interest metas: several per frame, typed, padded, at the
 * frame's edges and partly outside it; they stay on the output buffer. */
GST_START_TEST (test_roi_meta)
{
  static const struct
  {
    const gchar *type;
    gint x, y, w, h;
  } rois[] = {
    {"face", 5, 4, 10, 8}, {"face", 50, 30, 30, 30}, {"plate", 0, 0, 6, 6},
    {"face", 30, 0, 5, 41},
  };
  static const gchar *formats[] = { "RGBA", "NV12" };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, t, pad, m, i;

  s.rx = s.ry = 2;
  s.use_rects = TRUE;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 61, 41);
    for (t = 0; t < 3; t++) {
      const gchar *type = t == 0 ? NULL : t == 1 ? "face" : "plate";

      for (pad = 0; pad <= 3; pad += 3) {
        for (m = 0; m < 3; m++) {
          GstBuffer *in = make_frame (&info, 0, t * 10 + pad + m);
          GstBuffer *out;
          guint n_out = 0;
          gpointer state = NULL;

          s.method = m;
          s.n_rects = 0;
          for (i = 0; i < G_N_ELEMENTS (rois); i++) {
            gst_buffer_add_video_region_of_interest_meta (in, rois[i].type,
                rois[i].x, rois[i].y, rois[i].w, rois[i].h);
            if (type && strcmp (type, rois[i].type) != 0)
              continue;
            s.rects[s.n_rects][0] = rois[i].x - pad;
            s.rects[s.n_rects][1] = rois[i].y - pad;
            s.rects[s.n_rects][2] = rois[i].w + 2 * pad;
            s.rects[s.n_rects][3] = rois[i].h + 2 * pad;
            s.n_rects++;
          }
          g_object_set (h->element, "roi-meta", TRUE, "roi-type", type,
              "roi-padding", pad, NULL);
          apply_settings (h, &s);
          fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
              GST_FLOW_OK);
          out = gst_harness_pull (h);
          check_frame (&info, in, out, &s);
          while (gst_buffer_iterate_meta_filtered (out, &state,
                  GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
            n_out++;
          fail_unless_equals_int (n_out, G_N_ELEMENTS (rois));
          gst_buffer_unref (out);
          gst_buffer_unref (in);
        }
      }
    }
    /* A buffer without metas passes unfiltered; inverted, all filtered. */
    s.n_rects = 0;
    s.invert = FALSE;
    push_settings_and_check (h, &info, 0, &s);
    g_object_set (h->element, "region-invert", TRUE, NULL);
    s.invert = TRUE;
    push_settings_and_check (h, &info, 0, &s);
    g_object_set (h->element, "region-invert", FALSE, NULL);
    s.invert = FALSE;
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A "blur-in": an interpolation control source ramps radius from 0 to 30
 * over one second; each frame is blurred with the radius the controller
 * gives for that buffer's timestamp. */
GST_START_TEST (test_controller_ramp)
{
  GstHarness *h = gst_harness_new ("clboxblur");
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
  gst_harness_teardown (h);
}

GST_END_TEST;

typedef struct
{
  GMutex lock;
  GHashTable *arrived;          /* PTS -> monotonic time in (gint64) */
  GArray *in_pts, *out_pts;     /* GstClockTime, in order */
  GArray *spent;                /* gint64 microseconds in the element */
} LiveLog;

static GstPadProbeReturn
on_live_in (GstPad * pad, GstPadProbeInfo * pinfo, LiveLog * log)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (pinfo);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gint64 *now = g_new (gint64, 1);

  *now = g_get_monotonic_time ();
  g_mutex_lock (&log->lock);
  g_hash_table_insert (log->arrived, g_memdup2 (&pts, sizeof (pts)), now);
  g_array_append_val (log->in_pts, pts);
  g_mutex_unlock (&log->lock);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_live_out (GstPad * pad, GstPadProbeInfo * pinfo, LiveLog * log)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (pinfo);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gint64 now = g_get_monotonic_time (), *then;

  g_mutex_lock (&log->lock);
  then = g_hash_table_lookup (log->arrived, &pts);
  if (then) {
    gint64 d = now - *then;
    g_array_append_val (log->spent, d);
  }
  g_array_append_val (log->out_pts, pts);
  g_mutex_unlock (&log->lock);
  return GST_PAD_PROBE_OK;
}

static gint
cmp_int64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* A live source, 300 frames of 1280x720: every frame comes out, in order,
 * with its timestamp; the element adds no latency to the latency query.
 * Prints the time each frame spent in the element (median and worst). */
GST_START_TEST (test_live_300_frames)
{
  GstElement *pipe, *blur, *src;
  GstPad *sinkpad, *srcpad;
  GstQuery *q;
  GstMessage *msg;
  GstBus *bus;
  LiveLog log;
  gboolean live, up_live;
  GstClockTime min, max, up_min, up_max;
  gint64 first_spent;
  guint i;

  g_mutex_init (&log.lock);
  log.arrived = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      g_free);
  log.in_pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  log.out_pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  log.spent = g_array_new (FALSE, FALSE, sizeof (gint64));

  pipe = gst_parse_launch ("videotestsrc name=src is-live=true "
      "num-buffers=300 pattern=ball ! video/x-raw,format=RGBA,width=1280,"
      "height=720,framerate=30/1 ! clboxblur name=blur radius=8 "
      "! fakesink sync=true", NULL);
  fail_unless (pipe != NULL);
  blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sinkpad = gst_element_get_static_pad (blur, "sink");
  srcpad = gst_element_get_static_pad (blur, "src");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      (GstPadProbeCallback) on_live_in, &log, NULL);
  gst_pad_add_probe (srcpad, GST_PAD_PROBE_TYPE_BUFFER,
      (GstPadProbeCallback) on_live_out, &log, NULL);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          30 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);

  /* The element answers the latency query with what upstream says. */
  q = gst_query_new_latency ();
  fail_unless (gst_element_query (blur, q));
  gst_query_parse_latency (q, &live, &min, &max);
  gst_query_unref (q);
  q = gst_query_new_latency ();
  fail_unless (gst_element_query (src, q));
  gst_query_parse_latency (q, &up_live, &up_min, &up_max);
  gst_query_unref (q);
  fail_unless (live && up_live);
  fail_unless_equals_uint64 (min, up_min);

  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "timed out");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  /* Unreffed after the streaming thread has stopped, so that the last
   * reference is ours: ThreadSanitizer cannot see GStreamer's atomic
   * refcounts, and would report the streaming thread's free. */
  gst_message_unref (msg);

  fail_unless_equals_int (log.in_pts->len, 300);
  fail_unless_equals_int (log.out_pts->len, 300);
  for (i = 0; i < 300; i++) {
    GstClockTime a = g_array_index (log.in_pts, GstClockTime, i);
    GstClockTime b = g_array_index (log.out_pts, GstClockTime, i);

    if (a != b)
      fail ("frame %u: %" GST_TIME_FORMAT " in, %" GST_TIME_FORMAT " out", i,
          GST_TIME_ARGS (a), GST_TIME_ARGS (b));
    if (i > 0 && b <= g_array_index (log.out_pts, GstClockTime, i - 1))
      fail ("frame %u out of order", i);
  }
  fail_unless_equals_int (log.spent->len, 300);
  first_spent = g_array_index (log.spent, gint64, 0);
  g_array_sort (log.spent, cmp_int64);
  g_print ("live 1280x720 RGBA radius=8, 300 frames: time in clboxblur "
      "median %.2f ms, 95th percentile %.2f ms, worst %.2f ms (first frame "
      "%.2f ms); latency query min %" GST_TIME_FORMAT " (upstream %"
      GST_TIME_FORMAT ")\n", g_array_index (log.spent, gint64, 150) / 1000.0,
      g_array_index (log.spent, gint64, 284) / 1000.0,
      g_array_index (log.spent, gint64, 299) / 1000.0, first_spent / 1000.0,
      GST_TIME_ARGS (min), GST_TIME_ARGS (up_min));

  gst_object_unref (sinkpad);
  gst_object_unref (srcpad);
  gst_object_unref (blur);
  gst_object_unref (src);
  gst_object_unref (pipe);
  g_hash_table_unref (log.arrived);
  g_array_free (log.in_pts, TRUE);
  g_array_free (log.out_pts, TRUE);
  g_array_free (log.spent, TRUE);
  g_mutex_clear (&log.lock);
}

GST_END_TEST;

/* Late frames are skipped only when a QoS event says they are late, and
 * the skip is counted in the QoS message. */
GST_START_TEST (test_qos)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstBuffer *buf;
  GstMessage *msg;
  GstFormat format;
  guint64 processed, dropped;

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "GRAY8", 32, 16);

  /* Without QoS events nothing is dropped. */
  buf = make_frame (&info, 0, 1);
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

  /* Downstream: 2 s late at 0.1 s. */
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 1.5, 2 * GST_SECOND,
              GST_SECOND / 10)));
  buf = make_frame (&info, 0, 2);
  GST_BUFFER_PTS (buf) = GST_SECOND / 5;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS);
  fail_unless (msg != NULL, "no QoS message for the skipped frame");
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  fail_unless_equals_uint64 (dropped, 1);
  fail_unless_equals_uint64 (processed, 1);
  gst_message_unref (msg);

  /* A frame past the late window goes through. */
  buf = make_frame (&info, 0, 3);
  GST_BUFFER_PTS (buf) = 10 * GST_SECOND;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Bilateral at large radii: float sums over (2r+1)^2 taps must not drift.
 * Flat frames come back exact; random 16-bit samples within the tolerance of
 * the double-precision reference. */
GST_START_TEST (test_bilateral_large_radius)
{
  static const struct
  {
    const gchar *format;
    gint w, h;
    guint r;
  } flat[] = {
    {"GRAY8", 24, 16, 300}, {"GRAY16_LE", 24, 16, 150}, {"RGBA", 20, 12, 90},
  };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  s.method = METHOD_BILATERAL;
  s.border = REF_BORDER_REPLICATE;
  s.sigma_spatial = 0.0;
  s.sigma_range = 1000.0;
  for (i = 0; i < G_N_ELEMENTS (flat); i++) {
    GstBuffer *in, *out;
    GstVideoFrame fin, fout;
    Group groups[GST_VIDEO_MAX_COMPONENTS];
    guint16 *a, *o;

    set_format (h, &info, flat[i].format, flat[i].w, flat[i].h);
    in = make_frame_with (&info, 0, i, flat_pattern);
    s.rx = s.ry = flat[i].r;
    apply_settings (h, &s);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_video_frame_map (&fin, &info, in, GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fout, &info, out, GST_MAP_READ));
    make_groups (&info, FALSE, groups);
    a = extract (&fin, &groups[0]);
    o = extract (&fout, &groups[0]);
    fail_unless (memcmp (a, o, sizeof (guint16) * groups[0].width *
            groups[0].height * groups[0].channels) == 0,
        "%s bilateral radius %u: a flat frame changed (%u -> %u)",
        flat[i].format, flat[i].r, a[0], o[0]);
    g_free (a);
    g_free (o);
    gst_video_frame_unmap (&fin);
    gst_video_frame_unmap (&fout);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }

  set_format (h, &info, "GRAY16_LE", 40, 30);
  s.rx = s.ry = 50;
  s.sigma_spatial = 30.0;
  s.sigma_range = 60.0;
  push_settings_and_check (h, &info, 0, &s);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A video meta whose stride is shorter than a row of samples: the buffer
 * is dropped with a warning (it does not hold a frame), nothing crashes,
 * and the stream goes on. */
GST_START_TEST (test_bad_stride)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstBuffer *buf;
  GstMessage *msg;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 6, };

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "YUY2", 3, 2);
  buf = gst_buffer_new_allocate (NULL, 64, NULL);
  gst_buffer_memset (buf, 0, 0x80, 64);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_YUY2, 3, 2, 1, offset, strides);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  push_and_check (h, &info, 0, 1, -1, REF_BORDER_SHRINK);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static GError *start_expecting_error (GstElement * e, gchar ** debug);

static guint
count_fds (void)
{
  GDir *d = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  if (d == NULL)
    return 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}


/* Whether the element wraps separable 8-bit frames rather than copying
 * them on the device it takes with the default properties, as its engine
 * decides (device class and CLBOXBLUR_ZERO_COPY). Sets @why to a sentence
 * for the log. */
static gboolean
default_device_wraps_frames (gchar ** why)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  cl_device_type type = 0;
  gboolean wraps;

  fail_unless_equals_int (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_TYPE, sizeof (type), &type, NULL), CL_SUCCESS);
  wraps = clb_engine_wraps_frames (type);
  *why = g_strdup_printf ("device '%s' (%s, %s=%s, %s=%s) %s",
      clb_runtime_get_device_name (rt),
      (type & CL_DEVICE_TYPE_CPU) ? "a CPU" : "not a CPU",
      CLB_DEVICE_CLASS_ENV, g_getenv (CLB_DEVICE_CLASS_ENV) ?
      g_getenv (CLB_DEVICE_CLASS_ENV) : "unset", CLB_ZERO_COPY_ENV,
      g_getenv (CLB_ZERO_COPY_ENV) ? g_getenv (CLB_ZERO_COPY_ENV) : "unset",
      wraps ? "wraps the frames in place (CL_MEM_USE_HOST_PTR)" :
      "copies the frames to and from device buffers");
  clb_runtime_free (rt);
  return wraps;
}

/* Every OpenCL failure path, by fault injection (CLBOXBLUR_FAULT makes the
 * named call fail): an element error with a clear domain, a clean stop,
 * and a working element again once the fault is gone. */
GST_START_TEST (test_fault_injection)
{
  static const struct
  {
    const gchar *fault;
    GQuark (*domain) (void);
    gint code;
  } at_start[] = {
    {"clGetPlatformIDs:-1001", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NOT_FOUND},
    {"clGetDeviceIDs", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NO_SPACE_LEFT},
    {"clCreateContext:-6", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NO_SPACE_LEFT},
    {"clCreateCommandQueue:-36", gst_library_error_quark,
        GST_LIBRARY_ERROR_FAILED},
    {"clBuildProgram:-11", gst_library_error_quark, GST_LIBRARY_ERROR_INIT},
    {"clCreateKernel:-46", gst_library_error_quark, GST_LIBRARY_ERROR_FAILED},
    {"clGetDeviceInfo:-30", gst_library_error_quark,
        GST_LIBRARY_ERROR_FAILED},
  };
  /* at_caps: made while the caps are set; wrapped: made only where the
   * engine wraps the frames (CPU class, zero copy), which on other devices
   * copy them without the call: the fault cannot fire there. */
  static const struct
  {
    const gchar *fault;
    Method method;
    gboolean at_caps;
    gboolean wrapped;
  } later[] = {
    {"clCreateBuffer", METHOD_SAT, TRUE, FALSE},
    {"clEnqueueWriteBufferRect", METHOD_SAT, FALSE, FALSE},
    {"clSetKernelArg:-49", METHOD_SAT, FALSE, FALSE},
    {"clEnqueueNDRangeKernel (sat_box)", METHOD_SAT, FALSE, FALSE},
    {"clEnqueueNDRangeKernel (separable", METHOD_SEPARABLE, FALSE, FALSE},
    {"clEnqueueReadBufferRect", METHOD_SAT, FALSE, FALSE},
    {"clEnqueueMapBuffer", METHOD_SEPARABLE, FALSE, TRUE},
    {"clEnqueueCopyBuffer", METHOD_BILATERAL, FALSE, FALSE},
    {"clEnqueueWriteBuffer (range)", METHOD_BILATERAL, FALSE, FALSE},
    {"clEnqueueNDRangeKernel (bilateral", METHOD_BILATERAL, FALSE, FALSE},
  };
  gchar *why = NULL;
  gboolean wraps = default_device_wraps_frames (&why);
  guint i;

  g_print ("test_fault_injection: %s\n", why);

  for (i = 0; i < G_N_ELEMENTS (at_start); i++) {
    GstElement *e = gst_element_factory_make ("clboxblur", NULL);
    GError *err;
    gchar *debug = NULL;

    g_setenv ("CLBOXBLUR_FAULT", at_start[i].fault, TRUE);
    err = start_expecting_error (e, &debug);
    g_unsetenv ("CLBOXBLUR_FAULT");
    fail_unless (g_error_matches (err, at_start[i].domain (),
            at_start[i].code), "%s: %s (%s)", at_start[i].fault,
        err->message, debug);
    GST_INFO ("%s: %s / %s", at_start[i].fault, err->message, debug);
    g_error_free (err);
    g_free (debug);
    gst_object_unref (e);
  }

  for (i = 0; i < G_N_ELEMENTS (later); i++) {
    GstHarness *h = gst_harness_new ("clboxblur");
    GstBus *bus = gst_bus_new ();
    Settings s = default_settings;
    GstVideoInfo info;
    GstMessage *msg;
    GError *err = NULL;
    gchar *debug = NULL;

    gst_element_set_bus (h->element, bus);
    s.method = later[i].method;
    apply_settings (h, &s);
    if (later[i].at_caps)
      g_setenv ("CLBOXBLUR_FAULT", later[i].fault, TRUE);
    set_format (h, &info, "RGBA", 40, 24);
    g_setenv ("CLBOXBLUR_FAULT", later[i].fault, TRUE);

    if (later[i].wrapped && !wraps) {
      /* The copy path makes no such call: the frame goes through. */
      g_print ("test_fault_injection: %s does not apply: the %s; checked "
          "instead that the frame goes through untouched by the fault\n",
          later[i].fault, why);
      push_settings_and_check (h, &info, 0, &s);
      g_unsetenv ("CLBOXBLUR_FAULT");
      fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
    } else {
      fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, i)),
          later[i].at_caps ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR);
      g_unsetenv ("CLBOXBLUR_FAULT");
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      fail_unless (msg != NULL, "%s: no error message", later[i].fault);
      gst_message_parse_error (msg, &err, &debug);
      {
        gchar *call = g_strndup (later[i].fault, strcspn (later[i].fault,
                ":"));

        fail_unless (strstr (debug, call) != NULL || later[i].at_caps,
            "%s: debug text '%s' does not name the call", call, debug);
        g_free (call);
      }
      GST_INFO ("%s: %s / %s", later[i].fault, err->message, debug);
      g_error_free (err);
      g_free (debug);
      gst_message_unref (msg);
    }

    /* The fault gone, the same element works again. */
    if (later[i].at_caps)
      set_format (h, &info, "RGBA", 41, 24);
    push_settings_and_check (h, &info, 0, &s);

    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    gst_harness_teardown (h);
  }

  /* A device refusing to wrap the frames: they are copied instead, no
   * error, the same pixels. Where frames are copied anyway, the wrap is
   * never asked for and the fault changes nothing. */
  {
    GstHarness *h = gst_harness_new ("clboxblur");
    GstVideoInfo info;
    Settings s = default_settings;

    if (!wraps)
      g_print ("test_fault_injection: a refused CL_MEM_USE_HOST_PTR wrap "
          "does not apply: the %s; checked instead that the frame goes "
          "through untouched by the fault\n", why);
    /* what the clEnqueueMapBuffer case above showed to be wrapped */
    s.method = METHOD_SEPARABLE;
    set_format (h, &info, "RGBA", 40, 24);
    g_setenv ("CLBOXBLUR_FAULT", "clCreateBuffer (CL_MEM_USE_HOST_PTR)",
        TRUE);
    push_settings_and_check (h, &info, 0, &s);
    g_unsetenv ("CLBOXBLUR_FAULT");
    gst_harness_teardown (h);
  }
  g_free (why);
}

GST_END_TEST;

/* 200 NULL -> PLAYING -> NULL cycles of 8 instances at once: no file
 * descriptor growth (the OpenCL contexts, queues and programs of each
 * start are released by each stop; valgrind covers the memory). */
GST_START_TEST (test_lifecycle)
{
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  guint i, fds = 0;

  pipe = gst_parse_launch ("videotestsrc num-buffers=3 "
      "! video/x-raw,format=RGBA,width=64,height=48 ! clboxblur "
      "! clboxblur method=separable ! clboxblur method=bilateral radius=2 "
      "! clboxblur radius=0 ! clboxblur border=reflect passes=2 "
      "! clboxblur region-x=3 region-invert=true ! clboxblur radius-y=7 "
      "! clboxblur method=sat ! fakesink", NULL);
  fail_unless (pipe != NULL);
  bus = gst_element_get_bus (pipe);
  for (i = 0; i < 200; i++) {
    /* after the first cycle (drivers open what they keep), no growth */
    if (i == 1)
      fds = count_fds ();
    fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL);
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
    gst_message_unref (msg);
    fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  fail_unless_equals_int (count_fds (), fds);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* A buffer smaller than the caps say is dropped with a warning, nothing
 * is pushed for it (GstVideoFilter alone would push its output buffer
 * unwritten), and the next good buffer goes through. */
GST_START_TEST (test_undersized_buffer)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "RGBA", 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 100, NULL)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the undersized buffer");
  gst_message_unref (msg);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);

  /* Found by the fuzzer: a buffer whose GstVideoMeta planes run past its
   * end (gst_video_frame_map only checks the plane offsets). */
  {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 210, 295 };
    gint stride[GST_VIDEO_MAX_PLANES] = { 21, 17, 17 };
    GstBuffer *buf;

    set_format (h, &info, "YV12", 12, 10);
    buf = gst_buffer_new_allocate (NULL, 296, NULL);
    gst_buffer_memset (buf, 0, 0x55, 296);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_YV12, 12, 10, 3, offset, stride);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL);
    gst_message_unref (msg);
    push_and_check (h, &info, 9, 2, -1, REF_BORDER_REFLECT);
  }

  /* Found by the fuzzer: caps negotiated in passthrough (radius 0, so no
   * output pool), then a radius and a 0-byte buffer: GstVideoFilter would
   * assert in transform_size. Dropped instead. */
  g_object_set (h->element, "radius", 0, "radius-y", -1, NULL);
  set_format (h, &info, "RGBA", 4, 4);
  g_object_set (h->element, "radius", 3, NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new ()),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 8K frames through every box method and passes=3, compared in full. */
GST_START_TEST (test_big_frames)
{
  static const struct
  {
    const gchar *format;
    Method method;
    guint passes;
  } cases[] = {
    {"GRAY8", METHOD_SAT, 1}, {"GRAY8", METHOD_SEPARABLE, 1},
    {"GRAY8", METHOD_SAT, 3}, {"RGBA", METHOD_SAT, 1},
    {"RGBA", METHOD_SEPARABLE, 1},
  };
  GstHarness *h = gst_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint i;

  s.rx = 9;
  s.ry = 5;
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    set_format (h, &info, cases[i].format, 7680, 4320);
    s.method = cases[i].method;
    s.passes = cases[i].passes;
    s.border = borders[i % G_N_ELEMENTS (borders)];
    push_settings_and_check (h, &info, 0, &s);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 16384x16384 GRAY8 through sat: the table wraps modulo 2^32 many times
 * over (the frame sums to about 3.4e10); and through separable once.
 * Checked on the four corners, stripes along every edge and through the
 * middle, and random pixels, each against a brute-force window sum. A
 * device whose largest allocation is under the table's 1 GiB gets the
 * largest square it takes, and the test says so and how often its table
 * wraps (past a side of about 5800). */
GST_START_TEST (test_huge_frame)
{
  guint64 max_alloc = clcheck_default_device_ulong
      (CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  /* even: the frame is filled 4 bytes at a time */
  const gint n = MIN (16384, (gint) sqrt ((gdouble) max_alloc / 4)) & ~1;
  GstHarness *h = gst_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMapInfo mi, mo;
  GRand *rand = g_rand_new_with_seed (16384);
  guint m, b, k, bad = 0, checked = 0;
  gint x, y;

  if (n < 16384)
    g_print ("test_huge_frame: %dx%d, not 16384x16384: the device allows "
        "%" G_GUINT64_FORMAT " bytes in one allocation, the table takes 4 a "
        "pixel; it wraps about %.1f times\n", n, n, max_alloc,
        (gdouble) n * n * 127.5 / 4294967296.0);
  set_format (h, &info, "GRAY8", n, n);
  in = gst_buffer_new_allocate (NULL, (gsize) n * n, NULL);
  fail_unless (gst_buffer_map (in, &mi, GST_MAP_WRITE));
  for (k = 0; k < (guint) n * n / 4; k++)
    ((guint32 *) mi.data)[k] = g_rand_int (rand);
  gst_buffer_unmap (in, &mi);

  /* the table with every border, then separable once */
  for (m = 0; m <= G_N_ELEMENTS (borders); m++) {
    b = MIN (m, G_N_ELEMENTS (borders) - 1);
    g_object_set (h->element, "radius", 6, "radius-y", 3, "border",
        borders[b], NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "method",
        m < G_N_ELEMENTS (borders) ? "sat" : "separable");
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (gst_buffer_map (in, &mi, GST_MAP_READ));
    fail_unless (gst_buffer_map (out, &mo, GST_MAP_READ));
#define CHECK_AT(px, py) G_STMT_START { \
      guint16 r_ = ref_box_pixel (mi.data, n, n, n, 1, (px), (py), 0, 6, 3, \
          borders[b]); \
      checked++; \
      if (mo.data[(gsize) (py) * n + (px)] != r_ && bad++ < 5) \
        GST_ERROR ("(%d, %d) %s border %s: %u, reference %u", (px), (py), \
            m < G_N_ELEMENTS (borders) ? "sat" : "separable", \
            border_nicks[b], mo.data[(gsize) (py) * n + (px)], r_); \
    } G_STMT_END
    for (y = 0; y < 12; y++)
      for (x = 0; x < n; x++) {
        CHECK_AT (x, y);
        CHECK_AT (x, n - 1 - y);
        CHECK_AT (y, x);
        CHECK_AT (n - 1 - y, x);
      }
    for (x = 0; x < n; x++)
      CHECK_AT (x, n / 2);
    for (k = 0; k < 100000; k++) {
      gint rx_ = g_rand_int_range (rand, 0, n);
      gint ry_ = g_rand_int_range (rand, 0, n);

      CHECK_AT (rx_, ry_);
    }
#undef CHECK_AT
    gst_buffer_unmap (in, &mi);
    gst_buffer_unmap (out, &mo);
    gst_buffer_unref (out);
  }
  fail_unless (bad == 0, "%u of %u pixels differ from the reference", bad,
      checked);
  g_rand_free (rand);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pops the element error from @bus: RESOURCE/NO_SPACE_LEFT whose debug
 * text contains @debug_has. */
static void
expect_no_space_left (GstBus * bus, const gchar * debug_has)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s", err->message);
  fail_unless (strstr (debug, debug_has) != NULL, "'%s' not in '%s'",
      debug_has, debug);
  GST_INFO ("%s / %s", err->message, debug);
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);
}

/* A frame whose summed-area table is larger than the device can allocate
 * (RGBA64: 32 bytes of 64-bit sums a pixel, the side chosen from the
 * device's limit, which PoCL derives from the machine's free memory, e.g.
 * 2 or 4 GiB): an element error naming the limit, no buffer out; the
 * separable method, which needs half that, still runs that size. Where
 * GStreamer takes no frame that large (an H100 allows 21 GB, a frame is
 * under 4 GiB), that is said and the rest is checked on its own: the
 * runtime refuses a buffer one byte over the limit, and the element turns
 * a failed allocation of the table into the same error and works on. */
GST_START_TEST (test_frame_too_large)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  guint64 max_alloc = 0;
  gint side;
  GstVideoInfo info;
  GstHarness *h = gst_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  Settings s = default_settings;
  GError *err = NULL;
  GstBuffer *buf;

  fail_unless_equals_int (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (max_alloc), &max_alloc,
          NULL), CL_SUCCESS);
  side = (gint) MIN (ceil (sqrt ((gdouble) max_alloc / 32.0 * 1.02)),
      G_MAXINT / 8);

  /* The runtime's own check, one byte over the device's limit. */
  fail_if (clb_runtime_create_buffer (rt, CL_MEM_READ_WRITE,
          (gsize) max_alloc + 1, &err));
  fail_unless (g_error_matches (err, CLB_RUNTIME_ERROR,
          CLB_RUNTIME_ERROR_NO_MEMORY), "%s", err->message);
  fail_unless (strstr (err->message, "exceeds the largest allocation")
      != NULL, "%s", err->message);
  g_clear_error (&err);
  clb_runtime_free (rt);

  gst_element_set_bus (h->element, bus);
  s.method = METHOD_SAT;

  /* A failed allocation of the table (injected): the same element error,
   * no buffer out, and the element goes on with the same frame size. */
  set_format (h, &info, "RGBA64_LE", 67, 45);
  apply_settings (h, &s);
  g_setenv ("CLBOXBLUR_FAULT", "clCreateBuffer:-4", TRUE);
  fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, 1)),
      GST_FLOW_ERROR);
  g_unsetenv ("CLBOXBLUR_FAULT");
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  expect_no_space_left (bus, "clCreateBuffer");
  s.method = METHOD_SEPARABLE;
  push_settings_and_check (h, &info, 0, &s);
  s.method = METHOD_SAT;
  push_settings_and_check (h, &info, 0, &s);

  GST_INFO ("largest allocation %" G_GUINT64_FORMAT " bytes: %dx%d RGBA64",
      max_alloc, side, side);
  if (!gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA64_LE, side,
          side)) {
    g_print ("test_frame_too_large: a real table over the limit does not "
        "apply: the device allows %" G_GUINT64_FORMAT " bytes in one "
        "allocation, and GStreamer takes no %dx%d RGBA64 frame, the "
        "smallest whose table exceeds that; the runtime's check and the "
        "element's error were checked without it\n", max_alloc, side, side);
    goto done;
  }
  /* The table of a real frame over the device's limit. */
  gst_util_set_object_arg (G_OBJECT (h->element), "method", "sat");
  set_format (h, &info, "RGBA64_LE", side, side);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buf, 0, 0x40, GST_VIDEO_INFO_SIZE (&info));
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buf)),
      GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  expect_no_space_left (bus, "exceeds the largest allocation");

  gst_util_set_object_arg (G_OBJECT (h->element), "method", "separable");
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  gst_buffer_unref (gst_harness_pull (h));

done:
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
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
  GstHarness *h = gst_harness_new ("clboxblur");
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
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Sizes from 1x1 to 1080p, radii 1, 4, 31 and one larger than the frame,
 * both box methods. */
GST_START_TEST (test_sizes_and_radii)
{
  GstHarness *h = gst_harness_new ("clboxblur");
  static const gint sizes[][2] = {
    {1, 1}, {2, 3}, {17, 9}, {385, 289}, {1920, 1080}
  };
  static const gchar *formats[] = { "RGBA", "GRAY8", "RGB" };
  GstVideoInfo info;
  guint f, s, b, r, m;

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
          for (m = METHOD_SAT; m <= METHOD_SEPARABLE; m++) {
            Settings st = default_settings;

            st.method = m;
            st.rx = st.ry = radii[r];
            st.border = borders[b];
            push_settings_and_check (h, &info, 0, &st);
          }
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

/* CPUs run separable 8-bit frames straight from the input buffer into the
 * output one (CL_MEM_USE_HOST_PTR); the copy path they take elsewhere
 * (CLBOXBLUR_ZERO_COPY=0, and every device not of the CPU class) gives the
 * same pixels. */
GST_START_TEST (test_copy_path)
{
  static const gint sizes[][2] = { {1, 1}, {97, 61}, {385, 289} };
  static const guint radii[] = { 2, 31, 200 };
  GstHarness *h;
  GstVideoInfo info;
  Settings s = default_settings;
  guint f, z, r, b;

  s.method = METHOD_SEPARABLE;
  g_setenv (CLB_ZERO_COPY_ENV, "0", TRUE);
  h = gst_harness_new ("clboxblur");
  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    if (f > 0 && g_str_has_prefix (all_formats[f], "GRAY16"))
      break;                    /* the 8-bit formats come first */
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, all_formats[f], sizes[z][0], sizes[z][1]);
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (b = 0; b < G_N_ELEMENTS (borders); b++) {
          s.rx = s.ry = radii[r];
          s.border = borders[b];
          push_settings_and_check (h, &info, z, &s);
        }
    }
  }
  gst_harness_teardown (h);
  g_unsetenv (CLB_ZERO_COPY_ENV);
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
  static const gchar *refused[] = { "RGB16", "v210", "NV16", "GBR", "Y41B" };
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

GST_START_TEST (test_property_specs)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  static const gchar *effect[] = {
    "radius", "radius-y", "method", "border", "passes", "sigma-spatial",
    "sigma-range", "preserve-alpha", "region-x", "region-y",
    "region-width", "region-height", "region-invert", "roi-padding"
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

/* Device properties that match no device on this machine: a device type
 * that no platform has, a device index past every platform's devices, a
 * platform index past the platforms. */
GST_START_TEST (test_no_such_device)
{
  static const struct
  {
    const gchar *nick;
    cl_device_type type;
  } types[] = {
    {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}, {"gpu", CL_DEVICE_TYPE_GPU},
    {"cpu", CL_DEVICE_TYPE_CPU},
  };
  cl_platform_id platforms[64];
  cl_uint n_platforms = 0, most_devices = 0, p;
  const gchar *absent_type = NULL;
  gchar *settings[3][2];
  guint i;

  fail_unless_equals_int (clGetPlatformIDs (G_N_ELEMENTS (platforms),
          platforms, &n_platforms), CL_SUCCESS);
  n_platforms = MIN (n_platforms, G_N_ELEMENTS (platforms));
  for (i = 0; i < G_N_ELEMENTS (types) && absent_type == NULL; i++) {
    cl_uint found = 0;

    for (p = 0; p < n_platforms; p++) {
      cl_uint n = 0;

      if (clGetDeviceIDs (platforms[p], types[i].type, 0, NULL, &n) ==
          CL_SUCCESS)
        found += n;
    }
    if (found == 0)
      absent_type = types[i].nick;
  }
  for (p = 0; p < n_platforms; p++) {
    cl_uint n = 0;

    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n) ==
        CL_SUCCESS)
      most_devices = MAX (most_devices, n);
  }

  settings[0][0] = g_strdup ("device-type");
  settings[0][1] = g_strdup (absent_type);
  settings[1][0] = g_strdup ("device-index");
  settings[1][1] = g_strdup_printf ("%u", most_devices);
  settings[2][0] = g_strdup ("platform-index");
  settings[2][1] = g_strdup_printf ("%u", n_platforms);
  if (absent_type == NULL)
    g_print ("test_no_such_device: device-type does not apply: this machine "
        "has accelerator, GPU and CPU devices, so every type matches one\n");

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    GstElement *e;
    GError *err;
    gchar *debug = NULL;

    if (settings[i][1] == NULL)
      continue;
    e = gst_element_factory_make ("clboxblur", NULL);
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
  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    g_free (settings[i][0]);
    g_free (settings[i][1]);
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

  GDir *kernels = g_dir_open (KERNELS_SRCDIR, 0, NULL);
  const gchar *name;

  /* The real sources, with sat.cl replaced by a broken one. */
  fail_unless (kernels != NULL);
  while ((name = g_dir_read_name (kernels))) {
    gchar *from = g_build_filename (KERNELS_SRCDIR, name, NULL);
    gchar *to = g_build_filename (dir, name, NULL);
    gchar *text = NULL;
    gsize len = 0;

    if (g_str_has_suffix (name, ".cl")) {
      fail_unless (g_file_get_contents (from, &text, &len, NULL));
      fail_unless (g_file_set_contents (to, text, len, NULL));
    }
    g_free (text);
    g_free (from);
    g_free (to);
  }
  g_dir_close (kernels);
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
  {
    GDir *d = g_dir_open (dir, 0, NULL);
    const gchar *f;

    while ((f = g_dir_read_name (d))) {
      gchar *fp = g_build_filename (dir, f, NULL);
      g_unlink (fp);
      g_free (fp);
    }
    g_dir_close (d);
  }
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
  Settings s = default_settings;
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
    s.rx = s.ry = 15;
    check_frame (&info, gst_sample_get_buffer (si),
        gst_sample_get_buffer (so), &s);
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
  tcase_add_test (tc, test_refused_caps);
  tcase_add_test (tc, test_no_such_device);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_kernel_path_from_disk);
  tcase_add_test (tc, test_radius_zero_identical);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_copy_path);
  tcase_add_test (tc, test_methods_formats);
  tcase_add_test (tc, test_flat_frame);
  tcase_add_test (tc, test_step_edge);
  tcase_add_test (tc, test_passes);
  tcase_add_test (tc, test_radius_beyond_frame);
  tcase_add_test (tc, test_preserve_alpha);
  tcase_add_test (tc, test_bilateral_large_radius);
  tcase_add_test (tc, test_bad_stride);
  tcase_add_test (tc, test_fault_injection);
  tcase_add_test (tc, test_lifecycle);
  tcase_add_test (tc, test_undersized_buffer);
  tcase_add_test (tc, test_frame_too_large);
  tcase_add_test (tc, test_property_storm);
  tcase_add_test (tc, test_big_frames);
  tcase_add_test (tc, test_huge_frame);
  tcase_add_test (tc, test_region);
  tcase_add_test (tc, test_roi_meta);
  tcase_add_test (tc, test_controller_ramp);
  tcase_add_test (tc, test_qos);
  tcase_add_test (tc, test_live_300_frames);
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
