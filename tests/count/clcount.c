/* clboxblur tests: an LD_PRELOAD shim over the OpenCL ICD loader that
 * counts the calls a process makes where the host may wait, maps for
 * reading, kernel arguments, launches and the bytes of device-side
 * copies (clEnqueueCopyBuffer, clEnqueueCopyBufferRect), and writes the counts to
 * $CLCOUNT_OUT at exit ("name count" lines). Calls inside the driver do
 * not go through the loader's symbols and are not counted. Each process
 * writes $CLCOUNT_OUT.<pid>.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

static unsigned long host_waits, read_maps, kernel_args, launches;
static unsigned long copied_bytes;

#define COUNT(counter) __atomic_add_fetch (&(counter), 1, __ATOMIC_RELAXED)
#define REAL(name) \
  static __typeof__ (name) *real; \
  if (real == NULL) \
    real = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name)

cl_int
clFinish (cl_command_queue queue)
{
  REAL (clFinish);
  COUNT (host_waits);
  return real (queue);
}

cl_int
clWaitForEvents (cl_uint n, const cl_event * events)
{
  REAL (clWaitForEvents);
  COUNT (host_waits);
  return real (n, events);
}

cl_int
clGetEventInfo (cl_event event, cl_event_info param, size_t size,
    void *value, size_t * ret)
{
  REAL (clGetEventInfo);
  /* polling a command's status waits for it, a little at a time */
  if (param == CL_EVENT_COMMAND_EXECUTION_STATUS)
    COUNT (host_waits);
  return real (event, param, size, value, ret);
}

void *
clEnqueueMapBuffer (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
    cl_map_flags flags, size_t offset, size_t size, cl_uint n,
    const cl_event * wait, cl_event * event, cl_int * err)
{
  REAL (clEnqueueMapBuffer);
  if (blocking)
    COUNT (host_waits);
  if (flags & CL_MAP_READ)
    COUNT (read_maps);
  return real (queue, buffer, blocking, flags, offset, size, n, wait, event,
      err);
}

cl_int
clEnqueueReadBuffer (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
    size_t offset, size_t size, void *ptr, cl_uint n, const cl_event * wait,
    cl_event * event)
{
  REAL (clEnqueueReadBuffer);
  if (blocking)
    COUNT (host_waits);
  return real (queue, buffer, blocking, offset, size, ptr, n, wait, event);
}

cl_int
clEnqueueWriteBuffer (cl_command_queue queue, cl_mem buffer, cl_bool blocking,
    size_t offset, size_t size, const void *ptr, cl_uint n,
    const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueWriteBuffer);
  if (blocking)
    COUNT (host_waits);
  return real (queue, buffer, blocking, offset, size, ptr, n, wait, event);
}

cl_int
clEnqueueReadBufferRect (cl_command_queue queue, cl_mem buffer,
    cl_bool blocking, const size_t * buffer_origin,
    const size_t * host_origin, const size_t * region, size_t buffer_row,
    size_t buffer_slice, size_t host_row, size_t host_slice, void *ptr,
    cl_uint n, const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueReadBufferRect);
  if (blocking)
    COUNT (host_waits);
  return real (queue, buffer, blocking, buffer_origin, host_origin, region,
      buffer_row, buffer_slice, host_row, host_slice, ptr, n, wait, event);
}

cl_int
clEnqueueWriteBufferRect (cl_command_queue queue, cl_mem buffer,
    cl_bool blocking, const size_t * buffer_origin,
    const size_t * host_origin, const size_t * region, size_t buffer_row,
    size_t buffer_slice, size_t host_row, size_t host_slice, const void *ptr,
    cl_uint n, const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueWriteBufferRect);
  if (blocking)
    COUNT (host_waits);
  return real (queue, buffer, blocking, buffer_origin, host_origin, region,
      buffer_row, buffer_slice, host_row, host_slice, ptr, n, wait, event);
}

cl_int
clSetKernelArg (cl_kernel kernel, cl_uint index, size_t size,
    const void *value)
{
  REAL (clSetKernelArg);
  COUNT (kernel_args);
  return real (kernel, index, size, value);
}

cl_int
clEnqueueNDRangeKernel (cl_command_queue queue, cl_kernel kernel,
    cl_uint dims, const size_t * offset, const size_t * global,
    const size_t * local, cl_uint n, const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueNDRangeKernel);
  COUNT (launches);
  return real (queue, kernel, dims, offset, global, local, n, wait, event);
}

cl_int
clEnqueueCopyBuffer (cl_command_queue queue, cl_mem from, cl_mem to,
    size_t from_offset, size_t to_offset, size_t size, cl_uint n,
    const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueCopyBuffer);
  __atomic_add_fetch (&copied_bytes, size, __ATOMIC_RELAXED);
  return real (queue, from, to, from_offset, to_offset, size, n, wait,
      event);
}

cl_int
clEnqueueCopyBufferRect (cl_command_queue queue, cl_mem from, cl_mem to,
    const size_t * from_origin, const size_t * to_origin,
    const size_t * region, size_t from_row, size_t from_slice, size_t to_row,
    size_t to_slice, cl_uint n, const cl_event * wait, cl_event * event)
{
  REAL (clEnqueueCopyBufferRect);
  __atomic_add_fetch (&copied_bytes, region[0] * region[1] * region[2],
      __ATOMIC_RELAXED);
  return real (queue, from, to, from_origin, to_origin, region, from_row,
      from_slice, to_row, to_slice, n, wait, event);
}

__attribute__ ((destructor))
     static void write_counts (void)
{
  const char *out = getenv ("CLCOUNT_OUT");
  char path[4096];
  FILE *f;

  if (out == NULL || snprintf (path, sizeof (path), "%s.%ld", out,
          (long) getpid ()) >= (int) sizeof (path)
      || (f = fopen (path, "w")) == NULL)
    return;
  fprintf (f, "host_waits %lu\nread_maps %lu\nkernel_args %lu\n"
      "launches %lu\ncopied_bytes %lu\n", host_waits, read_maps, kernel_args,
      launches, copied_bytes);
  fclose (f);
}
