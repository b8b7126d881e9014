/* clboxblur: GL memory, shared with OpenCL or copied.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Everything the element does with GL, behind one object the element owns
 * and calls from its own hooks (as GstGLBaseFilter keeps the GL display and
 * context apart from its subclasses): the GL display and context (from the
 * application, the neighbours, or made here), the GL buffer pools offered
 * and chosen, and how textures reach OpenCL: shared (cl_khr_gl_sharing, an
 * OpenCL runtime and engine of its own on a context tied to GL's, images
 * made from the textures) or copied (GstVideoFilter maps the textures into
 * host memory; the result is written back into the output texture here).
 * The choice itself is gst/clblur/glshare.c's, testable without GL.
 */
#pragma once

#include <gst/gst.h>
#include "clblur/engine.h"
#include "clblur/glshare.h"

G_BEGIN_DECLS

typedef struct _GstCLGL GstCLGL;

/* Which device an element's properties choose, and what it does with GL
 * memory (the GL path reads all four): taken in one go. */
typedef struct
{
  ClbGlSharing sharing;
  ClbDeviceType device_type;
  gint platform_index;
  gint device_index;
} GstCLDeviceSettings;

/* @element owns the result and outlives it: errors are posted, contexts
 * queried and messages logged on its behalf. */
GstCLGL *gst_cl_gl_new (GstElement * element);
void gst_cl_gl_free (GstCLGL * gl);

/* GstElement::set_context: takes a GL display or application context. */
void gst_cl_gl_set_context (GstCLGL * gl,
    GstContext * context);
/* Answers a GST_QUERY_CONTEXT for GL's context types; FALSE otherwise. */
gboolean gst_cl_gl_handle_context_query (GstCLGL * gl,
    GstQuery * query);
/* Drops the OpenCL runtime and engine tied to GL (stop). */
void gst_cl_gl_stop (GstCLGL * gl);
/* Drops the GL display and contexts too (READY to NULL, dispose). */
void gst_cl_gl_close (GstCLGL * gl);

/* Whether the caps of an allocation query are GLMemory. */
gboolean gst_cl_gl_query_is_gl (GstQuery * query);
/* propose_allocation and decide_allocation for GLMemory caps. */
gboolean gst_cl_gl_propose_allocation (GstCLGL * gl,
    GstQuery * query);
gboolean gst_cl_gl_decide_allocation (GstCLGL * gl,
    GstQuery * query);

/* set_info: with GLMemory @incaps finds the GL context and chooses how
 * textures reach OpenCL (@runtime: the element's, asked whether its device
 * can share), allocating for @planes when they are shared. FALSE with
 * @error (GST_RESOURCE_ERROR or GST_GL_CONTEXT_ERROR: no GL context;
 * CLB_RUNTIME_ERROR: OpenCL) on failure. */
gboolean gst_cl_gl_set_info (GstCLGL * gl, GstCaps * incaps,
    const GstCLDeviceSettings * settings, ClbRuntime * runtime,
    const ClbPlanes * planes, GError ** error);
/* Whether the negotiated caps are GLMemory. */
gboolean gst_cl_gl_is_active (GstCLGL * gl);
/* Whether textures are shared: frames go through
 * gst_cl_gl_transform, and the element's own engine is idle. */
gboolean gst_cl_gl_shares (GstCLGL * gl);

/* Per buffer, in this order: wait for upstream's GL commands on @inbuf;
 * then either gst_cl_gl_transform (shared) or the element's host
 * path followed by gst_cl_gl_upload (copied); then, on success,
 * gst_cl_gl_set_sync_point. The transforms post their own element
 * errors. */
void gst_cl_gl_wait (GstCLGL * gl, GstBuffer * inbuf);
GstFlowReturn gst_cl_gl_transform (GstCLGL * gl,
    GstBuffer * inbuf, GstBuffer * outbuf, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs);
GstFlowReturn gst_cl_gl_upload (GstCLGL * gl,
    GstBuffer * outbuf);
void gst_cl_gl_set_sync_point (GstCLGL * gl,
    GstBuffer * outbuf);

G_END_DECLS
