/* Unit tests of the GL memory path's decisions and of the engine's image
 * path (what the zero-copy path runs between acquire and release), on any
 * OpenCL device: the GL sharing itself needs a GPU driver.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <CL/cl_gl.h>

#include "engine.h"
#include "glshare.h"
#include "refblur.h"
#include "clcheck.h"

/* Every mode against every device and GL platform. */
GST_START_TEST (test_choose_path)
{
  /* *INDENT-OFF* */
  static const struct {
    ClbGlSharing mode;
    gboolean can_share;
    ClbGlPlatform platform;
    gboolean ok;
    ClbGlPath path;
    const gchar *says;
  } cases[] = {
    {CLB_GL_SHARING_AUTO, TRUE, CLB_GL_PLATFORM_EGL, TRUE, CLB_GL_PATH_SHARE, "zero-copy"},
    {CLB_GL_SHARING_AUTO, TRUE, CLB_GL_PLATFORM_GLX, TRUE, CLB_GL_PATH_SHARE, "zero-copy"},
    {CLB_GL_SHARING_AUTO, TRUE, CLB_GL_PLATFORM_OTHER, TRUE, CLB_GL_PATH_COPY, "neither EGL nor GLX"},
    {CLB_GL_SHARING_AUTO, FALSE, CLB_GL_PLATFORM_EGL, TRUE, CLB_GL_PATH_COPY, "lacks cl_khr_gl_sharing"},
    {CLB_GL_SHARING_AUTO, FALSE, CLB_GL_PLATFORM_GLX, TRUE, CLB_GL_PATH_COPY, "lacks cl_khr_gl_sharing"},
    {CLB_GL_SHARING_OFF, TRUE, CLB_GL_PLATFORM_EGL, TRUE, CLB_GL_PATH_COPY, "gl-sharing=off"},
    {CLB_GL_SHARING_OFF, FALSE, CLB_GL_PLATFORM_OTHER, TRUE, CLB_GL_PATH_COPY, "gl-sharing=off"},
    {CLB_GL_SHARING_FORCE, TRUE, CLB_GL_PLATFORM_GLX, TRUE, CLB_GL_PATH_SHARE, "zero-copy"},
    {CLB_GL_SHARING_FORCE, TRUE, CLB_GL_PLATFORM_EGL, TRUE, CLB_GL_PATH_SHARE, "zero-copy"},
    {CLB_GL_SHARING_FORCE, FALSE, CLB_GL_PLATFORM_EGL, FALSE, CLB_GL_PATH_COPY, "lacks cl_khr_gl_sharing"},
    {CLB_GL_SHARING_FORCE, TRUE, CLB_GL_PLATFORM_OTHER, FALSE, CLB_GL_PATH_COPY, "neither EGL nor GLX"},
  };
  /* *INDENT-ON* */
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    ClbGlPath path = 42;
    gchar *reason = NULL;
    GError *err = NULL;
    gboolean ok = clb_gl_choose_path (cases[i].mode, cases[i].can_share,
        cases[i].platform, &path, &reason, &err);

    fail_unless_equals_int (ok, cases[i].ok);
    fail_unless_equals_int (path, cases[i].path);
    if (ok) {
      fail_unless (err == NULL);
      fail_unless (reason && strstr (reason, cases[i].says), "case %u: %s",
          i, reason);
    } else {
      fail_unless (reason == NULL);
      fail_unless (g_error_matches (err, CLB_RUNTIME_ERROR,
              CLB_RUNTIME_ERROR_NO_GL_SHARING));
      fail_unless (strstr (err->message, "gl-sharing=force"));
      fail_unless (strstr (err->message, cases[i].says), "case %u: %s", i,
          err->message);
    }
    g_free (reason);
    g_clear_error (&err);
  }
}

GST_END_TEST;

GST_START_TEST (test_context_properties)
{
  cl_context_properties p[5];

  fail_unless (clb_gl_context_properties (CLB_GL_PLATFORM_EGL, 0x1234, 0x99,
          p));
  fail_unless (p[0] == CL_GL_CONTEXT_KHR && p[1] == 0x1234);
  fail_unless (p[2] == CL_EGL_DISPLAY_KHR && p[3] == 0x99 && p[4] == 0);

  fail_unless (clb_gl_context_properties (CLB_GL_PLATFORM_GLX, 0x5678, 0x77,
          p));
  fail_unless (p[0] == CL_GL_CONTEXT_KHR && p[1] == 0x5678);
  fail_unless (p[2] == CL_GLX_DISPLAY_KHR && p[3] == 0x77 && p[4] == 0);

  fail_if (clb_gl_context_properties (CLB_GL_PLATFORM_OTHER, 1, 2, p));
  fail_unless (p[0] == 0);
}

GST_END_TEST;

/* The engine's image path (texture -> buffer, filter, buffer -> texture,
 * all on the device) with plain OpenCL images in place of shared textures:
 * the pixels equal the plain-C reference. */
GST_START_TEST (test_image_path_matches_reference)
{
  const guint w = 131, h = 77;
  GError *err = NULL;
  ClbRuntime *rt;
  ClbEngine *engine;
  ClbEngineOptions options;
  ClbPlanes planes = { 0, };
  ClbJob job = { 0, };
  ClbParams params = { 0, };
  ClbRect region = { 20, 10, 50, 40 };
  guint8 *in, *out, *ref;
  cl_mem src, dst;
  size_t origin[3] = { 0, 0, 0 }, size[3] = { w, h, 1 };
  cl_command_queue queue;
  guint i, m;

  rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);
  fail_unless (rt != NULL, "%s", err ? err->message : "");
  fail_unless (clb_runtime_build_program (rt, NULL, &err), "%s",
      err ? err->message : "");
  clb_engine_options_from_env (&options);
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  queue = clb_runtime_get_queue (rt);

  planes.width = w;
  planes.height = h;
  planes.sample_size = CLB_SAMPLES_8;
  planes.max_value = 255;
  planes.n_planes = 1;
  planes.plane_width[0] = 4 * w;
  planes.plane_height[0] = h;
  fail_unless (clb_engine_set_planes (engine, &planes, &err), "%s",
      err ? err->message : "");

  job.width = w;
  job.height = h;
  job.channels = 4;
  job.pixel_stride = 4;
  for (i = 0; i < 4; i++)
    job.offset[i] = i;
  job.dist_mask = 0x7;

  in = g_malloc (4 * w * h);
  out = g_malloc (4 * w * h);
  ref = g_malloc (4 * w * h);
  for (i = 0; i < 4 * w * h; i++)
    in[i] = g_random_int_range (0, 256);

  src = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, w, h, &err);
  fail_unless (src != NULL, "%s", err ? err->message : "");
  dst = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, w, h, &err);
  fail_unless (dst != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (clEnqueueWriteImage (queue, src, CL_TRUE, origin,
          size, 4 * w, 0, in, 0, NULL, NULL), CL_SUCCESS);

  for (m = 0; m < 4; m++) {
    params.method = m == 2 ? CLB_METHOD_SEPARABLE : CLB_METHOD_SAT;
    params.border = m == 1 ? CLB_BORDER_REFLECT : CLB_BORDER_SHRINK;
    params.radius_x = 5;
    params.radius_y = m == 1 ? 2 : 5;
    params.passes = m == 2 ? 3 : 1;
    /* case 3: only a region is blurred */
    params.use_regions = m == 3;
    params.regions = &region;
    params.n_regions = 1;

    fail_unless (clcheck_filter_image (engine, &params, &job, 1, src,
            dst, &err), "%s", err ? err->message : "");
    fail_unless_equals_int (clEnqueueReadImage (queue, dst, CL_TRUE, origin,
            size, 4 * w, 0, out, 0, NULL, NULL), CL_SUCCESS);

    {
      RefBorder b = params.border == CLB_BORDER_REFLECT ?
          REF_BORDER_REFLECT : REF_BORDER_SHRINK;
      guint16 *in16 = g_new (guint16, 4 * w * h);
      guint16 *out16 = g_new (guint16, 4 * w * h);

      for (i = 0; i < 4 * w * h; i++)
        in16[i] = in[i];
      ref_box_blur (in16, out16, w, h, 4, params.radius_x, params.radius_y,
          b, params.passes);
      for (i = 0; i < 4 * w * h; i++) {
        guint x = (i / 4) % w, y = i / 4 / w;
        gboolean inside = x >= 20 && x < 70 && y >= 10 && y < 50;

        ref[i] = (m != 3 || inside) ? out16[i] : in[i];
      }
      g_free (in16);
      g_free (out16);
    }
    for (i = 0; i < 4 * w * h; i++) {
      if (out[i] != ref[i])
        fail ("case %u: byte %u (x %u, y %u): %u, reference %u", m, i,
            (i / 4) % w, i / 4 / w, out[i], ref[i]);
    }
  }

  /* Not RGBA8 in one plane: refused, not misread. */
  planes.n_planes = 2;
  planes.plane_width[1] = 2 * w;
  planes.plane_height[1] = h / 2;
  fail_unless (clb_engine_set_planes (engine, &planes, &err));
  fail_if (clcheck_filter_image (engine, &params, &job, 1, src, dst,
          &err));
  fail_unless (err && strstr (err->message, "RGBA"));
  g_clear_error (&err);

  clb_runtime_release_buffer (&src);
  clb_runtime_release_buffer (&dst);
  g_free (in);
  g_free (out);
  g_free (ref);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

/* Fault injection reaches the image path too. */
GST_START_TEST (test_image_path_fault)
{
  GError *err = NULL;
  ClbRuntime *rt;
  ClbEngine *engine;
  ClbEngineOptions options;
  ClbPlanes planes = { 0, };
  ClbJob job = { 0, };
  ClbParams params = { 0, };
  cl_mem src, dst;
  guint i;

  rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);
  fail_unless (rt && clb_runtime_build_program (rt, NULL, &err));
  clb_engine_options_from_env (&options);
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL);
  planes.width = planes.height = 16;
  planes.sample_size = CLB_SAMPLES_8;
  planes.max_value = 255;
  planes.n_planes = 1;
  planes.plane_width[0] = 64;
  planes.plane_height[0] = 16;
  fail_unless (clb_engine_set_planes (engine, &planes, &err));
  job.width = job.height = 16;
  job.channels = 4;
  job.pixel_stride = 4;
  for (i = 0; i < 4; i++)
    job.offset[i] = i;
  params.radius_x = params.radius_y = 2;
  params.passes = 1;

  src = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, 16, 16, &err);
  dst = clb_runtime_create_image (rt, CL_MEM_READ_WRITE, 16, 16, &err);
  fail_unless (src && dst);

  g_setenv (CLB_FAULT_ENV, "clEnqueueCopyImageToBuffer", TRUE);
  fail_if (clcheck_filter_image (engine, &params, &job, 1, src, dst,
          &err));
  fail_unless (err && strstr (err->message, "clEnqueueCopyImageToBuffer"));
  g_clear_error (&err);
  g_setenv (CLB_FAULT_ENV, "clCreateImage", TRUE);
  fail_if (clb_runtime_create_image (rt, CL_MEM_READ_WRITE, 16, 16, &err));
  fail_unless (err && strstr (err->message, "clCreateImage"));
  g_clear_error (&err);
  g_unsetenv (CLB_FAULT_ENV);
  /* and it works again */
  fail_unless (clcheck_filter_image (engine, &params, &job, 1, src, dst,
          &err), "%s", err ? err->message : "");

  clb_runtime_release_buffer (&src);
  clb_runtime_release_buffer (&dst);
  clb_engine_free (engine);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
glshare_suite (void)
{
  Suite *s = suite_create ("glshare");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_choose_path);
  tcase_add_test (tc, test_context_properties);
  tcase_add_test (tc, test_image_path_matches_reference);
  tcase_add_test (tc, test_image_path_fault);
  return s;
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_check_init (&argc, &argv);
  ret = clcheck_require_platform ();
  if (ret != 0)
    return ret;
  return gst_check_run_suite (glshare_suite (), "glshare", __FILE__);
}
