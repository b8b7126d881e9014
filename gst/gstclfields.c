/* clboxblur: interlaced video, filtered field by field.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gl/gl.h>

#include "gstclfields.h"
#include "gstcllayout.h"
#include "gstclboxblurregion.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

gboolean
gst_cl_fields_check (GstElement * self, GstCaps * caps,
    const GstVideoInfo * info, ClbPlanes * field_planes)
{
  GstVideoInterlaceMode mode = GST_VIDEO_INFO_INTERLACE_MODE (info);
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  if ((mode != GST_VIDEO_INTERLACE_MODE_INTERLEAVED
          && mode != GST_VIDEO_INTERLACE_MODE_MIXED)
      || (features != NULL && gst_caps_features_contains (features,
              GST_CAPS_FEATURE_MEMORY_GL_MEMORY))) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Interlaced video with interlace-mode=%s%s is not supported.",
            gst_video_interlace_mode_to_string (mode), features != NULL
            && gst_caps_features_contains (features,
                GST_CAPS_FEATURE_MEMORY_GL_MEMORY) ? " in GL memory" : ""),
        ("clboxblur filters each field of interleaved or mixed video in "
            "system memory; put deinterlace or gldownload before it"));
    return FALSE;
  }
  if (!gst_cl_layout_make_field_planes (info, field_planes)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Interlaced %s video of height %d cannot be filtered field by "
            "field: every plane needs an even number of rows.",
            GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_HEIGHT (info)),
        ("fields of different heights; a height that is a multiple of 4 "
            "works for every format"));
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cl_fields_process (ClbEngine * engine, ClbParams * params,
    ClbJob * jobs, guint n_jobs, const ClbFrame * src, const ClbFrame * dst,
    guint n_planes, GArray * field_rects, GError ** error)
{
  ClbParams field_params;
  guint f;

  gst_cl_layout_field_jobs (jobs, n_jobs);
  for (f = 0; f < 2; f++) {
    ClbFrame fsrc, fdst;

    clb_frame_field (src, n_planes, f, &fsrc);
    clb_frame_field (dst, n_planes, f, &fdst);
    field_params = *params;
    field_params.field = f;
    if (field_params.use_regions)
      gst_cl_box_blur_regions_to_field (&field_params, f, field_rects);
    if (!clb_engine_filter (engine, &field_params, jobs, n_jobs, &fsrc, &fdst,
            error))
      return FALSE;
  }
  return TRUE;
}
