/* clboxblur engine: kernel arguments set in order, by an argument cursor.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each call sets the kernel's next argument, so a kernel's arguments read
 * as its signature does and adding one means adding one call, never
 * renumbering (as FFmpeg's CL_SET_KERNEL_ARG series). The first failure is
 * kept and the calls after it do nothing; clb_args_done reports it:
 *
 *   ClbArgs a = clb_args (kernel);
 *   clb_arg_mem (&a, buffer);
 *   clb_arg_int (&a, width);
 *   if (!clb_args_done (&a, error))
 *     goto failed;
 *
 * A copy of a cursor goes on from where the copy was made: arguments that
 * change between launches (the parts of a long row) come last, set from a
 * copy taken after the fixed ones.
 *
 * A cursor made by clb_args_kept sets an argument only where it changed
 * (issue 40: a frame set 28 for two launches that had all their arguments
 * already): a ClbArgsKept remembers, per kernel object and argument index,
 * the size and bytes last set (local memory, value NULL, by its size).
 * A memory object it remembers is retained, so a handle that compares
 * equal is the same object, never a new one at a freed one's address;
 * clb_args_kept_keep_mems lets go of all but the ones named. A kernel's
 * arguments must be set only through its ClbArgsKept (one owner, one
 * thread at a time), and clb_args_kept_forget called before the kernel
 * is released.
 */
#pragma once

#include <glib.h>
#include <CL/cl.h>

G_BEGIN_DECLS

typedef struct _ClbArgsKept ClbArgsKept;
typedef struct _ClbKernelKept ClbKernelKept;

typedef struct {
  cl_kernel kernel;
  ClbKernelKept *kept;   /* the kernel's arguments as last set; NULL: none */
  cl_uint next;          /* the index the next call sets */
  cl_int err;            /* the first failure; CL_SUCCESS until one */
  cl_uint failed_at;     /* the index that failed */
} ClbArgs;

ClbArgs clb_args (cl_kernel kernel);
/* A cursor that skips the arguments @kept knows to be set already. */
ClbArgs clb_args_kept (ClbArgsKept * kept, cl_kernel kernel);
ClbArgsKept *clb_args_kept_new (void);
/* Releases the memory objects it holds. */
void clb_args_kept_free (ClbArgsKept * kept);
/* Forgets @kernel's arguments (before it is released). */
void clb_args_kept_forget (ClbArgsKept * kept, cl_kernel kernel);
/* Forgets, and releases, @mem where it is kept (before its owner releases
 * it, so that it goes at once). */
void clb_args_kept_drop (ClbArgsKept * kept, cl_mem mem);
/* Forgets, and releases, the memory arguments other than the @n in @keep. */
void clb_args_kept_keep_mems (ClbArgsKept * kept, const cl_mem * keep,
    guint n);
/* @size bytes at @value; with @value NULL, __local memory of @size bytes. */
void clb_arg (ClbArgs * a, gsize size, const void *value);
void clb_arg_mem (ClbArgs * a, cl_mem mem);
void clb_arg_int (ClbArgs * a, cl_int value);
void clb_arg_int4 (ClbArgs * a, cl_int4 value);
void clb_arg_float (ClbArgs * a, cl_float value);
void clb_arg_local (ClbArgs * a, gsize size);
/* How many arguments the cursor has set (its next index). */
cl_uint clb_args_count (const ClbArgs * a);
/* Moves the cursor past its next @n arguments and returns TRUE where
 * every one of them is kept (set before and not forgotten since); else
 * leaves it and returns FALSE, for the caller to set them. For arguments
 * that never change on a kernel object, at no cost a frame. */
gboolean clb_args_skip_kept (ClbArgs * a, guint n);
/* TRUE if every argument was set; else sets @error (CLB_RUNTIME_ERROR, as
 * every failed OpenCL call: "clSetKernelArg (<kernel>, argument <n>)
 * failed: ...") and returns FALSE. */
gboolean clb_args_done (const ClbArgs * a, GError ** error);

G_END_DECLS
