/* GStreamer
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include "gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BOX_BLUR (gst_cl_box_blur_get_type ())
G_DECLARE_FINAL_TYPE (GstCLBoxBlur, gst_cl_box_blur, GST, CL_BOX_BLUR,
    GstCLBaseFilter)

#define GST_TYPE_CL_BOX_BLUR_METHOD (gst_cl_box_blur_method_get_type ())
GType gst_cl_box_blur_method_get_type (void);

#define GST_TYPE_CL_BOX_BLUR_BORDER (gst_cl_box_blur_border_get_type ())
GType gst_cl_box_blur_border_get_type (void);

#define GST_TYPE_CL_BOX_BLUR_DEVICE_TYPE (gst_cl_box_blur_device_type_get_type ())
GType gst_cl_box_blur_device_type_get_type (void);

#define GST_TYPE_CL_BOX_BLUR_REGION_SHAPE (gst_cl_box_blur_region_shape_get_type ())
GType gst_cl_box_blur_region_shape_get_type (void);

#define GST_TYPE_CL_BOX_BLUR_GL_SHARING (gst_cl_box_blur_gl_sharing_get_type ())
GType gst_cl_box_blur_gl_sharing_get_type (void);

/* GstContext type by which an application hands the element its OpenCL
 * context: fields "cl-context" (G_TYPE_POINTER, a cl_context) and,
 * optionally, "cl-device" (G_TYPE_POINTER, one of its cl_device_ids). The
 * element answers context queries of this type with the context it uses. */
#define GST_CL_BOX_BLUR_CONTEXT_TYPE GST_CL_CONTEXT_TYPE

GST_ELEMENT_REGISTER_DECLARE (clboxblur);

G_END_DECLS
