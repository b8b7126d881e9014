/* clboxblur engine: the box methods' GPU-shaped runs (kernels/gpu_box.cl).
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The generic runs (enginevariants.c) give a work-item a whole row or
 * column: a few thousand work-items for a 1080p frame, each walking 1000
 * to 2000 samples, too few for a GPU. These give a work-group a row,
 * scanned in local memory, and a work-item a chunk of a column: over 10^5
 * work-items for 1080p. They take a job whole (its intermediate within
 * the memory budget, a row's scan within local memory, the loops within
 * the device's cap); where they do not, the generic rows of the table
 * take it (in bands, in parts).
 */
#include "config.h"

#include "engineprivate.h"

/* The largest work-group a line scan gets: 256, or the device's and the
 * kernels' most, whichever is less. */
#define LINE_GROUP_MAX 256
/* Rows of a column work-item's chunk, at least. */
#define CHUNK_MIN 64
/* sat: at most about this many chunks a column (a column work-item adds
 * the totals of the chunks above it). */
#define SAT_CHUNKS_MAX 64

static size_t
line_group (const ClbDeviceProfile * profile, ClbSampleSize size)
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

static guint
log2_ceil (guint64 n)
{
  guint l = 0;

  while (((guint64) 1 << l) < n)
    l++;
  return l;
}

/* Whether a line scan of @n elements of @elem bytes, in work-groups of
 * @group, fits local memory and the loop cap; the scan's loops: the load,
 * the chunk twice, the totals' scan, the stores of @width. */
static gboolean
line_fits (const ClbDeviceProfile * profile, size_t group, guint64 n,
    guint64 width, gsize elem)
{
  guint64 per = (n + group - 1) / group;

  return group > 0
      && (n + 1 + group) * elem <= profile->local_mem_size
      && clb_loops_fit (profile, 3 * per + (width + group - 1) / group
          + log2_ceil (group) + 8);
}

/* ---- separable ---- */

static guint
separable_chunk (guint ry)
{
  return MAX (CHUNK_MIN, 2 * ry + 1);
}

gboolean
clb_gpu_separable_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 row_len = (guint64) job->width * job->channels;
  size_t group = line_group (profile, planes->sample_size);

  if (!line_fits (profile, group, (guint64) job->width + 2 * (guint64) rx,
          job->width, sizeof (cl_uint))
      || !clb_loops_fit (profile, 2 * (guint64) ry + separable_chunk (ry) + 8)
      || row_len * job->height * sizeof (cl_uint) >
      clb_work_budget (profile, planes))
    return FALSE;
  /* the row scans' work-groups (logged; the run takes the same) */
  shape->local[0] = group;
  shape->local[1] = 1;
  return TRUE;
}

gboolean
clb_run_gpu_separable (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int w = job->width, h = job->height, cn = job->channels;
  size_t group = line_group (&engine->profile, size);
  size_t row_len = (size_t) w * cn;
  guint chunk = separable_chunk (r->ry);
  size_t rows_global[2] = { group, (size_t) h * cn };
  size_t rows_local[2] = { group, 1 };
  size_t cols_global[2] = { (row_len + 63) / 64 * 64,
    ((size_t) h + chunk - 1) / chunk
  };
  size_t cols_local[2] = { 64, 1 };
  ClbArgs rows, cols;

  if (!clb_engine_ensure_work (engine, row_len * h * sizeof (cl_uint), error))
    return FALSE;
  rows = clb_args (k[K_GPU_BOX_SEP_ROWS]);
  clb_args_layout (&rows, r->in, &engine->planes, job);
  clb_arg_mem (&rows, engine->work);
  clb_args_size (&rows, job);
  clb_arg_int (&rows, r->rx);
  clb_arg_int (&rows, r->border);
  clb_arg_local (&rows, ((size_t) w + 2 * r->rx + 1) * sizeof (cl_uint));
  clb_arg_local (&rows, group * sizeof (cl_uint));

  cols = clb_args (k[K_GPU_BOX_SEP_COLUMNS]);
  clb_arg_mem (&cols, engine->work);
  clb_args_layout (&cols, r->out, &engine->planes, job);
  clb_args_size (&cols, job);
  clb_arg_int (&cols, r->rx);
  clb_arg_int (&cols, r->ry);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, chunk);
  if (!clb_args_done (&rows, error) || !clb_args_done (&cols, error))
    return FALSE;
  if (engine->max_wg[size][K_GPU_BOX_SEP_COLUMNS] < 64)
    cols_local[0] = 1;
  CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SEP_ROWS], 2,
          rows_global, rows_local, "gpu_box_sep_rows"),
      "clEnqueueNDRangeKernel (gpu_box_sep_rows)");
  CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SEP_COLUMNS], 2,
          cols_global, cols_local, "gpu_box_sep_columns"),
      "clEnqueueNDRangeKernel (gpu_box_sep_columns)");
  return TRUE;

failed:
  return FALSE;
}

/* ---- sat ---- */

static guint
sat_chunk (guint height)
{
  return MAX (CHUNK_MIN, (height + SAT_CHUNKS_MAX - 1) / SAT_CHUNKS_MAX);
}

static guint
sat_chunks (guint height)
{
  guint chunk = sat_chunk (height);

  return (height + chunk - 1) / chunk;
}

static gsize
sat_wide (const ClbPlanes * planes)
{
  return planes->sample_size == CLB_SAMPLES_16 ? 8 : 4;
}

gboolean
clb_gpu_sat_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 row_len = (guint64) job->width * job->channels;
  guint chunk = sat_chunk (job->height);
  size_t group = line_group (profile, planes->sample_size);

  if (!line_fits (profile, group, job->width, job->width, sat_wide (planes))
      || !clb_loops_fit (profile, chunk + sat_chunks (job->height) + 8)
      || row_len * ((guint64) job->height + sat_chunks (job->height))
      * sat_wide (planes) > clb_work_budget (profile, planes))
    return FALSE;
  shape->local[0] = group;
  shape->local[1] = 1;
  return TRUE;
}

gboolean
clb_run_gpu_sat (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  gboolean shrink = r->border == CLB_BORDER_SHRINK;
  cl_kernel box = shrink ? k[K_SAT_BOX] : k[K_SAT_BOX_BORDER];
  cl_int w = job->width, h = job->height, cn = job->channels;
  gsize wide = sat_wide (&engine->planes);
  size_t group = line_group (&engine->profile, size);
  size_t row_len = (size_t) w * cn;
  cl_int chunk = sat_chunk (h), chunks = sat_chunks (h);
  cl_ulong at = (cl_ulong) row_len * h;
  size_t rows_global[2] = { group, (size_t) h * cn };
  size_t rows_local[2] = { group, 1 };
  size_t cols_global[2] = { (row_len + 63) / 64 * 64, chunks };
  size_t cols_local[2] = { 64, 1 };
  size_t pixels[2] = { w, h };
  ClbArgs rows, tot, cols, a;
  guint i;

  if (!clb_engine_ensure_work (engine, row_len * (h + chunks) * wide, error))
    return FALSE;
  rows = clb_args (k[K_GPU_BOX_SAT_ROWS]);
  clb_args_layout (&rows, r->in, &engine->planes, job);
  clb_arg_mem (&rows, engine->work);
  clb_args_size (&rows, job);
  clb_arg_local (&rows, ((size_t) w + 1) * wide);
  clb_arg_local (&rows, group * wide);

  for (i = 0; i < 2; i++) {
    ClbArgs *c = i == 0 ? &tot : &cols;

    *c = clb_args (k[i == 0 ? K_GPU_BOX_SAT_TOTALS : K_GPU_BOX_SAT_COLUMNS]);
    clb_arg_mem (c, engine->work);
    clb_arg (c, sizeof (at), &at);
    clb_arg_int (c, row_len);
    clb_arg_int (c, h);
    clb_arg_int (c, chunk);
  }

  a = clb_args (box);
  clb_arg_mem (&a, engine->work);
  clb_args_layout (&a, r->out, &engine->planes, job);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, 0);
  clb_arg_int (&a, h);
  clb_arg_int (&a, h);          /* the ring: the whole table */
  if (!shrink)
    clb_arg_int (&a, r->border);
  if (!clb_args_done (&rows, error) || !clb_args_done (&tot, error)
      || !clb_args_done (&cols, error) || !clb_args_done (&a, error))
    return FALSE;
  if (MIN (engine->max_wg[size][K_GPU_BOX_SAT_TOTALS],
          engine->max_wg[size][K_GPU_BOX_SAT_COLUMNS]) < 64)
    cols_local[0] = 1;

  CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SAT_ROWS], 2,
          rows_global, rows_local, "gpu_box_sat_rows"),
      "clEnqueueNDRangeKernel (gpu_box_sat_rows)");
  /* one chunk: its column sums are the table's already */
  if (chunks > 1)
    CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SAT_TOTALS], 2,
            cols_global, cols_local, "gpu_box_sat_totals"),
        "clEnqueueNDRangeKernel (gpu_box_sat_totals)");
  CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SAT_COLUMNS], 2,
          cols_global, cols_local, "gpu_box_sat_columns"),
      "clEnqueueNDRangeKernel (gpu_box_sat_columns)");
  CHECK (clb_engine_run_kernel (engine, box, 2, pixels, NULL,
          shrink ? "sat_box" : "sat_box_border"), shrink ?
      "clEnqueueNDRangeKernel (sat_box)" :
      "clEnqueueNDRangeKernel (sat_box_border)");
  return TRUE;

failed:
  return FALSE;
}
