/* Unit tests of the OpenCL runtime module (no GStreamer element)
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
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
  fail_unless (clb_runtime_ensure_program (rt, CLB_SAMPLES_16, "base", &err), "%s",
      err ? err->message : "");
  *cached = clb_runtime_get_cached_programs (rt);
  return rt;
}

/* Rewrites every entry of @dir with what @damage makes of its contents. */
static void
damage_entries (const gchar * dir, gchar * (*damage) (const gchar * data,
        gsize len, gsize * out_len))
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  fail_unless (d != NULL);
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL), *data = NULL, *out;
    gsize len = 0, out_len = 0;

    fail_unless (g_file_get_contents (p, &data, &len, NULL));
    out = damage (data, len, &out_len);
    fail_unless (g_file_set_contents (p, out, out_len, NULL));
    g_free (out);
    g_free (data);
    g_free (p);
  }
  g_dir_close (d);
}

static gchar *
not_a_binary (const gchar * data, gsize len, gsize * out_len)
{
  *out_len = 12;
  return g_strdup ("not a binary");
}

/* The first half: header intact, binary cut short. */
static gchar *
truncated (const gchar * data, gsize len, gsize * out_len)
{
  *out_len = len / 2;
  return g_memdup2 (data, *out_len);
}

/* One byte of the binary changed, the length kept. */
static gchar *
flipped (const gchar * data, gsize len, gsize * out_len)
{
  gchar *out = g_memdup2 (data, len);

  out[len - 1] ^= 0x5a;
  *out_len = len;
  return out;
}

/* A driver's binary without the header, as an older cache wrote it, or
 * as another program might leave it: the driver must never see it. */
static gchar *
headerless (const gchar * data, gsize len, gsize * out_len)
{
  gsize skip = MIN (len, 144);

  *out_len = len - skip;
  return g_memdup2 (data + skip, *out_len);
}

/* A first build fills the cache, a second one loads both programs from it,
 * and a damaged, truncated or foreign entry is ignored (the driver never
 * sees it: some drivers abort on one), the source built and the entry
 * written again. */
GST_START_TEST (test_binary_cache)
{
  gchar *(*damages[]) (const gchar *, gsize, gsize *) = {
    not_a_binary, truncated, flipped, headerless,
  };
  gchar *dir = g_dir_make_tmp ("clboxblur-cache-XXXXXX", NULL);
  ClbRuntime *rt;
  guint cached, i;
  GError *err = NULL;
  cl_kernel k;

  /* the cache on every driver, PoCL too */
  g_setenv (CLB_BINARY_CACHE_ENV, "1", TRUE);
  g_setenv (CLB_CACHE_DIR_ENV, dir, TRUE);

  rt = build (&cached);
  fail_unless_equals_int (cached, 0);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), CLB_N_SAMPLE_SIZES);

  rt = build (&cached);
  fail_unless_equals_int (cached, CLB_N_SAMPLE_SIZES);
  k = clb_runtime_create_kernel (rt, CLB_SAMPLES_16, "base",
      "copy_rows", &err);
  fail_unless (k != NULL, "%s", err ? err->message : "");
  clb_runtime_release_kernel (&k);
  clb_runtime_free (rt);

  for (i = 0; i < G_N_ELEMENTS (damages); i++) {
    damage_entries (dir, damages[i]);
    rt = build (&cached);
    fail_unless_equals_int (cached, 0);
    clb_runtime_free (rt);
    /* rewritten whole */
    rt = build (&cached);
    fail_unless_equals_int (cached, CLB_N_SAMPLE_SIZES);
    clb_runtime_free (rt);
  }

  /* Empty: caching off. */
  rm_rf (dir);
  g_setenv (CLB_CACHE_DIR_ENV, "", TRUE);
  rt = build (&cached);
  fail_unless_equals_int (cached, 0);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), 0);

  g_unsetenv (CLB_CACHE_DIR_ENV);
  g_unsetenv (CLB_BINARY_CACHE_ENV);
  g_free (dir);
}

GST_END_TEST;

/* PoCL keeps a kernel cache of its own: the element's stays empty there
 * (asking PoCL for a program's binaries compiles every kernel in it),
 * and is filled on every other driver. */
GST_START_TEST (test_binary_cache_default)
{
  gchar *dir = g_dir_make_tmp ("clboxblur-cache-XXXXXX", NULL);
  ClbRuntime *rt;
  guint cached;
  gboolean pocl;

  g_unsetenv (CLB_BINARY_CACHE_ENV);
  g_setenv (CLB_CACHE_DIR_ENV, dir, TRUE);
  rt = build (&cached);
  pocl = g_str_has_prefix (clb_runtime_get_platform_name (rt),
      "Portable Computing Language");
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir),
      pocl ? 0 : CLB_N_SAMPLE_SIZES);
  g_setenv (CLB_BINARY_CACHE_ENV, "0", TRUE);
  rm_rf (dir);
  g_mkdir (dir, 0700);
  rt = build (&cached);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), 0);

  rm_rf (dir);
  g_unsetenv (CLB_BINARY_CACHE_ENV);
  g_unsetenv (CLB_CACHE_DIR_ENV);
  g_free (dir);
}

GST_END_TEST;

/* Issue 42: an entry whose file is huge (sparse: no disk) is a miss, not
 * an abort. The cache read allocated the file's size before reading it:
 * "GLib-ERROR: failed to allocate 21474836481 bytes" on a 20 GB entry. 1 TiB,
 * first, is more than any machine this runs on can allocate, so the old
 * read aborts everywhere (where it could allocate 20 GB, it would read
 * them). */
GST_START_TEST (test_binary_cache_huge_entry)
{
  const goffset sizes[] = { G_GOFFSET_CONSTANT (1) << 40,
    G_GOFFSET_CONSTANT (20) * 1000 * 1000 * 1000,
  };
  gchar *dir = g_dir_make_tmp ("clboxblur-cache-XXXXXX", NULL);
  ClbRuntime *rt;
  guint cached, i, made = 0;

  /* the element's own cache, where a driver keeps one of its own too */
  g_setenv (CLB_BINARY_CACHE_ENV, "1", TRUE);
  g_setenv (CLB_CACHE_DIR_ENV, dir, TRUE);
  rt = build (&cached);
  clb_runtime_free (rt);
  fail_unless_equals_int (count_bin_files (dir), CLB_N_SAMPLE_SIZES);

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GDir *d = g_dir_open (dir, 0, NULL);
    const gchar *name;
    gboolean all = TRUE;

    fail_unless (d != NULL);
    while ((name = g_dir_read_name (d))) {
      gchar *p = g_build_filename (dir, name, NULL);
      gint fd = g_open (p, O_WRONLY, 0);

      fail_unless (fd >= 0, "%s: %s", p, g_strerror (errno));
      if (ftruncate (fd, sizes[i]) != 0) {
        GST_INFO ("no %" G_GINT64_FORMAT "-byte entry: %s", sizes[i],
            g_strerror (errno));
        all = FALSE;
      }
      close (fd);
      g_free (p);
    }
    g_dir_close (d);
    if (!all)
      continue;
    made++;

    rt = build (&cached);
    fail_unless_equals_int (cached, 0);
    clb_runtime_free (rt);
    /* written again whole, and read */
    rt = build (&cached);
    fail_unless_equals_int (cached, CLB_N_SAMPLE_SIZES);
    clb_runtime_free (rt);
  }
  /* 20 GB fits any file system this runs on */
  fail_unless (made > 0, "no huge entry could be made in %s", dir);

  rm_rf (dir);
  g_unsetenv (CLB_CACHE_DIR_ENV);
  g_unsetenv (CLB_BINARY_CACHE_ENV);
  g_free (dir);
}

GST_END_TEST;

/* A build readies the 8-bit program only; the 16-bit one is built when
 * first asked for, once for every runtime on the device. */
GST_START_TEST (test_programs_on_demand)
{
  GError *err = NULL;
  ClbRuntime *a, *b;
  cl_kernel k;

  g_setenv (CLB_CACHE_DIR_ENV, "", TRUE);
  a = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);
  fail_unless (a != NULL, "%s", err ? err->message : "");
  b = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);
  fail_unless (b != NULL, "%s", err ? err->message : "");
  fail_unless (clb_runtime_build_program (a, NULL, &err), "%s",
      err ? err->message : "");
  fail_unless (clb_runtime_build_program (b, NULL, &err), "%s",
      err ? err->message : "");
  fail_if (clb_runtime_program_pending (a, CLB_SAMPLES_8, "base"));
  fail_unless (clb_runtime_program_pending (a, CLB_SAMPLES_16, "base"));
  fail_unless (clb_runtime_program_pending (b, CLB_SAMPLES_16, "base"));

  /* a kernel of the 16-bit program builds it, for b too */
  k = clb_runtime_create_kernel (a, CLB_SAMPLES_16, "base", "copy_rows",
      &err);
  fail_unless (k != NULL, "%s", err ? err->message : "");
  clb_runtime_release_kernel (&k);
  fail_if (clb_runtime_program_pending (a, CLB_SAMPLES_16, "base"));
  fail_if (clb_runtime_program_pending (b, CLB_SAMPLES_16, "base"));
  fail_unless (clb_runtime_ensure_program (b, CLB_SAMPLES_16, "base", &err), "%s",
      err ? err->message : "");

  clb_runtime_free (b);
  clb_runtime_free (a);
  g_unsetenv (CLB_CACHE_DIR_ENV);
}

GST_END_TEST;

/* Runtimes on one device share one context and one build of the
 * programs; each has its own queue; the last one releases them. */
GST_START_TEST (test_shared_context)
{
  ClbRuntime *rts[8];
  guint i;

  g_setenv (CLB_CACHE_DIR_ENV, "", TRUE);
  for (i = 0; i < G_N_ELEMENTS (rts); i++) {
    guint cached;

    rts[i] = build (&cached);
    fail_unless (clb_runtime_get_context (rts[i]) ==
        clb_runtime_get_context (rts[0]));
    fail_unless (clb_runtime_get_device (rts[i]) ==
        clb_runtime_get_device (rts[0]));
    if (i > 0)
      fail_unless (clb_runtime_get_queue (rts[i]) !=
          clb_runtime_get_queue (rts[0]));
  }
  for (i = 0; i < G_N_ELEMENTS (rts); i++)
    clb_runtime_free (rts[i]);
  g_unsetenv (CLB_CACHE_DIR_ENV);
}

GST_END_TEST;

/* A context the application made is used, not copied, and outlives the
 * runtimes on it. */
GST_START_TEST (test_application_context)
{
  cl_device_id device = clcheck_default_device ();
  cl_context context;
  cl_uint before = 0, during = 0, after = 0;
  ClbRuntime *a, *b;
  GError *err = NULL;
  cl_int e;

  context = clCreateContext (NULL, 1, &device, NULL, NULL, &e);
  fail_unless_equals_int (e, CL_SUCCESS);
  clGetContextInfo (context, CL_CONTEXT_REFERENCE_COUNT, sizeof (before),
      &before, NULL);

  a = clb_runtime_new_for_context (context, NULL, &err);
  fail_unless (a != NULL, "%s", err ? err->message : "");
  b = clb_runtime_new_for_context (context, device, &err);
  fail_unless (b != NULL, "%s", err ? err->message : "");
  fail_unless (clb_runtime_get_context (a) == context);
  fail_unless (clb_runtime_get_context (b) == context);
  fail_unless (clb_runtime_get_device (a) == device);
  fail_unless (clb_runtime_build_program (a, NULL, &err), "%s",
      err ? err->message : "");
  fail_unless (clb_runtime_build_program (b, NULL, &err), "%s",
      err ? err->message : "");
  clGetContextInfo (context, CL_CONTEXT_REFERENCE_COUNT, sizeof (during),
      &during, NULL);
  fail_unless (during > before);

  /* a runtime of its own on the same device does not take it */
  {
    ClbRuntime *own = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);

    fail_unless (own != NULL, "%s", err ? err->message : "");
    if (clb_runtime_get_device (own) == device)
      fail_unless (clb_runtime_get_context (own) != context);
    clb_runtime_free (own);
  }

  clb_runtime_free (a);
  clb_runtime_free (b);
  clGetContextInfo (context, CL_CONTEXT_REFERENCE_COUNT, sizeof (after),
      &after, NULL);
  fail_unless_equals_int (after, before);
  clReleaseContext (context);
}

GST_END_TEST;

/* The runtime pins PoCL's workers (POCL_AFFINITY=1) where the environment
 * does not say, and keeps what it says. Other implementations ignore the
 * variable: this holds on any device. */
GST_START_TEST (test_pocl_affinity)
{
  ClbRuntime *rt;

  g_unsetenv (CLB_POCL_AFFINITY_ENV);
  rt = clcheck_default_runtime ();
  fail_unless_equals_string (g_getenv (CLB_POCL_AFFINITY_ENV), "1");
  clb_runtime_free (rt);

  g_setenv (CLB_POCL_AFFINITY_ENV, "0", TRUE);
  rt = clcheck_default_runtime ();
  fail_unless_equals_string (g_getenv (CLB_POCL_AFFINITY_ENV), "0");
  clb_runtime_free (rt);
  g_unsetenv (CLB_POCL_AFFINITY_ENV);
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

/* A device index past the last device names the index and how many devices
 * there are (not "install a driver": there is one). */
GST_START_TEST (test_device_index_message)
{
  GError *err = NULL;
  ClbRuntime *rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 1000, &err);
  gchar *want;

  fail_unless (rt == NULL);
  fail_unless (g_error_matches (err, CLB_RUNTIME_ERROR,
          CLB_RUNTIME_ERROR_NO_DEVICE), "%s", err ? err->message : "");
  want = g_strdup_printf ("device-index=%d does not exist", 1000);
  fail_unless (strstr (err->message, want) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "OpenCL device(s)") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "install") == NULL, "%s", err->message);
  g_print ("test_device_index_message: %s\n", err->message);
  g_free (want);
  g_error_free (err);
}

GST_END_TEST;

static Suite *
runtime_suite (void)
{
  Suite *s = suite_create ("runtime");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pocl_affinity);
  tcase_add_test (tc, test_error_names);
  tcase_add_test (tc, test_device_index_message);
  tcase_add_test (tc, test_binary_cache);
  tcase_add_test (tc, test_binary_cache_default);
  tcase_add_test (tc, test_programs_on_demand);
  tcase_add_test (tc, test_binary_cache_huge_entry);
  tcase_add_test (tc, test_shared_context);
  tcase_add_test (tc, test_application_context);
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
