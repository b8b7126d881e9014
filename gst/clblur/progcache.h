/* clboxblur OpenCL runtime: what programs are built from, and the
 * program-binary cache's files.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* SHA-256 (hex) of everything a program binary depends on: the device's
 * strings (@device_strings, NULL-terminated: platform, device, driver and
 * device version), the build options and the sources. NULL when caching is
 * off (CLB_CACHE_DIR_ENV set and empty). */
gchar *clb_cache_key (const gchar * const *device_strings, gchar ** sources,
    const gchar * opts);

/* The binary of the entry for @key (g_free it), or NULL when there is none
 * or it fails a check: its length, magic, key, and the checksum of the
 * binary. A truncated, damaged or foreign file never reaches the driver
 * (some drivers abort in clCreateProgramWithBinary on one). An entry that
 * is not a regular file (FIFO, directory, socket, device), or is longer
 * than any program binary can be (256 MiB), is a miss too, found without
 * blocking and never read. */
gchar *clb_cache_read (const gchar * key, gsize * size);

/* Writes the entry for @key (best effort: a cache that cannot be written
 * only costs time), to a temporary file renamed into place, so that a
 * reader never sees half of one. None for a binary too long to be read
 * back. */
void clb_cache_write (const gchar * key, const guchar * bin, gsize size);

/* The kernel sources, NULL-terminated (g_strfreev): from
 * $CLBOXBLUR_KERNEL_PATH/<name> when that is set (development; each
 * prefixed with a #line naming its file), else the copies embedded at build
 * time. NULL with CLB_RUNTIME_ERROR_SOURCE when a file cannot be read. */
gchar **clb_load_kernel_sources (GError ** error);

/* The program units (kernels/meson.build's cl_units): how many, the index
 * of the one named @name (-1: none), and the sources of unit @unit out of
 * @all (clb_load_kernel_sources), NULL-terminated, not copies (g_free the
 * array only). */
guint clb_kernel_unit_count (void);
gint clb_kernel_unit_index (const gchar * name);
const gchar *clb_kernel_unit_name (guint unit);
gchar **clb_kernel_unit_sources (gchar ** all, guint unit);

G_END_DECLS
