/* clboxblur: a video format's storage as the engine's planes and jobs.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one place that turns a GstVideoInfo (and a buffer or frame of it)
 * into what gst/clblur/engine.h takes: the planes it allocates for, the
 * jobs that group a plane's components, and each plane's first byte and
 * stride. Used by the element, the benchmark (tools/bench.c) and the
 * fuzzer (tests/fuzz/), so that all three lay frames out alike. Needs only
 * GStreamer's video library and the engine's header.
 */
#pragma once

#include <gst/video/video.h>
#include "clblur/engine.h"

G_BEGIN_DECLS

/* Fills @planes with how @info stores its samples: container size, depth,
 * and each plane's row length (in containers) and row count. */
void gst_cl_layout_make_planes (const GstVideoInfo * info,
    ClbPlanes * planes);

/* Groups @info's components into jobs: those on one plane with one geometry
 * are filtered together (and share the bilateral range distance); alpha is
 * left out with @preserve_alpha. Returns the number of jobs written to
 * @jobs (at most CLB_MAX_JOBS). */
guint gst_cl_layout_make_jobs (const GstVideoInfo * info,
    gboolean preserve_alpha, ClbJob jobs[CLB_MAX_JOBS]);

/* The radius of one kind of component. */
typedef struct
{
  /* FALSE: the params' radii, scaled by the component's subsampling */
  gboolean own;
  /* With own: the radius in both directions, in the component's own
   * pixels; 0 leaves the component out of every job, unchanged. */
  guint radius;
} GstCLRadius;

/* gst_cl_layout_make_jobs with a radius for the chroma components (U
 * and V of YUV formats; other formats have none) and one for alpha:
 * components are grouped only with those of the same radius, so that
 * AYUV with a chroma radius of its own is a job of Y (and A) and a job of
 * U and V. */
guint gst_cl_layout_make_plane_jobs (const GstVideoInfo * info,
    const GstCLRadius * chroma, const GstCLRadius * alpha,
    ClbJob jobs[CLB_MAX_JOBS]);

/* The value of each component of @info (GstVideoInfo's component order:
 * R, G, B, A; Y, U, V, A; or grey) for the colour @argb (0xAARRGGBB, 8
 * bits each), at the format's depth. RGB: each 8-bit value v scaled to
 * the depth as v x max / 255 (exact: 257 v for 16 bits). YUV and grey:
 * in integers, with the caps' matrix (gst_video_color_matrix_get_Kr_Kb;
 * BT.601 where the caps give none, or RGB's), KR = round (65536 Kr),
 * KB = round (65536 Kb), KG = 65536 - KR - KB, E = KR R + KG G + KB B,
 * DB = 65536 B - E, DR = 65536 R - E; limited range (the caps' 16-235),
 * m = 2^(depth - 8): Y = 16 m + div (219 m E, 255 x 65536), U = 128 m +
 * div (224 m DB, 510 (65536 - KB)), V = 128 m + div (224 m DR,
 * 510 (65536 - KR)); full range (any other): Y = div (max E, 255 x
 * 65536), U = 2^(depth - 1) + div (max DB, 510 (65536 - KB)), V likewise;
 * div rounds to nearest, halves away from zero; clamped to 0..max. Alpha
 * as RGB's. */
void gst_cl_layout_fill_values (const GstVideoInfo * info, guint32 argb,
    guint values[GST_VIDEO_MAX_COMPONENTS]);

/* Sets each channel's ClbJob.fill of @jobs (made for @info) to its
 * component's value in @values. */
void gst_cl_layout_set_fill (const GstVideoInfo * info,
    const guint values[GST_VIDEO_MAX_COMPONENTS], ClbJob * jobs,
    guint n_jobs);

/* Turns @jobs (from gst_cl_layout_make_jobs) into those of one field
 * (clb_frame_field gives the field's planes). */
void gst_cl_layout_field_jobs (ClbJob * jobs, guint n_jobs);

/* Whether @buf holds a whole frame of @info, stored as @planes: as many
 * bytes as @info says, or with a GstVideoMeta of @info's format, size and
 * planes, every plane's offset + stride x (rows - 1) + row bytes inside
 * it. Only system memory is mapped (to check that it maps as a frame):
 * never OpenCL, GL or other device memory. */
gboolean gst_cl_layout_buffer_holds_frame (const GstVideoInfo * info,
    const ClbPlanes * planes, GstBuffer * buf);
/* Whether @meta only depends on the frame's size, orientation and colour
 * space, which the filter changes none of (region-of-interest metas among
 * them): it stays valid on the output. */
gboolean gst_cl_layout_meta_survives (GstMeta * meta);

/* Each plane's first byte and stride in @frame, as clb_frame_init_host takes
 * them. */
void gst_cl_layout_frame_planes (const GstVideoFrame * frame,
    guint8 * data[GST_VIDEO_MAX_PLANES], gsize stride[GST_VIDEO_MAX_PLANES]);

/* Interlaced video (interlace-mode interleaved, or mixed with the buffer's
 * GST_VIDEO_BUFFER_FLAG_INTERLACED) is filtered field by field: a field is
 * every other row of each plane, a frame of half the height at twice the
 * stride, and its rows never mix with the other field's. */

/* Whether @buf, a frame of @info, is filtered as two fields. */
gboolean gst_cl_layout_has_fields (const GstVideoInfo * info,
    GstBuffer * buf);

/* Fills @planes with the storage of one field of @info. FALSE when a plane
 * has an odd number of rows, so that the fields would differ in size. */
gboolean gst_cl_layout_make_field_planes (const GstVideoInfo * info,
    ClbPlanes * planes);


G_END_DECLS
