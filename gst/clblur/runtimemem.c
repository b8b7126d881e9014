/* clboxblur OpenCL runtime: memory the host maps and the device uses.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "runtimemem.h"

struct _ClbMemDevice
{
  gint refcount;
  cl_context context;           /* retained */
  cl_device_id device;
  cl_command_queue queue;       /* maps and unmaps only */
  gsize align;                  /* bytes */
  gboolean resident;            /* frames in the device's own memory */
};

ClbMemDevice *
clb_mem_device_new (ClbRuntime * rt, GError ** error)
{
  ClbMemDevice *dev = g_new0 (ClbMemDevice, 1);
  cl_uint align_bits = 0;
  cl_bool unified = CL_FALSE;
  cl_int err;

  dev->refcount = 1;
  dev->context = clb_runtime_get_context (rt);
  dev->device = clb_runtime_get_device (rt);
  err = clGetDeviceInfo (dev->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
      sizeof (align_bits), &align_bits, NULL);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clGetDeviceInfo (MEM_BASE_ADDR_ALIGN)");
    g_free (dev);
    return NULL;
  }
  /* at least 8 bytes: 16-bit samples, and no device asks for less */
  dev->align = MAX (align_bits / 8, 8);
  err = clGetDeviceInfo (dev->device, CL_DEVICE_HOST_UNIFIED_MEMORY,
      sizeof (unified), &unified, NULL);
  if (err != CL_SUCCESS)
    unified = CL_FALSE;         /* asked of no device (deprecated in 2.0) */
  dev->resident = !unified
      || g_strcmp0 (g_getenv (CLB_ZERO_COPY_ENV), "0") == 0;
  err = clb_fault ("clCreateCommandQueue");
  if (err == CL_SUCCESS)
    dev->queue = clCreateCommandQueue (dev->context, dev->device, 0, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateCommandQueue");
    g_free (dev);
    return NULL;
  }
  clRetainContext (dev->context);
  return dev;
}

ClbMemDevice *
clb_mem_device_ref (ClbMemDevice * dev)
{
  g_atomic_int_inc (&dev->refcount);
  return dev;
}

void
clb_mem_device_unref (ClbMemDevice * dev)
{
  if (dev == NULL || !g_atomic_int_dec_and_test (&dev->refcount))
    return;
  clFinish (dev->queue);
  clReleaseCommandQueue (dev->queue);
  clReleaseContext (dev->context);
  g_free (dev);
}

cl_context
clb_mem_device_get_context (ClbMemDevice * dev)
{
  return dev->context;
}

gsize
clb_mem_device_get_align (ClbMemDevice * dev)
{
  return dev->align;
}

gboolean
clb_mem_device_is_resident (ClbMemDevice * dev)
{
  return dev->resident;
}

cl_mem
clb_mem_device_alloc (ClbMemDevice * dev, gsize size, GError ** error)
{
  const gchar *what = dev->resident ? "clCreateBuffer (pool, device memory)"
      : "clCreateBuffer (pool, CL_MEM_ALLOC_HOST_PTR)";
  cl_mem mem = NULL;
  cl_int err = clb_fault (what);

  if (err == CL_SUCCESS)
    mem = clCreateBuffer (dev->context, CL_MEM_READ_WRITE
        | (dev->resident ? 0 : CL_MEM_ALLOC_HOST_PTR), size, NULL, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, what);
    return NULL;
  }
  return mem;
}

cl_mem
clb_mem_device_sub_buffer (ClbMemDevice * dev, cl_mem parent, gsize origin,
    gsize size, GError ** error)
{
  cl_buffer_region region = { origin, size };
  cl_mem mem = NULL;
  cl_int err = clb_fault ("clCreateSubBuffer");

  if (err == CL_SUCCESS)
    mem = clCreateSubBuffer (parent, CL_MEM_READ_WRITE,
        CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateSubBuffer");
    return NULL;
  }
  return mem;
}

gpointer
clb_mem_device_map (ClbMemDevice * dev, cl_mem mem, gsize size,
    cl_map_flags flags, guint n_wait, const cl_event * wait,
    GError ** error)
{
  gpointer mapped = NULL;
  cl_int err = clb_fault ("pool clEnqueueMapBuffer");

  if (err == CL_SUCCESS)
    mapped = clEnqueueMapBuffer (dev->queue, mem, CL_TRUE, flags, 0, size,
        n_wait, n_wait > 0 ? wait : NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clEnqueueMapBuffer");
    return NULL;
  }
  return mapped;
}

gboolean
clb_mem_device_unmap (ClbMemDevice * dev, cl_mem mem, gpointer mapped,
    cl_event * done, GError ** error)
{
  cl_int err = clb_fault ("pool clEnqueueUnmapMemObject");

  if (done)
    *done = NULL;
  if (err == CL_SUCCESS)
    err = clEnqueueUnmapMemObject (dev->queue, mem, mapped, 0, NULL, done);
  /* submitted now: another queue may wait for its event */
  if (err == CL_SUCCESS)
    err = clFlush (dev->queue);
  if (err != CL_SUCCESS)
    return clb_set_cl_error (error, err, "clEnqueueUnmapMemObject");
  return TRUE;
}
