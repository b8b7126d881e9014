/* clboxblur engine: runs the blur methods on the planes of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GLib and OpenCL only, no GStreamer types, so the tests and tools can drive
 * it directly. It owns the kernels and the size-dependent device buffers; the
 * runtime below it owns the device, context, queue and programs.
 *
 * A frame is 1..4 planes of sample containers (8 or 16 bits). A job is a
 * group of 1..4 channels of one plane with one geometry, filtered together:
 * RGBA is one job of 4 channels, I420 three jobs of 1, NV12 a job of 1 (Y)
 * and a job of 2 (U, V), YUY2 a job of 1 (Y, every 2nd sample) and a job of
 * 2 (U, V, every 4th sample) on the same plane.
 */
#pragma once

#include <glib.h>
#include "runtime.h"

G_BEGIN_DECLS

typedef enum {
  CLB_METHOD_SAT,
  CLB_METHOD_SEPARABLE,
  CLB_METHOD_BILATERAL,
  /* each block of block_size x block_size pixels replaced by its rounded
   * mean (kernels/mosaic.cl) */
  CLB_METHOD_MOSAIC,
  /* every sample of the jobs' channels set to the job's fill value */
  CLB_METHOD_FILL,
  /* each frame blended with the frames before it where they agree, then
   * the bilateral at the noise left (kernels/temporal.cl, enginetemporal.c;
   * ref_temporal_frame defines it); a history a job kept by the engine */
  CLB_METHOD_TEMPORAL,
  /* not methods: the keys of the variant table's rows for the box
   * methods' steps with the alpha mask (enginemask.c) and for the
   * regions' composite (enginecomposite.c) */
  CLB_VARIANTS_MASK,
  CLB_VARIANTS_COMPOSITE,
} ClbMethod;

/* Methods run as the bilateral is: once, into plane_out, the mask
 * blending their output. */
#define CLB_METHOD_IS_BILATERAL(m) \
  ((m) == CLB_METHOD_BILATERAL || (m) == CLB_METHOD_TEMPORAL)

/* How the window is completed where it crosses the frame's edge. */
typedef enum {
  CLB_BORDER_SHRINK,      /* average only the pixels inside the frame */
  CLB_BORDER_REPLICATE,   /* repeat the edge pixel: aaa|abcd|ddd */
  CLB_BORDER_REFLECT,     /* mirror, edge not repeated: cb|abcd|cb */
} ClbBorder;

/* Largest radius for which every box sum of 8-bit samples fits in 32 bits:
 * (2 * 2047 + 1)^2 * 255 = 4276101375 < 2^32, with room left for the
 * rounding term. 16-bit samples use 64-bit sums, exact at this radius too. */
#define CLB_MAX_RADIUS 2047
/* Bilateral costs (2 rx + 1) (2 ry + 1) taps a pixel, so its window is
 * bounded: at most CLB_MAX_BILATERAL_RADIUS each way (127 x 127 taps,
 * about 3.3e10 on a 1080p frame's luma), and within 3 sigma-spatial, past
 * which the spatial Gaussian is below 1.2 % of its peak. The largest
 * sigma-spatial is the one whose 3 sigma reaches that bound (FFmpeg's
 * bilateral allows 512, at a cost no frame rate survives). */
#define CLB_MAX_BILATERAL_RADIUS 63
#define CLB_MAX_SIGMA_SPATIAL 21.0
/* temporal: its spatial window at most 15 x 15; reach in frames */
#define CLB_MAX_TEMPORAL_RADIUS 7
#define CLB_MAX_TEMPORAL_REACH 32
#define CLB_DEFAULT_TEMPORAL_REACH 8
#define CLB_MAX_PASSES 8
/* Mosaic blocks: even sizes (4:2:0 chroma blocks line up with luma's), at
 * most 256 so that a block's sum of 16-bit samples fits 32 bits
 * (65536 x 65535 + 32768 < 2^32). */
#define CLB_MIN_BLOCK_SIZE 2
#define CLB_MAX_BLOCK_SIZE 256
#define CLB_MAX_PLANES 4
#define CLB_MAX_JOBS 4

/* The shape of each region: its rectangle, or the ellipse inscribed in it
 * (kernels/region.cl defines both exactly). */
typedef enum {
  CLB_REGION_RECTANGLE,
  CLB_REGION_ELLIPSE,
} ClbRegionShape;

/* Largest region feather, in pixels. */
#define CLB_MAX_REGION_FEATHER 1024

/* A rectangle in pixels of the full-resolution frame. */
typedef struct {
  gint x, y;
  gint width, height;
} ClbRect;

typedef struct {
  ClbMethod method;
  ClbBorder border;
  guint radius_x;          /* in pixels of the full-resolution frame */
  guint radius_y;
  guint passes;            /* box methods: how many times to apply the box */
  gdouble sigma_spatial;   /* bilateral: pixels */
  gdouble sigma_range;     /* bilateral: 8-bit intensity units */
  /* temporal: the noise level (8-bit intensity units; 0: estimated from
   * the frames) and how many frames back the blend reaches (0: the
   * default, CLB_DEFAULT_TEMPORAL_REACH) */
  gdouble noise_level;
  guint temporal_reach;
  /* temporal: the field of interlaced video the frame is (0: top, or a
   * whole frame; 1: bottom): each keeps a history of its own */
  guint field;
  /* bilateral: above 0, sigma_range is this many times the noise level
   * (noise_level, or where that is 0 the level estimated from the
   * frames, as temporal's), frame by frame */
  gdouble range_from_noise;
  /* Which pixels are filtered: all unless use_regions; otherwise those
   * inside one of the n_regions rectangles (none when n_regions is 0), or
   * with region_invert those outside all of them. The rest are copied
   * unchanged; filtered pixels still read their real neighbours. */
  gboolean use_regions;
  const ClbRect *regions;
  guint n_regions;
  gboolean region_invert;
  /* Box methods: with n_pass_radii > 0, that many passes (at most
   * CLB_MAX_PASSES), pass p with the radii pass_radius_x[p] and
   * pass_radius_y[p] (full-resolution pixels) instead of radius_x,
   * radius_y and passes (clb_gaussian_radii fills them for a sigma). */
  guint n_pass_radii;
  guint pass_radius_x[CLB_MAX_PASSES];
  guint pass_radius_y[CLB_MAX_PASSES];
  /* Mosaic: the block's side in pixels of the full-resolution frame
   * (CLB_MIN_BLOCK_SIZE..CLB_MAX_BLOCK_SIZE; a job subsampled by 2^sub
   * takes block_size >> sub, at least 1). Blocks start at the frame's
   * origin. Radii, passes, sigmas and border are not used by mosaic and
   * fill. */
  guint block_size;
  /* Strength that follows a region's size (the element's roi-strength):
   * NULL, or n_regions radii (full-resolution pixels, as
   * clb_strength_radius gives them), one per region. A region's samples
   * are then filtered with every radius (radius_x, radius_y and each
   * pass_radius_x/y) raised to at least clb_round_radius_up (its
   * region_radius), where they are lower; a sample in several regions
   * takes the largest. Mosaic raises block_size the same way, to
   * clb_strength_block of it. Ignored by fill, with region_invert (the
   * regions are what stays sharp) and without use_regions. Only the
   * regions' pixels (and their windows' reach, or their blocks) are
   * filtered then: see engineregions.c. */
  const guint *region_radius;
  /* Each region's shape, and the pixels (0..CLB_MAX_REGION_FEATHER) past
   * its edge over which it blends into the outside: the region grown by t
   * pixels (t = 1..feather) takes (feather + 1 - t) / (feather + 1) of the
   * region's content (kernels/region.cl). */
  ClbRegionShape region_shape;
  guint region_feather;
  /* Alpha as the foreground mask (kernels/mask.cl): with mask, the box
   * methods give out = (a I + (amax - a) B + amax / 2) / amax, B the box
   * normalised by w = amax - alpha, B = (sum (I w) + sum (w) / 2) /
   * sum (w), B = I where sum (w) is 0; bilateral gives the same blend with
   * its output for B. amax is the planes' max_value; a is the alpha, or
   * with mask_feather its rounded box mean over a window of that radius
   * (full-resolution pixels, scaled like the radius for subsampled jobs),
   * both completed past the edge by the border. The alpha is the sample
   * at mask_offset of each pixel (mask_pixel_stride containers apart) of
   * plane mask_plane, a full-resolution plane; a job subsampled by 2x2
   * takes the rounded mean of the alphas its footprint covers inside the
   * frame. The alpha channel is left as it came, whatever the jobs say.
   * With the mask the box runs once, at radius_x, radius_y: passes and
   * pass radii are ignored. */
  gboolean mask;
  guint mask_plane;
  guint mask_offset;
  guint mask_pixel_stride;
  guint mask_feather;
} ClbParams;

/* Region corners are clamped to +-CLB_REGION_LIMIT (kernels/region.cl):
 * a region past it reaches no pixel of any frame the engine takes. */
#define CLB_REGION_LIMIT (1 << 28)

/* The planes' storage: what the engine allocates for. */
typedef struct {
  guint width, height;         /* the frame, in full-resolution pixels */
  ClbSampleSize sample_size;   /* 8- or 16-bit containers */
  guint shift;                 /* value = container >> shift (P010: 6) */
  gboolean big_endian;         /* 16-bit containers stored big-endian */
  guint max_value;             /* e.g. 255, 1023, 65535 */
  guint n_planes;
  guint plane_width[CLB_MAX_PLANES];    /* containers per row with data */
  guint plane_height[CLB_MAX_PLANES];   /* rows */
} ClbPlanes;

typedef struct {
  guint plane;
  guint width, height;          /* pixels of this job */
  guint channels;               /* 1..4 */
  guint pixel_stride;           /* containers between neighbouring pixels */
  guint offset[4];              /* containers from a pixel's start */
  guint dist_mask;              /* channels in the bilateral range distance */
  /* channels whose output is their input (RGBx's x, alpha kept): filling
   * a pixel's gaps makes a job dense for the vector kernels; variants
   * that cannot keep run the job without them */
  guint keep_mask;
  guint x_sub, y_sub;           /* log2 of the subsampling (chroma: 1) */
  /* With own_radius, every pass of this job uses radius_x, radius_y (in
   * this job's pixels) instead of the params' radii scaled by x_sub,
   * y_sub; 0 and 0 leave its samples unchanged. */
  gboolean own_radius;
  guint radius_x, radius_y;
  /* Fill: each channel's value (as the sample reads, before the shift) */
  guint fill[4];
} ClbJob;

#define CLB_ENGINE_ERROR (clb_engine_error_quark ())
GQuark clb_engine_error_quark (void);

/* The engine's own errors; failed OpenCL calls are CLB_RUNTIME_ERROR. */
typedef enum {
  CLB_ENGINE_ERROR_JOB,         /* jobs that do not fit the planes */
  CLB_ENGINE_ERROR_METHOD,      /* a method the engine does not know */
  CLB_ENGINE_ERROR_FORMAT,      /* planes an image cannot hold */
  CLB_ENGINE_ERROR_DEVICE,      /* a device the kernels cannot run on */
  CLB_ENGINE_ERROR_CANCELLED,   /* clb_engine_cancel stopped the frame */
} ClbEngineError;

/* The device class the engine shapes its work for. */
typedef enum {
  CLB_DEVICE_CLASS_AUTO,        /* options: from CL_DEVICE_TYPE */
  CLB_DEVICE_CLASS_CPU,
  CLB_DEVICE_CLASS_GPU,
} ClbDeviceClass;

/* Called with one line of the engine's log (the device profile, the
 * variant each job runs): the element passes it to GST_INFO. */
typedef void (*ClbEngineLogFunc) (gpointer user_data, const gchar * message);

/* What the element and the tools choose for an engine. The environment is
 * read only by clb_engine_options_from_env. */
typedef struct {
  /* AUTO: CPUs get the CPU variants and every other device type the GPU
   * ones; CPU or GPU forces that class (CLB_DEVICE_CLASS_ENV). */
  ClbDeviceClass device_class;
  /* Devices of the CPU class and those with memory shared with the host
   * take the frames they can filter straight from the caller's memory
   * (clb_engine_wraps_frames). */
  gboolean zero_copy;
  /* Wait for every kernel and keep its time (the device's clock where the
   * queue has CL_QUEUE_PROFILING_ENABLE: the runtime's, with
   * CLB_PROFILE_ENV set; else the host's) for clb_engine_take_profile. */
  gboolean profile;
  /* With profile: also print each kernel's time on stderr. */
  gboolean profile_print;
  /* Plan launches as if the device ended a work-item's loops after this
   * many iterations; 0: probe the device. */
  guint loop_cap;
  /* Plan the box methods' intermediate as if the device allowed at most
   * this many bytes in one allocation (when less than it does); 0: the
   * device's CL_DEVICE_MAX_MEM_ALLOC_SIZE. Frames whose intermediate
   * exceeds it are filtered in bands of rows (a test hook: many bands on
   * a small frame). */
  guint64 max_alloc;
  /* Plan as if the device had at most this much local memory and these
   * many work-items a work-group (when less than it has); 0: the device's.
   * A GPU's limits (48 KiB, 256) on a CPU driver, whose own (PoCL: 1 MiB,
   * 4096) never pick the smaller tiles and fallbacks a GPU takes. */
  guint64 max_local_mem;
  gsize max_work_group;
  /* The one row besides the generic ones (device class, width and layout
   * any) the table may give: a row's or a pair's name, a schedule run
   * where it can be; "": the generic rows alone and no pairs, what each
   * schedule must equal (the schedules test); NULL: every row. */
  const gchar *variant;
  ClbEngineLogFunc log;         /* NULL: no log */
  gpointer log_data;
} ClbEngineOptions;

/* "1": print each kernel's time (clboxblur-bench with it set). */
/* CLBOXBLUR_PROFILE=1: profile and profile_print; =summary: profile. */
#define CLB_PROFILE_ENV "CLBOXBLUR_PROFILE"
/* N: plan launches as if loops were capped at N iterations (tests). */
#define CLB_LOOP_CAP_ENV "CLBOXBLUR_LOOP_CAP"
/* N: plan the intermediate as if one allocation could hold N bytes. */
#define CLB_MAX_ALLOC_ENV "CLBOXBLUR_MAX_ALLOC"
/* N: plan with at most N bytes of local memory (max_local_mem). */
#define CLB_MAX_LOCAL_MEM_ENV "CLBOXBLUR_MAX_LOCAL_MEM"
/* N: plan with work-groups of at most N work-items (max_work_group). */
#define CLB_MAX_WORK_GROUP_ENV "CLBOXBLUR_MAX_WORK_GROUP"

/* The defaults: class from the device type, zero copy, no profile, the
 * loop cap probed, no log. */
void clb_engine_options_init (ClbEngineOptions * options);
/* The defaults changed by CLB_DEVICE_CLASS_ENV, CLB_ZERO_COPY_ENV,
 * CLB_PROFILE_ENV, CLB_LOOP_CAP_ENV, CLB_MAX_ALLOC_ENV,
 * CLB_MAX_LOCAL_MEM_ENV and CLB_MAX_WORK_GROUP_ENV: the one place the
 * engine's environment variables are read. */
void clb_engine_options_from_env (ClbEngineOptions * options);

/* What the engine found out about its device, once, when it was made:
 * everything the choice of a kernel variant depends on. */
typedef struct {
  ClbDeviceClass device_class;  /* CPU or GPU: the work's shapes */
  gboolean class_forced;        /* by the options, not the device type */
  cl_device_type type;
  cl_uint vector_width;         /* CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR */
  cl_uint compute_units;
  cl_ulong local_mem_size;
  size_t max_work_group_size;
  size_t max_items[3];          /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  gboolean host_unified;        /* CL_DEVICE_HOST_UNIFIED_MEMORY */
  gboolean gl_sharing;          /* cl_khr_gl_sharing */
  gboolean fp16;                /* cl_khr_fp16 */
  const gchar *only_variant;    /* the options' variant */
  /* Frames wrapped, not copied (CPU class or host_unified, and
   * options->zero_copy). */
  gboolean zero_copy;
  /* Launch shapes by class (engineprofile.c): the grid kernels' group
   * width (0: the driver's), the line kernels' groups a compute unit (0:
   * groups of 64), the bilateral's taps a band (each waited for, so a
   * cancel takes effect within one). */
  size_t grid_local;
  guint line_groups;
  guint64 band_taps;
  /* Devices that end a work-item's loops after a number of iterations:
   * that number, and the most a launch is planned to run, half of it.
   * 0: loops run to the end. */
  guint loop_cap;
  guint64 loop_budget;
  /* CL_DEVICE_MAX_MEM_ALLOC_SIZE, or the options' max_alloc where that
   * is less; and CL_DEVICE_GLOBAL_MEM_SIZE: what the box methods'
   * intermediate is planned within. */
  guint64 max_alloc;
  guint64 global_mem;
  /* the largest work-group of both line scans of kernels/gpu_box.cl
   * (gpu_box_sep_rows, gpu_box_sat_rows), per sample size; 0: unknown */
  size_t gpu_line_max_wg[CLB_N_SAMPLE_SIZES];
  /* bilateral_gpu's largest work-group and the local memory it uses
   * besides its tile, per sample size; CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE
   * and CL_DEVICE_MAX_CONSTANT_ARGS, which its tables must fit */
  size_t bilateral_gpu_max_wg[CLB_N_SAMPLE_SIZES];
  cl_ulong bilateral_gpu_static_local[CLB_N_SAMPLE_SIZES];
  cl_ulong max_constant_size;
  cl_uint max_constant_args;
} ClbDeviceProfile;

typedef struct _ClbEngine ClbEngine;

/* @options: NULL for clb_engine_options_init's defaults. */
ClbEngine *clb_engine_new (ClbRuntime * rt, const ClbEngineOptions * options,
    GError ** error);
void clb_engine_free (ClbEngine * engine);
const ClbDeviceProfile *clb_engine_get_profile (ClbEngine * engine);
/* The profile in one line, for the log. Free with g_free. */
gchar *clb_device_profile_describe (const ClbDeviceProfile * profile);
/* Whether the work is shaped for a CPU (see CLB_DEVICE_CLASS_ENV). */
gboolean clb_engine_is_cpu (ClbEngine * engine);
/* Whether an engine on a device of @type takes the frames it can filter
 * straight from the caller's memory (CL_MEM_USE_HOST_PTR) instead of
 * copying them: devices of the CPU class (CLB_DEVICE_CLASS_ENV) and those
 * that share memory with the host (@unified: CL_DEVICE_HOST_UNIFIED_MEMORY,
 * integrated GPUs), unless CLB_ZERO_COPY_ENV is "0", with the options
 * from the environment. Lets the tests ask which calls a frame makes.
 * CLB_ZERO_COPY_ENV is runtime.h's. */
gboolean clb_engine_wraps_frames (cl_device_type type, gboolean unified);
/* The same for @options. */
gboolean clb_engine_options_wrap_frames (const ClbEngineOptions * options,
    cl_device_type type, gboolean unified);
/* The number of loop iterations after which the device ends a work-item's
 * loops (llvmpipe: 65535), which the engine plans its launches around;
 * 0 where loops run to the end. */
guint clb_engine_get_loop_cap (ClbEngine * engine);
/* With the profile option: the kernels run since the last call, one line
 * each ("name launches ms"; ms per frame where @frames > 0, else in
 * all), slowest first, and how their times were taken; NULL when there
 * were none. Starts over. Free with g_free. */
gchar *clb_engine_take_profile (ClbEngine * engine, guint frames);

/* A kernel variant: a way to run one method on one job (which kernels,
 * in what work shape), a row of the table in enginevariants.c. */
typedef struct _ClbVariant ClbVariant;

/* The work shape a variant takes for a job. */
typedef struct {
  cl_int strip;                 /* columns a column work-item walks */
  size_t local[2];              /* bilateral_gpu's work-group */
  gboolean whole_rows;          /* bands of the job are whole rows */
} ClbWorkShape;

/* The variant that runs @method (or CLB_VARIANTS_MASK, _COMPOSITE) on
 * @job of @planes (radii @rx, @ry in the job's pixels) with @params (NULL
 * but for the mask's rows) on a device of @profile, and its work shape:
 * the first row of the table that matches, takes the job and is usable. */
const ClbVariant *clb_variant_choose (const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbParams * params,
    const ClbJob * job, guint rx, guint ry, ClbWorkShape * shape);
/* The variant that runs jobs @a (radii @rxa, @rya) and @b (@rxb, @ryb)
 * of @method together, where each would run alone the one
 * clb_variant_choose gives it: separable on CPUs, packed 4:2:2's Y and UV
 * jobs in one walk (separable_fused_422_x16) or two planes' jobs in one
 * launch (separable_fused_pair_x16); mosaic on CPUs, packed 4:2:2's Y
 * and UV jobs in one walk (mosaic_422_x16); the mask on CPUs, A420's U
 * and V in one launch (mask_planar_pair_x16); NULL where they run apart.
 * The plan pairs jobs so. */
const ClbVariant *clb_variant_choose_pair (const ClbDeviceProfile * profile,
    ClbMethod method, const ClbPlanes * planes, const ClbParams * params,
    const ClbJob * a, guint rxa, guint rya, const ClbJob * b, guint rxb,
    guint ryb);
const gchar *clb_variant_get_name (const ClbVariant * variant);
/* The @i-th row of @method's table (or CLB_VARIANTS_MASK's, _COMPOSITE's);
 * NULL past its end. */
const ClbVariant *clb_variant_row (ClbMethod method, guint i);
/* A schedule (a row for one device class, sample width or layout) or the
 * generic row it must equal. */
gboolean clb_variant_is_generic (const ClbVariant * variant);
ClbDeviceClass clb_variant_get_device_class (const ClbVariant * variant);
/* Whether the variant can read and write the caller's memory in place. */
gboolean clb_variant_wraps (const ClbVariant * variant);

/* Makes the engine filter frames stored as @planes: (re)allocates the
 * device buffers, freeing the previous ones first, unless those hold
 * @planes already (the same samples, no plane larger: a field of the
 * frame's planes, as mixed interlaced video switches), which are then
 * reused. */
gboolean clb_engine_set_planes (ClbEngine * engine, const ClbPlanes * planes,
    GError ** error);
/* The program units a frame of @params on the planes set would build
 * that no engine on the device built yet (their names, static, into
 * @units: at most CLB_MAX_FRAME_UNITS), and their sample width; how
 * many. A thread of its own may build them on a runtime of the same
 * device (gstclwarm.c), which the frame's engine then takes. */
#define CLB_MAX_FRAME_UNITS 4
guint clb_engine_units_to_build (ClbEngine * engine, const ClbParams * params,
    const gchar ** units, ClbSampleSize * size);
/* Whether a frame of @params on the planes set would build a program
 * (kernels/meson.build's cl_units) that no engine on the device built
 * yet: a first start's, or a live change's, compile. */
gboolean clb_engine_units_pending (ClbEngine * engine,
    const ClbParams * params);
/* Makes the kernels a frame of @params on the planes set runs (building
 * their programs where needed), as the frame would; clb_engine_filter
 * does it too. */
gboolean clb_engine_prepare (ClbEngine * engine, const ClbParams * params,
    GError ** error);

/* The radius a job subsampled by 2^@sub uses: @radius / 2^@sub rounded, and
 * never 0 when @radius is not. */
guint clb_scale_radius (guint radius, guint sub);
/* The radii a region's strength is rounded up to, so that a frame's
 * regions fall into a bounded number of groups (each filtered once):
 * @radius rounded up to the next of 1, 2, 3, 4, 6, 8, 12, 16, 24, ...
 * (2^n and 3 x 2^(n-1)), at most CLB_MAX_RADIUS; 0 stays 0. At most
 * CLB_N_STRENGTH_RADII values. */
#define CLB_N_STRENGTH_RADII 22
guint clb_round_radius_up (guint radius);
/* A region's strength radius for factor @k and the region's @width and
 * @height: ceil (k x MIN (width, height)) (a product within 1e-9 of an
 * integer counts as that integer), rounded up by clb_round_radius_up;
 * 0 for k <= 0 or an empty region. */
guint clb_strength_radius (gdouble k, gint width, gint height);
/* Mosaic's block side for a strength radius @strength (as
 * clb_strength_radius gives it): the same, made even (1 and 3, the odd
 * steps, go up to 2 and 4), at most CLB_MAX_BLOCK_SIZE; 0 stays 0. */
guint clb_strength_block (guint strength);

/* The radius bilateral uses for @radius (in a job's pixels) with
 * @sigma_spatial (in the same pixels): MIN (@radius, ceil (3
 * @sigma_spatial), CLB_MAX_BILATERAL_RADIUS); @sigma_spatial 0 (a flat
 * window) leaves out the middle term. */
guint clb_bilateral_radius (guint radius, gdouble sigma_spatial);

/* How many plans the engine has made (one per change of the parameters,
 * the jobs or the planes: see engineplan.c); for tests and logs. */
guint clb_engine_count_plans (ClbEngine * engine);

/* Method temporal: forgets every job's history and noise estimate (the
 * next frame is filtered as a first one); and the noise level estimated
 * (8-bit intensity units; the first job's, 0 before any frame). */
void clb_engine_temporal_reset (ClbEngine * engine);
gdouble clb_engine_noise_level (ClbEngine * engine);

/* With ClbParams.mask: how many frames in a row, up to the last one whose
 * answer is in, had no alpha below full (nothing to blur: the output is
 * the input); 0 after a frame with some. The mask kernels set a flag
 * that the engine reads back without a wait, so a frame's answer comes
 * with a later frame or call (a frame or two later on a queue kept
 * busy). Never waits. */
guint clb_engine_mask_opaque_frames (ClbEngine * engine);

/* Makes the frame in progress, if any, and every later one fail with
 * CLB_ENGINE_ERROR_CANCELLED until clb_engine_resume: the engine stops
 * between two bands of its work (each a bounded number of taps, see
 * CLB_BAND_TAPS in enginevariants.c) and waits for the band running. Safe from
 * any thread while the engine lives. */
void clb_engine_cancel (ClbEngine * engine);
void clb_engine_resume (ClbEngine * engine);
gboolean clb_engine_is_cancelled (ClbEngine * engine);

/* The radii of @n box passes (1..CLB_MAX_PASSES) whose succession
 * approximates a Gaussian of standard deviation @sigma (W. Wells; P.
 * Kovesi, "Fast almost-Gaussian filtering"): the ideal width
 * w = sqrt (12 sigma^2 / n + 1), wl the largest odd integer <= w, wu =
 * wl + 2, and the first m = round ((12 sigma^2 - n wl^2 - 4 n wl - 3 n) /
 * (-4 wl - 4)) passes of width wl, the others wu; a width's radius is
 * (width - 1) / 2, at most CLB_MAX_RADIUS. Writes @n radii. */
void clb_gaussian_radii (gdouble sigma, guint n, guint * radii);

/* Whether @params change any sample of @jobs: some job has a radius other
 * than 0 in some pass. */
gboolean clb_params_filter_jobs (const ClbParams * params,
    const ClbJob * jobs, guint n_jobs);

/* A plane of a frame in OpenCL memory of the engine's context: @offset
 * bytes into @buffer, rows @stride bytes apart; @sub, when not NULL, a
 * sub-buffer of @buffer that starts at the plane (made once by the
 * memory's owner, clCreateSubBuffer: kernels can then read or write the
 * plane in place). */
typedef struct {
  cl_mem buffer;
  gsize offset;
  gsize stride;
  cl_mem sub;
} ClbMemPlane;

/* Where a frame is. */
typedef enum {
  CLB_FRAME_HOST,       /* host memory: each plane's first byte, stride */
  CLB_FRAME_MEM,        /* OpenCL buffers of the engine's context */
  CLB_FRAME_IMAGE,      /* one 2D image, CL_RGBA / CL_UNORM_INT8 */
} ClbFrameKind;

/* A frame as the engine reads or writes it: the planes of the engine's
 * ClbPlanes (clb_engine_set_planes), wherever they are. A field of an
 * interlaced frame is a view of it: every other row (clb_frame_field). */
typedef struct {
  ClbFrameKind kind;
  /* HOST: each plane's first byte, rows stride[p] bytes apart (at least
   * the plane's width) */
  guint8 *data[CLB_MAX_PLANES];
  gsize stride[CLB_MAX_PLANES];
  /* MEM: each plane's buffer, offset and stride */
  ClbMemPlane mem[CLB_MAX_PLANES];
  /* IMAGE: the image; with gl, made by clCreateFromGLTexture: acquired
   * before and released after, and GL's work on it must be finished */
  cl_mem image;
  gboolean gl;
  /* MEM output frames (the output of clb_engine_filter) whose memory
   * carries its work as events (the pools', issue 40): the frame's work
   * waits on the device for the @n_wait events of @wait (what still
   * writes the input, writes or reads the output); with @done, a MEM to
   * MEM frame is queued, not waited for: *done is then the event of its
   * end (the caller releases it). Zero, NULL: clb_engine_filter returns
   * when the work is done, as for every other frame. */
  guint n_wait;
  const cl_event *wait;
  cl_event *done;
} ClbFrame;

/* A frame of @n_planes planes in host memory (@data may be the caller's
 * read-only input: the engine never writes a source frame). */
void clb_frame_init_host (ClbFrame * frame, guint n_planes,
    const guint8 * const *data, const gsize * stride);
/* A frame of @n_planes planes in OpenCL memory. */
void clb_frame_init_mem (ClbFrame * frame, guint n_planes,
    const ClbMemPlane * planes);
/* A frame in the 2D image @image; @gl: a GL texture's (see ClbFrame). */
void clb_frame_init_image (ClbFrame * frame, cl_mem image, gboolean gl);
/* Field @field (0: top, the even rows) of @frame (HOST or MEM, every
 * plane's rows) as a frame of its own in @view. */
void clb_frame_field (const ClbFrame * frame, guint n_planes, guint field,
    ClbFrame * view);

/* Filters @src into @dst, frames of the same kind or HOST into MEM (the
 * output written where it is, no map): the one way in. Bytes
 * of a plane that no job covers are copied unchanged. HOST: where the
 * engine wraps frames (clb_engine_wraps_frames), the kernels read and
 * write the caller's memory; else copies to and from the device. MEM:
 * where the engine wraps frames and the planes have sub-buffers, kernels
 * read @src's and write @dst's planes in place; otherwise device-side
 * copies (no host copy); the memory must not be mapped. IMAGE: one plane
 * of 8-bit RGBA, copied between the images and the engine's buffers on
 * the device. No plane of @dst may share bytes with one of @src. Returns
 * when @dst holds the result. */
gboolean clb_engine_filter (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const ClbFrame * src,
    const ClbFrame * dst, GError ** error);

G_END_DECLS
