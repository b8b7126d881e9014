/* clboxblur engine: what every variant's launches share.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The work buffer, a job's layout and size as kernel arguments, the
 * enqueue of a kernel (timed per kernel with CLBOXBLUR_PROFILE), what a
 * pair's runs share and the device-side copies: the services below the
 * method files (enginesat.c, engineseparable.c, enginebilateral.c,
 * enginemosaic.c, enginemask.c, enginecomposite.c), which call nothing
 * above them.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

gboolean
clb_engine_grow_buffer (ClbEngine * engine, cl_mem * mem, gsize * capacity,
    gsize size, cl_mem_flags flags, GError ** error)
{
  if (size <= *capacity)
    return TRUE;
  clb_args_kept_drop (engine->args_kept, *mem);
  clb_runtime_release_buffer (mem);
  *capacity = 0;
  *mem = clb_runtime_create_buffer (engine->rt, flags, size, error);
  if (*mem == NULL)
    return FALSE;
  *capacity = size;
  return TRUE;
}

/* Grows the work buffer to at least @size bytes. */
gboolean
clb_engine_ensure_work (ClbEngine * engine, gsize size, GError ** error)
{
  return clb_engine_grow_buffer (engine, &engine->work, &engine->work_size,
      size, CL_MEM_READ_WRITE, error);
}

void
clb_args_mask_seen (ClbArgs * a, ClbEngine * engine)
{
  clb_arg_mem (a, engine->mask_seen);
  clb_arg_int (a, (cl_int) engine->mask_stamp);
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

/* The driver's local size splits a prime width into groups of 1 (PoCL,
 * and GPUs may do the same): on the GPU class, a row's 64 neighbours a
 * group, as the GPU kernels' own launches (fewer on a plane narrower than
 * 64: the padding's work-items cost work for nothing). */
cl_int
clb_engine_run_grid (ClbEngine * engine, guint k, const size_t * offset,
    const size_t * n, const gchar * name)
{
  ClbSampleSize size = engine->planes.sample_size;
  size_t local[2] = { engine->profile.grid_local, 1 };
  size_t global[2] = { n[0], n[1] };

  if (local[0] == 0)
    return clb_engine_run_kernel_at (engine, engine->kernels[size][k], 2,
        offset, n, NULL, name);
  /* a narrow plane: the least power of two over its width, not 64 */
  while (local[0] > 1 && local[0] / 2 >= n[0])
    local[0] /= 2;
  if (engine->max_wg[size][k] < local[0])
    local[0] = 1;
  global[0] = (n[0] + local[0] - 1) / local[0] * local[0];
  return clb_engine_run_kernel_at (engine, engine->kernels[size][k], 2,
      offset, global, local, name);
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

/* Runs a 1-D kernel of n line work-items (rows or strips, each walked
 * serially; the kernel returns for ids >= n). CPUs: at least 4
 * work-groups per compute unit, so the threads share the lines evenly,
 * and at most 256 work-items a group (PoCL keeps a group's private arrays
 * side by side); GPUs: groups of 64 (two warps, one wavefront). Either
 * way within the kernel's largest work-group and the device's largest
 * first dimension (@dim_max). */
static size_t
lines_per_group (ClbEngine * engine, size_t n, size_t max_wg, size_t dim_max)
{
  size_t local, groups;

  if (engine->profile.line_groups > 0) {
    groups = MAX (engine->profile.compute_units, 1)
        * engine->profile.line_groups;
    local = MIN ((n + groups - 1) / groups, 256);
  } else {
    local = 64;
  }
  return CLAMP (local, 1, MAX (MIN (max_wg, dim_max), 1));
}

/* The same for lines [first, first + n) of a kernel that takes its line
 * from the global id, in work-groups shaped for @shape_n lines: the same
 * for every band (PoCL builds a kernel again for each new work-group
 * size). */
cl_int
clb_run_lines_at (ClbEngine * engine, guint sample_size, guint kernel,
    size_t first, size_t n, size_t shape_n, const gchar * name)
{
  size_t local = lines_per_group (engine, shape_n,
      engine->max_wg[sample_size][kernel], engine->profile.max_items[0]);
  size_t global = (n + local - 1) / local * local;

  return clb_engine_run_kernel_at (engine,
      engine->kernels[sample_size][kernel], 1, first > 0 ? &first : NULL,
      &global, &local, name);
}

cl_int
clb_run_lines (ClbEngine * engine, guint sample_size, guint kernel, size_t n,
    const gchar * name)
{
  return clb_run_lines_at (engine, sample_size, kernel, 0, n, n, name);
}

/* The same for kernels of (channel, row) work-items: a work-group takes
 * all channels of its rows. */
static cl_int
run_channel_lines (ClbEngine * engine, guint sample_size, guint kernel,
    size_t channels, size_t n, const gchar * name)
{
  size_t max_wg = MAX (engine->max_wg[sample_size][kernel] / channels, 1);
  size_t local[2] = { channels, lines_per_group (engine, n, max_wg,
          engine->profile.max_items[1])
  };
  size_t global[2] = { channels, (n + local[1] - 1) / local[1] * local[1] };

  return clb_engine_run_kernel (engine, engine->kernels[sample_size][kernel],
      2, global, local, name);
}

/* Launches planned around a loop cap (engineprofile.c, probe_loop_cap).
 * Loop costs are counted as llvmpipe counts them: each iteration of every
 * loop, nested ones included, plus one each time a loop ends. The bounds
 * below are for the costliest work-item of a launch. */
gboolean
clb_loops_fit (const ClbDeviceProfile * profile, guint64 iterations)
{
  return profile->loop_budget == 0 || iterations <= profile->loop_budget;
}

/* How many of @n steps of @per_step iterations one launch may take after
 * @fixed iterations of set-up: all of them where loops run to the end, at
 * least 1. */
guint
clb_steps_per_launch (const ClbDeviceProfile * profile, guint64 fixed,
    guint64 per_step, guint n)
{
  guint64 k;

  if (profile->loop_budget == 0)
    return n;
  k = profile->loop_budget > fixed ?
      (profile->loop_budget - fixed) / per_step : 0;
  return (guint) CLAMP (k, 1, MAX (n, 1));
}

/* Launches a line kernel whose last two arguments are the first and the
 * end of the lines' part it walks, over @first .. @n - 1 in parts of @part
 * (one part where loops run to the end), from the arguments @fixed set
 * before them. @channels > 0: (channel, line) work-items; 0: one a line. */
gboolean
clb_run_parts (ClbEngine * engine, const ClbArgs * fixed, guint kernel,
    guint first, guint n, guint part, size_t channels, size_t lines,
    const gchar * name, GError ** error)
{
  ClbSampleSize size = engine->planes.sample_size;
  gchar what[80];
  guint begin, end;
  cl_int err;

  g_snprintf (what, sizeof (what), "clEnqueueNDRangeKernel (%s)", name);
  for (begin = first; begin < n; begin = end) {
    ClbArgs a = *fixed;

    end = begin + MIN (n - begin, part);
    clb_arg_int (&a, begin);
    clb_arg_int (&a, end);
    if (!clb_args_done (&a, error))
      return FALSE;
    err = clb_fault (what);
    if (err == CL_SUCCESS)
      err = channels > 0 ? run_channel_lines (engine, size, kernel, channels,
          lines, name) : clb_run_lines (engine, size, kernel, lines, name);
    if (err != CL_SUCCESS)
      return clb_set_cl_error (error, err, what);
  }
  return TRUE;
}

/* ---- the box methods' intermediate, whole or in a ring of rows ---- */

/* The bytes the box methods' intermediate may take: the device's largest
 * allocation (or the options' smaller one), and what its global memory
 * has left beside the frame's buffers (plane_in and plane_out). */
guint64
clb_work_budget (const ClbDeviceProfile * profile, const ClbPlanes * planes)
{
  guint64 frame = 0, left;
  guint p;

  for (p = 0; p < planes->n_planes; p++)
    frame += 2 * (guint64) planes->plane_width[p] * planes->plane_height[p]
        * (planes->sample_size == CLB_SAMPLES_16 ? 2 : 1);
  left = profile->global_mem > frame ? profile->global_mem - frame : 0;
  if (profile->global_mem == 0)
    left = G_MAXUINT64;
  return MIN (profile->max_alloc ? profile->max_alloc : G_MAXUINT64, left);
}

/* How many rows of @row_bytes the intermediate of a job of @height rows
 * holds (@ring): all of them where they fit the budget; else as many as
 * fit, and the job is filtered in bands of @ring - @apron output rows,
 * each band's windows reaching @apron rows beyond it (kernels/sat.cl).
 * Fails where not even @apron + 1 rows fit. */
gboolean
clb_plan_ring (ClbEngine * engine, const gchar * method, gsize row_bytes,
    guint height, guint apron, guint * ring, GError ** error)
{
  guint64 budget = clb_work_budget (&engine->profile, &engine->planes);
  guint64 rows = budget / MAX (row_bytes, 1);

  if (rows >= height) {
    *ring = height;
    return TRUE;
  }
  if (rows < (guint64) apron + 1) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_MEMORY,
        "%s needs an intermediate of at least %u rows of %" G_GSIZE_FORMAT
        " bytes for this radius and width (%" G_GUINT64_FORMAT " bytes), "
        "over the %" G_GUINT64_FORMAT " bytes it may take on OpenCL device "
        "'%s' (largest allocation %" G_GUINT64_FORMAT " bytes)", method,
        apron + 1, row_bytes, (guint64) (apron + 1) * row_bytes, budget,
        clb_runtime_get_device_name (engine->rt), engine->profile.max_alloc);
    return FALSE;
  }
  *ring = (guint) rows;
  return TRUE;
}

/* The largest work-group a line scan gets: 256, or the device's and the
 * kernels' most, whichever is less. */
#define LINE_GROUP_MAX 256

size_t
clb_gpu_line_group (const ClbDeviceProfile * profile, ClbSampleSize size)
{
  size_t g = MIN (LINE_GROUP_MAX, profile->gpu_line_max_wg[size]);
  size_t p = 1;

  g = MIN (g, profile->max_items[0]);
  if (profile->max_work_group_size > 0)
    g = MIN (g, profile->max_work_group_size);
  while (p * 2 <= g)
    p *= 2;
  return g > 0 ? p : 0;
}

guint
clb_log2_ceil (guint64 n)
{
  guint l = 0;

  while (((guint64) 1 << l) < n)
    l++;
  return l;
}

/* Whether a line scan of @n elements of @elem bytes, in work-groups of
 * @group, fits local memory and the loop cap; the scan's loops: the load,
 * the chunk twice, the totals' scan, the stores of @width. */
gboolean
clb_gpu_line_fits (const ClbDeviceProfile * profile, size_t group, guint64 n,
    guint64 width, gsize elem)
{
  guint64 per = (n + group - 1) / group;

  return group > 0
      && (n + 1 + group) * elem <= profile->local_mem_size
      && clb_loops_fit (profile, 3 * per + (width + group - 1) / group
          + clb_log2_ceil (group) + 8);
}


/* 8-bit samples stored as they are (no shift, no swap), the job's channels
 * back to back in every pixel: a row of the job is width * channels
 * consecutive bytes. */
gboolean
clb_job_is_dense_8bit (const ClbPlanes * planes, const ClbJob * job)
{
  guint c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->pixel_stride != job->channels)
    return FALSE;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] != c)
      return FALSE;
  }
  return TRUE;
}

/* ---- the pairs' services (the rows of two jobs in one run) ---- */

/* The byte of a luma pixel that is luma where @y and @uv are packed
 * 4:2:2's Y and UV jobs on one plane, else -1 (engineprivate.h). */
gint
clb_packed_422_luma (const ClbPlanes * planes, const ClbJob * y,
    const ClbJob * uv)
{
  guint luma;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || y->plane != uv->plane
      || y->channels != 1 || y->pixel_stride != 2 || y->keep_mask != 0
      || uv->channels != 2 || uv->pixel_stride != 4 || uv->keep_mask != 0
      || y->offset[0] > 1 || y->width != 2 * uv->width
      || y->height != uv->height || y->width == 0)
    return -1;
  luma = y->offset[0];
  if (uv->offset[0] != 1 - luma || uv->offset[1] != 3 - luma)
    return -1;
  return luma;
}

/* The run of @r's paired job alone (ClbRun.pair_job: its job, index,
 * radii, buffers and pitches) into @other: where a pair's variant runs
 * its two jobs one after the other. */
void
clb_run_pair_other (const ClbRun * r, ClbRun * other)
{
  *other = *r;
  other->job = r->pair_job;
  other->index = r->pair_index;
  other->rx = r->pair_rx;
  other->ry = r->pair_ry;
  other->in = r->pair_in;
  other->out = r->pair_out;
  other->in_pitch = r->pair_in_pitch;
  other->out_pitch = r->pair_out_pitch;
  other->pair_job = NULL;
  other->alpha_out = NULL;
}

/* ---- device-side copies ---- */

/* @mem's buffer for clEnqueueCopyBufferRect and the offset of @mem in
 * it: a sub-buffer's parent (PoCL crashes in clEnqueueCopyBufferRect on
 * a sub-buffer), else @mem itself at 0. */
static cl_mem
rect_buffer (cl_mem mem, size_t * offset)
{
  cl_mem parent = NULL;

  *offset = 0;
  if (clGetMemObjectInfo (mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof (parent),
          &parent, NULL) != CL_SUCCESS || parent == NULL
      || clGetMemObjectInfo (mem, CL_MEM_OFFSET, sizeof (*offset), offset,
          NULL) != CL_SUCCESS) {
    *offset = 0;
    return mem;
  }
  return parent;
}

gboolean
clb_engine_copy_rect (ClbEngine * engine, cl_mem from, gsize from_x,
    gsize from_y, gsize from_pitch, cl_mem to, gsize to_x, gsize to_y,
    gsize to_pitch, gsize row, gsize rows, const gchar * what,
    GError ** error)
{
  size_t src[3] = { 0, from_y, 0 }, dst[3] = { 0, to_y, 0 };
  size_t region[3] = { row, rows, 1 };
  gchar name[96];
  cl_mem a, b;

  if (row == 0 || rows == 0)
    return TRUE;
  if (from_x == 0 && to_x == 0 && from_pitch == row && to_pitch == row) {
    g_snprintf (name, sizeof (name), "clEnqueueCopyBuffer (%s)", what);
    CHECK (clEnqueueCopyBuffer (engine->queue, from, to, from_y * row,
            to_y * row, row * rows, 0, NULL, NULL), name);
    return TRUE;
  }
  a = rect_buffer (from, &src[0]);
  b = rect_buffer (to, &dst[0]);
  src[0] += from_x;
  dst[0] += to_x;
  g_snprintf (name, sizeof (name), "clEnqueueCopyBufferRect (%s)", what);
  CHECK (clEnqueueCopyBufferRect (engine->queue, a, b, src, dst, region,
          from_pitch, 0, to_pitch, 0, 0, NULL, NULL), name);
  return TRUE;

failed:
  return FALSE;
}
