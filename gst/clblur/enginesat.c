/* clboxblur engine: method sat, its CPU and GPU variants.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The generic run (sat_scan_rows, sat_scan_columns, sat_box), sat_ring
 * (CPUs: the table built and read in one cached pass, kernels/sat_ring.cl)
 * and sat_gpu (kernels/gpu_sat.cl: the table built a chunk of rows a
 * work-group, its column sums in local memory, and read two rows at a
 * time through local memory), and their rows of the variant table.
 */
#include "config.h"

#include <string.h>

#include "engineprivate.h"

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
  guint row_part = clb_steps_per_launch (profile, 4, 1, w);
  guint column_part = clb_steps_per_launch (profile, strip + 4, strip + 2, h);
  guint apron = 2 * r->ry + 1, ring, band, scanned = 0, y0, y1;
  ClbArgs rows, cols, fixed;

  if (!clb_plan_ring (engine, "sat", row_bytes, h, apron, &ring, error)
      || !clb_engine_ensure_work (engine, (gsize) ring * row_bytes, error))
    return FALSE;
  band = ring == (guint) h ? ring : ring - apron;

  fixed = clb_engine_args (engine, box);
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
      rows = clb_engine_args (engine, k[K_SAT_SCAN_ROWS]);
      clb_args_layout (&rows, r->in, &engine->planes, job);
      clb_arg_mem (&rows, engine->work);
      clb_arg_int (&rows, w);
      clb_arg_int (&rows, reach);
      clb_arg_int (&rows, cn);
      clb_arg_int (&rows, scanned);
      clb_arg_int (&rows, ring);

      cols = clb_engine_args (engine, k[K_SAT_SCAN_COLUMNS]);
      clb_arg_mem (&cols, engine->work);
      clb_args_size (&cols, job);
      clb_arg_int (&cols, strip);
      clb_arg_int (&cols, ring);
      if (!clb_args_done (&rows, error) || !clb_args_done (&cols, error))
        return FALSE;
      if (!clb_run_parts (engine, &rows, K_SAT_SCAN_ROWS, 0, w, row_part, cn,
              reach - scanned, "sat_scan_rows", error)
          || !clb_run_parts (engine, &cols, K_SAT_SCAN_COLUMNS, scanned, reach,
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
      CHECK (clb_engine_run_grid (engine, K_SAT_BOX, NULL, pixels,
              "sat_box"), "clEnqueueNDRangeKernel (sat_box)");
    else
      CHECK (clb_engine_run_grid (engine, K_SAT_BOX_BORDER, NULL, pixels,
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
  /* the channels the kernel filters: the job's, or for a packed job run
   * as a dense one, its pixel's bytes, with @keep the bytes that are not
   * the job's (a bit each, left as the output has them) */
  guint channels, keep;
  /* table rows padded (dense, rx <= width - 2, 16 samples a row): rx + 1
   * pixels more before, rx after; @row_entries: a table row's entries */
  gboolean padded;
  guint64 row_entries;
  gsize bytes;                  /* rings and aprons */
  guint64 step_loops;
} SatRingPlan;

/* The bytes of a pixel of @job that sat_ring can filter as a dense job
 * of pixel_stride channels (a bit each), or 0: 8-bit samples as stored,
 * pixels of 2 or 4 bytes (every step of 16 bytes then starts at a
 * pixel), each channel a byte of its own. */
static guint
sat_ring_packed_lanes (const ClbPlanes * planes, const ClbJob * job)
{
  guint lanes = 0, c;

  if (planes->sample_size != CLB_SAMPLES_8 || planes->shift != 0
      || planes->big_endian
      || (job->pixel_stride != 2 && job->pixel_stride != 4))
    return 0;
  for (c = 0; c < job->channels; c++) {
    if (job->offset[c] >= job->pixel_stride || (lanes >> job->offset[c]) & 1)
      return 0;
    lanes |= 1u << job->offset[c];
  }
  return lanes;
}

/* Bands: about two a compute unit (the threads share them evenly on a
 * busy machine), each at least four times the 2 ry + 1 rows its windows
 * reach past it (rows scanned twice: at most a quarter more). */
static void
sat_ring_plan (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, SatRingPlan * plan)
{
  guint h = job->height, b, cn = job->channels, lanes;
  guint64 row_len = (guint64) job->width * cn;
  guint64 wide = planes->sample_size == CLB_SAMPLES_16 ? 8 : 4;
  guint64 ss = planes->sample_size == CLB_SAMPLES_16 ? 2 : 1;
  guint64 edge;

  plan->dense = clb_job_is_dense_8bit (planes, job);
  plan->keep = 0;
  lanes = sat_ring_packed_lanes (planes, job);
  /* (not where the device caps loops: on rusticl's llvmpipe, which
   * does, packed YUY2 ran 30 to 150 times slower than in
   * sat_strip16, 640x360 radius 2 and 15) */
  if (!plan->dense && lanes != 0 && profile->loop_budget == 0
      && (guint64) rx + 2 <= job->width
      && (guint64) job->width * job->pixel_stride >= CLB_LANES) {
    /* packed: the pixel's bytes as channels, padded (the kernel keeps
     * the other bytes only on padded rows) */
    plan->dense = TRUE;
    cn = job->pixel_stride;
    plan->keep = ((1u << cn) - 1) & ~lanes;
    row_len = (guint64) job->width * cn;
  }
  plan->channels = cn;
  plan->padded = plan->dense && (guint64) rx + 2 <= job->width
      && row_len >= CLB_LANES;
  plan->row_entries = row_len + (plan->padded ? (2 * (guint64) rx + 1) * cn
      : 0);
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
  plan->bytes = (gsize) (plan->bands * (guint64) plan->ring
      * plan->row_entries * wide
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
  /* a step, as kernels/loops.h counts it */
  edge = CLB_LOOPS_SAT_RING_EDGE (row_len, (guint64) rx, (guint64) cn,
      plan->dense);
  plan->step_loops = CLB_LOOPS_SAT_RING_STEP (row_len, (guint64) cn,
      plan->dense, edge);
}

/* Whether sat_ring takes the job: dense 8-bit jobs (vector lanes; they
 * write every byte of their rows, so the plan may run them from the
 * caller's input into its output, engineplan.c), packed 8-bit jobs of 2-
 * or 4-byte pixels on padded rows (run as dense ones, every byte of the
 * pixel filtered and the job's written: YUY2's Y and UV jobs, RGBx's
 * colours; YUY2 1080p radius 15 1.4 ms, 14.4 ms in sat_strip16's three
 * passes) and 16-bit ones (one sample at a time, still faster than
 * sat_strip16's three passes); its rings and aprons within the memory
 * the intermediate may take, and a step within the loop cap (launches
 * then take as many steps as the cap allows). Elsewhere sat_strip16:
 * other 8-bit jobs that are not dense (RGB's 3-byte pixels with a
 * channel kept, rows too narrow for padding), which one sample at a
 * time would filter slower than it (BGRx 1080p radius 15: 1.2x). */
static gboolean
sat_ring_usable (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, guint rx, guint ry, ClbWorkShape * shape)
{
  SatRingPlan plan;

  sat_ring_plan (profile, planes, job, rx, ry, &plan);
  return (plan.dense || planes->sample_size == CLB_SAMPLES_16)
      && plan.bytes <= clb_work_budget (profile, planes)
      && clb_loops_fit (profile, CLB_LOOPS_SAT_RING_FIXED + plan.step_loops);
}

static gboolean
run_sat_ring (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel kernel = engine->kernels[size][K_SAT_RING];
  gsize ss = size == CLB_SAMPLES_16 ? 2 : 1;
  gsize wide = size == CLB_SAMPLES_16 ? 8 : 4;
  gsize apron_at, row_bytes = (gsize) r->in_pitch * ss;
  SatRingPlan plan;
  ClbArgs fixed;
  guint b, part, t;

  sat_ring_plan (&engine->profile, &engine->planes, job, r->rx, r->ry, &plan);
  apron_at = (gsize) (plan.bands * (guint64) plan.ring * plan.row_entries
      * wide);
  if (r->in != r->out) {
    /* from one buffer into another (the caller's memory): every band
     * reads its rows from the input, which no band writes */
    plan.apron_rows = 0;
    plan.bytes = apron_at;
  }
  if (!clb_engine_ensure_work (engine, plan.bytes, error))
    return FALSE;
  /* in place: the rows each band reads that its neighbours write */
  for (b = 0; b < plan.bands && plan.apron_rows > 0; b++) {
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

  fixed = clb_engine_args (engine, kernel);
  /* clb_args_layout's, but the pitch the run's (the caller's, wrapped) */
  clb_arg_mem (&fixed, r->in);
  clb_arg_int (&fixed, r->in_pitch);
  clb_arg_int (&fixed, job->pixel_stride);
  clb_arg_int4 (&fixed, clb_job_offsets (job));
  clb_arg_int (&fixed, engine->planes.big_endian);
  clb_arg_int (&fixed, engine->planes.shift);
  clb_arg_mem (&fixed, r->out);
  clb_arg_int (&fixed, r->out_pitch);
  clb_arg_mem (&fixed, engine->work);
  /* clb_args_size's, but the channels the plan's (a packed job's
   * pixel bytes) */
  clb_arg_int (&fixed, job->width);
  clb_arg_int (&fixed, job->height);
  clb_arg_int (&fixed, plan.channels);
  clb_arg_int (&fixed, r->rx);
  clb_arg_int (&fixed, r->ry);
  clb_arg_int (&fixed, r->border);
  clb_arg_int (&fixed, plan.dense);
  clb_arg_int (&fixed, plan.padded);
  clb_arg_int (&fixed, plan.keep);
  clb_arg_int (&fixed, plan.bands);
  clb_arg_int (&fixed, plan.band_rows);
  clb_arg_int (&fixed, plan.ring);
  clb_arg_int (&fixed, plan.apron_rows);
  if (!clb_args_done (&fixed, error))
    return FALSE;
  /* a band a work-item, each its own work-group: the threads take them */
  part = clb_steps_per_launch (&engine->profile, CLB_LOOPS_SAT_RING_FIXED,
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

/* ---- sat_gpu (kernels/gpu_sat.cl) ---- */

/* sat: at most about this many chunks a frame (a chunk's work-group adds
 * the sums of the chunks above it). */
#define SAT_CHUNKS_MAX 64

static guint
sat_chunk (guint height)
{
  return MAX (CLB_GPU_CHUNK_MIN, (height + SAT_CHUNKS_MAX - 1) / SAT_CHUNKS_MAX);
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

/* The channels a work-group of gpu_box_sat_rows builds (@lanes: the
 * job's all, a line of samples loaded whole, where they fit local memory,
 * else one), or FALSE where even one does not fit or its loops (a chunk
 * of rows: the loads, the scan, the stores and the unscan of each) exceed
 * the device's cap. */
static gboolean
sat_gpu_lanes (const ClbDeviceProfile * profile, const ClbPlanes * planes,
    const ClbJob * job, size_t group, guint * lanes)
{
  guint64 chunk = sat_chunk (job->height), per, line;

  for (*lanes = job->channels; group > 0; *lanes = 1) {
    line = (guint64) *lanes * (job->width + 1);
    per = (line + group - 1) / group;
    if ((line + group) * sat_wide (planes) <= profile->local_mem_size
        && clb_loops_fit (profile, chunk * (5 * per + clb_log2_ceil (group)
                + 8) + sat_chunks (job->height) * per))
      return TRUE;
    if (*lanes == 1)
      break;
  }
  return FALSE;
}

static gboolean
clb_gpu_sat_usable (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
    ClbWorkShape * shape)
{
  guint64 row_len = (guint64) job->width * job->channels;
  size_t group = clb_gpu_line_group (profile, planes->sample_size);
  guint lanes;

  if (!sat_gpu_lanes (profile, planes, job, group, &lanes)
      || !clb_loops_fit (profile, sat_chunk (job->height) + 8)
      || row_len * ((guint64) job->height + sat_chunks (job->height))
      * sat_wide (planes) > clb_work_budget (profile, planes))
    return FALSE;
  shape->local[0] = group;
  shape->local[1] = 1;
  return TRUE;
}

/* gpu_box_sat_box's work-group: the line scan's, at most the row's
 * width rounded up to a power of two, halved until its two table rows
 * fit local memory; 0 where they do not (sat_box then reads the four
 * corners from global memory). */
static size_t
sat_gpu_box_group (ClbEngine * engine, const ClbJob * job, guint rx)
{
  ClbSampleSize size = engine->planes.sample_size;
  size_t g = MIN (clb_gpu_line_group (&engine->profile, size),
      engine->max_wg[size][K_GPU_BOX_SAT_BOX]);
  guint64 entry = (guint64) job->channels * sat_wide (&engine->planes);

  while (g > 16 && g / 2 >= (size_t) job->width)
    g /= 2;
  for (; g >= 16; g /= 2)
    if (2 * (g + 2 * (guint64) rx + 1) * entry
        <= engine->profile.local_mem_size)
      return g;
  return 0;
}

static gboolean
clb_run_gpu_sat (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  const ClbJob *job = r->job;
  ClbSampleSize size = engine->planes.sample_size;
  cl_kernel *k = engine->kernels[size];
  cl_int w = job->width, h = job->height, cn = job->channels;
  gsize wide = sat_wide (&engine->planes);
  size_t group = clb_gpu_line_group (&engine->profile, size);
  size_t box_group = sat_gpu_box_group (engine, job, r->rx);
  size_t row_len = (size_t) w * cn;
  cl_int chunk = sat_chunk (h), chunks = sat_chunks (h);
  cl_ulong at = (cl_ulong) row_len * h * wide / sizeof (cl_uint);
  guint lanes, box = r->border != CLB_BORDER_SHRINK ? K_SAT_BOX_BORDER :
      box_group > 0 ? K_GPU_BOX_SAT_BOX : K_SAT_BOX;
  size_t tot_global[2] = { (row_len + 63) / 64 * 64, chunks };
  size_t tot_local[2] = { 64, 1 };
  size_t rows_global[2], rows_local[2] = { group, 1 };
  size_t pixels[2] = { w, h }, box_local[2] = { box_group, 1 };
  ClbArgs tot, rows, a;

  /* (it fits: clb_gpu_sat_usable took the job) */
  sat_gpu_lanes (&engine->profile, &engine->planes, job, group, &lanes);
  /* mosaic_columns, the chunks' sums: its unit made on this way alone
   * (the CPU's sat_ring needs none of it) */
  if (!clb_engine_ensure_work (engine, row_len * (h + chunks) * wide, error)
      || !clb_engine_ensure_unit (engine, size, "mosaic", error))
    return FALSE;
  rows_global[0] = group;
  rows_global[1] = (size_t) chunks * (cn / lanes);
  /* the chunks' sums in uint (exact: chunk samples, < 2^16 rows, each
   * below 2^16), after the table */
  tot = clb_engine_args (engine, k[K_MOSAIC_COLUMNS]);
  clb_args_layout (&tot, r->in, &engine->planes, job);
  clb_arg_mem (&tot, engine->work);
  clb_args_size (&tot, job);
  clb_arg_int (&tot, chunk);
  clb_arg_int (&tot, -(cl_int) (h * wide / sizeof (cl_uint)));
  rows = clb_engine_args (engine, k[K_GPU_BOX_SAT_ROWS]);
  clb_args_layout (&rows, r->in, &engine->planes, job);
  clb_arg_mem (&rows, engine->work);
  clb_arg_mem (&rows, engine->work);
  clb_arg (&rows, sizeof (at), &at);
  clb_args_size (&rows, job);
  clb_arg_int (&rows, lanes);
  clb_arg_int (&rows, chunk);
  clb_arg_local (&rows, (size_t) lanes * (w + 1) * wide);
  clb_arg_local (&rows, group * wide);
  if (!clb_args_done (&tot, error) || !clb_args_done (&rows, error))
    return FALSE;
  if (engine->max_wg[size][K_MOSAIC_COLUMNS] < 64)
    tot_local[0] = 1;
  if (chunks > 1)
    CHECK (clb_engine_run_kernel (engine, k[K_MOSAIC_COLUMNS], 2, tot_global,
            tot_local, "mosaic_columns"),
        "clEnqueueNDRangeKernel (mosaic_columns)");
  CHECK (clb_engine_run_kernel (engine, k[K_GPU_BOX_SAT_ROWS], 2,
          rows_global, rows_local, "gpu_box_sat_rows"),
      "clEnqueueNDRangeKernel (gpu_box_sat_rows)");

  a = clb_engine_args (engine, k[box]);
  clb_arg_mem (&a, engine->work);
  clb_args_layout (&a, r->out, &engine->planes, job);
  clb_args_size (&a, job);
  clb_arg_int (&a, r->rx);
  clb_arg_int (&a, r->ry);
  if (box == K_GPU_BOX_SAT_BOX) {
    clb_arg_local (&a, 2 * (box_group + 2 * r->rx + 1) * cn * wide);
    pixels[0] = (pixels[0] + box_group - 1) / box_group * box_group;
  } else {
    clb_arg_int (&a, 0);
    clb_arg_int (&a, h);
    clb_arg_int (&a, h);        /* the ring: the whole table */
    if (box == K_SAT_BOX_BORDER)
      clb_arg_int (&a, r->border);
  }
  if (!clb_args_done (&a, error))
    return FALSE;
  if (box == K_GPU_BOX_SAT_BOX)
    CHECK (clb_engine_run_kernel (engine, k[box], 2, pixels, box_local,
            "gpu_box_sat_box"), "clEnqueueNDRangeKernel (gpu_box_sat_box)");
  else
    CHECK (clb_engine_run_grid (engine, box, NULL, pixels, box == K_SAT_BOX ?
            "sat_box" : "sat_box_border"), "clEnqueueNDRangeKernel (sat_box)");
  return TRUE;

failed:
  return FALSE;
}

/* The method's rows of the variant table (enginevariants.c), in the
 * order they are tried. */
const ClbVariant clb_sat_variants[] = {
  {"sat_gpu", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_GPU, "mosaic_columns (where chunked), "
        "gpu_box_sat_rows, gpu_box_sat_box (sat_box[_border])", 1, FALSE,
      clb_gpu_sat_usable, clb_run_gpu_sat},
  {"sat_ring", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "sat_ring (apron copies where banded "
        "in place)", 0, TRUE, sat_ring_usable, run_sat_ring},
  {"sat_strip16", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_CPU, "sat_scan_rows, sat_scan_columns, "
        "sat_box[_border]", 16, FALSE, NULL, run_sat},
  {"sat", CLB_METHOD_SAT, CLB_WIDTH_ANY, CLB_LAYOUT_ANY,
        FALSE, CLB_DEVICE_CLASS_AUTO, "sat_scan_rows, sat_scan_columns, "
        "sat_box[_border]", 1, FALSE, NULL, run_sat},
};

const guint clb_sat_n_variants = G_N_ELEMENTS (clb_sat_variants);
