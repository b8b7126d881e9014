/* clboxblur engine: kernel arguments set in order, by an argument cursor.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "engineargs.h"
#include "runtime.h"

ClbArgs
clb_args (cl_kernel kernel)
{
  ClbArgs a = { kernel, 0, CL_SUCCESS, 0 };

  return a;
}

void
clb_arg (ClbArgs * a, gsize size, const void *value)
{
  cl_uint index = a->next++;
  cl_int err;

  if (a->err != CL_SUCCESS)
    return;
  /* the fault-injection hook, as for every OpenCL call */
  err = clb_fault ("clSetKernelArg");
  if (err == CL_SUCCESS)
    err = clSetKernelArg (a->kernel, index, size, value);
  if (err != CL_SUCCESS) {
    a->err = err;
    a->failed_at = index;
  }
}

void
clb_arg_mem (ClbArgs * a, cl_mem mem)
{
  clb_arg (a, sizeof (mem), &mem);
}

void
clb_arg_int (ClbArgs * a, cl_int value)
{
  clb_arg (a, sizeof (value), &value);
}

void
clb_arg_int4 (ClbArgs * a, cl_int4 value)
{
  clb_arg (a, sizeof (value), &value);
}

void
clb_arg_float (ClbArgs * a, cl_float value)
{
  clb_arg (a, sizeof (value), &value);
}

void
clb_arg_local (ClbArgs * a, gsize size)
{
  clb_arg (a, size, NULL);
}

cl_uint
clb_args_count (const ClbArgs * a)
{
  return a->next;
}

gboolean
clb_args_done (const ClbArgs * a, GError ** error)
{
  gchar name[128] = "";
  gchar *what;

  if (a->err == CL_SUCCESS)
    return TRUE;
  if (clGetKernelInfo (a->kernel, CL_KERNEL_FUNCTION_NAME, sizeof (name),
          name, NULL) != CL_SUCCESS)
    g_strlcpy (name, "?", sizeof (name));
  what = g_strdup_printf ("clSetKernelArg (%s, argument %u)", name,
      a->failed_at);
  clb_set_cl_error (error, a->err, what);
  g_free (what);
  return FALSE;
}
