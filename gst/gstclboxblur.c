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
 * subsampling.
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
 * gst-launch-1.0 videotestsrc pattern=snow ! clboxblur method=bilateral radius=5 sigma-spatial=3 sigma-range=40 ! videoconvert ! autovideosink
 * ]| Edge-preserving denoise.
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
#include <gst/gl/gstglfuncs.h>
#if GST_GL_HAVE_PLATFORM_EGL
#include <gst/gl/egl/gstgldisplay_egl.h>
#endif

#include "gstclboxblur.h"
#include "clblur/engine.h"
#include "clblur/glshare.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

#define DEFAULT_RADIUS 4
#define DEFAULT_RADIUS_Y -1
/* identical pixels to sat, and the faster of the two (docs/index.md) */
#define DEFAULT_METHOD CLB_METHOD_SEPARABLE
#define DEFAULT_BORDER CLB_BORDER_SHRINK
#define DEFAULT_PASSES 1
#define DEFAULT_SIGMA_SPATIAL 3.0
#define DEFAULT_SIGMA_RANGE 30.0
#define DEFAULT_PRESERVE_ALPHA FALSE
#define MAX_SIGMA 1.0e6
#define DEFAULT_REGION_X 0
#define DEFAULT_REGION_Y 0
#define DEFAULT_REGION_WIDTH 0
#define DEFAULT_REGION_HEIGHT 0
#define DEFAULT_REGION_INVERT FALSE
#define DEFAULT_ROI_META FALSE
#define DEFAULT_ROI_TYPE NULL
#define DEFAULT_ROI_PADDING 0
#define DEFAULT_DEVICE_TYPE CLB_DEVICE_TYPE_DEFAULT
#define DEFAULT_PLATFORM_INDEX -1
#define DEFAULT_DEVICE_INDEX 0
#define DEFAULT_GL_SHARING CLB_GL_SHARING_AUTO

/* The GL APIs whose textures we can read and write. */
#define SUPPORTED_GL_APIS \
    (GST_GL_API_OPENGL | GST_GL_API_OPENGL3 | GST_GL_API_GLES2)

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_Y,
  PROP_METHOD,
  PROP_BORDER,
  PROP_PASSES,
  PROP_SIGMA_SPATIAL,
  PROP_SIGMA_RANGE,
  PROP_PRESERVE_ALPHA,
  PROP_REGION_X,
  PROP_REGION_Y,
  PROP_REGION_WIDTH,
  PROP_REGION_HEIGHT,
  PROP_REGION_INVERT,
  PROP_ROI_META,
  PROP_ROI_TYPE,
  PROP_ROI_PADDING,
  PROP_DEVICE_TYPE,
  PROP_PLATFORM_INDEX,
  PROP_DEVICE_INDEX,
  PROP_GL_SHARING,
};

struct _GstCLBoxBlur
{
  GstVideoFilter parent;

  /* properties, under the object lock */
  guint radius;
  gint radius_y;
  ClbMethod method;
  ClbBorder border;
  guint passes;
  gdouble sigma_spatial;
  gdouble sigma_range;
  gboolean preserve_alpha;
  guint region_x, region_y, region_width, region_height;
  gboolean region_invert;
  gboolean roi_meta;
  GQuark roi_type;              /* 0: any */
  guint roi_padding;
  ClbDeviceType device_type;
  gint platform_index;
  gint device_index;

  /* The application's OpenCL context (GST_CL_BOX_BLUR_CONTEXT_TYPE), and
   * the one in use while started (for context queries); under the object
   * lock. */
  GstContext *app_cl_context;
  GstContext *cl_context;

  /* streaming state: created in start, freed in stop */
  ClbRuntime *runtime;
  ClbEngine *engine;
  ClbPlanes planes;             /* the negotiated format's storage */
  GArray *rects;                /* ClbRect, rebuilt for each frame */

  /* GL memory. display, other_context and context are under gl_lock:
   * context queries come from other threads. */
  ClbGlSharing gl_sharing;      /* property, under the object lock */
  GRecMutex gl_lock;
  GstGLDisplay *display;
  GstGLContext *other_context;  /* the application's, to share with */
  GstGLContext *context;        /* ours, or a neighbour's */
  gboolean gl_memory;           /* the negotiated caps are GLMemory */
  ClbGlPath gl_path;            /* how textures reach OpenCL */
  /* GL sharing: runtime and engine on a context tied to GL's */
  ClbRuntime *gl_runtime;
  ClbEngine *gl_engine;
  gint gl_runtime_generation;
  GstGLContext *gl_runtime_context;     /* the GL context it is tied to */
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

GType
gst_cl_box_blur_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CLB_METHOD_SAT, "Summed-area table box blur, O(1) in the radius", "sat"},
    {CLB_METHOD_SEPARABLE, "Horizontal then vertical box pass with "
          "running sums, O(1) in the radius", "separable"},
    {CLB_METHOD_BILATERAL, "Edge-preserving bilateral denoise, "
          "O(radius^2)", "bilateral"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLBoxBlurMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_box_blur_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CLB_BORDER_SHRINK, "Average only the window's pixels inside the frame",
        "shrink"},
    {CLB_BORDER_REPLICATE, "Repeat the edge pixel (aaa|abc)", "replicate"},
    {CLB_BORDER_REFLECT, "Mirror without repeating the edge pixel (cb|abc)",
        "reflect"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLBoxBlurBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_box_blur_device_type_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CLB_DEVICE_TYPE_DEFAULT, "Any OpenCL device", "default"},
    {CLB_DEVICE_TYPE_CPU, "A CPU device", "cpu"},
    {CLB_DEVICE_TYPE_GPU, "A GPU device", "gpu"},
    {CLB_DEVICE_TYPE_ACCELERATOR, "An accelerator device", "accelerator"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLBoxBlurDeviceType", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_box_blur_gl_sharing_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CLB_GL_SHARING_AUTO, "Share textures where the device can, else copy",
        "auto"},
    {CLB_GL_SHARING_OFF, "Copy textures through host memory", "off"},
    {CLB_GL_SHARING_FORCE, "Share textures (cl_khr_gl_sharing) or fail",
        "force"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCLBoxBlurGLSharing", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

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
static GstFlowReturn gst_cl_box_blur_submit_input_buffer (GstBaseTransform *
    trans, gboolean is_discont, GstBuffer * input);
static gboolean gst_cl_box_blur_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static void gst_cl_box_blur_finalize (GObject * object);
static void gst_cl_box_blur_set_context (GstElement * element,
    GstContext * context);
static GstStateChangeReturn gst_cl_box_blur_change_state (GstElement *
    element, GstStateChange transition);
static gboolean gst_cl_box_blur_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static gboolean gst_cl_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
static gboolean gst_cl_box_blur_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);
static GstFlowReturn gst_cl_box_blur_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf);
static guint gst_cl_box_blur_prepare (GstCLBoxBlur * self, GstBuffer * inbuf,
    ClbParams * params, ClbJob * jobs);

#define gst_cl_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCLBoxBlur, gst_cl_box_blur, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (clboxblur, "clboxblur", GST_RANK_NONE,
    GST_TYPE_CL_BOX_BLUR, GST_DEBUG_CATEGORY_INIT (gst_cl_box_blur_debug,
        "clboxblur", 0, "OpenCL box blur"));

static void
gst_cl_box_blur_class_init (GstCLBoxBlurClass * klass)
{
  GObjectClass *gobject_class = (GObjectClass *) klass;
  GstElementClass *element_class = (GstElementClass *) klass;
  GstBaseTransformClass *trans_class = (GstBaseTransformClass *) klass;
  GstVideoFilterClass *filter_class = (GstVideoFilterClass *) klass;

  gobject_class->set_property = gst_cl_box_blur_set_property;
  gobject_class->get_property = gst_cl_box_blur_get_property;
  gobject_class->finalize = gst_cl_box_blur_finalize;

  /**
   * GstCLBoxBlur:radius:
   *
   * Horizontal half-width of the window: the mean is taken over
   * 2·radius+1 columns. 0 passes frames through untouched (when
   * #GstCLBoxBlur:radius-y is 0 or -1 too). The bound keeps every box sum of
   * 8-bit samples exact in the 32-bit summed-area table.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Horizontal half-width of the blur window in pixels "
          "(0 = pass through)", 0, CLB_MAX_RADIUS, DEFAULT_RADIUS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:radius-y:
   *
   * Vertical half-width of the window in pixels; -1 uses
   * #GstCLBoxBlur:radius.
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS_Y,
      g_param_spec_int ("radius-y", "Vertical radius",
          "Vertical half-width of the blur window in pixels "
          "(-1 = same as radius)", -1, CLB_MAX_RADIUS, DEFAULT_RADIUS_Y,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:method:
   *
   * The filter: `sat` and `separable` are box blurs with identical output
   * and a cost independent of the radius (`separable`, the default, is the
   * faster); `bilateral` is the edge-preserving denoiser.
   */
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Filter algorithm: box blur (sat, separable) or bilateral denoise",
          GST_TYPE_CL_BOX_BLUR_METHOD, DEFAULT_METHOD,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:border:
   *
   * What the window sees past the frame's edge: `shrink` averages only the
   * pixels inside (the source documents' behaviour), `replicate` repeats the
   * edge pixel, `reflect` mirrors without repeating it (OpenCV's default).
   */
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How the window is completed past the frame's edge",
          GST_TYPE_CL_BOX_BLUR_BORDER, DEFAULT_BORDER,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:passes:
   *
   * How many times the box filter is applied (`sat` and `separable`);
   * three passes approximate a Gaussian blur. Ignored by `bilateral`.
   */
  g_object_class_install_property (gobject_class, PROP_PASSES,
      g_param_spec_uint ("passes", "Passes",
          "Times the box filter is applied (3 approximates a Gaussian; "
          "box methods only)", 1, CLB_MAX_PASSES, DEFAULT_PASSES,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:sigma-spatial:
   *
   * Bilateral: standard deviation of the spatial Gaussian in pixels of the
   * plane filtered. 0 weighs the whole window alike.
   */
  g_object_class_install_property (gobject_class, PROP_SIGMA_SPATIAL,
      g_param_spec_double ("sigma-spatial", "Spatial sigma",
          "Bilateral: spatial Gaussian standard deviation in pixels "
          "(0 = flat window)", 0.0, MAX_SIGMA, DEFAULT_SIGMA_SPATIAL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:sigma-range:
   *
   * Bilateral: standard deviation of the range Gaussian, in 8-bit intensity
   * units (scaled by the format's depth: ×1023/255 for 10-bit). The
   * distance is taken over the colour channels stored together (RGB, or
   * U and V of NV12), not per channel, alpha excluded. 0 averages only
   * identical colours.
   */
  g_object_class_install_property (gobject_class, PROP_SIGMA_RANGE,
      g_param_spec_double ("sigma-range", "Range sigma",
          "Bilateral: range Gaussian standard deviation in 8-bit intensity "
          "units (0 = only identical colours)", 0.0, MAX_SIGMA,
          DEFAULT_SIGMA_RANGE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:preserve-alpha:
   *
   * Keep the alpha channel untouched instead of filtering it like the
   * others.
   */
  g_object_class_install_property (gobject_class, PROP_PRESERVE_ALPHA,
      g_param_spec_boolean ("preserve-alpha", "Preserve alpha",
          "Leave the alpha channel untouched", DEFAULT_PRESERVE_ALPHA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:region-x:
   *
   * Left edge of the region to filter, in pixels. The region (default: the
   * whole frame) limits the filter to a rectangle; the pixels outside are
   * copied unchanged, and the pixels inside still see their real
   * neighbours across its edge, so there is no seam.
   */
  g_object_class_install_property (gobject_class, PROP_REGION_X,
      g_param_spec_uint ("region-x", "Region X",
          "Left edge of the region to filter, in pixels", 0, G_MAXINT,
          DEFAULT_REGION_X, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:region-y:
   *
   * Top edge of the region to filter, in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_REGION_Y,
      g_param_spec_uint ("region-y", "Region Y",
          "Top edge of the region to filter, in pixels", 0, G_MAXINT,
          DEFAULT_REGION_Y, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:region-width:
   *
   * Width of the region in pixels; 0 reaches the frame's right edge.
   */
  g_object_class_install_property (gobject_class, PROP_REGION_WIDTH,
      g_param_spec_uint ("region-width", "Region width",
          "Width of the region to filter in pixels (0 = to the right edge)",
          0, G_MAXINT, DEFAULT_REGION_WIDTH, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:region-height:
   *
   * Height of the region in pixels; 0 reaches the frame's bottom edge.
   */
  g_object_class_install_property (gobject_class, PROP_REGION_HEIGHT,
      g_param_spec_uint ("region-height", "Region height",
          "Height of the region to filter in pixels (0 = to the bottom edge)",
          0, G_MAXINT, DEFAULT_REGION_HEIGHT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:region-invert:
   *
   * Filter everything except the region (or the ROI metas): the
   * background blur of video calls.
   */
  g_object_class_install_property (gobject_class, PROP_REGION_INVERT,
      g_param_spec_boolean ("region-invert", "Invert region",
          "Filter everything except the region(s)", DEFAULT_REGION_INVERT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:roi-meta:
   *
   * Filter the rectangles of the buffer's GstVideoRegionOfInterestMeta
   * instead of the region-* rectangle: a buffer without such metas passes
   * unfiltered (everything is filtered with #GstCLBoxBlur:region-invert).
   * The frame is filtered once however many regions there are.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "ROI meta",
          "Filter the buffer's region-of-interest metas instead of the "
          "region-* rectangle", DEFAULT_ROI_META,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:roi-type:
   *
   * With #GstCLBoxBlur:roi-meta, only the metas of this type (e.g. "face");
   * NULL or empty takes every type.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_TYPE,
      g_param_spec_string ("roi-type", "ROI type",
          "Only region-of-interest metas of this type, e.g. face "
          "(empty = any)", DEFAULT_ROI_TYPE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /**
   * GstCLBoxBlur:roi-padding:
   *
   * Pixels added on every side of each region-of-interest meta.
   */
  g_object_class_install_property (gobject_class, PROP_ROI_PADDING,
      g_param_spec_uint ("roi-padding", "ROI padding",
          "Pixels added on every side of each region-of-interest meta", 0,
          G_MAXINT / 4, DEFAULT_ROI_PADDING, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_CONTROLLABLE |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCLBoxBlur:device-type:
   *
   * Which kind of OpenCL device to run on.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_TYPE,
      g_param_spec_enum ("device-type", "Device type",
          "Kind of OpenCL device to use", GST_TYPE_CL_BOX_BLUR_DEVICE_TYPE,
          DEFAULT_DEVICE_TYPE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCLBoxBlur:platform-index:
   *
   * Index of the OpenCL platform (driver), as clinfo lists them; -1 takes
   * the first platform that has a matching device.
   */
  g_object_class_install_property (gobject_class, PROP_PLATFORM_INDEX,
      g_param_spec_int ("platform-index", "Platform index",
          "Index of the OpenCL platform (-1 = first with a matching device)",
          -1, G_MAXINT, DEFAULT_PLATFORM_INDEX,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCLBoxBlur:device-index:
   *
   * Index of the device among the platform's devices of
   * #GstCLBoxBlur:device-type.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_INDEX,
      g_param_spec_int ("device-index", "Device index",
          "Index among the platform's devices of the chosen type",
          0, G_MAXINT, DEFAULT_DEVICE_INDEX,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCLBoxBlur:gl-sharing:
   *
   * How GL textures (video/x-raw(memory:GLMemory)) reach OpenCL: `auto`
   * shares them (cl_khr_gl_sharing, no pixel leaves the device) where the
   * device and the GL context allow it and copies them through host memory
   * otherwise; `off` always copies; `force` shares or fails with an error
   * saying why. The debug log (clboxblur:4) says which path runs.
   */
  g_object_class_install_property (gobject_class, PROP_GL_SHARING,
      g_param_spec_enum ("gl-sharing", "GL sharing",
          "How GL textures reach OpenCL: shared (cl_khr_gl_sharing) "
          "or copied", GST_TYPE_CL_BOX_BLUR_GL_SHARING, DEFAULT_GL_SHARING,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

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
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_box_blur_transform);
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

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_DEVICE_TYPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_GL_SHARING, 0);
}

static void
gst_cl_box_blur_init (GstCLBoxBlur * self)
{
  self->radius = DEFAULT_RADIUS;
  self->radius_y = DEFAULT_RADIUS_Y;
  self->method = DEFAULT_METHOD;
  self->border = DEFAULT_BORDER;
  self->passes = DEFAULT_PASSES;
  self->sigma_spatial = DEFAULT_SIGMA_SPATIAL;
  self->sigma_range = DEFAULT_SIGMA_RANGE;
  self->preserve_alpha = DEFAULT_PRESERVE_ALPHA;
  self->region_x = DEFAULT_REGION_X;
  self->region_y = DEFAULT_REGION_Y;
  self->region_width = DEFAULT_REGION_WIDTH;
  self->region_height = DEFAULT_REGION_HEIGHT;
  self->region_invert = DEFAULT_REGION_INVERT;
  self->roi_meta = DEFAULT_ROI_META;
  self->roi_type = 0;
  self->roi_padding = DEFAULT_ROI_PADDING;
  self->rects = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  self->device_type = DEFAULT_DEVICE_TYPE;
  self->platform_index = DEFAULT_PLATFORM_INDEX;
  self->device_index = DEFAULT_DEVICE_INDEX;
  self->gl_sharing = DEFAULT_GL_SHARING;
  g_rec_mutex_init (&self->gl_lock);
}

/* Call with the object lock held. */
static guint
effective_radius_y (GstCLBoxBlur * self)
{
  return self->radius_y < 0 ? self->radius : (guint) self->radius_y;
}

static void
gst_cl_box_blur_update_passthrough (GstCLBoxBlur * self)
{
  gboolean passthrough;

  GST_OBJECT_LOCK (self);
  passthrough = self->radius == 0 && effective_radius_y (self) == 0;
  GST_OBJECT_UNLOCK (self);

  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), passthrough);
}

static void
gst_cl_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  switch (prop_id) {
    case PROP_RADIUS:
      GST_OBJECT_LOCK (self);
      self->radius = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_RADIUS_Y:
      GST_OBJECT_LOCK (self);
      self->radius_y = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_METHOD:
      GST_OBJECT_LOCK (self);
      self->method = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PASSES:
      GST_OBJECT_LOCK (self);
      self->passes = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_SIGMA_SPATIAL:
      GST_OBJECT_LOCK (self);
      self->sigma_spatial = g_value_get_double (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_SIGMA_RANGE:
      GST_OBJECT_LOCK (self);
      self->sigma_range = g_value_get_double (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PRESERVE_ALPHA:
      GST_OBJECT_LOCK (self);
      self->preserve_alpha = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_X:
      GST_OBJECT_LOCK (self);
      self->region_x = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_Y:
      GST_OBJECT_LOCK (self);
      self->region_y = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_WIDTH:
      GST_OBJECT_LOCK (self);
      self->region_width = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_HEIGHT:
      GST_OBJECT_LOCK (self);
      self->region_height = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_REGION_INVERT:
      GST_OBJECT_LOCK (self);
      self->region_invert = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_META:
      GST_OBJECT_LOCK (self);
      self->roi_meta = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_TYPE:{
      const gchar *type = g_value_get_string (value);

      GST_OBJECT_LOCK (self);
      self->roi_type = type && *type ? g_quark_from_string (type) : 0;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case PROP_ROI_PADDING:
      GST_OBJECT_LOCK (self);
      self->roi_padding = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_BORDER:
      GST_OBJECT_LOCK (self);
      self->border = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_DEVICE_TYPE:
      GST_OBJECT_LOCK (self);
      self->device_type = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PLATFORM_INDEX:
      GST_OBJECT_LOCK (self);
      self->platform_index = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_DEVICE_INDEX:
      GST_OBJECT_LOCK (self);
      self->device_index = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_GL_SHARING:
      GST_OBJECT_LOCK (self);
      self->gl_sharing = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_box_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RADIUS:
      g_value_set_uint (value, self->radius);
      break;
    case PROP_RADIUS_Y:
      g_value_set_int (value, self->radius_y);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->border);
      break;
    case PROP_PASSES:
      g_value_set_uint (value, self->passes);
      break;
    case PROP_SIGMA_SPATIAL:
      g_value_set_double (value, self->sigma_spatial);
      break;
    case PROP_SIGMA_RANGE:
      g_value_set_double (value, self->sigma_range);
      break;
    case PROP_PRESERVE_ALPHA:
      g_value_set_boolean (value, self->preserve_alpha);
      break;
    case PROP_REGION_X:
      g_value_set_uint (value, self->region_x);
      break;
    case PROP_REGION_Y:
      g_value_set_uint (value, self->region_y);
      break;
    case PROP_REGION_WIDTH:
      g_value_set_uint (value, self->region_width);
      break;
    case PROP_REGION_HEIGHT:
      g_value_set_uint (value, self->region_height);
      break;
    case PROP_REGION_INVERT:
      g_value_set_boolean (value, self->region_invert);
      break;
    case PROP_ROI_META:
      g_value_set_boolean (value, self->roi_meta);
      break;
    case PROP_ROI_TYPE:
      g_value_set_string (value, g_quark_to_string (self->roi_type));
      break;
    case PROP_ROI_PADDING:
      g_value_set_uint (value, self->roi_padding);
      break;
    case PROP_DEVICE_TYPE:
      g_value_set_enum (value, self->device_type);
      break;
    case PROP_PLATFORM_INDEX:
      g_value_set_int (value, self->platform_index);
      break;
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->device_index);
      break;
    case PROP_GL_SHARING:
      g_value_set_enum (value, self->gl_sharing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Posts the element error that fits a runtime or engine failure. */
/* The engine's log (its device profile, the variant each job runs). */
static void
gst_cl_box_blur_engine_log (gpointer user_data, const gchar * message)
{
  GST_INFO_OBJECT (user_data, "%s", message);
}

/* The engine's options: from the environment, the log to ours. */
static ClbEngineOptions
gst_cl_box_blur_engine_options (GstCLBoxBlur * self)
{
  ClbEngineOptions options;

  clb_engine_options_from_env (&options);
  options.log = gst_cl_box_blur_engine_log;
  options.log_data = self;
  return options;
}

static void
gst_cl_box_blur_post_error (GstCLBoxBlur * self, const GError * error)
{
  if (error == NULL) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
        ("An OpenCL operation failed."), ("no details"));
    return;
  }
  /* the engine's own errors (CLB_ENGINE_ERROR): an operation failed */
  switch (error->domain == CLB_RUNTIME_ERROR ? error->code :
      CLB_RUNTIME_ERROR_FAILED) {
    case CLB_RUNTIME_ERROR_NO_PLATFORM:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL platform found. Install an OpenCL driver, for example "
              "the 'pocl-opencl-icd' package (CPU) or your GPU vendor's "
              "OpenCL ICD."), ("%s", error->message));
      break;
    case CLB_RUNTIME_ERROR_NO_DEVICE:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device matches device-type, platform-index and "
              "device-index."), ("%s", error->message));
      break;
    case CLB_RUNTIME_ERROR_SOURCE:
    case CLB_RUNTIME_ERROR_BUILD:
      GST_ELEMENT_ERROR (self, LIBRARY, INIT,
          ("Failed to build the OpenCL blur kernels."), ("%s",
              error->message));
      break;
    case CLB_RUNTIME_ERROR_NO_GL_SHARING:
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("OpenCL cannot share textures with this GL context; set "
              "gl-sharing=auto or off to copy them instead."), ("%s",
              error->message));
      break;
    case CLB_RUNTIME_ERROR_NO_MEMORY:
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("Not enough OpenCL device memory for this frame size."), ("%s",
              error->message));
      break;
    case CLB_RUNTIME_ERROR_FAILED:
    default:
      GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
          ("An OpenCL operation failed."), ("%s", error->message));
      break;
  }
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
  GError *error = NULL;

  GST_OBJECT_LOCK (self);
  device_type = self->device_type;
  platform_index = self->platform_index;
  device_index = self->device_index;
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

  options = gst_cl_box_blur_engine_options (self);
  self->engine = clb_engine_new (self->runtime, &options, &error);
  if (self->engine == NULL)
    goto failed;
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
    gst_cl_box_blur_post_error (self, error);
    g_clear_error (&error);
    gst_cl_box_blur_stop (trans);
    return FALSE;
  }
}

static gboolean
gst_cl_box_blur_stop (GstBaseTransform * trans)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);

  /* Kernels and buffers first, then queue, program and context. */
  g_clear_pointer (&self->engine, clb_engine_free);
  GST_OBJECT_LOCK (self);
  gst_context_replace (&self->cl_context, NULL);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->runtime, clb_runtime_free);
  g_clear_pointer (&self->gl_engine, clb_engine_free);
  g_clear_pointer (&self->gl_runtime, clb_runtime_free);
  gst_clear_object (&self->gl_runtime_context);
  self->gl_memory = FALSE;
  return TRUE;
}

static void
gst_cl_box_blur_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime timestamp, stream_time;

  timestamp = GST_BUFFER_TIMESTAMP (buffer);
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      timestamp);

  GST_DEBUG_OBJECT (trans, "sync to %" GST_TIME_FORMAT,
      GST_TIME_ARGS (timestamp));

  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);

  /* Decided here, by the streaming thread alone, before this buffer's
   * output is prepared: radius 0 hands the buffer on untouched. */
  gst_cl_box_blur_update_passthrough (GST_CL_BOX_BLUR (trans));
}

/* Bytes per sample container: 2 for 10- and 16-bit formats. */
static guint
container_bytes (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;
}

/* Offset of component @c from its pixel's start, in sample containers.
 * GStreamer 1.22's table gives P010_10LE's V a byte offset of 1 (its
 * unpacker does not use it); the V sample is the pixel's second 16-bit
 * container. An offset that is not a whole container is read that way. */
static guint
comp_offset (const GstVideoInfo * info, guint c)
{
  guint bytes = container_bytes (info);
  guint poffset = GST_VIDEO_INFO_COMP_POFFSET (info, c);

  return poffset % bytes == 0 ? poffset / bytes : poffset;
}

/* How the format stores its samples, for the engine's buffers. */
static void
gst_cl_box_blur_make_planes (const GstVideoInfo * info, ClbPlanes * planes)
{
  guint bytes = container_bytes (info);
  guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  guint c;

  memset (planes, 0, sizeof (*planes));
  planes->width = GST_VIDEO_INFO_WIDTH (info);
  planes->height = GST_VIDEO_INFO_HEIGHT (info);
  planes->sample_size = bytes == 2 ? CLB_SAMPLES_16 : CLB_SAMPLES_8;
  planes->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
  planes->big_endian = bytes == 2 && !GST_VIDEO_FORMAT_INFO_IS_LE (info->finfo);
  planes->max_value = (1u << depth) - 1;
  planes->n_planes = GST_VIDEO_INFO_N_PLANES (info);

  /* A plane's rows hold every pixel of every component stored in it. */
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    guint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    guint row = GST_VIDEO_INFO_COMP_WIDTH (info, c)
        * GST_VIDEO_INFO_COMP_PSTRIDE (info, c) / bytes;

    planes->plane_width[p] = MAX (planes->plane_width[p], row);
    planes->plane_height[p] = MAX (planes->plane_height[p],
        (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, c));
  }
}

/* Groups the components into jobs: those on one plane with one geometry are
 * filtered together (and share the bilateral range distance). */
static guint
gst_cl_box_blur_make_jobs (const GstVideoInfo * info, gboolean preserve_alpha,
    ClbJob * jobs)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean has_alpha = GST_VIDEO_INFO_HAS_ALPHA (info);
  guint bytes = container_bytes (info);
  guint n_jobs = 0, c, j;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gboolean alpha = has_alpha && c == GST_VIDEO_COMP_A;
    ClbJob job = { 0, };
    ClbJob *to = NULL;

    if (alpha && preserve_alpha)
      continue;

    job.plane = GST_VIDEO_INFO_COMP_PLANE (info, c);
    job.width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    job.height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    job.pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c) / bytes;
    job.x_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    job.y_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);

    for (j = 0; j < n_jobs; j++) {
      if (jobs[j].plane == job.plane && jobs[j].width == job.width
          && jobs[j].height == job.height
          && jobs[j].pixel_stride == job.pixel_stride) {
        to = &jobs[j];
        break;
      }
    }
    if (to == NULL) {
      to = &jobs[n_jobs++];
      *to = job;
    }
    to->offset[to->channels] = comp_offset (info, c);
    if (!alpha)
      to->dist_mask |= 1u << to->channels;
    to->channels++;
  }

  /* A job of alpha alone (A420's alpha plane) measures its own distance. */
  for (j = 0; j < n_jobs; j++) {
    if (jobs[j].dist_mask == 0)
      jobs[j].dist_mask = (1u << jobs[j].channels) - 1;
  }
  return n_jobs;
}

/* Whether @buf holds a whole frame of the negotiated format: it maps as
 * one, and every plane's offset + stride x (rows - 1) + row bytes lies
 * inside it. GStreamer 1.22's gst_video_frame_map checks only that each
 * plane's offset does when the buffer carries a GstVideoMeta, and the
 * engine copies whole planes. */
static gboolean
gst_cl_box_blur_buffer_holds_frame (GstCLBoxBlur * self, GstBuffer * buf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  const GstVideoInfo *info = &filter->in_info;
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  const ClbPlanes *planes = &self->planes;
  GstVideoFrame frame;
  guint p;

  if (size == 0 || !gst_video_frame_map (&frame, info, buf, GST_MAP_READ))
    return FALSE;
  gst_video_frame_unmap (&frame);
  if (meta == NULL)
    return TRUE;                /* the map checked the size against info */

  for (p = 0; p < planes->n_planes; p++) {
    guint64 row = (guint64) planes->plane_width[p] * container_bytes (info);

    if (p >= meta->n_planes || meta->stride[p] < 0
        || (guint64) meta->stride[p] < row
        || (guint64) meta->offset[p] + (guint64) meta->stride[p] *
        (planes->plane_height[p] - 1) + row > size)
      return FALSE;
  }
  return TRUE;
}

/* Checks each input buffer before anything is allocated for it: a buffer
 * that does not hold a whole frame is dropped with a warning (GstVideoFilter
 * alone would push its unwritten output buffer, or with no output pool
 * abort on a 0-byte buffer). */
static GstFlowReturn
gst_cl_box_blur_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  if (filter->negotiated
      && !gst_cl_box_blur_buffer_holds_frame (self, input))
    goto invalid_buffer;

  return GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);

  /* ERRORS */
invalid_buffer:
  {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Invalid video buffer received, dropped."),
        ("%" G_GSIZE_FORMAT " bytes do not hold a %ux%u %s frame",
            gst_buffer_get_size (input), GST_VIDEO_INFO_WIDTH
            (&filter->in_info), GST_VIDEO_INFO_HEIGHT (&filter->in_info),
            GST_VIDEO_INFO_NAME (&filter->in_info)));
    gst_buffer_unref (input);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
}

/* The filter changes neither the frame's size, nor its orientation, nor
 * its colour space: metas that only depend on those (region-of-interest
 * metas among them) stay valid. */
static gboolean
gst_cl_box_blur_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  /* The output gets its own sync point. */
  if (meta->info->api == GST_GL_SYNC_META_API_TYPE)
    return FALSE;

  for (; tags && *tags; tags++) {
    if (!g_str_equal (*tags, GST_META_TAG_VIDEO_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_SIZE_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_ORIENTATION_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_COLORSPACE_STR))
      return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
          outbuf, meta, inbuf);
  }
  return TRUE;
}

/* GL memory --------------------------------------------------------------
 *
 * With video/x-raw(memory:GLMemory) caps the frames are RGBA textures. The
 * GL display and context come from the application or the neighbours
 * (context queries and messages), or are made here, the way GStreamer's GL
 * elements do it; output buffers come from a GL buffer pool. Textures reach
 * OpenCL either shared (cl_khr_gl_sharing: an OpenCL context tied to the GL
 * context, images made from the textures, device-side copies) or copied
 * (mapping the GL memory reads the texture into host memory, the result is
 * written back into the output texture on the GL thread).
 */

static gboolean
caps_are_gl (GstCaps * caps)
{
  GstCapsFeatures *features;

  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  features = gst_caps_get_features (caps, 0);
  return features != NULL && gst_caps_features_contains (features,
      GST_CAPS_FEATURE_MEMORY_GL_MEMORY);
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

  g_rec_mutex_lock (&self->gl_lock);
  gst_gl_handle_set_context (element, context, &self->display,
      &self->other_context);
  if (self->display)
    gst_gl_display_filter_gl_api (self->display, SUPPORTED_GL_APIS);
  g_rec_mutex_unlock (&self->gl_lock);

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
  } else if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstGLDisplay *display = NULL;
    GstGLContext *context = NULL, *other_context = NULL;
    gboolean handled;

    g_rec_mutex_lock (&self->gl_lock);
    if (self->display)
      display = gst_object_ref (self->display);
    if (self->context)
      context = gst_object_ref (self->context);
    if (self->other_context)
      other_context = gst_object_ref (self->other_context);
    g_rec_mutex_unlock (&self->gl_lock);

    handled = gst_gl_handle_context_query (GST_ELEMENT (self), query,
        display, context, other_context);
    gst_clear_object (&display);
    gst_clear_object (&context);
    gst_clear_object (&other_context);
    if (handled)
      return TRUE;
  }

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

/* Finds the GL display (application, neighbours, or a new one) and a GL
 * context on it: a neighbour's, or one made here sharing with the
 * application's. */
static gboolean
gst_cl_box_blur_ensure_gl_context (GstCLBoxBlur * self, GError ** error)
{
  GstGLDisplay *display;
  GstGLContext *context = NULL, *other_context = NULL;

  g_rec_mutex_lock (&self->gl_lock);
  if (!gst_gl_ensure_element_data (GST_ELEMENT (self), &self->display,
          &self->other_context)) {
    g_rec_mutex_unlock (&self->gl_lock);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no GL display: is DISPLAY (or an EGL device) available?");
    return FALSE;
  }
  gst_gl_display_filter_gl_api (self->display, SUPPORTED_GL_APIS);
  if (self->context && self->context->display == self->display) {
    g_rec_mutex_unlock (&self->gl_lock);
    return TRUE;
  }
  display = gst_object_ref (self->display);
  if (self->other_context)
    other_context = gst_object_ref (self->other_context);
  g_rec_mutex_unlock (&self->gl_lock);

  /* Queried without the lock: a neighbour may be querying us meanwhile. */
  if (!gst_gl_query_local_gl_context (GST_ELEMENT (self), GST_PAD_SRC,
          &context))
    gst_gl_query_local_gl_context (GST_ELEMENT (self), GST_PAD_SINK,
        &context);
  if (context && context->display != display)
    gst_clear_object (&context);

  if (context == NULL) {
    GST_OBJECT_LOCK (display);
    do {
      gst_clear_object (&context);
      context = gst_gl_display_get_gl_context_for_thread (display, NULL);
      if (context == NULL && !gst_gl_display_create_context (display,
              other_context, &context, error)) {
        GST_OBJECT_UNLOCK (display);
        gst_object_unref (display);
        gst_clear_object (&other_context);
        return FALSE;
      }
    } while (!gst_gl_display_add_context (display, context));
    GST_OBJECT_UNLOCK (display);
  }
  gst_object_unref (display);
  gst_clear_object (&other_context);

  GST_INFO_OBJECT (self, "GL context %" GST_PTR_FORMAT, context);
  g_rec_mutex_lock (&self->gl_lock);
  gst_object_replace ((GstObject **) & self->context, (GstObject *) context);
  g_rec_mutex_unlock (&self->gl_lock);
  gst_object_unref (context);
  return TRUE;
}

/* The window-system API of @context and its display's native handle. */
static ClbGlPlatform
gl_platform_of (GstGLContext * context, guintptr * display_handle)
{
  GstGLPlatform platform = gst_gl_context_get_gl_platform (context);

  *display_handle = 0;
#if GST_GL_HAVE_PLATFORM_EGL
  if (platform & GST_GL_PLATFORM_EGL) {
    GstGLDisplayEGL *egl =
        gst_gl_display_egl_from_gl_display (context->display);

    if (egl == NULL)
      return CLB_GL_PLATFORM_OTHER;
    *display_handle = gst_gl_display_get_handle (GST_GL_DISPLAY (egl));
    gst_object_unref (egl);
    return CLB_GL_PLATFORM_EGL;
  }
#endif
#if GST_GL_HAVE_PLATFORM_GLX
  if (platform & GST_GL_PLATFORM_GLX) {
    *display_handle = gst_gl_display_get_handle (context->display);
    return CLB_GL_PLATFORM_GLX;
  }
#endif
  return CLB_GL_PLATFORM_OTHER;
}

typedef struct
{
  GstCLBoxBlur *self;
  const cl_context_properties *props;
  ClbRuntime *runtime;
  GError *error;
} MakeRuntime;

/* On the GL thread: some drivers want the GL context current while the
 * OpenCL context tied to it is made. */
static void
make_gl_runtime_on_gl_thread (GstGLContext * context, gpointer data)
{
  MakeRuntime *m = data;
  ClbDeviceType device_type;
  gint platform_index, device_index;

  GST_OBJECT_LOCK (m->self);
  device_type = m->self->device_type;
  platform_index = m->self->platform_index;
  device_index = m->self->device_index;
  GST_OBJECT_UNLOCK (m->self);

  m->runtime = clb_runtime_new_with_properties (device_type, platform_index,
      device_index, m->props, &m->error);
}

/* Bumped for every OpenCL context tied to GL, so that images cached on
 * textures are never used with another context. */
static gint gl_runtime_generation = 0;

/* An OpenCL runtime and engine on a context tied to self->context. */
static gboolean
gst_cl_box_blur_make_gl_runtime (GstCLBoxBlur * self, ClbGlPlatform platform,
    guintptr display_handle, GError ** error)
{
  cl_context_properties props[5];
  MakeRuntime m = { self, props, NULL, NULL };
  ClbEngineOptions options;

  if (self->gl_runtime && self->gl_runtime_context == self->context)
    return TRUE;

  g_clear_pointer (&self->gl_engine, clb_engine_free);
  g_clear_pointer (&self->gl_runtime, clb_runtime_free);
  gst_clear_object (&self->gl_runtime_context);

  if (!clb_gl_context_properties (platform,
          gst_gl_context_get_gl_context (self->context), display_handle,
          props)) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_GL_SHARING,
        "the GL context is neither EGL nor GLX");
    return FALSE;
  }
  gst_gl_context_thread_add (self->context, make_gl_runtime_on_gl_thread,
      &m);
  if (m.runtime == NULL) {
    g_propagate_error (error, m.error);
    return FALSE;
  }
  self->gl_runtime = m.runtime;
  if (!clb_runtime_build_program (self->gl_runtime, NULL, error))
    goto failed;
  options = gst_cl_box_blur_engine_options (self);
  self->gl_engine = clb_engine_new (self->gl_runtime, &options, error);
  if (self->gl_engine == NULL)
    goto failed;
  self->gl_runtime_context = gst_object_ref (self->context);
  self->gl_runtime_generation = g_atomic_int_add (&gl_runtime_generation, 1)
      + 1;
  return TRUE;

failed:
  g_clear_pointer (&self->gl_engine, clb_engine_free);
  g_clear_pointer (&self->gl_runtime, clb_runtime_free);
  return FALSE;
}

/* Decides how textures reach OpenCL for GL caps; FALSE with @error when
 * there is no GL context or gl-sharing=force cannot be honoured. */
static gboolean
gst_cl_box_blur_setup_gl (GstCLBoxBlur * self, GError ** error)
{
  ClbGlSharing mode;
  ClbGlPlatform platform;
  ClbGlPath path;
  guintptr display_handle;
  gchar *reason = NULL;
  GError *share_error = NULL;

  GST_OBJECT_LOCK (self);
  mode = self->gl_sharing;
  GST_OBJECT_UNLOCK (self);

  if (!gst_cl_box_blur_ensure_gl_context (self, error))
    return FALSE;

  platform = gl_platform_of (self->context, &display_handle);
  if (!clb_gl_choose_path (mode, clb_runtime_has_extension (self->runtime,
              CLB_GL_SHARING_EXTENSION), platform, &path, &reason, error))
    return FALSE;

  if (path == CLB_GL_PATH_SHARE && !gst_cl_box_blur_make_gl_runtime (self,
          platform, display_handle, &share_error)) {
    if (mode == CLB_GL_SHARING_FORCE) {
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_GL_SHARING,
          "gl-sharing=force, but no OpenCL context could be tied to the GL "
          "context: %s", share_error->message);
      g_clear_error (&share_error);
      g_free (reason);
      return FALSE;
    }
    g_free (reason);
    reason = g_strdup_printf ("copying textures through host memory: no "
        "OpenCL context could be tied to the GL context (%s)",
        share_error->message);
    g_clear_error (&share_error);
    path = CLB_GL_PATH_COPY;
  }
  GST_INFO_OBJECT (self, "GL memory: %s", reason);
  g_free (reason);

  self->gl_path = path;
  if (path == CLB_GL_PATH_SHARE)
    return clb_engine_set_planes (self->gl_engine, &self->planes, error);
  return TRUE;
}

static GstStateChangeReturn
gst_cl_box_blur_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (element);
  GstStateChangeReturn ret;

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (ret == GST_STATE_CHANGE_FAILURE)
    return ret;

  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    g_rec_mutex_lock (&self->gl_lock);
    gst_clear_object (&self->context);
    gst_clear_object (&self->other_context);
    gst_clear_object (&self->display);
    g_rec_mutex_unlock (&self->gl_lock);
  }
  return ret;
}

static gboolean
gst_cl_box_blur_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;
  GError *error = NULL;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps_are_gl (caps) || decide_query == NULL)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
        decide_query, query);

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (!gst_cl_box_blur_ensure_gl_context (self, &error)) {
    GST_WARNING_OBJECT (self, "no GL context to propose a pool with: %s",
        error->message);
    g_clear_error (&error);
    return FALSE;
  }

  if (need_pool) {
    GstBufferPool *pool = gst_gl_buffer_pool_new (self->context);
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_GL_SYNC_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      GST_WARNING_OBJECT (self, "GL buffer pool refused its configuration");
      return FALSE;
    }
    gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_add_allocation_meta (query, GST_GL_SYNC_META_API_TYPE, NULL);
  return TRUE;
}

static gboolean
gst_cl_box_blur_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  GstVideoInfo info;
  guint size, min, max;
  gboolean update;
  GError *error = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps_are_gl (caps))
    return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
        query);

  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (!gst_cl_box_blur_ensure_gl_context (self, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Failed to find or create a GL context."), ("%s", error->message));
    g_clear_error (&error);
    return FALSE;
  }

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  } else {
    size = info.size;
    min = max = 0;
  }
  /* Only a GL pool of our display gives textures we can write. */
  if (pool != NULL && (!GST_IS_GL_BUFFER_POOL (pool)
          || GST_GL_BUFFER_POOL (pool)->context->display !=
          self->context->display))
    gst_clear_object (&pool);
  if (pool == NULL)
    pool = gst_gl_buffer_pool_new (self->context);
  size = MAX (size, info.size);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (gst_query_find_allocation_meta (query, GST_GL_SYNC_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_GL_SYNC_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("The GL buffer pool refused its configuration."), (NULL));
    return FALSE;
  }

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

typedef struct
{
  cl_mem image;
  gint generation;
} TextureImage;

static GQuark
texture_image_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark,
        g_quark_from_static_string ("clboxblur-texture-image"));
  return (GQuark) quark;
}

static void
texture_image_free (gpointer data)
{
  TextureImage *t = data;

  clb_runtime_release_buffer (&t->image);
  g_free (t);
}

/* The OpenCL image of @mem's texture, made once per texture and context
 * and kept on the memory (released with it). */
static cl_mem
gst_cl_box_blur_texture_image (GstCLBoxBlur * self, GstMemory * mem,
    guint texture, GError ** error)
{
  TextureImage *t = gst_mini_object_get_qdata (GST_MINI_OBJECT (mem),
      texture_image_quark ());
  cl_mem image;

  if (t != NULL && t->generation == self->gl_runtime_generation)
    return t->image;

  image = clb_runtime_create_from_gl_texture (self->gl_runtime,
      CL_MEM_READ_WRITE,
      gst_gl_texture_target_to_gl (GST_GL_TEXTURE_TARGET_2D), texture, error);
  if (image == NULL)
    return NULL;
  t = g_new (TextureImage, 1);
  t->image = image;
  t->generation = self->gl_runtime_generation;
  gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), texture_image_quark (),
      t, texture_image_free);
  GST_DEBUG_OBJECT (self, "OpenCL image for texture %u", texture);
  return image;
}

static void
gl_finish (GstGLContext * context, gpointer data)
{
  const GstGLFuncs *gl = context->gl_vtable;

  gl->Finish ();
}

/* Zero-copy: the textures as OpenCL images, no pixel through the host. */
static GstFlowReturn
gst_cl_box_blur_transform_shared (GstCLBoxBlur * self, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstMemory *in_mem, *out_mem;
  GstMapInfo in_map, out_map;
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  cl_mem src, dst;
  guint n_jobs;
  gboolean ok = FALSE;
  GError *error = NULL;

  if (gst_buffer_n_memory (inbuf) != 1 || gst_buffer_n_memory (outbuf) != 1
      || !gst_is_gl_memory (gst_buffer_peek_memory (inbuf, 0))
      || !gst_is_gl_memory (gst_buffer_peek_memory (outbuf, 0))) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("GLMemory caps, but the buffers do not hold one GL texture each."),
        (NULL));
    return GST_FLOW_ERROR;
  }
  in_mem = gst_buffer_peek_memory (inbuf, 0);
  out_mem = gst_buffer_peek_memory (outbuf, 0);

  /* GL maps: pending uploads happen; the output is marked as changed on
   * the GL side. */
  if (!gst_memory_map (in_mem, &in_map, GST_MAP_READ | GST_MAP_GL))
    goto map_failed;
  if (!gst_memory_map (out_mem, &out_map, GST_MAP_WRITE | GST_MAP_GL)) {
    gst_memory_unmap (in_mem, &in_map);
    goto map_failed;
  }

  n_jobs = gst_cl_box_blur_prepare (self, inbuf, &params, jobs);
  src = gst_cl_box_blur_texture_image (self, in_mem, *(guint *) in_map.data,
      &error);
  dst = src ? gst_cl_box_blur_texture_image (self, out_mem,
      *(guint *) out_map.data, &error) : NULL;
  if (dst != NULL) {
    gst_gl_context_thread_add (self->context, gl_finish, NULL);
    ok = clb_engine_process_image (self->gl_engine, &params, jobs, n_jobs,
        src, dst, TRUE, &error);
  }

  gst_memory_unmap (out_mem, &out_map);
  gst_memory_unmap (in_mem, &in_map);
  if (!ok) {
    gst_cl_box_blur_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;

map_failed:
  GST_ELEMENT_ERROR (self, RESOURCE, READ,
      ("Failed to map a GL texture."), (NULL));
  return GST_FLOW_ERROR;
}

/* Copy path, after the frame was written through a host map: the texture
 * is updated now, on the GL thread, so that the sync point set after it
 * covers it. */
static gboolean
upload_textures (GstBuffer * buffer)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    GstMapInfo map;

    if (!gst_is_gl_memory (mem))
      continue;
    if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_GL))
      return FALSE;
    gst_memory_unmap (mem, &map);
  }
  return TRUE;
}

static GstFlowReturn
gst_cl_box_blur_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstGLSyncMeta *sync_meta;
  GstFlowReturn ret;

  if (!self->gl_memory)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
        outbuf);

  /* Upstream's GL commands on the input are done before OpenCL or the
   * host read it. */
  sync_meta = gst_buffer_get_gl_sync_meta (inbuf);
  if (sync_meta)
    gst_gl_sync_meta_wait_cpu (sync_meta, self->context);

  if (self->gl_path == CLB_GL_PATH_SHARE) {
    ret = gst_cl_box_blur_transform_shared (self, inbuf, outbuf);
  } else {
    ret = GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
        outbuf);
    if (ret == GST_FLOW_OK && !upload_textures (outbuf)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
          ("Failed to write the result into the GL texture."), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }

  sync_meta = gst_buffer_get_gl_sync_meta (outbuf);
  if (ret == GST_FLOW_OK && sync_meta)
    gst_gl_sync_meta_set_sync_point (sync_meta, self->context);
  return ret;
}

static gboolean
gst_cl_box_blur_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  GError *error = NULL;

  GST_DEBUG_OBJECT (self, "%s %ux%u", GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info));

  if (self->engine == NULL)
    goto not_started;

  gst_cl_box_blur_make_planes (in_info, &self->planes);
  self->gl_memory = caps_are_gl (incaps);
  if (self->gl_memory && !gst_cl_box_blur_setup_gl (self, &error))
    goto gl_failed;
  if (!self->gl_memory || self->gl_path == CLB_GL_PATH_COPY) {
    if (!clb_engine_set_planes (self->engine, &self->planes, &error))
      goto alloc_failed;
  }

  return TRUE;

  /* ERRORS */
not_started:
  {
    GST_ERROR_OBJECT (self, "caps set before the OpenCL device was set up");
    return FALSE;
  }
gl_failed:
  if (error->domain == GST_RESOURCE_ERROR
      || error->domain == GST_GL_CONTEXT_ERROR) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Failed to find or create a GL context."), ("%s", error->message));
    g_clear_error (&error);
    return FALSE;
  }
  /* fall through */
alloc_failed:
  {
    gst_cl_box_blur_post_error (self, error);
    g_clear_error (&error);
    return FALSE;
  }
}

static gint
clamp_to_int (gint64 v)
{
  return CLAMP (v, G_MININT, G_MAXINT);
}

/* Takes one consistent set of the effect properties and turns them, the
 * regions and @inbuf's ROI metas into @params and the jobs of the
 * negotiated format; returns the number of jobs. */
static guint
gst_cl_box_blur_prepare (GstCLBoxBlur * self, GstBuffer * inbuf,
    ClbParams * params, ClbJob * jobs)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  gboolean preserve_alpha, roi_meta;
  ClbRect region;
  GQuark roi_type;
  guint roi_padding;

  GST_OBJECT_LOCK (self);
  params->method = self->method;
  params->border = self->border;
  params->radius_x = self->radius;
  params->radius_y = effective_radius_y (self);
  params->passes = self->passes;
  params->sigma_spatial = self->sigma_spatial;
  params->sigma_range = self->sigma_range;
  preserve_alpha = self->preserve_alpha;
  params->region_invert = self->region_invert;
  region.x = self->region_x;
  region.y = self->region_y;
  region.width = self->region_width;
  region.height = self->region_height;
  roi_meta = self->roi_meta;
  roi_type = self->roi_type;
  roi_padding = self->roi_padding;
  GST_OBJECT_UNLOCK (self);

  /* Which pixels to filter. */
  g_array_set_size (self->rects, 0);
  if (roi_meta) {
    GstVideoRegionOfInterestMeta *roi;
    gpointer state = NULL;

    while ((roi = (GstVideoRegionOfInterestMeta *)
            gst_buffer_iterate_meta_filtered (inbuf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      ClbRect r;

      if (roi_type != 0 && roi->roi_type != roi_type)
        continue;
      r.x = clamp_to_int ((gint64) roi->x - roi_padding);
      r.y = clamp_to_int ((gint64) roi->y - roi_padding);
      r.width = clamp_to_int ((gint64) roi->w + 2 * (gint64) roi_padding);
      r.height = clamp_to_int ((gint64) roi->h + 2 * (gint64) roi_padding);
      g_array_append_val (self->rects, r);
    }
    params->use_regions = TRUE;
  } else if (region.x != 0 || region.y != 0 || region.width != 0
      || region.height != 0 || params->region_invert) {
    if (region.width == 0)
      region.width = MAX (GST_VIDEO_INFO_WIDTH (info) - region.x, 0);
    if (region.height == 0)
      region.height = MAX (GST_VIDEO_INFO_HEIGHT (info) - region.y, 0);
    g_array_append_val (self->rects, region);
    params->use_regions = TRUE;
  } else {
    params->use_regions = FALSE;
  }
  params->regions = (const ClbRect *) self->rects->data;
  params->n_regions = self->rects->len;
  GST_LOG_OBJECT (self, "%u region(s)%s", params->n_regions,
      params->use_regions ? "" : " (whole frame)");

  return gst_cl_box_blur_make_jobs (info, preserve_alpha, jobs);
}

static GstFlowReturn
gst_cl_box_blur_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  const guint8 *src[GST_VIDEO_MAX_PLANES];
  guint8 *dst[GST_VIDEO_MAX_PLANES];
  gsize src_stride[GST_VIDEO_MAX_PLANES], dst_stride[GST_VIDEO_MAX_PLANES];
  guint n_jobs, p;
  GError *error = NULL;

  n_jobs = gst_cl_box_blur_prepare (self, in_frame->buffer, &params, jobs);

  /* The radius may have dropped to 0 after passthrough was decided for
   * this buffer. */
  if (params.radius_x == 0 && params.radius_y == 0) {
    if (!gst_video_frame_copy (out_frame, in_frame))
      goto copy_failed;
    return GST_FLOW_OK;
  }

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (in_frame); p++) {
    src[p] = GST_VIDEO_FRAME_PLANE_DATA (in_frame, p);
    src_stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (in_frame, p);
    dst[p] = GST_VIDEO_FRAME_PLANE_DATA (out_frame, p);
    dst_stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (out_frame, p);
  }

  if (!clb_engine_process (self->engine, &params, jobs, n_jobs, src,
          src_stride, dst, dst_stride, &error))
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
  {
    gst_cl_box_blur_post_error (self, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
}

static void
gst_cl_box_blur_finalize (GObject * object)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  g_array_free (self->rects, TRUE);
  gst_context_replace (&self->app_cl_context, NULL);
  gst_clear_object (&self->context);
  gst_clear_object (&self->other_context);
  gst_clear_object (&self->display);
  g_rec_mutex_clear (&self->gl_lock);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}
