/* clboxblur engine: what its files share, not for its callers.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * engine.c: the engine's life, its buffers and tables;
 * engineframe.c: clb_engine_filter, a frame's way in and out;
 * enginemem.c: frames in OpenCL memory;
 * enginerun.c: the jobs' runs, as the plan says;
 * engineplan.c: the plan of a frame's work, made once per change;
 * engineprofile.c: the options and the device profile, probed once;
 * enginevariants.c: the kernel variants' table, the choice of a row and
 * its run;
 * enginesat.c, engineseparable.c, enginebilateral.c, enginemosaic.c:
 * each method's CPU and GPU variants (runs, limits) and its rows of the table;
 * enginemask.c: alpha as the foreground mask (ClbParams.mask), its
 * variants and rows;
 * enginelaunch.c: what the variants' launches share;
 * engineargs.c: the kernel-argument cursor.
 */
#pragma once

#include "engine.h"
#include "engineargs.h"
/* the kernels' loop shapes, shared with them (kernels/loops.h) */
#include "loops.h"

G_BEGIN_DECLS

/* The kernels, written once: the K_ enum, the names the programs are
 * asked for and the program unit each is built in (kernels/meson.build's
 * cl_units) all come from this list. Those of 8-bit programs only
 * (FIRST_8BIT_ONLY on) come last. */
#define CLB_KERNELS(X) \
  X (SAT_SCAN_ROWS, "sat_scan_rows", "sat") \
  X (SAT_SCAN_COLUMNS, "sat_scan_columns", "sat") \
  X (SAT_BOX, "sat_box", "sat") \
  X (SAT_BOX_BORDER, "sat_box_border", "sat") \
  X (SEPARABLE_ROWS, "separable_rows", "separable") \
  X (SEPARABLE_COLUMNS, "separable_columns", "separable") \
  X (BILATERAL_GLOBAL, "bilateral_global", "bilateral") \
  X (BILATERAL_GPU, "bilateral_gpu", "bilateral") \
  X (MOSAIC_COLUMNS, "mosaic_columns", "mosaic") \
  X (MOSAIC_BLOCKS, "mosaic_blocks", "mosaic") \
  X (FILL_SAMPLES, "fill_samples", "mosaic") \
  X (REGION_COMPOSITE, "region_composite", "region") \
  X (REGION_COMPOSITE_X16, "region_composite_x16", "region") \
  X (COPY_ROWS, "copy_rows", "base") \
  X (GPU_BOX_SEP_ROWS, "gpu_box_sep_rows", "separable") \
  X (GPU_BOX_SEP_COLUMNS, "gpu_box_sep_columns", "separable") \
  X (GPU_BOX_SEP_ROWS16, "gpu_box_sep_rows16", "separable") \
  X (GPU_BOX_SEP_COLUMNS16, "gpu_box_sep_columns16", "separable") \
  X (GPU_BOX_SAT_ROWS, "gpu_box_sat_rows", "sat") \
  X (GPU_BOX_SAT_BOX, "gpu_box_sat_box", "sat") \
  X (MASK_ROWS, "mask_rows", "mask") \
  X (MASK_COLUMNS, "mask_columns", "mask") \
  X (MASK_COLUMNS_STRIP, "mask_columns_strip", "mask") \
  X (SAT_RING, "sat_ring", "sat") \
  X (TEMPORAL_NOISE, "temporal_noise", "temporal") \
  X (TEMPORAL_DIFF, "temporal_diff", "temporal") \
  X (TEMPORAL_BLEND, "temporal_blend", "temporal") \
  X (TEMPORAL_SPATIAL, "temporal_spatial", "temporal") \
  X (SEPARABLE_FUSED_X16, "separable_fused_x16", "separable") \
  X (SEPARABLE_FUSED_ONE_X16, "separable_fused_x16", "separable") \
  X (SEPARABLE_FUSED_422_X16, "separable_fused_422_x16", "separable") \
  X (BILATERAL_X16, "bilateral_x16", "bilateral") \
  X (MOSAIC_X16, "mosaic_x16", "mosaic") \
  X (MASK_FUSED_X16, "mask_fused_x16", "mask") \
  X (MASK_PLANAR_X16, "mask_planar_x16", "mask") \
  X (MASK_PLANAR_PAIR_X16, "mask_planar_pair_x16", "mask") \
  X (TEMPORAL_SPATIAL_X16, "temporal_spatial_x16", "temporal") \
  X (TEMPORAL_BLEND_X16, "temporal_blend_x16", "temporal")

#define CLB_KERNEL_ENUM(id, name, unit) K_##id,
enum
{
  CLB_KERNELS (CLB_KERNEL_ENUM)
  N_KERNELS
};
#undef CLB_KERNEL_ENUM

/* the first kernel of the 8-bit program only */
#define FIRST_8BIT_ONLY K_SEPARABLE_FUSED_X16


/* A command's end, learnt without a host call (no polling of its event,
 * issue 40): a completion callback sets state (1 done, -1 failed, 0 not
 * yet); the callback and the engine hold a reference each (engine.c:
 * clb_landing_new, clb_landing_state, clb_landing_drop). */
typedef struct {
  gint refs;
  gint state;
} ClbLanding;

ClbLanding *clb_landing_new (cl_event event);
gint clb_landing_state (ClbLanding * landing);
/* NULL: nothing */
void clb_landing_drop (ClbLanding * landing);

/* Method temporal's state for one job (enginetemporal.c; engine.c
 * releases it and clb_engine_temporal_reset marks it fresh). */
#define CLB_NOISE_BINS 4096
typedef struct {
  cl_mem history[2];            /* read and written in turn */
  cl_mem count, hist, tables;
  cl_mem diff;                  /* each pixel's D, a 2-pixel border */
  gsize bytes;                  /* of a history buffer; 0: none yet */
  guint width, height;          /* of the frames the buffers are for */
  gsize tables_bytes;
  guint turn;                   /* history[turn] holds the last frame's */
  gboolean fresh;               /* the next frame reads no history */
  gint level;                   /* 1/16 of an 8-bit unit; -1: none yet */
  guint frames;                 /* since fresh, up to 3 */
  /* frame n's histogram read back into hist_host[n & 1] without a wait
   * and taken at frame n + 2; read_done[k]: that read's end */
  cl_event read[2];
  ClbLanding *read_done[2];
  cl_event upload[2];           /* the tables' uploads from tables_host */
  guint32 *tables_host[2];
  guint tables_turn;
  gint64 tables_key[6];         /* what tables holds */
  guint32 hist_host[2][CLB_NOISE_BINS];
} ClbTemporalJob;

#define CLB_NOISE_STATE (2 * CLB_MAX_JOBS)

/* Drops @t's read of slot @k, waiting for it first with @wait. */
static inline void
clb_temporal_drop_read (ClbTemporalJob * t, guint k, gboolean wait)
{
  if (t->read[k]) {
    if (wait)
      clWaitForEvents (1, &t->read[k]);
    clReleaseEvent (t->read[k]);
    t->read[k] = NULL;
  }
  clb_landing_drop (t->read_done[k]);
  t->read_done[k] = NULL;
}

/* One job's run in one pass (engineplan.c). */
typedef struct {
  /* 0, 0: the job is passed through; mosaic: the block's side in the
   * job's pixels (engineradii.c) */
  cl_int rx, ry;
  const ClbVariant *variant;    /* NULL when passed through */
  ClbWorkShape shape;
  /* Two jobs run as one (clb_separable_pair: packed 4:2:2's Y and UV
   * jobs in one walk, or two jobs of separable_fused_x16 in one launch;
   * clb_mask_pair: two masked jobs of one size and alphas, A420's U and
   * V):
   * the first's step has pair = 1 + the other's index and pair_rx,
   * pair_ry its radii; the other's step is paired (its variant the one
   * it would run alone; it runs nothing). */
  guint pair;
  cl_int pair_rx, pair_ry;
  gboolean paired;
  /* with the mask, bilateral's: the row that blends its output with the
   * input by alpha (CLB_VARIANTS_MASK's general kernels) */
  const ClbVariant *blend;
} ClbStep;

/* What a frame's jobs run, made once for the parameters, jobs and planes
 * (clb_engine_plan) and reused until one of them changes. */
typedef struct {
  gboolean valid;
  ClbParams params;             /* made for: regions left out */
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;
  guint passes;
  ClbStep steps[CLB_MAX_PASSES][CLB_MAX_JOBS];
  gboolean unknown_method;      /* some step found no variant */
  gboolean every_byte;          /* the jobs write every byte of every plane */
  gboolean direct;              /* caller's memory to caller's, in place */
} ClbPlan;

/* The values a job's log line is made of (enginevariants.c). */
#define CLB_LOG_KEY 18

struct _ClbEngine
{
  ClbRuntime *rt;               /* not owned */
  cl_command_queue queue;
  ClbEngineOptions options;
  ClbDeviceProfile profile;
  cl_kernel kernels[CLB_N_SAMPLE_SIZES][N_KERNELS];
  /* their arguments as last set: every one is set by clb_engine_args,
   * which skips those that did not change (engineargs.c) */
  ClbArgsKept *args_kept;
  size_t max_wg[CLB_N_SAMPLE_SIZES][N_KERNELS];
  /* the program units whose kernels are made, a bit each (their index in
   * kernels/meson.build's cl_units) */
  guint units_made[CLB_N_SAMPLE_SIZES];

  ClbPlanes planes;
  gboolean configured;
  cl_mem plane_in[CLB_MAX_PLANES];   /* the frame, filtered in place by box */
  cl_mem plane_out[CLB_MAX_PLANES];  /* bilateral output */
  gsize plane_bytes[CLB_MAX_PLANES];  /* what each of them holds */
  cl_mem work;                  /* summed-area table or box intermediate */
  gsize work_size;              /* bytes; grown on first need */

  cl_mem range;                 /* max_value + 1 floats */
  gdouble range_sigma;          /* what range holds; NAN = nothing yet */

  /* the regions of a frame as region_composite reads them: rectangles,
   * the tiles they reach, each tile's list (kernels/region.cl) */
  cl_mem regions;
  gsize regions_capacity;       /* bytes */

  cl_mem spatial[CLB_MAX_JOBS];
  gsize spatial_capacity[CLB_MAX_JOBS];   /* floats */
  guint spatial_rx[CLB_MAX_JOBS], spatial_ry[CLB_MAX_JOBS];
  gdouble spatial_sigma[CLB_MAX_JOBS];    /* NAN = nothing yet */

  guint n_rects;                /* regions uploaded for this frame */
  /* engineregions.c: a group's box of a plane and its result (two of
   * the largest plane's size), and the result placed in a plane's
   * layout for the composite (the third); 0 bytes: none yet */
  cl_mem strength_planes[3];
  gsize strength_bytes;
  gchar *strength_log;          /* the groups and boxes last logged */
  guint n_region_tiles;         /* tiles the frame's regions reach */
  /* enginecomposite.c: the least steps of the tiles' blocks of
   * 2^x_sub x 2^y_sub pixels, kept by a full-resolution job's composite
   * for the subsampled jobs' (CPUs) */
  cl_mem region_steps;
  gsize region_steps_bytes;
  gboolean region_steps_kept;   /* for the regions uploaded last */
  guint region_steps_x_sub, region_steps_y_sub;
  cl_int region_tiles_at, region_list_at;   /* where, in regions */
  /* what the line last logged per job said (log_variant) */
  gint64 job_log[CLB_MAX_JOBS][CLB_LOG_KEY];
  const gchar *mem_log;         /* enginemem.c: the way last logged */
  /* enginemem.c: a frame in OpenCL memory filtered where it is, from
   * frame_in's planes into frame_out's (NULL: plane_in / plane_out);
   * frame_written: the jobs that have written frame_out */
  cl_mem *frame_in, *frame_out;
  guint frame_written;
  ClbPlan plan;                 /* engineplan.c; invalid: none yet */
  guint plans_made;
  /* engine.c: alpha-mask's flag, one uint the mask kernels set to the
   * frame's stamp (mask_stamp, one more a masked frame) where they blend
   * some alpha below full; read back into mask_read without a wait
   * (mask_read_done: that read, of the flag after frame mask_read_stamp's
   * kernels; NULL: none on its way); mask_answered: the last frame whose
   * answer is in; mask_opaque: the frames in a row up to it without
   * background (clb_engine_mask_opaque_frames) */
  cl_mem mask_seen;
  cl_uint mask_stamp, mask_read, mask_read_stamp, mask_answered;
  cl_event mask_read_done;
  ClbLanding *mask_read_landed; /* its end */
  guint mask_opaque;
  gint cancelled;               /* atomic: clb_engine_cancel */
  GArray *kernel_times;         /* ClbKernelTime: the profile option's */
  /* per field of interlaced video (ClbParams.field) and job: the
   * field's CLB_MAX_JOBS in a row; then CLB_NOISE_STATE, the bilateral's
   * noise estimate (ClbParams.range_from_noise: its histogram alone) */
  ClbTemporalJob temporal[2 * CLB_MAX_JOBS + 1];
  gint noise_level;             /* the last level a frame ran at, 1/16 */
};

typedef struct {
  const gchar *name;            /* static */
  guint launches;
  gdouble ms;
  gboolean device_clock;        /* CL_PROFILING_COMMAND_START / END */
} ClbKernelTime;

/* The argument cursor of one of the engine's kernels: sets only the
 * arguments that changed since the kernel's last launch. */
#define clb_engine_args(engine, kernel) \
  clb_args_kept ((engine)->args_kept, (kernel))
/* engine.c: the kept memory arguments other than the engine's own
 * buffers let go (at the end of a frame: the frame's memory). */
void clb_engine_keep_own_args (ClbEngine * engine);

/* Every OpenCL call: the fault-injection hook, then the call. */
#define CHECK(expr, what) G_STMT_START {                      \
    cl_int e_ = clb_fault (what);                             \
    if (e_ == CL_SUCCESS)                                     \
      e_ = (expr);                                            \
    if (e_ != CL_SUCCESS) {                                   \
      clb_set_cl_error (error, e_, what);                     \
      goto failed;                                            \
    }                                                         \
  } G_STMT_END

/* engine.c: makes @size's kernels of program unit @unit (CLB_KERNELS),
 * building the program first where no stream on the device has needed
 * it yet (runtime.c), and probes them (the plans are made again), unless
 * made already. engineframe.c asks for the units a frame runs, so a
 * stream builds only those, never the 16-bit programs for 8-bit
 * samples. */
gboolean clb_engine_ensure_unit (ClbEngine * engine, ClbSampleSize size,
    const gchar * unit, GError ** error);
/* engineprofile.c: fills engine->profile from the device, the kernels
 * (created before) and engine->options; logs it. */
gboolean clb_engine_probe_profile (ClbEngine * engine, GError ** error);
/* The profile's and max_wg's figures of @size's kernels made since the
 * last call (engine.c's ensure_kernels). */
gboolean clb_engine_probe_kernels (ClbEngine * engine, ClbSampleSize size,
    GError ** error);
/* Passes one line to the options' log function, if any. */
void clb_engine_log (ClbEngine * engine, const gchar * format, ...)
    G_GNUC_PRINTF (2, 3);

/* A job's run of one variant. */
typedef struct {
  const ClbParams *params;
  const ClbJob *job;
  guint index;                  /* the job's: its spatial table */
  cl_int rx, ry, border;        /* in the job's pixels */
  ClbWorkShape shape;
  /* the job's input and output (the same buffer for the box methods but
   * on the caller's memory), rows @in_pitch / @out_pitch containers apart */
  cl_mem in, out;
  cl_int in_pitch, out_pitch;
  gboolean wrapped;             /* in and out are the caller's memory */
  /* with the mask on a wrapped run: the alpha's plane, the caller's
   * input, rows @alpha_pitch bytes apart; NULL: the frame's in the
   * engine's buffers (frame_in or plane_in, rows of the plane's width) */
  cl_mem alpha;
  cl_int alpha_pitch;
  /* with the mask on a wrapped run whose job reads the whole alpha plane
   * (clb_mask_copies_alpha): where the run copies that plane as it came,
   * rows @alpha_out_pitch apart; NULL: it does not */
  cl_mem alpha_out;
  cl_int alpha_out_pitch;
  /* bilateral: the band of the job's pixels this run filters, columns
   * [x0, x1) of rows [y0, y1) */
  guint x0, x1, y0, y1;
  guint band_rows;              /* rows of every band but the last */
  /* a step that runs two jobs (ClbStep.pair): the other one, its index,
   * its rx and ry (packed 4:2:2's pair: ry), its input and output (the
   * same plane's for packed 4:2:2) and their pitches; NULL: none */
  const ClbJob *pair_job;
  guint pair_index;
  cl_int pair_rx, pair_ry;
  cl_mem pair_in, pair_out;
  cl_int pair_in_pitch, pair_out_pitch;
  /* the composite: a subsampled job after this one that its steps are
   * kept for (clb_engine_run_composite) */
  const ClbJob *keep_for;
  /* the mask's blend (ClbStep.blend): bilateral's output, which @in is
   * blended with by alpha into @out (the same buffer); NULL: the box */
  cl_mem filtered;
} ClbRun;

typedef enum {
  CLB_WIDTH_ANY,
  CLB_WIDTH_8,                  /* 8-bit containers */
} ClbVariantWidth;

typedef enum {
  CLB_LAYOUT_ANY,               /* any pixel stride, offsets, shift, order */
  CLB_LAYOUT_DENSE,             /* samples as stored, channels back to back */
} ClbVariantLayout;

struct _ClbVariant
{
  const gchar *name;
  /* the key: what a job must be for the row to match */
  ClbMethod method;
  ClbVariantWidth width;
  ClbVariantLayout layout;
  /* whether its kernels take kept channels (ClbJob.keep_mask); a row
   * that does not is matched against, and runs, the job without them */
  gboolean keeps;
  ClbDeviceClass device_class;  /* AUTO: any */
  /* what it runs, in what shape */
  const gchar *kernels;
  cl_int strip;                 /* columns a column work-item walks */
  gboolean wraps;               /* reads / writes the caller's memory (8-bit) */
  /* whether it can take the job on this device (loops within the cap,
   * tile within local memory); may complete @shape. NULL: always. */
  gboolean (*usable) (const ClbDeviceProfile * profile,
      const ClbPlanes * planes, const ClbJob * job, guint rx, guint ry,
      ClbWorkShape * shape);
  gboolean (*run) (ClbEngine * engine, const ClbRun * run, GError ** error);
};

/* Whether row @v of a table takes @job with @params (the mask's place),
 * where the row matches the job (enginevariants.c); a table without one
 * takes every job that matches. */
typedef gboolean (*ClbTakesFunc) (const ClbVariant * v,
    const ClbPlanes * planes, const ClbParams * params, const ClbJob * job);

/* A pair of jobs run as one (the variant table's pairs): the variant
 * that runs jobs @a (radii @rxa, @rya) and @b (@rxb, @ryb), each given
 * @alone by the table, together, or NULL. */
typedef const ClbVariant *(*ClbPairFunc) (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb);

/* engine.c: alpha-mask's flag (made 0 with the engine) around a masked
 * frame's kernels: before them, the last read-back taken where it is
 * done (not waited for) and the frame's stamp; after them, the flag read
 * back, not waited for, where no read is on its way. */
void clb_engine_mask_seen_begin (ClbEngine * engine);
gboolean clb_engine_mask_seen_end (ClbEngine * engine, GError ** error);
/* The mask kernels' last two arguments: the flag and the frame's stamp
 * (enginelaunch.c). */
void clb_args_mask_seen (ClbArgs * a, ClbEngine * engine);

/* enginelaunch.c and enginevariants.c (clb_engine_run_variant) */
/* Makes *@mem (*@capacity bytes, 0: none) hold at least @size bytes: a
 * new buffer of @size with @flags where it is short (enginelaunch.c). */
gboolean clb_engine_grow_buffer (ClbEngine * engine, cl_mem * mem,
    gsize * capacity, gsize size, cl_mem_flags flags, GError ** error);
gboolean clb_engine_ensure_work (ClbEngine * engine, gsize size,
    GError ** error);
cl_int clb_engine_run_kernel (ClbEngine * engine, cl_kernel kernel,
    cl_uint dims, const size_t * global, const size_t * local,
    const gchar * name);
/* The same from the global work offset @offset (NULL: none). */
cl_int clb_engine_run_kernel_at (ClbEngine * engine, cl_kernel kernel,
    cl_uint dims, const size_t * offset, const size_t * global,
    const size_t * local, const gchar * name);
/* A work-item per element of @n (2-D, from @offset: NULL, none) of the
 * kernel K_ @k (the planes' sample size): on the GPU class an explicit
 * local size, 64 x 1 (the least power of two over @n[0] where that is
 * less; 1 x 1 where the kernel takes fewer), and @n[0] rounded up to it
 * (the kernels return past their bounds); elsewhere the driver's. */
cl_int clb_engine_run_grid (ClbEngine * engine, guint k,
    const size_t * offset, const size_t * n, const gchar * name);
/* Runs @variant; logs it first when it differs from the one last logged
 * for that job. */
gboolean clb_engine_run_variant (ClbEngine * engine,
    const ClbVariant * variant, const ClbRun * run, GError ** error);
/* The kernels' layout arguments: where a job's samples are. */
void clb_args_layout (ClbArgs * a, cl_mem buffer, const ClbPlanes * planes,
    const ClbJob * job);
/* The job's width, height and channels, in that order. */
void clb_args_size (ClbArgs * a, const ClbJob * job);
cl_int4 clb_job_offsets (const ClbJob * job);
/* The job @variant runs for @job: @job itself, or, where the variant does
 * not keep channels, @job without its kept channels, in @unkept. */
const ClbJob *clb_variant_job (const ClbVariant * variant, const ClbJob * job,
    ClbJob * unkept);

/* The bytes the box methods' intermediate may take on the device. */
guint64 clb_work_budget (const ClbDeviceProfile * profile,
    const ClbPlanes * planes);
/* Whether a work-item's loops of @iterations fit the device's cap. */
gboolean clb_loops_fit (const ClbDeviceProfile * profile,
    guint64 iterations);

/* The arguments every bilateral kernel starts with (enginebilateral.c). */
ClbArgs clb_bilateral_args (ClbEngine * engine, cl_kernel kernel,
    const ClbRun * r);

/* Each method's rows of the variant table, in the order they are tried
 * (enginesat.c, engineseparable.c, enginebilateral.c). */
extern const ClbVariant clb_sat_variants[];
extern const guint clb_sat_n_variants;
extern const ClbVariant clb_separable_variants[];
extern const guint clb_separable_n_variants;
extern const ClbVariant clb_bilateral_variants[];
extern const guint clb_bilateral_n_variants;
extern const ClbVariant clb_mosaic_variants[];
extern const guint clb_mosaic_n_variants;
extern const ClbVariant clb_fill_variants[];
extern const guint clb_fill_n_variants;
extern const ClbVariant clb_temporal_variants[];
/* enginetemporal.c: the bilateral's range sigma of this frame where
 * ClbParams.range_from_noise asks for it: that many times the noise level
 * (ClbParams.noise_level, or estimated on @r's job and input as
 * temporal's is: two frames behind, the first at once). */
gboolean clb_engine_noise_range (ClbEngine * engine, const ClbRun * r,
    gdouble * sigma_range, GError ** error);
extern const guint clb_temporal_n_variants;

/* The byte of a luma pixel that is luma (0: YUY2, YVYU; 1: UYVY, VYUY)
 * where @y and @uv are the Y and UV jobs of packed 4:2:2 on one plane
 * (8-bit, an even width: the UV job's pixels are two of @y's), else -1
 * (enginelaunch.c). */
gint clb_packed_422_luma (const ClbPlanes * planes, const ClbJob * y,
    const ClbJob * uv);

/* A pair's second job's run alone (enginelaunch.c). */
void clb_run_pair_other (const ClbRun * r, ClbRun * other);

/* The variant that runs jobs @a and @b of @method, each given @alone by
 * the table, together (its table's ClbPairFunc), or NULL
 * (enginevariants.c). */
const ClbVariant *clb_variant_pair (const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb);

/* The pairs (ClbPairFunc). enginemosaic.c: mosaic_x16 over packed
 * 4:2:2's Y job @a (block @rxa x @rya) and UV job @b together where each
 * runs mosaic_x16 alone and it takes the blocks' means in its vector
 * lanes. engineseparable.c: separable_fused_422_x16 for packed 4:2:2's
 * Y and UV jobs where both run separable_fused_x16. enginemask.c:
 * mask_planar_pair_x16, A420's U and V where both run mask_planar_x16. */
const ClbVariant *clb_mosaic_pair (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb);
const ClbVariant *clb_separable_pair (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb);
const ClbVariant *clb_mask_pair (const ClbDeviceProfile * profile,
    const ClbPlanes * planes, const ClbParams * params,
    const ClbVariant * alone_a, const ClbJob * a, guint rxa, guint rya,
    const ClbVariant * alone_b, const ClbJob * b, guint rxb, guint ryb);

/* enginemask.c: alpha as the foreground mask (ClbParams.mask): the
 * masked box's rows of the table (CLB_VARIANTS_MASK). */
extern const ClbVariant clb_mask_variants[];
extern const guint clb_mask_n_variants;
gboolean clb_mask_takes (const ClbVariant * v, const ClbPlanes * planes,
    const ClbParams * params, const ClbJob * job);

gboolean clb_mask_copies_alpha (const ClbVariant * variant,
    const ClbPlanes * planes, const ClbParams * params, const ClbJob * job);

/* The job bilateral filters where the mask blends its output: @job with
 * the mask's alpha kept as it came (not filtered, out of the range
 * distance: the distance of the stripped job, clb_mask_job), in @kept,
 * so that the variants for pixels of every byte (bilateral_x16) take
 * it; @job itself where the mask leaves it alone; NULL for alpha alone. */
const ClbJob *clb_mask_bilateral_job (const ClbParams * params,
    const ClbJob * job, ClbJob * kept);
/* The job a step of @params' method filters: clb_mask_bilateral_job's
 * for bilateral, clb_mask_job's for the others (in @tmp where changed). */
const ClbJob *clb_mask_step_job (const ClbParams * params,
    const ClbJob * job, ClbJob * tmp);
/* Whether @params mask by alpha. */
gboolean clb_mask_active (const ClbParams * params);
/* @job without the alpha channel the mask reads (alpha leaves as it
 * came), in @stripped, or @job itself where it has none; NULL where
 * nothing else is left (A420's alpha plane). */
const ClbJob *clb_mask_job (const ClbParams * params, const ClbJob * job,
    ClbJob * stripped);
/* Whether the mask's alpha lies inside @planes. */
gboolean clb_mask_check (const ClbPlanes * planes, const ClbParams * params,
    GError ** error);

/* enginelaunch.c: the launches the variants share. */
/* Runs a 1-D kernel of @n line work-items (rows or strips), in
 * work-groups shaped for the device class; _at: lines [@first, @first +
 * @n) in work-groups shaped for @shape_n lines. */
cl_int clb_run_lines_at (ClbEngine * engine, guint sample_size,
    guint kernel, size_t first, size_t n, size_t shape_n, const gchar * name);
cl_int clb_run_lines (ClbEngine * engine, guint sample_size, guint kernel,
    size_t n, const gchar * name);
/* How many of @n steps of @per_step iterations one launch may take after
 * @fixed iterations of set-up. */
guint clb_steps_per_launch (const ClbDeviceProfile * profile, guint64 fixed,
    guint64 per_step, guint n);
/* Launches a line kernel in parts of @part lines (its last two arguments
 * the part's first and end line); @channels > 0: (channel, line)
 * work-items. */
gboolean clb_run_parts (ClbEngine * engine, const ClbArgs * fixed,
    guint kernel, guint first, guint n, guint part, size_t channels,
    size_t lines, const gchar * name, GError ** error);
/* How many rows of @row_bytes a job's intermediate holds within the
 * budget (bands of @ring - @apron rows where not all). */
gboolean clb_plan_ring (ClbEngine * engine, const gchar * method,
    gsize row_bytes, guint height, guint apron, guint * ring,
    GError ** error);
/* Whether @job's samples are 8-bit channels of consecutive bytes. */
gboolean clb_job_is_dense_8bit (const ClbPlanes * planes,
    const ClbJob * job);
/* GPU line scans (kernels/gpu_box.cl): the work-group a scan gets, and
 * whether a scan of @n elements fits local memory and the loop cap. */
#define CLB_GPU_CHUNK_MIN 64    /* rows of a column work-item's chunk */
size_t clb_gpu_line_group (const ClbDeviceProfile * profile,
    ClbSampleSize size);
gboolean clb_gpu_line_fits (const ClbDeviceProfile * profile, size_t group,
    guint64 n, guint64 width, gsize elem);
guint clb_log2_ceil (guint64 n);

/* engine.c, for the files above it */
gsize clb_engine_container_bytes (const ClbPlanes * planes);
gboolean clb_engine_check_jobs (ClbEngine * engine, const ClbJob * jobs,
    guint n_jobs, GError ** error);
cl_mem *clb_engine_result_planes (ClbEngine * engine,
    const ClbParams * params);
/* TRUE, or FALSE with CLB_ENGINE_ERROR_CANCELLED once clb_engine_cancel
 * was called. */
gboolean clb_engine_check_cancelled (ClbEngine * engine, GError ** error);
/* enginerun.c: filters the frame in plane_in; the result is in the
 * planes clb_engine_result_planes gives. */
gboolean clb_engine_run_jobs (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, GError ** error);
/* The same from the planes @in into the planes @out (rows of the
 * engine's pitch, no regions), frame_in and frame_out set meanwhile. */
gboolean clb_engine_run_jobs_between (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs, cl_mem * in,
    cl_mem * out, GError ** error);
/* enginerun.c: runs every job of a plan that runs direct (the caller's
 * memory to the caller's, ClbPlan.direct) on wrapped planes. */
gboolean clb_engine_run_wrapped_jobs (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs, cl_mem * in,
    const gsize * src_stride, cl_mem * out, const gsize * dst_stride,
    GError ** error);

/* engine.c: copies @size bytes of host memory into @mem without waiting,
 * from a copy of them freed when written (the fault injection's
 * @what). */
gboolean clb_engine_upload (ClbEngine * engine, cl_mem mem, const void *data,
    gsize size, const gchar * what, GError ** error);

/* enginecomposite.c: the region composite's boundary. Uploads @params' regions
 * as kernels/region.cl reads them (the rectangles, the tiles of the frame
 * they reach, grown by the feather, each tile's list); its rows of the
 * table (CLB_VARIANTS_COMPOSITE). enginevariants.c: merges @job's
 * samples of those regions from @from into @to (the plane that holds the
 * rest; each with its own pitch), weighted by the feather (with region_invert, @from's weight is
 * the rest's), over the tiles they reach, by the row the table gives. */
gboolean clb_engine_upload_regions (ClbEngine * engine,
    const ClbParams * params, gint width, gint height, GError ** error);
extern const ClbVariant clb_composite_variants[];
extern const guint clb_composite_n_variants;
gboolean clb_engine_run_composite (ClbEngine * engine,
    const ClbParams * params, const ClbJob * job, const ClbJob * keep_for,
    cl_mem from, cl_int from_pitch, cl_mem to, cl_int to_pitch,
    GError ** error);
const ClbJob *clb_jobs_subsampled_after (const ClbJob * jobs, guint n_jobs,
    guint j);
/* enginevariants.c: runs a bilateral variant in bands. */
gboolean clb_engine_run_bands (ClbEngine * engine, const ClbVariant * variant,
    ClbRun * r, GError ** error);
/* engine.c: the range and spatial tables of job @j for its radii. */
gboolean clb_engine_bilateral_tables (ClbEngine * engine,
    const ClbParams * params, guint j, guint rx, guint ry, GError ** error);

/* engineregions.c: with regions of their own strength
 * (clb_regions_have_strength), filters plane_in's regions, each group of
 * equal strength once over its box, into plane_out (which holds the
 * original). */
gboolean clb_engine_run_region_groups (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs,
    GError ** error);

/* engineradii.c: whether @params' regions have radii of their own
 * (region_radius, some not 0, use_regions, not region_invert). */
gboolean clb_regions_have_strength (const ClbParams * params);

/* engineradii.c: how many times the box methods filter the frame
 * (bilateral: once), and a job's radii in its own pixels in pass @pass. */
guint clb_n_passes (const ClbParams * params);
void clb_job_radii (const ClbParams * params, const ClbJob * job,
    guint pass, cl_int * rx, cl_int * ry);

/* Queues a copy of @rows rows of @row bytes from @from (rows @from_pitch
 * apart, from byte @from_x of row @from_y) to @to (@to_pitch apart, from
 * byte @to_x of row @to_y), either a sub-buffer; @what names it in the
 * call's name, "clEnqueueCopyBufferRect (@what)" or, for dense rows,
 * "clEnqueueCopyBuffer (@what)" (enginelaunch.c). */
gboolean clb_engine_copy_rect (ClbEngine * engine, cl_mem from, gsize from_x,
    gsize from_y, gsize from_pitch, cl_mem to, gsize to_x, gsize to_y,
    gsize to_pitch, gsize row, gsize rows, const gchar * what,
    GError ** error);

/* A frame in OpenCL memory (enginemem.c), strides checked by
 * clb_engine_filter: with @done, queued, *@done the event of its end;
 * else waited for. */
gboolean clb_engine_process_mem (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbMemPlane * src,
    const ClbMemPlane * dst, cl_event * done, GError ** error);
/* The engine's next work waits on the device for the @n_wait events of
 * @wait (enginemem.c). */
gboolean clb_engine_wait_on_device (ClbEngine * engine, guint n_wait,
    const cl_event * wait, GError ** error);

/* A frame in host memory into one in OpenCL memory (enginemem.c): the
 * input wrapped and the output's planes written in place where the engine
 * wraps frames and the plan runs direct, else copies in and device-side
 * copies out; no map of the output. */
gboolean clb_engine_process_host_to_mem (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs,
    const ClbFrame * src, const ClbMemPlane * dst, GError ** error);

/* The plan for @params and @jobs on the engine's planes: the one made for
 * the last frame while nothing changed, else a new one (logged). */
const ClbPlan *clb_engine_plan (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs);
/* Whether this frame runs from the caller's input to its output through
 * the kernels alone: the plan's "direct", but for frames whose regions
 * have a strength. */
gboolean clb_engine_runs_direct (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs);

G_END_DECLS
