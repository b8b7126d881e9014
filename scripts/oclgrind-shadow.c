/* oclgrind-shadow.so: preloaded ahead of Oclgrind's runtime by
 * scripts/oclgrind-check.sh, tells Oclgrind's --uninitialized plugin about
 * three host writes it loses (Oclgrind 21.10, Debian 12; still so upstream):
 *
 * - a host store into a buffer (Uninitialized::hostMemoryStore) reallocates
 *   the buffer's whole shadow to the store's size from offset 0
 *   (ShadowMemory::allocate), so a clEnqueueWriteBufferRect, one store per
 *   row, leaves every row but garbage poisoned: the engine's upload of a
 *   frame (clb_engine_process) reads as unwritten. Where a rect write covers
 *   the whole buffer, this writes the buffer once more as one store of the
 *   same bytes (read back, written back), which gives it a clean shadow.
 *
 * - a clEnqueueFillBuffer leaves the buffer's shadow as it was (poisoned
 *   where never written before): method temporal's noise histogram, zeroed
 *   so each frame, reads as unwritten in temporal_noise. Where a fill
 *   covers the whole buffer, the buffer is written once more as above.
 *
 * (The other loss, a CL_MEM_USE_HOST_PTR buffer never given a host store
 * by Memory::createHostBuffer, so that the caller's frame wrapped for the
 * CPU class's zero copy reads as unwritten, is left to the script: it runs
 * --uninitialized with CLBOXBLUR_ZERO_COPY=0, and the wrapped frames under
 * --data-races and Oclgrind's bounds checks only.)
 * Nothing else changes: every call goes on to Oclgrind's runtime.
 * SPDX-License-Identifier: LGPL-2.1-or-later */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>

typedef cl_int (*WriteRectFn) (cl_command_queue, cl_mem, cl_bool,
    const size_t *, const size_t *, const size_t *, size_t, size_t, size_t,
    size_t, const void *, cl_uint, const cl_event *, cl_event *);

static void *
next (const char *name)
{
  void *f = dlsym (RTLD_NEXT, name);
  if (!f)
    abort ();
  return f;
}

/* The buffer's size, or 0. */
static size_t
mem_size (cl_mem mem)
{
  size_t size = 0;
  if (clGetMemObjectInfo (mem, CL_MEM_SIZE, sizeof (size), &size, NULL))
    return 0;
  return size;
}

/* @mem's @size bytes read back and written back as one host store. */
static void
store_again (cl_command_queue queue, cl_mem mem, size_t size)
{
  void *copy = malloc (size);

  if (copy && clEnqueueReadBuffer (queue, mem, CL_TRUE, 0, size, copy, 0,
          NULL, NULL) == CL_SUCCESS)
    clEnqueueWriteBuffer (queue, mem, CL_TRUE, 0, size, copy, 0, NULL, NULL);
  free (copy);
}

typedef cl_int (*FillFn) (cl_command_queue, cl_mem, const void *, size_t,
    size_t, size_t, cl_uint, const cl_event *, cl_event *);

cl_int
clEnqueueFillBuffer (cl_command_queue queue, cl_mem mem, const void *pattern,
    size_t pattern_size, size_t offset, size_t size, cl_uint n_wait,
    const cl_event * wait, cl_event * event)
{
  static FillFn real;
  cl_int err;

  if (!real)
    real = (FillFn) next ("clEnqueueFillBuffer");
  err = real (queue, mem, pattern, pattern_size, offset, size, n_wait, wait,
      event);
  if (err == CL_SUCCESS && offset == 0 && size == mem_size (mem))
    store_again (queue, mem, size);
  return err;
}

cl_int
clEnqueueWriteBufferRect (cl_command_queue queue, cl_mem mem,
    cl_bool blocking, const size_t * buffer_origin, const size_t * host_origin,
    const size_t * region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint n_wait, const cl_event * wait, cl_event * event)
{
  static WriteRectFn real;
  cl_int err;
  size_t row_pitch = buffer_row_pitch ? buffer_row_pitch : region[0];

  if (!real)
    real = (WriteRectFn) next ("clEnqueueWriteBufferRect");
  err = real (queue, mem, blocking, buffer_origin, host_origin, region,
      buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
      ptr, n_wait, wait, event);
  /* the whole buffer written, rows packed, one slice */
  if (err == CL_SUCCESS && buffer_origin[0] == 0 && buffer_origin[1] == 0
      && buffer_origin[2] == 0 && region[2] == 1 && row_pitch == region[0]
      && region[0] * region[1] == mem_size (mem))
    store_again (queue, mem, region[0] * region[1]);
  return err;
}
