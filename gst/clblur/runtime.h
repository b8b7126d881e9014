/* clboxblur OpenCL runtime: device, context, queue, program.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The only place that creates and releases OpenCL objects. GLib and OpenCL
 * only, no GStreamer types: the element, the tests and tools all use it.
 */
#pragma once

#include <glib.h>
#include <CL/cl.h>
#include <CL/cl_ext.h>

G_BEGIN_DECLS

typedef enum {
  CLB_DEVICE_TYPE_DEFAULT,
  CLB_DEVICE_TYPE_CPU,
  CLB_DEVICE_TYPE_GPU,
  CLB_DEVICE_TYPE_ACCELERATOR,
} ClbDeviceType;

#define CLB_RUNTIME_ERROR (clb_runtime_error_quark ())
GQuark clb_runtime_error_quark (void);

typedef enum {
  CLB_RUNTIME_ERROR_NO_PLATFORM,  /* no OpenCL platform installed */
  CLB_RUNTIME_ERROR_NO_DEVICE,    /* no device matching type/indices */
  CLB_RUNTIME_ERROR_SOURCE,       /* kernel source could not be read */
  CLB_RUNTIME_ERROR_BUILD,        /* clBuildProgram failed; message has the log */
  CLB_RUNTIME_ERROR_NO_MEMORY,    /* allocation on the device failed */
  CLB_RUNTIME_ERROR_FAILED,       /* any other OpenCL call failed */
  CLB_RUNTIME_ERROR_NO_GL_SHARING, /* GL sharing demanded, not possible */
  CLB_RUNTIME_ERROR_NO_DEVICE_LISTED, /* platforms there, but none lists a
                                       * device: a driver that cannot start
                                       * (PoCL without a writable cache) */
} ClbRuntimeError;

/* Name of the environment variable that points the runtime at a folder of
 * .cl files to use instead of the ones embedded at build time. */
#define CLB_KERNEL_PATH_ENV "CLBOXBLUR_KERNEL_PATH"

/* Folder of cached program binaries; default <user cache dir>/clboxblur,
 * set to an empty string to build from source every time. */
#define CLB_CACHE_DIR_ENV "CLBOXBLUR_CACHE_DIR"
/* "1": the program-binary cache on every driver; "0": on none; unset: on
 * every driver but PoCL, which keeps a kernel cache of its own. */
#define CLB_BINARY_CACHE_ENV "CLBOXBLUR_BINARY_CACHE"

/* "0" builds the kernels in standard OpenCL C on PoCL too, without the
 * clang vector extensions the runtime otherwise enables there. */
#define CLB_CLANG_EXTENSIONS_ENV "CLBOXBLUR_CLANG_EXTENSIONS"

/* Device class the engine shapes its work for: "cpu" or "gpu" forces
 * it whatever CL_DEVICE_TYPE says, so that CI runs the GPU kernels and
 * work shapes on a CPU driver (PoCL); unset, CPUs get the CPU variants and
 * every other device type the GPU ones. Read in one place: the engine's
 * options and profile (engineprofile.c). */
#define CLB_DEVICE_CLASS_ENV "CLBOXBLUR_DEVICE_CLASS"

/* "0": no memory shared between host and device where the device could
 * share it: the engine copies frames rather than wrap them (engine.h,
 * clb_engine_wraps_frames) and the buffer pool's frames live on the
 * device (runtimemem.h): a discrete GPU, modelled on any device. */
#define CLB_ZERO_COPY_ENV "CLBOXBLUR_ZERO_COPY"

/* The ICD loader's (ocl-icd's) variable: set and not empty, it names where
 * the loader looks for drivers (a folder of .icd files, one .icd file, or
 * a driver's library) instead of /etc/OpenCL/vendors. When no platform is
 * found with it set, it is the likely cause, and the messages name it. */
#define CLB_ICD_VENDORS_ENV "OCL_ICD_VENDORS"

/* The program is built once per sample container size. */
typedef enum {
  CLB_SAMPLES_8,    /* 8-bit formats */
  CLB_SAMPLES_16,   /* 10- and 16-bit formats, in 16-bit containers */
  CLB_N_SAMPLE_SIZES
} ClbSampleSize;

typedef struct _ClbRuntime ClbRuntime;

/* Runtimes on one device in a process share its context and built
 * programs (see clb_runtime_build_program); each has its own queue. */
ClbRuntime *clb_runtime_new (ClbDeviceType type, gint platform_index,
    gint device_index, GError ** error);
/* Like clb_runtime_new, with @extra (pairs of cl_context_properties ending
 * in 0, at most CLB_MAX_CONTEXT_PROPERTIES entries; NULL for none) added to
 * the context's properties, e.g. the GL context and display for
 * cl_khr_gl_sharing. */
#define CLB_MAX_CONTEXT_PROPERTIES 8
ClbRuntime *clb_runtime_new_with_properties (ClbDeviceType type,
    gint platform_index, gint device_index,
    const cl_context_properties * extra, GError ** error);
/* A runtime on the application's @context (retained while in use) and
 * @device, one of its devices (NULL: its first). Runtimes handed the same
 * context share it and its programs. */
ClbRuntime *clb_runtime_new_for_context (cl_context context,
    cl_device_id device, GError ** error);
/* A runtime on @rt's device and context, sharing its programs, whose
 * builds are readied as @rt's were (clb_runtime_build_program): for a
 * thread that builds programs @rt's stream will take. */
ClbRuntime *clb_runtime_new_sibling (ClbRuntime * rt, GError ** error);
void clb_runtime_free (ClbRuntime * rt);

/* Whether the device lists extension @name (e.g. "cl_khr_gl_sharing"). */
gboolean clb_runtime_has_extension (ClbRuntime * rt, const gchar * name);

/* Readies the programs' build with @options and builds the 8-bit base
 * program (the loop probe, the copies). The others, one a sample size
 * and program unit (kernels/meson.build's cl_units: "sat", "separable",
 * "bilateral", "region", "mosaic", "mask", "temporal"), are built when
 * first asked for (clb_runtime_ensure_program, or a kernel of one), so
 * a stream builds only what it runs. Each comes from cached binaries when the cache has them for this
 * device, driver, options and sources, else from source (and then fills
 * the cache; not on PoCL, which keeps its own: see CLB_BINARY_CACHE_ENV).
 * The runtimes on a device share what is built. */
gboolean clb_runtime_build_program (ClbRuntime * rt, const gchar * options,
    GError ** error);
/* Builds the program of @unit for @size's samples unless built already. */
gboolean clb_runtime_ensure_program (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit, GError ** error);
/* Builds every unit's program for both sample sizes (the binaries of
 * all: clboxblur-bench --dump, --load). */
gboolean clb_runtime_ensure_every_program (ClbRuntime * rt, GError ** error);
/* Whether that program is still to be built, by this runtime or another
 * on the device (before clb_runtime_build_program: whether any runtime on
 * the device built it). */
gboolean clb_runtime_program_pending (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit);
/* Whether the programs were built with clang's vector extensions
 * (-DCLB_CLANG_EXTENSIONS=1) or in standard OpenCL C. */
gboolean clb_runtime_get_clang_extensions (ClbRuntime * rt);
/* How many of the programs came from the binary cache. */
guint clb_runtime_get_cached_programs (ClbRuntime * rt);

/* Kernel @name of @unit's program for @size's samples (built first where
 * it is not yet). */
cl_kernel clb_runtime_create_kernel (ClbRuntime * rt, ClbSampleSize size,
    const gchar * unit, const gchar * name, GError ** error);
void clb_runtime_release_kernel (cl_kernel * kernel);

cl_mem clb_runtime_create_buffer (ClbRuntime * rt, cl_mem_flags flags,
    gsize size, GError ** error);
void clb_runtime_release_buffer (cl_mem * mem);
/* One more reference to @mem, released by clb_runtime_release_buffer. */
gboolean clb_runtime_retain_buffer (cl_mem mem);
/* A buffer over @size bytes of the caller's memory at @host
 * (CL_MEM_USE_HOST_PTR): kernels read or write it in place on devices that
 * share host memory. The memory must outlive the buffer; results written
 * through it are in @host once a blocking map has returned. */
cl_mem clb_runtime_wrap_host (ClbRuntime * rt, cl_mem_flags flags,
    gpointer host, gsize size, GError ** error);

/* An RGBA8 (CL_RGBA, CL_UNORM_INT8) 2D image: what a GL RGBA texture
 * shared through cl_khr_gl_sharing is. */
cl_mem clb_runtime_create_image (ClbRuntime * rt, cl_mem_flags flags,
    gsize width, gsize height, GError ** error);
/* clCreateFromGLTexture (@target e.g. GL_TEXTURE_2D, mip level 0): needs
 * a runtime made with the GL context's properties. */
cl_mem clb_runtime_create_from_gl_texture (ClbRuntime * rt,
    cl_mem_flags flags, guint target, guint texture, GError ** error);

cl_context clb_runtime_get_context (ClbRuntime * rt);
cl_platform_id clb_runtime_get_platform (ClbRuntime * rt);
cl_command_queue clb_runtime_get_queue (ClbRuntime * rt);
cl_device_id clb_runtime_get_device (ClbRuntime * rt);
const gchar *clb_runtime_get_device_name (ClbRuntime * rt);
const gchar *clb_runtime_get_platform_name (ClbRuntime * rt);

const gchar *clb_error_name (cl_int err);

/* Test hook for fault injection. When CLBOXBLUR_FAULT is set to
 * "<call>" or "<call>:<code>" and @what starts with <call> (e.g.
 * "clEnqueueNDRangeKernel", "clCreateBuffer"), returns <code> (default
 * CL_OUT_OF_RESOURCES) so that the caller fails as if the call had;
 * otherwise CL_SUCCESS. Every OpenCL call of the runtime and the engine
 * goes through it. */
#define CLB_FAULT_ENV "CLBOXBLUR_FAULT"

/* PoCL's switch that pins its CPU device's worker threads, one a core:
 * the runtime sets it to 1 before it first asks for a platform, where the
 * environment does not already say (runtimedevice.c). */
#define CLB_POCL_AFFINITY_ENV "POCL_AFFINITY"
cl_int clb_fault (const gchar * what);

/* Sets @error from a failed OpenCL call and returns FALSE. */
gboolean clb_set_cl_error (GError ** error, cl_int err, const gchar * what);

G_END_DECLS
