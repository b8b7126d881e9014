/* clboxblur-bench: times the engine directly, without a pipeline.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Speaks the command line of the AMD BoxFilterGL sample (-x, --sat,
 * --separable, -i, -t, -e, --device, -p, -d, --dump, --load, --flags, -q,
 * -v) plus --bilateral, --mosaic, --fill, lists of sizes, formats and radii and the frame's
 * content (--content: random bytes, grey noise or a flat frame), and prints
 * one row per method x size x format x radius: the median time of a frame
 * (upload, kernels, read-back) over the iterations after a warm-up, frames
 * per second, and GB/s against the frame's bytes read once and written once.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "progcache.h"
#include "gstcllayout.h"
#include "refblur.h"
#include "benchoptions.h"


typedef struct
{
  const gchar *name;
  ClbPlanes planes;
  ClbJob jobs[CLB_MAX_JOBS];
  guint n_jobs;
  gsize plane_bytes[CLB_MAX_PLANES];
  /* formats with alpha: where it is, for --mask (as the element says) */
  gboolean has_alpha;
  guint alpha_plane, alpha_offset, alpha_pixel_stride;
  ClbJob mask_jobs[CLB_MAX_JOBS];       /* the jobs without alpha */
  guint n_mask_jobs;
} Layout;

/* The formats the benchmark times and checks: 8-bit, laid out as the
 * element lays them out (gst/gstcllayout.h), rows packed. */
static const gchar *const bench_formats[] = { "RGBA", "RGB", "GRAY8", "NV12",
  "YUY2", "A420", "I420"
};

static gboolean
make_layout (const gchar * format, guint w, guint h, Layout * l)
{
  GstVideoInfo info;
  guint f, p;

  memset (l, 0, sizeof (*l));
  for (f = 0; f < G_N_ELEMENTS (bench_formats); f++) {
    if (g_str_equal (format, bench_formats[f]))
      break;
  }
  if (f == G_N_ELEMENTS (bench_formats) || !gst_video_info_set_format (&info,
          gst_video_format_from_string (format), w, h))
    return FALSE;

  l->name = format;
  gst_cl_layout_make_planes (&info, &l->planes);
  l->n_jobs = gst_cl_layout_make_jobs (&info, FALSE, l->jobs);
  for (p = 0; p < l->planes.n_planes; p++)
    l->plane_bytes[p] = (gsize) l->planes.plane_width[p] *
        l->planes.plane_height[p];
  l->has_alpha = GST_VIDEO_INFO_HAS_ALPHA (&info);
  l->n_mask_jobs = gst_cl_layout_make_jobs (&info, TRUE, l->mask_jobs);
  if (l->has_alpha) {
    l->alpha_plane = GST_VIDEO_INFO_COMP_PLANE (&info, GST_VIDEO_COMP_A);
    l->alpha_offset = GST_VIDEO_INFO_COMP_POFFSET (&info, GST_VIDEO_COMP_A);
    l->alpha_pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (&info,
        GST_VIDEO_COMP_A);
  }
  return TRUE;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* Whether the frame's alpha left as it came (--mask: no job holds it). */
static gboolean
verify_alpha (const Layout * l, guint8 ** src, guint8 ** dst)
{
  guint p = l->alpha_plane, x, y;
  gsize pitch = l->planes.plane_width[p];

  for (y = 0; y < l->planes.plane_height[p]; y++) {
    for (x = 0; x < l->planes.width; x++) {
      gsize i = y * pitch + x * l->alpha_pixel_stride + l->alpha_offset;

      if (src[p][i] != dst[p][i]) {
        g_printerr ("%s: the alpha at (%u, %u) is %u, not %u as it came\n",
            l->name, x, y, dst[p][i], src[p][i]);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* The masked reference of @job (its samples @in; the job holds no alpha)
 * into @ref: the alpha from the frame (subsampled jobs: the 2x2 mean), the
 * box of the mask (ref_mask_blur, brute force: slow on large frames). */
static void
verify_mask_job (const Layout * l, const ClbParams * params,
    const ClbJob * job, const guint16 * in, guint16 * ref, guint8 ** src)
{
  guint w = l->planes.width, h = l->planes.plane_height[l->alpha_plane];
  guint16 *alpha = g_new (guint16, (gsize) w * h);
  guint16 *ja = g_new (guint16, (gsize) job->width * job->height);
  guint16 *blend = g_new (guint16, (gsize) job->width * job->height);
  gsize pitch = l->planes.plane_width[l->alpha_plane];
  guint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      alpha[(gsize) y * w + x] = src[l->alpha_plane][y * pitch
          + x * l->alpha_pixel_stride + l->alpha_offset];
  if (job->x_sub || job->y_sub)
    ref_alpha_subsample (alpha, w, h, job->x_sub, job->y_sub, ja);
  else
    memcpy (ja, alpha, (gsize) w * h * sizeof (guint16));
  if (params->mask_feather > 0)
    ref_box_blur (ja, blend, job->width, job->height, 1,
        clb_scale_radius (params->mask_feather, job->x_sub),
        clb_scale_radius (params->mask_feather, job->y_sub),
        (RefBorder) params->border, 1);
  else
    memcpy (blend, ja, (gsize) job->width * job->height * sizeof (guint16));
  if (params->method == CLB_METHOD_BILATERAL) {
    /* the mask only blends bilateral's output */
    gsize n = (gsize) job->width * job->height * job->channels;
    guint16 *filtered = g_new (guint16, n);

    ref_bilateral (in, filtered, job->width, job->height, job->channels,
        clb_bilateral_radius (clb_scale_radius (params->radius_x,
                job->x_sub), params->sigma_spatial),
        clb_bilateral_radius (clb_scale_radius (params->radius_y,
                job->y_sub), params->sigma_spatial),
        (RefBorder) params->border, params->sigma_spatial,
        params->sigma_range, job->dist_mask, 255);
    ref_mask_blur (in, ja, blend, filtered, ref, job->width, job->height,
        job->channels, 0, 0, (RefBorder) params->border, 255);
    g_free (filtered);
  } else {
    ref_mask_blur (in, ja, blend, NULL, ref, job->width, job->height,
        job->channels, clb_scale_radius (params->radius_x, job->x_sub),
        clb_scale_radius (params->radius_y, job->y_sub),
        (RefBorder) params->border, 255);
  }
  g_free (alpha);
  g_free (ja);
  g_free (blend);
}

/* Compares every job of @jobs in the output with the plain-C reference. */
static gboolean
verify (const Layout * l, const ClbJob * jobs, guint n_jobs,
    const ClbParams * params, guint frames, guint8 ** src, guint8 ** dst)
{
  guint j;

  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];
    gsize n = (gsize) job->width * job->height * job->channels, i;
    guint16 *in = g_new (guint16, n), *ref = g_new (guint16, n);
    guint rx = clb_scale_radius (params->radius_x, job->x_sub);
    guint ry = clb_scale_radius (params->radius_y, job->y_sub);
    gsize pitch = l->planes.plane_width[job->plane];
    guint x, y, c, worst = 0;
    RefBorder border = (RefBorder) params->border;

    for (y = 0; y < job->height; y++)
      for (x = 0; x < job->width; x++)
        for (c = 0; c < job->channels; c++)
          in[((gsize) y * job->width + x) * job->channels + c] =
              src[job->plane][y * pitch + x * job->pixel_stride +
              job->offset[c]];
    if (params->mask) {
      verify_mask_job (l, params, job, in, ref, src);
      /* kept channels (alpha, left out of the mask's jobs) as they came */
      for (i = 0; i < n; i++) {
        if (job->keep_mask & (1u << (i % job->channels)))
          ref[i] = in[i];
      }
    } else if (params->method == CLB_METHOD_FILL) {
      /* each channel its job's value (the layout leaves them 0) */
      for (i = 0; i < n; i++)
        ref[i] = job->fill[i % job->channels];
    } else if (params->method == CLB_METHOD_MOSAIC) {
      /* blocks of block_size >> sub pixels of the job */
      ref_mosaic (in, ref, job->width, job->height, job->channels,
          MAX (params->block_size >> job->x_sub, 1),
          MAX (params->block_size >> job->y_sub, 1));
    } else if (params->method == CLB_METHOD_TEMPORAL) {
      /* @frames frames of the same input from a reset history */
      RefTemporal t;
      guint f;

      rx = MIN (clb_bilateral_radius (rx, params->sigma_spatial),
          CLB_MAX_TEMPORAL_RADIUS);
      ry = MIN (clb_bilateral_radius (ry, params->sigma_spatial),
          CLB_MAX_TEMPORAL_RADIUS);
      if (ref_temporal_init (&t, job->width, job->height, job->channels))
        return FALSE;
      for (f = 0; f < frames; f++)
        ref_temporal_frame (&t, in, ref, job->dist_mask, 255, 0,
            CLB_DEFAULT_TEMPORAL_REACH, rx, ry, params->sigma_spatial,
            border);
      ref_temporal_clear (&t);
    } else if (params->method == CLB_METHOD_BILATERAL) {
      /* the window the engine bounds bilateral's to */
      rx = clb_bilateral_radius (rx, params->sigma_spatial);
      ry = clb_bilateral_radius (ry, params->sigma_spatial);
      ref_bilateral (in, ref, job->width, job->height, job->channels, rx, ry,
          border, params->sigma_spatial, params->sigma_range, job->dist_mask,
          255);
    } else {
      ref_box_blur (in, ref, job->width, job->height, job->channels, rx, ry,
          border, params->passes);
    }
    if (params->use_regions) {
      /* the regions' composite, from the reference's weights */
      int (*rects)[4] = g_malloc (sizeof (int[4]) * MAX (params->n_regions, 1));
      guint W = params->region_feather + 1, k;

      for (k = 0; k < params->n_regions; k++) {
        rects[k][0] = params->regions[k].x;
        rects[k][1] = params->regions[k].y;
        rects[k][2] = params->regions[k].width;
        rects[k][3] = params->regions[k].height;
      }
      for (i = 0; i < n; i++) {
        gsize px = i / job->channels;
        guint w = ref_region_weight ((RefShape) params->region_shape,
            params->region_feather, params->region_invert,
            (const int (*)[4]) rects, params->n_regions, l->planes.width,
            l->planes.height, job->x_sub, job->y_sub, px % job->width,
            px / job->width);

        ref[i] = ref_blend (w, W, ref[i], in[i]);
      }
      g_free (rects);
    }
    for (i = 0; i < n; i++) {
      gsize px = i / job->channels;
      guint8 got = dst[job->plane][(px / job->width) * pitch +
          (px % job->width) * job->pixel_stride + job->offset[i %
              job->channels]];

      worst = MAX (worst, (guint) ABS ((gint) got - (gint) ref[i]));
    }
    g_free (in);
    g_free (ref);
    if (worst > (params->method == CLB_METHOD_BILATERAL ? 1u : 0u))
      return FALSE;
  }
  return TRUE;
}

/* Bytes between neighbouring pixels of plane @p: its first job's. */
static guint
plane_pixel_stride (const Layout * l, guint p)
{
  guint j;

  for (j = 0; j < l->n_jobs; j++) {
    if (l->jobs[j].plane == p)
      return MAX (l->jobs[j].pixel_stride, 1);
  }
  return 1;
}

/* A plane's samples: random bytes, a random value per pixel in all its
 * bytes (grey noise: R=G=B), or 0 everywhere. */
static void
fill_plane (guint8 * dst, gsize n, guint pixel_stride, const gchar * content,
    GRand * rand)
{
  gsize i;
  guint8 v = 0;

  for (i = 0; i < n; i++) {
    if (content && g_str_equal (content, "flat"))
      dst[i] = 0;
    else if (content && g_str_equal (content, "grey")) {
      if (i % pixel_stride == 0)
        v = g_rand_int (rand) & 0xff;
      dst[i] = v;
    } else
      dst[i] = g_rand_int (rand) & 0xff;
  }
}

/* The time of one read and one write of a frame: memcpy, median. */
static int
print_floor (const gchar * sizes, const gchar * formats, gint iterations)
{
  gchar **size_list = g_strsplit (sizes ? sizes : "1920x1080,3840x2160", ",",
      -1);
  gchar **format_list = g_strsplit (formats ? formats : "RGBA,NV12", ",", -1);
  guint s, f;

  g_print ("memory floor: memcpy of the frame's bytes, median of %d after "
      "%d warm-up\n", MAX (iterations, 1), WARMUP);
  for (s = 0; size_list[s]; s++) {
    for (f = 0; format_list[f]; f++) {
      Layout l;
      guint w = 0, h = 0, p;
      gsize bytes = 0;
      guint8 *a, *b;
      gdouble *times = g_new (gdouble, MAX (iterations, 1));
      gint it;

      if (sscanf (size_list[s], "%ux%u", &w, &h) != 2
          || !make_layout (format_list[f], w, h, &l))
        return 2;
      for (p = 0; p < l.planes.n_planes; p++)
        bytes += l.plane_bytes[p];
      a = g_malloc (bytes);
      b = g_malloc (bytes);
      memset (a, 1, bytes);
      memset (b, 2, bytes);
      for (it = -WARMUP; it < MAX (iterations, 1); it++) {
        gint64 t0 = g_get_monotonic_time ();

        memcpy (b, a, bytes);
        if (it >= 0)
          times[it] = (g_get_monotonic_time () - t0) / 1000.0;
        a[it & 63] ^= b[bytes - 1 - (it & 63)];   /* keep the copy live */
      }
      qsort (times, MAX (iterations, 1), sizeof (gdouble), cmp_double);
      g_print ("%-10s %-6s %10" G_GSIZE_FORMAT " bytes %8.3f ms\n",
          size_list[s], format_list[f], bytes, times[MAX (iterations, 1) / 2]);
      g_free (times);
      g_free (a);
      g_free (b);
    }
  }
  g_strfreev (size_list);
  g_strfreev (format_list);
  return 0;
}

/* Host memory for a plane: g_malloc (pageable), or with @pinned a
 * CL_MEM_ALLOC_HOST_PTR buffer kept mapped, as the element's buffer pool
 * gives upstream (pinned on discrete GPUs); *@mem keeps it. */
static guint8 *
frame_alloc (ClbRuntime * rt, gboolean pinned, gsize bytes, cl_mem * mem)
{
  cl_int err;
  gpointer p;

  *mem = NULL;
  if (!pinned)
    return g_malloc (bytes);
  *mem = clCreateBuffer (clb_runtime_get_context (rt), CL_MEM_READ_WRITE
      | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  if (err != CL_SUCCESS)
    return NULL;
  p = clEnqueueMapBuffer (clb_runtime_get_queue (rt), *mem, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    clReleaseMemObject (*mem);
    *mem = NULL;
    return NULL;
  }
  return p;
}

static void
frame_free (ClbRuntime * rt, guint8 * data, cl_mem mem)
{
  if (mem == NULL) {
    g_free (data);
    return;
  }
  clEnqueueUnmapMemObject (clb_runtime_get_queue (rt), mem, data, 0, NULL,
      NULL);
  clFinish (clb_runtime_get_queue (rt));
  clReleaseMemObject (mem);
}

/* The device's copy floor for @bytes: the median time of a blocking
 * upload and of a blocking download between a device buffer and host
 * memory the device can reach by DMA (CL_MEM_ALLOC_HOST_PTR, mapped:
 * pinned on discrete GPUs), and of the same round trip from pageable
 * (g_malloc) memory. FALSE where the device refuses a step. */
typedef struct
{
  gdouble up, down, pageable;
} CopyFloor;

static gdouble
median_of (gdouble * times, gint n)
{
  qsort (times, n, sizeof (gdouble), cmp_double);
  return times[n / 2];
}

static gboolean
copy_floor (ClbRuntime * rt, gsize bytes, gint iterations, CopyFloor * f)
{
  cl_context ctx = clb_runtime_get_context (rt);
  cl_command_queue q = clb_runtime_get_queue (rt);
  cl_mem dev = NULL, host = NULL;
  gpointer pinned = NULL, pageable = g_malloc0 (bytes);
  gint n = MAX (iterations, 1), it;
  gdouble *up = g_new (gdouble, n), *down = g_new (gdouble, n);
  gdouble *round = g_new (gdouble, n);
  cl_int err;
  gboolean ok = FALSE;

  dev = clCreateBuffer (ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (err != CL_SUCCESS)
    goto done;
  host = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
      bytes, NULL, &err);
  if (err != CL_SUCCESS)
    goto done;
  pinned = clEnqueueMapBuffer (q, host, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
      0, bytes, 0, NULL, NULL, &err);
  if (err != CL_SUCCESS)
    goto done;
  memset (pinned, 1, bytes);
  for (it = -WARMUP; it < n; it++) {
    gint64 t0 = g_get_monotonic_time (), t1, t2, t3;

    if (clEnqueueWriteBuffer (q, dev, CL_TRUE, 0, bytes, pinned, 0, NULL,
            NULL) != CL_SUCCESS)
      goto done;
    t1 = g_get_monotonic_time ();
    if (clEnqueueReadBuffer (q, dev, CL_TRUE, 0, bytes, pinned, 0, NULL,
            NULL) != CL_SUCCESS)
      goto done;
    t2 = g_get_monotonic_time ();
    if (clEnqueueWriteBuffer (q, dev, CL_TRUE, 0, bytes, pageable, 0, NULL,
            NULL) != CL_SUCCESS
        || clEnqueueReadBuffer (q, dev, CL_TRUE, 0, bytes, pageable, 0, NULL,
            NULL) != CL_SUCCESS)
      goto done;
    t3 = g_get_monotonic_time ();
    if (it >= 0) {
      up[it] = (t1 - t0) / 1000.0;
      down[it] = (t2 - t1) / 1000.0;
      round[it] = (t3 - t2) / 1000.0;
    }
  }
  f->up = median_of (up, n);
  f->down = median_of (down, n);
  f->pageable = median_of (round, n);
  ok = TRUE;

done:
  if (pinned)
    clEnqueueUnmapMemObject (q, host, pinned, 0, NULL, NULL);
  clFinish (q);
  if (host)
    clReleaseMemObject (host);
  if (dev)
    clReleaseMemObject (dev);
  g_free (pageable);
  g_free (up);
  g_free (down);
  g_free (round);
  return ok;
}


static const gchar *method_names[] = { "sat", "separable", "bilateral",
  "mosaic", "fill", "temporal"
};

/* The runtime and engine on the device @o names; FALSE with the error
 * printed. */
static gboolean
make_engine (const BenchOptions * o, ClbRuntime ** rt, ClbEngine ** engine)
{
  ClbDeviceType type = CLB_DEVICE_TYPE_DEFAULT;
  ClbEngineOptions options;
  GError *err = NULL;

  if (o->device) {
    if (g_str_equal (o->device, "cpu"))
      type = CLB_DEVICE_TYPE_CPU;
    else if (g_str_equal (o->device, "gpu"))
      type = CLB_DEVICE_TYPE_GPU;
    else if (g_str_equal (o->device, "accelerator"))
      type = CLB_DEVICE_TYPE_ACCELERATOR;
  }
  if (o->dump || o->load) {
    g_setenv (CLB_CACHE_DIR_ENV, o->dump ? o->dump : o->load, TRUE);
    g_setenv (CLB_BINARY_CACHE_ENV, "1", TRUE);
  }

  /* the runtime's queue takes the device's timestamps */
  if (o->kernels && !g_getenv (CLB_PROFILE_ENV))
    g_setenv (CLB_PROFILE_ENV, "summary", TRUE);
  *rt = clb_runtime_new (type, o->platform, o->device_index, &err);
  if (!*rt || !clb_runtime_build_program (*rt, o->flags, &err)
      || ((o->dump || o->load) && !clb_runtime_ensure_every_program (*rt, &err))) {
    g_printerr ("%s\n", err->message);
    return FALSE;
  }
  if (o->load && clb_runtime_get_cached_programs (*rt)
      != CLB_N_SAMPLE_SIZES * clb_kernel_unit_count ()) {
    g_printerr ("--load %s: no usable program binaries there\n", o->load);
    return FALSE;
  }
  clb_engine_options_from_env (&options);
  options.profile |= o->kernels;
  *engine = clb_engine_new (*rt, &options, &err);
  if (!*engine) {
    g_printerr ("%s\n", err->message);
    return FALSE;
  }
  return TRUE;
}

/* How the bench runs, before its table. */
static void
print_header (const BenchOptions * o, ClbRuntime * rt, ClbEngine * engine)
{
  g_print ("clboxblur-bench %s: '%s' on '%s'; %d iterations after %d "
      "warm-up, median; GB/s = frame bytes x 2 / time\n", VERSION,
      clb_runtime_get_device_name (rt), clb_runtime_get_platform_name (rt),
      o->iterations, o->warmup);
  g_print ("content: %s; border %s", o->content ? o->content : "random",
      o->border ? o->border : "shrink");
  if (o->bilateral)
    g_print ("; bilateral sigma-spatial %g, sigma-range %g", o->sigma_spatial,
        o->sigma_range);
  g_print ("\n");
  if (clb_engine_get_loop_cap (engine))
    g_print ("the device ends kernel loops after %u iterations: launches "
        "planned around that\n", clb_engine_get_loop_cap (engine));
  g_print ("ms/frame: the engine's, copies in and out included, from and "
      "to %s memory; floor: the device's pinned upload + download "
      "of the frame (CL_MEM_ALLOC_HOST_PTR, mapped)%s\n", o->pinned ?
      "pinned (CL_MEM_ALLOC_HOST_PTR, mapped)" : "pageable (g_malloc)",
      o->kernels ? "; under each row, its kernels on the device's clock" : "");
  if (o->timing)
    g_print ("%-10s %-10s %-6s %6s %10s %9s %8s %8s%s\n", "method", "size",
        "format", "radius", "ms/frame", "fps", "GB/s", "floor",
        o->check ? "  verify" : "");
}

/* A frame of one size and format, in and out, on the host. */
typedef struct
{
  Layout l;
  guint8 *src[CLB_MAX_PLANES], *dst[CLB_MAX_PLANES];
  cl_mem src_mem[CLB_MAX_PLANES], dst_mem[CLB_MAX_PLANES];
  gsize stride[CLB_MAX_PLANES], bytes;
  ClbFrame in, out;
} BenchFrame;

/* Times (and with --verify checks) one method at one radius on @bf;
 * FALSE where the engine failed (printed). @failures counts the results
 * that differ from the reference. */
static gboolean
run_one (const BenchOptions * o, ClbEngine * engine, BenchFrame * bf,
    const gchar * size, ClbMethod method, const gchar * radius,
    gdouble floor_ms, gint * failures)
{
  ClbParams params = { .method = method, .border = CLB_BORDER_SHRINK,
    .passes = MAX (o->passes, 1), .sigma_spatial = o->sigma_spatial,
    .sigma_range = o->sigma_range
  };
  gint n = MAX (o->iterations, 1), it;
  gdouble *times = g_new (gdouble, n);
  GError *err = NULL;
  gboolean ok = TRUE;

  ClbRect *rects = NULL;

  params.radius_x = params.radius_y = atoi (radius);
  params.block_size = CLAMP (2 * params.radius_x, CLB_MIN_BLOCK_SIZE,
      CLB_MAX_BLOCK_SIZE);
  if (o->regions > 0) {
    guint fw = bf->l.planes.width, fh = bf->l.planes.height, i;

    /* spread over the frame and a few pixels past it, 1..11 x 1..13; the
     * first one large, past the top edge (whole tiles inside it), the
     * second huge (below) */
    rects = g_new (ClbRect, o->regions);
    for (i = 0; i < (guint) o->regions; i++) {
      rects[i].x = (gint) ((i * 37u + 5) % (fw + 8)) - 4;
      rects[i].y = (gint) ((i * 23u + 3) % (fh + 8)) - 4;
      rects[i].width = 1 + i % 11;
      rects[i].height = 1 + (i * 5) % 13;
    }
    rects[0].x = 2;
    rects[0].y = -3;
    rects[0].width = MAX ((gint) fw - 4, 1);
    rects[0].height = MAX ((gint) fh * 3 / 4, 1);
    /* the second one huge, an ellipse's products past 64 bits
     * (kernels/region.cl): a circle of 2^28 pixels across, its right end
     * in the frame's middle */
    if (o->regions > 1) {
      rects[1].x = (gint) fw / 2 - (1 << 28);
      rects[1].y = (gint) fh / 2 - (1 << 27);
      rects[1].width = rects[1].height = 1 << 28;
    }
    params.use_regions = TRUE;
    params.regions = rects;
    params.n_regions = o->regions;
    params.region_invert = o->invert;
    params.region_shape = o->shape && g_str_equal (o->shape, "ellipse") ?
        CLB_REGION_ELLIPSE : CLB_REGION_RECTANGLE;
    params.region_feather = CLAMP (o->feather, 0, CLB_MAX_REGION_FEATHER);
  }
  if (o->border && g_str_equal (o->border, "replicate"))
    params.border = CLB_BORDER_REPLICATE;
  else if (o->border && g_str_equal (o->border, "reflect"))
    params.border = CLB_BORDER_REFLECT;

  for (it = -MAX (o->warmup, 0); it < n; it++) {
    gint64 t0;

    if (it == 0)                /* the warm-up's kernels left out */
      g_free (clb_engine_take_profile (engine, 0));
    t0 = g_get_monotonic_time ();
    /* temporal: each frame a first one, as verify's reference takes it
     * (--history: the first alone) */
    if (!o->history || it == -MAX (o->warmup, 0))
      clb_engine_temporal_reset (engine);
    if (!clb_engine_filter (engine, &params, bf->l.jobs, bf->l.n_jobs,
            &bf->in, &bf->out, &err)) {
      g_printerr ("%s\n", err->message);
      g_error_free (err);
      g_free (times);
      g_free (rects);
      return FALSE;
    }
    if (it >= 0)
      times[it] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  qsort (times, n, sizeof (gdouble), cmp_double);
  if (o->check) {
    ok = verify (&bf->l, bf->l.jobs, bf->l.n_jobs, &params,
        o->history ? MAX (o->warmup, 0) + n : 1, bf->src, bf->dst);
    *failures += !ok;
  }
  if (!o->quiet && o->timing) {
    gdouble ms = times[n / 2];
    gchar *prof = clb_engine_take_profile (engine, n);

    g_print ("%-10s %-10s %-6s %6s %10.2f %9.1f %8.2f %8.3f%s\n",
        method_names[method], size, bf->l.name, radius, ms, 1000.0 / ms,
        2.0 * bf->bytes / (ms / 1000.0) / 1e9, floor_ms,
        o->check ? (ok ? "  ok" : "  FAILED") : "");
    if (prof) {
      gchar **lines = g_strsplit (prof, "\n", -1);
      guint i;

      for (i = 0; lines[i] && *lines[i]; i++)
        g_print ("    %s\n", lines[i]);
      g_strfreev (lines);
      g_free (prof);
    }
  } else if (!o->quiet && o->check) {
    g_print ("%s %s %s radius %s: %s\n", method_names[method], size,
        bf->l.name, radius, ok ? "ok" : "FAILED");
  }
  g_free (times);
  g_free (rects);
  return TRUE;
}

/* --mask: @method at @radius on @bf, plain (every job, alpha included, as
 * the element blurs RGBA by default) and with alpha as the mask (the jobs
 * without alpha, as the element makes them), alternating frame by frame
 * so that both see the same load; one row each and the ratio of their
 * medians. FALSE where the engine failed (printed). */
static gboolean
run_mask_ab (const BenchOptions * o, ClbEngine * engine, BenchFrame * bf,
    const gchar * size, ClbMethod method, const gchar * radius,
    gint * failures)
{
  ClbParams plain = { .method = method, .border = CLB_BORDER_SHRINK,
    .passes = 1, .sigma_spatial = o->sigma_spatial,
    .sigma_range = o->sigma_range
  }, masked;
  gint n = MAX (o->iterations, 1), it;
  gdouble *tp = g_new (gdouble, n), *tm = g_new (gdouble, n), mp, mm;
  GError *err = NULL;
  gboolean ok = TRUE;

  if (!bf->l.has_alpha) {
    g_printerr ("--mask: %s has no alpha\n", bf->l.name);
    g_free (tp);
    g_free (tm);
    return FALSE;
  }
  plain.radius_x = plain.radius_y = atoi (radius);
  if (o->border && g_str_equal (o->border, "replicate"))
    plain.border = CLB_BORDER_REPLICATE;
  else if (o->border && g_str_equal (o->border, "reflect"))
    plain.border = CLB_BORDER_REFLECT;
  masked = plain;
  masked.mask = TRUE;
  masked.mask_plane = bf->l.alpha_plane;
  masked.mask_offset = bf->l.alpha_offset;
  masked.mask_pixel_stride = bf->l.alpha_pixel_stride;
  masked.mask_feather = MAX (o->mask_feather, 0);
  for (it = -MAX (o->warmup, 0); it < n; it++) {
    gint64 t0 = g_get_monotonic_time (), t1, t2;

    if (!o->mask_only && !clb_engine_filter (engine, &plain, bf->l.jobs,
            bf->l.n_jobs, &bf->in, &bf->out, &err))
      goto failed;
    t1 = g_get_monotonic_time ();
    if (!clb_engine_filter (engine, &masked, bf->l.mask_jobs,
            bf->l.n_mask_jobs, &bf->in, &bf->out, &err))
      goto failed;
    t2 = g_get_monotonic_time ();
    if (it >= 0) {
      tp[it] = (t1 - t0) / 1000.0;
      tm[it] = (t2 - t1) / 1000.0;
    }
  }
  if (o->check) {
    ok = verify (&bf->l, bf->l.mask_jobs, bf->l.n_mask_jobs, &masked, 1,
        bf->src, bf->dst) && verify_alpha (&bf->l, bf->src, bf->dst);
    *failures += !ok;
  }
  mp = median_of (tp, n);
  mm = median_of (tm, n);
  if (!o->quiet && !o->mask_only)
    g_print ("%-10s %-10s %-6s %6s %10.2f %9.1f\n", method_names[method],
        size, bf->l.name, radius, mp, 1000.0 / mp);
  if (!o->quiet) {
    g_print ("%-10s %-10s %-6s %6s %10.2f %9.1f   %.2fx plain%s\n",
        "+mask", size, bf->l.name, radius, mm, 1000.0 / mm,
        o->mask_only ? 0.0 : mm / mp,
        o->check ? (ok ? "  ok" : "  FAILED") : "");
  }
  g_free (tp);
  g_free (tm);
  return TRUE;

failed:
  g_printerr ("%s\n", err->message);
  g_error_free (err);
  g_free (tp);
  g_free (tm);
  return FALSE;
}

/* Allocates and fills the frame of @format at @w x @h (seeded by @seed);
 * 2: an unknown format, 1: no memory, 0: done. */
static gint
frame_make (const BenchOptions * o, ClbRuntime * rt, const gchar * format,
    guint w, guint h, guint seed, BenchFrame * bf)
{
  GRand *rand;
  guint p;

  memset (bf, 0, sizeof (*bf));
  if (!make_layout (format, w, h, &bf->l)) {
    g_printerr ("unknown format '%s'\n", format);
    return 2;
  }
  rand = g_rand_new_with_seed (seed);
  for (p = 0; p < bf->l.planes.n_planes; p++) {
    gsize n = bf->l.plane_bytes[p];

    bf->src[p] = frame_alloc (rt, o->pinned, n, &bf->src_mem[p]);
    bf->dst[p] = frame_alloc (rt, o->pinned, n, &bf->dst_mem[p]);
    if (!bf->src[p] || !bf->dst[p]) {
      g_printerr ("no %s host memory of %" G_GSIZE_FORMAT " bytes\n",
          o->pinned ? "pinned" : "pageable", n);
      g_rand_free (rand);
      return 1;
    }
    fill_plane (bf->src[p], n, plane_pixel_stride (&bf->l, p), o->content,
        rand);
    bf->stride[p] = bf->l.planes.plane_width[p];
    bf->bytes += n;
  }
  g_rand_free (rand);
  clb_frame_init_host (&bf->in, bf->l.planes.n_planes,
      (const guint8 * const *) bf->src, bf->stride);
  clb_frame_init_host (&bf->out, bf->l.planes.n_planes,
      (const guint8 * const *) bf->dst, bf->stride);
  return 0;
}

static void
frame_clear (ClbRuntime * rt, BenchFrame * bf)
{
  guint p;

  for (p = 0; p < bf->l.planes.n_planes; p++) {
    frame_free (rt, bf->src[p], bf->src_mem[p]);
    frame_free (rt, bf->dst[p], bf->dst_mem[p]);
  }
}

/* Every method and radius on one size and format: 0, or the exit status
 * of a failure. */
static gint
run_frame (const BenchOptions * o, ClbRuntime * rt, ClbEngine * engine,
    const gchar * size, guint w, guint h, const gchar * format, guint seed,
    gchar ** radius_list, gint * failures)
{
  BenchFrame bf;
  CopyFloor fl;
  GError *err = NULL;
  gdouble floor_ms = -1;
  guint m, r;
  gint ret = frame_make (o, rt, format, w, h, seed, &bf);

  if (ret != 0)
    return ret;
  if (!clb_engine_set_planes (engine, &bf.l.planes, &err)) {
    g_printerr ("%s %s: %s\n", size, bf.l.name, err->message);
    g_clear_error (&err);
    (*failures)++;
    frame_clear (rt, &bf);
    return 0;
  }
  if (copy_floor (rt, bf.bytes, o->iterations, &fl)) {
    floor_ms = fl.up + fl.down;
    if (!o->quiet)
      g_print ("copy floor %s %s (%" G_GSIZE_FORMAT " bytes): pinned "
          "upload %.3f ms + download %.3f ms = %.3f ms; pageable round "
          "trip %.3f ms\n", size, bf.l.name, bf.bytes, fl.up, fl.down,
          floor_ms, fl.pageable);
  }
  for (m = 0; m < o->n_methods && ret == 0; m++) {
    for (r = 0; radius_list[r] && ret == 0; r++) {
      if (o->mask ? !run_mask_ab (o, engine, &bf, size, o->methods[m],
              radius_list[r], failures) : !run_one (o, engine, &bf, size,
              o->methods[m], radius_list[r], floor_ms, failures))
        ret = 1;
    }
  }
  frame_clear (rt, &bf);
  return ret;
}

int
main (int argc, char **argv)
{
  BenchOptions o;
  ClbRuntime *rt = NULL;
  ClbEngine *engine = NULL;
  gchar **size_list, **format_list, **radius_list;
  guint s, f;
  gint failures = 0, ret;

  ret = bench_parse_options (&argc, &argv, &o);
  if (ret != 0)
    return ret < 0 ? 0 : ret;
  if (o.floor_only)
    return print_floor (o.sizes, o.formats, o.iterations);
  if (!make_engine (&o, &rt, &engine))
    return 1;

  size_list = g_strsplit (o.sizes ? o.sizes : "1920x1080,3840x2160", ",", -1);
  format_list = g_strsplit (o.formats ? o.formats : "RGBA,NV12", ",", -1);
  if (o.filter_width > 0) {
    gchar *r1 = g_strdup_printf ("%d", (o.filter_width - 1) / 2);

    radius_list = g_strsplit (r1, ",", -1);
    g_free (r1);
  } else
    radius_list = g_strsplit (o.radii ? o.radii : "2,15,50", ",", -1);

  if (!o.quiet)
    print_header (&o, rt, engine);
  for (s = 0; size_list[s] && ret == 0; s++) {
    guint w = 0, h = 0;

    if (sscanf (size_list[s], "%ux%u", &w, &h) != 2 || w == 0 || h == 0) {
      g_printerr ("bad size '%s'\n", size_list[s]);
      ret = 2;
      break;
    }
    for (f = 0; format_list[f] && ret == 0; f++)
      ret = run_frame (&o, rt, engine, size_list[s], w, h, format_list[f],
          s * 31 + f, radius_list, &failures);
  }

  g_strfreev (size_list);
  g_strfreev (format_list);
  g_strfreev (radius_list);
  clb_engine_free (engine);
  clb_runtime_free (rt);
  if (ret != 0)
    return ret;
  return failures ? 1 : 0;
}
