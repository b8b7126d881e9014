/* clboxblur engine: runs the blur methods on one plane of a frame.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "engine.h"

struct _ClbEngine
{
  ClbRuntime *rt;               /* not owned */
  cl_command_queue queue;

  cl_kernel sat_scan_rows;
  cl_kernel sat_scan_columns;
  cl_kernel sat_box;

  guint width, height, channels;
  cl_mem pixels;                /* packed plane: the input, then the result */
  cl_mem sat;                   /* one uint per sample */
};

#define CHECK(expr, what) G_STMT_START {                      \
    cl_int e_ = (expr);                                       \
    if (e_ != CL_SUCCESS) {                                   \
      clb_set_cl_error (error, e_, what);                     \
      goto failed;                                            \
    }                                                         \
  } G_STMT_END

#define SET_ARG(kernel, idx, value)                                     \
  CHECK (clSetKernelArg (kernel, idx, sizeof (value), &(value)),        \
      "clSetKernelArg (" #kernel ", " #idx ")")

ClbEngine *
clb_engine_new (ClbRuntime * rt, GError ** error)
{
  ClbEngine *engine = g_new0 (ClbEngine, 1);

  engine->rt = rt;
  engine->queue = clb_runtime_get_queue (rt);

  engine->sat_scan_rows = clb_runtime_create_kernel (rt, "sat_scan_rows",
      error);
  if (!engine->sat_scan_rows)
    goto failed;
  engine->sat_scan_columns = clb_runtime_create_kernel (rt,
      "sat_scan_columns", error);
  if (!engine->sat_scan_columns)
    goto failed;
  engine->sat_box = clb_runtime_create_kernel (rt, "sat_box", error);
  if (!engine->sat_box)
    goto failed;

  return engine;

failed:
  clb_engine_free (engine);
  return NULL;
}

static void
release_buffers (ClbEngine * engine)
{
  clb_runtime_release_buffer (&engine->sat);
  clb_runtime_release_buffer (&engine->pixels);
  engine->width = engine->height = engine->channels = 0;
}

void
clb_engine_free (ClbEngine * engine)
{
  if (engine == NULL)
    return;

  if (engine->queue)
    clFinish (engine->queue);
  clb_runtime_release_kernel (&engine->sat_box);
  clb_runtime_release_kernel (&engine->sat_scan_columns);
  clb_runtime_release_kernel (&engine->sat_scan_rows);
  release_buffers (engine);
  g_free (engine);
}

gboolean
clb_engine_set_size (ClbEngine * engine, guint width, guint height,
    guint channels, GError ** error)
{
  gsize samples;
  cl_int w = width, h = height, cn = channels;

  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (channels >= 1 && channels <= 4, FALSE);
  g_return_val_if_fail (width <= G_MAXINT / channels, FALSE);

  release_buffers (engine);

  samples = (gsize) width * height * channels;
  engine->pixels = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_WRITE,
      samples, error);
  if (!engine->pixels)
    goto failed;
  engine->sat = clb_runtime_create_buffer (engine->rt, CL_MEM_READ_WRITE,
      samples * sizeof (cl_uint), error);
  if (!engine->sat)
    goto failed;

  /* Arguments that only change with the size. */
  SET_ARG (engine->sat_scan_rows, 0, engine->pixels);
  SET_ARG (engine->sat_scan_rows, 1, engine->sat);
  SET_ARG (engine->sat_scan_rows, 2, w);
  SET_ARG (engine->sat_scan_rows, 3, h);
  SET_ARG (engine->sat_scan_rows, 4, cn);

  SET_ARG (engine->sat_scan_columns, 0, engine->sat);
  SET_ARG (engine->sat_scan_columns, 1, w);
  SET_ARG (engine->sat_scan_columns, 2, h);
  SET_ARG (engine->sat_scan_columns, 3, cn);

  SET_ARG (engine->sat_box, 0, engine->sat);
  SET_ARG (engine->sat_box, 1, engine->pixels);
  SET_ARG (engine->sat_box, 2, w);
  SET_ARG (engine->sat_box, 3, h);
  SET_ARG (engine->sat_box, 4, cn);

  engine->width = width;
  engine->height = height;
  engine->channels = channels;
  return TRUE;

failed:
  release_buffers (engine);
  return FALSE;
}

static gboolean
run_sat (ClbEngine * engine, const ClbParams * params, GError ** error)
{
  size_t rows[2] = { engine->channels, engine->height };
  size_t columns[1] = { (size_t) engine->width * engine->channels };
  size_t pixels[2] = { engine->width, engine->height };
  cl_int rx = MIN (params->radius_x, CLB_MAX_RADIUS);
  cl_int ry = MIN (params->radius_y, CLB_MAX_RADIUS);
  cl_int border = params->border;

  SET_ARG (engine->sat_box, 5, rx);
  SET_ARG (engine->sat_box, 6, ry);
  SET_ARG (engine->sat_box, 7, border);

  CHECK (clEnqueueNDRangeKernel (engine->queue, engine->sat_scan_rows, 2,
          NULL, rows, NULL, 0, NULL, NULL),
      "clEnqueueNDRangeKernel (sat_scan_rows)");
  CHECK (clEnqueueNDRangeKernel (engine->queue, engine->sat_scan_columns, 1,
          NULL, columns, NULL, 0, NULL, NULL),
      "clEnqueueNDRangeKernel (sat_scan_columns)");
  CHECK (clEnqueueNDRangeKernel (engine->queue, engine->sat_box, 2, NULL,
          pixels, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel (sat_box)");
  return TRUE;

failed:
  return FALSE;
}

gboolean
clb_engine_process (ClbEngine * engine, const ClbParams * params,
    const guint8 * src, gsize src_stride, guint8 * dst, gsize dst_stride,
    GError ** error)
{
  gsize row_bytes = (gsize) engine->width * engine->channels;
  size_t origin[3] = { 0, 0, 0 };
  size_t region[3] = { row_bytes, engine->height, 1 };

  g_return_val_if_fail (engine->pixels != NULL, FALSE);
  g_return_val_if_fail (src_stride >= row_bytes && dst_stride >= row_bytes,
      FALSE);

  if (params->method != CLB_METHOD_SAT) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
        "method %d is not implemented", params->method);
    return FALSE;
  }

  /* Blocking copies: the caller's memory must not be touched after we
   * return, and it is only valid until then. */
  CHECK (clEnqueueWriteBufferRect (engine->queue, engine->pixels, CL_TRUE,
          origin, origin, region, row_bytes, 0, src_stride, 0, src, 0, NULL,
          NULL), "clEnqueueWriteBufferRect");

  if (!run_sat (engine, params, error))
    goto failed;

  CHECK (clEnqueueReadBufferRect (engine->queue, engine->pixels, CL_TRUE,
          origin, origin, region, row_bytes, 0, dst_stride, 0, dst, 0, NULL,
          NULL), "clEnqueueReadBufferRect");
  return TRUE;

failed:
  /* Nothing may still be running against the caller's memory. */
  clFinish (engine->queue);
  return FALSE;
}
