/* clboxblur: the frames queued on the device and not waited for.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame in OpenCL memory is queued and handed on with its memory
 * carrying the event of its end (gstclpool.c): nothing waits for it
 * unless something maps it. So that the host cannot run ahead of the
 * device without bound, a frame waits for the oldest of the frames still
 * running where GST_CL_FLIGHT_MAX are; the count comes from the events'
 * completion callbacks, so that no poll of their status (a host wait of
 * its own) is made. A frame that failed on the device is reported with
 * the next one.
 */
#include "gstclflight.h"

typedef struct
{
  gint refcount;
  gint running;                 /* frames queued and not complete */
  gint status;                  /* a failed frame's status, else 0 */
} State;

struct _GstCLFlight
{
  State *state;
  cl_event ring[GST_CL_FLIGHT_MAX];     /* the last frames' ends, oldest first */
  guint n;
};

static void
state_unref (State * s)
{
  if (g_atomic_int_dec_and_test (&s->refcount))
    g_free (s);
}

static void CL_CALLBACK
frame_done (cl_event event, cl_int status, void *data)
{
  State *s = data;

  if (status < 0)
    g_atomic_int_set (&s->status, status);
  g_atomic_int_add (&s->running, -1);
  state_unref (s);
}

GstCLFlight *
gst_cl_flight_new (void)
{
  GstCLFlight *f = g_new0 (GstCLFlight, 1);

  f->state = g_new0 (State, 1);
  f->state->refcount = 1;
  return f;
}

/* Releases the oldest event of the ring. */
static void
pop (GstCLFlight * f)
{
  guint i;

  clReleaseEvent (f->ring[0]);
  for (i = 1; i < f->n; i++)
    f->ring[i - 1] = f->ring[i];
  f->ring[--f->n] = NULL;
}

void
gst_cl_flight_free (GstCLFlight * f)
{
  if (f == NULL)
    return;
  if (f->n > 0)
    clWaitForEvents (f->n, f->ring);
  while (f->n > 0)
    pop (f);
  state_unref (f->state);
  g_free (f);
}

cl_int
gst_cl_flight_before (GstCLFlight * f)
{
  cl_int status;

  if (f->n == GST_CL_FLIGHT_MAX
      && g_atomic_int_get (&f->state->running) >= GST_CL_FLIGHT_MAX) {
    status = clWaitForEvents (1, f->ring);
    if (status != CL_SUCCESS)
      g_atomic_int_set (&f->state->status, status);
  }
  /* in order on one queue: with fewer running, the oldest is done */
  if (f->n == GST_CL_FLIGHT_MAX)
    pop (f);
  status = g_atomic_int_get (&f->state->status);
  if (status != 0)
    g_atomic_int_set (&f->state->status, 0);
  return status;
}

void
gst_cl_flight_after (GstCLFlight * f, cl_event done)
{
  g_return_if_fail (f->n < GST_CL_FLIGHT_MAX);

  clRetainEvent (done);
  f->ring[f->n++] = done;
  g_atomic_int_inc (&f->state->running);
  g_atomic_int_inc (&f->state->refcount);
  if (clSetEventCallback (done, CL_COMPLETE, frame_done, f->state)
      != CL_SUCCESS) {
    /* no callback: counted as done, the ring bounds what runs */
    g_atomic_int_add (&f->state->running, -1);
    state_unref (f->state);
  }
}
