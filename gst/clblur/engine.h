/* clboxblur engine: runs the blur methods on one plane of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GLib and OpenCL only, no GStreamer types, so the tests and tools can drive
 * it directly. It owns the kernels and the size-dependent device buffers; the
 * runtime below it owns the device, context, queue and program.
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

/* Largest radius for which every box sum of 8-bit samples fits in the 32-bit
 * summed-area table: (2 * 2047 + 1)^2 * 255 = 4276101375 < 2^32, with room
 * left for the rounding term. */
#define CLB_MAX_RADIUS 2047

typedef struct {
  ClbMethod method;
  ClbBorder border;
  guint radius_x;
  guint radius_y;
} ClbParams;

typedef struct _ClbEngine ClbEngine;

ClbEngine *clb_engine_new (ClbRuntime * rt, GError ** error);
void clb_engine_free (ClbEngine * engine);

/* (Re)allocates the device buffers for planes of @width x @height pixels of
 * @channels interleaved 8-bit samples. Frees the previous ones first. */
gboolean clb_engine_set_size (ClbEngine * engine, guint width, guint height,
    guint channels, GError ** error);

/* Blurs one plane. Rows are @src_stride / @dst_stride bytes apart; both may
 * exceed width * channels. Returns when @dst holds the result. */
gboolean clb_engine_process (ClbEngine * engine, const ClbParams * params,
    const guint8 * src, gsize src_stride, guint8 * dst, gsize dst_stride,
    GError ** error);

G_END_DECLS
