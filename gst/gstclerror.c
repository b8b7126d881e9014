/* clboxblur: the element's side of the engine: the element error that fits
 * a failure, and the engine's options and log.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gl/gl.h>

#include "gstclerror.h"
#include "clblur/runtime.h"
#include "gstcllayout.h"

/* The base class's category ("clbasefilter"), which it and its helpers
 * (GL, pool, fields, warm-up) log to: defined here, below them all, so
 * that no helper calls back into gstclbasefilter.c (docs/design.md,
 * "Layers"); GST_DEBUG_CATEGORY_INIT in its class set-up. */
GST_DEBUG_CATEGORY (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

void
gst_cl_post_error (GstElement * self, const GError * error)
{
  if (error == NULL) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED,
        ("An OpenCL operation failed."), ("no details"));
    return;
  }
  if (error->domain == GST_RESOURCE_ERROR
      || error->domain == GST_GL_CONTEXT_ERROR) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Failed to find or create a GL context."), ("%s", error->message));
    return;
  }
  /* the engine's own errors (CLB_ENGINE_ERROR): an operation failed */
  switch (error->domain == CLB_RUNTIME_ERROR ? error->code :
      CLB_RUNTIME_ERROR_FAILED) {
    case CLB_RUNTIME_ERROR_NO_PLATFORM:
    {
      /* set, the ICD loader read only what it names: the likely cause,
       * before any advice to install a driver that may be installed */
      const gchar *vendors = g_getenv (CLB_ICD_VENDORS_ENV);

      if (vendors != NULL && *vendors != '\0')
        GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
            ("No OpenCL platform found, and %s is set to '%s': that is the "
                "likely cause, as the OpenCL ICD loader then reads only the "
                "drivers it names. Unset it, or point it at a folder of .icd "
                "files; else install an OpenCL driver, for example the "
                "'pocl-opencl-icd' package (CPU).", CLB_ICD_VENDORS_ENV,
                vendors), ("%s", error->message));
      else
        GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
            ("No OpenCL platform found. Install an OpenCL driver, for "
                "example the 'pocl-opencl-icd' package (CPU) or your GPU "
                "vendor's OpenCL ICD."), ("%s", error->message));
      break;
    }
    case CLB_RUNTIME_ERROR_NO_DEVICE:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device matches device-type, platform-index and "
              "device-index."), ("%s", error->message));
      break;
    case CLB_RUNTIME_ERROR_NO_DEVICE_LISTED:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("OpenCL drivers are installed, but none lists a device. PoCL "
              "lists none when it cannot create its cache folder: set "
              "POCL_CACHE_DIR to an existing writable folder (or "
              "XDG_CACHE_HOME to a writable one)."), ("%s", error->message));
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

static void
engine_log (gpointer user_data, const gchar * message)
{
  GST_INFO_OBJECT (user_data, "%s", message);
}

void
gst_cl_engine_options (GstElement * element, ClbEngineOptions * options)
{
  clb_engine_options_from_env (options);
  options->log = engine_log;
  options->log_data = element;
}

GstFlowReturn
gst_cl_frame_failed (GstElement * element, GError * error)
{
  if (g_error_matches (error, CLB_ENGINE_ERROR, CLB_ENGINE_ERROR_CANCELLED)) {
    GST_DEBUG_OBJECT (element, "frame stopped: flushing or stopping");
    g_clear_error (&error);
    return GST_FLOW_FLUSHING;
  }
  gst_cl_post_error (element, error);
  g_clear_error (&error);
  return GST_FLOW_ERROR;
}

gboolean
gst_cl_check_buffer (GstElement * element,
    const GstVideoInfo * info, const ClbPlanes * planes, GstBuffer * buf)
{
  if (gst_cl_layout_buffer_holds_frame (info, planes, buf))
    return TRUE;
  GST_ELEMENT_WARNING (element, STREAM, FORMAT,
      ("Invalid video buffer received, dropped."),
      ("%" G_GSIZE_FORMAT " bytes do not hold a %ux%u %s frame",
          gst_buffer_get_size (buf), GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info)));
  return FALSE;
}

GstFlowReturn
gst_cl_output_failed (GstElement * element, GstFlowReturn ret)
{
  if (ret == GST_FLOW_ERROR)
    GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT,
        ("Not enough OpenCL memory for an output buffer."),
        ("the output buffer pool could not allocate a buffer of OpenCL "
            "memory (clCreateBuffer; its error is in the log)"));
  return ret;
}
