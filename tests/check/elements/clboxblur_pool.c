/* GStreamer unit tests for clboxblur: frames in OpenCL memory
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pool the element proposes upstream (GstVideoMeta, OpenCL memory),
 * frames from it and from plain system memory through every method, formats
 * of 8 and 16 bits, planar, semi-planar and packed, odd sizes, passes and
 * regions, against the plain-C reference; the output from the element's own
 * pool; buffers recycled and no OpenCL object made per frame once warm.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <dlfcn.h>

#include "blurcheck.h"

static const gchar *pool_formats[] = {
  "RGBA", "I420", "NV12", "P010_10LE", "GRAY16_LE", "YUY2", "RGB", "BGRx",
  "A420",
};

static gboolean
is_cl_memory (GstBuffer * buf)
{
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buf); i++)
    if (!gst_memory_is_type (gst_buffer_peek_memory (buf, i),
            CL_BLUR_MEMORY_TYPE))
      return FALSE;
  return gst_buffer_n_memory (buf) > 0;
}

/* A frame of random samples (make_frame) in a buffer of @pool. */
static GstBuffer *
pool_frame (GstBufferPool * pool, const GstVideoInfo * info, guint32 seed)
{
  GstBuffer *src = make_frame (info, 0, seed), *buf = NULL;
  GstVideoFrame fs, fd;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless (is_cl_memory (buf));
  fail_unless (gst_buffer_get_video_meta (buf) != NULL);
  /* random padding, as make_frame's */
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  fail_unless (gst_video_frame_map (&fs, info, src, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fd, info, buf, GST_MAP_WRITE));
  fail_unless (gst_video_frame_copy (&fd, &fs));
  gst_video_frame_unmap (&fd);
  gst_video_frame_unmap (&fs);
  gst_buffer_unref (src);
  return buf;
}

/* Pushes @in (taken) and checks the output against the reference; the
 * output must be the element's OpenCL memory too. */
static void
push_pool_and_check (GstHarness * h, const GstVideoInfo * info,
    GstBuffer * in, const Settings * s)
{
  GstBuffer *out;

  apply_settings (h, s);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  fail_unless (is_cl_memory (out), "output not from the element's pool");
  check_frame (info, in, out, s);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
}

/* The proposed pool: OpenCL memory, GstVideoMeta, planes that start on
 * aligned offsets in index order. */
GST_START_TEST (test_proposed_pool)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstVideoInfo info;
  GstBufferPool *pool;
  GstBuffer *buf;
  GstVideoMeta *meta;
  guint f, p;

  for (f = 0; f < G_N_ELEMENTS (pool_formats); f++) {
    set_format (h, &info, pool_formats[f], 33, 17);
    pool = blurcheck_proposed_pool (h, &info);
    fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf,
            NULL), GST_FLOW_OK);
    fail_unless (is_cl_memory (buf));
    meta = gst_buffer_get_video_meta (buf);
    fail_unless (meta != NULL);
    fail_unless_equals_int (meta->n_planes, GST_VIDEO_INFO_N_PLANES (&info));
    for (p = 0; p < meta->n_planes; p++) {
      fail_unless (meta->stride[p] >= GST_VIDEO_INFO_PLANE_STRIDE (&info, p));
      fail_unless (meta->offset[p] % 8 == 0);
      if (p > 0)
        fail_unless (meta->offset[p] > meta->offset[p - 1]);
    }
    gst_buffer_unref (buf);
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Every method, formats of every layout, odd sizes, passes > 1. */
GST_START_TEST (test_pool_methods)
{
  static const gint sizes[][2] = { {33, 17}, {64, 36} };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBufferPool *pool;
  guint f, z, m, passes;

  s.sigma_spatial = 2.0;
  s.sigma_range = 25.0;
  for (f = 0; f < G_N_ELEMENTS (pool_formats); f++) {
    for (z = 0; z < G_N_ELEMENTS (sizes); z++) {
      set_format (h, &info, pool_formats[f], sizes[z][0], sizes[z][1]);
      pool = blurcheck_proposed_pool (h, &info);
      for (m = 0; m < 3; m++) {
        for (passes = 1; passes <= (m == METHOD_BILATERAL ? 1u : 2u);
            passes++) {
          s.method = m;
          s.passes = passes;
          s.rx = 3;
          s.ry = 2;
          push_pool_and_check (h, &info, pool_frame (pool, &info,
                  f * 101 + z * 7 + m + passes), &s);
        }
      }
      fail_unless (gst_buffer_pool_set_active (pool, FALSE));
      gst_object_unref (pool);
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Regions, inverted or not, and preserve-alpha: bytes no job writes come
 * from the input. */
GST_START_TEST (test_pool_regions)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2",
    "P010_10LE"
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBufferPool *pool;
  guint f, m, inv;

  s.rx = 3;
  s.ry = 2;
  s.use_rects = TRUE;
  s.n_rects = 1;
  s.rects[0][0] = 5;
  s.rects[0][1] = 3;
  s.rects[0][2] = 20;
  s.rects[0][3] = 9;
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 33, 17);
    pool = blurcheck_proposed_pool (h, &info);
    for (inv = 0; inv < 2; inv++) {
      for (m = 0; m < 3; m++) {
        s.method = m;
        s.invert = inv;
        s.passes = m == METHOD_SEPARABLE ? 2 : 1;
        s.preserve_alpha = inv;
        g_object_set (h->element, "region-x", 5, "region-y", 3,
            "region-width", 20, "region-height", 9, "region-invert",
            (gboolean) inv, NULL);
        push_pool_and_check (h, &info, pool_frame (pool, &info, f + m * 3),
            &s);
      }
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* roi-strength on frames in OpenCL memory: the region at its strength
 * (0.3 x 9 rows: 3, above radius 1), 8-, 16-bit and packed formats. */
GST_START_TEST (test_pool_strength)
{
  static const gchar *formats[] = { "RGBA", "I420", "YUY2", "P010_10LE" };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBufferPool *pool;
  guint f, m;

  s.rx = s.ry = 1;
  s.strength = 0.3;
  s.use_rects = TRUE;
  s.n_rects = 1;
  s.rects[0][0] = 5;
  s.rects[0][1] = 3;
  s.rects[0][2] = 20;
  s.rects[0][3] = 9;
  g_object_set (h->element, "region-x", 5, "region-y", 3, "region-width", 20,
      "region-height", 9, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 33, 17);
    pool = blurcheck_proposed_pool (h, &info);
    for (m = 0; m < 3; m++) {
      s.method = m;
      push_pool_and_check (h, &info, pool_frame (pool, &info, f + m * 5),
          &s);
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Issue 25's modes on frames in the element's OpenCL memory: an ellipse
 * with a feather (box, bilateral), mosaic and fill in a region. */
GST_START_TEST (test_pool_shapes_mosaic)
{
  static const gchar *formats[] = { "RGBA", "I420", "NV12", "YUY2" };
  static const Method methods[] = { METHOD_SEPARABLE, METHOD_BILATERAL,
    METHOD_MOSAIC, METHOD_FILL
  };
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBufferPool *pool;
  guint f, m;

  s.rx = s.ry = 2;
  s.use_rects = TRUE;
  s.n_rects = 1;
  s.rects[0][0] = 4;
  s.rects[0][1] = 2;
  s.rects[0][2] = 21;
  s.rects[0][3] = 11;
  s.shape = REF_SHAPE_ELLIPSE;
  s.feather = 3;
  s.block_size = 4;
  s.fill_color = 0xff3060c0u;
  g_object_set (h->element, "region-x", 4, "region-y", 2, "region-width", 21,
      "region-height", 11, NULL);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    set_format (h, &info, formats[f], 33, 17);
    pool = blurcheck_proposed_pool (h, &info);
    for (m = 0; m < G_N_ELEMENTS (methods); m++) {
      s.method = methods[m];
      push_pool_and_check (h, &info, pool_frame (pool, &info, 40 + f + m * 5),
          &s);
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Frames from plain system memory (with and without a GstVideoMeta) still
 * go through, into the element's pool. */
GST_START_TEST (test_system_memory)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  guint f, m, pad;

  for (f = 0; f < G_N_ELEMENTS (pool_formats); f++) {
    set_format (h, &info, pool_formats[f], 33, 17);
    for (m = 0; m < 3; m++) {
      for (pad = 0; pad <= 8; pad += 8) {
        s.method = m;
        push_pool_and_check (h, &info, make_frame (&info, pad, f + m + pad),
            &s);
      }
    }
  }
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* clb_created_objects of the plugin's own copy of the runtime. */
static guint
created_objects (void)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "clboxblur");
  gpointer module;
  guint (*count) (void) = NULL;
  guint n;

  /* loaded already (RTLD_NOLOAD): the plugin's own copy of the counter */
  fail_unless (plugin != NULL);
  module = dlopen (gst_plugin_get_filename (plugin), RTLD_LAZY | RTLD_NOLOAD);
  fail_unless (module != NULL);
  *(gpointer *) & count = dlsym (module, "clb_created_objects");
  fail_unless (count != NULL);
  n = count ();
  dlclose (module);
  gst_object_unref (plugin);
  return n;
}

/* Once warm, frames from the pool into the pool make no OpenCL object and
 * reuse the same buffers, for each method. */
GST_START_TEST (test_recycled)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBufferPool *pool;
  GHashTable *seen = g_hash_table_new (NULL, NULL);
  guint f, m, i, before;

  for (f = 0; f < 2; f++) {
    set_format (h, &info, f == 0 ? "RGBA" : "NV12", 64, 36);
    pool = blurcheck_proposed_pool (h, &info);
    for (m = 0; m < 3; m++) {
      s.method = m;
      g_hash_table_remove_all (seen);
      before = 0;
      for (i = 0; i < 12; i++) {
        GstBuffer *in = pool_frame (pool, &info, i), *out;

        if (i == 3)
          before = created_objects ();
        g_hash_table_add (seen, gst_buffer_peek_memory (in, 0));
        apply_settings (h, &s);
        fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
        out = gst_harness_pull (h);
        fail_unless (is_cl_memory (out));
        g_hash_table_add (seen, gst_buffer_peek_memory (out, 0));
        gst_buffer_unref (out);
      }
      fail_unless_equals_int (created_objects (), before);
      /* an input and an output buffer in turn, a few more at most */
      fail_unless (g_hash_table_size (seen) <= 4, "%u buffers for 12 frames",
          g_hash_table_size (seen));
    }
    fail_unless (gst_buffer_pool_set_active (pool, FALSE));
    gst_object_unref (pool);
  }
  g_hash_table_unref (seen);
  blurcheck_harness_teardown (h);
}

GST_END_TEST;

/* Memory that is not system memory (as OpenCL, GL or dmabuf memory are
 * not), host-readable, counting its maps. */
typedef struct
{
  GstMemory mem;
  guint8 *data;
} CountMemory;

typedef GstAllocator CountAllocator;
typedef GstAllocatorClass CountAllocatorClass;
GType count_allocator_get_type (void);
G_DEFINE_TYPE (CountAllocator, count_allocator, GST_TYPE_ALLOCATOR);

static gint count_maps;

static gpointer
count_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  g_atomic_int_inc (&count_maps);
  return ((CountMemory *) mem)->data;
}

static void
count_unmap (GstMemory * mem)
{
}

static void
count_free (GstAllocator * allocator, GstMemory * mem)
{
  g_free (((CountMemory *) mem)->data);
  g_free (mem);
}

static void
count_allocator_class_init (CountAllocatorClass * klass)
{
  klass->free = count_free;
}

static void
count_allocator_init (CountAllocator * self)
{
  self->mem_type = "CountMemory";
  self->mem_map = count_map;
  self->mem_unmap = count_unmap;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

/* A copy of @src (its bytes and video meta) in one CountMemory. */
static GstBuffer *
count_copy (GstAllocator * allocator, GstBuffer * src)
{
  CountMemory *m = g_new0 (CountMemory, 1);
  gsize size = gst_buffer_get_size (src);
  GstBuffer *buf = gst_buffer_new ();
  GstVideoMeta *meta = gst_buffer_get_video_meta (src);

  m->data = g_malloc (size);
  gst_buffer_extract (src, 0, m->data, size);
  gst_memory_init (GST_MEMORY_CAST (m), GST_MEMORY_FLAG_NO_SHARE, allocator,
      NULL, size, 0, 0, size);
  gst_buffer_append_memory (buf, GST_MEMORY_CAST (m));
  /* a copy of the metadata alone leaves a memory's metas out */
  if (meta)
    gst_buffer_add_video_meta_full (buf, meta->flags, meta->format,
        meta->width, meta->height, meta->n_planes, meta->offset, meta->stride);
  return buf;
}

/* Issue 40: the element's check of an input buffer reads its size and
 * video meta and maps only system memory: a frame in other memory is
 * mapped once, by GstVideoFilter to filter it (on OpenCL or GL memory
 * the element's own ways map it not at all), and the result is the
 * reference's. Before, the check mapped every input too (a blocking map
 * of OpenCL memory, a texture download of GL memory). */
GST_START_TEST (test_input_check_maps_no_device_memory)
{
  GstAllocator *allocator = g_object_new (count_allocator_get_type (), NULL);
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  Settings s = default_settings;
  GstVideoInfo info;
  GstBuffer *src, *in, *out;
  gint maps;

  gst_object_ref_sink (allocator);
  set_format (h, &info, "RGBA", 33, 17);
  apply_settings (h, &s);
  src = make_frame (&info, 7, 40);      /* padded rows: a video meta */
  in = count_copy (allocator, src);
  g_atomic_int_set (&count_maps, 0);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  maps = g_atomic_int_get (&count_maps);
  fail_unless (out != NULL);
  fail_unless_equals_int (maps, 1);
  check_frame (&info, src, out, &s);

  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_buffer_unref (src);
  blurcheck_harness_teardown (h);
  gst_object_unref (allocator);
}

GST_END_TEST;

static Suite *
clboxblur_pool_suite (void)
{
  Suite *s = suite_create ("clboxblur_pool");
  TCase *tc = tcase_create ("general");

  blurcheck_add_fixture (tc);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_proposed_pool);
  tcase_add_test (tc, test_pool_methods);
  tcase_add_test (tc, test_pool_regions);
  tcase_add_test (tc, test_pool_strength);
  tcase_add_test (tc, test_pool_shapes_mosaic);
  tcase_add_test (tc, test_system_memory);
  tcase_add_test (tc, test_recycled);
  tcase_add_test (tc, test_input_check_maps_no_device_memory);
  return s;
}

BLURCHECK_MAIN (clboxblur_pool);
