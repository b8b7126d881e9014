/* libFuzzer target for clboxblur
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each input is decoded into a small scenario: a format the element takes,
 * a size up to 64x64, padded rows described by a GstVideoMeta, every effect
 * property, region-of-interest metas, sometimes a buffer shorter than its
 * layout needs, and the frame bytes. One GstHarness, built once, carries
 * every input (an OpenCL context per input would be far too slow). The only
 * checks: no crash or sanitizer report, gst_harness_push returns OK,
 * NOT_NEGOTIATED or ERROR, and an output buffer holds the caps' frame size.
 *
 * Input layout (missing bytes read as 0):
 *   0  format (index into formats[])      1  width - 1 (% 64)
 *   2  height - 1 (% 64)                  3  extra bytes per row (% 32)
 *   4  radius (% 41)                      5  radius-y + 1 (% 42)
 *   6  method (% 5)                       7  border (% 3)
 *   8  passes - 1 (% 3)
 *   9  sigma-spatial (0..255 -> 0..100)  10  sigma-range (likewise)
 *  11  flags: 0 preserve-alpha, 1 region-invert, 2 roi-meta,
 *      3 roi-type=face, 4 video meta even without padding, 5 undersized,
 *      6-7 buffers - 1 (% 3)
 *  12..15  region-x, -y, -width, -height (% 81)
 *  16  roi-padding (% 11)                17  ROI metas (% 4)
 *  18..32  3 ROI metas of 5 bytes: kind (bits 0-1 type, bit 2 x and y near
 *      G_MAXUINT), x, y, w, h
 *  33  how short an undersized buffer is (fraction of 256)
 *  34  later buffers: 0 new radius, 1 next method, 2 toggle region-invert,
 *      3 toggle preserve-alpha
 *  35  that radius (% 41)
 *  36  block-size / 2 - 1 (% 32)           37  roi-hold (% 4)
 *  38  flags: 0 roi-fail-closed, 1 roi-type=face,plate (a list)
 *  39  fill-color's grey level (opaque)
 *  40..  frame bytes, repeated to fill the buffer
 * Bilateral scenarios are shrunk to a bounded cost (limit_bilateral).
 *
 * Environment: GST_PLUGIN_PATH_1_0 (the folder with the plugin under test),
 * GST_REGISTRY, CLBOXBLUR_CACHE_DIR and the PoCL variables are the caller's.
 * GST_REGISTRY_FORK defaults to "no" so that a sanitizer-built plugin is
 * loaded into this (sanitizer-built) process rather than into
 * gst-plugin-scanner, which has no sanitizer runtime.
 * Seeds tests/fuzz/corpus/yv12-undersized-pad and
 * rgba-passthrough-then-empty reproduce the two bugs this target found (a
 * video meta whose planes ran past the buffer's end was copied past it; a
 * 0-byte buffer after negotiating in passthrough aborted); the element now
 * drops such buffers, and the seeds keep them fixed.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "gstcllayout.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

/* Every format in the element's pad templates. */
static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB,
  GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_A420,
  GST_VIDEO_FORMAT_AYUV, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY,
  GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_GRAY16_BE,
  GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I422_10LE,
  GST_VIDEO_FORMAT_Y444_10LE,
};

static const gchar *roi_types[] = { "face", "plate", "person", "" };

#define HEADER_SIZE 40
#define MAX_ROIS 3

typedef struct
{
  GstVideoFormat format;
  gint width, height;
  guint pad;
  guint radius;
  gint radius_y;
  gint method, border;
  guint passes;
  gdouble sigma_spatial, sigma_range;
  gboolean preserve_alpha, region_invert, roi_meta, roi_face;
  gboolean meta_always, undersized;
  guint n_buffers;
  guint region[4];
  guint roi_padding;
  guint block_size, roi_hold, fill_color;
  gboolean roi_fail_closed, roi_list;
  guint n_rois;
  struct
  {
    const gchar *type;
    guint x, y, w, h;
  } rois[MAX_ROIS];
  guint short_by;
  guint later;
  guint radius2;
  const guint8 *frame;
  gsize frame_size;
} Scenario;

static GstHarness *harness;
static GstClockTime next_pts;

static guint8
byte_at (const uint8_t * data, size_t size, size_t i)
{
  return i < size ? data[i] : 0;
}

static void
decode (const uint8_t * data, size_t size, Scenario * s)
{
#define B(i) byte_at (data, size, (i))
  guint8 flags = B (11);
  guint i;

  memset (s, 0, sizeof (*s));
  s->format = formats[B (0) % G_N_ELEMENTS (formats)];
  s->width = 1 + B (1) % 64;
  s->height = 1 + B (2) % 64;
  s->pad = B (3) % 32;
  s->radius = B (4) % 41;
  s->radius_y = (gint) (B (5) % 42) - 1;
  s->method = B (6) % 5;
  s->border = B (7) % 3;
  s->passes = 1 + B (8) % 3;
  s->sigma_spatial = B (9) * 100.0 / 255.0;
  s->sigma_range = B (10) * 100.0 / 255.0;
  s->preserve_alpha = (flags & 0x01) != 0;
  s->region_invert = (flags & 0x02) != 0;
  s->roi_meta = (flags & 0x04) != 0;
  s->roi_face = (flags & 0x08) != 0;
  s->meta_always = (flags & 0x10) != 0;
  s->undersized = (flags & 0x20) != 0;
  s->n_buffers = 1 + (flags >> 6) % 3;
  for (i = 0; i < 4; i++)
    s->region[i] = B (12 + i) % 81;
  s->roi_padding = B (16) % 11;
  s->block_size = 2 * (1 + B (36) % 32);
  s->roi_hold = B (37) % 4;
  s->roi_fail_closed = (B (38) & 0x01) != 0;
  s->roi_list = (B (38) & 0x02) != 0;
  s->fill_color = 0xff000000u | B (39) * 0x010101u;
  s->n_rois = B (17) % (MAX_ROIS + 1);
  for (i = 0; i < MAX_ROIS; i++) {
    guint8 kind = B (18 + 5 * i);

    s->rois[i].type = roi_types[kind & 3];
    s->rois[i].x = B (19 + 5 * i);
    s->rois[i].y = B (20 + 5 * i);
    s->rois[i].w = B (21 + 5 * i);
    s->rois[i].h = B (22 + 5 * i);
    if (kind & 4) {
      /* far outside the frame: the padding and clipping must not wrap */
      s->rois[i].x = G_MAXUINT - s->rois[i].x;
      s->rois[i].y = G_MAXUINT - s->rois[i].y;
    }
  }
  s->short_by = B (33);
  s->later = B (34);
  s->radius2 = B (35) % 41;
  if (size > HEADER_SIZE) {
    s->frame = data + HEADER_SIZE;
    s->frame_size = size - HEADER_SIZE;
  }
#undef B
}

/* The bilateral filter costs (2 rx + 1) (2 ry + 1) taps per pixel: at
 * radius 40 on 64x64 a frame takes about 0.4 s on PoCL. Keep every input
 * well under 100 ms by shrinking the frame (not the radius, so windows
 * larger than the frame stay reachable) to at most BILATERAL_TAPS taps in
 * all. */
#define BILATERAL_TAPS (1u << 19)

static void
limit_bilateral (Scenario * s)
{
  gboolean changes = s->n_buffers > 1;
  guint r = MAX (s->radius, changes && (s->later & 1) ? s->radius2 : 0);
  guint ry = s->radius_y < 0 ? r : (guint) s->radius_y;
  guint64 window = (guint64) (2 * r + 1) * (2 * ry + 1);

  if (s->method != 2 && !(changes && (s->later & 2)))
    return;
  while ((guint64) s->width * s->height * window > BILATERAL_TAPS) {
    if (s->width >= s->height)
      s->width = (s->width + 1) / 2;
    else
      s->height = (s->height + 1) / 2;
  }
}

static GstBuffer *
make_buffer (const Scenario * s, const GstVideoInfo * info, guint k)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  gboolean with_meta = s->pad > 0 || s->meta_always;
  gboolean add_meta;
  gsize needed = 0, alloc, i;
  GstBuffer *buf;
  GstMapInfo map;
  ClbPlanes planes;
  guint p;

  if (with_meta) {
    /* Rows as the element reads them (gst/gstcllayout.c). */
    gst_cl_layout_make_planes (info, &planes);
    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      offset[p] = needed;
      stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + s->pad;
      needed += (gsize) stride[p] * planes.plane_height[p];
    }
  } else {
    needed = GST_VIDEO_INFO_SIZE (info);
  }

  alloc = needed;
  if (s->undersized)
    alloc = needed * s->short_by / 256;     /* 0 .. needed - 1 */
  add_meta = with_meta;

  buf = gst_buffer_new_allocate (NULL, alloc, NULL);
  if (alloc > 0) {
    if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
      abort ();
    for (i = 0; i < alloc; i++) {
      map.data[i] = s->frame_size > 0 ?
          s->frame[(i + k * 131) % s->frame_size] : (guint8) (i * 31 + k);
    }
    gst_buffer_unmap (buf, &map);
  }

  if (add_meta)
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        offset, stride);

  for (p = 0; p < s->n_rois; p++)
    gst_buffer_add_video_region_of_interest_meta (buf, s->rois[p].type,
        s->rois[p].x, s->rois[p].y, s->rois[p].w, s->rois[p].h);

  GST_BUFFER_PTS (buf) = next_pts;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  next_pts += GST_SECOND / 30;
  return buf;
}

static void
apply_properties (const Scenario * s)
{
  g_object_set (harness->element,
      "radius", s->radius, "radius-y", s->radius_y,
      "method", s->method, "border", s->border, "passes", s->passes,
      "sigma-spatial", s->sigma_spatial, "sigma-range", s->sigma_range,
      "preserve-alpha", s->preserve_alpha,
      "region-x", s->region[0], "region-y", s->region[1],
      "region-width", s->region[2], "region-height", s->region[3],
      "region-invert", s->region_invert, "roi-meta", s->roi_meta,
      "roi-type", s->roi_list ? "face,plate" : s->roi_face ? "face" : NULL,
      "roi-padding", s->roi_padding, "block-size", s->block_size,
      "fill-color", s->fill_color, "roi-hold", s->roi_hold,
      "roi-fail-closed", s->roi_fail_closed, NULL);
}

/* Changes between the buffers of one input: properties that may change
 * while PLAYING. */
static void
apply_later (Scenario * s)
{
  if (s->later & 1)
    s->radius = s->radius2;
  if (s->later & 2)
    s->method = (s->method + 1) % 5;
  if (s->later & 4)
    s->region_invert = !s->region_invert;
  if (s->later & 8)
    s->preserve_alpha = !s->preserve_alpha;
  apply_properties (s);
}

static void
set_caps (const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps (info);
  GstSegment segment;

  /* As gst_harness_set_src_caps, without its assertion that the caps are
   * accepted: a refusal shows as NOT_NEGOTIATED on the next push. */
  gst_harness_push_event (harness, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (harness, gst_event_new_segment (&segment));
}

static void
drain (const GstVideoInfo * info, gboolean passthrough)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (harness)) != NULL) {
    /* Passthrough (radius 0) hands the input on as it came, whatever its
     * size (or a copy, to flag a DISCONT); anything else must be a whole
     * frame of the caps. */
    if (!passthrough
        && gst_buffer_get_size (out) < GST_VIDEO_INFO_SIZE (info)) {
      fprintf (stderr, "clboxblur fuzz: output of %" G_GSIZE_FORMAT
          " bytes for a %s %dx%d frame of %" G_GSIZE_FORMAT " bytes\n",
          gst_buffer_get_size (out), GST_VIDEO_INFO_NAME (info),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_SIZE (info));
      abort ();
    }
    gst_buffer_unref (out);
  }
}

/* Signals whose handlers PoCL's LLVM takes over when OpenCL starts (LLVM
 * prints its own stack dump and re-raises). libFuzzer installs its handlers
 * after LLVMFuzzerInitialize, but only where none is set, so without this
 * an abort() (a failed g_assert) would end the run without a crash report
 * or a saved input, and a SIGSEGV would bypass AddressSanitizer. SIGFPE is
 * left to PoCL: its handler steps over integer division by zero in kernels
 * on x86, as in production. */
static const int taken_signals[] = {
  SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGSEGV,
  SIGUSR1, SIGUSR2, SIGTERM, SIGXCPU, SIGXFSZ, SIGSYS,
};

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  struct sigaction saved[G_N_ELEMENTS (taken_signals)];
  GstElement *probe;
  GstStateChangeReturn ret;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (taken_signals); i++)
    sigaction (taken_signals[i], NULL, &saved[i]);

  /* Before gst_init: load plugins in this process (see the top). The
   * plugin path and the registry file are the caller's. */
  g_setenv ("GST_REGISTRY_FORK", "no", FALSE);
  gst_init (NULL, NULL);

  probe = gst_element_factory_make ("clboxblur", NULL);
  if (probe == NULL) {
    fprintf (stderr, "clboxblur fuzz: no clboxblur element; set "
        "GST_PLUGIN_PATH_1_0 to the folder holding libgstclboxblur.so "
        "(now '%s')\n", g_getenv ("GST_PLUGIN_PATH_1_0") ?
        g_getenv ("GST_PLUGIN_PATH_1_0") : "");
    exit (1);
  }
  /* GstHarness asserts that the element starts; say why it would not. */
  ret = gst_element_set_state (probe, GST_STATE_PAUSED);
  gst_element_set_state (probe, GST_STATE_NULL);
  gst_object_unref (probe);
  if (ret == GST_STATE_CHANGE_FAILURE) {
    fprintf (stderr, "clboxblur fuzz: clboxblur does not start (no OpenCL "
        "platform or device? run with GST_DEBUG=clboxblur:4)\n");
    exit (1);
  }

  /* Caps and segment come with each input (set_caps). */
  harness = gst_harness_new ("clboxblur");

  /* OpenCL is up (LLVM registers its handlers once): give the signals back
   * to the sanitizers and libFuzzer. */
  for (i = 0; i < G_N_ELEMENTS (taken_signals); i++)
    sigaction (taken_signals[i], &saved[i], NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  Scenario s;
  GstVideoInfo info;
  guint k;

  decode (data, size, &s);
  limit_bilateral (&s);
  if (!gst_video_info_set_format (&info, s.format, s.width, s.height))
    abort ();

  apply_properties (&s);
  /* Whether the element is in passthrough when the caps come decides
   * whether it gets an output pool. It is the last buffer's decision, so
   * make it this input's, as if these properties had been set before:
   * each input then runs the same on its own as after any other. */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (harness->element),
      s.radius == 0 && s.radius_y <= 0);
  set_caps (&info);

  for (k = 0; k < s.n_buffers; k++) {
    GstBuffer *in;
    GstFlowReturn ret;

    if (k > 0)
      apply_later (&s);
    in = make_buffer (&s, &info, k);
    ret = gst_harness_push (harness, in);
    if (ret != GST_FLOW_OK && ret != GST_FLOW_NOT_NEGOTIATED
        && ret != GST_FLOW_ERROR) {
      fprintf (stderr, "clboxblur fuzz: push returned %s\n",
          gst_flow_get_name (ret));
      abort ();
    }
    /* as the element decides it in before_transform */
    drain (&info, s.radius == 0 && s.radius_y <= 0);
  }
  return 0;
}
