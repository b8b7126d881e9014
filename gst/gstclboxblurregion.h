/* clboxblur: which pixels of a frame are filtered.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/video/video.h>
#include "clblur/engine.h"
#include "gstclboxblurprops.h"

G_BEGIN_DECLS

/* The most rectangles a held set keeps (roi-hold): the union besides the
 * current frame's own rectangles, past which it merges its smallest held
 * rectangles into their bounding box (more is filtered); the intersection
 * of held frames (region-invert), past which it drops its smallest
 * rectangles (less stays sharp). */
#define GST_CL_BOX_BLUR_MAX_HELD_RECTS 256

/* The regions of a stream: the ROI metas of the last frames (roi-hold)
 * and the decision for the current one. Used by the streaming thread
 * alone (buffers and serialized events). */
typedef struct _GstCLBoxBlurRegions GstCLBoxBlurRegions;

GstCLBoxBlurRegions *gst_cl_box_blur_regions_new (void);
void gst_cl_box_blur_regions_free (GstCLBoxBlurRegions * regions);

/* Forgets the frames remembered (a flush, a seek, new caps): the next
 * frame is the first. */
void gst_cl_box_blur_regions_reset (GstCLBoxBlurRegions * regions);

/* Called once per input buffer @inbuf, a frame of @info: remembers its
 * GstVideoRegionOfInterestMetas (every type, as they came) with the
 * roi-hold frames before it, and decides which pixels are filtered: with
 * roi-meta the metas of roi-type, grown by roi-padding and clipped to the
 * frame, of this frame and the roi-hold before it (their union, or their
 * intersection with region-invert), or the whole frame where
 * roi-fail-closed finds none; else the region-* rectangle where one is
 * set (a width or height of 0 reaching the frame's edge), else the whole
 * frame. */
void gst_cl_box_blur_regions_update (GstCLBoxBlurRegions * regions,
    const GstCLBoxBlurSettings * settings, GstBuffer * inbuf,
    const GstVideoInfo * info);

/* Sets @params' use_regions, region_invert, regions (pointing into
 * @regions, valid until its next update or reset) and n_regions from the
 * last update. */
void gst_cl_box_blur_regions_apply (const GstCLBoxBlurRegions * regions,
    ClbParams * params);

/* The rectangles of @params (in frame rows) as rows of field @field (0:
 * the frame's even rows, 1: its odd ones), into @out; points @params at
 * them. A field row is selected where its frame row is. */
void gst_cl_box_blur_regions_to_field (ClbParams * params, guint field,
    GArray * out);

G_END_DECLS
