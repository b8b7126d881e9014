/* clboxblur: which way GL textures reach OpenCL.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "glshare.h"
#include <CL/cl_gl.h>

gboolean
clb_gl_choose_path (ClbGlSharing mode, gboolean device_can_share,
    ClbGlPlatform platform, ClbGlPath * path, gchar ** reason,
    GError ** error)
{
  const gchar *why = NULL;

  *path = CLB_GL_PATH_COPY;
  if (mode == CLB_GL_SHARING_OFF) {
    *reason = g_strdup ("copying textures through host memory: "
        "gl-sharing=off");
    return TRUE;
  }

  if (!device_can_share)
    why = "the OpenCL device lacks " CLB_GL_SHARING_EXTENSION;
  else if (platform == CLB_GL_PLATFORM_OTHER)
    why = "the GL context is neither EGL nor GLX";

  if (why == NULL) {
    *path = CLB_GL_PATH_SHARE;
    *reason = g_strdup ("sharing textures with OpenCL (zero-copy, "
        CLB_GL_SHARING_EXTENSION ")");
    return TRUE;
  }
  if (mode == CLB_GL_SHARING_FORCE) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_GL_SHARING,
        "gl-sharing=force, but %s", why);
    *reason = NULL;
    return FALSE;
  }
  *reason = g_strdup_printf ("copying textures through host memory: %s",
      why);
  return TRUE;
}

gboolean
clb_gl_context_properties (ClbGlPlatform platform, guintptr gl_context,
    guintptr display, cl_context_properties props[5])
{
  props[0] = CL_GL_CONTEXT_KHR;
  props[1] = (cl_context_properties) gl_context;
  switch (platform) {
    case CLB_GL_PLATFORM_EGL:
      props[2] = CL_EGL_DISPLAY_KHR;
      break;
    case CLB_GL_PLATFORM_GLX:
      props[2] = CL_GLX_DISPLAY_KHR;
      break;
    case CLB_GL_PLATFORM_OTHER:
    default:
      props[0] = 0;
      return FALSE;
  }
  props[3] = (cl_context_properties) display;
  props[4] = 0;
  return TRUE;
}
