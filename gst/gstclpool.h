/* clboxblur: a buffer pool of OpenCL memory.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstMemory that is an OpenCL buffer (CL_MEM_ALLOC_HOST_PTR) in the
 * element's context, and a pool of video buffers made of it, which the
 * element offers upstream and uses for its output: the engine then takes
 * the frames' planes as cl_mem (clb_engine_process_mem), with no host copy.
 *
 * Map: gst_memory_map is a blocking clEnqueueMapBuffer of the whole
 * buffer on a queue of the pool's own (nested maps share the first one;
 * the last unmap is clEnqueueUnmapMemObject + clFinish), so that kernels
 * only ever use the buffer while it is unmapped, as OpenCL 1.2 (5.4.2,
 * 5.4.3) requires, and a map from upstream's thread never waits behind
 * the engine's kernels. On a discrete GPU the map and unmap are DMA from
 * and to pinned memory; on host-unified devices (PoCL) they return the
 * buffer's own memory.
 *
 * Layout: GStreamer's default strides (rows are not padded: the kernels
 * and copies take any pitch); with GstVideoMeta, each plane starts at a
 * multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN, so that it can be a
 * sub-buffer. Without GstVideoMeta, GStreamer's default layout.
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>
#include "clblur/engine.h"
#include "clblur/runtimemem.h"

G_BEGIN_DECLS

#define GST_CL_MEMORY_TYPE "CLBlurMemory"

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCLAllocator, gst_cl_allocator, GST,
    CL_ALLOCATOR, GstAllocator)

#define GST_TYPE_CL_POOL (gst_cl_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCLPool, gst_cl_pool, GST, CL_POOL,
    GstBufferPool)

/* An allocator of OpenCL memory on @dev (referenced). */
GstAllocator *gst_cl_allocator_new (ClbMemDevice * dev);
/* A pool of video buffers of such memory. */
GstBufferPool *gst_cl_pool_new (ClbMemDevice * dev);

/* Whether @mem is OpenCL memory of the pool's allocator. */
gboolean gst_is_cl_blur_memory (GstMemory * mem);

/* Fills @planes (one per plane of @info, stored as @clb) with where
 * @buffer's frame lies in OpenCL memory of @context: its GstVideoMeta's
 * offsets and strides, else @info's; the sub-buffer of each plane that
 * starts aligned (made on first use, kept with the memory). FALSE when
 * some plane is not in such memory, is mapped, or lies across memories:
 * the frame then takes the mapped path. */
gboolean gst_cl_buffer_planes (GstBuffer * buffer,
    const GstVideoInfo * info, const ClbPlanes * clb, cl_context context,
    ClbMemPlane * planes);

/* Appends to @events (cl_event, each retained: release them) the device's
 * work on @buffer's OpenCL memory that work on it must wait for: what
 * writes it, and with @write what reads it too. */
void gst_cl_buffer_waits (GstBuffer * buffer, gboolean write,
    GArray * events);
/* Records @event (retained) as work on @buffer's OpenCL memory: its
 * writer with @write (after everything recorded before, which it waited
 * for), else one more reader. Maps of the memory wait for it. NULL: the
 * work recorded so far is known to be done. */
void gst_cl_buffer_add_work (GstBuffer * buffer, cl_event event,
    gboolean write);

/* Whether @filter's frame @inbuf and its output @outbuf (not fields of
 * interlaced video) are in OpenCL memory of @context, as @planes: fills
 * @src and @dst (gst_cl_buffer_planes). */
gboolean gst_cl_frames_in_mem (GstVideoFilter * filter,
    GstBuffer * inbuf, GstBuffer * outbuf, const ClbPlanes * planes,
    cl_context context, ClbMemPlane * src, ClbMemPlane * dst);

/* Whether @filter's output @outbuf (for an @inbuf that is not fields of
 * interlaced video) is in OpenCL memory of @context, as @planes: fills
 * @dst (gst_cl_buffer_planes). */
gboolean gst_cl_frame_out_mem (GstVideoFilter * filter, GstBuffer * inbuf,
    GstBuffer * outbuf, const ClbPlanes * planes, cl_context context,
    ClbMemPlane * dst);

/* propose_allocation: adds a pool of OpenCL memory on @dev for the query's
 * caps, GstVideoMeta and the allocator to @query. FALSE: not video caps. */
gboolean gst_cl_pool_propose (ClbMemDevice * dev, GstQuery * query);
/* decide_allocation: puts a configured pool of OpenCL memory first in
 * @query unless downstream offers a pool of its own that is not a plain
 * system-memory one. FALSE: @query left as it was (the caller decides as
 * usual). */
gboolean gst_cl_pool_decide (ClbMemDevice * dev, GstQuery * query);
/* Whether the first pool in the allocation @query is a pool of OpenCL
 * memory (a downstream clboxblur's, kept by gst_cl_pool_decide). */
gboolean gst_cl_pool_query_is_cl (GstQuery * query);

G_END_DECLS
