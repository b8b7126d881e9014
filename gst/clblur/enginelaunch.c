/* clboxblur engine: what every variant's launches share.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The work buffer, a job's layout and size as kernel arguments, and the
 * enqueue of a kernel (timed per kernel with CLBOXBLUR_PROFILE), used by
 * the variants' runs in enginevariants.c.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

/* Grows the work buffer to at least @size bytes. */
gboolean
clb_engine_ensure_work (ClbEngine * engine, gsize size, GError ** error)
{
  if (size <= engine->work_size)
    return TRUE;
  clb_runtime_release_buffer (&engine->work);
  engine->work_size = 0;
  engine->work = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_WRITE,
      size, error);
  if (!engine->work)
    return FALSE;
  engine->work_size = size;
  return TRUE;
}

/* A job's channel offsets as the kernels take them. */
cl_int4
clb_job_offsets (const ClbJob * job)
{
  cl_int4 off;
  guint c;

  for (c = 0; c < 4; c++)
    off.s[c] = c < job->channels ? job->offset[c] : 0;
  return off;
}

void
clb_args_layout (ClbArgs * a, cl_mem buffer, const ClbPlanes * planes,
    const ClbJob * job)
{
  clb_arg_mem (a, buffer);
  clb_arg_int (a, planes->plane_width[job->plane]);
  clb_arg_int (a, job->pixel_stride);
  clb_arg_int4 (a, clb_job_offsets (job));
  clb_arg_int (a, planes->big_endian);
  clb_arg_int (a, planes->shift);
}

/* The job's width, height and channels, in that order. */
void
clb_args_size (ClbArgs * a, const ClbJob * job)
{
  clb_arg_int (a, job->width);
  clb_arg_int (a, job->height);
  clb_arg_int (a, job->channels);
}

/* clEnqueueNDRangeKernel; with the profile option, also waits for the
 * kernel and prints its time (a profile of where a frame's time goes:
 * clboxblur-bench with CLBOXBLUR_PROFILE=1). */
cl_int
clb_engine_run_kernel (ClbEngine * engine, cl_kernel kernel, cl_uint dims,
    const size_t * global, const size_t * local, const gchar * name)
{
  return clb_engine_run_kernel_at (engine, kernel, dims, NULL, global, local,
      name);
}

cl_int
clb_engine_run_kernel_at (ClbEngine * engine, cl_kernel kernel, cl_uint dims,
    const size_t * offset, const size_t * global, const size_t * local,
    const gchar * name)
{
  gboolean profile = engine->options.profile;
  gint64 start = 0;
  cl_int err;

  if (profile) {
    clFinish (engine->queue);
    start = g_get_monotonic_time ();
  }
  err = clEnqueueNDRangeKernel (engine->queue, kernel, dims, offset, global,
      local, 0, NULL, NULL);
  if (profile && err == CL_SUCCESS) {
    err = clFinish (engine->queue);
    g_printerr ("clboxblur profile: %-26s %8.3f ms\n", name,
        (g_get_monotonic_time () - start) / 1000.0);
  }
  return err;
}
