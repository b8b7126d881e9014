/* clboxblur: which pixels of a frame are filtered.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclboxblurregion.h"

static gint
clamp_to_int (gint64 v)
{
  return CLAMP (v, G_MININT, G_MAXINT);
}

/* A GstVideoRegionOfInterestMeta as it came. */
typedef struct
{
  GQuark type;
  guint x, y, w, h;
} Roi;

struct _GstCLBoxBlurRegions
{
  GQueue frames;                /* GArray of Roi per frame, newest first */
  GArray *rects;                /* ClbRect: the decision */
  GArray *next;                 /* ClbRect: the intersection's next step */
  gboolean use_regions;
  gboolean invert;
  ClbRegionShape shape;         /* region-shape and region-feather */
  guint feather;
};

GstCLBoxBlurRegions *
gst_cl_box_blur_regions_new (void)
{
  GstCLBoxBlurRegions *regions = g_new0 (GstCLBoxBlurRegions, 1);

  g_queue_init (&regions->frames);
  regions->rects = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  regions->next = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  return regions;
}

static void
free_frame (gpointer frame)
{
  g_array_free (frame, TRUE);
}

void
gst_cl_box_blur_regions_reset (GstCLBoxBlurRegions * regions)
{
  g_queue_clear_full (&regions->frames, free_frame);
}

void
gst_cl_box_blur_regions_free (GstCLBoxBlurRegions * regions)
{
  gst_cl_box_blur_regions_reset (regions);
  g_array_free (regions->rects, TRUE);
  g_array_free (regions->next, TRUE);
  g_free (regions);
}

/* Every ROI meta of @inbuf. */
static GArray *
read_metas (GstBuffer * inbuf)
{
  GArray *frame = g_array_new (FALSE, FALSE, sizeof (Roi));
  GstVideoRegionOfInterestMeta *meta;
  gpointer state = NULL;

  while ((meta = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (inbuf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    Roi roi = { meta->roi_type, meta->x, meta->y, meta->w, meta->h };

    g_array_append_val (frame, roi);
  }
  return frame;
}

static gboolean
type_selected (const GstCLBoxBlurSettings * settings, GQuark type)
{
  guint i;

  if (settings->n_roi_types == 0)
    return TRUE;
  for (i = 0; i < settings->n_roi_types; i++)
    if (settings->roi_types[i] == type)
      return TRUE;
  return FALSE;
}

/* Appends to @rects the metas of @frame of the selected types, grown by
 * roi-padding and clipped to @width x @height (those left empty dropped);
 * returns whether @frame has a meta of a selected type at all. */
static gboolean
select_metas (const GstCLBoxBlurSettings * settings, GArray * frame,
    gint width, gint height, GArray * rects)
{
  gint64 pad = settings->roi_padding;
  gboolean any = FALSE;
  guint i;

  for (i = 0; i < frame->len; i++) {
    const Roi *roi = &g_array_index (frame, Roi, i);
    gint64 x0, y0, x1, y1;
    ClbRect r;

    if (!type_selected (settings, roi->type))
      continue;
    any = TRUE;
    /* not clipped to the frame: an ellipse is inscribed in the whole
     * rectangle, and a feather reaches in from a region past the edge;
     * bounded as the engine bounds it */
    x0 = CLAMP ((gint64) roi->x - pad, -CLB_REGION_LIMIT, CLB_REGION_LIMIT);
    y0 = CLAMP ((gint64) roi->y - pad, -CLB_REGION_LIMIT, CLB_REGION_LIMIT);
    x1 = CLAMP ((gint64) roi->x + roi->w + pad, -CLB_REGION_LIMIT,
        CLB_REGION_LIMIT);
    y1 = CLAMP ((gint64) roi->y + roi->h + pad, -CLB_REGION_LIMIT,
        CLB_REGION_LIMIT);
    if (x0 >= x1 || y0 >= y1)
      continue;
    r.x = x0;
    r.y = y0;
    r.width = x1 - x0;
    r.height = y1 - y0;
    g_array_append_val (rects, r);
  }
  return any;
}

static gint64
area (const ClbRect * r)
{
  return (gint64) r->width * r->height;
}

/* Larger first, then by position: a total order. */
static gint
compare_rects (gconstpointer pa, gconstpointer pb)
{
  const ClbRect *a = pa, *b = pb;
  gint64 d = area (b) - area (a);

  if (d != 0)
    return d < 0 ? -1 : 1;
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  if (a->y != b->y)
    return a->y < b->y ? -1 : 1;
  if (a->width != b->width)
    return a->width < b->width ? -1 : 1;
  return a->height < b->height ? -1 : a->height > b->height;
}

static gint
compare_rects_qsort (gconstpointer pa, gconstpointer pb, gpointer unused)
{
  return compare_rects (pa, pb);
}

static gboolean
contains (const ClbRect * a, const ClbRect * b)
{
  return a->x <= b->x && a->y <= b->y
      && (gint64) a->x + a->width >= (gint64) b->x + b->width
      && (gint64) a->y + a->height >= (gint64) b->y + b->height;
}

/* Sorts @rects from index @from on, larger first, and drops those equal
 * to or inside another (the same set of pixels). */
static void
simplify (GArray * rects, guint from)
{
  ClbRect *r = &g_array_index (rects, ClbRect, 0);
  guint i, j, n = from;

  if (rects->len <= from)
    return;
  g_qsort_with_data (r + from, rects->len - from, sizeof (ClbRect),
      compare_rects_qsort, NULL);
  for (i = from; i < rects->len; i++) {
    gboolean inside = FALSE;

    /* a larger or equal rectangle that holds it is before it; the count
     * is bounded by the callers before this runs past a few hundred */
    for (j = 0; j < n && !inside; j++)
      inside = contains (&r[j], &r[i]);
    if (!inside)
      r[n++] = r[i];
  }
  g_array_set_size (rects, n);
}

/* Drops exact duplicates from index @from on (sorted first). */
static void
drop_duplicates (GArray * rects, guint from)
{
  ClbRect *r = &g_array_index (rects, ClbRect, 0);
  guint i, n = from;

  if (rects->len <= from)
    return;
  g_qsort_with_data (r + from, rects->len - from, sizeof (ClbRect),
      compare_rects_qsort, NULL);
  for (i = from; i < rects->len; i++)
    if (n == from || compare_rects (&r[n - 1], &r[i]) != 0)
      r[n++] = r[i];
  g_array_set_size (rects, n);
}

/* The union of the selected metas of @n_frames frames: the current
 * frame's rectangles as they are, then the held ones, without duplicates
 * and those inside another; past GST_CL_BOX_BLUR_MAX_HELD_RECTS held
 * ones, the smallest merged into their bounding box (more filtered,
 * never less). Returns whether a selected meta came in those frames. */
static gboolean
held_union (const GstCLBoxBlurSettings * settings, GQueue * frames,
    guint n_frames, gint width, gint height, GArray * rects)
{
  gboolean any = FALSE;
  guint i, own;

  any = select_metas (settings, g_queue_peek_nth (frames, 0), width, height,
      rects);
  own = rects->len;
  for (i = 1; i < n_frames; i++)
    any |= select_metas (settings, g_queue_peek_nth (frames, i), width,
        height, rects);
  if (rects->len == own)
    return any;

  drop_duplicates (rects, own);
  if (rects->len - own > GST_CL_BOX_BLUR_MAX_HELD_RECTS) {
    ClbRect *r = &g_array_index (rects, ClbRect, 0);
    guint keep = own + GST_CL_BOX_BLUR_MAX_HELD_RECTS - 1;
    gint64 x0 = G_MAXINT64, y0 = G_MAXINT64, x1 = 0, y1 = 0;

    /* sorted larger first: the tail is the smallest */
    for (i = keep; i < rects->len; i++) {
      x0 = MIN (x0, r[i].x);
      y0 = MIN (y0, r[i].y);
      x1 = MAX (x1, (gint64) r[i].x + r[i].width);
      y1 = MAX (y1, (gint64) r[i].y + r[i].height);
    }
    r[keep].x = x0;
    r[keep].y = y0;
    r[keep].width = x1 - x0;
    r[keep].height = y1 - y0;
    g_array_set_size (rects, keep + 1);
  }
  simplify (rects, own);
  return any;
}

/* The intersection of the unions of the selected metas of each of
 * @n_frames frames (what stays sharp with region-invert): the current
 * frame's rectangles as they are; with held frames, each rectangle
 * intersected with each of the next frame's, duplicates and those inside
 * another dropped; past GST_CL_BOX_BLUR_MAX_HELD_RECTS, the smallest
 * dropped (less stays sharp, never more). Returns whether a selected
 * meta came in those frames. */
static gboolean
held_intersection (GstCLBoxBlurRegions * regions,
    const GstCLBoxBlurSettings * settings, guint n_frames, gint width,
    gint height)
{
  GArray *rects = regions->rects, *next = regions->next;
  gboolean any;
  guint i, a, b;

  any = select_metas (settings, g_queue_peek_nth (&regions->frames, 0),
      width, height, rects);
  for (i = 1; i < n_frames; i++) {
    GArray *tmp;
    guint other;

    g_array_set_size (next, 0);
    any |= select_metas (settings, g_queue_peek_nth (&regions->frames, i),
        width, height, next);
    if (rects->len == 0)
      continue;                 /* empty already; only any is asked */
    other = next->len;
    for (a = 0; a < rects->len; a++) {
      const ClbRect *ra = &g_array_index (rects, ClbRect, a);

      for (b = 0; b < other; b++) {
        const ClbRect *rb = &g_array_index (next, ClbRect, b);
        gint x0 = MAX (ra->x, rb->x), y0 = MAX (ra->y, rb->y);
        gint x1 = MIN (ra->x + ra->width, rb->x + rb->width);
        gint y1 = MIN (ra->y + ra->height, rb->y + rb->height);
        ClbRect r = { x0, y0, x1 - x0, y1 - y0 };

        if (x0 < x1 && y0 < y1)
          g_array_append_val (next, r);
      }
    }
    /* the intersections, after the frame's own rectangles */
    g_array_remove_range (next, 0, other);
    drop_duplicates (next, 0);
    if (next->len > GST_CL_BOX_BLUR_MAX_HELD_RECTS)
      g_array_set_size (next, GST_CL_BOX_BLUR_MAX_HELD_RECTS);
    simplify (next, 0);
    tmp = regions->rects;
    regions->rects = rects = next;
    regions->next = next = tmp;
  }
  return any;
}

void
gst_cl_box_blur_regions_update (GstCLBoxBlurRegions * regions,
    const GstCLBoxBlurSettings * settings, GstBuffer * inbuf,
    const GstVideoInfo * info)
{
  gint width = GST_VIDEO_INFO_WIDTH (info);
  gint height = GST_VIDEO_INFO_HEIGHT (info);
  ClbRect region;
  guint n_frames;
  gboolean any;

  /* the metas of every frame are remembered, so that turning roi-meta on
   * finds the frames before */
  g_queue_push_head (&regions->frames, read_metas (inbuf));
  while (g_queue_get_length (&regions->frames) > settings->roi_hold + 1)
    free_frame (g_queue_pop_tail (&regions->frames));
  n_frames = g_queue_get_length (&regions->frames);

  g_array_set_size (regions->rects, 0);
  regions->invert = settings->region_invert;
  regions->shape = settings->region_shape;
  regions->feather = settings->region_feather;
  if (settings->roi_meta) {
    if (regions->invert)
      any = held_intersection (regions, settings, n_frames, width, height);
    else
      any = held_union (settings, &regions->frames, n_frames, width, height,
          regions->rects);
    /* fail closed: no meta in this frame nor the roi-hold before it (the
     * frames before the first since a reset count as such) */
    regions->use_regions = any || !settings->roi_fail_closed;
    if (!regions->use_regions)
      g_array_set_size (regions->rects, 0);
    return;
  }

  region.x = settings->region_x;
  region.y = settings->region_y;
  region.width = settings->region_width;
  region.height = settings->region_height;
  if (region.x != 0 || region.y != 0 || region.width != 0
      || region.height != 0 || regions->invert) {
    if (region.width == 0)
      region.width = MAX (width - region.x, 0);
    if (region.height == 0)
      region.height = MAX (height - region.y, 0);
    g_array_append_val (regions->rects, region);
    regions->use_regions = TRUE;
  } else {
    regions->use_regions = FALSE;
  }
}

void
gst_cl_box_blur_regions_apply (const GstCLBoxBlurRegions * regions,
    ClbParams * params)
{
  params->use_regions = regions->use_regions;
  params->region_invert = regions->invert;
  params->region_shape = regions->shape;
  params->region_feather = regions->feather;
  params->regions = (const ClbRect *) regions->rects->data;
  params->n_regions = regions->rects->len;
}

/* The first field row of @field at or below frame row @y. */
static gint
field_row (gint64 y, guint field)
{
  gint64 d = y - field;

  /* ceil (d / 2), rounding toward +infinity for negatives too */
  return clamp_to_int (d >= 0 ? (d + 1) / 2 : -((-d) / 2));
}

void
gst_cl_box_blur_regions_to_field (ClbParams * params, guint field, GArray * out)
{
  guint i;

  g_array_set_size (out, 0);
  for (i = 0; i < params->n_regions; i++) {
    const ClbRect *r = &params->regions[i];
    ClbRect f = *r;
    gint top = field_row (r->y, field);

    f.y = top;
    f.height = MAX (field_row ((gint64) r->y + r->height, field) - top, 0);
    g_array_append_val (out, f);
  }
  params->regions = (const ClbRect *) out->data;
  params->n_regions = out->len;
}

/* roi-type's list (gstclboxblurprops.h), parsed here beside the regions
 * that use it. */
gboolean
gst_cl_box_blur_parse_roi_types (const gchar * s, GQuark * types,
    guint * n_types, GQuark * canonical, const gchar ** reason)
{
  gchar **parts;
  GString *text;
  guint i, n;
  gboolean ok = TRUE;

  *n_types = 0;
  *canonical = 0;
  *reason = NULL;
  if (s == NULL)
    return TRUE;
  for (i = 0; s[i] != '\0' && g_ascii_isspace (s[i]); i++);
  if (s[i] == '\0')
    return TRUE;                /* empty or white space: any type */

  parts = g_strsplit (s, ",", -1);
  n = g_strv_length (parts);
  if (n > GST_CL_BOX_BLUR_MAX_ROI_TYPES) {
    *reason = "more than 16 types";
    g_strfreev (parts);
    return FALSE;
  }
  text = g_string_new (NULL);
  for (i = 0; i < n && ok; i++) {
    g_strstrip (parts[i]);
    if (parts[i][0] == '\0') {
      *reason = "an empty type in the list (two commas in a row, or a "
          "comma at an end)";
      ok = FALSE;
      break;
    }
    types[i] = g_quark_from_string (parts[i]);
    if (i > 0)
      g_string_append_c (text, ',');
    g_string_append (text, parts[i]);
  }
  if (ok) {
    *n_types = n;
    *canonical = g_quark_from_string (text->str);
  }
  g_string_free (text, TRUE);
  g_strfreev (parts);
  return ok;
}
