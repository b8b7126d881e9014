/* clboxblur with no OpenCL platform installed
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with OCL_ICD_VENDORS pointing at a path that does not exist, or at a
 * folder with no .icd file, so the ICD loader finds no driver: starting the
 * element must post a RESOURCE/NOT_FOUND error that says what to install,
 * and not crash; and, since the variable is the likely cause, name it, its
 * value and what is wrong with it (issue 42).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>
#include <CL/cl.h>

/* Starts a clboxblur and returns the error it posts (and its debug
 * text): the start must fail with RESOURCE/NOT_FOUND. */
static GError *
start_error (gchar ** debug)
{
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;

  fail_unless (e != NULL);
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, debug);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND), "%s", err->message);
  fail_unless (strstr (err->message, "pocl-opencl-icd") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "No OpenCL platform") != NULL, "%s",
      err->message);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  return err;
}

GST_START_TEST (test_no_platform)
{
  const gchar *vendors = g_getenv ("OCL_ICD_VENDORS");
  gchar *debug = NULL, *want;
  GError *err;
  cl_uint n = 0;

  /* The set-up itself: make sure the loader really sees nothing. */
  clGetPlatformIDs (0, NULL, &n);
  fail_unless_equals_int (n, 0);
  fail_unless (vendors != NULL && *vendors != '\0');

  err = start_error (&debug);
  /* the message names the variable and its value, the debug text what is
   * wrong with it */
  want = g_strdup_printf ("OCL_ICD_VENDORS is set to '%s'", vendors);
  fail_unless (strstr (err->message, want) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "likely cause") != NULL, "%s",
      err->message);
  fail_unless (strstr (debug, want) != NULL, "%s", debug);
  fail_unless (strstr (debug, g_file_test (vendors, G_FILE_TEST_IS_DIR) ?
          "(a folder with no .icd file)" : "(no such file or folder)")
      != NULL, "%s", debug);
  g_print ("test_no_platform: %s\n%s\n", err->message, debug);

  g_free (want);
  g_error_free (err);
  g_free (debug);
}

GST_END_TEST;

/* Without the variable the messages do not name it. The loader reads it
 * once, at its first call (made here with it still set, whether or not
 * the test before ran in this process), and keeps what it found: no
 * driver. */
GST_START_TEST (test_no_platform_unset)
{
  gchar *vendors = g_strdup (g_getenv ("OCL_ICD_VENDORS"));
  gchar *debug = NULL;
  GError *err;
  cl_uint n = 0;

  clGetPlatformIDs (0, NULL, &n);
  fail_unless_equals_int (n, 0);
  g_unsetenv ("OCL_ICD_VENDORS");
  clGetPlatformIDs (0, NULL, &n);
  if (n == 0) {
    err = start_error (&debug);
    fail_unless (strstr (err->message, "OCL_ICD_VENDORS") == NULL, "%s",
        err->message);
    fail_unless (strstr (debug, "OCL_ICD_VENDORS") == NULL, "%s", debug);
    g_error_free (err);
    g_free (debug);
  } else {
    GST_INFO ("this ICD loader reads OCL_ICD_VENDORS again: no test");
  }
  g_setenv ("OCL_ICD_VENDORS", vendors, TRUE);
  g_free (vendors);
}

GST_END_TEST;

static Suite *
clboxblur_noplatform_suite (void)
{
  Suite *s = suite_create ("clboxblur_noplatform");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_platform);
  tcase_add_test (tc, test_no_platform_unset);
  return s;
}

GST_CHECK_MAIN (clboxblur_noplatform);
