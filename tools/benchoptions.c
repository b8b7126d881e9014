/* clboxblur-bench: the command line.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "benchoptions.h"

/* The methods asked for, and the values --memory and --content take;
 * 0, or 2 with the error printed. */
static gint
check_options (BenchOptions * o)
{
  if (o->sat || (!o->separable && !o->bilateral && !o->mosaic && !o->fill
          && !o->temporal))
    o->methods[o->n_methods++] = CLB_METHOD_SAT;
  if (o->separable || (!o->sat && !o->bilateral && !o->mosaic && !o->fill
          && !o->temporal))
    o->methods[o->n_methods++] = CLB_METHOD_SEPARABLE;
  if (o->bilateral)
    o->methods[o->n_methods++] = CLB_METHOD_BILATERAL;
  if (o->mosaic)
    o->methods[o->n_methods++] = CLB_METHOD_MOSAIC;
  if (o->fill)
    o->methods[o->n_methods++] = CLB_METHOD_FILL;
  if (o->temporal)
    o->methods[o->n_methods++] = CLB_METHOD_TEMPORAL;
  if (!o->timing && !o->check)
    o->timing = TRUE;
  if (o->memory && !g_str_equal (o->memory, "pageable")) {
    if (!g_str_equal (o->memory, "pinned")) {
      g_printerr ("--memory: pageable or pinned, not '%s'\n", o->memory);
      return 2;
    }
    o->pinned = TRUE;
  }
  if (o->content && !g_str_equal (o->content, "random")
      && !g_str_equal (o->content, "grey")
      && !g_str_equal (o->content, "flat")) {
    g_printerr ("--content: random, grey or flat, not '%s'\n", o->content);
    return 2;
  }
  return 0;
}

/* Parses the command line into @o; 0 when the bench is to run, else the
 * exit status (2: a bad option; 0 after --version). */
gint
bench_parse_options (gint * argc, gchar *** argv, BenchOptions * o)
{
  GOptionEntry entries[] = {
    {"width", 'x', 0, G_OPTION_ARG_INT, &o->filter_width,
        "Filter width (2 radius + 1); overrides --radii", "N"},
    {"sat", 0, 0, G_OPTION_ARG_NONE, &o->sat, "Summed-area-table box", NULL},
    {"separable", 0, 0, G_OPTION_ARG_NONE, &o->separable,
        "Separable box (running sums)", NULL},
    {"bilateral", 0, 0, G_OPTION_ARG_NONE, &o->bilateral, "Bilateral", NULL},
    {"temporal", 0, 0, G_OPTION_ARG_NONE, &o->temporal, "Temporal (each "
          "frame a first one: the history reset)", NULL},
    {"history", 0, 0, G_OPTION_ARG_NONE, &o->history, "With --temporal: "
          "the history kept from frame to frame, warm-up included (the "
          "same input each frame; --verify's reference runs as many)", NULL},
    {"mosaic", 0, 0, G_OPTION_ARG_NONE, &o->mosaic, "Mosaic, blocks of "
          "2 radius pixels (the radius column shows the radius)", NULL},
    {"fill", 0, 0, G_OPTION_ARG_NONE, &o->fill, "Solid fill (0)", NULL},
    {"iterations", 'i', 0, G_OPTION_ARG_INT, &o->iterations,
        "Timed runs per case, after 3 warm-up runs (default 20)", "N"},
    {"timing", 't', 0, G_OPTION_ARG_NONE, &o->timing,
        "Print the timing table (default unless --verify)", NULL},
    {"verify", 'e', 0, G_OPTION_ARG_NONE, &o->check,
        "Compare each result with the plain-C reference", NULL},
    {"device", 0, 0, G_OPTION_ARG_STRING, &o->device,
        "cpu, gpu, accelerator or default", "TYPE"},
    {"platformId", 'p', 0, G_OPTION_ARG_INT, &o->platform,
        "OpenCL platform index (-1: first with a device)", "N"},
    {"deviceId", 'd', 0, G_OPTION_ARG_INT, &o->device_index,
        "Device index on the platform", "N"},
    {"dump", 0, 0, G_OPTION_ARG_FILENAME, &o->dump,
        "Write the program binaries to DIR", "DIR"},
    {"load", 0, 0, G_OPTION_ARG_FILENAME, &o->load,
        "Build from the program binaries in DIR (fails if missing)", "DIR"},
    {"flags", 0, 0, G_OPTION_ARG_STRING, &o->flags,
        "OpenCL compiler options", "FLAGS"},
    {"regions", 0, 0, G_OPTION_ARG_INT, &o->regions, "Filter only N "
          "regions: one large, the others small, some overlapping, some "
          "past the frame's edges (default 0: the whole frame)", "N"},
    {"shape", 0, 0, G_OPTION_ARG_STRING, &o->shape, "With --regions: "
          "rectangle or ellipse", "SHAPE"},
    {"feather", 0, 0, G_OPTION_ARG_INT, &o->feather, "With --regions: the "
          "feather in pixels", "PIXELS"},
    {"invert", 0, 0, G_OPTION_ARG_NONE, &o->invert, "With --regions: "
          "filter outside them", NULL},
    {"sizes", 0, 0, G_OPTION_ARG_STRING, &o->sizes,
        "Frame sizes (default 1920x1080,3840x2160)", "WxH,..."},
    {"formats", 0, 0, G_OPTION_ARG_STRING, &o->formats,
        "RGBA, RGB, GRAY8, NV12, YUY2, A420, I420 (default RGBA,NV12)", "F,..."},
    {"radii", 0, 0, G_OPTION_ARG_STRING, &o->radii,
        "Radii (default 2,15,50)", "R,..."},
    {"passes", 0, 0, G_OPTION_ARG_INT, &o->passes, "Box passes (default 1)",
        "N"},
    {"warm-up", 0, 0, G_OPTION_ARG_INT, &o->warmup,
        "Untimed runs before the timed ones (default 3; 0 under a "
        "simulator: scripts/oclgrind-check.sh)", "N"},
    {"border", 0, 0, G_OPTION_ARG_STRING, &o->border,
        "shrink, replicate or reflect (default shrink)", "B"},
    {"sigma-spatial", 0, 0, G_OPTION_ARG_DOUBLE, &o->sigma_spatial,
        "Bilateral spatial sigma (default 3)", "S"},
    {"sigma-range", 0, 0, G_OPTION_ARG_DOUBLE, &o->sigma_range,
        "Bilateral range sigma (default 30)", "S"},
    {"content", 0, 0, G_OPTION_ARG_STRING, &o->content,
        "The frames' samples: random (every byte, default), grey (a random "
        "value per pixel in all its channels: R=G=B noise) or flat (all 0)",
        "random|grey|flat"},
    {"floor", 0, 0, G_OPTION_ARG_NONE, &o->floor_only,
        "Print the memory floor of each size and format (memcpy of the "
        "frame: one read and one write) and exit", NULL},
    {"memory", 0, 0, G_OPTION_ARG_STRING, &o->memory,
        "Frames in pageable host memory (g_malloc, default) or pinned "
        "(CL_MEM_ALLOC_HOST_PTR buffers kept mapped, as clboxblur's buffer "
        "pool gives)", "pageable|pinned"},
    {"mask", 0, 0, G_OPTION_ARG_NONE, &o->mask,
        "Formats with alpha (RGBA, A420): each method A/B, alternating "
        "frame by frame, plain and with alpha as the foreground mask "
        "(the element's alpha-mask); prints both rows and the ratio", NULL},
    {"mask-only", 0, 0, G_OPTION_ARG_NONE, &o->mask_only,
        "With --mask: the masked runs alone, no plain ones (under a "
        "simulator: scripts/oclgrind-check.sh, one set of buffers a "
        "process)", NULL},
    {"mask-feather", 0, 0, G_OPTION_ARG_INT, &o->mask_feather,
        "With --mask: the mask's feather radius (default 0)", "N"},
    {"kernels", 'k', 0, G_OPTION_ARG_NONE, &o->kernels,
        "After each row, each kernel's time per frame on the device's clock "
        "(the engine then waits for every kernel: the row's own time grows)",
        NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "No output but errors",
        NULL},
    {"version", 'v', 0, G_OPTION_ARG_NONE, &o->version, "Print the version",
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- time clboxblur's engine");
  GError *err = NULL;

  memset (o, 0, sizeof (*o));
  o->iterations = 20;
  o->platform = -1;
  o->passes = 1;
  o->warmup = WARMUP;
  o->sigma_spatial = 3.0;
  o->sigma_range = 30.0;
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, argc, argv, &err)) {
    g_printerr ("%s\n", err->message);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  if (o->version) {
    g_print ("clboxblur-bench %s\n", VERSION);
    return -1;
  }
  return check_options (o);
}
