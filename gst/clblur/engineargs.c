/* clboxblur engine: kernel arguments set in order, by an argument cursor.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "engineargs.h"
#include "runtime.h"

#include <string.h>

/* Values up to this size are remembered (the largest set is a cl_int4);
 * a larger one is set every time. */
#define KEPT_BYTES 16

typedef struct {
  gsize size;                   /* 0: not known */
  gboolean local;               /* __local memory of size bytes */
  cl_mem mem;                   /* a memory argument, retained; or NULL */
  guint8 value[KEPT_BYTES];
} ArgKept;

struct _ClbKernelKept
{
  guint n;
  ArgKept *args;
};

struct _ClbArgsKept
{
  GHashTable *kernels;          /* cl_kernel -> ClbKernelKept */
};

static void
arg_unknown (ArgKept * arg)
{
  clb_runtime_release_buffer (&arg->mem);
  arg->size = 0;
}

static void
kernel_kept_free (gpointer data)
{
  ClbKernelKept *k = data;
  guint i;

  for (i = 0; i < k->n; i++)
    arg_unknown (&k->args[i]);
  g_free (k->args);
  g_free (k);
}

ClbArgsKept *
clb_args_kept_new (void)
{
  ClbArgsKept *kept = g_new0 (ClbArgsKept, 1);

  kept->kernels = g_hash_table_new_full (NULL, NULL, NULL, kernel_kept_free);
  return kept;
}

void
clb_args_kept_free (ClbArgsKept * kept)
{
  if (kept == NULL)
    return;
  g_hash_table_destroy (kept->kernels);
  g_free (kept);
}

void
clb_args_kept_forget (ClbArgsKept * kept, cl_kernel kernel)
{
  if (kept && kernel)
    g_hash_table_remove (kept->kernels, kernel);
}

void
clb_args_kept_keep_mems (ClbArgsKept * kept, const cl_mem * keep, guint n)
{
  GHashTableIter iter;
  gpointer value;
  guint i, j;

  g_hash_table_iter_init (&iter, kept->kernels);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    ClbKernelKept *k = value;

    for (i = 0; i < k->n; i++) {
      if (k->args[i].mem == NULL)
        continue;
      for (j = 0; j < n && keep[j] != k->args[i].mem; j++);
      if (j == n)
        arg_unknown (&k->args[i]);
    }
  }
}

void
clb_args_kept_drop (ClbArgsKept * kept, cl_mem mem)
{
  GHashTableIter iter;
  gpointer value;
  guint i;

  if (kept == NULL || mem == NULL)
    return;
  g_hash_table_iter_init (&iter, kept->kernels);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    ClbKernelKept *k = value;

    for (i = 0; i < k->n; i++)
      if (k->args[i].mem == mem)
        arg_unknown (&k->args[i]);
  }
}

ClbArgs
clb_args (cl_kernel kernel)
{
  ClbArgs a = { kernel, NULL, 0, CL_SUCCESS, 0 };

  return a;
}

ClbArgs
clb_args_kept (ClbArgsKept * kept, cl_kernel kernel)
{
  ClbArgs a = clb_args (kernel);

  a.kept = g_hash_table_lookup (kept->kernels, kernel);
  if (a.kept == NULL) {
    a.kept = g_new0 (ClbKernelKept, 1);
    g_hash_table_insert (kept->kernels, kernel, a.kept);
  }
  return a;
}

/* @index's record in @k, made where there is none yet. */
static ArgKept *
arg_kept (ClbKernelKept * k, cl_uint index)
{
  if (index >= k->n) {
    guint n = MAX (index + 1, 2 * k->n);

    k->args = g_renew (ArgKept, k->args, n);
    memset (k->args + k->n, 0, (n - k->n) * sizeof (ArgKept));
    k->n = n;
  }
  return &k->args[index];
}

static void
set_arg (ClbArgs * a, gsize size, const void *value, gboolean is_mem)
{
  cl_uint index = a->next++;
  ArgKept *arg = NULL;
  cl_int err;

  if (a->err != CL_SUCCESS)
    return;
  /* a local argument's value is its size alone: kept at any size */
  if (a->kept && (size <= KEPT_BYTES || value == NULL)) {
    arg = arg_kept (a->kept, index);
    if (arg->size == size && arg->local == (value == NULL)
        && (value == NULL || memcmp (arg->value, value, size) == 0))
      return;                   /* set already */
    arg_unknown (arg);
  }
  /* the fault-injection hook, as for every OpenCL call */
  err = clb_fault ("clSetKernelArg");
  if (err == CL_SUCCESS)
    err = clSetKernelArg (a->kernel, index, size, value);
  if (err != CL_SUCCESS) {
    a->err = err;
    a->failed_at = index;
    return;
  }
  if (arg == NULL)
    return;
  arg->size = size;
  arg->local = value == NULL;
  if (value)
    memcpy (arg->value, value, size);
  if (is_mem && *(const cl_mem *) value != NULL) {
    /* held, so that no other object takes its handle while it is kept */
    if (clb_runtime_retain_buffer (*(const cl_mem *) value))
      arg->mem = *(const cl_mem *) value;
    else
      arg->size = 0;
  }
}

void
clb_arg (ClbArgs * a, gsize size, const void *value)
{
  set_arg (a, size, value, FALSE);
}

void
clb_arg_mem (ClbArgs * a, cl_mem mem)
{
  set_arg (a, sizeof (mem), &mem, TRUE);
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
clb_args_skip_kept (ClbArgs * a, guint n)
{
  guint i;

  if (a->kept == NULL || a->err != CL_SUCCESS || a->next + n > a->kept->n)
    return FALSE;
  for (i = 0; i < n; i++)
    if (a->kept->args[a->next + i].size == 0)
      return FALSE;
  a->next += n;
  return TRUE;
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
