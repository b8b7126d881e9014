/* clboxblur instances sharing an OpenCL context, and a context handed in
 * by the application through a GstContext.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "refblur.h"
#include "clcheck.h"

/* As gst/gstclboxblur.h defines it: the tests use the documented name. */
#define CONTEXT_TYPE "gst.clboxblur.cl.context"

#define WIDTH 64                /* GRAY8 rows of 64 bytes: no padding */
#define HEIGHT 48
#define N_INSTANCES 8

typedef struct
{
  GstElement *pipeline, *src, *sink;
  GstElement *blurs[N_INSTANCES];
} Chain;

/* The chain of the running case: torn down by the fixture, so that a
 * failed check reports instead of hanging on the streaming thread. */
static Chain chain;

static void
teardown (void)
{
  if (chain.pipeline) {
    gst_element_set_state (chain.pipeline, GST_STATE_NULL);
    gst_object_unref (chain.pipeline);
  }
  memset (&chain, 0, sizeof (chain));
}

/* appsrc ! clboxblur x N_INSTANCES (separable, radius 1) ! appsink */
static void
chain_make (Chain * c)
{
  GstElement *prev;
  GstCaps *caps;
  guint i;

  c->pipeline = gst_pipeline_new (NULL);
  c->src = gst_element_factory_make ("appsrc", NULL);
  c->sink = gst_element_factory_make ("appsink", NULL);
  fail_unless (c->src && c->sink);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, WIDTH, "height", G_TYPE_INT, HEIGHT, "framerate",
      GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set (c->src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  g_object_set (c->sink, "sync", FALSE, NULL);
  gst_bin_add_many (GST_BIN (c->pipeline), c->src, c->sink, NULL);
  prev = c->src;
  for (i = 0; i < N_INSTANCES; i++) {
    c->blurs[i] = gst_element_factory_make ("clboxblur", NULL);
    fail_unless (c->blurs[i] != NULL);
    g_object_set (c->blurs[i], "method", 1 /* separable */ , "radius", 1,
        NULL);
    gst_bin_add (GST_BIN (c->pipeline), c->blurs[i]);
    fail_unless (gst_element_link (prev, c->blurs[i]));
    prev = c->blurs[i];
  }
  fail_unless (gst_element_link (prev, c->sink));
}

/* Plays one frame through the chain and compares it with the reference
 * box blur applied N_INSTANCES times. */
static void
chain_check_frame (Chain * c)
{
  guint8 in[WIDTH * HEIGHT];
  guint16 in16[WIDTH * HEIGHT], ref[WIDTH * HEIGHT];
  GstSample *sample;
  GstMapInfo map;
  GstBuffer *buf;
  guint i;

  for (i = 0; i < WIDTH * HEIGHT; i++) {
    in[i] = (guint8) g_random_int ();
    in16[i] = in[i];
  }
  fail_unless_equals_int (ref_box_blur (in16, ref, WIDTH, HEIGHT, 1, 1, 1,
          REF_BORDER_SHRINK, N_INSTANCES), 0);

  fail_unless (gst_element_set_state (c->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  buf = gst_buffer_new_memdup (in, sizeof (in));
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (c->src), buf),
      GST_FLOW_OK);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (c->sink),
      60 * GST_SECOND);
  fail_unless (sample != NULL, "no frame came out");
  fail_unless (gst_buffer_map (gst_sample_get_buffer (sample), &map,
          GST_MAP_READ));
  fail_unless_equals_int (map.size, sizeof (in));
  for (i = 0; i < WIDTH * HEIGHT; i++)
    fail_unless_equals_int (map.data[i], ref[i]);
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  gst_sample_unref (sample);
}

/* The OpenCL context @blur answers a context query with, or NULL. */
static cl_context
queried_context (GstElement * blur)
{
  GstQuery *q = gst_query_new_context (CONTEXT_TYPE);
  GstPad *pad = gst_element_get_static_pad (blur, "src");
  gpointer ctx = NULL;
  GstContext *context = NULL;

  if (gst_pad_query (pad, q)) {
    gst_query_parse_context (q, &context);
    fail_unless (context != NULL);
    fail_unless (gst_structure_get (gst_context_get_structure (context),
            "cl-context", G_TYPE_POINTER, &ctx, NULL));
  }
  gst_object_unref (pad);
  gst_query_unref (q);
  return ctx;
}

static void
chain_free (Chain * c)
{
  fail_unless_equals_int (gst_element_set_state (c->pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (c->pipeline);
  c->pipeline = NULL;
}

/* Eight instances on one device use one OpenCL context. */
GST_START_TEST (test_instances_share_context)
{
  cl_context first;
  guint i;

  chain_make (&chain);
  chain_check_frame (&chain);
  first = queried_context (chain.blurs[0]);
  fail_unless (first != NULL, "clboxblur answered no context query");
  for (i = 1; i < N_INSTANCES; i++)
    fail_unless (queried_context (chain.blurs[i]) == first,
        "instance %u uses another OpenCL context", i);
  chain_free (&chain);
}

GST_END_TEST;

static GstBusSyncReply
give_context (GstBus * bus, GstMessage * msg, gpointer data)
{
  const gchar *type;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT
      && gst_message_parse_context_type (msg, &type)
      && g_strcmp0 (type, CONTEXT_TYPE) == 0) {
    GstContext *context = gst_context_new (CONTEXT_TYPE, TRUE);

    gst_structure_set (gst_context_writable_structure (context),
        "cl-context", G_TYPE_POINTER, data, NULL);
    gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), context);
    gst_context_unref (context);
  }
  return GST_BUS_PASS;
}

static cl_uint
references (cl_context context)
{
  cl_uint n = 0;

  fail_unless_equals_int (clGetContextInfo (context,
          CL_CONTEXT_REFERENCE_COUNT, sizeof (n), &n, NULL), CL_SUCCESS);
  return n;
}

/* An application's context, given in answer to the need-context message,
 * is used by every instance, and released by them when they stop. */
GST_START_TEST (test_application_context)
{
  cl_device_id device = clcheck_default_device ();
  cl_context mine;
  cl_uint before;
  GstBus *bus;
  cl_int err;
  guint i;

  fail_unless (device != NULL);
  mine = clCreateContext (NULL, 1, &device, NULL, NULL, &err);
  fail_unless_equals_int (err, CL_SUCCESS);
  before = references (mine);

  chain_make (&chain);
  bus = gst_element_get_bus (chain.pipeline);
  gst_bus_set_sync_handler (bus, give_context, mine, NULL);
  chain_check_frame (&chain);
  for (i = 0; i < N_INSTANCES; i++)
    fail_unless (queried_context (chain.blurs[i]) == mine,
        "instance %u does not use the application's context", i);
  fail_unless (references (mine) > before);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  chain_free (&chain);
  fail_unless_equals_int (references (mine), before);
  clReleaseContext (mine);
}

GST_END_TEST;

/* The same, with the context set on the pipeline before it starts (the
 * bin hands it to each element that asks). */
GST_START_TEST (test_context_set_on_pipeline)
{
  cl_device_id device = clcheck_default_device ();
  GstContext *context;
  cl_context mine;
  cl_int err;

  mine = clCreateContext (NULL, 1, &device, NULL, NULL, &err);
  fail_unless_equals_int (err, CL_SUCCESS);
  chain_make (&chain);
  context = gst_context_new (CONTEXT_TYPE, TRUE);
  gst_structure_set (gst_context_writable_structure (context),
      "cl-context", G_TYPE_POINTER, mine, "cl-device", G_TYPE_POINTER,
      device, NULL);
  gst_element_set_context (chain.pipeline, context);
  gst_context_unref (context);
  chain_check_frame (&chain);
  fail_unless (queried_context (chain.blurs[N_INSTANCES - 1]) == mine);
  chain_free (&chain);
  clReleaseContext (mine);
}

GST_END_TEST;

static Suite *
context_suite (void)
{
  Suite *s = suite_create ("clboxblur_context");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, teardown);
  tcase_add_test (tc, test_instances_share_context);
  tcase_add_test (tc, test_application_context);
  tcase_add_test (tc, test_context_set_on_pipeline);
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
  return gst_check_run_suite (context_suite (), "clboxblur_context",
      __FILE__);
}
