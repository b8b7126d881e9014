/* clboxblur: which pixels of a frame are filtered.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>
#include "clblur/engine.h"
#include "gstclboxblurprops.h"

G_BEGIN_DECLS

/* Fills @rects (of ClbRect) with the rectangles to filter in @inbuf, a
 * frame of @info: with roi-meta its GstVideoRegionOfInterestMetas (of
 * roi-type, grown by roi-padding), else the region-* rectangle where one
 * is set (a width or height of 0 reaching the frame's edge). Sets
 * @params' use_regions, region_invert, regions (pointing into @rects) and
 * n_regions. */
void gst_cl_box_blur_regions_collect (const GstCLBoxBlurSettings * settings,
    GstBuffer * inbuf, const GstVideoInfo * info, GArray * rects,
    ClbParams * params);

/* The rectangles of @params (in frame rows) as rows of field @field (0:
 * the frame's even rows, 1: its odd ones), into @out; points @params at
 * them. A field row is selected where its frame row is. */
void gst_cl_box_blur_regions_to_field (ClbParams * params, guint field,
    GArray * out);

G_END_DECLS
