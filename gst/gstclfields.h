/* clboxblur: interlaced video, filtered field by field.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Interleaved video, and the frames of mixed video flagged interlaced, are
 * filtered a field at a time (gstcllayout.h says what a field is).
 */
#pragma once

#include <gst/video/video.h>
#include "clblur/engine.h"

G_BEGIN_DECLS

/* Whether @element takes interlaced @caps (@info): interleaved or mixed
 * fields in system memory, each plane with an even number of rows, so
 * that both fields have one size. Fills @field_planes; else posts an error
 * on @element saying why and returns FALSE. */
gboolean gst_cl_fields_check (GstElement * element, GstCaps * caps,
    const GstVideoInfo * info, ClbPlanes * field_planes);

/* Filters an interlaced frame (@src, @dst: its planes, from
 * gst_cl_layout_frame_planes) as two frames of half the height, each
 * its own field's rows, on @engine which holds a field's planes; @params'
 * regions are mapped to field rows through @field_rects. Turns @jobs into
 * a field's. */
gboolean gst_cl_fields_process (ClbEngine * engine, ClbParams * params,
    ClbJob * jobs, guint n_jobs, const ClbFrame * src, const ClbFrame * dst,
    guint n_planes, GArray * field_rects, GError ** error);

G_END_DECLS
