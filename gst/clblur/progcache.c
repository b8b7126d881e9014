/* clboxblur OpenCL runtime: what programs are built from, and the
 * program-binary cache's files.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernel sources (embedded, or read from CLB_KERNEL_PATH_ENV). Where
 * cache entries live (CLB_CACHE_DIR_ENV, else the user's cache folder),
 * what they are keyed by, and the checks an entry passes before its binary
 * is handed to the driver. The programs themselves are made in runtime.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "progcache.h"
#include "runtime.h"
#include "clkernels.h"

/* A cache entry: a header, then the driver's binary. A file is used only
 * when it is long enough, its magic and key are the ones asked for, and
 * the binary has the length and checksum the header gives: a truncated,
 * damaged or foreign file never reaches the driver (some drivers abort
 * in clCreateProgramWithBinary on one). */
#define CACHE_MAGIC "CLBXBIN1"
#define CACHE_HEX 64            /* a SHA-256 in hex */
typedef struct
{
  gchar magic[8];
  gchar key[CACHE_HEX];         /* what the binary was built from */
  gchar sum[CACHE_HEX];         /* of the binary */
  guint64 length;               /* of the binary */
} CacheHeader;

/* The largest entry read, header included. A program binary here is a few
 * MB (PoCL's CPU binaries of the two programs: 0.8 and 2.0 MB); 256 MiB is
 * far above any driver's, and low enough to allocate anywhere the element
 * runs. A longer file is a miss without a byte read: an entry's size is
 * whatever the file system says (a 20 GB sparse file costs no disk), and
 * allocating it first aborted the process. */
#define CACHE_MAX_ENTRY ((gsize) 256 * 1024 * 1024)

gchar *
clb_cache_key (const gchar * const *device_strings, gchar ** sources,
    const gchar * opts)
{
  const gchar *dir = g_getenv (CLB_CACHE_DIR_ENV);
  GChecksum *sum;
  gchar *key;
  guint i;

  if (dir != NULL && *dir == '\0')
    return NULL;

  sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (i = 0; device_strings[i]; i++)
    g_checksum_update (sum, (const guchar *) device_strings[i], -1);
  g_checksum_update (sum, (const guchar *) opts, -1);
  for (i = 0; sources[i]; i++)
    g_checksum_update (sum, (const guchar *) sources[i], -1);
  key = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return key;
}

/* <cache dir>/<key>.bin */
static gchar *
cache_path (const gchar * key)
{
  const gchar *dir = g_getenv (CLB_CACHE_DIR_ENV);
  gchar *name = g_strconcat (key, ".bin", NULL);
  gchar *path = dir ? g_build_filename (dir, name, NULL) :
      g_build_filename (g_get_user_cache_dir (), "clboxblur", name, NULL);

  g_free (name);
  return path;
}

/* The binary in the entry @data of @len bytes if it passes every check,
 * else NULL. */
static const guchar *
cache_check (const gchar * data, gsize len, const gchar * key, gsize * size)
{
  CacheHeader h;
  gchar *sum;
  gboolean ok;

  if (len <= sizeof (h))
    return NULL;
  memcpy (&h, data, sizeof (h));
  if (memcmp (h.magic, CACHE_MAGIC, sizeof (h.magic)) != 0
      || memcmp (h.key, key, CACHE_HEX) != 0 || h.length != len - sizeof (h))
    return NULL;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
      (const guchar *) data + sizeof (h), h.length);
  ok = memcmp (h.sum, sum, CACHE_HEX) == 0;
  g_free (sum);
  *size = h.length;
  return ok ? (const guchar *) data + sizeof (h) : NULL;
}

/* The contents of the entry at @path, or NULL when there is none, it is
 * not a regular file or it is longer than CACHE_MAX_ENTRY. Opened without
 * blocking and checked with fstat before anything is read: a FIFO there
 * would block open () (and the pipeline's start) until a writer came, a
 * character device could be read forever. A directory, socket or anything
 * else is a cache miss too. No more than the size fstat gave is read, so a
 * file that grows meanwhile cannot take more than the cap either. */
static gchar *
cache_slurp (const gchar * path, gsize * len)
{
  struct stat st;
  gchar *data;
  gsize got = 0;
  gint fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0) {
    close (fd);
    return NULL;
  }
  if (!S_ISREG (st.st_mode)) {
    g_debug ("program cache entry %s is not a regular file (mode 0%o): "
        "ignored", path, (guint) st.st_mode);
    close (fd);
    return NULL;
  }
  if (st.st_size < 0 || (guint64) st.st_size > CACHE_MAX_ENTRY) {
    g_debug ("program cache entry %s has %" G_GUINT64_FORMAT " bytes, more "
        "than a program binary can be (%" G_GSIZE_FORMAT "): ignored", path,
        (guint64) st.st_size, CACHE_MAX_ENTRY);
    close (fd);
    return NULL;
  }
  /* try: a process short of memory misses the cache rather than aborts */
  data = g_try_malloc (st.st_size + 1);
  if (data == NULL) {
    close (fd);
    return NULL;
  }
  while (got < (gsize) st.st_size) {
    gssize n = read (fd, data + got, st.st_size - got);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += n;
  }
  close (fd);
  *len = got;
  return data;
}

gchar *
clb_cache_read (const gchar * key, gsize * size)
{
  gchar *data, *path = cache_path (key), *bin = NULL;
  gsize len = 0;
  const guchar *checked;

  data = cache_slurp (path, &len);
  if (data != NULL && (checked = cache_check (data, len, key, size)) != NULL)
    bin = g_memdup2 (checked, *size);
  g_free (data);
  g_free (path);
  return bin;
}

void
clb_cache_write (const gchar * key, const guchar * bin, gsize size)
{
  CacheHeader h;
  guchar *entry;
  gchar *path, *dir, *sum;

  /* an entry cache_slurp would not read back */
  if (size > CACHE_MAX_ENTRY - sizeof (h))
    return;
  entry = g_malloc (sizeof (h) + size);
  memset (&h, 0, sizeof (h));
  memcpy (h.magic, CACHE_MAGIC, sizeof (h.magic));
  memcpy (h.key, key, CACHE_HEX);
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, bin, size);
  memcpy (h.sum, sum, CACHE_HEX);
  g_free (sum);
  h.length = size;
  memcpy (entry, &h, sizeof (h));
  memcpy (entry + sizeof (h), bin, size);

  path = cache_path (key);
  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0755) == 0)
    g_file_set_contents (path, (const gchar *) entry, sizeof (h) + size, NULL);
  g_free (dir);
  g_free (path);
  g_free (entry);
}

gchar **
clb_load_kernel_sources (GError ** error)
{
  const gchar *dir = g_getenv (CLB_KERNEL_PATH_ENV);
  gchar **sources = g_new0 (gchar *, clb_n_kernel_sources + 1);
  guint i;

  for (i = 0; i < clb_n_kernel_sources; i++) {
    const gchar *name = clb_kernel_sources[i].name;
    GError *read_error = NULL;
    gchar *path, *text = NULL;

    if (dir == NULL || *dir == '\0') {
      sources[i] = g_strdup (clb_kernel_sources[i].source);
      continue;
    }

    path = g_build_filename (dir, name, NULL);
    if (!g_file_get_contents (path, &text, NULL, &read_error)) {
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_SOURCE,
          "%s is set, but the kernel source cannot be read: %s",
          CLB_KERNEL_PATH_ENV, read_error->message);
      g_error_free (read_error);
      g_free (path);
      g_strfreev (sources);
      return NULL;
    }
    sources[i] = g_strdup_printf ("#line 1 \"%s\"\n%s", path, text);
    g_free (text);
    g_free (path);
  }
  return sources;
}

guint
clb_kernel_unit_count (void)
{
  return clb_n_kernel_units;
}

gint
clb_kernel_unit_index (const gchar * name)
{
  guint u;

  for (u = 0; u < clb_n_kernel_units; u++)
    if (g_strcmp0 (clb_kernel_units[u].name, name) == 0)
      return (gint) u;
  return -1;
}

const gchar *
clb_kernel_unit_name (guint unit)
{
  g_return_val_if_fail (unit < clb_n_kernel_units, NULL);
  return clb_kernel_units[unit].name;
}

gchar **
clb_kernel_unit_sources (gchar ** all, guint unit)
{
  gchar **sources = g_new0 (gchar *, CLB_MAX_UNIT_SOURCES + 1);
  const gint *s;
  guint n = 0;

  g_return_val_if_fail (unit < clb_n_kernel_units, sources);
  for (s = clb_kernel_units[unit].sources; *s >= 0; s++)
    sources[n++] = all[*s];
  return sources;
}
