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

/* The ROI metas of @inbuf of @type (0: any), @padding pixels larger on
 * every side. */
static void
collect_roi_metas (GstBuffer * inbuf, GQuark type, guint padding,
    GArray * rects)
{
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (inbuf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    ClbRect r;

    if (type != 0 && roi->roi_type != type)
      continue;
    r.x = clamp_to_int ((gint64) roi->x - padding);
    r.y = clamp_to_int ((gint64) roi->y - padding);
    r.width = clamp_to_int ((gint64) roi->w + 2 * (gint64) padding);
    r.height = clamp_to_int ((gint64) roi->h + 2 * (gint64) padding);
    g_array_append_val (rects, r);
  }
}

void
gst_cl_box_blur_regions_collect (const GstCLBoxBlurSettings * settings,
    GstBuffer * inbuf, const GstVideoInfo * info, GArray * rects,
    ClbParams * params)
{
  ClbRect region;

  region.x = settings->region_x;
  region.y = settings->region_y;
  region.width = settings->region_width;
  region.height = settings->region_height;
  params->region_invert = settings->region_invert;
  params->region_shape = settings->region_shape;
  params->region_feather = settings->region_feather;

  g_array_set_size (rects, 0);
  if (settings->roi_meta) {
    collect_roi_metas (inbuf, settings->roi_type, settings->roi_padding,
        rects);
    params->use_regions = TRUE;
  } else if (region.x != 0 || region.y != 0 || region.width != 0
      || region.height != 0 || params->region_invert) {
    if (region.width == 0)
      region.width = MAX (GST_VIDEO_INFO_WIDTH (info) - region.x, 0);
    if (region.height == 0)
      region.height = MAX (GST_VIDEO_INFO_HEIGHT (info) - region.y, 0);
    g_array_append_val (rects, region);
    params->use_regions = TRUE;
  } else {
    params->use_regions = FALSE;
  }
  params->regions = (const ClbRect *) rects->data;
  params->n_regions = rects->len;
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
