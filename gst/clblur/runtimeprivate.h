/* clboxblur OpenCL runtime: what its files share, not for its callers.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * runtime.c: contexts, queues, programs, buffers: every clCreate*,
 * clBuild* and clRelease*; runtimedevice.c: finding the device the
 * properties name, and saying why none was found.
 */
#pragma once

#include "runtime.h"

G_BEGIN_DECLS

/* What the instances on one device share: the context and the programs
 * built for it. One per device, or per application context when the
 * application hands one in; a context made with extra properties (GL
 * sharing) is its runtime's alone. Refcounted, released with its last
 * runtime, so that starting a second element on a device costs a queue
 * and its kernels, not a context and a program build. */
/* at least clb_kernel_unit_count () */
#define CLB_MAX_UNITS 12

typedef struct
{
  gint refcount;                /* under shared_lock */
  gboolean registered;          /* in shared_list: later runtimes join it */
  gboolean app_context;         /* the context came from the application */
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  gchar *platform_name;
  gchar *device_name;
  GMutex build_lock;            /* one build at a time; the others wait */
  gchar *program_key;           /* what programs[] were built from */
  /* a program per sample size and unit (kernels/meson.build's cl_units),
   * built when first asked */
  cl_program programs[CLB_N_SAMPLE_SIZES][CLB_MAX_UNITS];
  gboolean cached[CLB_N_SAMPLE_SIZES][CLB_MAX_UNITS];  /* from the cache */
} ClbShared;

/* Each runtime has its own in-order queue: instances in other pipelines
 * then run side by side, and one instance's clFinish waits for its own
 * frames only. */
struct _ClbRuntime
{
  ClbShared *shared;
  cl_command_queue queue;
  cl_program programs[CLB_N_SAMPLE_SIZES][CLB_MAX_UNITS];  /* references */
  gchar **sources;              /* the kernels, once the build is asked */
  gchar *build_opts;            /* the options but the sample width */
  gchar *program_key;           /* build_opts and the sources' checksum */
  guint cached_programs;
  gboolean clang_extensions;    /* kernels built with CLB_CLANG_EXTENSIONS */
};

/* runtimedevice.c: fills @sh's platform, device and names with the device
 * of @type, @platform_index and @device_index, or sets @error saying what
 * was found and what to do. */
gboolean clb_runtime_select_device (ClbShared * sh, ClbDeviceType type,
    gint platform_index, gint device_index, GError ** error);
gchar *clb_platform_string (cl_platform_id platform, cl_platform_info param);
gchar *clb_device_string (cl_device_id device, cl_device_info param);

G_END_DECLS
