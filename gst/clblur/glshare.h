/* clboxblur: which way GL textures reach OpenCL.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The decisions of the GL memory path, apart from GStreamer and GL so that
 * they can be tested on any machine: whether textures are shared with
 * OpenCL (cl_khr_gl_sharing, zero-copy) or copied through host memory, and
 * the context properties that sharing needs.
 */
#pragma once

#include <glib.h>
#include "runtime.h"

G_BEGIN_DECLS

/* The gl-sharing property. */
typedef enum {
  CLB_GL_SHARING_AUTO,          /* share where possible, else copy */
  CLB_GL_SHARING_OFF,           /* always copy */
  CLB_GL_SHARING_FORCE,         /* share, or fail */
} ClbGlSharing;

/* The window-system API of the GL context. */
typedef enum {
  CLB_GL_PLATFORM_OTHER,        /* one OpenCL cannot share with here */
  CLB_GL_PLATFORM_EGL,
  CLB_GL_PLATFORM_GLX,
} ClbGlPlatform;

typedef enum {
  CLB_GL_PATH_COPY,             /* texture -> host -> buffer and back */
  CLB_GL_PATH_SHARE,            /* clCreateFromGLTexture, device copies */
} ClbGlPath;

#define CLB_GL_SHARING_EXTENSION "cl_khr_gl_sharing"

/* Chooses the path for @mode on a device that has (@device_can_share) or
 * lacks cl_khr_gl_sharing, with a GL context of @platform. Sets *@reason to
 * a sentence for the debug log saying which path and why. Returns FALSE
 * with @error (CLB_RUNTIME_ERROR_NO_GL_SHARING) when @mode is FORCE and
 * sharing is impossible. */
gboolean clb_gl_choose_path (ClbGlSharing mode, gboolean device_can_share,
    ClbGlPlatform platform, ClbGlPath * path, gchar ** reason,
    GError ** error);

/* Fills @props with the context properties (pairs ending in 0) that tie an
 * OpenCL context to the GL context @gl_context of @display: CL_GL_CONTEXT_KHR
 * and CL_EGL_DISPLAY_KHR or CL_GLX_DISPLAY_KHR. FALSE for
 * CLB_GL_PLATFORM_OTHER. */
gboolean clb_gl_context_properties (ClbGlPlatform platform,
    guintptr gl_context, guintptr display, cl_context_properties props[5]);

G_END_DECLS
