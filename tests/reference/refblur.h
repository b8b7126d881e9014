/* Plain-C reference blur for clboxblur's tests and benchmarks.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from the definitions, independently of the OpenCL kernels, and
 * kept out of gst/ so it shares no code (and no bugs) with the element.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef enum {
  REF_BORDER_SHRINK,      /* window clipped to the frame */
  REF_BORDER_REPLICATE,   /* aaa|abcd|ddd */
  REF_BORDER_REFLECT,     /* cb|abcd|cb, period 2 (n - 1) */
} RefBorder;

/* Maps an index of the extended line to a sample of a line of @len
 * samples, or -1 when the sample is outside and @border is SHRINK. */
int ref_border_index (int i, int len, RefBorder border);

/* Box blur of a plane of @width x @height pixels of @channels interleaved
 * 8-bit samples: each output sample is the mean of the
 * (2 rx + 1) x (2 ry + 1) window, rounded to nearest ((sum + n / 2) / n).
 * Returns 0, or -1 when out of memory. */
int ref_box_blur_u8 (const uint8_t * src, size_t src_stride, uint8_t * dst,
    size_t dst_stride, int width, int height, int channels, int rx, int ry,
    RefBorder border);
