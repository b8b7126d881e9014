/* Unit tests of the OpenCL runtime module (no GStreamer element)
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include "runtime.h"
#include "clcheck.h"

static guint
count_bin_files (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  guint n = 0;

  if (d == NULL)
    return 0;
  while ((name = g_dir_read_name (d)))
    n += g_str_has_suffix (name, ".bin");
  g_dir_close (d);
  return n;
}

static void
rm_rf (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);
    g_unlink (p);
    g_free (p);
  }
  g_dir_close (d);
  g_rmdir (dir);
}

static ClbRuntime *
build (guint * cached)
{
  GError *err = NULL;
  ClbRuntime *rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);

  fail_unless (rt != NULL, "%s", err ? err->message : "");
  fail_unless (clb_runtime_build_program (rt, NULL, &err), "%s",
      err ? err->message : "");
  *cached = clb_runtime_get_cached_programs (rt);
  return rt;
}

/* A first build fills the cache, a second one loads both programs from it,
 * and a damaged entry falls back to the source. */
GST_START_TEST (test_binary_cache)
{
  gchar *dir = g_dir_make_tmp ("clboxblur-cache-XXXXXX", NULL);
  ClbRuntime *rt;
  guint cached;
  GDir *d;
  const gchar *name;
  GError *err = NULL;
  cl_kernel k;

  g_setenv (CLB_CACHE_DIR_ENV, dir, TRUE);

  rt = build (&cached);
  fail_unless_equals_int (cached, 0);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), CLB_N_SAMPLE_SIZES);

  rt = build (&cached);
  fail_unless_equals_int (cached, CLB_N_SAMPLE_SIZES);
  k = clb_runtime_create_kernel (rt, CLB_SAMPLES_16, "sat_box", &err);
  fail_unless (k != NULL, "%s", err ? err->message : "");
  clb_runtime_release_kernel (&k);
  clb_runtime_free (rt);

  /* Damage every entry. */
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);
    fail_unless (g_file_set_contents (p, "not a binary", -1, NULL));
    g_free (p);
  }
  g_dir_close (d);
  rt = build (&cached);
  fail_unless_equals_int (cached, 0);
  clb_runtime_free (rt);

  /* Empty: caching off. */
  rm_rf (dir);
  g_setenv (CLB_CACHE_DIR_ENV, "", TRUE);
  rt = build (&cached);
  fail_unless_equals_int (cached, 0);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), 0);

  g_unsetenv (CLB_CACHE_DIR_ENV);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_error_names)
{
  fail_unless_equals_string (clb_error_name (CL_SUCCESS), "CL_SUCCESS");
  fail_unless_equals_string (clb_error_name (CL_OUT_OF_RESOURCES),
      "CL_OUT_OF_RESOURCES");
  fail_unless_equals_string (clb_error_name (-1001),
      "CL_PLATFORM_NOT_FOUND_KHR");
  fail_unless_equals_string (clb_error_name (-9999), "unknown OpenCL error");
}

GST_END_TEST;

static Suite *
runtime_suite (void)
{
  Suite *s = suite_create ("runtime");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_error_names);
  tcase_add_test (tc, test_binary_cache);
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
  return gst_check_run_suite (runtime_suite (), "runtime", __FILE__);
}
