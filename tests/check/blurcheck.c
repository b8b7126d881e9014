/* Helpers shared by the clboxblur element tests (see blurcheck.h).
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "blurcheck.h"

/* The lists, and a check that their lengths are those blurcheck.h gives
 * (a shorter list would otherwise end in NULLs). */
#define PACKED_FORMATS \
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB", \
  "BGR", "GRAY8"
#define ALL_FORMATS PACKED_FORMATS, \
  "I420", "YV12", "Y42B", "Y444", "NV12", "NV21", "A420", "AYUV", "YUY2", \
  "UYVY", "GRAY16_LE", "GRAY16_BE", "RGBA64_LE", "P010_10LE", "I420_10LE", \
  "I422_10LE", "Y444_10LE"

const gchar *packed_formats[] = { PACKED_FORMATS };
G_STATIC_ASSERT (G_N_ELEMENTS (((const gchar *[]) { PACKED_FORMATS })) ==
    BLURCHECK_N_PACKED_FORMATS);

/* Every format the element takes. */
const gchar *all_formats[] = { ALL_FORMATS };
G_STATIC_ASSERT (G_N_ELEMENTS (((const gchar *[]) { ALL_FORMATS })) ==
    BLURCHECK_N_ALL_FORMATS);

const RefBorder borders[] = {
  REF_BORDER_SHRINK, REF_BORDER_REPLICATE, REF_BORDER_REFLECT,
};

const gchar *border_nicks[] = { "shrink", "replicate", "reflect" };

const gchar *method_nicks[] = { "sat", "separable", "bilateral", "mosaic",
  "fill"
};

const Settings default_settings = {
  METHOD_SAT, REF_BORDER_SHRINK, 4, 4, 1, 3.0, 30.0, FALSE, FALSE, FALSE, 0,
  {{0}}, -1, -1, 0.0, 0, {0}, 16, 0xff000000u, 0.0, FALSE, {0},
  REF_SHAPE_RECTANGLE, 0
};

/* Whether frame pixel (px, py) is inside a rect of held frame @f. */
static gboolean
in_frame_rects (const Settings * s, guint f, gint px, gint py)
{
  guint i;

  for (i = 0; i < s->n_rects; i++) {
    if (s->rect_frame[i] != f)
      continue;
    if (px >= s->rects[i][0] && (gint64) px < (gint64) s->rects[i][0]
        + s->rects[i][2] && py >= s->rects[i][1]
        && (gint64) py < (gint64) s->rects[i][1] + s->rects[i][3])
      return TRUE;
  }
  return FALSE;
}

/* Whether frame pixel (px, py) is in the held set: inside a rect of some
 * held frame, or with invert of every one. */
static gboolean
in_held_set (const Settings * s, gint px, gint py)
{
  guint f, n_frames = MAX (s->n_frames, 1);

  for (f = 0; f < n_frames; f++) {
    gboolean in = in_frame_rects (s, f, px, py);

    if (in && !s->invert)
      return TRUE;
    if (!in && s->invert)
      return FALSE;
  }
  return s->invert;
}

/* Whether sample (x, y) of a group subsampled by (xs, ys) is filtered
 * under held frames: it is inside when one of the frame's pixels under its
 * footprint, [x << xs, (x + 1) << xs) x [y << ys, (y + 1) << ys), is in
 * the held set; filtered when inside, or with invert when not. */
static gboolean
held_selected (const Settings * s, const GstVideoInfo * info, gint x, gint y,
    guint xs, guint ys)
{
  gint fw = GST_VIDEO_INFO_WIDTH (info), fh = GST_VIDEO_INFO_HEIGHT (info);
  gboolean inside = FALSE;
  gint px, py;

  for (py = y << ys; py < ((y + 1) << ys) && py < fh && !inside; py++)
    for (px = x << xs; px < ((x + 1) << xs) && px < fw && !inside; px++)
      inside = in_held_set (s, px, py);
  return inside != s->invert;
}

/* The weight of the filtered value of sample (x, y) of a group subsampled
 * by (xs, ys): the reference's, from the regions' shape and feather (held
 * frames: the union is all their rects; with invert, the intersection of
 * their rectangles, held_selected). */
guint
region_weight (const Settings * s, const GstVideoInfo * info, gint x, gint y,
    guint xs, guint ys)
{
  if (!s->use_rects)
    return s->feather + 1;
  if (s->n_frames > 1 && s->invert)
    /* held frames with region-invert: the intersection (rectangles) */
    return held_selected (s, info, x, y, xs, ys) ? s->feather + 1 : 0;
  return ref_region_weight (s->shape, s->feather, s->invert,
      (const int (*)[4]) s->rects, s->n_rects, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), xs, ys, x, y);
}

/* Whether sample (x, y) of a group subsampled by (xs, ys) is filtered: it
 * is inside when one of the frame's pixels under its footprint,
 * [x << xs, (x + 1) << xs) x [y << ys, (y + 1) << ys), is in the held set
 * (one frame: inside a rect); filtered when inside, or with invert when
 * not. */
gboolean
selected (const Settings * s, const GstVideoInfo * info, gint x, gint y,
    guint xs, guint ys)
{
  return region_weight (s, info, x, y, xs, ys) > 0;
}

static gboolean
is_alpha (const GstVideoInfo * info, guint c)
{
  return GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A;
}

static gboolean
is_chroma (const GstVideoInfo * info, guint c)
{
  return GST_VIDEO_INFO_IS_YUV (info) && (c == GST_VIDEO_COMP_U
      || c == GST_VIDEO_COMP_V);
}

guint
make_groups_with (const GstVideoInfo * info, const Settings * s,
    Group * groups)
{
  guint n = 0, c, g;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    Group *to = NULL;
    gint own = -1;

    if (is_alpha (info, c)) {
      if (s->preserve_alpha || s->alpha_radius == 0)
        continue;
      own = s->alpha_radius;
    } else if (is_chroma (info, c)) {
      if (s->chroma_radius == 0)
        continue;
      own = s->chroma_radius;
    }
    for (g = 0; g < n; g++) {
      if (groups[g].plane == GST_VIDEO_INFO_COMP_PLANE (info, c)
          && groups[g].width == GST_VIDEO_INFO_COMP_WIDTH (info, c)
          && groups[g].height == GST_VIDEO_INFO_COMP_HEIGHT (info, c)
          && groups[g].pstride == GST_VIDEO_INFO_COMP_PSTRIDE (info, c)
          && groups[g].own_radius == own)
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
      to->own_radius = own;
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

guint
make_groups (const GstVideoInfo * info, gboolean preserve_alpha,
    Group * groups)
{
  Settings s = default_settings;

  s.preserve_alpha = preserve_alpha;
  return make_groups_with (info, &s, groups);
}

/* Box widths: wl the odd integer at or below the ideal width, wu = wl + 2,
 * m of the n passes wl wide. */
void
gaussian_box_radii (gdouble sigma, guint n, guint * radii)
{
  gdouble ideal = sqrt (12.0 * sigma * sigma / n + 1.0);
  gint wl = (gint) floor (ideal), wu, m;
  guint i;

  if (wl % 2 == 0)
    wl -= 1;
  wu = wl + 2;
  m = (gint) round ((12.0 * sigma * sigma - n * wl * wl - 4.0 * n * wl -
          3.0 * n) / (-4.0 * wl - 4.0));
  for (i = 0; i < n; i++)
    radii[i] = ((gint) i < m ? wl - 1 : wu - 1) / 2;
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

guint
read_sample (const GstVideoInfo * info, const guint8 * p)
{
  guint v = p[0];

  if (sample_bytes (info) == 2)
    v = GST_VIDEO_FORMAT_INFO_IS_LE (info->finfo) ? (guint) (p[0] | p[1] << 8)
        : (guint) (p[0] << 8 | p[1]);
  return v >> GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
}

void
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

guint8 *
sample_ptr (const GstVideoFrame * f, const Group * g, gint x, gint y, gint c)
{
  return (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, g->plane)
      + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (f, g->plane)
      + (gsize) x * g->pstride + g->offset[c];
}

guint16 *
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
GstBuffer *
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

GstBuffer *
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

/* The element's documented bilateral window (docs/clboxblur.md,
 * sigma-spatial): @r (in a plane's pixels) cut to 63, and to ceil (3
 * @sigma_spatial) where that is not 0. */
guint
bilateral_radius (guint r, gdouble sigma_spatial)
{
  guint bound = 63;

  if (sigma_spatial > 0.0 && ceil (3.0 * sigma_spatial) < bound)
    bound = (guint) ceil (3.0 * sigma_spatial);
  return r < bound ? r : bound;
}

guint
strength_radius (gdouble k, gint width, gint height)
{
  /* 1, 2, 3, 4, 6, 8, 12, ..., 1536, then the largest radius */
  static const guint steps[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
    96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2047
  };
  gint side = MIN (width, height);
  gdouble want;
  guint i;

  if (k <= 0 || side <= 0)
    return 0;
  want = ceil (k * side - 1e-9);
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] >= want)
      return steps[i];
  return 2047;
}

/* The strength radius of rect @i: its size clipped to the frame. */
static guint
rect_strength (const Settings * s, const GstVideoInfo * info, guint i)
{
  gint64 fw = GST_VIDEO_INFO_WIDTH (info), fh = GST_VIDEO_INFO_HEIGHT (info);
  gint64 x0 = CLAMP ((gint64) s->rects[i][0], 0, fw);
  gint64 y0 = CLAMP ((gint64) s->rects[i][1], 0, fh);
  gint64 x1 = CLAMP ((gint64) s->rects[i][0] + s->rects[i][2], 0, fw);
  gint64 y1 = CLAMP ((gint64) s->rects[i][1] + s->rects[i][3], 0, fh);

  if (s->rect_strength_given)
    return s->rect_strength[i];
  return strength_radius (s->strength, x1 - x0, y1 - y0);
}

/* The largest strength radius of the regions sample (x, y) of a group
 * subsampled by (xs, ys) is inside (a pixel of its footprint inside the
 * region's shape), or -1 when it is inside none. */
static gint
sample_strength (const Settings * s, const GstVideoInfo * info, gint x,
    gint y, guint xs, guint ys)
{
  gint fw = GST_VIDEO_INFO_WIDTH (info), fh = GST_VIDEO_INFO_HEIGHT (info);
  gint best = -1, px, py;
  guint i;

  for (i = 0; i < s->n_rects; i++) {
    gboolean inside = FALSE;

    for (py = y << ys; py < ((y + 1) << ys) && py < fh && !inside; py++)
      for (px = x << xs; px < ((x + 1) << xs) && px < fw && !inside; px++)
        inside = ref_region_holds (s->shape, s->rects[i][0], s->rects[i][1],
            s->rects[i][2], s->rects[i][3], px, py, 0);
    if (inside)
      best = MAX (best, (gint) rect_strength (s, info, i));
  }
  return best;
}

/* The whole group @gr of @src filtered under @s with every radius raised
 * to at least @strength (full-resolution pixels), into @ref. */
static void
reference_group (const Settings * s, const Group * gr, guint max,
    const guint16 * src, guint strength, guint16 * ref)
{
  gsize total = (gsize) gr->width * gr->height * gr->channels;
  guint rx = scaled_radius (MAX (s->rx, strength), gr->x_sub);
  guint ry = scaled_radius (MAX (s->ry, strength), gr->y_sub);
  guint pass_radii[3];

  if (gr->own_radius >= 0)
    rx = ry = gr->own_radius;

  if (s->method == METHOD_MOSAIC) {
    /* the block side raised to the strength, made even, at most 256 */
    guint block = strength % 2 ? strength + 1 : strength;

    block = MAX (s->block_size, MIN (block, 256));
    fail_unless_equals_int (ref_mosaic (src, ref, gr->width, gr->height,
            gr->channels, MAX (block >> gr->x_sub, 1),
            MAX (block >> gr->y_sub, 1)), 0);
  } else if (s->method == METHOD_BILATERAL) {
    rx = bilateral_radius (rx, s->sigma_spatial);
    ry = bilateral_radius (ry, s->sigma_spatial);
    fail_unless_equals_int (ref_bilateral (src, ref, gr->width, gr->height,
            gr->channels, rx, ry, s->border, s->sigma_spatial,
            s->sigma_range, gr->dist_mask, max), 0);
  } else if (s->sigma > 0) {
    /* three passes, each of its own radii, each on the last's output */
    guint16 *tmp = g_memdup2 (src, total * sizeof (guint16));
    guint k;

    gaussian_box_radii (s->sigma, 3, pass_radii);
    for (k = 0; k < 3; k++) {
      rx = gr->own_radius >= 0 ? (guint) gr->own_radius :
          scaled_radius (MAX (pass_radii[k], strength), gr->x_sub);
      ry = gr->own_radius >= 0 ? (guint) gr->own_radius :
          scaled_radius (MAX (pass_radii[k], strength), gr->y_sub);
      fail_unless_equals_int (ref_box_blur (tmp, ref, gr->width,
              gr->height, gr->channels, rx, ry, s->border, 1), 0);
      memcpy (tmp, ref, total * sizeof (guint16));
    }
    g_free (tmp);
  } else {
    fail_unless_equals_int (ref_box_blur (src, ref, gr->width, gr->height,
            gr->channels, rx, ry, s->border, s->passes), 0);
  }
}

/* With roi-strength: every sample of @gr inside some rect takes the whole
 * group filtered at the largest strength of those rects (one reference
 * per strength met), the others their input. */
static void
reference_strength (const Settings * s, const GstVideoInfo * info,
    const Group * gr, guint max, const guint16 * src, guint16 * ref)
{
  gsize total = (gsize) gr->width * gr->height * gr->channels, i;
  GHashTable *done = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (i = 0; i < total; i++) {
    gint px = (i / gr->channels) % gr->width;
    gint py = i / gr->channels / gr->width;
    gint st = sample_strength (s, info, px, py, gr->x_sub, gr->y_sub);
    guint16 *whole;

    if (st < 0) {
      ref[i] = src[i];
      continue;
    }
    whole = g_hash_table_lookup (done, GINT_TO_POINTER (st + 1));
    if (whole == NULL) {
      whole = g_new (guint16, total);
      reference_group (s, gr, max, src, st, whole);
      g_hash_table_insert (done, GINT_TO_POINTER (st + 1), whole);
    }
    ref[i] = whole[i];
  }
  g_hash_table_unref (done);
}

/* Checks @out against the reference applied to @in under @s: every group's
 * samples (exact for box methods, within BILATERAL_TOLERANCE for bilateral)
 * and every byte no group covers (alpha with preserve-alpha, the x of RGBx)
 * unchanged. */
guint
fill_reference (const GstVideoInfo * info, guint comp, guint32 argb)
{
  static const struct
  {
    GstVideoColorMatrix matrix;
    gdouble kr, kb;
  } k[] = {
    {GST_VIDEO_COLOR_MATRIX_BT601, 0.299, 0.114},
    {GST_VIDEO_COLOR_MATRIX_BT709, 0.2126, 0.0722},
    {GST_VIDEO_COLOR_MATRIX_BT2020, 0.2627, 0.0593},
    {GST_VIDEO_COLOR_MATRIX_FCC, 0.30, 0.11},
    {GST_VIDEO_COLOR_MATRIX_SMPTE240M, 0.212, 0.087},
  };
  guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0), max = (1u << depth) - 1;
  guint a = argb >> 24, r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff;
  guint b = argb & 0xff, i;
  gdouble kr = 0.299, kb = 0.114;
  gint yuv[3];

  if (GST_VIDEO_INFO_HAS_ALPHA (info) && comp == GST_VIDEO_COMP_A)
    return (a * max + 127) / 255;
  if (GST_VIDEO_INFO_IS_RGB (info))
    return ((comp == GST_VIDEO_COMP_R ? r : comp == GST_VIDEO_COMP_G ? g : b)
        * max + 127) / 255;
  for (i = 0; i < G_N_ELEMENTS (k); i++) {
    if (k[i].matrix == info->colorimetry.matrix) {
      kr = k[i].kr;
      kb = k[i].kb;
    }
  }
  ref_rgb_to_yuv (r, g, b, kr, kb, depth,
      info->colorimetry.range != GST_VIDEO_COLOR_RANGE_16_235, yuv);
  return yuv[comp == GST_VIDEO_COMP_Y ? 0 : comp == GST_VIDEO_COMP_U ? 1 : 2];
}

void
check_frame (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const Settings * settings)
{
  Settings mosaic = *settings;
  const Settings *s = settings;
  GstVideoFrame fin, fout;
  Group groups[GST_VIDEO_MAX_COMPONENTS];
  guint max = (1u << GST_VIDEO_INFO_COMP_DEPTH (info, 0)) - 1;
  guint n, g, p, pass_radii[3];
  gboolean gaussian;

  fail_unless (gst_video_frame_map (&fin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fout, info, out, GST_MAP_READ));
  if (s->method == METHOD_MOSAIC || s->method == METHOD_FILL) {
    /* every component; alpha kept as documented */
    mosaic.chroma_radius = -1;
    mosaic.preserve_alpha = s->preserve_alpha || s->alpha_radius == 0;
    mosaic.alpha_radius = -1;
    s = &mosaic;
  }
  if (s->strength > 0 && s->use_rects && !s->invert
      && s->method != METHOD_FILL && s->feather > 0) {
    /* regions at a strength of their own take hard edges (the element
     * warns) */
    if (s != &mosaic)
      mosaic = *s;
    mosaic.feather = 0;
    s = &mosaic;
  }
  n = make_groups_with (info, s, groups);
  gaussian = s->sigma > 0 && s->method != METHOD_BILATERAL;
  if (gaussian)
    gaussian_box_radii (s->sigma, 3, pass_radii);

  for (g = 0; g < n; g++) {
    const Group *gr = &groups[g];
    guint rx = scaled_radius (s->rx, gr->x_sub);
    guint ry = scaled_radius (s->ry, gr->y_sub);
    guint16 *src = extract (&fin, gr);
    guint16 *got = extract (&fout, gr);
    guint16 *ref = g_new (guint16, (gsize) gr->width * gr->height *
        gr->channels);
    gint tol = s->method == METHOD_BILATERAL ? BILATERAL_TOLERANCE : 0;
    guint w;
    gsize i, total = (gsize) gr->width * gr->height * gr->channels;

    if (gr->own_radius >= 0)
      rx = ry = gr->own_radius;

    if (s->strength > 0 && s->use_rects && !s->invert
        && s->method != METHOD_FILL) {
      reference_strength (s, info, gr, max, src, ref);
    } else if (s->method == METHOD_MOSAIC) {
      rx = MAX (s->block_size >> gr->x_sub, 1);
      ry = MAX (s->block_size >> gr->y_sub, 1);
      fail_unless_equals_int (ref_mosaic (src, ref, gr->width, gr->height,
              gr->channels, rx, ry), 0);
    } else if (s->method == METHOD_FILL) {
      for (i = 0; i < total; i++)
        ref[i] = fill_reference (info, gr->comp[i % gr->channels],
            s->fill_color);
    } else if (s->method == METHOD_BILATERAL) {
      rx = bilateral_radius (rx, s->sigma_spatial);
      ry = bilateral_radius (ry, s->sigma_spatial);
      fail_unless_equals_int (ref_bilateral (src, ref, gr->width, gr->height,
              gr->channels, rx, ry, s->border, s->sigma_spatial,
              s->sigma_range, gr->dist_mask, max), 0);
    } else if (gaussian) {
      /* three passes, each of its own radii, each on the last's output */
      guint16 *tmp = g_memdup2 (src, total * sizeof (guint16));
      guint k;

      for (k = 0; k < 3; k++) {
        rx = gr->own_radius >= 0 ? (guint) gr->own_radius :
            scaled_radius (pass_radii[k], gr->x_sub);
        ry = gr->own_radius >= 0 ? (guint) gr->own_radius :
            scaled_radius (pass_radii[k], gr->y_sub);
        fail_unless_equals_int (ref_box_blur (tmp, ref, gr->width,
                gr->height, gr->channels, rx, ry, s->border, 1), 0);
        memcpy (tmp, ref, total * sizeof (guint16));
      }
      g_free (tmp);
    } else {
      fail_unless_equals_int (ref_box_blur (src, ref, gr->width, gr->height,
              gr->channels, rx, ry, s->border, s->passes), 0);
    }

    /* Samples outside the regions keep their input value, exactly; those
     * in a feather take the blend of both. */
    for (i = 0, w = 0; i < total; i++) {
      gint px = (i / gr->channels) % gr->width;
      gint py = i / gr->channels / gr->width;

      if (i % gr->channels == 0)
        w = region_weight (s, info, px, py, gr->x_sub, gr->y_sub);

      if (w > 0 && w <= s->feather)
        ref[i] = ref_blend (w, s->feather + 1, ref[i], src[i]);
      if (w == 0) {
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

        fail ("%s %dx%d %s rx=%u ry=%u passes=%u sigma=%g chroma-radius=%d "
            "alpha-radius=%d border=%s strength=%g: component %u (%d, %d) of "
            "%dx%d is %u, reference %u (tolerance %d)",
            GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), method_nicks[s->method], rx, ry,
            s->passes, s->sigma, s->chroma_radius, s->alpha_radius,
            border_nicks[s->border], s->strength,
            gr->comp[c], x, y, gr->width, gr->height, got[i], ref[i], tol);
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

void
apply_settings (GstHarness * h, const Settings * s)
{
  g_object_set (h->element, "radius", s->rx, "radius-y", (gint) s->ry,
      "border", s->border, "passes", s->passes, "sigma-spatial",
      s->sigma_spatial, "sigma-range", s->sigma_range, "preserve-alpha",
      s->preserve_alpha, "chroma-radius", s->chroma_radius, "alpha-radius",
      s->alpha_radius, "sigma", s->sigma, "block-size", s->block_size,
      "fill-color", s->fill_color, "roi-strength", s->strength,
      "region-shape", s->shape, "region-feather", s->feather, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "method",
      method_nicks[s->method]);
}

void
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
void
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

void
push_settings_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    const Settings * s)
{
  push_buffer_and_check (h, info, make_frame (info, pad, s->rx * 7919 +
          s->border * 31 + pad + s->method * 17), s);
}

/* The box blur with the given radii and border, other settings default. */
void
push_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    guint rx, gint ry, RefBorder border)
{
  Settings s = default_settings;

  s.rx = rx;
  s.ry = ry < 0 ? rx : (guint) ry;
  s.border = border;
  push_settings_and_check (h, info, pad, &s);
}
/* The teardown fixture: what the running test made and has not freed. */
static GPtrArray *harnesses;    /* GstHarness */
static GPtrArray *pipelines;    /* GstElement, the test's reference */

static void
blurcheck_setup (void)
{
  harnesses = g_ptr_array_new ();
  pipelines = g_ptr_array_new ();
}

static void
blurcheck_teardown (void)
{
  guint i;

  for (i = 0; i < harnesses->len; i++)
    gst_harness_teardown (g_ptr_array_index (harnesses, i));
  for (i = 0; i < pipelines->len; i++) {
    GstElement *pipeline = g_ptr_array_index (pipelines, i);

    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
  g_ptr_array_free (harnesses, TRUE);
  g_ptr_array_free (pipelines, TRUE);
  harnesses = pipelines = NULL;

  g_unsetenv ("CLBOXBLUR_FAULT");
  g_unsetenv ("CLBOXBLUR_KERNEL_PATH");
  g_unsetenv (CLB_ZERO_COPY_ENV);
  g_unsetenv (CLB_MAX_ALLOC_ENV);
}

void
blurcheck_add_fixture (TCase * tc)
{
  tcase_add_checked_fixture (tc, blurcheck_setup, blurcheck_teardown);
}

static GstHarness *
track_harness (GstHarness * h)
{
  fail_unless (harnesses != NULL, "blurcheck_add_fixture () not called");
  fail_unless (h != NULL);
  /* not live (a harness says it is by default): the settings a test
   * sets apply from the next frame, never held while the kernels a live
   * stream would need are compiled (gstclwarm.c) */
  gst_harness_set_live (h, FALSE);
  g_ptr_array_add (harnesses, h);
  return h;
}

GstHarness *
blurcheck_harness_new (const gchar * element_name)
{
  return track_harness (gst_harness_new (element_name));
}

GstHarness *
blurcheck_harness_new_parse (const gchar * launchline)
{
  return track_harness (gst_harness_new_parse (launchline));
}

void
blurcheck_harness_teardown (GstHarness * h)
{
  fail_unless (g_ptr_array_remove (harnesses, h));
  gst_harness_teardown (h);
}

GstElement *
blurcheck_launch (const gchar * desc)
{
  GstElement *pipeline;

  fail_unless (pipelines != NULL, "blurcheck_add_fixture () not called");
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL, "%s", desc);
  g_ptr_array_add (pipelines, pipeline);        /* the caller's reference */
  return pipeline;
}

void
blurcheck_release (GstElement * pipeline)
{
  gst_element_set_state (pipeline, GST_STATE_NULL);
  fail_unless (g_ptr_array_remove (pipelines, pipeline));
  gst_object_unref (pipeline);
}

/* Field @field (0: the frame's even rows) of @buf, an interlaced frame of
 * @info, copied out as a progressive frame of @finfo (half the height). */
GstBuffer *
blurcheck_field_of (const GstVideoInfo * info, const GstVideoInfo * finfo,
    GstBuffer * buf, guint field)
{
  GstBuffer *fb = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (finfo),
      NULL);
  GstVideoFrame in, out;
  guint p, c, k;

  fail_unless (gst_video_frame_map (&in, info, buf, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out, finfo, fb, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&out); p++) {
    guint rows = 0;

    for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&out); c++) {
      if (GST_VIDEO_FRAME_COMP_PLANE (&out, c) == p)
        rows = MAX (rows, (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&out, c));
    }
    for (k = 0; k < rows; k++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, p) +
          k * GST_VIDEO_FRAME_PLANE_STRIDE (&out, p),
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, p) +
          (2 * k + field) * GST_VIDEO_FRAME_PLANE_STRIDE (&in, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&out, p));
  }
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return fb;
}

/* The first row of field @field at or below frame row @y: a field row is
 * filtered where its frame row is. */
gint
blurcheck_field_row (gint y, guint field)
{
  gint d = y - (gint) field;

  return d >= 0 ? (d + 1) / 2 : -((-d) / 2);
}

/* The pool the element's sink pad proposes for @h's caps, configured with
 * GstVideoMeta and active. */
GstBufferPool *
blurcheck_proposed_pool (GstHarness * h, const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size, min, max;

  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) >= 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL));
  fail_unless (size >= info->size);
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_has_option (pool,
          GST_BUFFER_POOL_OPTION_VIDEO_META));
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_query_unref (query);
  gst_caps_unref (caps);
  return pool;
}
