/* clboxblur: the kernels of new settings readied away from the stream.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>

#include "clblur/engine.h"

G_BEGIN_DECLS

typedef struct _GstCLWarm GstCLWarm;

/* @rt and @engine NULL (PoCL, which compiles a kernel at its first
 * launch): warm-ups in a process of their own; else the stream's runtime
 * and engine, whose new programs a thread builds. */
GstCLWarm *gst_cl_warm_new (GstElement * element, ClbRuntime * rt,
    ClbEngine * engine);
/* Ends a warm-up still running (cancelled, then waited for). */
void gst_cl_warm_free (GstCLWarm * warm);
/* New caps or a new device: nothing is warm, and the next frame's
 * settings are taken as they are (the first frame compiles in the
 * stream, as at the start). */
void gst_cl_warm_reset (GstCLWarm * warm);

/* Whether a frame may run @params and @jobs now: TRUE for the first frame
 * after a reset, for what ran before (or was warmed up, or built) and
 * where upstream is not live; otherwise FALSE, and unless one is running
 * already, a warm-up starts: on PoCL gst-launch-1.0 runs one black frame
 * of the stream's caps through the element with its properties, in a
 * process of its own, and the driver's cache keeps what it compiled;
 * elsewhere a thread builds the programs the frame needs. The caller
 * keeps the settings it had until this says TRUE. */
gboolean gst_cl_warm_ready (GstCLWarm * warm, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs);

G_END_DECLS
