/* clboxblur: the element error that fits a failure.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* Posts on @element the error message that fits @error: a runtime or
 * engine failure (CLB_RUNTIME_ERROR), or a GL display or context not found
 * (GST_RESOURCE_ERROR, GST_GL_CONTEXT_ERROR). NULL: an OpenCL failure
 * without details. */
void gst_cl_blur_post_error (GstElement * element, const GError * error);

G_END_DECLS
