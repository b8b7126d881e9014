/* clboxblur: the element's side of the engine: the element error that fits
 * a failure, and the engine's options and log.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include "clblur/engine.h"

G_BEGIN_DECLS

/* Posts on @element the error message that fits @error: a runtime or
 * engine failure (CLB_RUNTIME_ERROR), or a GL display or context not found
 * (GST_RESOURCE_ERROR, GST_GL_CONTEXT_ERROR). NULL: an OpenCL failure
 * without details. */
void gst_cl_post_error (GstElement * element, const GError * error);

/* A frame's failure on @element: GST_FLOW_FLUSHING where the engine was
 * cancelled (flushing, stopping), else the error posted and
 * GST_FLOW_ERROR. Takes @error. */
GstFlowReturn gst_cl_frame_failed (GstElement * element, GError * error);

/* The engine's options for @element: from the environment (the one place
 * the element reads it, clb_engine_options_from_env), the engine's log (its
 * device profile, the variant each job runs) to the clboxblur debug
 * category at INFO. */
void gst_cl_engine_options (GstElement * element,
    ClbEngineOptions * options);

/* Whether @buf holds a whole frame of @info stored as @planes
 * (gst_cl_layout_buffer_holds_frame); where it does not, posts a
 * warning on @element that the buffer is dropped. */
gboolean gst_cl_check_buffer (GstElement * element,
    const GstVideoInfo * info, const ClbPlanes * planes, GstBuffer * buf);

/* @ret, from getting an output buffer; where it is GST_FLOW_ERROR (a pool
 * of OpenCL memory could not allocate one), posts the element error. */
GstFlowReturn gst_cl_output_failed (GstElement * element,
    GstFlowReturn ret);

G_END_DECLS
