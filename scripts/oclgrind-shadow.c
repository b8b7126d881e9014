/* oclgrind-shadow.so: preloaded ahead of Oclgrind's runtime by
 * scripts/oclgrind-check.sh, tells Oclgrind's --uninitialized plugin about
 * two host writes it loses (Oclgrind 21.10, Debian 12; still so upstream):
 *
 * - a host store into a buffer (Uninitialized::hostMemoryStore) reallocates
 *   the buffer's whole shadow to the store's size from offset 0
 *   (ShadowMemory::allocate), so a clEnqueueWriteBufferRect, one store per
 *   row, leaves every row but garbage poisoned: the engine's upload of a
 *   frame (clb_engine_process) reads as unwritten. Where a rect write covers
 *   the whole buffer, this writes the buffer once more as one store of the
 *   same bytes (read back, written back), which gives it a clean shadow.
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
  {
    size_t size = region[0] * region[1];
    void *copy = malloc (size);

    if (copy && clEnqueueReadBuffer (queue, mem, CL_TRUE, 0, size, copy, 0,
            NULL, NULL) == CL_SUCCESS)
      clEnqueueWriteBuffer (queue, mem, CL_TRUE, 0, size, copy, 0, NULL,
          NULL);
    free (copy);
  }
  return err;
}
