/* GStreamer unit tests for clboxblur: errors
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No such device, a kernel that does not build (and kernels loaded from
 * disk), every OpenCL failure by fault injection, and input that does not
 * hold a frame.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <glib/gstdio.h>

#include "blurcheck.h"

/* Brings @e to PAUSED expecting failure; returns the error posted. */
static GError *
start_expecting_error (GstElement * e, gchar ** debug)
{
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message posted");
  gst_message_parse_error (msg, &err, debug);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  return err;
}

/* Device properties that match no device on this machine: a device type
 * that no platform has, a device index past every platform's devices, a
 * platform index past the platforms. */
GST_START_TEST (test_no_such_device)
{
  static const struct
  {
    const gchar *nick;
    cl_device_type type;
  } types[] = {
    {"accelerator", CL_DEVICE_TYPE_ACCELERATOR}, {"gpu", CL_DEVICE_TYPE_GPU},
    {"cpu", CL_DEVICE_TYPE_CPU},
  };
  cl_platform_id platforms[64];
  cl_uint n_platforms = 0, most_devices = 0, p;
  const gchar *absent_type = NULL;
  gchar *settings[3][2];
  guint i;

  fail_unless_equals_int (clGetPlatformIDs (G_N_ELEMENTS (platforms),
          platforms, &n_platforms), CL_SUCCESS);
  n_platforms = MIN (n_platforms, G_N_ELEMENTS (platforms));
  for (i = 0; i < G_N_ELEMENTS (types) && absent_type == NULL; i++) {
    cl_uint found = 0;

    for (p = 0; p < n_platforms; p++) {
      cl_uint n = 0;

      if (clGetDeviceIDs (platforms[p], types[i].type, 0, NULL, &n) ==
          CL_SUCCESS)
        found += n;
    }
    if (found == 0)
      absent_type = types[i].nick;
  }
  for (p = 0; p < n_platforms; p++) {
    cl_uint n = 0;

    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n) ==
        CL_SUCCESS)
      most_devices = MAX (most_devices, n);
  }

  settings[0][0] = g_strdup ("device-type");
  settings[0][1] = g_strdup (absent_type);
  settings[1][0] = g_strdup ("device-index");
  settings[1][1] = g_strdup_printf ("%u", most_devices);
  settings[2][0] = g_strdup ("platform-index");
  settings[2][1] = g_strdup_printf ("%u", n_platforms);
  if (absent_type == NULL)
    g_print ("test_no_such_device: device-type does not apply: this machine "
        "has accelerator, GPU and CPU devices, so every type matches one\n");

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    GstElement *e;
    GError *err;
    gchar *debug = NULL;

    if (settings[i][1] == NULL)
      continue;
    e = gst_element_factory_make ("clboxblur", NULL);
    gst_util_set_object_arg (G_OBJECT (e), settings[i][0], settings[i][1]);
    err = start_expecting_error (e, &debug);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND), "%s=%s: %s", settings[i][0],
        settings[i][1], err->message);
    fail_unless (strstr (err->message, "device") != NULL, "%s", err->message);
    GST_INFO ("%s=%s: %s (%s)", settings[i][0], settings[i][1], err->message,
        debug);
    g_error_free (err);
    g_free (debug);
    gst_object_unref (e);
  }
  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    g_free (settings[i][0]);
    g_free (settings[i][1]);
  }
}

GST_END_TEST;

/* CLBOXBLUR_KERNEL_PATH pointing at a broken kernel file that every
 * program includes (common.cl: the start builds the base program):
 * LIBRARY/INIT with the compiler's log, naming the file, in the debug
 * text. */
GST_START_TEST (test_build_failure)
{
  gchar *dir = g_dir_make_tmp ("clboxblur-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "common.cl", NULL);
  GstElement *e;
  GError *err;
  gchar *debug = NULL;

  GDir *kernels = g_dir_open (KERNELS_SRCDIR, 0, NULL);
  const gchar *name;

  /* The real sources, with common.cl replaced by a broken one. */
  fail_unless (kernels != NULL);
  while ((name = g_dir_read_name (kernels))) {
    gchar *from = g_build_filename (KERNELS_SRCDIR, name, NULL);
    gchar *to = g_build_filename (dir, name, NULL);
    gchar *text = NULL;
    gsize len = 0;

    if (g_str_has_suffix (name, ".cl") || g_str_has_suffix (name, ".h")) {
      fail_unless (g_file_get_contents (from, &text, &len, NULL));
      fail_unless (g_file_set_contents (to, text, len, NULL));
    }
    g_free (text);
    g_free (from);
    g_free (to);
  }
  g_dir_close (kernels);
  fail_unless (g_file_set_contents (path,
          "__kernel void sat_box (__global int *a)\n"
          "{\n    a[0] = this_is_not_defined;\n}\n", -1, NULL));
  g_setenv ("CLBOXBLUR_KERNEL_PATH", dir, TRUE);

  e = gst_element_factory_make ("clboxblur", NULL);
  err = start_expecting_error (e, &debug);
  g_unsetenv ("CLBOXBLUR_KERNEL_PATH");

  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_INIT), "%s", err->message);
  fail_unless (debug != NULL);
  fail_unless (strstr (debug, "clBuildProgram") != NULL, "%s", debug);
  fail_unless (strstr (debug, "common.cl:3") != NULL, "no file:line in %s",
      debug);
  fail_unless (strstr (debug, "this_is_not_defined") != NULL, "%s", debug);

  g_error_free (err);
  g_free (debug);
  gst_object_unref (e);
  {
    GDir *d = g_dir_open (dir, 0, NULL);
    const gchar *f;

    while ((f = g_dir_read_name (d))) {
      gchar *fp = g_build_filename (dir, f, NULL);
      g_unlink (fp);
      g_free (fp);
    }
    g_dir_close (d);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* The same variable pointing at the real sources loads them from disk. */
GST_START_TEST (test_kernel_path_from_disk)
{
  GstHarness *h;
  GstVideoInfo info;

  g_setenv ("CLBOXBLUR_KERNEL_PATH", KERNELS_SRCDIR, TRUE);
  h = blurcheck_harness_new ("clboxblur");
  set_format (h, &info, "RGBA", 40, 30);
  g_unsetenv ("CLBOXBLUR_KERNEL_PATH");
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_REFLECT);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* A video meta whose stride is shorter than a row of samples: the buffer
 * is dropped with a warning (it does not hold a frame), nothing crashes,
 * and the stream goes on. */
GST_START_TEST (test_bad_stride)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstBuffer *buf;
  GstMessage *msg;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 6, };

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "YUY2", 3, 2);
  buf = gst_buffer_new_allocate (NULL, 64, NULL);
  gst_buffer_memset (buf, 0, 0x80, 64);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_YUY2, 3, 2, 1, offset, strides);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  push_and_check (h, &info, 0, 1, -1, REF_BORDER_SHRINK);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Whether the element wraps separable 8-bit frames rather than copying
 * them on the device it takes with the default properties, as its engine
 * decides (device class and CLBOXBLUR_ZERO_COPY). Sets @why to a sentence
 * for the log. */
static gboolean
default_device_wraps_frames (gchar ** why)
{
  ClbRuntime *rt = clcheck_default_runtime ();
  cl_device_type type = 0;
  cl_bool unified = CL_FALSE;
  gboolean wraps;

  fail_unless_equals_int (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_TYPE, sizeof (type), &type, NULL), CL_SUCCESS);
  if (clGetDeviceInfo (clb_runtime_get_device (rt),
          CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (unified), &unified,
          NULL) != CL_SUCCESS)
    unified = CL_FALSE;
  wraps = clb_engine_wraps_frames (type, unified == CL_TRUE);
  *why = g_strdup_printf ("device '%s' (%s, %s=%s, %s=%s) %s",
      clb_runtime_get_device_name (rt),
      (type & CL_DEVICE_TYPE_CPU) ? "a CPU" : "not a CPU",
      CLB_DEVICE_CLASS_ENV, g_getenv (CLB_DEVICE_CLASS_ENV) ?
      g_getenv (CLB_DEVICE_CLASS_ENV) : "unset", CLB_ZERO_COPY_ENV,
      g_getenv (CLB_ZERO_COPY_ENV) ? g_getenv (CLB_ZERO_COPY_ENV) : "unset",
      wraps ? "wraps the frames in place (CL_MEM_USE_HOST_PTR)" :
      "copies the frames to and from device buffers");
  clb_runtime_free (rt);
  return wraps;
}

/* Every OpenCL failure path, by fault injection (CLBOXBLUR_FAULT makes the
 * named call fail): an element error with a clear domain, a clean stop,
 * and a working element again once the fault is gone. */
GST_START_TEST (test_fault_injection)
{
  static const struct
  {
    const gchar *fault;
    GQuark (*domain) (void);
    gint code;
  } at_start[] = {
    {"clGetPlatformIDs:-1001", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NOT_FOUND},
    {"clGetDeviceIDs", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NO_SPACE_LEFT},
    {"clCreateContext:-6", gst_resource_error_quark,
        GST_RESOURCE_ERROR_NO_SPACE_LEFT},
    {"clCreateCommandQueue:-36", gst_library_error_quark,
        GST_LIBRARY_ERROR_FAILED},
    {"clBuildProgram:-11", gst_library_error_quark, GST_LIBRARY_ERROR_INIT},
    {"clCreateKernel:-46", gst_library_error_quark, GST_LIBRARY_ERROR_FAILED},
    {"clGetDeviceInfo:-30", gst_library_error_quark,
        GST_LIBRARY_ERROR_FAILED},
  };
  /* at_caps: made while the caps are set; absent: a call the way of
   * these frames (host memory into the element's pool, written where it
   * is) must not make on any device: the frame goes through. The copy in
   * with bilateral, which copies on every device (sat and separable run
   * on the caller's memory where the engine wraps it). */
  static const struct
  {
    const gchar *fault;
    Method method;
    gboolean at_caps;
    gboolean absent;
  } later[] = {
    {"clCreateBuffer", METHOD_SAT, TRUE, FALSE},
    {"clEnqueueWriteBufferRect", METHOD_BILATERAL, FALSE, FALSE},
    {"clSetKernelArg:-49", METHOD_SAT, FALSE, FALSE},
    /* sat's launches, named: sat_ring, sat_scan_*, or on GPUs
     * mosaic_columns and gpu_box_sat_* (the one-pass table) */
    {"clEnqueueNDRangeKernel (", METHOD_SAT, FALSE, FALSE},
    {"clEnqueueNDRangeKernel", METHOD_SEPARABLE, FALSE, FALSE},
    {"clFinish", METHOD_SEPARABLE, FALSE, FALSE},
    {"clEnqueueReadBufferRect", METHOD_BILATERAL, FALSE, TRUE},
    {"clEnqueueMapBuffer", METHOD_SEPARABLE, FALSE, TRUE},
    {"clEnqueueCopyBuffer", METHOD_BILATERAL, FALSE, FALSE},
    {"clEnqueueWriteBuffer (range)", METHOD_BILATERAL, FALSE, FALSE},
    {"clEnqueueNDRangeKernel (bilateral", METHOD_BILATERAL, FALSE, FALSE},
  };
  gchar *why = NULL;
  gboolean wraps = default_device_wraps_frames (&why);
  guint i;

  g_print ("test_fault_injection: %s\n", why);

  for (i = 0; i < G_N_ELEMENTS (at_start); i++) {
    GstElement *e = gst_element_factory_make ("clboxblur", NULL);
    GError *err;
    gchar *debug = NULL;

    g_setenv ("CLBOXBLUR_FAULT", at_start[i].fault, TRUE);
    err = start_expecting_error (e, &debug);
    g_unsetenv ("CLBOXBLUR_FAULT");
    fail_unless (g_error_matches (err, at_start[i].domain (),
            at_start[i].code), "%s: %s (%s)", at_start[i].fault,
        err->message, debug);
    GST_INFO ("%s: %s / %s", at_start[i].fault, err->message, debug);
    g_error_free (err);
    g_free (debug);
    gst_object_unref (e);
  }

  for (i = 0; i < G_N_ELEMENTS (later); i++) {
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GstBus *bus = gst_bus_new ();
    Settings s = default_settings;
    GstVideoInfo info;
    GstMessage *msg;
    GError *err = NULL;
    gchar *debug = NULL;

    gst_element_set_bus (h->element, bus);
    s.method = later[i].method;
    apply_settings (h, &s);
    if (later[i].at_caps)
      g_setenv ("CLBOXBLUR_FAULT", later[i].fault, TRUE);
    set_format (h, &info, "RGBA", 40, 24);
    g_setenv ("CLBOXBLUR_FAULT", later[i].fault, TRUE);

    if (later[i].absent) {
      /* the output is not mapped or read back: the frame goes through */
      push_settings_and_check (h, &info, 0, &s);
      g_unsetenv ("CLBOXBLUR_FAULT");
      fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL,
          "%s: called on the way into the pool", later[i].fault);
    } else {
      fail_unless_equals_int (gst_harness_push (h, make_frame (&info, 0, i)),
          later[i].at_caps ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR);
      g_unsetenv ("CLBOXBLUR_FAULT");
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);

      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
      fail_unless (msg != NULL, "%s: no error message", later[i].fault);
      gst_message_parse_error (msg, &err, &debug);
      {
        gchar *call = g_strndup (later[i].fault, strcspn (later[i].fault,
                ":"));

        fail_unless (strstr (debug, call) != NULL || later[i].at_caps,
            "%s: debug text '%s' does not name the call", call, debug);
        g_free (call);
      }
      GST_INFO ("%s: %s / %s", later[i].fault, err->message, debug);
      g_error_free (err);
      g_free (debug);
      gst_message_unref (msg);
    }

    /* The fault gone, the same element works again. */
    if (later[i].at_caps)
      set_format (h, &info, "RGBA", 41, 24);
    push_settings_and_check (h, &info, 0, &s);

    gst_element_set_bus (h->element, NULL);
    gst_object_unref (bus);
    blurcheck_harness_teardown (h);
  }

  /* A device refusing to wrap the frames: they are copied instead, no
   * error, the same pixels. Where frames are copied anyway, the wrap is
   * never asked for and the fault changes nothing. */
  {
    GstHarness *h = blurcheck_harness_new ("clboxblur");
    GstVideoInfo info;
    Settings s = default_settings;

    if (!wraps)
      g_print ("test_fault_injection: a refused CL_MEM_USE_HOST_PTR wrap "
          "does not apply: the %s; checked instead that the frame goes "
          "through untouched by the fault\n", why);
    /* separable 8-bit RGBA: wrapped where the engine wraps frames */
    s.method = METHOD_SEPARABLE;
    set_format (h, &info, "RGBA", 40, 24);
    g_setenv ("CLBOXBLUR_FAULT", "clCreateBuffer (CL_MEM_USE_HOST_PTR)",
        TRUE);
    push_settings_and_check (h, &info, 0, &s);
    g_unsetenv ("CLBOXBLUR_FAULT");
    blurcheck_harness_teardown (h);
  }
  g_free (why);
}

GST_END_TEST;

/* A buffer smaller than the caps say is dropped with a warning, nothing
 * is pushed for it (GstVideoFilter alone would push its output buffer
 * unwritten), and the next good buffer goes through. */
GST_START_TEST (test_undersized_buffer)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  set_format (h, &info, "RGBA", 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 100, NULL)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the undersized buffer");
  gst_message_unref (msg);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);

  /* Found by the fuzzer: a buffer whose GstVideoMeta planes run past its
   * end (gst_video_frame_map only checks the plane offsets). */
  {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 210, 295 };
    gint stride[GST_VIDEO_MAX_PLANES] = { 21, 17, 17 };
    GstBuffer *buf;

    set_format (h, &info, "YV12", 12, 10);
    buf = gst_buffer_new_allocate (NULL, 296, NULL);
    gst_buffer_memset (buf, 0, 0x55, 296);
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_YV12, 12, 10, 3, offset, stride);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL);
    gst_message_unref (msg);
    push_and_check (h, &info, 9, 2, -1, REF_BORDER_REFLECT);
  }

  /* Found by the fuzzer: caps negotiated in passthrough (radius 0, so no
   * output pool), then a radius and a 0-byte buffer: GstVideoFilter would
   * assert in transform_size. Dropped instead. */
  g_object_set (h->element, "radius", 0, "radius-y", -1, NULL);
  set_format (h, &info, "RGBA", 4, 4);
  g_object_set (h->element, "radius", 3, NULL);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new ()),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  push_and_check (h, &info, 0, 3, -1, REF_BORDER_SHRINK);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_errors_suite (void)
{
  Suite *s = suite_create ("clboxblur_errors");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_no_such_device);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_kernel_path_from_disk);
  tcase_add_test (tc, test_bad_stride);
  tcase_add_test (tc, test_fault_injection);
  tcase_add_test (tc, test_undersized_buffer);
  return s;
}

BLURCHECK_MAIN (clboxblur_errors);
