/* clboxblur: GL memory, shared with OpenCL or copied.
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

/* With video/x-raw(memory:GLMemory) caps the frames are RGBA textures. The
 * GL display and context come from the application or the neighbours
 * (context queries and messages), or are made here, the way GStreamer's GL
 * elements do it; output buffers come from a GL buffer pool. Textures reach
 * OpenCL either shared (cl_khr_gl_sharing: an OpenCL context tied to the GL
 * context, images made from the textures, device-side copies) or copied
 * (mapping the GL memory reads the texture into host memory, the result is
 * written back into the output texture on the GL thread). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gl/gl.h>
#include <gst/gl/gstglfuncs.h>
#if GST_GL_HAVE_PLATFORM_EGL
#include <gst/gl/egl/gstgldisplay_egl.h>
#endif
#include <gst/video/video.h>

#include "gstclgl.h"
#include "gstclerror.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

/* The GL APIs whose textures we can read and write. */
#define SUPPORTED_GL_APIS \
    (GST_GL_API_OPENGL | GST_GL_API_OPENGL3 | GST_GL_API_GLES2)

struct _GstCLGL
{
  GstElement *element;          /* the owner; not a reference */

  /* display, other_context and context are under lock: context queries
   * come from other threads. */
  GRecMutex lock;
  GstGLDisplay *display;
  GstGLContext *other_context;  /* the application's, to share with */
  GstGLContext *context;        /* ours, or a neighbour's */

  /* streaming state, from set_info to stop */
  gboolean active;              /* the negotiated caps are GLMemory */
  ClbGlPath path;               /* how textures reach OpenCL */
  /* sharing: runtime and engine on a context tied to GL's */
  ClbRuntime *runtime;
  ClbEngine *engine;
  gint runtime_generation;
  GstGLContext *runtime_context;        /* the GL context it is tied to */
};

GstCLGL *
gst_cl_gl_new (GstElement * element)
{
  GstCLGL *gl = g_new0 (GstCLGL, 1);

  gl->element = element;
  g_rec_mutex_init (&gl->lock);
  return gl;
}

void
gst_cl_gl_free (GstCLGL * gl)
{
  gst_cl_gl_close (gl);
  g_rec_mutex_clear (&gl->lock);
  g_free (gl);
}

/* Kernels and buffers first, then queue, program and context. */
static void
release_runtime (GstCLGL * gl)
{
  g_clear_pointer (&gl->engine, clb_engine_free);
  g_clear_pointer (&gl->runtime, clb_runtime_free);
  gst_clear_object (&gl->runtime_context);
}

void
gst_cl_gl_stop (GstCLGL * gl)
{
  release_runtime (gl);
  gl->active = FALSE;
}

void
gst_cl_gl_close (GstCLGL * gl)
{
  gst_cl_gl_stop (gl);
  g_rec_mutex_lock (&gl->lock);
  gst_clear_object (&gl->context);
  gst_clear_object (&gl->other_context);
  gst_clear_object (&gl->display);
  g_rec_mutex_unlock (&gl->lock);
}

void
gst_cl_gl_set_context (GstCLGL * gl, GstContext * context)
{
  g_rec_mutex_lock (&gl->lock);
  gst_gl_handle_set_context (gl->element, context, &gl->display,
      &gl->other_context);
  if (gl->display)
    gst_gl_display_filter_gl_api (gl->display, SUPPORTED_GL_APIS);
  g_rec_mutex_unlock (&gl->lock);
}

gboolean
gst_cl_gl_handle_context_query (GstCLGL * gl,
    GstQuery * query)
{
  GstGLDisplay *display = NULL;
  GstGLContext *context = NULL, *other_context = NULL;
  gboolean handled;

  g_rec_mutex_lock (&gl->lock);
  if (gl->display)
    display = gst_object_ref (gl->display);
  if (gl->context)
    context = gst_object_ref (gl->context);
  if (gl->other_context)
    other_context = gst_object_ref (gl->other_context);
  g_rec_mutex_unlock (&gl->lock);

  handled = gst_gl_handle_context_query (gl->element, query, display,
      context, other_context);
  gst_clear_object (&display);
  gst_clear_object (&context);
  gst_clear_object (&other_context);
  return handled;
}

/* A GL context on @display: a neighbour's, else the display's for this
 * thread or a new one sharing with @other_context. */
static GstGLContext *
find_gl_context (GstCLGL * gl, GstGLDisplay * display,
    GstGLContext * other_context, GError ** error)
{
  GstGLContext *context = NULL;

  /* Queried without the lock: a neighbour may be querying us meanwhile. */
  if (!gst_gl_query_local_gl_context (gl->element, GST_PAD_SRC, &context))
    gst_gl_query_local_gl_context (gl->element, GST_PAD_SINK, &context);
  if (context && context->display != display)
    gst_clear_object (&context);
  if (context)
    return context;

  GST_OBJECT_LOCK (display);
  do {
    gst_clear_object (&context);
    context = gst_gl_display_get_gl_context_for_thread (display, NULL);
    if (context == NULL && !gst_gl_display_create_context (display,
            other_context, &context, error)) {
      GST_OBJECT_UNLOCK (display);
      return NULL;
    }
  } while (!gst_gl_display_add_context (display, context));
  GST_OBJECT_UNLOCK (display);
  return context;
}

/* Finds the GL display (application, neighbours, or a new one) and a GL
 * context on it: a neighbour's, or one made here sharing with the
 * application's. */
static gboolean
ensure_gl_context (GstCLGL * gl, GError ** error)
{
  GstGLDisplay *display;
  GstGLContext *context, *other_context = NULL;

  g_rec_mutex_lock (&gl->lock);
  if (!gst_gl_ensure_element_data (gl->element, &gl->display,
          &gl->other_context)) {
    g_rec_mutex_unlock (&gl->lock);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no GL display: is DISPLAY (or an EGL device) available?");
    return FALSE;
  }
  gst_gl_display_filter_gl_api (gl->display, SUPPORTED_GL_APIS);
  if (gl->context && gl->context->display == gl->display) {
    g_rec_mutex_unlock (&gl->lock);
    return TRUE;
  }
  display = gst_object_ref (gl->display);
  if (gl->other_context)
    other_context = gst_object_ref (gl->other_context);
  g_rec_mutex_unlock (&gl->lock);

  context = find_gl_context (gl, display, other_context, error);
  gst_object_unref (display);
  gst_clear_object (&other_context);
  if (context == NULL)
    return FALSE;

  GST_INFO_OBJECT (gl->element, "GL context %" GST_PTR_FORMAT, context);
  g_rec_mutex_lock (&gl->lock);
  gst_object_replace ((GstObject **) & gl->context, (GstObject *) context);
  g_rec_mutex_unlock (&gl->lock);
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
  const GstCLDeviceSettings *settings;
  const cl_context_properties *props;
  ClbRuntime *runtime;
  GError *error;
} MakeRuntime;

/* On the GL thread: some drivers want the GL context current while the
 * OpenCL context tied to it is made. */
static void
make_runtime_on_gl_thread (GstGLContext * context, gpointer data)
{
  MakeRuntime *m = data;

  m->runtime = clb_runtime_new_with_properties (m->settings->device_type,
      m->settings->platform_index, m->settings->device_index, m->props,
      &m->error);
}

/* Bumped for every OpenCL context tied to GL, so that images cached on
 * textures are never used with another context. */
static gint runtime_generation = 0;

/* An OpenCL runtime and engine on a context tied to gl->context. */
static gboolean
make_runtime (GstCLGL * gl, const GstCLDeviceSettings * settings,
    ClbGlPlatform platform, guintptr display_handle, GError ** error)
{
  cl_context_properties props[5];
  MakeRuntime m = { settings, props, NULL, NULL };
  ClbEngineOptions options;

  if (gl->runtime && gl->runtime_context == gl->context)
    return TRUE;
  release_runtime (gl);

  if (!clb_gl_context_properties (platform,
          gst_gl_context_get_gl_context (gl->context), display_handle,
          props)) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_GL_SHARING,
        "the GL context is neither EGL nor GLX");
    return FALSE;
  }
  gst_gl_context_thread_add (gl->context, make_runtime_on_gl_thread, &m);
  if (m.runtime == NULL) {
    g_propagate_error (error, m.error);
    return FALSE;
  }
  gl->runtime = m.runtime;
  if (!clb_runtime_build_program (gl->runtime, NULL, error))
    goto failed;
  gst_cl_engine_options (gl->element, &options);
  gl->engine = clb_engine_new (gl->runtime, &options, error);
  if (gl->engine == NULL)
    goto failed;
  gl->runtime_context = gst_object_ref (gl->context);
  gl->runtime_generation = g_atomic_int_add (&runtime_generation, 1) + 1;
  return TRUE;

failed:
  g_clear_pointer (&gl->engine, clb_engine_free);
  g_clear_pointer (&gl->runtime, clb_runtime_free);
  return FALSE;
}

/* Chooses how textures reach OpenCL; FALSE with @error when there is no GL
 * context or gl-sharing=force cannot be honoured. */
static gboolean
choose_path (GstCLGL * gl, const GstCLDeviceSettings * settings,
    ClbRuntime * runtime, GError ** error)
{
  ClbGlPlatform platform;
  ClbGlPath path;
  guintptr display_handle;
  gchar *reason = NULL;
  GError *share_error = NULL;

  if (!ensure_gl_context (gl, error))
    return FALSE;

  platform = gl_platform_of (gl->context, &display_handle);
  if (!clb_gl_choose_path (settings->sharing,
          clb_runtime_has_extension (runtime, CLB_GL_SHARING_EXTENSION),
          platform, &path, &reason, error))
    return FALSE;

  if (path == CLB_GL_PATH_SHARE && !make_runtime (gl, settings, platform,
          display_handle, &share_error)) {
    g_free (reason);
    if (settings->sharing == CLB_GL_SHARING_FORCE) {
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_GL_SHARING,
          "gl-sharing=force, but no OpenCL context could be tied to the GL "
          "context: %s", share_error->message);
      g_clear_error (&share_error);
      return FALSE;
    }
    reason = g_strdup_printf ("copying textures through host memory: no "
        "OpenCL context could be tied to the GL context (%s)",
        share_error->message);
    g_clear_error (&share_error);
    path = CLB_GL_PATH_COPY;
  }
  GST_INFO_OBJECT (gl->element, "GL memory: %s", reason);
  g_free (reason);
  gl->path = path;
  return TRUE;
}

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

gboolean
gst_cl_gl_set_info (GstCLGL * gl, GstCaps * incaps,
    const GstCLDeviceSettings * settings, ClbRuntime * runtime,
    const ClbPlanes * planes, GError ** error)
{
  gl->active = caps_are_gl (incaps);
  if (!gl->active)
    return TRUE;
  if (!choose_path (gl, settings, runtime, error))
    return FALSE;
  if (gl->path == CLB_GL_PATH_SHARE)
    return clb_engine_set_planes (gl->engine, planes, error);
  return TRUE;
}

gboolean
gst_cl_gl_is_active (GstCLGL * gl)
{
  return gl->active;
}

gboolean
gst_cl_gl_shares (GstCLGL * gl)
{
  return gl->active && gl->path == CLB_GL_PATH_SHARE;
}

gboolean
gst_cl_gl_query_is_gl (GstQuery * query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  return caps_are_gl (caps);
}

/* A GL buffer pool of gl->context configured for @caps, or NULL. */
static GstBufferPool *
configure_pool (GstCLGL * gl, GstBufferPool * pool, GstCaps * caps,
    guint size, guint min, guint max, gboolean sync_meta)
{
  GstStructure *config;

  if (pool == NULL)
    pool = gst_gl_buffer_pool_new (gl->context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (sync_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_GL_SYNC_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_cl_gl_propose_allocation (GstCLGL * gl, GstQuery * query)
{
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;
  GError *error = NULL;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (!ensure_gl_context (gl, &error)) {
    GST_WARNING_OBJECT (gl->element, "no GL context to propose a pool "
        "with: %s", error->message);
    g_clear_error (&error);
    return FALSE;
  }

  if (need_pool) {
    GstBufferPool *pool = configure_pool (gl, NULL, caps, info.size, 0, 0,
        TRUE);

    if (pool == NULL) {
      GST_WARNING_OBJECT (gl->element, "GL buffer pool refused its "
          "configuration");
      return FALSE;
    }
    gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_add_allocation_meta (query, GST_GL_SYNC_META_API_TYPE, NULL);
  return TRUE;
}

gboolean
gst_cl_gl_decide_allocation (GstCLGL * gl, GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  GstVideoInfo info;
  guint size = 0, min = 0, max = 0;
  gboolean update;
  GError *error = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (!ensure_gl_context (gl, &error)) {
    gst_cl_post_error (gl->element, error);
    g_clear_error (&error);
    return FALSE;
  }

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Only a GL pool of our display gives textures we can write. */
  if (pool != NULL && (!GST_IS_GL_BUFFER_POOL (pool)
          || GST_GL_BUFFER_POOL (pool)->context->display !=
          gl->context->display))
    gst_clear_object (&pool);
  size = MAX (size, info.size);

  pool = configure_pool (gl, pool, caps, size, min, max,
      gst_query_find_allocation_meta (query, GST_GL_SYNC_META_API_TYPE,
          NULL));
  if (pool == NULL) {
    GST_ELEMENT_ERROR (gl->element, RESOURCE, SETTINGS,
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
texture_image (GstCLGL * gl, GstMemory * mem, guint texture,
    GError ** error)
{
  TextureImage *t = gst_mini_object_get_qdata (GST_MINI_OBJECT (mem),
      texture_image_quark ());
  cl_mem image;

  if (t != NULL && t->generation == gl->runtime_generation)
    return t->image;

  image = clb_runtime_create_from_gl_texture (gl->runtime,
      CL_MEM_READ_WRITE,
      gst_gl_texture_target_to_gl (GST_GL_TEXTURE_TARGET_2D), texture, error);
  if (image == NULL)
    return NULL;
  t = g_new (TextureImage, 1);
  t->image = image;
  t->generation = gl->runtime_generation;
  gst_mini_object_set_qdata (GST_MINI_OBJECT (mem), texture_image_quark (),
      t, texture_image_free);
  GST_DEBUG_OBJECT (gl->element, "OpenCL image for texture %u", texture);
  return image;
}

static void
gl_finish (GstGLContext * context, gpointer data)
{
  const GstGLFuncs *gl = context->gl_vtable;

  gl->Finish ();
}

void
gst_cl_gl_wait (GstCLGL * gl, GstBuffer * inbuf)
{
  GstGLSyncMeta *sync_meta = gst_buffer_get_gl_sync_meta (inbuf);

  /* Upstream's GL commands on the input are done before OpenCL or the
   * host read it. */
  if (sync_meta)
    gst_gl_sync_meta_wait_cpu (sync_meta, gl->context);
}

void
gst_cl_gl_set_sync_point (GstCLGL * gl, GstBuffer * outbuf)
{
  GstGLSyncMeta *sync_meta = gst_buffer_get_gl_sync_meta (outbuf);

  if (sync_meta)
    gst_gl_sync_meta_set_sync_point (sync_meta, gl->context);
}

/* Zero-copy: the textures as OpenCL images, no pixel through the host. */
GstFlowReturn
gst_cl_gl_transform (GstCLGL * gl, GstBuffer * inbuf,
    GstBuffer * outbuf, const ClbParams * params, const ClbJob * jobs,
    guint n_jobs)
{
  GstMemory *in_mem, *out_mem;
  GstMapInfo in_map, out_map;
  cl_mem src, dst;
  gboolean ok = FALSE;
  GError *error = NULL;

  if (gst_buffer_n_memory (inbuf) != 1 || gst_buffer_n_memory (outbuf) != 1
      || !gst_is_gl_memory (gst_buffer_peek_memory (inbuf, 0))
      || !gst_is_gl_memory (gst_buffer_peek_memory (outbuf, 0)))
    goto not_textures;
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

  src = texture_image (gl, in_mem, *(guint *) in_map.data, &error);
  dst = src ? texture_image (gl, out_mem, *(guint *) out_map.data,
      &error) : NULL;
  if (dst != NULL) {
    gst_gl_context_thread_add (gl->context, gl_finish, NULL);
    ClbFrame in, out;

    clb_frame_init_image (&in, src, TRUE);
    clb_frame_init_image (&out, dst, TRUE);
    ok = clb_engine_filter (gl->engine, params, jobs, n_jobs, &in, &out,
        &error);
  }

  gst_memory_unmap (out_mem, &out_map);
  gst_memory_unmap (in_mem, &in_map);
  if (!ok) {
    gst_cl_post_error (gl->element, error);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;

  /* ERRORS */
not_textures:
  {
    GST_ELEMENT_ERROR (gl->element, STREAM, FORMAT,
        ("GLMemory caps, but the buffers do not hold one GL texture each."),
        (NULL));
    return GST_FLOW_ERROR;
  }
map_failed:
  {
    GST_ELEMENT_ERROR (gl->element, RESOURCE, READ,
        ("Failed to map a GL texture."), (NULL));
    return GST_FLOW_ERROR;
  }
}

/* Copy path, after the frame was written through a host map: the texture
 * is updated now, on the GL thread, so that the sync point set after it
 * covers it. */
GstFlowReturn
gst_cl_gl_upload (GstCLGL * gl, GstBuffer * outbuf)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (outbuf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (outbuf, i);
    GstMapInfo map;

    if (!gst_is_gl_memory (mem))
      continue;
    if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_GL))
      goto upload_failed;
    gst_memory_unmap (mem, &map);
  }
  return GST_FLOW_OK;

  /* ERRORS */
upload_failed:
  {
    GST_ELEMENT_ERROR (gl->element, RESOURCE, WRITE,
        ("Failed to write the result into the GL texture."), (NULL));
    return GST_FLOW_ERROR;
  }
}
