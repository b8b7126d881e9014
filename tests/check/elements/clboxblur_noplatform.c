/* clboxblur with no OpenCL platform installed
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with OCL_ICD_VENDORS pointing at a folder with no .icd file, so the
 * ICD loader finds no driver: starting the element must post a
 * RESOURCE/NOT_FOUND error that says what to install, and not crash.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>
#include <CL/cl.h>

GST_START_TEST (test_no_platform)
{
  GstElement *e;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;
  cl_uint n = 0;

  /* The set-up itself: make sure the loader really sees nothing. */
  clGetPlatformIDs (0, NULL, &n);
  fail_unless_equals_int (n, 0);

  e = gst_element_factory_make ("clboxblur", NULL);
  fail_unless (e != NULL);
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND), "%s", err->message);
  fail_unless (strstr (err->message, "pocl-opencl-icd") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "No OpenCL platform") != NULL, "%s",
      err->message);

  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
clboxblur_noplatform_suite (void)
{
  Suite *s = suite_create ("clboxblur_noplatform");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_platform);
  return s;
}

GST_CHECK_MAIN (clboxblur_noplatform);
