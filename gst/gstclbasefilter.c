/* GStreamer
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstclbasefilter
 * @title: GstCLBaseFilter
 * @short_description: base class for video filters on OpenCL
 *
 * Carries what every OpenCL video filter of this plugin does the same way:
 * the device and its #GstContext, start and stop, the buffer pool of
 * OpenCL memory, GL memory shared or copied, interlaced video field by
 * field, cancelling on flushes and state changes, and the element errors
 * of the engine. A subclass implements #GstCLBaseFilterClass.get_device,
 * #GstCLBaseFilterClass.filters and #GstCLBaseFilterClass.prepare.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/gl/gl.h>

#include "gstclbasefilter.h"
#include "gstclgl.h"
#include "gstclerror.h"
#include "gstcllayout.h"
#include "gstclfields.h"
#include "gstclpool.h"
#include "gstclwarm.h"
#include "gstclflight.h"

/* Shared with the base's other files (GL, pool, fields, errors), which
 * lie below this one: defined in gstclerror.c, set up here. */
GST_DEBUG_CATEGORY_EXTERN (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

#define gst_cl_base_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCLBaseFilter, gst_cl_base_filter,
    GST_TYPE_VIDEO_FILTER, GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug,
        "clbasefilter", 0, "OpenCL base video filter"));

static gboolean gst_cl_base_filter_stop (GstBaseTransform * trans);

gboolean
gst_cl_base_filter_kernels_ready (GstCLBaseFilter * self,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs)
{
  return self->warm == NULL
      || gst_cl_warm_ready (self->warm, params, jobs, n_jobs);
}

/* A progress message (code "compile") of @type. */
static void G_GNUC_PRINTF (3, 4)
post_progress (GstCLBaseFilter * self, GstProgressType type,
    const gchar * format, ...)
{
  va_list args;
  gchar *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_progress (GST_OBJECT (self), type, "compile", text));
  g_free (text);
}

/* The subclass's parameters and jobs for @inbuf of the negotiated format.
 * Where they need a program no stream on the device built yet (the
 * method's, the regions', the mask's: a first frame's or a live
 * change's), it is built here, said by a progress message as the start's
 * is (a failure is the frame's error, clb_engine_filter trying again). */
static guint
prepare (GstCLBaseFilter * self, GstBuffer * inbuf, ClbParams * params,
    ClbJob * jobs)
{
  guint n_jobs = GST_CL_BASE_FILTER_GET_CLASS (self)->prepare (self, inbuf,
      &GST_VIDEO_FILTER (self)->in_info, params, jobs);
  gboolean built;

  if (self->engine && clb_engine_units_pending (self->engine, params)) {
    post_progress (self, GST_PROGRESS_TYPE_START, "Compiling the OpenCL "
        "kernels of these settings for '%s' (once: the driver caches them)",
        clb_runtime_get_device_name (self->runtime));
    built = clb_engine_prepare (self->engine, params, NULL);
    post_progress (self, built ? GST_PROGRESS_TYPE_COMPLETE :
        GST_PROGRESS_TYPE_ERROR, built ? "OpenCL kernels compiled" :
        "OpenCL kernels not compiled");
  }
  return n_jobs;
}

/* With @cancel, makes the frame in progress, if any, stop between two
 * bands of its work (within about 50 ms on a CPU, clb_engine_cancel) and
 * return GST_FLOW_FLUSHING, as every later one does until called again
 * without. Safe from any thread. */
static void
gst_cl_base_filter_cancel (GstCLBaseFilter * self, gboolean cancel)
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
gst_cl_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      gst_cl_base_filter_cancel (self, TRUE);
      break;
    case GST_EVENT_FLUSH_STOP:
      gst_cl_base_filter_cancel (self, FALSE);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* Checks each input buffer before anything is allocated for it: a buffer
 * that does not hold a whole frame (gst_cl_layout_buffer_holds_frame)
 * is dropped with a warning (GstVideoFilter
 * alone would push its unwritten output buffer, or with no output pool
 * abort on a 0-byte buffer). */
static GstFlowReturn
gst_cl_base_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);

  if (filter->negotiated && !gst_cl_check_buffer (GST_ELEMENT
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
gst_cl_base_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  /* The output gets its own sync point. */
  if (meta->info->api == GST_GL_SYNC_META_API_TYPE)
    return FALSE;
  if (gst_cl_layout_meta_survives (meta))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

static gboolean
gst_cl_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);

  if (decide_query != NULL && gst_cl_gl_query_is_gl (query))
    return gst_cl_gl_propose_allocation (self->gl, query);
  /* Frames in OpenCL memory need no copy; passthrough asks downstream. */
  if (decide_query != NULL && self->mem_dev != NULL
      && gst_cl_pool_propose (self->mem_dev, query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
      decide_query, query);
}

static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);

  if (gst_cl_gl_query_is_gl (query))
    return gst_cl_gl_decide_allocation (self->gl, query);
  /* Frames go through OpenCL memory where the output is in a pool of it,
   * ours or a downstream clboxblur's; each frame then still checks that
   * its input is too (upstream may not have taken the pool). */
  self->way = GST_CL_WAY_HOST;
  if (self->mem_dev != NULL && gst_cl_pool_decide (self->mem_dev, query)) {
    self->way = GST_CL_WAY_POOL;
    return TRUE;
  }
  if (self->mem_dev != NULL && gst_cl_pool_query_is_cl (query))
    self->way = GST_CL_WAY_POOL;
  GST_DEBUG_OBJECT (self, "frames through %s", self->way == GST_CL_WAY_POOL ?
      "OpenCL memory" : "mapped host memory");
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

/* An output buffer the pool (of OpenCL memory) cannot give: an element
 * error saying so, not only a flow error. */
static GstFlowReturn
gst_cl_base_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** outbuf)
{
  return gst_cl_output_failed (GST_ELEMENT (trans),
      GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
          input, outbuf));
}

static void
gst_cl_base_filter_update_passthrough (GstCLBaseFilter * self)
{
  gboolean passthrough;

  passthrough = !GST_CL_BASE_FILTER_GET_CLASS (self)->filters (self);

  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), passthrough);
}

/* The runtime on the application's OpenCL context when it gave one (set
 * before, or in answer to the need-context message posted here), else on
 * the device the properties choose, shared with the other instances on
 * it. Neighbours are not asked: their context would override this
 * element's device properties. */
static ClbRuntime *
gst_cl_base_filter_make_runtime (GstCLBaseFilter * self,
    const GstCLDeviceSettings * device, GError ** error)
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
            GST_CL_CONTEXT_TYPE));
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
          "The application's " GST_CL_CONTEXT_TYPE " context has "
          "no 'cl-context' pointer");
      return NULL;
    }
    gst_structure_get (st, "cl-device", G_TYPE_POINTER, &cl_device, NULL);
    gst_context_unref (app);
    GST_INFO_OBJECT (self, "using the application's OpenCL context %p",
        cl_context);
    rt = clb_runtime_new_for_context (cl_context, cl_device, error);
  } else {
    rt = clb_runtime_new (device->device_type, device->platform_index,
        device->device_index, error);
  }
  if (rt == NULL)
    return NULL;

  app = gst_context_new (GST_CL_CONTEXT_TYPE, FALSE);
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
gst_cl_base_filter_start (GstBaseTransform * trans)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);
  gboolean compiles, built;
  GstCLDeviceSettings device;
  ClbEngineOptions options;
  ClbEngine *engine;
  GError *error = NULL;

  GST_CL_BASE_FILTER_GET_CLASS (self)->get_device (self, &device);
  self->runtime = gst_cl_base_filter_make_runtime (self, &device, &error);
  if (self->runtime == NULL)
    goto failed;

  GST_INFO_OBJECT (self, "OpenCL device '%s' on platform '%s'",
      clb_runtime_get_device_name (self->runtime),
      clb_runtime_get_platform_name (self->runtime));

  /* The first start on a device compiles (seconds on a CPU driver): said
   * as it happens, so the pipeline does not seem stuck in PAUSED. */
  compiles = clb_runtime_program_pending (self->runtime, CLB_SAMPLES_8,
      "base");
  if (compiles)
    post_progress (self, GST_PROGRESS_TYPE_START, "Compiling the OpenCL "
        "kernels for '%s' (once: the driver caches them)",
        clb_runtime_get_device_name (self->runtime));
  built = clb_runtime_build_program (self->runtime, NULL, &error);
  if (compiles)
    post_progress (self, built ? GST_PROGRESS_TYPE_COMPLETE :
        GST_PROGRESS_TYPE_ERROR, built ? "OpenCL kernels compiled" :
        "OpenCL kernels not compiled");
  if (!built)
    goto failed;
  GST_INFO_OBJECT (self, "kernels built in %s",
      clb_runtime_get_clang_extensions (self->runtime) ?
      "OpenCL C with clang's vector extensions" : "standard OpenCL C");

  gst_cl_engine_options (GST_ELEMENT (self), &options);
  engine = clb_engine_new (self->runtime, &options, &error);
  if (engine == NULL)
    goto failed;
  GST_OBJECT_LOCK (self);
  self->engine = engine;
  GST_OBJECT_UNLOCK (self);
  /* PoCL compiles at a kernel's first launch (warmed up in a process of
   * its own); GPU drivers compile a program's kernels in clBuildProgram
   * (built by a thread; CLBOXBLUR_WARM_THREAD=1 on any driver, a test
   * hook) */
  self->warm = g_str_has_prefix (clb_runtime_get_platform_name
      (self->runtime), "Portable Computing Language")
      && g_strcmp0 (g_getenv ("CLBOXBLUR_WARM_THREAD"), "1") != 0 ?
      gst_cl_warm_new (GST_ELEMENT (self), NULL, NULL) :
      gst_cl_warm_new (GST_ELEMENT (self), self->runtime, engine);
  self->flight = gst_cl_flight_new ();
  /* without it, no pool: frames are mapped and copied as before */
  self->mem_dev = clb_mem_device_new (self->runtime, &error);
  if (self->mem_dev == NULL) {
    GST_WARNING_OBJECT (self, "no buffer pool: %s", error->message);
    g_clear_error (&error);
  } else {
    GST_INFO_OBJECT (self, "buffer pool frames in %s",
        clb_mem_device_is_resident (self->mem_dev) ? "the device's own memory"
        : "memory the host maps in place (CL_MEM_ALLOC_HOST_PTR)");
  }
  GST_INFO_OBJECT (self, "work shaped for a %s%s",
      clb_engine_is_cpu (self->engine) ? "CPU" : "GPU",
      clb_engine_get_profile (self->engine)->class_forced ?
      " (forced by " CLB_DEVICE_CLASS_ENV ")" : "");
  if (clb_engine_get_loop_cap (self->engine))
    GST_INFO_OBJECT (self, "the device ends kernel loops after %u "
        "iterations: launches planned around that",
        clb_engine_get_loop_cap (self->engine));

  return TRUE;

  /* ERRORS */
failed:
  {
    gst_cl_post_error (GST_ELEMENT (self), error);
    g_clear_error (&error);
    gst_cl_base_filter_stop (trans);
    return FALSE;
  }
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * trans)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);
  ClbEngine *engine;

  /* A warm-up's process ended and the queued frames waited for first,
   * then kernels and buffers, then queue, program and context. */
  g_clear_pointer (&self->warm, gst_cl_warm_free);
  g_clear_pointer (&self->flight, gst_cl_flight_free);
  GST_OBJECT_LOCK (self);
  engine = g_steal_pointer (&self->engine);
  gst_context_replace (&self->cl_context, NULL);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&engine, clb_engine_free);
  g_clear_pointer (&self->mem_dev, clb_mem_device_unref);
  g_clear_pointer (&self->runtime, clb_runtime_free);
  gst_cl_gl_stop (self->gl);
  return TRUE;
}

static void
gst_cl_base_filter_before_transform (GstBaseTransform * trans,
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
  gst_cl_base_filter_update_passthrough (GST_CL_BASE_FILTER (trans));
}

static void
gst_cl_base_filter_set_context (GstElement * element, GstContext * context)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (element);

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE) == 0) {
    GST_OBJECT_LOCK (self);
    gst_context_replace (&self->app_cl_context, context);
    GST_OBJECT_UNLOCK (self);
  }

  gst_cl_gl_set_context (self->gl, context);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cl_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);
  const gchar *type;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gst_query_parse_context_type (query, &type)
      && g_strcmp0 (type, GST_CL_CONTEXT_TYPE) == 0) {
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
      && gst_cl_gl_handle_context_query (self->gl, query)) {
    return TRUE;
  }

  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

static GstStateChangeReturn
gst_cl_base_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (element);
  GstStateChangeReturn ret;

  /* Deactivating the pads waits for the streaming thread: a long frame
   * (bilateral, large radius) stops first. */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY
      || transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_base_filter_cancel (self, TRUE);

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (ret == GST_STATE_CHANGE_FAILURE)
    return ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    gst_cl_base_filter_cancel (self, FALSE);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gst_cl_gl_close (self->gl);
  return ret;
}

static gboolean
gst_cl_base_filter_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (filter);
  GstCLDeviceSettings device;
  GError *error = NULL;

  GST_DEBUG_OBJECT (self, "%s %ux%u", GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info));

  if (self->engine == NULL)
    goto not_started;

  GST_CL_BASE_FILTER_GET_CLASS (self)->get_device (self, &device);

  gst_cl_layout_make_planes (in_info, &self->planes);
  /* what ran on other caps says nothing of these */
  if (self->warm)
    gst_cl_warm_reset (self->warm);
  if (GST_VIDEO_INFO_IS_INTERLACED (in_info)
      && !gst_cl_fields_check (GST_ELEMENT (self), incaps, in_info,
          &self->field_planes))
    return FALSE;
  if (!gst_cl_gl_set_info (self->gl, incaps, &device,
          self->runtime, &self->planes, &error))
    goto failed;
  /* Unless GL textures are shared, frames go through this engine: a
   * field at a time for interleaved video. */
  self->engine_fields = GST_VIDEO_INFO_INTERLACE_MODE (in_info) ==
      GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
  if (gst_cl_gl_is_active (self->gl))
    self->way = gst_cl_gl_shares (self->gl) ? GST_CL_WAY_GL_SHARED :
        GST_CL_WAY_GL_COPIED;
  else
    self->way = GST_CL_WAY_HOST;        /* until decide_allocation */
  if (self->way != GST_CL_WAY_GL_SHARED
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
    gst_cl_post_error (GST_ELEMENT (self), error);
    g_clear_error (&error);
    return FALSE;
  }
}

/* Gives the engine the storage of a field (@fields) or of a frame, where
 * mixed video switches between them. */
static gboolean
use_planes (GstCLBaseFilter * self, gboolean fields, GError ** error)
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
gst_cl_base_filter_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (filter);
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint8 *src[GST_VIDEO_MAX_PLANES], *dst[GST_VIDEO_MAX_PLANES];
  gsize src_stride[GST_VIDEO_MAX_PLANES], dst_stride[GST_VIDEO_MAX_PLANES];
  guint n_jobs, n_planes = GST_VIDEO_FRAME_N_PLANES (in_frame);
  ClbFrame in, out;
  GError *error = NULL;

  n_jobs = prepare (self, in_frame->buffer, &params, jobs);

  /* The radii may have dropped to 0 after passthrough was decided for
   * this buffer, or leave this format alone. */
  if (!clb_params_filter_jobs (&params, jobs, n_jobs)) {
    if (!gst_video_frame_copy (out_frame, in_frame))
      goto copy_failed;
    return GST_FLOW_OK;
  }

  gst_cl_layout_frame_planes (in_frame, src, src_stride);
  gst_cl_layout_frame_planes (out_frame, dst, dst_stride);
  clb_frame_init_host (&in, n_planes, (const guint8 * const *) src,
      src_stride);
  clb_frame_init_host (&out, n_planes, (const guint8 * const *) dst,
      dst_stride);
  if (gst_cl_layout_has_fields (&filter->in_info, in_frame->buffer)) {
    if (!use_planes (self, TRUE, &error)
        || !gst_cl_fields_process (self->engine, &params, jobs, n_jobs,
            &in, &out, n_planes, self->field_rects, &error))
      goto process_failed;
    return GST_FLOW_OK;
  }
  if ((self->engine_fields && !use_planes (self, FALSE, &error))
      || !clb_engine_filter (self->engine, &params, jobs, n_jobs, &in, &out,
          &error))
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
  return gst_cl_frame_failed (GST_ELEMENT (self), error);
}

/* Releases the events of @events and frees it. */
static void
release_events (GArray * events)
{
  guint i;

  for (i = 0; i < events->len; i++)
    clReleaseEvent (g_array_index (events, cl_event, i));
  g_array_free (events, TRUE);
}

/* Frames in OpenCL memory of the engine's context (gstclpool.c): no
 * map, no host copy. FALSE where the frame takes GstVideoFilter's way. */
static gboolean
gst_cl_base_filter_transform_mem (GstCLBaseFilter * self, GstBuffer * inbuf,
    GstBuffer * outbuf, GstFlowReturn * ret)
{
  ClbMemPlane src[CLB_MAX_PLANES], dst[CLB_MAX_PLANES];
  ClbFrame in, out;
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;
  GError *error = NULL;
  GArray *waits;
  cl_event done = NULL;
  cl_int status;

  if (self->mem_dev == NULL || !gst_cl_frames_in_mem (GST_VIDEO_FILTER
          (self), inbuf, outbuf, &self->planes,
          clb_runtime_get_context (self->runtime), src, dst))
    return FALSE;
  n_jobs = prepare (self, inbuf, &params, jobs);
  if (!clb_params_filter_jobs (&params, jobs, n_jobs))
    return FALSE;               /* GstVideoFilter's way copies it */
  GST_LOG_OBJECT (self, "frame in OpenCL memory");
  *ret = GST_FLOW_OK;
  /* a frame queued before that failed on the device ends the stream */
  status = gst_cl_flight_before (self->flight);
  if (status != CL_SUCCESS) {
    clb_set_cl_error (&error, status, "an earlier frame's OpenCL work");
    *ret = gst_cl_frame_failed (GST_ELEMENT (self), error);
    return TRUE;
  }
  /* Queued, not waited for: the work waits on the device for what
   * writes the input and still reads or writes the output, and the
   * buffers carry its end to whoever maps them or works on them next
   * (gstclpool.c; issue 40). */
  waits = g_array_new (FALSE, FALSE, sizeof (cl_event));
  gst_cl_buffer_waits (inbuf, FALSE, waits);
  gst_cl_buffer_waits (outbuf, TRUE, waits);
  clb_frame_init_mem (&in, self->planes.n_planes, src);
  clb_frame_init_mem (&out, self->planes.n_planes, dst);
  out.n_wait = waits->len;
  out.wait = (const cl_event *) waits->data;
  out.done = &done;
  if ((self->engine_fields && !use_planes (self, FALSE, &error))
      || !clb_engine_filter (self->engine, &params, jobs, n_jobs, &in, &out,
          &error))
    *ret = gst_cl_frame_failed (GST_ELEMENT (self), error);
  if (done) {
    gst_cl_buffer_add_work (outbuf, done, TRUE);
    gst_cl_buffer_add_work (inbuf, done, FALSE);
    gst_cl_flight_after (self->flight, done);
    clReleaseEvent (done);
  }
  release_events (waits);
  return TRUE;
}

/* A frame in host memory whose output buffer is in OpenCL memory (the
 * pool's, where upstream did not take ours): only the input is mapped;
 * the engine writes the output where it is, no map of it and no wait for
 * one. FALSE where the frame takes GstVideoFilter's way. */
static gboolean
gst_cl_base_filter_transform_into_mem (GstCLBaseFilter * self,
    GstBuffer * inbuf, GstBuffer * outbuf, GstFlowReturn * ret)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  ClbMemPlane dst[CLB_MAX_PLANES];
  guint8 *src[GST_VIDEO_MAX_PLANES];
  gsize src_stride[GST_VIDEO_MAX_PLANES];
  GstVideoFrame in_frame;
  ClbFrame in, out;
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;
  GError *error = NULL;
  GArray *waits;

  if (self->mem_dev == NULL || !gst_cl_frame_out_mem (filter, inbuf, outbuf,
          &self->planes, clb_runtime_get_context (self->runtime), dst))
    return FALSE;
  n_jobs = prepare (self, inbuf, &params, jobs);
  if (!clb_params_filter_jobs (&params, jobs, n_jobs)
      || !gst_video_frame_map (&in_frame, &filter->in_info, inbuf,
          GST_MAP_READ))
    return FALSE;               /* GstVideoFilter's way copies it */
  GST_LOG_OBJECT (self, "frame from host memory into OpenCL memory");
  *ret = GST_FLOW_OK;
  gst_cl_layout_frame_planes (&in_frame, src, src_stride);
  clb_frame_init_host (&in, self->planes.n_planes,
      (const guint8 * const *) src, src_stride);
  clb_frame_init_mem (&out, self->planes.n_planes, dst);
  /* the output is written once the device's work on it is done; the
   * frame is waited for (the input is the host's) */
  waits = g_array_new (FALSE, FALSE, sizeof (cl_event));
  gst_cl_buffer_waits (outbuf, TRUE, waits);
  out.n_wait = waits->len;
  out.wait = (const cl_event *) waits->data;
  if ((self->engine_fields && !use_planes (self, FALSE, &error))
      || !clb_engine_filter (self->engine, &params, jobs, n_jobs, &in, &out,
          &error))
    *ret = gst_cl_frame_failed (GST_ELEMENT (self), error);
  else
    gst_cl_buffer_add_work (outbuf, NULL, TRUE);
  release_events (waits);
  gst_video_frame_unmap (&in_frame);
  return TRUE;
}

/* What stop and READY to NULL normally released already; dispose may run
 * more than once. */
static void
gst_cl_base_filter_dispose (GObject * object)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (object);

  g_clear_pointer (&self->warm, gst_cl_warm_free);
  g_clear_pointer (&self->engine, clb_engine_free);
  g_clear_pointer (&self->mem_dev, clb_mem_device_unref);
  g_clear_pointer (&self->runtime, clb_runtime_free);
  gst_cl_gl_close (self->gl);
  gst_context_replace (&self->app_cl_context, NULL);
  gst_context_replace (&self->cl_context, NULL);

  G_OBJECT_CLASS (parent_class)->dispose (object);
}

/* The way chosen in set_info and decide_allocation: GstVideoFilter's
 * transform maps the frames into host memory and calls transform_frame;
 * frames in OpenCL memory go to the engine as they are; GLMemory frames
 * are shared with OpenCL or copied (gstclgl.c). */
static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (trans);
  GstFlowReturn ret;
  ClbParams params;
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;

  switch (self->way) {
    case GST_CL_WAY_POOL:
      if (gst_cl_base_filter_transform_mem (self, inbuf, outbuf, &ret)
          || gst_cl_base_filter_transform_into_mem (self, inbuf, outbuf,
              &ret))
        return ret;
      /* the output not in OpenCL memory: this frame is mapped */
      /* fall through */
    case GST_CL_WAY_HOST:
      return GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans,
          inbuf, outbuf);
    case GST_CL_WAY_GL_SHARED:
      gst_cl_gl_wait (self->gl, inbuf);
      n_jobs = prepare (self, inbuf, &params, jobs);
      ret = gst_cl_gl_transform (self->gl, inbuf, outbuf, &params,
          jobs, n_jobs);
      break;
    case GST_CL_WAY_GL_COPIED:
    default:
      gst_cl_gl_wait (self->gl, inbuf);
      ret = GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
          outbuf);
      if (ret == GST_FLOW_OK)
        ret = gst_cl_gl_upload (self->gl, outbuf);
      break;
  }
  if (ret == GST_FLOW_OK)
    gst_cl_gl_set_sync_point (self->gl, outbuf);
  return ret;
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  GstCLBaseFilter *self = GST_CL_BASE_FILTER (object);

  g_array_free (self->field_rects, TRUE);
  gst_cl_gl_free (self->gl);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_base_filter_class_init (GstCLBaseFilterClass * klass)
{
  GObjectClass *gobject_class = (GObjectClass *) klass;
  GstElementClass *element_class = (GstElementClass *) klass;
  GstBaseTransformClass *trans_class = (GstBaseTransformClass *) klass;
  GstVideoFilterClass *filter_class = (GstVideoFilterClass *) klass;

  gobject_class->dispose = gst_cl_base_filter_dispose;
  gobject_class->finalize = gst_cl_base_filter_finalize;

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_change_state);

  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_filter_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_base_filter_sink_event);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_before_transform);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_meta);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_submit_input_buffer);

  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
}

static void
gst_cl_base_filter_init (GstCLBaseFilter * self)
{
  self->field_rects = g_array_new (FALSE, FALSE, sizeof (ClbRect));
  self->gl = gst_cl_gl_new (GST_ELEMENT (self));
}
