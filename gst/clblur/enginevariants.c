/* clboxblur engine: the kernel variants, their table and their launches.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A variant is one way to run a method on a job: which kernels, in what
 * work shape, on which device class, for which sample width and layout.
 * The variant a job gets is the first row of the table below that matches
 * it and is usable on the device (its loops within the device's cap, its
 * tile within local memory): adding a GPU or CPU variant is adding a row
 * (and its run, if it brings new kernels).
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

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

  if (engine->profile.device_class == CLB_DEVICE_CLASS_CPU) {
    groups = MAX (engine->profile.compute_units, 1) * 4;
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
static cl_int
run_lines_at (ClbEngine * engine, guint sample_size, guint kernel,
    size_t first, size_t n, size_t shape_n, const gchar * name)
{
  size_t local = lines_per_group (engine, shape_n,
      engine->max_wg[sample_size][kernel], engine->profile.max_items[0]);
  size_t global = (n + local - 1) / local * local;

  return clb_engine_run_kernel_at (engine,
      engine->kernels[sample_size][kernel], 1, first > 0 ? &first : NULL,
      &global, &local, name);
}

static cl_int
run_lines (ClbEngine * engine, guint sample_size, guint kernel, size_t n,
    const gchar * name)
{
  return run_lines_at (engine, sample_size, kernel, 0, n, n, name);
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
static guint
steps_per_launch (const ClbDeviceProfile * profile, guint64 fixed,
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
static gboolean
run_parts (ClbEngine * engine, const ClbArgs * fixed, guint kernel,
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
          lines, name) : run_lines (engine, size, kernel, lines, name);
    if (err != CL_SUCCESS)
      return clb_set_cl_error (error, err, what);
  }
  return TRUE;
}

static gboolean job_is_dense_8bit (const ClbPlanes * planes,
    const ClbJob * job);

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
static gboolean
plan_ring (ClbEngine * engine, const gchar * method, gsize row_bytes,
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

/* ---- sat: rows scanned, columns scanned, a box from four corners ---- */

static gboolean
run_sat (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbDeviceProfile *profile = &engine->profile;
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  gboolean shrink = r->border == CLB_BORDER_SHRINK;
  cl_kernel box = shrink ? k[K_SAT_BOX] : k[K_SAT_BOX_BORDER];
  cl_int strip = r->shape.strip;
  size_t columns = ((size_t) job->width * job->channels + strip - 1) / strip;
  cl_int w = job->width, h = job->height, cn = job->channels;
  gsize wide = size == CLB_SAMPLES_16 ? 8 : 4;
  gsize row_bytes = (gsize) w * cn * wide;
  /* sat_scan_rows: an iteration a column; sat_scan_columns: strip + 2 a
   * row (the strip's loop and its end), as much to start */
  guint row_part = steps_per_launch (profile, 4, 1, w);
  guint column_part = steps_per_launch (profile, strip + 4, strip + 2, h);
  guint apron = 2 * r->ry + 1, ring, band, scanned = 0, y0, y1;
  ClbArgs rows, cols, fixed;

  if (!plan_ring (engine, "sat", row_bytes, h, apron, &ring, error)
      || !clb_engine_ensure_work (engine, (gsize) ring * row_bytes, error))
    return FALSE;
  band = ring == (guint) h ? ring : ring - apron;

  fixed = clb_args (box);
  clb_arg_mem (&fixed, engine->work);
  clb_args_layout (&fixed, r->out, &engine->planes, job);
  clb_args_size (&fixed, job);
  clb_arg_int (&fixed, r->rx);
  clb_arg_int (&fixed, r->ry);
  if (!clb_args_done (&fixed, error))
    return FALSE;

  /* Bands of output rows, top down; the table rows each one reaches are
   * scanned (whole rows; columns going on from the rows above) before its
   * box runs. Rows and columns in parts where the device caps loops. */
  for (y0 = 0; y0 < (guint) h; y0 = y1) {
    guint reach = MIN ((guint) h, y0 + band + r->ry);
    size_t pixels[2];
    ClbArgs a = fixed;

    y1 = MIN ((guint) h, y0 + band);
    if (reach > scanned) {
      rows = clb_args (k[K_SAT_SCAN_ROWS]);
      clb_args_layout (&rows, r->in, &engine->planes, job);
      clb_arg_mem (&rows, engine->work);
      clb_arg_int (&rows, w);
      clb_arg_int (&rows, reach);
      clb_arg_int (&rows, cn);
      clb_arg_int (&rows, scanned);
      clb_arg_int (&rows, ring);

      cols = clb_args (k[K_SAT_SCAN_COLUMNS]);
      clb_arg_mem (&cols, engine->work);
      clb_args_size (&cols, job);
      clb_arg_int (&cols, strip);
      clb_arg_int (&cols, ring);
      if (!clb_args_done (&rows, error) || !clb_args_done (&cols, error))
        return FALSE;
      if (!run_parts (engine, &rows, K_SAT_SCAN_ROWS, 0, w, row_part, cn,
              reach - scanned, "sat_scan_rows", error)
          || !run_parts (engine, &cols, K_SAT_SCAN_COLUMNS, scanned, reach,
              column_part, 0, columns, "sat_scan_columns", error))
        return FALSE;
      scanned = reach;
    }
    clb_arg_int (&a, y0);
    clb_arg_int (&a, y1);
    clb_arg_int (&a, ring);
    if (!shrink)
      clb_arg_int (&a, r->border);
    if (!clb_args_done (&a, error))
      return FALSE;
    pixels[0] = w;
    pixels[1] = y1 - y0;
    if (shrink)
      CHECK (clb_engine_run_kernel (engine, box, 2, pixels, NULL, "sat_box"),
          "clEnqueueNDRangeKernel (sat_box)");
    else
      CHECK (clb_engine_run_kernel (engine, box, 2, pixels, NULL,
              "sat_box_border"), "clEnqueueNDRangeKernel (sat_box_border)");
  }
  return TRUE;

failed:
  return FALSE;
}

/* ---- sat_ring: CPUs, the table built and read in one pass ---- */

/* How sat_ring cuts a job (kernels/sat_ring.cl): bands of @band_rows
 * output rows, a work-item each, each with a ring of @ring table rows
 * (2 ry + 2; or the whole height, in one band, where that is no more)
 * and an apron of @apron_rows rows of the plane, copied before the
 * launch; @steps: the most steps a band takes; @step_loops: the loop
 * iterations of a step, counted generously. */
typedef struct {
  guint bands, band_rows, ring, apron_rows, steps;
  gboolean dense;
  gsize bytes;                  /* rings and aprons */
  guint64 step_loops;
} SatRingPlan;

#define SAT_RING_FIXED_LOOPS 64

/* Bands: about two a compute unit (the threads share them evenly on a
 * busy machine), each at least four times the 2 ry + 1 rows its windows
 * reach past it (rows scanned twice: at most a quarter more). */
static void
sat_ring_plan (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, SatRingPlan * plan)
{
  guint h = job->height, b, cn = job->channels;
  guint64 row_len = (guint64) job->width * cn;
  guint64 wide = planes->sample_size == CLB_SAMPLES_16 ? 8 : 4;
  guint64 ss = planes->sample_size == CLB_SAMPLES_16 ? 2 : 1;
  guint64 edge;

  plan->dense = job_is_dense_8bit (planes, job);
  if (2 * (guint64) ry + 2 < h) {
    guint64 most = h / (4 * (2 * (guint64) ry + 1));

    plan->ring = 2 * ry + 2;
    plan->bands = (guint) CLAMP (MIN (2 * (guint64) MAX (profile->compute_units,
                1), most), 1, h);
  } else {
    plan->ring = h;
    plan->bands = 1;
  }
  plan->band_rows = (h + plan->bands - 1) / plan->bands;
  plan->bands = (h + plan->band_rows - 1) / plan->band_rows;
  plan->apron_rows = plan->bands > 1 ? 2 * ry + 1 : 0;
  plan->bytes = (gsize) (plan->bands * (guint64) plan->ring * row_len * wide
      + plan->bands * (guint64) plan->apron_rows
      * planes->plane_width[job->plane] * ss);
  plan->steps = 0;
  for (b = 0; b < plan->bands; b++) {
    /* as the kernel counts them */
    gint64 ya = (gint64) b * plan->band_rows;
    gint64 yb = MIN ((gint64) h, ya + plan->band_rows);
    gint64 s0 = plan->bands > 1 ? MAX (0, ya - ry - 1) : 0;
    gboolean whole = plan->ring >= h;
    gint64 e1 = whole ? h : MIN ((gint64) h, yb + ry);
    gint64 tail = whole ? ya : MAX (ya, e1 - ry);

    plan->steps = MAX (plan->steps, (guint) (e1 - s0 + yb - tail));
  }
  /* a step: the row scan (16 samples a step or one at a time), the
   * window's terms, the vector loop over up to 8 table rows, and the
   * samples near the ends (all of them one at a time but for dense
   * jobs), each up to 8 x 8 terms and their set-up */
  edge = plan->dense ? MIN (row_len, (2 * (guint64) rx + 3) * cn + 32) :
      row_len;
  plan->step_loops = (plan->dense ? row_len / 15 + 20 : 2 * row_len + 8)
      + 80 + (row_len / 16 + 2) * 10 + edge * 100 + row_len / cn * 60;
}

/* Whether sat_ring takes the job: dense 8-bit jobs (vector lanes) and
 * 16-bit ones (one sample at a time, still faster than sat_strip16's
 * three passes); its rings and aprons within the memory the intermediate
 * may take, and a step within the loop cap (launches then take as many
 * steps as the cap allows). Elsewhere sat_strip16: 8-bit jobs that are
 * not dense (RGBx's colours, YUY2), which one sample at a time would
 * filter slower than it (BGRx 1080p radius 15: 1.2x). */
static gboolean
sat_ring_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, ClbWorkShape * shape)
{
  SatRingPlan plan;

  sat_ring_plan (profile, planes, job, rx, ry, &plan);
  return (plan.dense || planes->sample_size == CLB_SAMPLES_16)
      && plan.bytes <= clb_work_budget (profile, planes)
      && clb_loops_fit (profile, SAT_RING_FIXED_LOOPS + plan.step_loops);
}

static gboolean
run_sat_ring (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel kernel = engine->kernels[size][K_SAT_RING];
  gsize ss = size == CLB_SAMPLES_16 ? 2 : 1;
  gsize wide = size == CLB_SAMPLES_16 ? 8 : 4;
  gsize row_len = (gsize) job->width * job->channels;
  gsize apron_at, row_bytes = (gsize) r->in_pitch * ss;
  SatRingPlan plan;
  ClbArgs fixed;
  guint b, part, t;

  sat_ring_plan (&engine->profile, &engine->planes, job, r->rx, r->ry, &plan);
  if (!clb_engine_ensure_work (engine, plan.bytes, error))
    return FALSE;
  /* the rows each band reads that its neighbours write */
  apron_at = (gsize) plan.bands * plan.ring * row_len * wide;
  for (b = 0; b < plan.bands && plan.bands > 1; b++) {
    guint ya = b * plan.band_rows;
    guint yb = MIN (job->height, ya + plan.band_rows);
    guint s0 = ya > (guint) r->ry + 1 ? ya - r->ry - 1 : 0;
    guint e1 = MIN (job->height, yb + r->ry);
    gsize at = apron_at + (gsize) b * plan.apron_rows * row_bytes;

    if (ya > s0)
      CHECK (clEnqueueCopyBuffer (engine->queue, r->in, engine->work,
              s0 * row_bytes, at, (ya - s0) * row_bytes, 0, NULL, NULL),
          "clEnqueueCopyBuffer (sat_ring apron)");
    if (e1 > yb)
      CHECK (clEnqueueCopyBuffer (engine->queue, r->in, engine->work,
              yb * row_bytes, at + (ya - s0) * row_bytes,
              (e1 - yb) * row_bytes, 0, NULL, NULL),
          "clEnqueueCopyBuffer (sat_ring apron)");
  }

  fixed = clb_args (kernel);
  clb_args_layout (&fixed, r->in, &engine->planes, job);
  clb_arg_mem (&fixed, r->out);
  clb_arg_int (&fixed, r->out_pitch);
  clb_arg_mem (&fixed, engine->work);
  clb_args_size (&fixed, job);
  clb_arg_int (&fixed, r->rx);
  clb_arg_int (&fixed, r->ry);
  clb_arg_int (&fixed, r->border);
  clb_arg_int (&fixed, plan.dense);
  clb_arg_int (&fixed, plan.bands);
  clb_arg_int (&fixed, plan.band_rows);
  clb_arg_int (&fixed, plan.ring);
  clb_arg_int (&fixed, plan.apron_rows);
  if (!clb_args_done (&fixed, error))
    return FALSE;
  /* a band a work-item, each its own work-group: the threads take them */
  part = steps_per_launch (&engine->profile, SAT_RING_FIXED_LOOPS,
      plan.step_loops, plan.steps);
  for (t = 0; t < plan.steps; t += part) {
    ClbArgs a = fixed;
    size_t global = plan.bands, local = 1;

    clb_arg_int (&a, t);
    clb_arg_int (&a, MIN (plan.steps, t + part));
    if (!clb_args_done (&a, error))
      return FALSE;
    CHECK (clb_engine_run_kernel (engine, kernel, 1, &global, &local,
            "sat_ring"), "clEnqueueNDRangeKernel (sat_ring)");
  }
  return TRUE;

failed:
  return FALSE;
}

/* ---- separable: running sums along rows, then along columns ---- */

/* separable_columns starts every part with the 2 ry + 1 rows of its first
 * window, strip + 2 iterations each */
static guint64
separable_columns_start (cl_int strip, guint ry)
{
  return (2 * (guint64) ry + 2) * (strip + 2) + strip + 4;
}

/* Whether the column pass fits a loop cap with 16 columns a work-item. */
static gboolean
separable_strip16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  return clb_loops_fit (profile, separable_columns_start (16, ry));
}

static gboolean
run_separable (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbDeviceProfile *profile = &engine->profile;
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int strip = r->shape.strip;
  cl_int w = job->width, h = job->height, cn = job->channels;
  /* horizontal sums fit in 32 bits for every depth */
  gsize row_bytes = (gsize) w * cn * sizeof (cl_uint);
  /* separable_rows: 2 rx + 1 to start, then an iteration a column */
  guint row_part = steps_per_launch (profile, 2 * (guint64) r->rx + 4, 1, w);
  guint column_part = steps_per_launch (profile,
      separable_columns_start (strip, r->ry), strip + 2, h);
  guint apron = 2 * r->ry, ring, band, done = 0, y0, y1;
  ClbArgs rows, cols;

  if (!plan_ring (engine, "separable", row_bytes, h, apron, &ring, error)
      || !clb_engine_ensure_work (engine, (gsize) ring * row_bytes, error))
    return FALSE;
  band = ring == (guint) h ? ring : ring - apron;

  cols = clb_args (k[K_SEPARABLE_COLUMNS]);
  clb_arg_mem (&cols, engine->work);
  clb_args_layout (&cols, r->out, &engine->planes, job);
  clb_args_size (&cols, job);
  clb_arg_int (&cols, r->rx);
  clb_arg_int (&cols, r->ry);
  clb_arg_int (&cols, r->border);
  clb_arg_int (&cols, strip);
  clb_arg_int (&cols, ring);
  if (!clb_args_done (&cols, error))
    return FALSE;

  /* Bands of output rows, top down: the horizontal sums of the rows a
   * band reaches, then its columns (kernels/separable.cl); in parts where
   * the device caps loops (one part elsewhere). */
  for (y0 = 0; y0 < (guint) h; y0 = y1) {
    guint reach = MIN ((guint) h, y0 + band + r->ry);

    y1 = MIN ((guint) h, y0 + band);
    if (reach > done) {
      rows = clb_args (k[K_SEPARABLE_ROWS]);
      clb_args_layout (&rows, r->in, &engine->planes, job);
      clb_arg_mem (&rows, engine->work);
      clb_arg_int (&rows, w);
      clb_arg_int (&rows, reach);
      clb_arg_int (&rows, cn);
      clb_arg_int (&rows, r->rx);
      clb_arg_int (&rows, r->border);
      clb_arg_int (&rows, done);
      clb_arg_int (&rows, ring);
      if (!clb_args_done (&rows, error)
          || !run_parts (engine, &rows, K_SEPARABLE_ROWS, 0, w, row_part, cn,
              reach - done, "separable_rows", error))
        return FALSE;
      done = reach;
    }
    if (!run_parts (engine, &cols, K_SEPARABLE_COLUMNS, y0, y1, column_part,
            0, ((size_t) w * cn + strip - 1) / strip, "separable_columns",
            error))
      return FALSE;
  }
  return TRUE;
}

/* The bytes of run_separable_x16's intermediate: the vertical sums of
 * the whole job, in 16 bits where they fit (half the memory traffic). */
static gboolean
separable_x16_narrow (guint ry)
{
  return (2 * ry + 1) * 255 <= G_MAXUINT16;
}

static gsize
separable_x16_work (const ClbJob * job, guint ry)
{
  return (gsize) job->width * job->height * job->channels
      * (separable_x16_narrow (ry) ? sizeof (cl_ushort) : sizeof (cl_uint));
}

/* Whether the loops of run_separable_x16's kernels fit the device's cap
 * for this job (always where there is none), and its intermediate the
 * memory (it takes the frame whole; the other variants go in bands). */
static gboolean
separable_x16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 c = job->channels, step = 16 / c, used = step * c;
  guint64 steps = (guint64) job->width * c / used + 1;
  guint64 mapped = MIN (steps, (2 * (guint64) rx + 17) / step + 2);
  /* separable_vertical_x16: at the row's end up to 3 strips of 16 and 15
   * samples one at a time, each 2 ry + 1 rows to start and the height */
  guint64 vertical = 18 * (2 * (guint64) ry + job->height + 4) + 8;
  /* separable_horizontal_x16: the start, 2 rx + 1 pixels of 2 channel
   * loops; each step, and in the steps near the ends 16-lane border
   * mapping twice and a lane-by-lane store; up to 15 samples at the end,
   * a window each */
  guint64 horizontal = (2 * (guint64) rx + 2) * (2 * c + 3) + 2 * steps
      + 52 * mapped + 15 * (2 * (guint64) rx + 2) + 16;

  return clb_loops_fit (profile, vertical)
      && clb_loops_fit (profile, horizontal)
      && separable_x16_work (job, ry) <= clb_work_budget (profile, planes);
}

/* CPUs, dense 8-bit jobs: the vertical pass first, then the horizontal
 * one sliding 16 samples at a time, both in vector registers. Reads
 * r->in, writes r->out (they may be the same buffer); kept channels are
 * copied from r->in. */
static gboolean
run_separable_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  cl_kernel *k = engine->kernels[CLB_SAMPLES_8];
  const ClbJob *job = r->job;
  cl_int w = job->width, h = job->height, cn = job->channels;
  size_t strips = ((size_t) w * cn + 63) / 64;
  cl_int narrow = separable_x16_narrow (r->ry);
  ClbArgs v, hz;

  if (!clb_engine_ensure_work (engine, separable_x16_work (job, r->ry),
          error))
    return FALSE;
  v = clb_args (k[K_SEPARABLE_VERTICAL_X16]);
  clb_arg_mem (&v, r->in);
  clb_arg_int (&v, r->in_pitch);
  clb_arg_mem (&v, engine->work);
  clb_args_size (&v, job);
  clb_arg_int (&v, r->ry);
  clb_arg_int (&v, r->border);
  clb_arg_int (&v, narrow);
  hz = clb_args (k[K_SEPARABLE_HORIZONTAL_X16]);
  clb_arg_mem (&hz, engine->work);
  clb_arg_mem (&hz, r->out);
  clb_arg_int (&hz, r->out_pitch);
  clb_args_size (&hz, job);
  clb_arg_int (&hz, r->rx);
  clb_arg_int (&hz, r->ry);
  clb_arg_int (&hz, r->border);
  clb_arg_int (&hz, narrow);
  /* kept channels: their samples from the input (not yet overwritten
   * where it is the output: each sample is read before it is written) */
  clb_arg_mem (&hz, r->in);
  clb_arg_int (&hz, r->in_pitch);
  clb_arg_int (&hz, job->keep_mask);
  if (!clb_args_done (&v, error) || !clb_args_done (&hz, error))
    return FALSE;
  CHECK (run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_VERTICAL_X16, strips,
          "separable_vertical_x16"),
      "clEnqueueNDRangeKernel (separable_vertical_x16)");
  CHECK (run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_HORIZONTAL_X16,
          (size_t) h, "separable_horizontal_x16"),
      "clEnqueueNDRangeKernel (separable_horizontal_x16)");
  return TRUE;

failed:
  return FALSE;
}

/* ---- separable_fused_x16: both passes in one walk down the rows ---- */

/* The lanes (bytes) of a pixel of @job that separable_fused_x16 computes,
 * or 0 where it does not take the job: 8-bit samples as stored, 1 to 4
 * bytes a pixel, each channel its own byte; kept channels only where
 * every byte is the job's (bytes of other jobs are left as they are in
 * the output, kept ones are read from the input). */
static guint
separable_fused_lanes (const ClbPlanes * planes, const ClbJob * job)
{
  guint lanes = 0, c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian || job->pixel_stride < 1 || job->pixel_stride > 4)
    return 0;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] >= job->pixel_stride || (lanes >> job->offset[c]) & 1)
      return 0;
    lanes |= 1u << job->offset[c];
  }
  if (job->keep_mask != 0 && lanes != (1u << job->pixel_stride) - 1)
    return 0;
  return lanes;
}

/* Whether the job's channels are its pixel's bytes in order (the
 * two-kernel run's layout). */
static gboolean
separable_fused_dense (const ClbJob * job)
{
  guint c;

  if (job->pixel_stride != job->channels)
    return FALSE;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] != c)
      return FALSE;
  }
  return TRUE;
}

/* Rows a work-item of separable_fused_x16 walks: the job's rows shared
 * among twice the compute units (a band's start, its first window of
 * 2 ry + 1 rows, is paid once a band), fewer where the device caps loops;
 * 0 where not even one row fits the cap. Loop costs: a move of the
 * window sums, row_len / 16 vector steps and up to 15 bytes; a row of
 * the horizontal pass as separable_x16_fits counts it. */
static guint
separable_fused_band_rows (const ClbDeviceProfile * profile,
    const ClbJob * job, guint rx, guint ry)
{
  guint64 c = job->pixel_stride, step = 16 / c, used = step * c;
  guint64 row_len = (guint64) job->width * c;
  guint64 steps = row_len / used + 1;
  guint64 mapped = MIN (steps, (2 * (guint64) rx + 17) / step + 2);
  guint64 horizontal = (2 * (guint64) rx + 2) * (2 * c + 3) + 2 * steps
      + 52 * mapped + 15 * (2 * (guint64) rx + 2) + 16;
  guint64 move = row_len / 16 + 18;
  guint64 start = row_len + 1 + (2 * (guint64) ry + 2) * move;
  guint64 bands = MAX (profile->compute_units, 1) * 2;
  guint64 rows = (job->height + bands - 1) / bands;

  if (profile->loop_budget != 0) {
    if (profile->loop_budget < start + horizontal + 8)
      return 0;
    rows = MIN (rows, (profile->loop_budget - start - 8)
        / (horizontal + move + 2));
  }
  return (guint) CLAMP (rows, 1, MAX (job->height, 1));
}

/* Whether separable_fused_x16 takes the job, and the run it falls back to
 * where the input is the output (the engine's own buffer, filtered in
 * place; later passes) does too: separable_x16 for dense jobs, else
 * separable_strip16. */
static gboolean
separable_fused_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint bands, rows;

  if (separable_fused_lanes (planes, job) == 0)
    return FALSE;
  rows = separable_fused_band_rows (profile, job, rx, ry);
  if (rows == 0)
    return FALSE;
  bands = (job->height + rows - 1) / rows;
  if ((guint64) bands * job->width * job->pixel_stride * sizeof (cl_uint)
      > clb_work_budget (profile, planes))
    return FALSE;
  if (separable_fused_dense (job))
    return separable_x16_fits (profile, planes, job, rx, ry, shape);
  return job->keep_mask == 0 && separable_strip16_fits (profile, planes, job,
      rx, ry, shape);
}

/* CPUs, 8-bit jobs of 1 to 4 bytes a pixel, from one buffer into another:
 * both passes in one kernel, a band of rows a work-item. In place, the
 * two-kernel runs. */
static gboolean
run_separable_fused (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  guint lanes = separable_fused_lanes (&engine->planes, job);
  guint rows = separable_fused_band_rows (&engine->profile, job, r->rx,
      r->ry);
  cl_int w = job->width, h = job->height, ps = job->pixel_stride;
  size_t bands = (h + rows - 1) / rows;
  gboolean dense = lanes == (1u << ps) - 1;
  cl_int keep = 0;
  guint c;
  ClbArgs a;

  if (r->in == r->out) {
    ClbRun strip = *r;

    if (separable_fused_dense (job))
      return run_separable_x16 (engine, r, error);
    strip.shape.strip = 16;
    return run_separable (engine, &strip, error);
  }
  if (dense) {
    for (c = 0; c < job->channels; c++)
      keep |= ((job->keep_mask >> c) & 1) << job->offset[c];
  } else {
    keep = ((1u << ps) - 1) & ~lanes;
  }
  if (!clb_engine_ensure_work (engine, bands * w * ps * sizeof (cl_uint),
          error))
    return FALSE;
  a = clb_args (engine->kernels[CLB_SAMPLES_8][K_SEPARABLE_FUSED_X16]);
  clb_arg_mem (&a, r->in);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, r->out_pitch);
  clb_arg_mem (&a, engine->work);
  clb_arg_int (&a, w);
  clb_arg_int (&a, h);
  clb_arg_int (&a, ps);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg_int (&a, separable_x16_narrow (r->ry));
  clb_arg_int (&a, rows);
  /* kept channels from the input; other jobs' bytes from the output */
  clb_arg_mem (&a, dense ? r->in : r->out);
  clb_arg_int (&a, dense ? r->in_pitch : r->out_pitch);
  clb_arg_int (&a, keep);
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (run_lines (engine, CLB_SAMPLES_8, K_SEPARABLE_FUSED_X16, bands,
          "separable_fused_x16"),
      "clEnqueueNDRangeKernel (separable_fused_x16)");
  return TRUE;

failed:
  return FALSE;
}

/* ---- bilateral ---- */

/* bilateral_x16's CLB_EDGE_SPAN (kernels/bilateral.cl): its staged edge
 * spans and its row of spatial exponents */
#define EDGE_SPAN 64

/* The most loop iterations of a bilateral_local work-item with work-groups
 * of @local, or of a bilateral_global one over a window block of
 * @cols x @rows: per tap the dx loop and two channel loops; per window
 * row the channel loop adding its sums; the tile's staging (local), the
 * centre, the partial sums and the result (channel loops). */
static guint64
bilateral_loops (guint64 channels, guint64 cols, guint64 rows,
    const size_t * local, guint rx, guint ry)
{
  guint64 cost = rows * (cols * (2 * channels + 3) + channels + 3)
      + 4 * (channels + 1) + 8;

  if (local) {
    guint64 tile = (guint64) (local[0] + 2 * rx) * (local[1] + 2 * ry);
    guint64 items = (guint64) local[0] * local[1];

    cost += (tile + items - 1) / items * (channels + 2) + 1;
  }
  return cost;
}

/* Whether bilateral_x16's loops fit the device's cap (always where there
 * is none). Its costliest blocks are those at the row's ends: they stage
 * each window row's span, EDGE_SPAN pixels (a channel loop each) for
 * every EDGE_SPAN - 15 taps (kernels/bilateral.cl). */
static gboolean
bilateral_x16_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 gather = 16 * ((guint64) job->channels + 2) + 1;
  guint64 sw = 2 * (guint64) rx + 1, taps = EDGE_SPAN - 15;
  guint64 row = sw + (sw + taps - 1) / taps
      * (EDGE_SPAN * (job->channels + 2) + 1);

  shape->whole_rows = TRUE;     /* a work-item's block is its row's */
  /* the window rows, the centre's gather, the row of spatial exponents
   * (windows up to EDGE_SPAN wide), the result */
  return clb_loops_fit (profile, (2 * (guint64) ry + 1) * (row + 2)
      + gather + (sw <= EDGE_SPAN ? sw + 1 : 0) + 40);
}

/* A work-group shape whose tile and apron fit in local memory, and whose
 * loops fit the device's cap; FALSE leaves the global-memory kernel. */
static gboolean
bilateral_local_fits (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  static const size_t shapes[][2] = { {16, 16}, {8, 8} };
  ClbSampleSize size = planes->sample_size;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (shapes); i++) {
    guint64 tile = (guint64) (shapes[i][0] + 2 * rx) * (shapes[i][1] + 2 * ry)
        * job->channels * sizeof (cl_float);

    if (shapes[i][0] * shapes[i][1] <= profile->bilateral_max_wg[size]
        && tile + profile->bilateral_static_local[size] <=
        profile->local_mem_size
        && clb_loops_fit (profile, bilateral_loops (job->channels,
                2 * rx + 1, 2 * ry + 1, shapes[i], rx, ry))) {
      shape->local[0] = shapes[i][0];
      shape->local[1] = shapes[i][1];
      return TRUE;
    }
  }
  return FALSE;
}

/* CPUs: 16 pixels in vector lanes, each tap's weight computed as one
 * power of 2 of the spatial and range exponents together (no tables) */
static gboolean
run_bilateral_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  gdouble s = r->params->sigma_range * engine->planes.max_value / 255.0;
  /* -log2 (e) / (2 s^2): the exponent of 2 per squared difference */
  cl_float kr = s > 0 ? (cl_float) MAX (-1.0 / (2.0 * s * s * G_LN2), -1e30)
      : -1e30f;
  gdouble ss = r->params->sigma_spatial;
  cl_float ks = ss > 0 ? (cl_float) MAX (-1.0 / (2.0 * ss * ss * G_LN2),
      -1e30) : 0.0f;
  cl_float4 k;
  guint c;
  ClbArgs a = clb_args (engine->kernels[CLB_SAMPLES_8][K_BILATERAL_X16]);

  for (c = 0; c < 4; c++)
    k.s[c] = job->dist_mask & (1u << c) ? kr : 0.0f;
  clb_arg_mem (&a, r->in);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, r->out_pitch);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg (&a, sizeof (k), &k);
  clb_arg_float (&a, ks);
  clb_arg_int (&a, job->keep_mask);
  clb_arg_int (&a, r->y1);
  if (!clb_args_done (&a, error))
    return FALSE;
  /* the band's rows; lines past them, where the launch is rounded up to
   * whole work-groups, write what the next band writes again */
  CHECK (run_lines_at (engine, CLB_SAMPLES_8, K_BILATERAL_X16,
          (size_t) (job->width + 15) / 16 * r->y0,
          (size_t) (job->width + 15) / 16 * (r->y1 - r->y0),
          (size_t) (job->width + 15) / 16 * r->band_rows, "bilateral_x16"),
      "clEnqueueNDRangeKernel (bilateral_x16)");
  return TRUE;

failed:
  return FALSE;
}

ClbArgs
clb_bilateral_args (ClbEngine * engine, cl_kernel kernel, const ClbRun * r)
{
  const ClbJob *job = r->job;
  ClbArgs a = clb_args (kernel);

  clb_args_layout (&a, r->in, &engine->planes, job);
  clb_arg_mem (&a, r->out);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  clb_arg_int (&a, r->border);
  clb_arg_mem (&a, engine->spatial[r->index]);
  clb_arg_mem (&a, engine->range);
  clb_arg_int (&a, job->dist_mask);
  clb_arg_int (&a, engine->planes.max_value);
  return a;
}

static gboolean
run_bilateral_local (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  cl_kernel kernel =
      engine->kernels[engine->planes.sample_size][K_BILATERAL_LOCAL];
  const ClbJob *job = r->job;
  const size_t *local = r->shape.local;
  size_t offset[2] = { r->x0, r->y0 }, global[2];
  ClbArgs a = clb_bilateral_args (engine, kernel, r);

  /* the tile */
  clb_arg_local (&a, (local[0] + 2 * r->rx) * (local[1] + 2 * r->ry)
      * job->channels * sizeof (cl_float));
  if (!clb_args_done (&a, error))
    return FALSE;
  /* the band in whole work-groups (its size is a multiple of them but at
   * the job's end) */
  global[0] = (r->x1 - r->x0 + local[0] - 1) / local[0] * local[0];
  global[1] = (r->y1 - r->y0 + local[1] - 1) / local[1] * local[1];
  CHECK (clb_engine_run_kernel_at (engine, kernel, 2, offset, global, local,
          "bilateral_local"), "clEnqueueNDRangeKernel (bilateral_local)");
  return TRUE;

failed:
  return FALSE;
}

/* bilateral_global's window blocks (kernels/bilateral.cl) */
#define BLOCK_FIRST 1
#define BLOCK_LAST 2

static gboolean
run_bilateral_global (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbDeviceProfile *profile = &engine->profile;
  cl_kernel kernel =
      engine->kernels[engine->planes.sample_size][K_BILATERAL_GLOBAL];
  const ClbJob *job = r->job;
  cl_int rx = r->rx, ry = r->ry;
  size_t offset[2] = { r->x0, r->y0 };
  size_t global[2] = { r->x1 - r->x0, r->y1 - r->y0 };
  guint64 cn = job->channels, sw = 2 * (guint64) rx + 1;
  guint64 sh = 2 * (guint64) ry + 1;
  /* the window whole, or blocks of whole rows, or of parts of a row */
  guint cols = steps_per_launch (profile, bilateral_loops (cn, 0, 1, NULL, rx,
          ry), 2 * cn + 3, sw);
  guint rows = steps_per_launch (profile, bilateral_loops (cn, 0, 0, NULL, rx,
          ry), cols * (2 * cn + 3) + cn + 3, sh);
  cl_mem sums = engine->range;  /* a buffer never touched with one block */
  ClbArgs fixed = clb_bilateral_args (engine, kernel, r);
  cl_int4 block;

  if (!clb_args_done (&fixed, error))
    return FALSE;
  if (cols < sw || rows < sh) {
    if (!clb_engine_ensure_work (engine, (gsize) job->width * job->height
            * (cn + 1) * sizeof (cl_float), error))
      return FALSE;
    sums = engine->work;
  }
  for (block.s[2] = -ry; block.s[2] <= ry; block.s[2] = block.s[3]) {
    block.s[3] = block.s[2] + MIN ((guint) (ry + 1 - block.s[2]), rows);
    for (block.s[0] = -rx; block.s[0] <= rx; block.s[0] = block.s[1]) {
      ClbArgs a = fixed;

      block.s[1] = block.s[0] + MIN ((guint) (rx + 1 - block.s[0]), cols);
      clb_arg_int4 (&a, block);
      clb_arg_mem (&a, sums);
      clb_arg_int (&a, (block.s[2] == -ry && block.s[0] == -rx ?
              BLOCK_FIRST : 0) | (block.s[3] > ry
              && block.s[1] > rx ? BLOCK_LAST : 0));
      if (!clb_args_done (&a, error))
        return FALSE;
      CHECK (clb_engine_run_kernel_at (engine, kernel, 2, offset, global,
              NULL, "bilateral_global"),
          "clEnqueueNDRangeKernel (bilateral_global)");
    }
  }
  return TRUE;

failed:
  return FALSE;
}

/* ---- the table ---- */

/* First match wins: the specific rows (vector kernels for CPUs, 16
 * columns a work-item) before the general ones every device can run. */
static const ClbVariant variants[] = {
  {"sat_gpu", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_GPU, "gpu_box_sat_rows, gpu_box_sat_totals, "
        "gpu_box_sat_columns, sat_box[_border]", 1, FALSE,
      clb_gpu_sat_usable, clb_run_gpu_sat},
  {"sat_ring", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "sat_ring (apron copies where banded)",
        0, FALSE, sat_ring_usable, run_sat_ring},
  {"sat_strip16", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "sat_scan_rows, sat_scan_columns, "
        "sat_box[_border]", 16, FALSE, NULL, run_sat},
  {"sat", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "sat_scan_rows, sat_scan_columns, "
        "sat_box[_border]", 1, FALSE, NULL, run_sat},
  {"separable_fused_x16", CLB_METHOD_SEPARABLE, CLB_WIDTH_8,
        CLB_LAYOUT_ANY, TRUE, CLB_DEVICE_CLASS_CPU, "separable_fused_x16",
        0, TRUE, separable_fused_fits, run_separable_fused},
  {"separable_x16", CLB_METHOD_SEPARABLE, CLB_WIDTH_8, CLB_LAYOUT_DENSE,
        TRUE, CLB_DEVICE_CLASS_CPU, "separable_vertical_x16, "
        "separable_horizontal_x16", 0, TRUE, separable_x16_fits,
      run_separable_x16},
  {"separable_strip16", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "separable_rows, separable_columns", 16,
        FALSE, separable_strip16_fits, run_separable},
  {"separable_gpu", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_GPU, "gpu_box_sep_rows, gpu_box_sep_columns",
        1, FALSE, clb_gpu_separable_usable, clb_run_gpu_separable},
  {"separable", CLB_METHOD_SEPARABLE, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "separable_rows, separable_columns", 1,
        FALSE, NULL, run_separable},
  {"bilateral_x16", CLB_METHOD_BILATERAL, CLB_WIDTH_8, CLB_LAYOUT_DENSE,
        TRUE, CLB_DEVICE_CLASS_CPU, "bilateral_x16", 0, FALSE,
      bilateral_x16_fits, run_bilateral_x16},
  {"bilateral_gpu", CLB_METHOD_BILATERAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_GPU, "bilateral_gpu", 0, FALSE,
      clb_bilateral_gpu_fits, clb_bilateral_gpu_run},
  {"bilateral_local", CLB_METHOD_BILATERAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "bilateral_local", 0, FALSE,
      bilateral_local_fits, run_bilateral_local},
  {"bilateral_global", CLB_METHOD_BILATERAL, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "bilateral_global", 0, FALSE, NULL,
      run_bilateral_global},
};

/* 8-bit samples stored as they are (no shift, no swap), the job's channels
 * back to back in every pixel: a row of the job is width * channels
 * consecutive bytes. */
static gboolean
job_is_dense_8bit (const ClbPlanes * planes, const ClbJob * job)
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

static gboolean
variant_matches (const ClbVariant * v, const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbJob * job)
{
  return v->method == method
      && (v->width == CLB_WIDTH_ANY || planes->sample_size == CLB_SAMPLES_8)
      && (v->layout == CLB_LAYOUT_ANY || job_is_dense_8bit (planes, job))
      && (v->device_class == CLB_DEVICE_CLASS_AUTO
      || v->device_class == profile->device_class);
}

const ClbJob *
clb_variant_job (const ClbVariant * variant, const ClbJob * job,
    ClbJob * unkept)
{
  guint c;

  if (job->keep_mask == 0 || variant->keeps)
    return job;
  *unkept = *job;
  unkept->channels = 0;
  unkept->dist_mask = 0;
  unkept->keep_mask = 0;
  for (c = 0; c < job->channels; c++) {
    if (job->keep_mask & (1u << c))
      continue;
    unkept->offset[unkept->channels] = job->offset[c];
    unkept->dist_mask |= ((job->dist_mask >> c) & 1) << unkept->channels;
    unkept->channels++;
  }
  return unkept;
}

const ClbVariant *
clb_variant_choose (const ClbDeviceProfile * profile, ClbMethod method,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (variants); i++) {
    const ClbVariant *v = &variants[i];
    ClbJob unkept;
    const ClbJob *j = clb_variant_job (v, job, &unkept);

    if (!variant_matches (v, profile, method, planes, j))
      continue;
    memset (shape, 0, sizeof (*shape));
    shape->strip = v->strip;
    if (v->usable == NULL || v->usable (profile, planes, j, rx, ry, shape))
      return v;
  }
  return NULL;                  /* an unknown method */
}

const gchar *
clb_variant_get_name (const ClbVariant * variant)
{
  return variant->name;
}

gboolean
clb_variant_wraps (const ClbVariant * variant)
{
  return variant->wraps;
}

static void
log_variant (ClbEngine * engine, const ClbRun * r,
    const ClbVariant * v)
{
  const ClbJob *job = r->job;
  gchar *line, *shape, keep[16] = "";
  guint c, kept = 0;

  if (engine->options.log == NULL || r->index >= CLB_MAX_JOBS)
    return;
  if (r->shape.local[0] > 0)
    shape = g_strdup_printf ("work-groups of %" G_GSIZE_FORMAT "x%"
        G_GSIZE_FORMAT, (gsize) r->shape.local[0], (gsize) r->shape.local[1]);
  else if (r->shape.strip > 0)
    shape = g_strdup_printf ("%d column%s a work-item", r->shape.strip,
        r->shape.strip > 1 ? "s" : "");
  else
    shape = g_strdup ("16 samples in vector lanes");
  for (c = 0; c < job->channels; c++)
    kept += (job->keep_mask >> c) & 1;
  if (kept > 0)
    g_snprintf (keep, sizeof (keep), " (%u kept)", kept);
  line = g_strdup_printf ("job %u (plane %u, %u channels%s, %ux%u, radius "
      "%d,%d): variant %s (%s, %s)%s: %s", r->index, job->plane,
      job->channels, keep, job->width, job->height, r->rx, r->ry, v->name,
      v->device_class == CLB_DEVICE_CLASS_AUTO ? "any device" :
      v->device_class == CLB_DEVICE_CLASS_CPU ? "cpu" : "gpu", shape,
      r->wrapped ? ", on the caller's memory" : "", v->kernels);
  g_free (shape);
  if (g_strcmp0 (line, engine->job_log[r->index]) != 0) {
    clb_engine_log (engine, "%s", line);
    g_free (engine->job_log[r->index]);
    engine->job_log[r->index] = line;
  } else {
    g_free (line);
  }
}

gboolean
clb_engine_run_variant (ClbEngine * engine, const ClbVariant * variant,
    const ClbRun * run, GError ** error)
{
  log_variant (engine, run, variant);
  return variant->run (engine, run, error);
}
