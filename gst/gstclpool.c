/* clboxblur: a buffer pool of OpenCL memory.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclpool.h"
#include "gstcllayout.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

/* Sub-buffers kept per buffer: one per plane start seen. */
#define MAX_SUBS (2 * GST_VIDEO_MAX_PLANES)

/* One cl_mem, shared by the GstMemory that owns it and its shares. */
typedef struct
{
  gint refcount;
  ClbMemDevice *dev;
  cl_mem buffer;
  gsize size;
  GMutex lock;                  /* what follows */
  guint map_count;
  gpointer mapped;
  GstMapFlags map_flags;        /* of the first of the nested maps */
  guint n_subs;
  gsize sub_origin[MAX_SUBS];
  cl_mem sub[MAX_SUBS];         /* from sub_origin to the end */
  /* The device's work on the block not known to be done (issue 40): the
   * last that writes it (a kernel, a copy, the host's unmap), and what
   * reads it since. A map waits for them (for the writer alone to read),
   * and so does the engine's next work on the block: no clFinish. */
  cl_event writer;
  GPtrArray *readers;           /* cl_event, released when removed */
} Block;

typedef struct
{
  GstMemory mem;
  Block *block;
} GstCLMemory;

struct _GstCLAllocator
{
  GstAllocator parent;
  ClbMemDevice *dev;
};

G_DEFINE_TYPE (GstCLAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR);

static void
release_event (gpointer event)
{
  clReleaseEvent (event);
}

/* Forgets the block's events: what they stand for is done. Called with
 * the lock held, or when no one else has the block. */
static void
block_forget_work (Block * b, gboolean readers)
{
  if (b->writer) {
    clReleaseEvent (b->writer);
    b->writer = NULL;
  }
  if (readers)
    g_ptr_array_set_size (b->readers, 0);
}

static Block *
block_ref (Block * b)
{
  g_atomic_int_inc (&b->refcount);
  return b;
}

static void
block_unref (Block * b)
{
  guint i;

  if (!g_atomic_int_dec_and_test (&b->refcount))
    return;
  if (b->map_count > 0) {
    GST_WARNING ("OpenCL memory freed while mapped");
    clb_mem_device_unmap (b->dev, b->buffer, b->mapped, NULL, NULL);
  }
  /* OpenCL keeps the memory until the work on it ends */
  block_forget_work (b, TRUE);
  g_ptr_array_unref (b->readers);
  for (i = 0; i < b->n_subs; i++)
    clb_runtime_release_buffer (&b->sub[i]);
  clb_runtime_release_buffer (&b->buffer);
  clb_mem_device_unref (b->dev);
  g_mutex_clear (&b->lock);
  g_free (b);
}

static GstMemory *
memory_new (GstAllocator * allocator, GstMemory * parent, Block * block,
    GstMemoryFlags flags, gsize maxsize, gsize align, gsize offset, gsize size)
{
  GstCLMemory *m = g_new0 (GstCLMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (m), flags, allocator, parent, maxsize,
      align, offset, size);
  m->block = block;
  return GST_MEMORY_CAST (m);
}

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCLAllocator *self = GST_CL_ALLOCATOR (allocator);
  gsize maxsize = size + params->prefix + params->padding;
  GError *error = NULL;
  Block *b;

  b = g_new0 (Block, 1);
  b->refcount = 1;
  g_mutex_init (&b->lock);
  b->readers = g_ptr_array_new_with_free_func (release_event);
  b->dev = clb_mem_device_ref (self->dev);
  b->size = maxsize;
  /* the buffer's start has the device's alignment, more than any asked */
  b->buffer = clb_mem_device_alloc (self->dev, maxsize, &error);
  if (b->buffer == NULL) {
    GST_WARNING_OBJECT (self, "%s", error->message);
    g_clear_error (&error);
    block_unref (b);
    return NULL;
  }
  return memory_new (allocator, NULL, b, params->flags, maxsize,
      params->align, params->prefix, size);
}

static void
gst_cl_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstCLMemory *m = (GstCLMemory *) mem;

  block_unref (m->block);
  g_free (m);
}

static gpointer
gst_cl_memory_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  Block *b = ((GstCLMemory *) mem)->block;
  GError *error = NULL;
  gpointer data = NULL;

  g_mutex_lock (&b->lock);
  if (b->map_count == 0) {
    gboolean write = (flags & GST_MAP_WRITE) != 0;
    cl_map_flags cl_flags = 0;
    GPtrArray *wait = g_ptr_array_new ();
    guint i;

    if (flags & GST_MAP_READ)
      cl_flags |= CL_MAP_READ;
    if (write)
      cl_flags |= CL_MAP_WRITE;
    /* the host reads what the device wrote; it writes once the device
     * has read too */
    if (b->writer)
      g_ptr_array_add (wait, b->writer);
    for (i = 0; write && i < b->readers->len; i++)
      g_ptr_array_add (wait, g_ptr_array_index (b->readers, i));
    b->mapped = clb_mem_device_map (b->dev, b->buffer, b->size, cl_flags,
        wait->len, (const cl_event *) wait->pdata, &error);
    g_ptr_array_unref (wait);
    if (b->mapped == NULL) {
      GST_WARNING ("%s", error->message);
      g_clear_error (&error);
      goto done;
    }
    block_forget_work (b, write);
    b->map_flags = flags & (GST_MAP_READ | GST_MAP_WRITE);
  } else if ((flags & ~b->map_flags) & (GST_MAP_READ | GST_MAP_WRITE)) {
    /* the first map decides what the host may do until the last unmap */
    GST_WARNING ("OpenCL memory mapped %s asked for %s too",
        b->map_flags & GST_MAP_WRITE ? "for writing" : "for reading",
        flags & GST_MAP_WRITE ? "writing" : "reading");
    goto done;
  }
  b->map_count++;
  data = b->mapped;
done:
  g_mutex_unlock (&b->lock);
  return data;
}

static void
gst_cl_memory_unmap (GstMemory * mem)
{
  Block *b = ((GstCLMemory *) mem)->block;
  GError *error = NULL;
  cl_event done = NULL;

  g_mutex_lock (&b->lock);
  if (b->map_count > 0 && --b->map_count == 0) {
    if (!clb_mem_device_unmap (b->dev, b->buffer, b->mapped, &done, &error)) {
      GST_WARNING ("%s", error->message);
      g_clear_error (&error);
    }
    /* the device's next work waits for the unmap: after a write, what it
     * reads is the host's; after a read, it may not write before */
    if (done && (b->map_flags & GST_MAP_WRITE)) {
      block_forget_work (b, TRUE);
      b->writer = done;
    } else if (done) {
      g_ptr_array_add (b->readers, done);
    }
    b->mapped = NULL;
  }
  g_mutex_unlock (&b->lock);
}

static GstMemory *
gst_cl_memory_share (GstMemory * mem, gssize offset, gssize size)
{
  GstCLMemory *m = (GstCLMemory *) mem;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  return memory_new (mem->allocator, parent, block_ref (m->block),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      mem->maxsize, mem->align, mem->offset + offset, size);
}

static void
gst_cl_allocator_finalize (GObject * object)
{
  GstCLAllocator *self = GST_CL_ALLOCATOR (object);

  clb_mem_device_unref (self->dev);
  G_OBJECT_CLASS (gst_cl_allocator_parent_class)->finalize (object);
}

static void
gst_cl_allocator_class_init (GstCLAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cl_allocator_alloc;
  allocator_class->free = gst_cl_allocator_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cl_allocator_finalize;
}

static void
gst_cl_allocator_init (GstCLAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_CL_MEMORY_TYPE;
  allocator->mem_map = gst_cl_memory_map;
  allocator->mem_unmap = gst_cl_memory_unmap;
  allocator->mem_share = gst_cl_memory_share;
  /* mem_copy and mem_is_span: GstAllocator's fallbacks, through maps */
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cl_allocator_new (ClbMemDevice * dev)
{
  GstCLAllocator *self = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);

  gst_object_ref_sink (self);
  self->dev = clb_mem_device_ref (dev);
  return GST_ALLOCATOR (self);
}

gboolean
gst_is_cl_blur_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL
      && GST_IS_CL_ALLOCATOR (mem->allocator);
}

/* Whether the host has @b mapped now: kernels may not touch it then. */
static gboolean
block_mapped (Block * b)
{
  gboolean mapped;

  g_mutex_lock (&b->lock);
  mapped = b->map_count > 0;
  g_mutex_unlock (&b->lock);
  return mapped;
}

/* The sub-buffer of @b from @origin to its end: made once, kept; NULL
 * where @origin is not aligned or the list is full. */
static cl_mem
block_sub (Block * b, gsize origin)
{
  GError *error = NULL;
  cl_mem sub = NULL;
  guint i;

  if (origin % clb_mem_device_get_align (b->dev) != 0 || origin >= b->size)
    return NULL;
  g_mutex_lock (&b->lock);
  for (i = 0; i < b->n_subs; i++) {
    if (b->sub_origin[i] == origin) {
      sub = b->sub[i];
      goto done;
    }
  }
  if (b->n_subs == MAX_SUBS)
    goto done;
  sub = clb_mem_device_sub_buffer (b->dev, b->buffer, origin,
      b->size - origin, &error);
  if (sub == NULL) {
    GST_DEBUG ("no sub-buffer at %" G_GSIZE_FORMAT ": %s", origin,
        error->message);
    g_clear_error (&error);
    goto done;
  }
  b->sub_origin[b->n_subs] = origin;
  b->sub[b->n_subs++] = sub;
done:
  g_mutex_unlock (&b->lock);
  return sub;
}

gboolean
gst_cl_buffer_planes (GstBuffer * buffer, const GstVideoInfo * info,
    const ClbPlanes * clb, cl_context context, ClbMemPlane * planes)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  guint bytes = clb->sample_size == CLB_SAMPLES_16 ? 2 : 1;
  guint p;

  if (GST_VIDEO_INFO_N_PLANES (info) != clb->n_planes)
    return FALSE;
  for (p = 0; p < clb->n_planes; p++) {
    gsize offset = meta ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET (info,
        p);
    gint stride = meta ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE (info,
        p);
    gsize extent, skip;
    guint idx, len;
    GstMemory *mem;
    Block *b;

    if (stride <= 0)
      return FALSE;
    extent = (gsize) stride * (clb->plane_height[p] - 1)
        + (gsize) clb->plane_width[p] * bytes;
    if (!gst_buffer_find_memory (buffer, offset, 1, &idx, &len, &skip)
        || len != 1)
      return FALSE;
    mem = gst_buffer_peek_memory (buffer, idx);
    if (!gst_is_cl_blur_memory (mem) || skip + extent > mem->size)
      return FALSE;
    b = ((GstCLMemory *) mem)->block;
    if (clb_mem_device_get_context (b->dev) != context || block_mapped (b))
      return FALSE;
    planes[p].buffer = b->buffer;
    planes[p].offset = mem->offset + skip;
    planes[p].stride = stride;
    planes[p].sub = block_sub (b, planes[p].offset);
  }
  return TRUE;
}

/* Calls @func on the block of each OpenCL memory of @buffer (once a
 * block). */
static void
foreach_block (GstBuffer * buffer, void (*func) (Block * b, gpointer data),
    gpointer data)
{
  Block *seen[GST_VIDEO_MAX_PLANES * 2];
  guint i, j, n = gst_buffer_n_memory (buffer), n_seen = 0;

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    Block *b;

    if (!gst_is_cl_blur_memory (mem))
      continue;
    b = ((GstCLMemory *) mem)->block;
    for (j = 0; j < n_seen && seen[j] != b; j++);
    if (j < n_seen)
      continue;
    if (n_seen < G_N_ELEMENTS (seen))
      seen[n_seen++] = b;
    func (b, data);
  }
}

typedef struct
{
  GArray *events;
  gboolean write;
} WaitList;

static void
add_waits (Block * b, gpointer data)
{
  WaitList *w = data;
  guint i;

  g_mutex_lock (&b->lock);
  if (b->writer) {
    clRetainEvent (b->writer);
    g_array_append_val (w->events, b->writer);
  }
  for (i = 0; w->write && i < b->readers->len; i++) {
    cl_event e = g_ptr_array_index (b->readers, i);

    clRetainEvent (e);
    g_array_append_val (w->events, e);
  }
  g_mutex_unlock (&b->lock);
}

void
gst_cl_buffer_waits (GstBuffer * buffer, gboolean write, GArray * events)
{
  WaitList w = { events, write };

  foreach_block (buffer, add_waits, &w);
}

typedef struct
{
  cl_event event;
  gboolean write;
} Work;

static void
add_work (Block * b, gpointer data)
{
  Work *w = data;

  g_mutex_lock (&b->lock);
  if (w->event == NULL) {
    block_forget_work (b, TRUE);        /* waited for: all done */
    g_mutex_unlock (&b->lock);
    return;
  }
  clRetainEvent (w->event);
  if (w->write) {
    /* it waited for everything before it */
    block_forget_work (b, TRUE);
    b->writer = w->event;
  } else {
    g_ptr_array_add (b->readers, w->event);
  }
  g_mutex_unlock (&b->lock);
}

void
gst_cl_buffer_add_work (GstBuffer * buffer, cl_event event, gboolean write)
{
  Work w = { event, write };

  foreach_block (buffer, add_work, &w);
}

gboolean
gst_cl_frames_in_mem (GstVideoFilter * filter, GstBuffer * inbuf,
    GstBuffer * outbuf, const ClbPlanes * planes, cl_context context,
    ClbMemPlane * src, ClbMemPlane * dst)
{
  return filter->negotiated
      && !gst_cl_layout_has_fields (&filter->in_info, inbuf)
      && gst_cl_buffer_planes (inbuf, &filter->in_info, planes, context,
      src)
      && gst_cl_buffer_planes (outbuf, &filter->out_info, planes,
      context, dst);
}

gboolean
gst_cl_frame_out_mem (GstVideoFilter * filter, GstBuffer * inbuf,
    GstBuffer * outbuf, const ClbPlanes * planes, cl_context context,
    ClbMemPlane * dst)
{
  return filter->negotiated
      && !gst_cl_layout_has_fields (&filter->in_info, inbuf)
      && gst_cl_buffer_planes (outbuf, &filter->out_info, planes, context,
      dst);
}

/* The pool. */

struct _GstCLPool
{
  GstBufferPool parent;
  ClbMemDevice *dev;
  GstAllocator *allocator;
  GstVideoInfo info;            /* with the pool's offsets */
  gboolean add_meta;
};

G_DEFINE_TYPE (GstCLPool, gst_cl_pool, GST_TYPE_BUFFER_POOL);

static const gchar **
gst_cl_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_cl_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCLPool *self = GST_CL_POOL (pool);
  GstVideoAlignment align;
  gsize plane_size[GST_VIDEO_MAX_PLANES];
  guint size, min, max, p;
  gsize a = clb_mem_device_get_align (self->dev), end;
  GstCaps *caps;
  GstVideoInfo info;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || caps == NULL || !gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (pool, "no video caps in the config");
    return FALSE;
  }
  gst_video_alignment_reset (&align);
  if (!gst_video_info_align_full (&info, &align, plane_size))
    return FALSE;
  self->add_meta = gst_buffer_pool_config_has_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (self->add_meta && !GST_VIDEO_FORMAT_INFO_IS_TILED (info.finfo)) {
    /* planes in index order, each from a multiple of the device's
     * alignment: a sub-buffer each */
    end = 0;
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
      info.offset[p] = GST_ROUND_UP_N (end, a);
      end = info.offset[p] + plane_size[p];
    }
    info.size = MAX (end, info.size);
  }
  self->info = info;
  GST_DEBUG_OBJECT (pool, "%s %dx%d: %" G_GSIZE_FORMAT " bytes a buffer, "
      "planes aligned to %" G_GSIZE_FORMAT " bytes%s",
      GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), info.size, a,
      self->add_meta ? "" : " (no video meta: default layout)");
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  gst_buffer_pool_config_set_allocator (config, self->allocator, NULL);
  return GST_BUFFER_POOL_CLASS (gst_cl_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
gst_cl_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstCLPool *self = GST_CL_POOL (pool);
  GstVideoInfo *info = &self->info;
  GstAllocationParams alloc_params;
  GstMemory *mem;

  gst_allocation_params_init (&alloc_params);
  mem = gst_allocator_alloc (self->allocator, info->size, &alloc_params);
  if (mem == NULL)
    return GST_FLOW_ERROR;
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  if (self->add_meta)
    gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        info->offset, info->stride);
  return GST_FLOW_OK;
}

static void
gst_cl_pool_finalize (GObject * object)
{
  GstCLPool *self = GST_CL_POOL (object);

  gst_object_unref (self->allocator);
  clb_mem_device_unref (self->dev);
  G_OBJECT_CLASS (gst_cl_pool_parent_class)->finalize (object);
}

static void
gst_cl_pool_class_init (GstCLPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->get_options = gst_cl_pool_get_options;
  pool_class->set_config = gst_cl_pool_set_config;
  pool_class->alloc_buffer = gst_cl_pool_alloc_buffer;
  G_OBJECT_CLASS (klass)->finalize = gst_cl_pool_finalize;
}

static void
gst_cl_pool_init (GstCLPool * self)
{
}

GstBufferPool *
gst_cl_pool_new (ClbMemDevice * dev)
{
  GstCLPool *self = g_object_new (GST_TYPE_CL_POOL, NULL);

  gst_object_ref_sink (self);
  self->dev = clb_mem_device_ref (dev);
  self->allocator = gst_cl_allocator_new (dev);
  return GST_BUFFER_POOL (self);
}

/* Allocation queries. */

static GstBufferPool *
configured_pool (ClbMemDevice * dev, GstCaps * caps, guint size, guint min,
    guint max, gboolean video_meta)
{
  GstBufferPool *pool = gst_cl_pool_new (dev);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (video_meta)
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_cl_pool_propose (ClbMemDevice * dev, GstQuery * query)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator;
  GstCaps *caps;
  GstVideoInfo info;
  guint size;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  pool = configured_pool (dev, caps, info.size, 0, 0, TRUE);
  if (pool == NULL)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  allocator = gst_cl_allocator_new (dev);
  gst_query_add_allocation_param (query, allocator, NULL);
  gst_object_unref (allocator);
  gst_object_unref (pool);
  return TRUE;
}

/* Whether downstream's @pool is one of system memory that GStreamer's
 * video or plain buffer pool gives: no better than ours. */
static gboolean
is_plain_pool (GstBufferPool * pool)
{
  GstStructure *config;
  GstAllocator *allocator = NULL;
  gboolean plain;

  if (G_OBJECT_TYPE (pool) != GST_TYPE_VIDEO_BUFFER_POOL
      && G_OBJECT_TYPE (pool) != GST_TYPE_BUFFER_POOL)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  plain = allocator == NULL || g_strcmp0 (allocator->mem_type,
      GST_ALLOCATOR_SYSMEM) == 0;
  gst_structure_free (config);
  return plain;
}

gboolean
gst_cl_pool_decide (ClbMemDevice * dev, GstQuery * query)
{
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean video_meta;
  GstCaps *caps;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    if (pool != NULL && !is_plain_pool (pool)) {
      GST_DEBUG ("downstream's pool %" GST_PTR_FORMAT " kept", pool);
      gst_object_unref (pool);
      return FALSE;
    }
    g_clear_object (&pool);
  }
  video_meta = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
      NULL);
  pool = configured_pool (dev, caps, MAX (size, info.size), min, max,
      video_meta);
  if (pool == NULL)
    return FALSE;
  {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
    gst_structure_free (config);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  GST_DEBUG ("output from a pool of OpenCL memory%s",
      video_meta ? "" : " (no video meta downstream: default layout)");
  gst_object_unref (pool);
  return TRUE;
}

gboolean
gst_cl_pool_query_is_cl (GstQuery * query)
{
  GstBufferPool *pool = NULL;
  gboolean cl;

  if (gst_query_get_n_allocation_pools (query) == 0)
    return FALSE;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  cl = pool != NULL && GST_IS_CL_POOL (pool);
  g_clear_object (&pool);
  return cl;
}
