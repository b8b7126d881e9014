/* clboxblur OpenCL runtime: device, context, queue, program.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every clCreate*, clBuild* and clRelease* of the project is in this file
 * (runtimedevice.c only lists and queries platforms and devices),
 * so each OpenCL object's birth and death can be read in one place.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "runtimeprivate.h"
#include "progcache.h"
#include <CL/cl_gl.h>

static GMutex shared_lock;
static GList *shared_list;

static ClbShared *
shared_new (void)
{
  ClbShared *sh = g_new0 (ClbShared, 1);

  sh->refcount = 1;
  g_mutex_init (&sh->build_lock);
  return sh;
}

static void
shared_unref (ClbShared * sh)
{
  guint i, u;

  if (sh == NULL)
    return;
  g_mutex_lock (&shared_lock);
  if (--sh->refcount > 0) {
    g_mutex_unlock (&shared_lock);
    return;
  }
  if (sh->registered)
    shared_list = g_list_remove (shared_list, sh);
  g_mutex_unlock (&shared_lock);

  for (i = 0; i < CLB_N_SAMPLE_SIZES; i++)
    for (u = 0; u < CLB_MAX_UNITS; u++)
      if (sh->programs[i][u])
        clReleaseProgram (sh->programs[i][u]);
  if (sh->context)
    clReleaseContext (sh->context);
  g_free (sh->program_key);
  g_mutex_clear (&sh->build_lock);
  g_free (sh->platform_name);
  g_free (sh->device_name);
  g_free (sh);
}

/* A registered entry for @device (own context) or for @context (handed in
 * by the application), with a reference added; called with shared_lock
 * held. */
static ClbShared *
shared_find (cl_device_id device, cl_context context)
{
  GList *l;

  for (l = shared_list; l; l = l->next) {
    ClbShared *sh = l->data;

    if (context ? sh->context == context :
        sh->device == device && !sh->app_context) {
      sh->refcount++;
      return sh;
    }
  }
  return NULL;
}

static gboolean
create_context (ClbShared * sh, const cl_context_properties * extra,
    GError ** error)
{
  cl_context_properties props[CLB_MAX_CONTEXT_PROPERTIES + 3];
  guint n = 0;
  cl_int err;

  props[n++] = CL_CONTEXT_PLATFORM;
  props[n++] = (cl_context_properties) sh->platform;
  for (; extra && extra[0] != 0; extra += 2) {
    if (n + 2 > CLB_MAX_CONTEXT_PROPERTIES + 2) {
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_FAILED,
          "more than %d context properties", CLB_MAX_CONTEXT_PROPERTIES / 2);
      return FALSE;
    }
    props[n++] = extra[0];
    props[n++] = extra[1];
  }
  props[n] = 0;
  err = clb_fault ("clCreateContext");
  if (err == CL_SUCCESS)
    sh->context = clCreateContext (props, 1, &sh->device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    sh->context = NULL;
    return clb_set_cl_error (error, err, "clCreateContext");
  }
  return TRUE;
}

/* A runtime on @sh (whose reference it takes): its own queue. */
static ClbRuntime *
runtime_on (ClbShared * sh, GError ** error)
{
  ClbRuntime *rt = g_new0 (ClbRuntime, 1);
  cl_int err;

  rt->shared = sh;
  /* *INDENT-OFF* */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  /* clCreateCommandQueueWithProperties is OpenCL 2.0; many drivers (and
   * the CL_TARGET_OPENCL_VERSION we build for) are 1.2. */
  err = clb_fault ("clCreateCommandQueue");
  if (err == CL_SUCCESS)
    /* With CLBOXBLUR_PROFILE, the device's own timestamps of each kernel
     * (clb_engine_run_kernel) rather than the host's clock. */
    rt->queue = clCreateCommandQueue (sh->context, sh->device,
        g_getenv ("CLBOXBLUR_PROFILE") ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
#pragma GCC diagnostic pop
  /* *INDENT-ON* */
  if (err != CL_SUCCESS) {
    rt->queue = NULL;
    clb_set_cl_error (error, err, "clCreateCommandQueue");
    clb_runtime_free (rt);
    return NULL;
  }
  return rt;
}

ClbRuntime *
clb_runtime_new_sibling (ClbRuntime * rt, GError ** error)
{
  ClbRuntime *sibling;

  g_return_val_if_fail (rt->program_key != NULL, NULL);
  g_mutex_lock (&shared_lock);
  rt->shared->refcount++;
  g_mutex_unlock (&shared_lock);
  sibling = runtime_on (rt->shared, error);
  if (sibling == NULL)
    return NULL;
  sibling->sources = g_strdupv (rt->sources);
  sibling->build_opts = g_strdup (rt->build_opts);
  sibling->program_key = g_strdup (rt->program_key);
  sibling->clang_extensions = rt->clang_extensions;
  return sibling;
}

ClbRuntime *
clb_runtime_new (ClbDeviceType type, gint platform_index, gint device_index,
    GError ** error)
{
  return clb_runtime_new_with_properties (type, platform_index, device_index,
      NULL, error);
}

ClbRuntime *
clb_runtime_new_with_properties (ClbDeviceType type, gint platform_index,
    gint device_index, const cl_context_properties * extra, GError ** error)
{
  ClbShared *sh = shared_new (), *found;

  if (!clb_runtime_select_device (sh, type, platform_index, MAX (device_index, 0), error))
    goto failed;

  if (extra != NULL && extra[0] != 0) {
    if (!create_context (sh, extra, error))
      goto failed;
    return runtime_on (sh, error);
  }

  g_mutex_lock (&shared_lock);
  found = shared_find (sh->device, NULL);
  if (found == NULL) {
    if (!create_context (sh, NULL, error)) {
      g_mutex_unlock (&shared_lock);
      goto failed;
    }
    sh->registered = TRUE;
    shared_list = g_list_prepend (shared_list, sh);
  }
  g_mutex_unlock (&shared_lock);
  if (found) {
    shared_unref (sh);
    sh = found;
  }
  return runtime_on (sh, error);

failed:
  shared_unref (sh);
  return NULL;
}

ClbRuntime *
clb_runtime_new_for_context (cl_context context, cl_device_id device,
    GError ** error)
{
  ClbShared *sh;
  cl_device_id *devices = NULL;
  size_t size = 0;
  cl_int err;

  g_return_val_if_fail (context != NULL, NULL);

  err = clGetContextInfo (context, CL_CONTEXT_DEVICES, 0, NULL, &size);
  if (err != CL_SUCCESS || size < sizeof (cl_device_id)) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
        "The OpenCL context the application gave has no device "
        "(clGetContextInfo: %s)", clb_error_name (err));
    return NULL;
  }
  devices = g_malloc (size);
  err = clGetContextInfo (context, CL_CONTEXT_DEVICES, size, devices, NULL);
  if (err == CL_SUCCESS && device != NULL) {
    guint i, n = size / sizeof (cl_device_id);

    for (i = 0; i < n && devices[i] != device; i++);
    if (i == n) {
      g_free (devices);
      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_DEVICE,
          "The OpenCL device the application gave is not in its context");
      return NULL;
    }
  }
  if (device == NULL)
    device = devices[0];
  g_free (devices);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clGetContextInfo (DEVICES)");
    return NULL;
  }

  g_mutex_lock (&shared_lock);
  sh = shared_find (NULL, context);
  if (sh == NULL) {
    sh = shared_new ();
    clRetainContext (context);
    sh->context = context;
    sh->device = device;
    sh->app_context = TRUE;
    clGetDeviceInfo (device, CL_DEVICE_PLATFORM, sizeof (sh->platform),
        &sh->platform, NULL);
    sh->platform_name = clb_platform_string (sh->platform, CL_PLATFORM_NAME);
    sh->device_name = clb_device_string (device, CL_DEVICE_NAME);
    sh->registered = TRUE;
    shared_list = g_list_prepend (shared_list, sh);
  }
  g_mutex_unlock (&shared_lock);
  return runtime_on (sh, error);
}

void
clb_runtime_free (ClbRuntime * rt)
{
  guint i, u;

  if (rt == NULL)
    return;

  /* Reverse order of creation. */
  if (rt->queue) {
    clFinish (rt->queue);
    clReleaseCommandQueue (rt->queue);
    rt->queue = NULL;
  }
  for (i = 0; i < CLB_N_SAMPLE_SIZES; i++)
    for (u = 0; u < CLB_MAX_UNITS; u++)
      if (rt->programs[i][u]) {
        clReleaseProgram (rt->programs[i][u]);
        rt->programs[i][u] = NULL;
      }
  shared_unref (rt->shared);
  g_strfreev (rt->sources);
  g_free (rt->build_opts);
  g_free (rt->program_key);
  g_free (rt);
}

static gchar *
get_build_log (ClbRuntime * rt, cl_program program)
{
  size_t size = 0;
  gchar *log;

  if (clGetProgramBuildInfo (program, rt->shared->device, CL_PROGRAM_BUILD_LOG, 0,
          NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("(no build log)");
  log = g_malloc0 (size + 1);
  if (clGetProgramBuildInfo (program, rt->shared->device, CL_PROGRAM_BUILD_LOG,
          size, log, NULL) != CL_SUCCESS) {
    g_free (log);
    return g_strdup ("(no build log)");
  }
  return log;
}

/* A program built from the cache entry for @key, or NULL (no entry, one
 * that fails the checks, or one this driver refuses: then the source is
 * built and the entry rewritten). */
static cl_program
load_cached (ClbRuntime * rt, const gchar * key, const gchar * opts)
{
  gchar *data;
  cl_program program = NULL;
  cl_int err, status = CL_SUCCESS;
  gsize size = 0;
  const unsigned char *bin;

  /* an injected build fault must reach the source build */
  if (key == NULL || clb_fault ("clBuildProgram") != CL_SUCCESS)
    return NULL;
  data = clb_cache_read (key, &size);
  if (data != NULL) {
    size_t length = size;

    bin = (const unsigned char *) data;
    program = clCreateProgramWithBinary (rt->shared->context, 1,
        &rt->shared->device, &length, &bin, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
      if (err == CL_SUCCESS)
        clReleaseProgram (program);
      program = NULL;
    } else if (clBuildProgram (program, 1, &rt->shared->device, opts, NULL,
            NULL) != CL_SUCCESS) {
      clReleaseProgram (program);
      program = NULL;
    }
  }
  g_free (data);
  return program;
}

/* Saves @program's binary under @key (progcache.c). */
static void
save_cached (cl_program program, const gchar * key)
{
  size_t size = 0;
  unsigned char *bin;

  if (key == NULL || clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES,
          sizeof (size), &size, NULL) != CL_SUCCESS || size == 0)
    return;
  bin = g_malloc (size);
  if (clGetProgramInfo (program, CL_PROGRAM_BINARIES, sizeof (bin), &bin,
          NULL) == CL_SUCCESS)
    clb_cache_write (key, bin, size);
  g_free (bin);
}

/* Whether the programs go through the element's own binary cache. Not on
 * a driver that keeps a cache of its own, PoCL: it compiles each kernel's
 * machine code at the kernel's first launch (and caches it), so asking it
 * for a program's binaries makes it compile every kernel of the program,
 * run or not (20 s of CPU of a 31 s first start at 1159a8e, issue 39).
 * CLB_BINARY_CACHE_ENV=1 uses the cache on every driver (the cache's
 * tests), =0 on none. */
static gboolean
use_binary_cache (ClbRuntime * rt)
{
  const gchar *env = g_getenv (CLB_BINARY_CACHE_ENV);

  if (env != NULL && *env != '\0')
    return g_strcmp0 (env, "0") != 0;
  return !g_str_has_prefix (rt->shared->platform_name,
      "Portable Computing Language");
}

/* The cache key of a build of @sources with @opts on @rt's device, or
 * NULL where the binary cache is not used. */
static gchar *
cache_key (ClbRuntime * rt, gchar ** sources, const gchar * opts)
{
  gchar *driver, *version, *key;
  const gchar *strings[5];

  if (!use_binary_cache (rt))
    return NULL;
  driver = clb_device_string (rt->shared->device, CL_DRIVER_VERSION);
  version = clb_device_string (rt->shared->device, CL_DEVICE_VERSION);
  strings[0] = rt->shared->platform_name;
  strings[1] = rt->shared->device_name;
  strings[2] = driver;
  strings[3] = version;
  strings[4] = NULL;
  key = clb_cache_key (strings, sources, opts);
  g_free (version);
  g_free (driver);
  return key;
}

/* Builds the program of unit @unit for @size's samples from the cache or
 * the sources. */
static cl_program
build_program (ClbRuntime * rt, ClbSampleSize size, guint unit,
    gboolean * cached, GError ** error)
{
  cl_program program;
  gchar *opts, *key, **sources;
  cl_int err;

  opts = g_strdup_printf ("%s -DCLB_SAMPLE_BITS=%d", rt->build_opts,
      size == CLB_SAMPLES_16 ? 16 : 8);
  sources = clb_kernel_unit_sources (rt->sources, unit);
  key = cache_key (rt, sources, opts);
  program = load_cached (rt, key, opts);
  *cached = program != NULL;
  if (program == NULL) {
    program = clCreateProgramWithSource (rt->shared->context,
        g_strv_length (sources), (const char **) sources, NULL, &err);
    if (err != CL_SUCCESS) {
      program = NULL;
      clb_set_cl_error (error, err, "clCreateProgramWithSource");
      goto done;
    }
    err = clb_fault ("clBuildProgram");
    if (err == CL_SUCCESS)
      err = clBuildProgram (program, 1, &rt->shared->device, opts, NULL, NULL);
    if (err == CL_SUCCESS) {
      save_cached (program, key);
    } else {
      gchar *log = get_build_log (rt, program);

      g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_BUILD,
          "clBuildProgram (%s, CLB_SAMPLE_BITS=%d) failed on '%s': %s (%d)"
          "\n%s", clb_kernel_unit_name (unit),
          size == CLB_SAMPLES_16 ? 16 : 8, rt->shared->device_name,
          clb_error_name (err), err, log);
      g_free (log);
      clReleaseProgram (program);
      program = NULL;
    }
  }
done:
  g_free (sources);
  g_free (key);
  g_free (opts);
  return program;
}

gboolean
clb_runtime_build_program (ClbRuntime * rt, const gchar * options,
    GError ** error)
{
  ClbShared *sh;
  gchar *c_version, *sum;
  const gchar *std;
  gboolean ext;
  GChecksum *checksum;
  guint i;

  g_return_val_if_fail (rt != NULL && rt->sources == NULL, FALSE);
  sh = rt->shared;

  rt->sources = clb_load_kernel_sources (error);
  if (rt->sources == NULL)
    return FALSE;

  /* Only ask for OpenCL C 1.2 where the device's compiler has it. */
  c_version = clb_device_string (sh->device, CL_DEVICE_OPENCL_C_VERSION);
  std = g_str_has_prefix (c_version, "OpenCL C 1.0")
      || g_str_has_prefix (c_version, "OpenCL C 1.1") ? "" : "-cl-std=CL1.2";
  /* clang's vector extensions (kernels/common.cl) only where the compiler
   * is known to be clang: PoCL's is. Everywhere else, and on PoCL when
   * CLBOXBLUR_CLANG_EXTENSIONS=0, standard OpenCL C. */
  ext = g_str_has_prefix (sh->platform_name, "Portable Computing Language")
      && g_strcmp0 (g_getenv (CLB_CLANG_EXTENSIONS_ENV), "0") != 0;
  rt->clang_extensions = ext;
  rt->build_opts = g_strdup_printf ("%s -DCLB_CLANG_EXTENSIONS=%d %s", std,
      ext, options ? options : "");
  g_free (c_version);

  /* What the programs depend on besides the device: the instances on a
   * device share programs built from the same sources and options. */
  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  for (i = 0; rt->sources[i]; i++)
    g_checksum_update (checksum, (const guchar *) rt->sources[i], -1);
  sum = g_strdup (g_checksum_get_string (checksum));
  g_checksum_free (checksum);
  rt->program_key = g_strdup_printf ("%s %s", rt->build_opts, sum);
  g_free (sum);

  g_assert (clb_kernel_unit_count () <= CLB_MAX_UNITS);
  /* The 8-bit base program now (the loop probe, the copies): the units a
   * stream runs when it first asks for one of their kernels
   * (clb_runtime_create_kernel), or for the unit (ensure_program). */
  return clb_runtime_ensure_program (rt, CLB_SAMPLES_8, "base", error);
}

/* @name's unit index, or -1 with an error (a name no unit has: a bug) */
static gint
unit_of (const gchar * name, GError ** error)
{
  gint unit = clb_kernel_unit_index (name);

  if (unit < 0)
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_SOURCE,
        "no program unit '%s' in kernels/meson.build", name);
  return unit;
}

gboolean
clb_runtime_program_pending (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit_name)
{
  ClbShared *sh = rt->shared;
  gint unit = clb_kernel_unit_index (unit_name);
  gboolean pending;

  g_return_val_if_fail (unit >= 0, FALSE);
  if (rt->programs[size][unit])
    return FALSE;
  g_mutex_lock (&sh->build_lock);
  /* before clb_runtime_build_program: whether any runtime built it */
  pending = !(sh->programs[size][unit] && (rt->program_key == NULL
          || g_strcmp0 (sh->program_key, rt->program_key) == 0));
  g_mutex_unlock (&sh->build_lock);
  return pending;
}

gboolean
clb_runtime_ensure_program (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit_name, GError ** error)
{
  ClbShared *sh;
  gboolean cached = FALSE;
  gint u;

  g_return_val_if_fail (rt != NULL && size < CLB_N_SAMPLE_SIZES, FALSE);
  g_return_val_if_fail (rt->program_key != NULL, FALSE);
  u = unit_of (unit_name, error);
  if (u < 0)
    return FALSE;
  if (rt->programs[size][u])
    return TRUE;
  sh = rt->shared;

  /* One build per device and program; the runtimes asking meanwhile wait
   * for it. */
  g_mutex_lock (&sh->build_lock);
  if (sh->programs[size][u]
      && g_strcmp0 (sh->program_key, rt->program_key) == 0) {
    rt->programs[size][u] = sh->programs[size][u];
    clRetainProgram (rt->programs[size][u]);
    cached = sh->cached[size][u];
  } else {
    rt->programs[size][u] = build_program (rt, size, u, &cached, error);
    if (rt->programs[size][u] && (sh->program_key == NULL
            || g_strcmp0 (sh->program_key, rt->program_key) == 0)) {
      if (sh->program_key == NULL)
        sh->program_key = g_strdup (rt->program_key);
      sh->programs[size][u] = rt->programs[size][u];
      clRetainProgram (sh->programs[size][u]);
      sh->cached[size][u] = cached;
    }
  }
  g_mutex_unlock (&sh->build_lock);
  if (rt->programs[size][u] == NULL)
    return FALSE;
  if (cached)
    rt->cached_programs++;
  return TRUE;
}

gboolean
clb_runtime_ensure_every_program (ClbRuntime * rt, GError ** error)
{
  guint u, s;

  for (s = 0; s < CLB_N_SAMPLE_SIZES; s++)
    for (u = 0; u < clb_kernel_unit_count (); u++)
      if (!clb_runtime_ensure_program (rt, s, clb_kernel_unit_name (u),
              error))
        return FALSE;
  return TRUE;
}

cl_kernel
clb_runtime_create_kernel (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit, const gchar * name, GError ** error)
{
  cl_kernel kernel = NULL;
  cl_int err;

  g_return_val_if_fail (rt != NULL && size < CLB_N_SAMPLE_SIZES, NULL);

  if (!clb_runtime_ensure_program (rt, size, unit, error))
    return NULL;
  err = clb_fault ("clCreateKernel");
  if (err == CL_SUCCESS)
    kernel = clCreateKernel (rt->programs[size][clb_kernel_unit_index (unit)],
        name, &err);
  if (err != CL_SUCCESS) {
    gchar *what = g_strdup_printf ("clCreateKernel (%s)", name);
    clb_set_cl_error (error, err, what);
    g_free (what);
    return NULL;
  }
  return kernel;
}

void
clb_runtime_release_kernel (cl_kernel * kernel)
{
  if (*kernel) {
    clReleaseKernel (*kernel);
    *kernel = NULL;
  }
}

cl_mem
clb_runtime_create_buffer (ClbRuntime * rt, cl_mem_flags flags, gsize size,
    GError ** error)
{
  cl_mem mem = NULL;
  cl_int err;
  cl_ulong max_alloc = 0;

  err = clGetDeviceInfo (rt->shared->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
      sizeof (max_alloc), &max_alloc, NULL);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clGetDeviceInfo (MAX_MEM_ALLOC_SIZE)");
    return NULL;
  }
  if (size > max_alloc) {
    g_set_error (error, CLB_RUNTIME_ERROR, CLB_RUNTIME_ERROR_NO_MEMORY,
        "A buffer of %" G_GSIZE_FORMAT " bytes exceeds the largest "
        "allocation of OpenCL device '%s' (%" G_GUINT64_FORMAT " bytes)",
        size, rt->shared->device_name, (guint64) max_alloc);
    return NULL;
  }

  err = clb_fault ("clCreateBuffer");
  if (err == CL_SUCCESS)
    mem = clCreateBuffer (rt->shared->context, flags, size, NULL, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateBuffer");
    return NULL;
  }
  return mem;
}

void
clb_runtime_release_buffer (cl_mem * mem)
{
  if (*mem) {
    clReleaseMemObject (*mem);
    *mem = NULL;
  }
}

gboolean
clb_runtime_retain_buffer (cl_mem mem)
{
  return clb_fault ("clRetainMemObject") == CL_SUCCESS
      && clRetainMemObject (mem) == CL_SUCCESS;
}

cl_mem
clb_runtime_wrap_host (ClbRuntime * rt, cl_mem_flags flags, gpointer host,
    gsize size, GError ** error)
{
  cl_mem mem = NULL;
  cl_int err = clb_fault ("clCreateBuffer (CL_MEM_USE_HOST_PTR)");

  if (err == CL_SUCCESS)
    mem = clCreateBuffer (rt->shared->context, flags | CL_MEM_USE_HOST_PTR, size, host,
        &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateBuffer (CL_MEM_USE_HOST_PTR)");
    return NULL;
  }
  return mem;
}

gboolean
clb_runtime_has_extension (ClbRuntime * rt, const gchar * name)
{
  gchar *exts = clb_device_string (rt->shared->device, CL_DEVICE_EXTENSIONS);
  gchar **list = g_strsplit (exts, " ", -1);
  gboolean found = g_strv_contains ((const gchar * const *) list, name);

  g_strfreev (list);
  g_free (exts);
  return found;
}

cl_mem
clb_runtime_create_image (ClbRuntime * rt, cl_mem_flags flags, gsize width,
    gsize height, GError ** error)
{
  cl_image_format format = { CL_RGBA, CL_UNORM_INT8 };
  cl_image_desc desc = { 0, };
  cl_mem mem = NULL;
  cl_int err;

  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  err = clb_fault ("clCreateImage");
  if (err == CL_SUCCESS)
    mem = clCreateImage (rt->shared->context, flags, &format, &desc, NULL, &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateImage");
    return NULL;
  }
  return mem;
}

cl_mem
clb_runtime_create_from_gl_texture (ClbRuntime * rt, cl_mem_flags flags,
    guint target, guint texture, GError ** error)
{
  cl_mem mem = NULL;
  cl_int err;

  err = clb_fault ("clCreateFromGLTexture");
  if (err == CL_SUCCESS)
    mem = clCreateFromGLTexture (rt->shared->context, flags, target, 0, texture,
        &err);
  if (err != CL_SUCCESS) {
    clb_set_cl_error (error, err, "clCreateFromGLTexture");
    return NULL;
  }
  return mem;
}

cl_context
clb_runtime_get_context (ClbRuntime * rt)
{
  return rt->shared->context;
}

cl_platform_id
clb_runtime_get_platform (ClbRuntime * rt)
{
  return rt->shared->platform;
}

cl_command_queue
clb_runtime_get_queue (ClbRuntime * rt)
{
  return rt->queue;
}

gboolean
clb_runtime_get_clang_extensions (ClbRuntime * rt)
{
  return rt->clang_extensions;
}

guint
clb_runtime_get_cached_programs (ClbRuntime * rt)
{
  return rt->cached_programs;
}

cl_device_id
clb_runtime_get_device (ClbRuntime * rt)
{
  return rt->shared->device;
}

const gchar *
clb_runtime_get_device_name (ClbRuntime * rt)
{
  return rt->shared->device_name;
}

const gchar *
clb_runtime_get_platform_name (ClbRuntime * rt)
{
  return rt->shared->platform_name;
}
