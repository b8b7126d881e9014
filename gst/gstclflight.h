/* clboxblur: the frames queued on the device and not waited for.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* At most this many frames queued and not known to be done. */
#define GST_CL_FLIGHT_MAX 2

typedef struct _GstCLFlight GstCLFlight;

GstCLFlight *gst_cl_flight_new (void);
/* Waits for the frames still running, then frees. */
void gst_cl_flight_free (GstCLFlight * flight);
/* Before a frame is queued: where GST_CL_FLIGHT_MAX frames are still
 * running, waits for the oldest. Returns the status of a frame that
 * failed since the last call (a negative OpenCL error), else CL_SUCCESS. */
cl_int gst_cl_flight_before (GstCLFlight * flight);
/* After: @done is the frame's end (a reference is taken). */
void gst_cl_flight_after (GstCLFlight * flight, cl_event done);

G_END_DECLS
