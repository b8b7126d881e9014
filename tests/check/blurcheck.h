/* Helpers shared by the clboxblur element tests: frames, the harness, the
 * comparison with the plain-C reference, and the teardown fixture.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every output is compared with the plain-C reference in tests/reference,
 * bit for bit: the box blur is exact by design. Bilateral results may differ
 * by BILATERAL_TOLERANCE.
 */
#pragma once

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "refblur.h"
#include "clcheck.h"

/* The formats with one plane of interleaved 8-bit samples. */
#define BLURCHECK_N_PACKED_FORMATS 11
extern const gchar *packed_formats[BLURCHECK_N_PACKED_FORMATS];

/* Every format the element takes, the 8-bit ones first. */
#define BLURCHECK_N_ALL_FORMATS 28
extern const gchar *all_formats[BLURCHECK_N_ALL_FORMATS];

/* The element's borders, in the order of its enum (and RefBorder's). */
extern const RefBorder borders[3];
extern const gchar *border_nicks[3];

/* The element's methods, in the order of its enum. */
typedef enum
{
  METHOD_SAT,
  METHOD_SEPARABLE,
  METHOD_BILATERAL,
  METHOD_MOSAIC,
  METHOD_FILL,
} Method;

extern const gchar *method_nicks[5];

#define MAX_RECTS 128

/* What one frame went through. */
typedef struct
{
  Method method;
  RefBorder border;
  guint rx, ry;
  guint passes;
  gdouble sigma_spatial, sigma_range;
  gboolean preserve_alpha;
  /* Which pixels are filtered: all unless use_rects; else those inside one
   * of the rects (x, y, width, height, possibly beyond the frame), or with
   * invert those outside all of them. */
  gboolean use_rects;
  gboolean invert;
  guint n_rects;
  gint rects[MAX_RECTS][4];
  /* U and V of YUV formats: -1 the radii scaled by the subsampling, 0
   * untouched, N a radius of N chroma samples in both directions. */
  gint chroma_radius;
  /* alpha: -1 as the colour channels, 0 untouched (as preserve_alpha), N
   * a radius of N in both directions */
  gint alpha_radius;
  /* > 0 (box methods): three passes of the radii gaussian_box_radii gives,
   * in place of rx, ry and passes */
  gdouble sigma;
  /* Held regions (roi-hold): rect i came in frame rect_frame[i] of the
   * n_frames frames held (0 or 1: one frame, the rects as above). A pixel
   * of the frame is in the held set when it is inside a rect of any of
   * those frames, or with invert when it is inside a rect of every one of
   * them; a sample is then filtered when its footprint overlaps the held
   * set (with invert: does not overlap it). */
  guint n_frames;
  guint rect_frame[MAX_RECTS];
  /* mosaic: blocks of block_size pixels (>> the subsampling), from the
   * frame's origin; radii, passes, sigmas, border and chroma_radius
   * unused, alpha kept with preserve_alpha or alpha_radius 0 */
  guint block_size;
  /* fill: 0xAARRGGBB, converted by fill_reference */
  guint32 fill_color;
  /* roi-strength k (0: off; ignored with invert): a sample inside (by its
   * footprint) rects of strength radius L (strength_radius) is filtered
   * as the whole frame would be with every radius (rx, ry, each pass of
   * sigma) raised to at least the largest such L. */
  gdouble strength;
  /* With rect_strength_given, rect i's strength radius is rect_strength[i]
   * instead of strength_radius of its size (a field's rects: the element
   * takes the frame's). */
  gboolean rect_strength_given;
  guint rect_strength[MAX_RECTS];
  /* region-shape and region-feather */
  RefShape shape;
  guint feather;
} Settings;

/* The strength radius of a rect of @width x @height (clipped to the
 * frame) for roi-strength @k, as the element documents it: r = ceil (k x
 * min (width, height)), rounded up to the next of 1, 2, 3, 4, 6, 8, 12,
 * 16, 24, ... (2^n and 3 x 2^(n-1)), at most 2047; 0 for k = 0 or an
 * empty rect. Written from the documentation, not taken from the
 * element. */
guint strength_radius (gdouble k, gint width, gint height);

/* The element's defaults: sat, shrink, radius 4, one pass, whole frame. */
extern const Settings default_settings;

/* Bilateral results may differ from the double-precision reference by this
 * much (the kernels use float weights); box results must be exact. */
#define BILATERAL_TOLERANCE 1

/* A group of components filtered together, as documented for the element:
 * the components of one plane with one geometry. Written here from
 * GStreamer's format description, not taken from the element. */
typedef struct
{
  guint plane;
  gint width, height;
  gint pstride;                 /* bytes */
  gint channels;
  gint offset[4];               /* bytes */
  guint comp[4];
  guint dist_mask;
  guint x_sub, y_sub;
  gint own_radius;              /* -1: the settings' radii, scaled */
} Group;

/* The weight, out of s->feather + 1, of the filtered value of sample
 * (x, y) of a group subsampled by (xs, ys) under @s's regions
 * (ref_region_weight); s->feather + 1 without regions. */
guint region_weight (const Settings * s, const GstVideoInfo * info, gint x,
    gint y, guint xs, guint ys);

/* Whether that sample takes some of the filtered value (weight > 0). */
gboolean selected (const Settings * s, const GstVideoInfo * info, gint x,
    gint y, guint xs, guint ys);

/* Fills @groups (GST_VIDEO_MAX_COMPONENTS of them) and returns how many;
 * alpha is left out with @preserve_alpha. */
guint make_groups (const GstVideoInfo * info, gboolean preserve_alpha,
    Group * groups);

/* The groups under @s: chroma and alpha with a radius of their own
 * (Settings.chroma_radius, alpha_radius) form groups apart, and those
 * left untouched (radius 0, preserve_alpha) none. */
guint make_groups_with (const GstVideoInfo * info, const Settings * s,
    Group * groups);

/* The radii of @n box passes approximating a Gaussian of @sigma (W. Wells,
 * P. Kovesi), written here from the formula, not taken from the engine. */
void gaussian_box_radii (gdouble sigma, guint n, guint * radii);

/* Samples of @info: reading, writing, addressing. */
guint read_sample (const GstVideoInfo * info, const guint8 * p);
void write_sample (const GstVideoInfo * info, guint8 * p, guint v);
guint8 *sample_ptr (const GstVideoFrame * f, const Group * g, gint x, gint y,
    gint c);

/* Group @g of @f as width x height x channels samples (g_free them). */
guint16 *extract (const GstVideoFrame * f, const Group * g);

/* A frame of random valid samples (and random padding). @pad > 0 adds that
 * many bytes to each plane's rows, described with a GstVideoMeta. @pattern
 * other than NULL fills sample (x, y, c) with pattern (x, y, c, max). */
typedef guint (*PatternFunc) (gint x, gint y, gint c, guint max);

GstBuffer *make_frame_with (const GstVideoInfo * info, guint pad,
    guint32 seed, PatternFunc pattern);
GstBuffer *make_frame (const GstVideoInfo * info, guint pad, guint32 seed);

/* The radius the element documents bilateral to use for @r (in a plane's
 * pixels) and @sigma_spatial: at most 63 and ceil (3 sigma) (sigma 0: no
 * such bound). check_frame applies it. */
guint bilateral_radius (guint r, gdouble sigma_spatial);

/* Checks @out against the reference applied to @in under @s: every group's
 * samples (exact for box methods, within BILATERAL_TOLERANCE for bilateral)
 * and every byte no group covers (alpha with preserve-alpha, the x of RGBx)
 * unchanged. A failure names the format, size, settings, component and
 * position, both values and the tolerance. */
void check_frame (const GstVideoInfo * info, GstBuffer * in, GstBuffer * out,
    const Settings * s);

/* The value fill writes into component @comp of @info for @argb, from
 * the definitions: R, G, B, A scaled to the depth (v max / 255 rounded);
 * YUV and grey through ref_rgb_to_yuv with the Kr, Kb of the caps' matrix
 * (a table here; BT.601 where there is none) and their range. */
guint fill_reference (const GstVideoInfo * info, guint comp, guint32 argb);

/* Sets @s on the element of @h. */
void apply_settings (GstHarness * h, const Settings * s);

/* Fills @info for @format at @width x @height and sets it as @h's caps. */
void set_format (GstHarness * h, GstVideoInfo * info, const gchar * format,
    gint width, gint height);

/* Pushes @in (taking it) through @h with settings @s and checks the
 * result. */
void push_buffer_and_check (GstHarness * h, const GstVideoInfo * info,
    GstBuffer * in, const Settings * s);

/* The same with a random frame seeded from @s and @pad. */
void push_settings_and_check (GstHarness * h, const GstVideoInfo * info,
    guint pad, const Settings * s);

/* The box blur with the given radii (@ry < 0: @rx) and border, other
 * settings default. */
void push_and_check (GstHarness * h, const GstVideoInfo * info, guint pad,
    guint rx, gint ry, RefBorder border);

/* The teardown fixture. Harnesses and pipelines made by these functions
 * belong to the running test: a failing check leaves the test at once
 * (CK_FORK=no), and the fixture then sets what the test left to NULL and
 * frees it, so that no streaming thread is left to hang the next test or
 * the suite's exit. It also unsets the variables the tests set to steer
 * the element (CLBOXBLUR_FAULT, CLBOXBLUR_KERNEL_PATH, CLBOXBLUR_ZERO_COPY
 * and CLBOXBLUR_MAX_ALLOC), so that one failure does not spill into the next
 * test. */
/* gstclpool.h: what the element's pool memory calls itself */
#define CL_BLUR_MEMORY_TYPE "CLBlurMemory"

/* The pool the element's sink pad proposes for @h's caps (checked: video
 * meta offered, large enough), configured with GstVideoMeta and active. */
GstBufferPool *blurcheck_proposed_pool (GstHarness * h,
    const GstVideoInfo * info);

/* Field @field (0: the frame's even rows) of @buf, an interlaced frame of
 * @info, copied out as a progressive frame of @finfo (half the height). */
GstBuffer *blurcheck_field_of (const GstVideoInfo * info,
    const GstVideoInfo * finfo, GstBuffer * buf, guint field);
/* The first row of field @field at or below frame row @y: a field row is
 * filtered where its frame row is. */
gint blurcheck_field_row (gint y, guint field);

void blurcheck_add_fixture (TCase * tc);

/* gst_harness_new () and gst_harness_new_parse (), tracked by the fixture;
 * free with blurcheck_harness_teardown (). */
GstHarness *blurcheck_harness_new (const gchar * element_name);
GstHarness *blurcheck_harness_new_parse (const gchar * launchline);
void blurcheck_harness_teardown (GstHarness * h);

/* gst_parse_launch (), failing the test on error, tracked by the fixture;
 * the caller's reference: set to NULL and free with blurcheck_release (). */
GstElement *blurcheck_launch (const gchar * desc);
void blurcheck_release (GstElement * pipeline);

/* main () of an element test: the suite @name##_suite () run when an
 * OpenCL platform is there, else skipped or failed (clcheck.h). */
#define BLURCHECK_MAIN(name)                                            \
  int                                                                   \
  main (int argc, char **argv)                                          \
  {                                                                     \
    gint ret;                                                           \
                                                                        \
    gst_check_init (&argc, &argv);                                      \
    ret = clcheck_require_platform ();                                  \
    if (ret != 0)                                                       \
      return ret;                                                       \
    return gst_check_run_suite (name##_suite (), #name, __FILE__);      \
  }
