/* GStreamer
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstCLBaseFilter: the OpenCL side of a video filter, as GstGLBaseFilter
 * carries the GL side of the GL elements. It owns the OpenCL device (the
 * runtime, shared with the other instances on it, or the application's
 * context handed over as a GstContext), the engine, the buffer pool of
 * OpenCL memory offered upstream and used downstream, GL memory (shared
 * with OpenCL or copied), interlaced video, cancelling on flushes and state
 * changes, and turning the engine's errors into element messages. A
 * subclass only turns its properties into the engine's parameters: the
 * three hooks below.
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include "clblur/engine.h"
#include "clblur/runtimemem.h"
#include "gstclgl.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_BASE_FILTER (gst_cl_base_filter_get_type ())
#define GST_CL_BASE_FILTER(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), \
        GST_TYPE_CL_BASE_FILTER, GstCLBaseFilter))
#define GST_CL_BASE_FILTER_CLASS(klass) (G_TYPE_CHECK_CLASS_CAST ((klass), \
        GST_TYPE_CL_BASE_FILTER, GstCLBaseFilterClass))
#define GST_IS_CL_BASE_FILTER(obj) (G_TYPE_CHECK_INSTANCE_TYPE ((obj), \
        GST_TYPE_CL_BASE_FILTER))
#define GST_CL_BASE_FILTER_GET_CLASS(obj) (G_TYPE_INSTANCE_GET_CLASS ((obj), \
        GST_TYPE_CL_BASE_FILTER, GstCLBaseFilterClass))

typedef struct _GstCLBaseFilter GstCLBaseFilter;
typedef struct _GstCLBaseFilterClass GstCLBaseFilterClass;

GType gst_cl_base_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstCLBaseFilter, gst_object_unref)

/* GstContext type by which an application hands the element its OpenCL
 * context: fields "cl-context" (G_TYPE_POINTER, a cl_context) and,
 * optionally, "cl-device" (G_TYPE_POINTER, one of its cl_device_ids). The
 * element answers context queries of this type with the context it uses. */
#define GST_CL_CONTEXT_TYPE "gst.clboxblur.cl.context"

/* How a frame goes through the element, chosen when the caps and the
 * allocation are known (set_info, decide_allocation), not per frame. */
typedef enum
{
  GST_CL_WAY_HOST,              /* mapped host memory: GstVideoFilter */
  GST_CL_WAY_POOL,              /* OpenCL memory of the pools both sides */
  GST_CL_WAY_GL_SHARED,         /* GL textures shared with OpenCL */
  GST_CL_WAY_GL_COPIED,         /* GL textures mapped, result uploaded */
} GstCLWay;

struct _GstCLBaseFilter
{
  GstVideoFilter parent;

  /*< private >*/
  /* The application's OpenCL context (GST_CL_CONTEXT_TYPE), and the one in
   * use while started (for context queries); under the object lock. */
  GstContext *app_cl_context;
  GstContext *cl_context;

  /* streaming state: created in start, freed in stop; engine is set and
   * cleared under the object lock too, for the cancel on flushes */
  ClbRuntime *runtime;
  ClbEngine *engine;
  ClbMemDevice *mem_dev;        /* the buffer pools' (gstclpool.c) */
  ClbPlanes planes;             /* the negotiated format's storage */
  ClbPlanes field_planes;       /* one field's, for interlaced video */
  gboolean engine_fields;       /* the engine holds field_planes */
  GArray *field_rects;          /* a frame's regions in a field's rows */
  GstCLWay way;

  /* GL memory (gstclgl.c) */
  GstCLGL *gl;

  /* the kernels of new settings readied away from the stream
   * (gstclwarm.c): made in start, freed in stop */
  struct _GstCLWarm *warm;
  /* frames in OpenCL memory queued and not waited for (gstclflight.c):
   * made in start, freed in stop */
  struct _GstCLFlight *flight;

  gpointer _gst_reserved[GST_PADDING];
};

/**
 * GstCLBaseFilterClass:
 * @get_device: fills the device the properties choose; called in start
 *   and in set_info (GL memory), from the thread that calls them
 * @filters: whether the properties change any sample; when not, the
 *   element is in passthrough (decided before each buffer)
 * @prepare: the parameters and jobs for @inbuf of the negotiated @info
 *   (the properties, regions, @inbuf's metas); returns the number of jobs
 */
struct _GstCLBaseFilterClass
{
  GstVideoFilterClass parent_class;

  void (*get_device) (GstCLBaseFilter * filter, GstCLDeviceSettings * device);
  gboolean (*filters) (GstCLBaseFilter * filter);
  guint (*prepare) (GstCLBaseFilter * filter, GstBuffer * inbuf,
      const GstVideoInfo * info, ClbParams * params, ClbJob * jobs);

  gpointer _gst_reserved[GST_PADDING];
};

/* Whether a frame may run @params and @jobs now: FALSE while the kernels
 * they need are readied in the background (gstclwarm.c), the subclass
 * then keeping the settings it had. For the subclass's prepare. */
gboolean gst_cl_base_filter_kernels_ready (GstCLBaseFilter * self,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs);

G_END_DECLS
