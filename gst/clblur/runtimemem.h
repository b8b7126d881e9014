/* clboxblur OpenCL runtime: memory the host maps and the device uses.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GLib and OpenCL only. A ClbMemDevice is what a buffer pool of OpenCL
 * memory needs of a runtime, kept alive on its own: the context (retained)
 * and a queue of its own for maps, so that buffers outlive the element
 * that made the pool (upstream may hold them after it stopped) and a map
 * from another thread never waits behind the engine's kernels.
 */
#pragma once

#include "runtime.h"

G_BEGIN_DECLS

typedef struct _ClbMemDevice ClbMemDevice;

/* On @rt's context and device, with a queue of its own. */
ClbMemDevice *clb_mem_device_new (ClbRuntime * rt, GError ** error);
ClbMemDevice *clb_mem_device_ref (ClbMemDevice * dev);
void clb_mem_device_unref (ClbMemDevice * dev);
cl_context clb_mem_device_get_context (ClbMemDevice * dev);
/* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: where a sub-buffer may start. */
gsize clb_mem_device_get_align (ClbMemDevice * dev);

/* Whether the pool's frames live in the device's own memory: on devices
 * without memory shared with the host (CL_DEVICE_HOST_UNIFIED_MEMORY false:
 * discrete GPUs), or any with CLB_ZERO_COPY_ENV "0". The kernels read and
 * write them at the device's speed; a host element's map copies through
 * the driver's staging. Else memory the host maps in place. */
gboolean clb_mem_device_is_resident (ClbMemDevice * dev);
/* @size bytes, CL_MEM_READ_WRITE, in the device's own memory where
 * clb_mem_device_is_resident, else with CL_MEM_ALLOC_HOST_PTR. */
cl_mem clb_mem_device_alloc (ClbMemDevice * dev, gsize size, GError ** error);
/* A sub-buffer of @parent (clCreateSubBuffer): @origin must be a multiple
 * of clb_mem_device_get_align. */
cl_mem clb_mem_device_sub_buffer (ClbMemDevice * dev, cl_mem parent,
    gsize origin, gsize size, GError ** error);
/* Blocking clEnqueueMapBuffer of @size bytes from 0 on the device's own
 * queue (@flags: CL_MAP_READ and/or CL_MAP_WRITE), once the @n_wait
 * events of @wait (the device's work still writing or reading @mem, on
 * any queue of the context) are done: one wait of the host for all. The
 * map and unmap go through clb_fault as "pool clEnqueueMapBuffer" and
 * "pool clEnqueueUnmapMemObject": a fault injected into the engine's own
 * map ("clEnqueueMapBuffer") does not hit a pool buffer's map first, where
 * GstVideoFilter would drop the frame with a warning instead. */
gpointer clb_mem_device_map (ClbMemDevice * dev, cl_mem mem, gsize size,
    cl_map_flags flags, guint n_wait, const cl_event * wait,
    GError ** error);
/* clEnqueueUnmapMemObject on the device's own queue, not waited for:
 * *@done (where not NULL) is its event, which the device's next work on
 * @mem waits for (the host's writes are in @mem once it is complete). */
gboolean clb_mem_device_unmap (ClbMemDevice * dev, cl_mem mem,
    gpointer mapped, cl_event * done, GError ** error);

/* Test hook: how many OpenCL objects (clCreate* calls through clb_fault)
 * the process has made so far. */
guint clb_created_objects (void);

G_END_DECLS
