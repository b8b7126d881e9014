/* clboxblur engine: the region composite (kernels/region.cl).
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The regions of a frame are uploaded once a frame as region_composite
 * reads them: the rectangles, the tiles of the frame they reach (grown by
 * the feather), each tile's list of regions and whether one of them holds
 * it whole; the composite then merges the regions' content into the plane
 * that holds the rest in one launch over those tiles, so that a crowd of
 * small regions costs what its area costs.
 */
#include "config.h"

#include "engineprivate.h"

/* The side of a tile regions are binned into, in frame pixels: as
 * CLB_REGION_TILE in kernels/region.cl. */
#define REGION_TILE 16
/* The tile list is padded to a multiple of this many tiles, the most a
 * work-group of region_composite takes. */
#define REGION_TILES_GROUP 64
/* On CPUs a work-group of region_composite takes this many work-items
 * (whole tiles): fewer, larger groups than one per tile. */
#define REGION_CPU_GROUP 1024
/* Region corners are clamped to +-REGION_LIMIT (kernels/region.cl). */
#define REGION_LIMIT CLB_REGION_LIMIT
/* region_composite_x16's steps: as CLB_STEPS_* in kernels/region.cl */
#define CLB_STEPS_MAKE 0
#define CLB_STEPS_KEEP 1
#define CLB_STEPS_READ 2

/* Whether every pixel of [px0, px1] x [py0, py1] is inside region @q
 * (x0, y0, x1, y1) of @shape: all of them in the rectangle, and for an
 * ellipse the four corners' centres in it (it is convex), tested as
 * kernels/region.cl does where the products fit in 64 bits (FALSE
 * otherwise: the kernel then tests each sample). */
static gboolean
tile_inside (const cl_int * q, ClbRegionShape shape, gint px0, gint py0,
    gint px1, gint py1)
{
  gint64 a = (gint64) q[2] - q[0], b = (gint64) q[3] - q[1];
  guint c;

  if (px0 < q[0] || px1 > q[2] - 1 || py0 < q[1] || py1 > q[3] - 1)
    return FALSE;
  if (shape == CLB_REGION_RECTANGLE)
    return TRUE;
  if (a * b >= (G_GINT64_CONSTANT (1) << 31))
    return FALSE;
  for (c = 0; c < 4; c++) {
    /* inside the rectangle: |u| < a, |v| < b */
    gint64 u = 2 * (gint64) (c & 1 ? px1 : px0) + 1 - ((gint64) q[0] + q[2]);
    gint64 v = 2 * (gint64) (c & 2 ? py1 : py0) + 1 - ((gint64) q[1] + q[3]);

    if ((u * b) * (u * b) + (v * a) * (v * a) > (a * b) * (a * b))
      return FALSE;
  }
  return TRUE;
}

/* The distance from [a0, a1] to [b0, b1], 0 where they overlap. */
static gint64
gap (gint64 a0, gint64 a1, gint64 b0, gint64 b1)
{
  return MAX (MAX (b0 - a1, a0 - b1), 0);
}

/* The doubled offset from @c of the nearest pixel centre of [p0, p1]. */
static gint64
nearest (gint64 c, gint64 p0, gint64 p1)
{
  if (c < 2 * p0 + 1)
    return 2 * p0 + 1 - c;
  if (c > 2 * p1 + 1)
    return c - (2 * p1 + 1);
  return (c & 1) ? 0 : 1;
}

/* Whether region @q (x0, y0, x1, y1) of @shape grown by @feather may hold
 * a pixel centre of tile (@tx, @ty), cut to the frame: FALSE only where
 * the tile's nearest pixel (on each axis, the nearest to the region;
 * every test of kernels/region.cl grows with the distance on either axis)
 * lies past the feather, tested as the kernel does where the products fit
 * in 64 bits (TRUE otherwise: the kernel tests each sample). */
static gboolean
tile_reached (const cl_int * q, ClbRegionShape shape, gint feather, guint tx,
    guint ty, gint width, gint height)
{
  gint64 px0 = (gint64) tx * REGION_TILE, py0 = (gint64) ty * REGION_TILE;
  gint64 px1 = MIN (px0 + REGION_TILE, width) - 1;
  gint64 py1 = MIN (py0 + REGION_TILE, height) - 1;
  gint64 a, b, u, v;

  if (shape == CLB_REGION_RECTANGLE) {
    gint64 dx = gap (px0, px1, q[0], (gint64) q[2] - 1);
    gint64 dy = gap (py0, py1, q[1], (gint64) q[3] - 1);

    return dx * dx + dy * dy <= (gint64) feather * feather;
  }
  a = (gint64) q[2] - q[0] + 2 * feather;
  b = (gint64) q[3] - q[1] + 2 * feather;
  u = nearest ((gint64) q[0] + q[2], px0, px1);
  v = nearest ((gint64) q[1] + q[3], py0, py1);
  if (u > a || v > b)
    return FALSE;
  if (a * b >= (G_GINT64_CONSTANT (1) << 31))
    return TRUE;
  return (u * b) * (u * b) + (v * a) * (v * a) <= (a * b) * (a * b);
}

/* The regions of @params clipped as region_composite reads them, into
 * @data (x0, y0, x1, y1 each: corners clamped to +-REGION_LIMIT, empty
 * ones and those that reach no pixel of the frame, grown by @feather, left
 * out) and the tiles each reaches into @reach; returns how many. */
static guint
clip_regions (const ClbParams * params, gint feather, gint width,
    gint height, GArray * data, cl_int4 * reach)
{
  guint i, n = 0;

  for (i = 0; i < params->n_regions; i++) {
    const ClbRect *r = &params->regions[i];
    cl_int q[4];

    q[0] = CLAMP (r->x, -REGION_LIMIT, REGION_LIMIT);
    q[1] = CLAMP (r->y, -REGION_LIMIT, REGION_LIMIT);
    q[2] = CLAMP ((gint64) r->x + r->width, -REGION_LIMIT, REGION_LIMIT);
    q[3] = CLAMP ((gint64) r->y + r->height, -REGION_LIMIT, REGION_LIMIT);
    if (q[0] >= q[2] || q[1] >= q[3])
      continue;                 /* empty */
    /* the pixels it reaches, grown by the feather, in tiles */
    reach[n].s[0] = MAX (q[0] - feather, 0) / REGION_TILE;
    reach[n].s[1] = MAX (q[1] - feather, 0) / REGION_TILE;
    reach[n].s[2] = (MIN (q[2] + feather, width) + REGION_TILE - 1)
        / REGION_TILE;
    reach[n].s[3] = (MIN (q[3] + feather, height) + REGION_TILE - 1)
        / REGION_TILE;
    if (q[0] - feather >= width || q[1] - feather >= height
        || q[2] + feather <= 0 || q[3] + feather <= 0)
      continue;                 /* outside the frame */
    g_array_append_vals (data, q, 4);
    n++;
  }
  return n;
}

/* For each tile each of the @n regions in @data may reach (@reach),
 * @visit (tile index, region). */
static void
for_each_reached (const GArray * data, const cl_int4 * reach, guint n,
    ClbRegionShape shape, gint feather, guint tiles_x, gint width,
    gint height, void (*visit) (guint tile, guint region, gpointer user),
    gpointer user)
{
  guint i, tx, ty;

  for (i = 0; i < n; i++) {
    const cl_int *q = &g_array_index (data, cl_int, 4 * i);

    for (ty = reach[i].s[1]; ty < (guint) reach[i].s[3]; ty++)
      for (tx = reach[i].s[0]; tx < (guint) reach[i].s[2]; tx++)
        if (tile_reached (q, shape, feather, tx, ty, width, height))
          visit (ty * tiles_x + tx, i, user);
  }
}

static void
count_tile (guint tile, guint region, gpointer user)
{
  ((guint *) user)[tile]++;
}

typedef struct {
  guint *next;                  /* per tile, where its next entry goes */
  cl_int *list;
} ListFill;

static void
list_tile (guint tile, guint region, gpointer user)
{
  ListFill *f = user;

  f->list[f->next[tile]++] = region;
}

/* Appends the tiles reached (@count: regions per tile, of @n_cells) to
 * @data: (column, row, first entry, whole: 0), padded with empty tiles to
 * a multiple of REGION_TILES_GROUP (a work-group's tiles), then the list's
 * end; @count becomes where each tile's next entry goes. Returns the
 * tiles reached; the entries into @entries. */
static guint
append_tiles (ClbEngine * engine, GArray * data, guint * count,
    guint n_cells, guint tiles_x, gsize * entries)
{
  guint t, n_tiles = 0, padded;

  *entries = 0;
  engine->region_tiles_at = data->len;
  for (t = 0; t < n_cells; t++) {
    if (count[t] > 0) {
      cl_int e[4] = { t % tiles_x, t / tiles_x, *entries, 0 };

      g_array_append_vals (data, e, 4);
      *entries += count[t];
      count[t] = e[2];
      n_tiles++;
    }
  }
  padded = (n_tiles + REGION_TILES_GROUP - 1) / REGION_TILES_GROUP
      * REGION_TILES_GROUP;
  for (t = n_tiles; t <= padded; t++) {
    cl_int e[4] = { 0, 0, *entries, 0 };

    g_array_append_vals (data, e, 4);
  }
  return n_tiles;
}

/* Marks the @n_tiles tiles of @data wholly inside one of their regions. */
static void
mark_whole_tiles (ClbEngine * engine, GArray * data, guint n_tiles,
    ClbRegionShape shape, gint width, gint height)
{
  guint t;

  for (t = 0; t < n_tiles; t++) {
    cl_int *e = &g_array_index (data, cl_int, engine->region_tiles_at + 4 * t);
    const cl_int *list = &g_array_index (data, cl_int, engine->region_list_at);
    const cl_int *end = &e[4];
    gint px0 = e[0] * REGION_TILE, py0 = e[1] * REGION_TILE;
    gint px1 = MIN (px0 + REGION_TILE, width) - 1;
    gint py1 = MIN (py0 + REGION_TILE, height) - 1;
    cl_int k;

    for (k = e[2]; k < end[2] && !e[3]; k++)
      e[3] = tile_inside (&g_array_index (data, cl_int, 4 * list[k]),
          shape, px0, py0, px1, py1);
  }
}

/* @data into engine->regions, grown where it is short. */
static gboolean
store_regions (ClbEngine * engine, const GArray * data, GError ** error)
{
  gsize bytes = data->len * sizeof (cl_int);

  if (bytes > engine->regions_capacity
      && !clb_engine_grow_buffer (engine, &engine->regions,
          &engine->regions_capacity, MAX (bytes,
              2 * engine->regions_capacity), CL_MEM_READ_ONLY, error))
    return FALSE;
  return clb_engine_upload (engine, engine->regions, data->data, bytes,
      "clEnqueueWriteBuffer (regions)", error);
}

/* Uploads the regions as region_composite reads them (kernels/region.cl):
 * the rectangles (clip_regions); the tiles of REGION_TILE pixels they
 * reach, grown by the feather; each tile's list; whether a region holds
 * the tile whole. */
gboolean
clb_engine_upload_regions (ClbEngine * engine, const ClbParams * params,
    gint width, gint height, GError ** error)
{
  gint feather = MIN (params->region_feather, CLB_MAX_REGION_FEATHER);
  ClbRegionShape shape = params->region_shape;
  guint tiles_x = (width + REGION_TILE - 1) / REGION_TILE;
  guint tiles_y = (height + REGION_TILE - 1) / REGION_TILE;
  cl_int4 *reach;
  guint *count;
  GArray *data;
  gsize entries;
  guint n, n_tiles;
  ListFill fill;
  gboolean ok = TRUE;

  engine->n_region_tiles = 0;
  engine->region_steps_kept = FALSE;
  if (params->n_regions == 0)
    return TRUE;

  data = g_array_new (FALSE, FALSE, sizeof (cl_int));
  reach = g_new (cl_int4, params->n_regions);
  count = g_new0 (guint, (gsize) tiles_x * tiles_y);
  n = clip_regions (params, feather, width, height, data, reach);
  for_each_reached (data, reach, n, shape, feather, tiles_x, width, height,
      count_tile, count);
  n_tiles = append_tiles (engine, data, count, tiles_x * tiles_y, tiles_x,
      &entries);
  engine->region_list_at = data->len;
  g_array_set_size (data, data->len + entries);
  fill.next = count;
  fill.list = &g_array_index (data, cl_int, engine->region_list_at);
  for_each_reached (data, reach, n, shape, feather, tiles_x, width, height,
      list_tile, &fill);
  mark_whole_tiles (engine, data, n_tiles, shape, width, height);
  g_free (count);
  g_free (reach);

  if (n_tiles > 0)
    ok = store_regions (engine, data, error);
  g_array_free (data, TRUE);
  if (!ok)
    return FALSE;
  engine->n_region_tiles = n_tiles;
  return TRUE;
}

/* A job after job @j of @jobs subsampled (NULL: none), which a
 * full-resolution job's composite keeps its steps for. */
const ClbJob *
clb_jobs_subsampled_after (const ClbJob * jobs, guint n_jobs, guint j)
{
  guint k;

  for (k = j + 1; k < n_jobs; k++)
    if (jobs[k].x_sub > 0 || jobs[k].y_sub > 0)
      return &jobs[k];
  return NULL;
}

/* How region_composite_x16 takes @job's steps (kernels/region.cl): a
 * full-resolution job keeps an ellipse's for @keep_for (non-NULL,
 * subsampled) where none are kept yet, by blocks of its subsampling (at
 * most 2x2), the steps buffer grown to them; a job subsampled by at least
 * the kept blocks reads them; any other makes its own. (A rectangle's
 * steps cost a subsampled job less than the map's stores cost the
 * full-resolution one: 100 feathered rectangles of 24x24 on a 1080p NV12
 * frame, 0.24 ms against 0.26 with the map, CLBOXBLUR_PROFILE; an
 * ellipse's 0.48 against 0.38.) */
static gboolean
steps_mode (ClbEngine * engine, const ClbParams * params, const ClbJob * job,
    const ClbJob * keep_for, cl_int * mode, GError ** error)
{
  gsize bytes;

  *mode = CLB_STEPS_MAKE;
  if (job->x_sub > 0 || job->y_sub > 0) {
    if (engine->region_steps_kept
        && job->x_sub >= engine->region_steps_x_sub
        && job->y_sub >= engine->region_steps_y_sub)
      *mode = CLB_STEPS_READ;
    return TRUE;
  }
  if (keep_for == NULL || engine->region_steps_kept
      || params->region_shape != CLB_REGION_ELLIPSE)
    return TRUE;
  engine->region_steps_x_sub = MIN (keep_for->x_sub, 1);
  engine->region_steps_y_sub = MIN (keep_for->y_sub, 1);
  bytes = (gsize) engine->n_region_tiles
      * (REGION_TILE >> engine->region_steps_x_sub)
      * (REGION_TILE >> engine->region_steps_y_sub) * sizeof (cl_ushort);
  if (!clb_engine_grow_buffer (engine, &engine->region_steps,
          &engine->region_steps_bytes, bytes, CL_MEM_READ_WRITE, error))
    return FALSE;
  *mode = CLB_STEPS_KEEP;
  return TRUE;
}

/* Merges the regions' content (r->in, rows r->in_pitch containers
 * apart) into the plane that holds the rest (r->out, rows r->out_pitch
 * apart) for r->job, over the tiles the regions uploaded last reach:
 * region_composite_x16 (@tiles: a work-item a tile, a row's samples in
 * vector lanes; with ellipses a full-resolution job keeps its steps for
 * r->keep_for, a subsampled job that follows it, NULL: none; steps_mode)
 * or region_composite (a work-group a tile). */
static gboolean
run_composite (ClbEngine * engine, const ClbRun * r, gboolean tiles,
    GError ** error)
{
  const ClbPlanes *planes = &engine->planes;
  const ClbDeviceProfile *profile = &engine->profile;
  const ClbParams *params = r->params;
  const ClbJob *job = r->job;
  guint k = tiles ? K_REGION_COMPOSITE_X16 : K_REGION_COMPOSITE;
  cl_kernel kernel = engine->kernels[planes->sample_size][k];
  size_t local[3] = { REGION_TILE >> job->x_sub, REGION_TILE >> job->y_sub,
    1
  };
  size_t items, max_wg = engine->max_wg[planes->sample_size][k];
  size_t global[3];
  guint dims = 3, d;
  gboolean shaped, kept = FALSE;
  ClbArgs a = clb_engine_args (engine, kernel);

  if (tiles) {
    /* (tiles) */
    local[0] = local[1] = 1;
    dims = 1;
  }
  items = local[0] * local[1];
  shaped = items <= max_wg && local[0] <= profile->max_items[0]
      && local[1] <= profile->max_items[1];
  /* a tile a group (region_composite); region_composite_x16's several
   * (a fixed number, as PoCL builds a kernel again for each work-group
   * size) */
  d = dims - 1;
  if (shaped && tiles)
    while (local[d] * 2 <= REGION_TILES_GROUP
        && local[d] * 2 * items <= MIN (max_wg, REGION_CPU_GROUP)
        && local[d] * 2 <= profile->max_items[d])
      local[d] *= 2;
  global[0] = local[0];
  global[1] = local[1];
  global[d] = (engine->n_region_tiles + local[d] - 1) / local[d] * local[d];

  if (engine->n_region_tiles == 0)
    return TRUE;
  clb_arg_mem (&a, r->in);
  clb_arg_int (&a, r->in_pitch);
  clb_arg_mem (&a, r->out);
  clb_arg_int (&a, r->out_pitch);
  clb_arg_int (&a, job->pixel_stride);
  clb_arg_int4 (&a, clb_job_offsets (job));
  clb_args_size (&a, job);
  clb_arg_int (&a, job->x_sub);
  clb_arg_int (&a, job->y_sub);
  clb_arg_int (&a, planes->big_endian);
  clb_arg_int (&a, planes->shift);
  clb_arg_int (&a, planes->width);
  clb_arg_int (&a, planes->height);
  clb_arg_mem (&a, engine->regions);
  clb_arg_int (&a, engine->region_tiles_at);
  clb_arg_int (&a, engine->region_list_at);
  clb_arg_int (&a, params->region_shape);
  clb_arg_int (&a, MIN (params->region_feather, CLB_MAX_REGION_FEATHER));
  if (tiles) {
    cl_int mode;

    if (!steps_mode (engine, params, job, r->keep_for, &mode, error))
      return FALSE;
    /* (making its own steps, the kernel reads no map: the regions stand
     * in for a buffer not made yet) */
    clb_arg_mem (&a, mode == CLB_STEPS_MAKE ? engine->regions :
        engine->region_steps);
    clb_arg_int (&a, mode);
    clb_arg_int (&a, engine->region_steps_x_sub);
    clb_arg_int (&a, engine->region_steps_y_sub);
    kept = mode == CLB_STEPS_KEEP;
  }
  if (!clb_args_done (&a, error))
    return FALSE;
  CHECK (clb_engine_run_kernel (engine, kernel, dims, global,
          shaped ? local : NULL, tiles ? "region_composite_x16" :
          "region_composite"), tiles ?
      "clEnqueueNDRangeKernel (region_composite_x16)" :
      "clEnqueueNDRangeKernel (region_composite)");
  engine->region_steps_kept |= kept;
  return TRUE;

failed:
  return FALSE;
}

static gboolean
run_composite_x16 (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_composite (engine, r, TRUE, error);
}

static gboolean
run_composite_tiles (ClbEngine * engine, const ClbRun * r, GError ** error)
{
  return run_composite (engine, r, FALSE, error);
}

/* The composite's rows of the variant table (CLB_VARIANTS_COMPOSITE),
 * in the order they are tried: the CPU's tiles in vector lanes, the
 * generic tile a work-group. */
const ClbVariant clb_composite_variants[] = {
  {"region_composite_x16", CLB_VARIANTS_COMPOSITE, CLB_WIDTH_ANY,
        CLB_LAYOUT_ANY, TRUE, CLB_DEVICE_CLASS_CPU, "region_composite_x16",
      0, FALSE, NULL, run_composite_x16},
  {"region_composite", CLB_VARIANTS_COMPOSITE, CLB_WIDTH_ANY,
        CLB_LAYOUT_ANY, TRUE, CLB_DEVICE_CLASS_AUTO, "region_composite", 0,
      FALSE, NULL, run_composite_tiles},
};

const guint clb_composite_n_variants = G_N_ELEMENTS (clb_composite_variants);
