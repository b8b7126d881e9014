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
} ClbMethod;

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
#define CLB_MAX_PASSES 8
#define CLB_MAX_PLANES 4
#define CLB_MAX_JOBS 4

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
  /* Which pixels are filtered: all unless use_regions; otherwise those
   * inside one of the n_regions rectangles (none when n_regions is 0), or
   * with region_invert those outside all of them. The rest are copied
   * unchanged; filtered pixels still read their real neighbours. */
  gboolean use_regions;
  const ClbRect *regions;
  guint n_regions;
  gboolean region_invert;
} ClbParams;

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
  guint x_sub, y_sub;           /* log2 of the subsampling (chroma: 1) */
} ClbJob;

typedef struct _ClbEngine ClbEngine;

ClbEngine *clb_engine_new (ClbRuntime * rt, GError ** error);
void clb_engine_free (ClbEngine * engine);
/* Whether the work is shaped for a CPU (see CLB_DEVICE_CLASS_ENV). */
gboolean clb_engine_is_cpu (ClbEngine * engine);
/* Whether an engine on a device of @type takes the frames it can filter
 * straight from the caller's memory (CL_MEM_USE_HOST_PTR: one box pass of
 * separable, dense 8-bit planes) instead of copying them: devices of the
 * CPU class (CLB_DEVICE_CLASS_ENV) unless CLB_ZERO_COPY_ENV is "0". Lets
 * the tests ask which calls a frame makes. */
#define CLB_ZERO_COPY_ENV "CLBOXBLUR_ZERO_COPY"
gboolean clb_engine_wraps_frames (cl_device_type type);
/* The number of loop iterations after which the device ends a work-item's
 * loops (llvmpipe: 65535), which the engine plans its launches around;
 * 0 where loops run to the end. */
guint clb_engine_get_loop_cap (ClbEngine * engine);

/* (Re)allocates the device buffers for frames stored as @planes. Frees the
 * previous ones first. */
gboolean clb_engine_set_planes (ClbEngine * engine, const ClbPlanes * planes,
    GError ** error);

/* The radius a job subsampled by 2^@sub uses: @radius / 2^@sub rounded, and
 * never 0 when @radius is not. */
guint clb_scale_radius (guint radius, guint sub);

/* Filters one frame. @src and @dst hold each plane's first byte, rows
 * @src_stride / @dst_stride bytes apart (at least the plane's width).
 * Bytes of a plane that no job covers are copied unchanged. Returns when
 * @dst holds the result. */
gboolean clb_engine_process (ClbEngine * engine, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs, const guint8 * const *src,
    const gsize * src_stride, guint8 * const *dst, const gsize * dst_stride,
    GError ** error);

/* Filters one 8-bit RGBA frame held in the 2D image @src (CL_RGBA,
 * CL_UNORM_INT8, the engine's width and height) into @dst, copying between
 * the images and the engine's buffers on the device. With @gl_objects the
 * images come from clCreateFromGLTexture: they are acquired before and
 * released after, and the caller must have finished GL's work on them.
 * Returns when @dst holds the result. */
gboolean clb_engine_process_image (ClbEngine * engine,
    const ClbParams * params, const ClbJob * jobs, guint n_jobs, cl_mem src,
    cl_mem dst, gboolean gl_objects, GError ** error);

G_END_DECLS
