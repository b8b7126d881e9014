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

/* Adds a kernel's time to the profile; prints it with profile_print. */
static void
note_kernel_time (ClbEngine * engine, const gchar * name, gdouble ms,
    gboolean device_clock)
{
  ClbKernelTime *t = NULL;
  guint i;

  if (engine->kernel_times == NULL)
    engine->kernel_times = g_array_new (FALSE, TRUE, sizeof (ClbKernelTime));
  for (i = 0; i < engine->kernel_times->len && t == NULL; i++) {
    ClbKernelTime *u = &g_array_index (engine->kernel_times, ClbKernelTime,
        i);

    if (g_str_equal (u->name, name))
      t = u;
  }
  if (t == NULL) {
    ClbKernelTime n = { name, 0, 0.0, device_clock };

    g_array_append_val (engine->kernel_times, n);
    t = &g_array_index (engine->kernel_times, ClbKernelTime,
        engine->kernel_times->len - 1);
  }
  t->launches++;
  t->ms += ms;
  t->device_clock &= device_clock;
  if (engine->options.profile_print)
    g_printerr ("clboxblur profile: %-26s %8.3f ms%s\n", name, ms,
        device_clock ? "" : " (host clock)");
}

cl_int
clb_engine_run_kernel_at (ClbEngine * engine, cl_kernel kernel, cl_uint dims,
    const size_t * offset, const size_t * global, const size_t * local,
    const gchar * name)
{
  gboolean profile = engine->options.profile;
  cl_event event = NULL;
  gint64 start = 0;
  cl_int err;

  if (!profile)
    return clEnqueueNDRangeKernel (engine->queue, kernel, dims, offset,
        global, local, 0, NULL, NULL);
  clFinish (engine->queue);
  start = g_get_monotonic_time ();
  err = clEnqueueNDRangeKernel (engine->queue, kernel, dims, offset, global,
      local, 0, NULL, &event);
  if (err == CL_SUCCESS)
    err = clWaitForEvents (1, &event);
  if (err == CL_SUCCESS) {
    gdouble host_ms = (g_get_monotonic_time () - start) / 1000.0;
    cl_ulong t0 = 0, t1 = 0;

    /* CL_PROFILING_INFO_NOT_AVAILABLE without CL_QUEUE_PROFILING_ENABLE */
    if (clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
            sizeof (t0), &t0, NULL) == CL_SUCCESS
        && clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
            sizeof (t1), &t1, NULL) == CL_SUCCESS && t1 >= t0)
      note_kernel_time (engine, name, (t1 - t0) / 1e6, TRUE);
    else
      note_kernel_time (engine, name, host_ms, FALSE);
  }
  if (event)
    clReleaseEvent (event);
  return err;
}

static gint
slower_first (gconstpointer a, gconstpointer b)
{
  gdouble x = ((const ClbKernelTime *) a)->ms;
  gdouble y = ((const ClbKernelTime *) b)->ms;

  return x < y ? 1 : x > y ? -1 : 0;
}

gchar *
clb_engine_take_profile (ClbEngine * engine, guint frames)
{
  GString *s;
  gboolean device_clock = TRUE;
  gdouble total = 0;
  guint i;

  if (engine->kernel_times == NULL || engine->kernel_times->len == 0)
    return NULL;
  g_array_sort (engine->kernel_times, slower_first);
  s = g_string_new (NULL);
  for (i = 0; i < engine->kernel_times->len; i++) {
    ClbKernelTime *t = &g_array_index (engine->kernel_times, ClbKernelTime,
        i);
    gdouble ms = frames ? t->ms / frames : t->ms;

    g_string_append_printf (s, "%-26s %6u launches %9.3f ms\n", t->name,
        t->launches, ms);
    device_clock &= t->device_clock;
    total += ms;
  }
  g_string_append_printf (s, "%-26s %16s %9.3f ms (%s%s)\n", "kernels", "",
      total, device_clock ? "the device's clock: "
      "CL_PROFILING_COMMAND_START to _END" : "the host's clock around each "
      "kernel, waited for", frames ? ", per frame" : "");
  g_array_set_size (engine->kernel_times, 0);
  return g_string_free (s, FALSE);
}
