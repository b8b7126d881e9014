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
 * `method=mosaic` pixelates: every block of #GstCLBoxBlur:block-size
 * pixels becomes its exact rounded mean; `method=fill` paints
 * #GstCLBoxBlur:fill-color (redaction); both are meant for regions and
 * ROI metas.
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
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! clboxblur roi-meta=true roi-type=face roi-padding=12 roi-hold=8 radius=14 ! videoconvert ! autovideosink
 * ]| Blurs the faces that facedetect marks with region-of-interest metas
 * (#GstCLBoxBlur:roi-meta), each for 8 frames more after the detector
 * last found it (#GstCLBoxBlur:roi-hold).
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! clboxblur roi-meta=true roi-type=face roi-padding=12 method=mosaic block-size=24 ! videoconvert ! autovideosink
 * ]| Pixelates the faces instead: blocks of 24×24 pixels, aligned to the
 * frame. `method=fill fill-color=0xff000000` paints them black.
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
#include "gstclboxblurprops.h"
#include "gstclboxblurregion.h"
#include "gstcllayout.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_box_blur_debug);
#define GST_CAT_DEFAULT gst_cl_box_blur_debug

struct _GstCLBoxBlur
{
  GstCLBaseFilter parent;

  /* the properties (gstclboxblurprops.c), under the object lock */
  GstCLBoxBlurSettings settings;
  /* the ROI metas of the last frames and the regions of the current one:
   * the streaming thread's (buffers and serialized events) */
  GstCLBoxBlurRegions *regions;
  /* roi-strength: the current regions' strength radii (guint), one per
   * rectangle; whether roi-strength with region-invert was warned of */
  GArray *region_radii;
  gboolean strength_invert_warned;
  gboolean strength_feather_warned;
  /* warnings given once (atomic): alpha-mask on a format without alpha,
   * alpha-mask with passes or sigma */
  gint mask_no_alpha_warned;
  gint mask_passes_warned;
  gint mask_method_warned;      /* alpha-mask with mosaic or fill */
  /* alpha-mask on frames without background (every alpha full): warned
   * once, again only after a frame with some (the streaming thread's) */
  gboolean mask_opaque_warned;
  /* the settings the last frame ran with: the streaming thread's */
  GstCLBoxBlurSettings applied;
  /* method temporal: the history to forget before the next frame (a
   * jump in the stream), the last buffer's time and duration (a gap
   * forgets it too): the streaming thread's; the noise level estimated,
   * under the object lock */
  gboolean temporal_reset;
  GstClockTime last_pts, last_duration;
  gdouble noise_estimate;
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

#define gst_cl_box_blur_parent_class parent_class
G_DEFINE_TYPE (GstCLBoxBlur, gst_cl_box_blur, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (clboxblur, "clboxblur", GST_RANK_NONE,
    GST_TYPE_CL_BOX_BLUR, GST_DEBUG_CATEGORY_INIT (gst_cl_box_blur_debug,
        "clboxblur", 0, "OpenCL box blur"));

static void
gst_cl_box_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);
  gboolean known;

  GST_OBJECT_LOCK (self);
  known = gst_cl_box_blur_settings_set (&self->settings, prop_id, value);
  if (known && prop_id < 64)
    self->settings.set |= G_GUINT64_CONSTANT (1) << prop_id;
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
  /* noise-level 0 (estimated) reads back the estimate */
  if (known && g_str_equal (pspec->name, "noise-level")
      && self->settings.noise_level <= 0)
    g_value_set_double (value, self->noise_estimate);
  GST_OBJECT_UNLOCK (self);
  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cl_box_blur_get_device (GstCLBaseFilter * filter,
    GstCLDeviceSettings * device)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);

  GST_OBJECT_LOCK (self);
  device->sharing = self->settings.gl_sharing;
  device->device_type = self->settings.device_type;
  device->platform_index = self->settings.platform_index;
  device->device_index = self->settings.device_index;
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cl_box_blur_filters (GstCLBaseFilter * filter)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  gboolean filters;

  GST_OBJECT_LOCK (self);
  filters = gst_cl_box_blur_settings_filters (&self->settings);
  GST_OBJECT_UNLOCK (self);
  return filters;
}

/* roi-strength: each region's strength radius from its rectangle in frame
 * rows (before interlaced fields map it), into params->region_radius. */
static void
gst_cl_box_blur_strength (GstCLBoxBlur * self,
    const GstCLBoxBlurSettings * settings, ClbParams * params, gint width,
    gint height)
{
  guint i;

  params->region_radius = NULL;
  if (settings->roi_strength <= 0 || !params->use_regions)
    return;
  if (params->region_invert) {
    /* the regions are what stays sharp: no region is filtered */
    if (!self->strength_invert_warned)
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
          ("roi-strength is ignored with region-invert"),
          ("with region-invert the regions are what stays sharp; the rest "
              "is filtered with the radius"));
    self->strength_invert_warned = TRUE;
    return;
  }
  self->strength_invert_warned = FALSE;
  if (settings->region_feather > 0 && settings->method != CLB_METHOD_FILL) {
    /* each region is filtered in a box around it: a feather's ring would
     * need the filter at its strength outside the region too */
    if (!self->strength_feather_warned)
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
          ("region-feather is ignored with roi-strength"),
          ("regions filtered at a strength of their own take hard edges"));
    self->strength_feather_warned = TRUE;
  } else {
    self->strength_feather_warned = FALSE;
  }
  g_array_set_size (self->region_radii, params->n_regions);
  for (i = 0; i < params->n_regions; i++) {
    const ClbRect *r = &params->regions[i];
    /* clipped to the frame, as it is filtered */
    gint64 x0 = CLAMP ((gint64) r->x, 0, width);
    gint64 y0 = CLAMP ((gint64) r->y, 0, height);
    gint64 x1 = CLAMP ((gint64) r->x + MAX (r->width, 0), 0, width);
    gint64 y1 = CLAMP ((gint64) r->y + MAX (r->height, 0), 0, height);

    g_array_index (self->region_radii, guint, i) =
        clb_strength_radius (settings->roi_strength, x1 - x0, y1 - y0);
  }
  params->region_radius = (const guint *) self->region_radii->data;
}

/* alpha-mask: the mask's alpha in @params where the format has alpha
 * (which then leaves as it came: @alpha untouched); elsewhere a warning
 * once and the plain blur. */
static void
gst_cl_box_blur_prepare_mask (GstCLBoxBlur * self,
    const GstCLBoxBlurSettings * settings, const GstVideoInfo * info,
    ClbParams * params, GstCLRadius * alpha)
{
  guint bytes = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;

  params->mask = FALSE;
  params->mask_plane = params->mask_offset = params->mask_feather = 0;
  params->mask_pixel_stride = 0;
  if (!settings->alpha_mask)
    return;
  if (!GST_VIDEO_INFO_HAS_ALPHA (info)) {
    if (g_atomic_int_compare_and_exchange (&self->mask_no_alpha_warned, 0, 1))
      GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("alpha-mask: format %s "
              "has no alpha; blurring the whole frame",
              GST_VIDEO_INFO_NAME (info)), ("alpha-mask needs a format with "
              "alpha (RGBA, BGRA, ARGB, ABGR, AYUV, A420, RGBA64_LE)"));
    return;
  }
  if (settings->method == CLB_METHOD_MOSAIC
      || settings->method == CLB_METHOD_FILL) {
    if (g_atomic_int_compare_and_exchange (&self->mask_method_warned, 0, 1))
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("alpha-mask is ignored "
              "with method %s", settings->method == CLB_METHOD_MOSAIC ?
              "mosaic" : "fill"), ("mosaic and fill cover the whole region; "
              "no blend with the mask yet"));
    return;
  }
  if (settings->method != CLB_METHOD_BILATERAL
      && (settings->passes > 1 || settings->sigma > 0)
      && g_atomic_int_compare_and_exchange (&self->mask_passes_warned, 0, 1))
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("alpha-mask: one box "
            "pass at radius, radius-y; passes and sigma are ignored"),
        ("passes %u, sigma %g", settings->passes, settings->sigma));
  params->mask = TRUE;
  params->mask_plane = GST_VIDEO_INFO_COMP_PLANE (info, GST_VIDEO_COMP_A);
  params->mask_offset =
      GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_A) / bytes;
  params->mask_pixel_stride =
      GST_VIDEO_INFO_COMP_PSTRIDE (info, GST_VIDEO_COMP_A) / bytes;
  params->mask_feather = settings->mask_feather;
  alpha->own = TRUE;
  alpha->radius = 0;
}

/* The bit of property @name in GstCLBoxBlurSettings.set. */
static guint64
prop_bit (GstCLBoxBlur * self, const gchar * name)
{
  return G_GUINT64_CONSTANT (1) <<
      g_object_class_find_property (G_OBJECT_GET_CLASS (self),
      name)->param_id;
}

/* Turns @s, the region and @inbuf's ROI metas into @params and the jobs
 * of the negotiated format; returns the number of jobs. */
static guint
gst_cl_box_blur_prepare_with (GstCLBoxBlur * self,
    const GstCLBoxBlurSettings * s, const GstVideoInfo * info,
    ClbParams * params, ClbJob * jobs)
{
  GstCLBoxBlurSettings settings = *s;
  GstCLRadius chroma = { FALSE, 0 }, alpha = { FALSE, 0 };
  guint p;

  /* temporal's own window while radius and sigma-spatial are unset: at
   * 4 and 3, the box's and the bilateral's, it trails the bilateral on a
   * pan (scripts/temporal-psnr.py --window 4,3) */
  if (settings.method == CLB_METHOD_TEMPORAL) {
    if (!(settings.set & prop_bit (self, "radius")))
      settings.radius = 2;
    if (!(settings.set & prop_bit (self, "sigma-spatial")))
      settings.sigma_spatial = 1.5;
  }

  /* what is not set below is 0 (a whole frame, not a field) */
  memset (params, 0, sizeof (*params));
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
  params->block_size = settings.block_size;
  params->sigma_spatial = settings.sigma_spatial;
  params->sigma_range = settings.sigma_range;
  params->noise_level = settings.noise_level;
  params->range_from_noise = settings.range_from_noise;
  params->temporal_reach = settings.temporal_reach;
  /* decided once per buffer, in before_transform */
  gst_cl_box_blur_regions_apply (self->regions, params);
  GST_LOG_OBJECT (self, "%u region(s)%s", params->n_regions,
      params->use_regions ? "" : " (whole frame)");
  gst_cl_box_blur_strength (self, &settings, params,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));

  /* the mask's fields always set: mosaic and fill take none (a warning) */
  gst_cl_box_blur_prepare_mask (self, &settings, info, params, &alpha);
  if (settings.method == CLB_METHOD_MOSAIC
      || settings.method == CLB_METHOD_FILL) {
    /* every component but a kept alpha; radii do not apply */
    guint values[GST_VIDEO_MAX_COMPONENTS];
    guint n_jobs;

    alpha.own = settings.preserve_alpha || settings.alpha_radius == 0;
    n_jobs = gst_cl_layout_make_plane_jobs (info, &chroma, &alpha, jobs);
    gst_cl_layout_fill_values (info, settings.fill_color, values);
    gst_cl_layout_set_fill (info, values, jobs, n_jobs);
    return n_jobs;
  }
  if (settings.chroma_radius >= 0) {
    chroma.own = TRUE;
    chroma.radius = settings.chroma_radius;
  }
  if ((settings.preserve_alpha || settings.alpha_radius >= 0)
      && !params->mask) {
    alpha.own = TRUE;
    alpha.radius = settings.preserve_alpha ? 0 : settings.alpha_radius;
  }
  return gst_cl_layout_make_plane_jobs (info, &chroma, &alpha, jobs);
}

/* Frames in a row with the mask and no alpha below full before the
 * warning (a second at 30 fps). */
#define MASK_OPAQUE_FRAMES 30

/* alpha-mask on frames whose alpha is full everywhere blurs nothing: a
 * warning (a message on the bus) once MASK_OPAQUE_FRAMES such frames
 * came in a row, as the engine knows them from its kernels without a
 * wait (a frame or two late); not again until a frame has background
 * (or the stream starts again: a new engine). */
static void
gst_cl_box_blur_check_opaque (GstCLBoxBlur * self)
{
  ClbEngine *engine = GST_CL_BASE_FILTER (self)->engine;
  guint opaque;

  if (engine == NULL)
    return;
  opaque = clb_engine_mask_opaque_frames (engine);
  if (opaque < MASK_OPAQUE_FRAMES) {
    self->mask_opaque_warned = FALSE;
    return;
  }
  if (self->mask_opaque_warned)
    return;
  self->mask_opaque_warned = TRUE;
  GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("alpha-mask: nothing is "
          "background: every pixel's alpha is full, so nothing is blurred; "
          "feed the mask through alpha (alpha below full is background): "
          "e.g. alphacombine with a mask stream, a segmentation element, "
          "or the application's own alpha"), ("%u frames in a row without "
          "an alpha below full (RGBA from videoconvert of an opaque source "
          "is full everywhere)", opaque));
}

/* Takes one consistent copy of the properties for @inbuf's @params and
 * @jobs. Where they need kernels the element has not run yet, the frame
 * keeps the settings the frame before had, while the kernels are readied
 * in the background (gstclwarm.c): no frame waits for a compiler. */
static guint
gst_cl_box_blur_prepare (GstCLBaseFilter * filter, GstBuffer * inbuf,
    const GstVideoInfo * info, ClbParams * params, ClbJob * jobs)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (filter);
  GstCLBoxBlurSettings settings;
  guint n_jobs;

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);

  if ((settings.method == CLB_METHOD_TEMPORAL
          || (settings.method == CLB_METHOD_BILATERAL
              && settings.range_from_noise > 0)) && filter->engine) {
    gdouble level = clb_engine_noise_level (filter->engine);

    if (self->temporal_reset) {
      GST_DEBUG_OBJECT (self, "temporal: history reset");
      clb_engine_temporal_reset (filter->engine);
      self->temporal_reset = FALSE;
    }
    GST_OBJECT_LOCK (self);
    if (level != self->noise_estimate)
      GST_INFO_OBJECT (self, "noise level estimated: %.2f", level);
    self->noise_estimate = level;
    GST_OBJECT_UNLOCK (self);
  }
  n_jobs = gst_cl_box_blur_prepare_with (self, &settings, info, params, jobs);
  if (params->mask)
    gst_cl_box_blur_check_opaque (self);
  /* Not ready only after frames that ran (the first frame is always
   * ready: gstclwarm.c); and never after frames that were not filtered
   * (passthrough, radius 0): a blur turned on (privacy) is not held
   * back. */
  if (gst_cl_base_filter_kernels_ready (filter, params, jobs, n_jobs)
      || !gst_cl_box_blur_settings_filters (&self->applied)) {
    self->applied = settings;
    return n_jobs;
  }
  GST_DEBUG_OBJECT (self, "frame with the settings before: the new ones' "
      "kernels are being readied");
  return gst_cl_box_blur_prepare_with (self, &self->applied, info, params,
      jobs);
}

/* Method temporal's history ends at a discontinuity and where the
 * buffers' times jump: backwards, or forwards past twice a frame's
 * duration (the buffer's, or the frame rate's). */
static void
gst_cl_box_blur_check_gap (GstCLBoxBlur * self, GstBuffer * buffer)
{
  const GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClockTime pts = GST_BUFFER_PTS (buffer);
  GstClockTime step = self->last_duration;

  if (!GST_CLOCK_TIME_IS_VALID (step) && GST_VIDEO_INFO_FPS_N (info) > 0)
    step = gst_util_uint64_scale (GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
        GST_VIDEO_INFO_FPS_N (info));
  if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DISCONT)
      || (GST_CLOCK_TIME_IS_VALID (pts)
          && GST_CLOCK_TIME_IS_VALID (self->last_pts)
          && GST_CLOCK_TIME_IS_VALID (step) && (pts < self->last_pts
              || pts - self->last_pts > 2 * step))) {
    GST_DEBUG_OBJECT (self, "discontinuity or a gap in time: the temporal "
        "history starts again");
    self->temporal_reset = TRUE;
  }
  self->last_pts = pts;
  self->last_duration = GST_BUFFER_DURATION (buffer);
}

/* Once per input buffer, before any output is prepared (prepare may run
 * twice for one buffer): remembers its ROI metas and decides the regions
 * (roi-hold, roi-fail-closed). */
static void
gst_cl_box_blur_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);
  GstCLBoxBlurSettings settings;

  /* first the controlled values for this buffer's time */
  GST_BASE_TRANSFORM_CLASS (parent_class)->before_transform (trans, buffer);

  GST_OBJECT_LOCK (self);
  settings = self->settings;
  GST_OBJECT_UNLOCK (self);
  gst_cl_box_blur_regions_update (self->regions, &settings, buffer,
      &GST_VIDEO_FILTER (self)->in_info);
  gst_cl_box_blur_check_gap (self, buffer);
}

/* The frames remembered for roi-hold and temporal's history end where
 * the stream jumps: a flush, a new segment (a seek), a new stream, new
 * caps. */
static gboolean
gst_cl_box_blur_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_STREAM_START:
    case GST_EVENT_CAPS:
      GST_DEBUG_OBJECT (self, "%s: ROI and temporal history reset",
          GST_EVENT_TYPE_NAME (event));
      gst_cl_box_blur_regions_reset (self->regions);
      self->temporal_reset = TRUE;
      self->last_pts = GST_CLOCK_TIME_NONE;
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static void
gst_cl_box_blur_finalize (GObject * object)
{
  GstCLBoxBlur *self = GST_CL_BOX_BLUR (object);

  gst_cl_box_blur_regions_free (self->regions);
  g_array_free (self->region_radii, TRUE);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_box_blur_class_init (GstCLBoxBlurClass * klass)
{
  GObjectClass *gobject_class = (GObjectClass *) klass;
  GstElementClass *element_class = (GstElementClass *) klass;
  GstBaseTransformClass *trans_class = (GstBaseTransformClass *) klass;
  GstCLBaseFilterClass *cl_class = (GstCLBaseFilterClass *) klass;

  gobject_class->set_property = gst_cl_box_blur_set_property;
  gobject_class->get_property = gst_cl_box_blur_get_property;
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

  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_box_blur_before_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_box_blur_sink_event);

  cl_class->get_device = GST_DEBUG_FUNCPTR (gst_cl_box_blur_get_device);
  cl_class->filters = GST_DEBUG_FUNCPTR (gst_cl_box_blur_filters);
  cl_class->prepare = GST_DEBUG_FUNCPTR (gst_cl_box_blur_prepare);
}

static void
gst_cl_box_blur_init (GstCLBoxBlur * self)
{
  gst_cl_box_blur_settings_init (&self->settings);
  self->regions = gst_cl_box_blur_regions_new ();
  self->region_radii = g_array_new (FALSE, FALSE, sizeof (guint));
  self->last_pts = self->last_duration = GST_CLOCK_TIME_NONE;
}
