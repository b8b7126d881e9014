/* GStreamer
 * Copyright (C) 2026 The clboxblur authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-clboxblur
 * @title: clboxblur
 *
 * Blurs or denoises video on an OpenCL device. `method=sat` turns every
 * frame into a summed-area table (prefix sums over rows, then columns) and
 * reads each output pixel's (2·radius+1)×(2·radius-y+1) box mean from four
 * table entries: the cost per pixel does not grow with the radius.
 * `method=separable` runs a horizontal then a vertical box pass with running
 * sums, also O(1) in the radius; both give the same pixels, bit for bit.
 * `passes=3` applies the box three times, a cheap approximation of a
 * Gaussian blur. `method=bilateral` is an edge-preserving denoiser: each
 * pixel is a mean weighted by distance (#GstCLBoxBlur:sigma-spatial) and by
 * colour difference (#GstCLBoxBlur:sigma-range), so edges stay sharp.
 *
 * RGB, grey, planar, semi-planar and packed YUV and 10/16-bit formats are
 * filtered without conversion; chroma planes use the radius scaled by their
 * subsampling, or one of their own (#GstCLBoxBlur:chroma-radius, 0 for
 * luma only), and alpha may have its own (#GstCLBoxBlur:alpha-radius).
 * #GstCLBoxBlur:sigma picks three box passes that approximate a Gaussian.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clboxblur method=sat radius=8 ! videoconvert ! autovideosink
 * ]| Shows the test pattern blurred by a 17×17 box.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8 ! clboxblur radius=20 radius-y=2 border=reflect ! videoconvert ! autovideosink
 * ]| A horizontal motion-like blur of a grey picture, mirrored at the edges.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! clboxblur method=separable radius=6 passes=3 ! videoconvert ! autovideosink
 * ]| A near-Gaussian blur of NV12 video, no conversion around the element.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420 ! clboxblur sigma=4 chroma-radius=0 ! videoconvert ! autovideosink
 * ]| A Gaussian-like blur (sigma 4 pixels) of the luma alone: the colours
 * keep their sharp edges.
 * |[
 * gst-launch-1.0 videotestsrc pattern=snow ! clboxblur method=bilateral radius=5 sigma-spatial=3 sigma-range=40 ! videoconvert ! autovideosink
 * ]| Edge-preserving denoise.
 * |[
 * gst-launch-1.0 filesrc location=in.webm ! decodebin ! videoconvert ! clboxblur radius=8 ! videoconvert ! vp8enc ! webmmux ! filesink location=out.webm
 * ]| Blurs a video file into a new file (video only).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! video/x-raw,format=NV12 ! clboxblur radius=12 region-x=200 region-y=60 region-width=240 region-height=300 region-invert=true ! videoconvert ! autovideosink
 * ]| Privacy blur of a webcam: everything except the rectangle
 * (#GstCLBoxBlur:region-invert).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! clboxblur roi-meta=true roi-type=face roi-padding=12 radius=14 ! videoconvert ! autovideosink
 * ]| Blurs the faces that facedetect marks with region-of-interest metas
 * (#GstCLBoxBlur:roi-meta).
 * |[
 * gst-launch-1.0 gltestsrc pattern=smpte ! clboxblur radius=8 ! glimagesink
 * ]| Between GL elements the element takes and gives GL textures, shared
 * with OpenCL where the device has cl_khr_gl_sharing, else copied
 * (#GstCLBoxBlur:gl-sharing).
 *
 * ## Sharing the OpenCL device
 *
 * Every clboxblur on one OpenCL device in a process uses one OpenCL
 * context and one build of the kernels (each instance has its own command
 * queue), so instances after the first start in next to no time. An
 * application that has its own OpenCL context hands it to the element as a
 * #GstContext of type `gst.clboxblur.cl.context`
 * (%GST_CL_BOX_BLUR_CONTEXT_TYPE) whose structure holds `cl-context`
 * (a `cl_context`, %G_TYPE_POINTER) and optionally `cl-device` (one of its
 * `cl_device_id`s; default its first device): set it on the element or
 * the pipeline with gst_element_set_context(), or in answer to the
 * element's need-context message. The context then chooses the device,
 * whatever #GstCLBoxBlur:device-type and #GstCLBoxBlur:device-index say;
 * the element retains it while it runs. A context query of that type on
 * either pad answers with the context the element uses.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/gl/gl.h>

#include "gstclboxblur.h"
#include "gstclboxblurgl.h"
#include "gstclboxblurprops.h"
#include "gstclblurregion.h"
#include "gstclblurerror.h"
#include "gstclblurlayout.h"
#include "gstclblurfields.h"
#include "gstclblurpool.h"
#include "clblur/engine.h"

/* Shared with the element's other files (GL, errors). */
GST_DEBUG_CATEGORY (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

struct _GstCLBoxBlur
{
  GstVideoFilter parent;

  /* the properties (gstclboxblurprops.c), under the object lock */
  GstCLBoxBlurSettings settings;

  /* The application's OpenCL context (GST_CL_BOX_BLUR_CONTEXT_TYPE), and
   * the one in use while started (for context queries); under the object
   * lock. */
  GstContext *app_cl_context;
  GstContext *cl_context;

  /* streaming state: created in start, freed in stop; engine is set and
   * cleared under the object lock too, for gst_cl_box_blur_cancel */
  ClbRuntime *runtime;
  ClbEngine *engine;
  ClbMemDevice *mem_dev;        /* the buffer pools' (gstclblurpool.c) */
  ClbPlanes planes;             /* the negotiated format's storage */
  ClbPlanes field_planes;       /* one field's, for interlaced video */
  gboolean engine_fields;       /* the engine holds field_planes */
  GArray *rects;                /* ClbRect, rebuilt for each frame */
  GArray *field_rects;          /* the same in a field's rows */

  /* GL memory (gstclboxblurgl.c) */
  GstCLBoxBlurGL *gl;
};

/* Every format here is handled by every method. */
#define FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGB, " \
    "BGR, GRAY8, I420, YV12, Y42B, Y444, NV12, NV21, A420, AYUV, YUY2, " \
    "UYVY, GRAY16_LE, GRAY16_BE, RGBA64_LE, P010_10LE, I420_10LE, " \
    "I422_10LE, Y444_10LE }"
/* GL memory: RGBA 2D textures; system memory first, so that nothing
 * changes for pipelines without GL. */
#define CAPS_STR GST_VIDEO_CAPS_MAKE (FORMATS) "; " \
    GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_GL_MEMORY, \
        "RGBA") ", texture-target = (string) 2D"

static GstStaticPadTemplate gst_cl_box_blur_src_template =
GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS_STR));

static GstStaticPadTemplate gst_cl_box_blur_sink_template =
GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK,
    GST_PAD_ALWAYS,
    GST_STATIC_CAPS (CAPS_STR));

static void gst_cl_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cl_box_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cl_box_blur_start (GstBaseTransform * trans);
static gboolean gst_cl_box_blur_stop (GstBaseTransform * trans);
static void gst_cl_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static gboolean gst_cl_box_blur_set_info (GstVideoFilter * filter,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info);
static GstFlowReturn gst_cl_box_blur_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);
static void gst_cl_box_blur_dispose (GObject * object);
static void gst_cl_box_blur_finalize (GObject * object);
static void gst_cl_box_blur_set_context (GstElement * element,
    GstContext * context);
static GstStateChangeReturn gst_cl_box_blur_change_state (GstElement *
    element, GstStateChange transition);
static gboolean gst_cl_box_blur_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static GstFlowReturn gst_cl_box_blur_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
static guint gst_cl_box_blur_prepare (GstCLBoxBlur * self, GstBuffer * inbuf,
    ClbParams * params, ClbJob * jobs);

#define gst_cl_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCLBoxBlur, gst_cl_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (clboxblur, "clboxblur", GST_RANK_NONE,
    GST_TYPE_CL_BOX_BLUR, GST_DEBUG_CATEGORY_INIT (gst_cl_box_blur_debug,
        "clboxblur", 0, "OpenCL box blur"));

/* With @cancel, makes the frame in progress, if any, stop between two
 * bands of its work (within about 50 ms on a CPU, clb_engine_cancel) and
 * return GST_FLOW_FLUSHING, as every later one does until called again
 * without. Safe from any thread. */
static void
gst_cl_box_blur_cancel (GstCLBoxBlur * self, gboolean cancel)
{
  GST_OBJECT_LOCK (self);
  if (self->engine != NULL) {
    if (cancel)
      clb_engine_cancel (self->engine);
    else
      clb_engine_resume (self->engine);
  }
  GST_OBJECT_UNLOCK (self);
}

/* A flush stops the frame being filtered: the sink pad refuses buffers
 * from now until FLUSH_STOP anyway. */
static gboolean
gst_cl_box_blur_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      gst_cl_box_blur_cancel (self, TRUE);
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_cl_box_blur_cancel (self, FALSE);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* Checks each input buffer before anything is allocated for it: a buffer
 * that does not hold a whole frame (gst_cl_blur_layout_buffer_holds_frame)
 * is dropped with a warning (GstVideoFilter
 * alone would push its unwritten output buffer, or with no output pool
 * abort on a 0-byte buffer). */
static GstFlowReturn
gst_cl_box_blur_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  if (filter->negotiated && !gst_cl_blur_check_buffer (GST_ELEMENT
          (self), &filter->in_info, &self->planes, input)) {
    gst_buffer_unref (input);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
}

/* The filter changes neither the frame's size, nor its orientation, nor
 * its colour space: metas that only depend on those (region-of-interest
 * metas among them) stay valid. */
static gboolean
gst_cl_box_blur_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  /* The output gets its own sync point. */
  if (meta->info->api == GST_GL_SYNC_META_API_TYPE)
    return FALSE;
  if (gst_cl_blur_layout_meta_survives (meta))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

static gboolean
gst_cl_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);

  if (decide_query != NULL && gst_cl_box_blur_gl_query_is_gl (query))
    return gst_cl_box_blur_gl_propose_allocation (self->gl, query);
  /* Frames in OpenCL memory need no copy; passthrough asks downstream. */
  if (decide_query != NULL && self->mem_dev != NULL
      && gst_cl_blur_pool_propose (self->mem_dev, query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
      decide_query, query);
}

static gboolean
gst_cl_box_blur_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);

  if (gst_cl_box_blur_gl_query_is_gl (query))
    return gst_cl_box_blur_gl_decide_allocation (self->gl, query);
  if (self->mem_dev != NULL && gst_cl_blur_pool_decide (self->mem_dev, query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* An output buffer the pool (of OpenCL memory) cannot give: an element
 * error saying so, not only a flow error. */
static GstFlowReturn
gst_cl_box_blur_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  return gst_cl_blur_output_failed (GST_ELEMENT (trans),
      GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
          input, outbuf));
}

static void
gst_cl_box_blur_class_init (GstCLBoxBlurClass * klass)
{
  GObjectClass *gobject_class = (GObjectClass *) klass;
  GstElementClass *element_class = (GstElementClass *) klass;
  GstBaseTransformClass *trans_class = (GstBaseTransformClass *) klass;
  GstVideoFilterClass *filter_class = (GstVideoFilterClass *) klass;

  gobject_class->set_property = gst_cl_box_blur_set_property;
  gobject_class->get_property = gst_cl_box_blur_get_property;
  gobject_class->dispose = gst_cl_box_blur_dispose;
  gobject_class->finalize = gst_cl_box_blur_finalize;

  gst_cl_box_blur_install_properties (gobject_class);

  gst_element_class_add_static_pad_template (element_class,
      &gst_cl_box_blur_sink_template);
  gst_element_class_add_static_pad_template (element_class,
      &gst_cl_box_blur_src_template);

  gst_element_class_set_static_metadata (element_class,
      "OpenCL box blur", "Filter/Effect/Video/Hardware",
      "Box blur (summed-area table or separable) and bilateral denoise "
      "on OpenCL",
      "The clboxblur authors");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_box_blur_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_change_state);

  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_box_blur_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_box_blur_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_box_blur_sink_event);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_box_blur_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_box_blur_stop);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_before_transform);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_transform_meta);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_submit_input_buffer);

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_box_blur_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_transform_frame);
}

static void
gst_cl_box_blur_init (GstCLBoxBlur * self)
{
  gst_cl_box_blur_settings_init (&self->settings);
  self->rects = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  self->field_rects = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  self->gl = gst_cl_box_blur_gl_new (GST_ELEMENT (self));
}

static void
gst_cl_box_blur_update_passthrough (GstCLBoxBlur * self)
{
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  passthrough = !gst_cl_box_blur_settings_filters (&self->settings);
  GST_OBJECT_UNLOCK (self);

  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), passthrough);
}

static void
gst_cl_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);
  gboolean known;

  GST_OBJECT_LOCK (self);
  known = gst_cl_box_blur_settings_set (&self->settings, prop_id, value);
  GST_OBJECT_UNLOCK (self);
  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_box_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);
  gboolean known;

  GST_OBJECT_LOCK (self);
  known = gst_cl_box_blur_settings_get (&self->settings, prop_id, value);
  GST_OBJECT_UNLOCK (self);
  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* The runtime on the application's OpenCL context when it gave one (set
 * before, or in answer to the need-context message posted here), else on
 * the device the properties choose, shared with the other instances on
 * it. Neighbours are not asked: their context would override this
 * element's device properties. */
static ClbRuntime *
gst_cl_box_blur_make_runtime (GstCLBoxBlur * self, ClbDeviceType device_type,
    gint platform_index, gint device_index, GError ** error)
{
  GstContext *app;
  ClbRuntime *rt;
  GstStructure *s;
  gpointer cl_context = NULL, cl_device = NULL;

  GST_OBJECT_LOCK (self);
  app = self->app_cl_context ? gst_context_ref (self->app_cl_context) : NULL;
  GST_OBJECT_UNLOCK (self);
  if (app == NULL) {
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_need_context (GST_OBJECT (self),
            GST_CL_BOX_BLUR_CONTEXT_TYPE));
    GST_OBJECT_LOCK (self);
    app = self->app_cl_context ? gst_context_ref (self->app_cl_context) :
        NULL;
    GST_OBJECT_UNLOCK (self);
  }

  if (app) {
    const GstStructure *st = gst_context_get_structure (app);

    if (!gst_structure_get (st, "cl-context", G_TYPE_POINTER, &cl_context,
            NULL) || cl_context == NULL) {
      gst_context_unref (app);
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
          "The application's " GST_CL_BOX_BLUR_CONTEXT_TYPE " context has "
          "no 'cl-context' pointer");
      return NULL;
    }
    gst_structure_get (st, "cl-device", G_TYPE_POINTER, &cl_device, NULL);
    gst_context_unref (app);
    GST_INFO_OBJECT (self, "using the application's OpenCL context %p",
        cl_context);
    rt = clb_runtime_new_for_context (cl_context, cl_device, error);
  } else {
    rt = clb_runtime_new (device_type, platform_index, device_index, error);
  }
  if (rt == NULL)
    return NULL;

  app = gst_context_new (GST_CL_BOX_BLUR_CONTEXT_TYPE, FALSE);
  s = gst_context_writable_structure (app);
  gst_structure_set (s, "cl-context", G_TYPE_POINTER,
      clb_runtime_get_context (rt), "cl-device", G_TYPE_POINTER,
      clb_runtime_get_device (rt), NULL);
  GST_OBJECT_LOCK (self);
  gst_context_replace (&self->cl_context, app);
  GST_OBJECT_UNLOCK (self);
  gst_context_unref (app);
  return rt;
}

static gboolean
gst_cl_box_blur_start (GstBaseTransform * trans)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  ClbDeviceType device_type;
  gint platform_index, device_index;
  ClbEngineOptions options;
  ClbEngine *engine;
  GError *error = NULL;

  GST_OBJECT_LOCK (self);
  device_type = self->settings.device_type;
  platform_index = self->settings.platform_index;
  device_index = self->settings.device_index;
  GST_OBJECT_UNLOCK (self);

  self->runtime = gst_cl_box_blur_make_runtime (self, device_type,
      platform_index, device_index, &error);
  if (self->runtime == NULL)
    goto failed;

  GST_INFO_OBJECT (self, "OpenCL device '%s' on platform '%s'",
      clb_runtime_get_device_name (self->runtime),
      clb_runtime_get_platform_name (self->runtime));

  if (!clb_runtime_build_program (self->runtime, NULL, &error))
    goto failed;
  GST_INFO_OBJECT (self, "kernels built in %s",
      clb_runtime_get_clang_extensions (self->runtime) ?
      "OpenCL C with clang's vector extensions" : "standard OpenCL C");

  gst_cl_blur_engine_options (GST_ELEMENT (self), &options);
  engine = clb_engine_new (self->runtime, &options, &error);
  if (engine == NULL)
    goto failed;
  GST_OBJECT_LOCK (self);
  self->engine = engine;
  GST_OBJECT_UNLOCK (self);
  /* without it, no pool: frames are mapped and copied as before */
  self->mem_dev = clb_mem_device_new (self->runtime, &error);
  if (self->mem_dev == NULL) {
    GST_WARNING_OBJECT (self, "no buffer pool: %s", error->message);
    g_clear_error (&error);
  }
  GST_INFO_OBJECT (self, "work shaped for a %s%s",
      clb_engine_is_cpu (self->engine) ? "CPU" : "GPU",
      clb_device_class_forced ()? " (forced by " CLB_DEVICE_CLASS_ENV ")" :
      "");
  if (clb_engine_get_loop_cap (self->engine))
    GST_INFO_OBJECT (self, "the device ends kernel loops after %u "
        "iterations: launches planned around that",
        clb_engine_get_loop_cap (self->engine));

  return TRUE;

  /* ERRORS */
failed:
  {
    gst_cl_blur_post_error (GST_ELEMENT (self), error);
    g_clear_error (&error);
    gst_cl_box_blur_stop (trans);
    return FALSE;
  }
}

static gboolean
gst_cl_box_blur_stop (GstBaseTransform * trans)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  ClbEngine *engine;

  /* Kernels and buffers first, then queue, program and context. */
  GST_OBJECT_LOCK (self);
  engine = g_steal_pointer (&self->engine);
  gst_context_replace (&self->cl_context, NULL);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&engine, clb_engine_free);
  g_clear_pointer (&self->mem_dev, clb_mem_device_unref);
  g_clear_pointer (&self->runtime, clb_runtime_free);
  gst_cl_box_blur_gl_stop (self->gl);
  return TRUE;
}

static void
gst_cl_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime timestamp, stream_time;

  /* Controlled values follow stream time, which only a TIME segment gives:
   * after a BYTES segment (multifilesrc, filesrc ! rawvideoparse without a
   * TIME segment) the properties keep their set values. */
  timestamp = GST_BUFFER_TIMESTAMP (buffer);
  if (trans->segment.format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, timestamp);

    GST_DEBUG_OBJECT (trans, "sync to %" GST_TIME_FORMAT,
        GST_TIME_ARGS (timestamp));

    if (GST_CLOCK_TIME_IS_VALID (stream_time))
      gst_object_sync_values (GST_OBJECT (trans), stream_time);
  }

  /* Decided here, by the streaming thread alone, before this buffer's
   * output is prepared: radius 0 hands the buffer on untouched. */
  gst_cl_box_blur_update_passthrough (GST_CL_BOX_BLUR (trans));
}

static void
gst_cl_box_blur_set_context (GstElement * element, GstContext * context)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (element);

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_BOX_BLUR_CONTEXT_TYPE) == 0) {
    GST_OBJECT_LOCK (self);
    gst_context_replace (&self->app_cl_context, context);
    GST_OBJECT_UNLOCK (self);
  }

  gst_cl_box_blur_gl_set_context (self->gl, context);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cl_box_blur_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  const gchar *type;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_query_parse_context_type (query, &type)
      && g_strcmp0 (type, GST_CL_BOX_BLUR_CONTEXT_TYPE) == 0) {
    gboolean answered = FALSE;

    GST_OBJECT_LOCK (self);
    if (self->cl_context) {
      gst_query_set_context (query, self->cl_context);
      answered = TRUE;
    }
    GST_OBJECT_UNLOCK (self);
    if (answered)
      return TRUE;
  } else if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_cl_box_blur_gl_handle_context_query (self->gl, query)) {
    return TRUE;
  }

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

static GstStateChangeReturn
gst_cl_box_blur_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (element);
  GstStateChangeReturn ret;

  /* Deactivating the pads waits for the streaming thread: a long frame
   * (bilateral, large radius) stops first. */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY
      || transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_box_blur_cancel (self, TRUE);

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (ret == GST_STATE_CHANGE_FAILURE)
    return ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    gst_cl_box_blur_cancel (self, FALSE);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_box_blur_gl_close (self->gl);
  return ret;
}

static gboolean
gst_cl_box_blur_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  GstCLBoxBlurGLSettings gl_settings;
  GError *error = NULL;

  GST_DEBUG_OBJECT (self, "%s %ux%u", GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info));

  if (self->engine == NULL)
    goto not_started;

  GST_OBJECT_LOCK (self);
  gl_settings.sharing = self->settings.gl_sharing;
  gl_settings.device_type = self->settings.device_type;
  gl_settings.platform_index = self->settings.platform_index;
  gl_settings.device_index = self->settings.device_index;
  GST_OBJECT_UNLOCK (self);

  gst_cl_blur_layout_make_planes (in_info, &self->planes);
  if (GST_VIDEO_INFO_IS_INTERLACED (in_info)
      && !gst_cl_blur_fields_check (GST_ELEMENT (self), incaps, in_info,
          &self->field_planes))
    return FALSE;
  if (!gst_cl_box_blur_gl_set_info (self->gl, incaps, &gl_settings,
          self->runtime, &self->planes, &error))
    goto failed;
  /* Unless GL textures are shared, frames go through this engine: a
   * field at a time for interleaved video. */
  self->engine_fields = GST_VIDEO_INFO_INTERLACE_MODE (in_info) ==
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
  if (!gst_cl_box_blur_gl_shares (self->gl)
      && !clb_engine_set_planes (self->engine, self->engine_fields ?
          &self->field_planes : &self->planes, &error))
    goto failed;

  return TRUE;

  /* ERRORS */
not_started:
  {
    GST_ERROR_OBJECT (self, "caps set before the OpenCL device was set up");
    return FALSE;
  }
failed:
  {
    gst_cl_blur_post_error (GST_ELEMENT (self), error);
    g_clear_error (&error);
    return FALSE;
  }
}

/* Takes one consistent copy of the properties and turns it, the region and
 * @inbuf's ROI metas into @params and the jobs of the negotiated format;
 * returns the number of jobs. */
static guint
gst_cl_box_blur_prepare (GstCLBoxBlur * self, GstBuffer * inbuf,
    ClbParams * params, ClbJob * jobs)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstCLBoxBlurSettings settings;
  GstCLBlurRadius chroma = { FALSE, 0 }, alpha = { FALSE, 0 };
  guint p;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);

  params->method = settings.method;
  params->border = settings.border;
  params->radius_x = settings.radius;
  params->radius_y = gst_cl_box_blur_settings_radius_y (&settings);
  params->passes = settings.passes;
  params->n_pass_radii = 0;
  if (settings.sigma > 0 && settings.method != CLB_METHOD_BILATERAL) {
    params->n_pass_radii = 3;
    clb_gaussian_radii (settings.sigma, 3, params->pass_radius_x);
    for (p = 0; p < 3; p++)
      params->pass_radius_y[p] = params->pass_radius_x[p];
  }
  params->sigma_spatial = settings.sigma_spatial;
  params->sigma_range = settings.sigma_range;
  gst_cl_blur_regions_collect (&settings, inbuf, info, self->rects, params);
  GST_LOG_OBJECT (self, "%u region(s)%s", params->n_regions,
      params->use_regions ? "" : " (whole frame)");

  if (settings.chroma_radius >= 0) {
    chroma.own = TRUE;
    chroma.radius = settings.chroma_radius;
  }
  if (settings.preserve_alpha || settings.alpha_radius >= 0) {
    alpha.own = TRUE;
    alpha.radius = settings.preserve_alpha ? 0 : settings.alpha_radius;
  }
  return gst_cl_blur_layout_make_plane_jobs (info, &chroma, &alpha, jobs);
}

/* Gives the engine the storage of a field (@fields) or of a frame, where
 * mixed video switches between them. */
static gboolean
use_planes (GstCLBoxBlur * self, gboolean fields, GError ** error)
{
  if (self->engine_fields == fields)
    return TRUE;
  if (!clb_engine_set_planes (self->engine, fields ? &self->field_planes :
          &self->planes, error))
    return FALSE;
  self->engine_fields = fields;
  return TRUE;
}

static GstFlowReturn
gst_cl_box_blur_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint8 *src[GST_VIDEO_MAX_PLANES], *dst[GST_VIDEO_MAX_PLANES];
  gsize src_stride[GST_VIDEO_MAX_PLANES], dst_stride[GST_VIDEO_MAX_PLANES];
  guint n_jobs;
  GError *error = NULL;

  n_jobs = gst_cl_box_blur_prepare (self, in_frame->buffer, &params, jobs);

  /* The radii may have dropped to 0 after passthrough was decided for
   * this buffer, or leave this format alone. */
  if (!clb_params_filter_jobs (&params, jobs, n_jobs)) {
    if (!gst_video_frame_copy (out_frame, in_frame))
      goto copy_failed;
    return GST_FLOW_OK;
  }

  gst_cl_blur_layout_frame_planes (in_frame, src, src_stride);
  gst_cl_blur_layout_frame_planes (out_frame, dst, dst_stride);
  if (gst_cl_blur_layout_has_fields (&filter->in_info, in_frame->buffer)) {
    if (!use_planes (self, TRUE, &error)
        || !gst_cl_blur_fields_process (self->engine, &params, jobs, n_jobs,
            src, src_stride, dst, dst_stride,
            GST_VIDEO_FRAME_N_PLANES (in_frame), self->field_rects, &error))
      goto process_failed;
    return GST_FLOW_OK;
  }
  if ((self->engine_fields && !use_planes (self, FALSE, &error))
      || !clb_engine_process (self->engine, &params, jobs, n_jobs,
          (const guint8 * const *) src, src_stride, dst, dst_stride, &error))
    goto process_failed;

  return GST_FLOW_OK;

  /* ERRORS */
copy_failed:
  {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("Failed to copy the frame."),
        (NULL));
    return GST_FLOW_ERROR;
  }
process_failed:
  return gst_cl_blur_frame_failed (GST_ELEMENT (self), error);
}

/* Frames in OpenCL memory of the engine's context (gstclblurpool.c): no
 * map, no host copy. FALSE where the frame takes GstVideoFilter's way. */
static gboolean
gst_cl_box_blur_transform_mem (GstCLBoxBlur * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GstFlowReturn * ret)
{
  ClbMemPlane src[CLB_MAX_PLANES], dst[CLB_MAX_PLANES];
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;
  GError *error = NULL;

  if (self->mem_dev == NULL || !gst_cl_blur_frames_in_mem (GST_VIDEO_FILTER
          (self), inbuf, outbuf, &self->planes,
          clb_runtime_get_context (self->runtime), src, dst))
    return FALSE;
  n_jobs = gst_cl_box_blur_prepare (self, inbuf, &params, jobs);
  if (!clb_params_filter_jobs (&params, jobs, n_jobs))
    return FALSE;               /* GstVideoFilter's way copies it */
  GST_LOG_OBJECT (self, "frame in OpenCL memory");
  *ret = GST_FLOW_OK;
  if ((self->engine_fields && !use_planes (self, FALSE, &error))
      || !clb_engine_process_mem (self->engine, &params, jobs, n_jobs, src,
          dst, &error))
    *ret = gst_cl_blur_frame_failed (GST_ELEMENT (self), error);
  return TRUE;
}

/* What stop and READY to NULL normally released already; dispose may run
 * more than once. */
static void
gst_cl_box_blur_dispose (GObject * object)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  g_clear_pointer (&self->engine, clb_engine_free);
  g_clear_pointer (&self->mem_dev, clb_mem_device_unref);
  g_clear_pointer (&self->runtime, clb_runtime_free);
  gst_cl_box_blur_gl_close (self->gl);
  gst_context_replace (&self->app_cl_context, NULL);
  gst_context_replace (&self->cl_context, NULL);

  G_OBJECT_CLASS (parent_class)->dispose (object);
}

static void
gst_cl_box_blur_finalize (GObject * object)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  g_array_free (self->rects, TRUE);
  g_array_free (self->field_rects, TRUE);
  gst_cl_box_blur_gl_free (self->gl);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* GstVideoFilter's transform maps the frames into host memory and calls
 * transform_frame; GLMemory frames are shared with OpenCL or copied
 * (gstclboxblurgl.c). */
static GstFlowReturn
gst_cl_box_blur_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstFlowReturn ret;

  if (!gst_cl_box_blur_gl_is_active (self->gl)) {
    if (gst_cl_box_blur_transform_mem (self, inbuf, outbuf, &ret))
      return ret;
    return GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
        outbuf);
  }

  gst_cl_box_blur_gl_wait (self->gl, inbuf);
  if (gst_cl_box_blur_gl_shares (self->gl)) {
    ClbParams params;
    ClbJob jobs[CLB_MAX_JOBS];
    guint n_jobs = gst_cl_box_blur_prepare (self, inbuf, &params, jobs);

    ret = gst_cl_box_blur_gl_transform (self->gl, inbuf, outbuf, &params,
        jobs, n_jobs);
  } else {
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
        outbuf);
    if (ret == GST_FLOW_OK)
      ret = gst_cl_box_blur_gl_upload (self->gl, outbuf);
  }
  if (ret == GST_FLOW_OK)
    gst_cl_box_blur_gl_set_sync_point (self->gl, outbuf);
  return ret;
}
