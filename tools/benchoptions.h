/* clboxblur-bench: what the command line asks for.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "engine.h"

/* Untimed runs before the timed ones, by default. */
#define WARMUP 3

/* What the command line asks for. */
typedef struct
{
  gint filter_width, iterations, platform, device_index, passes, warmup;
  gboolean sat, separable, bilateral, mosaic, fill, temporal;
  gboolean history;             /* temporal: the history kept */
  gboolean timing, check, quiet, version, floor_only, kernels, pinned;
  gchar *memory, *device, *dump, *load, *flags;
  gchar *sizes, *formats, *radii, *border, *content;
  gdouble sigma_spatial, sigma_range;
  gint regions, feather;
  gchar *shape;
  gboolean invert;
  gboolean mask;                /* A/B: plain, then alpha as the mask */
  gboolean mask_only;           /* the masked runs alone */
  gint mask_feather;
  ClbMethod methods[5];
  guint n_methods;
} BenchOptions;

/* Parses the command line into @o; 0 when the bench is to run, -1 after
 * --version, else the exit status (2: a bad option). */
gint bench_parse_options (gint * argc, gchar *** argv, BenchOptions * o);
