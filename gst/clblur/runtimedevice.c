/* clboxblur OpenCL runtime: the device the properties name.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Platforms and devices are only listed and queried here; the context and
 * everything else made on the device are runtime.c's.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "runtimeprivate.h"

static cl_device_type
to_cl_device_type (ClbDeviceType type)
{
  switch (type) {
    case CLB_DEVICE_TYPE_CPU:
      return CL_DEVICE_TYPE_CPU;
    case CLB_DEVICE_TYPE_GPU:
      return CL_DEVICE_TYPE_GPU;
    case CLB_DEVICE_TYPE_ACCELERATOR:
      return CL_DEVICE_TYPE_ACCELERATOR;
    case CLB_DEVICE_TYPE_DEFAULT:
    default:
      return CL_DEVICE_TYPE_ALL;
  }
}

static const gchar *
device_type_name (ClbDeviceType type)
{
  switch (type) {
    case CLB_DEVICE_TYPE_CPU:
      return "CPU";
    case CLB_DEVICE_TYPE_GPU:
      return "GPU";
    case CLB_DEVICE_TYPE_ACCELERATOR:
      return "accelerator";
    case CLB_DEVICE_TYPE_DEFAULT:
    default:
      return "any";
  }
}

gchar *
clb_platform_string (cl_platform_id platform, cl_platform_info param)
{
  size_t size = 0;
  gchar *str;

  if (clGetPlatformInfo (platform, param, 0, NULL, &size) != CL_SUCCESS
      || size == 0)
    return g_strdup ("(unknown)");
  str = g_malloc0 (size + 1);
  if (clGetPlatformInfo (platform, param, size, str, NULL) != CL_SUCCESS) {
    g_free (str);
    return g_strdup ("(unknown)");
  }
  return str;
}

gchar *
clb_device_string (cl_device_id device, cl_device_info param)
{
  size_t size = 0;
  gchar *str;

  if (clGetDeviceInfo (device, param, 0, NULL, &size) != CL_SUCCESS
      || size == 0)
    return g_strdup ("");
  str = g_malloc0 (size + 1);
  if (clGetDeviceInfo (device, param, size, str, NULL) != CL_SUCCESS) {
    g_free (str);
    return g_strdup ("");
  }
  return str;
}

/* Number of devices of @type on @platform (0 when none or on error). */
static cl_uint
count_devices (cl_platform_id platform, cl_device_type type)
{
  cl_uint n = 0;

  if (clGetDeviceIDs (platform, type, 0, NULL, &n) != CL_SUCCESS)
    return 0;
  return n;
}

/* Where PoCL keeps its kernel cache, as PoCL 3 chooses it: POCL_CACHE_DIR
 * when that folder exists, else $XDG_CACHE_HOME/pocl/kcache, else
 * $HOME/.cache/pocl/kcache. PoCL lists no device when it cannot create the
 * folder. "" when that folder is usable or no reason is seen, else why not
 * (g_free it). */
static gchar *
pocl_cache_problem (void)
{
  const gchar *pocl = g_getenv ("POCL_CACHE_DIR");
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");
  const gchar *home = g_getenv ("HOME");
  gchar *dir, *p, *why = NULL;

  if (pocl != NULL && *pocl != '\0' && g_file_test (pocl, G_FILE_TEST_EXISTS))
    dir = g_strdup (pocl);
  else if (xdg != NULL && *xdg != '\0')
    dir = g_build_filename (xdg, "pocl", "kcache", NULL);
  else if (home != NULL)
    dir = g_build_filename (home, ".cache", "pocl", "kcache", NULL);
  else
    dir = g_strdup ("/tmp/pocl/kcache");

  /* the nearest part of the path that exists must be a writable folder */
  p = g_strdup (dir);
  while (!g_file_test (p, G_FILE_TEST_EXISTS)) {
    gchar *parent = g_path_get_dirname (p);

    if (strcmp (parent, p) == 0) {
      g_free (parent);
      break;
    }
    g_free (p);
    p = parent;
  }
  if (!g_file_test (p, G_FILE_TEST_IS_DIR))
    why = g_strdup_printf (": PoCL's cache folder %s cannot be created, "
        "%s is not a folder", dir, p);
  else if (access (p, W_OK) != 0)
    why = g_strdup_printf (": PoCL's cache folder %s cannot be %s, %s is "
        "not writable", dir, strcmp (p, dir) == 0 ? "written" : "created", p);
  g_free (p);
  g_free (dir);
  return why ? why : g_strdup ("");
}

/* The error for @n_platforms platforms none of which lists a device. */
static void
set_no_device_listed (GError ** error, cl_platform_id * platforms,
    cl_uint n_platforms)
{
  gboolean pocl = FALSE;
  gchar *why;
  cl_uint p;

  for (p = 0; p < n_platforms && !pocl; p++) {
    gchar *name = clb_platform_string (platforms[p], CL_PLATFORM_NAME);

    pocl = g_str_has_prefix (name, "Portable Computing Language");
    g_free (name);
  }
  if (!pocl) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE_LISTED,
        "%u OpenCL platform(s) found, but none lists a device: their "
        "drivers cannot reach a device or failed to start. Check the "
        "driver's own set-up (permissions on /dev/dri or the GPU's device "
        "nodes, the driver's environment variables)", n_platforms);
    return;
  }
  why = pocl_cache_problem ();
  g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE_LISTED,
      "%u OpenCL platform(s) found, but none lists a device%s. PoCL, the CPU "
      "driver, lists none when it cannot create its kernel cache folder "
      "($POCL_CACHE_DIR if that folder exists, else $XDG_CACHE_HOME/pocl, "
      "else ~/.cache/pocl). Set POCL_CACHE_DIR to an existing writable "
      "folder, or XDG_CACHE_HOME to a writable one; POCL_DEBUG=all shows "
      "why a driver lists no device", n_platforms, why);
  g_free (why);
}

/* Whether the folder @dir holds an .icd file, what the ICD loader reads
 * in a folder. */
static gboolean
has_icd_file (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  gboolean found = FALSE;

  if (d == NULL)
    return FALSE;
  while (!found && (name = g_dir_read_name (d)))
    found = g_str_has_suffix (name, ".icd");
  g_dir_close (d);
  return found;
}

/* The error for no platform found. With CLB_ICD_VENDORS_ENV set (a test's
 * or a script's, left in a shell), the loader looked for drivers only where
 * it says, so "install a driver" alone would send the user after one that
 * may well be installed: the variable, its value and what is wrong with it
 * come first. Only a path with a slash is said not to exist: a bare name
 * is looked for in /etc/OpenCL/vendors first. */
static void
set_no_platform (GError ** error)
{
  const gchar *vendors = g_getenv (CLB_ICD_VENDORS_ENV);
  const gchar *what = "";

  if (vendors == NULL || *vendors == '\0') {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_PLATFORM,
        "No OpenCL platform found: the OpenCL ICD loader lists no driver. "
        "Install one, e.g. 'apt-get install pocl-opencl-icd' for the CPU, "
        "or your GPU vendor's OpenCL ICD package");
    return;
  }
  if (strchr (vendors, '/') != NULL
      && !g_file_test (vendors, G_FILE_TEST_EXISTS))
    what = " (no such file or folder)";
  else if (g_file_test (vendors, G_FILE_TEST_IS_DIR)
      && !has_icd_file (vendors))
    what = " (a folder with no .icd file)";
  g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_PLATFORM,
      "No OpenCL platform found, and %s is set to '%s'%s: that is the "
      "likely cause, as the OpenCL ICD loader then looks for drivers only "
      "there (the .icd files of that folder, or the one driver it names), "
      "not in /etc/OpenCL/vendors. Unset it, or point it at a folder with a "
      "driver's .icd file; if no driver is installed, install one, e.g. "
      "'apt-get install pocl-opencl-icd' for the CPU", CLB_ICD_VENDORS_ENV,
      vendors, what);
}

/* PoCL's CPU device runs a kernel's work-groups on worker threads that
 * the kernel's scheduler wakes where they last ran. Behind a source that
 * keeps the streaming thread busy between frames, both workers wake on one
 * core while the other sits idle, and the frame takes twice as long
 * (scripts/element-time.sh, 1080p RGB radius 15: 3.05 ms a frame behind
 * videotestsrc pattern=snow against 1.44 behind smpte, one core idle for
 * the whole transform). POCL_AFFINITY=1 pins each worker to a core of its
 * own (1.55 against 1.41). Set before the platform is first asked for, and
 * only where the process's environment does not say (POCL_AFFINITY=0
 * keeps PoCL's default); other implementations do not read it. This sets
 * the process's environment from a library, which GStreamer's own
 * elements avoid: here it is the one way to reach PoCL's threads. */
static void
pin_pocl_workers (void)
{
  static GMutex lock;

  g_mutex_lock (&lock);
  if (g_getenv (CLB_POCL_AFFINITY_ENV) == NULL)
    g_setenv (CLB_POCL_AFFINITY_ENV, "1", FALSE);
  g_mutex_unlock (&lock);
}

gboolean
clb_runtime_select_device (ClbShared * rt, ClbDeviceType type, gint platform_index,
    gint device_index, GError ** error)
{
  cl_device_type cl_type = to_cl_device_type (type);
  cl_platform_id *platforms = NULL;
  cl_device_id *devices = NULL;
  cl_uint n_platforms = 0, n_devices = 0, p;
  cl_int err;
  gboolean ret = FALSE;

  pin_pocl_workers ();
  err = clb_fault ("clGetPlatformIDs");
  if (err == CL_SUCCESS)
    err = clGetPlatformIDs (0, NULL, &n_platforms);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS
          && n_platforms == 0)) {
    set_no_platform (error);
    return FALSE;
  }
  if (err != CL_SUCCESS)
    return clb_set_cl_error (error, err, "clGetPlatformIDs");

  platforms = g_new0 (cl_platform_id, n_platforms);
  err = clGetPlatformIDs (n_platforms, platforms, NULL);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clGetPlatformIDs");
    goto out;
  }

  if (platform_index >= (gint) n_platforms) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
        "OpenCL platform index %d does not exist: %u platform(s) found",
        platform_index, n_platforms);
    goto out;
  }

  /* An explicit platform, or the first one that has the device asked for. */
  if (platform_index >= 0) {
    p = platform_index;
    n_devices = count_devices (platforms[p], cl_type);
  } else {
    /* Else the one with the most such devices, for the message below. */
    cl_uint best = 0, best_n = 0;

    for (p = 0; p < n_platforms; p++) {
      n_devices = count_devices (platforms[p], cl_type);
      if (n_devices > (cl_uint) device_index)
        break;
      if (n_devices > best_n) {
        best = p;
        best_n = n_devices;
      }
    }
    if (p == n_platforms) {
      p = best;
      n_devices = best_n;
    }
  }

  if (n_devices == 0) {
    cl_uint any = 0, q;

    for (q = 0; q < n_platforms; q++)
      any += count_devices (platforms[q], CL_DEVICE_TYPE_ALL);
    if (any == 0) {
      set_no_device_listed (error, platforms, n_platforms);
      goto out;
    }
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
        "No OpenCL device of type %s on %s (%u platform(s) found). Install "
        "an OpenCL driver for that device type (e.g. 'apt-get install "
        "pocl-opencl-icd' for the CPU), or set device-type=default (any "
        "type)",
        device_type_name (type), platform_index >= 0 ? "that platform" :
        "any platform", n_platforms);
    goto out;
  }
  if (n_devices <= (cl_uint) device_index) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
        "device-index=%d does not exist: platform %u has %u OpenCL device(s) "
        "of type %s (device-index 0 to %u)%s", device_index, p, n_devices,
        device_type_name (type), n_devices - 1, platform_index < 0
        && n_platforms > 1 ? ", the most of any platform" : "");
    goto out;
  }

  devices = g_new0 (cl_device_id, n_devices);
  err = clb_fault ("clGetDeviceIDs");
  if (err == CL_SUCCESS)
    err = clGetDeviceIDs (platforms[p], cl_type, n_devices, devices, NULL);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clGetDeviceIDs");
    goto out;
  }

  rt->platform = platforms[p];
  rt->device = devices[device_index];
  rt->platform_name = clb_platform_string (rt->platform, CL_PLATFORM_NAME);
  rt->device_name = clb_device_string (rt->device, CL_DEVICE_NAME);
  ret = TRUE;

out:
  g_free (devices);
  g_free (platforms);
  return ret;
}

