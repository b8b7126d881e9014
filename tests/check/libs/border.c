/* The border rule's closed forms (kernels/common.cl) against plain walks
 * over clb_border_index: the test kernel clb_border_test (border.cl beside
 * this file) built after the kernels' loops.h and common.cl as the runtime
 * loads them (so CLBOXBLUR_KERNEL_PATH applies), once for each sample
 * width (wide_t of 32 and of 64 bits), on the runtime's device
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>

#include "runtime.h"
#include "progcache.h"
#include "clcheck.h"

/* Lines of 1 .. MAX_LEN samples, each of the three borders, a work-item
 * for each radius 0 .. MAX_LEN + 2 and one for the prefixes. */
#define MAX_LEN 24
#define N_RADII (MAX_LEN + 4)
#define N_ITEMS (3 * MAX_LEN * N_RADII)

static const gchar *const checks[] = {
  NULL,
  "clb_border_count, a window around a position of the line",
  "CLB_SHRINK_COUNT on 16 lanes",
  "clb_border_window around a position of the line: sum or count",
  "clb_border_window anywhere on the extended line: sum or count",
  "clb_border_prefix: U(n)",
  "CLB_BORDER_PREFIX_BEFORE: U(n)",
  "CLB_BORDER_PREFIX_AFTER: U(n)",
};

static const gchar *const borders[] = { "shrink", "replicate", "reflect" };

/* The test program of @bits-bit samples: loops.h, common.cl, border.cl. */
static cl_program
build_program (ClbRuntime * rt, gchar ** sources, gint bits)
{
  cl_context ctx = clb_runtime_get_context (rt);
  cl_device_id dev = clb_runtime_get_device (rt);
  const gchar *text[3] = { NULL, NULL, NULL };
  gchar *test_src = NULL, *opts, log[16384];
  GError *err = NULL;
  cl_program p;
  cl_int e;
  guint i;

  /* each source starts with a #line naming its file */
  for (i = 0; sources[i]; i++) {
    gchar *line = g_strndup (sources[i], strcspn (sources[i], "\n"));

    if (g_str_has_suffix (line, "/loops.h\""))
      text[0] = sources[i];
    if (g_str_has_suffix (line, "/common.cl\""))
      text[1] = sources[i];
    g_free (line);
  }
  fail_unless (text[0] != NULL && text[1] != NULL);
  log[0] = '\0';
  fail_unless (g_file_get_contents (CLB_BORDER_TEST_CL, &test_src, NULL,
          &err), "%s", err ? err->message : "");
  text[2] = test_src;
  p = clCreateProgramWithSource (ctx, 3, text, NULL, &e);
  fail_unless (e == CL_SUCCESS, "clCreateProgramWithSource: %d", e);
  opts = g_strdup_printf ("-cl-std=CL1.2 -DCLB_SAMPLE_BITS=%d", bits);
  e = clBuildProgram (p, 1, &dev, opts, NULL, NULL);
  if (e != CL_SUCCESS) {
    clGetProgramBuildInfo (p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
        log, NULL);
    log[sizeof log - 1] = '\0';
  }
  fail_unless (e == CL_SUCCESS, "clBuildProgram (%s): %d\n%s", opts, e, log);
  g_free (opts);
  g_free (test_src);
  return p;
}

static void
run_checks (ClbRuntime * rt, gchar ** sources, gint bits)
{
  cl_program prog = build_program (rt, sources, bits);
  cl_kernel k;
  cl_context ctx = clb_runtime_get_context (rt);
  cl_command_queue q = clb_runtime_get_queue (rt);
  cl_uint s[MAX_LEN], bad[N_ITEMS];
  cl_int what[4 * N_ITEMS], e, max_len = MAX_LEN;
  cl_mem sb, badb, whatb;
  size_t global[2] = { 3 * MAX_LEN, N_RADII };
  guint i, failed = 0;
  GRand *rand = g_rand_new_with_seed (39);

  k = clCreateKernel (prog, "clb_border_test", &e);
  fail_unless (e == CL_SUCCESS, "clCreateKernel: %d", e);
  /* random samples of 1 .. 65535 (sums of 16-bit samples) */
  for (i = 0; i < MAX_LEN; i++)
    s[i] = g_rand_int_range (rand, 1, 65536);
  g_rand_free (rand);
  memset (bad, 0, sizeof bad);
  memset (what, 0, sizeof what);
  sb = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      sizeof s, s, &e);
  fail_unless (e == CL_SUCCESS);
  badb = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      sizeof bad, bad, &e);
  fail_unless (e == CL_SUCCESS);
  whatb = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
      sizeof what, what, &e);
  fail_unless (e == CL_SUCCESS);
  fail_unless (clSetKernelArg (k, 0, sizeof sb, &sb) == CL_SUCCESS);
  fail_unless (clSetKernelArg (k, 1, sizeof max_len, &max_len) == CL_SUCCESS);
  fail_unless (clSetKernelArg (k, 2, sizeof badb, &badb) == CL_SUCCESS);
  fail_unless (clSetKernelArg (k, 3, sizeof whatb, &whatb) == CL_SUCCESS);
  fail_unless (clEnqueueNDRangeKernel (q, k, 2, NULL, global, NULL, 0, NULL,
          NULL) == CL_SUCCESS);
  fail_unless (clEnqueueReadBuffer (q, badb, CL_TRUE, 0, sizeof bad, bad, 0,
          NULL, NULL) == CL_SUCCESS);
  fail_unless (clEnqueueReadBuffer (q, whatb, CL_TRUE, 0, sizeof what, what,
          0, NULL, NULL) == CL_SUCCESS);

  for (i = 0; i < N_ITEMS; i++) {
    const cl_int *w = what + 4 * i;

    if (bad[i] == 0)
      continue;
    failed += bad[i];
    g_printerr ("%d-bit program, %s, len %u: %u checks failed, the first "
        "%s at (%d, %d)\n", bits,
        borders[(i / N_RADII) % 3], i / N_RADII / 3 + 1, bad[i],
        w[0] > 0 && w[0] < (cl_int) G_N_ELEMENTS (checks) ? checks[w[0]]
        : "?", w[1], w[2]);
  }
  clReleaseMemObject (sb);
  clReleaseMemObject (badb);
  clReleaseMemObject (whatb);
  clReleaseKernel (k);
  clReleaseProgram (prog);
  fail_unless (failed == 0, "%u checks of the border's closed forms failed",
      failed);
}

GST_START_TEST (test_border_closed_forms)
{
  GError *err = NULL;
  ClbRuntime *rt = clb_runtime_new (CLB_DEVICE_TYPE_DEFAULT, -1, 0, &err);

  gchar **sources;

  fail_unless (rt != NULL, "%s", err ? err->message : "");
  sources = clb_load_kernel_sources (&err);
  fail_unless (sources != NULL, "%s", err ? err->message : "");
  run_checks (rt, sources, 8);
  run_checks (rt, sources, 16);
  g_strfreev (sources);
  clb_runtime_free (rt);
}

GST_END_TEST;

static Suite *
border_suite (void)
{
  Suite *s = suite_create ("border");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_border_closed_forms);
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
  return gst_check_run_suite (border_suite (), "border", __FILE__);
}
