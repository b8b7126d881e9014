/* Every schedule against the generic variant it must equal: the rows of
 * the variant table made for one device class, sample width or layout
 * (and the pairs that run two jobs in one walk) give, byte for byte, what
 * the method's generic rows give (device class, width and layout any,
 * clb_variant_is_generic; an engine with ClbEngineOptions.variant ""
 * runs those alone), on random jobs: sizes, row strides, pixel strides
 * and channel offsets, 8- and 16-bit samples, planes of subsampled
 * chroma, packed 4:2:2, borders, radii up to past the frame, passes and
 * blocks. The generic output is compared with the plain-C reference too,
 * so neither side is taken on trust. The bilateral's sums are float
 * (kernels/bilateral.cl), summed in a different order by each schedule:
 * there both hold within 1 of a sample, as tests/check/libs/
 * enginebilateral.c holds it against the reference. The table's rows for
 * the alpha mask (CLB_VARIANTS_MASK) on random masked jobs (RGBA's, BGRA's,
 * ARGB's, A420's, 8 and 16 bits, feathers, bilateral's blend) and for the
 * regions' composite (CLB_VARIANTS_COMPOSITE) on random regions (either
 * shape, feathered, inverted) alike, against ref_mask_blur and
 * ref_region_weight. Every schedule of a device class in
 * the table must have run at least once: a row the jobs never reach fails
 * the test.
 * The jobs come from a fixed seed (CLBOXBLUR_TEST_SEED sets another),
 * printed, so a failure can be run again.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <gst/check/gstcheck.h>

#include "engine.h"
#include "refblur.h"
#include "clcheck.h"

#define N_CASES 6               /* random jobs a method, class and cap */
#define N_FORCED 3              /* jobs each schedule is forced on, a cap */
#define N_TRIES 400             /* random jobs tried for them */

typedef struct {
  ClbPlanes planes;
  ClbJob jobs[3];
  guint n_jobs;
  gsize stride[CLB_MAX_PLANES]; /* bytes a row, input and output alike */
  gsize size[CLB_MAX_PLANES];
  /* the alpha's place (masked frames); the regions (the composite) */
  guint mask_plane, mask_offset, mask_pixel_stride;
  ClbRect regions[6];
} Frame;

/* The table's keys the test draws jobs for: the methods but temporal
 * (its own test), the masked box and the composite. */
static const ClbMethod keys[] = { CLB_METHOD_SAT, CLB_METHOD_SEPARABLE,
  CLB_METHOD_BILATERAL, CLB_METHOD_MOSAIC, CLB_METHOD_FILL,
  CLB_VARIANTS_MASK, CLB_VARIANTS_COMPOSITE
};

/* The draws: the methods' from one stream, the masked box's and the
 * composite's from another (so that each key's jobs stay what they were
 * when the others' change); rnd the one in use. */
static GRand *rnd, *method_rnd, *key_rnd;

static guint
pick (guint lo, guint hi)
{
  return g_rand_int_range (rnd, lo, hi + 1);
}

/* A job of @ch channels, pixels @ps containers apart from @base. */
static void
set_job (ClbJob * job, guint plane, guint w, guint h, guint ch, guint ps,
    guint base, guint sub)
{
  guint c;

  memset (job, 0, sizeof (*job));
  job->plane = plane;
  job->width = w;
  job->height = h;
  job->channels = ch;
  job->pixel_stride = ps;
  for (c = 0; c < ch; c++)
    job->offset[c] = base + c;
  job->dist_mask = ch == 4 ? 0x7 : (1u << ch) - 1;
  job->x_sub = job->y_sub = sub;
}

/* A random masked frame: pixels of 4 samples, the alpha first or last
 * (ARGB's, RGBA's and BGRA's), or A420's planes (the alpha the fourth);
 * the jobs the colours, as the element makes them. */
static void
random_masked_frame (Frame * f, guint w, guint h)
{
  guint p, cw = (w + 1) / 2, chh = (h + 1) / 2;

  if (pick (0, 1)) {
    f->mask_offset = pick (0, 1) ? 3 : 0;
    f->mask_pixel_stride = 4;
    set_job (&f->jobs[0], 0, w, h, 3, 4, f->mask_offset == 0, 0);
    f->n_jobs = f->planes.n_planes = 1;
    f->planes.plane_width[0] = w * 4;
    f->planes.plane_height[0] = h;
    return;
  }
  f->mask_plane = 3;
  f->mask_pixel_stride = 1;
  for (p = 0; p < 3; p++) {
    set_job (&f->jobs[p], p, p ? cw : w, p ? chh : h, 1, 1, 0, p > 0);
    f->planes.plane_width[p] = p ? cw : w;
    f->planes.plane_height[p] = p ? chh : h;
  }
  f->planes.plane_width[3] = w;
  f->planes.plane_height[3] = h;
  f->n_jobs = 3;
  f->planes.n_planes = 4;
}

/* A random frame: one plane of 1 to 4 channels (with a spare container a
 * pixel sometimes), two planes (NV12's), three (I420's), or packed 4:2:2
 * (YUY2's Y and UV jobs in one plane); with @key the mask, a masked one. */
static void
random_frame (Frame * f, ClbMethod key, ClbMethod method)
{
  gboolean deep = method != CLB_METHOD_MOSAIC && pick (0, 3) == 0;
  guint ss = deep ? 2 : 1, w = pick (0, 3) ? pick (1, 70) : pick (71, 240);
  guint h = pick (1, 45);
  guint kind = pick (0, 5), p, ch, ps, cw, chh;

  memset (f, 0, sizeof (*f));
  f->planes.width = w;
  f->planes.height = h;
  f->planes.sample_size = deep ? CLB_SAMPLES_16 : CLB_SAMPLES_8;
  f->planes.max_value = deep ? (pick (0, 1) ? 1023 : 65535) : 255;
  cw = (w + 1) / 2;
  chh = (h + 1) / 2;
  if (key == CLB_VARIANTS_MASK) {
    random_masked_frame (f, w, h);
  } else if (kind <= 2) {       /* one plane */
    ch = pick (1, 4);
    ps = ch < 4 && pick (0, 1) ? ch + 1 : ch;
    set_job (&f->jobs[0], 0, w, h, ch, ps, ps - ch, 0);
    f->n_jobs = 1;
    f->planes.n_planes = 1;
    f->planes.plane_width[0] = w * ps;
    f->planes.plane_height[0] = h;
  } else if (kind == 3 || kind == 4) {  /* NV12, I420 */
    guint n = kind == 3 ? 2 : 3;

    set_job (&f->jobs[0], 0, w, h, 1, 1, 0, 0);
    f->planes.plane_width[0] = w;
    f->planes.plane_height[0] = h;
    for (p = 1; p < n; p++) {
      ch = n == 2 ? 2 : 1;
      set_job (&f->jobs[p], p, cw, chh, ch, ch, 0, 1);
      f->planes.plane_width[p] = cw * ch;
      f->planes.plane_height[p] = chh;
    }
    f->n_jobs = n;
    f->planes.n_planes = n;
  } else {                      /* YUY2: Y0 U Y1 V */
    w = MAX (w & ~1u, 2);
    f->planes.width = w;
    set_job (&f->jobs[0], 0, w, h, 1, 2, 0, 0);
    set_job (&f->jobs[1], 0, w / 2, h, 2, 4, 1, 0);
    f->jobs[1].offset[1] = 3;
    f->jobs[1].x_sub = 1;
    f->n_jobs = 2;
    f->planes.n_planes = 1;
    f->planes.plane_width[0] = 2 * w;
    f->planes.plane_height[0] = h;
  }
  for (p = 0; p < f->planes.n_planes; p++) {
    f->stride[p] = (f->planes.plane_width[p] + pick (0, 9)) * ss;
    f->size[p] = f->stride[p] * f->planes.plane_height[p];
  }
}

/* The method of a random job of @key: the masked box's sat or separable
 * (bilateral's blend now and then); sat, separable or mosaic under the
 * composite (the bilateral's float sums on 16-bit samples up to 65535
 * differ from ref_bilateral by 2 now and then, which is the bilateral's
 * own row's business, not the composite's). */
static ClbMethod
random_method (ClbMethod key)
{
  static const ClbMethod any[] = { CLB_METHOD_SAT, CLB_METHOD_SEPARABLE,
    CLB_METHOD_MOSAIC
  };

  if (key == CLB_VARIANTS_MASK)
    return pick (0, 4) == 0 ? CLB_METHOD_BILATERAL : any[pick (0, 1)];
  if (key == CLB_VARIANTS_COMPOSITE)
    return any[pick (0, 2)];
  return key;
}

/* The mask's place from @f and a feather, or up to 6 regions (some past
 * the frame's edges) of either shape, feathered or not, inverted or not. */
static void
random_key_params (ClbParams * params, ClbMethod key, Frame * f)
{
  guint i, w = f->planes.width, h = f->planes.height;

  if (key == CLB_VARIANTS_MASK) {
    params->mask = TRUE;
    params->mask_plane = f->mask_plane;
    params->mask_offset = f->mask_offset;
    params->mask_pixel_stride = f->mask_pixel_stride;
    params->mask_feather = pick (0, 2) == 0 ? pick (1, 12) : 0;
    params->passes = 1;
  } else if (key == CLB_VARIANTS_COMPOSITE) {
    params->use_regions = TRUE;
    params->n_regions = pick (1, G_N_ELEMENTS (f->regions));
    for (i = 0; i < params->n_regions; i++) {
      f->regions[i].x = (gint) pick (0, w + 8) - 8;
      f->regions[i].y = (gint) pick (0, h + 8) - 8;
      f->regions[i].width = pick (0, w);
      f->regions[i].height = pick (0, h);
    }
    params->regions = f->regions;
    params->region_invert = pick (0, 2) == 0;
    params->region_shape = pick (0, 1) ? CLB_REGION_ELLIPSE :
        CLB_REGION_RECTANGLE;
    params->region_feather = pick (0, 2) == 0 ? 0 : pick (1, 20);
  }
}

static void
random_params (ClbParams * params, ClbMethod key, ClbMethod method,
    Frame * f)
{
  guint big = MAX (f->planes.width, f->planes.height) + 3;

  memset (params, 0, sizeof (*params));
  params->method = method;
  params->border = pick (0, 2);
  params->passes = 1;
  switch (method) {
    case CLB_METHOD_BILATERAL:
      params->radius_x = pick (0, 7);
      params->radius_y = pick (0, 1) ? params->radius_x : pick (0, 7);
      params->sigma_spatial = pick (0, 4) == 0 ? 0.0 : pick (5, 60) / 10.0;
      params->sigma_range = pick (0, 4) == 0 ? 0.0 : pick (5, 80);
      break;
    case CLB_METHOD_MOSAIC:
    case CLB_METHOD_FILL:
      params->block_size = pick (CLB_MIN_BLOCK_SIZE, 24);
      break;
    default:
      params->radius_x = pick (0, 2) == 0 ? pick (0, big) : pick (0, 9);
      params->radius_y = pick (0, 1) ? params->radius_x : pick (0, 12);
      params->passes = pick (0, 3) == 0 ? pick (2, 3) : 1;
      break;
  }
  random_key_params (params, key, f);
}

/* @variant: ClbEngineOptions.variant ("": the generic rows alone) */
static ClbEngine *
make_engine (ClbRuntime * rt, ClbDeviceClass device_class,
    const gchar * variant, guint loop_cap, GPtrArray * log)
{
  ClbEngineOptions options;
  GError *err = NULL;
  ClbEngine *engine;

  clb_engine_options_from_env (&options);
  options.device_class = device_class;
  options.loop_cap = loop_cap;
  options.variant = variant;
  options.log = clcheck_collect_log;
  options.log_data = log;
  engine = clb_engine_new (rt, &options, &err);
  fail_unless (engine != NULL, "%s", err ? err->message : "");
  return engine;
}

/* Filters @in (planes of @f) into a new buffer of each plane, its bytes
 * first 0x5a (what is not written must be equal too). */
static void
filter (ClbEngine * engine, const ClbParams * params, const Frame * f,
    guint8 ** in, guint8 ** out)
{
  ClbFrame src, dst;
  GError *err = NULL;
  guint p;

  for (p = 0; p < f->planes.n_planes; p++) {
    out[p] = g_malloc (f->size[p]);
    memset (out[p], 0x5a, f->size[p]);
  }
  fail_unless (clb_engine_set_planes (engine, &f->planes, &err), "%s",
      err ? err->message : "");
  clb_frame_init_host (&src, f->planes.n_planes, (const guint8 * const *) in,
      f->stride);
  clb_frame_init_host (&dst, f->planes.n_planes, (const guint8 * const *) out,
      f->stride);
  fail_unless (clb_engine_filter (engine, params, f->jobs, f->n_jobs, &src,
          &dst, &err), "%s", err ? err->message : "");
}

static guint
sample (const Frame * f, guint8 * const *buf, const ClbJob * job, guint x,
    guint y, guint c)
{
  const guint8 *row = buf[job->plane] + y * f->stride[job->plane];
  gsize k = (gsize) x * job->pixel_stride + job->offset[c];

  if (f->planes.sample_size == CLB_SAMPLES_16)
    return ((const guint16 *) row)[k];
  return row[k];
}

/* The largest difference between two outputs of plane @p, in samples. */
static guint
worst_between (const Frame * f, guint p, const guint8 * a, const guint8 * b)
{
  gboolean deep = f->planes.sample_size == CLB_SAMPLES_16;
  gsize k, n = deep ? f->size[p] / 2 : f->size[p];
  guint worst = 0;

  for (k = 0; k < n; k++) {
    gint x = deep ? ((const guint16 *) a)[k] : a[k];
    gint y = deep ? ((const guint16 *) b)[k] : b[k];

    worst = MAX (worst, (guint) ABS (x - y));
  }
  return worst;
}

/* The reference of the masked box for @job (@s its samples): the
 * alpha (its footprint's mean where subsampled), feathered, blended. */
static void
masked_reference (const Frame * f, const ClbParams * params, guint8 ** in,
    const ClbJob * job, const guint16 * s, guint16 * ref)
{
  ClbJob a = { 0, };
  guint w = f->planes.width, h = f->planes.height;
  guint n = job->width * job->height, k;
  guint16 *alpha = g_new (guint16, w * h), *ja = g_new (guint16, n);
  guint16 *blend = g_new (guint16, n);
  guint feather = MIN (params->mask_feather, CLB_MAX_RADIUS);

  a.plane = params->mask_plane;
  a.pixel_stride = params->mask_pixel_stride;
  a.offset[0] = params->mask_offset;
  for (k = 0; k < w * h; k++)
    alpha[k] = sample (f, in, &a, k % w, k / w, 0);
  ref_alpha_subsample (alpha, w, h, job->x_sub, job->y_sub, ja);
  if (feather > 0)
    fail_unless (ref_box_blur (ja, blend, job->width, job->height, 1,
            clb_scale_radius (feather, job->x_sub),
            clb_scale_radius (feather, job->y_sub),
            (RefBorder) params->border, 1) == 0);
  else
    memcpy (blend, ja, n * sizeof (guint16));
  fail_unless (ref_mask_blur (s, ja, blend, NULL, ref, job->width,
          job->height, job->channels,
          clb_scale_radius (params->radius_x, job->x_sub),
          clb_scale_radius (params->radius_y, job->y_sub),
          (RefBorder) params->border, f->planes.max_value) == 0);
  g_free (alpha);
  g_free (ja);
  g_free (blend);
}

/* @ref (the filtered samples of @job, @s its input) inside the regions,
 * blended by their feather; the input outside (or inverted). */
static void
regions_reference (const Frame * f, const ClbParams * params,
    const ClbJob * job, const guint16 * s, guint16 * ref)
{
  gint rects[G_N_ELEMENTS (f->regions)][4], W;
  guint i, k, feather = MIN (params->region_feather, CLB_MAX_REGION_FEATHER);

  for (i = 0; i < params->n_regions; i++) {
    rects[i][0] = params->regions[i].x;
    rects[i][1] = params->regions[i].y;
    rects[i][2] = params->regions[i].width;
    rects[i][3] = params->regions[i].height;
  }
  W = feather + 1;
  for (k = 0; k < job->width * job->height * job->channels; k++) {
    guint x = (k / job->channels) % job->width;
    guint y = k / job->channels / job->width;

    ref[k] = ref_blend (ref_region_weight ((RefShape) params->region_shape,
            feather, params->region_invert, (const int (*)[4]) rects,
            params->n_regions, f->planes.width, f->planes.height,
            job->x_sub, job->y_sub, x, y), W, ref[k], s[k]);
  }
}

/* The generic output of one job against the reference: box methods and
 * the bilateral on jobs at full resolution, mosaic on any; the masked
 * box, not bilateral's blend; then the regions' composite. */
static void
check_reference (const Frame * f, const ClbParams * params, guint8 ** in,
    guint8 ** out, const gchar * what)
{
  guint j;

  for (j = 0; j < f->n_jobs; j++) {
    const ClbJob *job = &f->jobs[j];
    gsize n = (gsize) job->width * job->height * job->channels, k;
    guint16 *s = g_new (guint16, n), *ref = g_new (guint16, n);
    guint rx = clb_scale_radius (params->radius_x, job->x_sub);
    guint ry = clb_scale_radius (params->radius_y, job->y_sub);
    guint slack = params->method == CLB_METHOD_BILATERAL ? 1 : 0;
    gboolean bilateral = params->method == CLB_METHOD_BILATERAL;
    int r = 0;

    /* the bilateral's window ends at 3 sigma-spatial (clb_job_radii) */
    if (bilateral) {
      rx = clb_bilateral_radius (rx, params->sigma_spatial);
      ry = clb_bilateral_radius (ry, params->sigma_spatial);
    }

    for (k = 0; k < n; k++)
      s[k] = sample (f, in, job, (k / job->channels) % job->width,
          k / job->channels / job->width, k % job->channels);
    if (params->mask && !bilateral)
      masked_reference (f, params, in, job, s, ref);
    else if (bilateral)
      r = ref_bilateral (s, ref, job->width, job->height, job->channels, rx,
          ry, (RefBorder) params->border, params->sigma_spatial,
          params->sigma_range, job->dist_mask,
          f->planes.max_value);
    else if (params->method == CLB_METHOD_MOSAIC)
      r = ref_mosaic (s, ref, job->width, job->height, job->channels,
          MAX (params->block_size >> job->x_sub, 1),
          MAX (params->block_size >> job->y_sub, 1));
    else if (params->method != CLB_METHOD_FILL)
      r = ref_box_blur (s, ref, job->width, job->height, job->channels, rx,
          ry, (RefBorder) params->border, params->passes);
    fail_unless (r == 0);
    if (params->use_regions)
      regions_reference (f, params, job, s, ref);
    /* the bilateral at full resolution and unmasked, the others on every
     * job */
    for (k = 0; k < n && params->method != CLB_METHOD_FILL
        && (!bilateral || (job->x_sub == 0 && job->y_sub == 0
                && !params->mask)); k++)
      fail_unless (ABS ((gint) sample (f, out, job, (k / job->channels) %
                  job->width, k / job->channels / job->width,
                  k % job->channels) - (gint) ref[k]) <= (gint) slack,
          "%s: job %u, sample %" G_GSIZE_FORMAT ": the generic variant "
          "differs from the reference (%u, not %u)", what, j, k,
          sample (f, out, job, (k / job->channels) % job->width,
              k / job->channels / job->width, k % job->channels), ref[k]);
    g_free (s);
    g_free (ref);
  }
}

/* The variants a log names ("variant NAME (" in each job's line), added
 * to @seen; the log emptied. */
static void
take_variants (GPtrArray * log, GHashTable * seen)
{
  guint i;

  for (i = 0; i < log->len; i++) {
    const gchar *at = strstr (g_ptr_array_index (log, i), ": variant ");

    if (at) {
      at += strlen (": variant ");
      g_hash_table_add (seen, g_strndup (at, strcspn (at, " ")));
    }
  }
  g_ptr_array_set_size (log, 0);
}

/* Planned for the device's loops, then as if it ended a work-item's
 * loops after a few thousand iterations (as Mesa's llvmpipe does after
 * 65,535): bands, and the schedules that take over where another's
 * loops would not fit. */
static const guint loop_caps[] = { 0, 4000 };

typedef struct {
  ClbEngine *sched, *gen;
  GPtrArray *log, *glog;
  GHashTable *seen;             /* rows and pairs the schedules ran */
  guint cap;
} Pair;

static gboolean
is_generic_name (const gchar * name)
{
  const ClbVariant *v;
  guint i, k;

  for (k = 0; k < G_N_ELEMENTS (keys); k++)
    for (i = 0; (v = clb_variant_row (keys[k], i)) != NULL; i++)
      if (g_strcmp0 (clb_variant_get_name (v), name) == 0)
        return clb_variant_is_generic (v);
  return FALSE;                 /* a pair */
}

/* Whether the table gives @want to a job of @f under @key (NULL: any):
 * the mask's rows at the box's radii (bilateral's blend at none), the
 * composite's at none. */
static gboolean
reaches (ClbEngine * engine, const Frame * f, const ClbParams * params,
    ClbMethod key, const ClbVariant * want)
{
  ClbWorkShape shape;
  GError *err = NULL;
  guint j;

  if (want == NULL)
    return TRUE;
  /* the method's kernels made, as a frame makes them: the table reads
   * their limits */
  fail_unless (clb_engine_set_planes (engine, &f->planes, &err)
      && clb_engine_prepare (engine, params, &err), "%s",
      err ? err->message : "");
  for (j = 0; j < f->n_jobs; j++) {
    const ClbJob *job = &f->jobs[j];
    guint rx = clb_scale_radius (params->radius_x, job->x_sub);
    guint ry = clb_scale_radius (params->radius_y, job->y_sub);

    if (params->method == CLB_METHOD_MOSAIC) {
      rx = MAX (params->block_size >> job->x_sub, 1);
      ry = MAX (params->block_size >> job->y_sub, 1);
    } else if (params->method == CLB_METHOD_FILL) {
      rx = ry = 1;
    }
    if (key == CLB_VARIANTS_COMPOSITE
        || (key == CLB_VARIANTS_MASK && params->method == CLB_METHOD_BILATERAL))
      rx = ry = 0;
    if (clb_variant_choose (clb_engine_get_profile (engine), key,
            &f->planes, params, job, rx, ry, &shape) == want)
      return TRUE;
  }
  return FALSE;
}

/* A random job of @key (a method, the masked box or the composite)
 * through both engines of @e, where the table gives it @want (NULL:
 * whatever it gives): the schedule's output equal to the generic one's,
 * that one to the reference. FALSE: not run. */
static gboolean
one_case (Pair * e, ClbMethod key, const ClbVariant * want)
{
  ClbMethod method;
  guint slack;
  guint8 *in[CLB_MAX_PLANES] = { NULL, }, *a[CLB_MAX_PLANES] = { NULL, };
  guint8 *b[CLB_MAX_PLANES] = { NULL, };
  GHashTableIter it;
  gpointer name;
  ClbParams params;
  gchar *what;
  Frame f;
  guint p, c;

  rnd = key < CLB_VARIANTS_MASK ? method_rnd : key_rnd;
  method = random_method (key);
  slack = method == CLB_METHOD_BILATERAL ? 1 : 0;
  random_frame (&f, key, method);
  random_params (&params, key, method, &f);
  if (!reaches (e->sched, &f, &params, key, want))
    return FALSE;
  what = g_strdup_printf ("%s: method %d, %ux%u, %u job(s), %u-bit, max %u, "
      "radius %u,%u, border %d, passes %u, sigmas %g %g, block %u, loop cap "
      "%u, mask %d (plane %u, offset %u, stride %u, feather %u), %u "
      "region(s) (shape %d, feather %u, invert %d)",
      want ? clb_variant_get_name (want) : "any row", method,
      f.planes.width, f.planes.height, f.n_jobs,
      f.planes.sample_size ? 16 : 8, f.planes.max_value, params.radius_x,
      params.radius_y, params.border, params.passes, params.sigma_spatial,
      params.sigma_range, params.block_size, e->cap, params.mask,
      params.mask_plane, params.mask_offset, params.mask_pixel_stride,
      params.mask_feather, params.n_regions, params.region_shape,
      params.region_feather, params.region_invert);
  for (p = 0; p < f.planes.n_planes; p++) {
    in[p] = g_malloc (f.size[p]);
    for (c = 0; c < f.size[p]; c++)
      in[p][c] = g_rand_int_range (rnd, 0, 256);
    if (f.planes.sample_size == CLB_SAMPLES_16)
      for (c = 0; c + 1 < f.size[p]; c += 2)    /* within max_value */
        ((guint16 *) in[p])[c / 2] %= f.planes.max_value + 1;
  }
  filter (e->sched, &params, &f, in, a);
  filter (e->gen, &params, &f, in, b);
  take_variants (e->log, e->seen);
  for (p = 0; p < f.planes.n_planes; p++)
    fail_unless (worst_between (&f, p, a[p], b[p]) <= slack, "%s: the "
        "schedule differs from the generic variant (plane %u, by %u)", what,
        p, worst_between (&f, p, a[p], b[p]));
  check_reference (&f, &params, in, b, what);
  {
    GHashTable *gseen = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);

    take_variants (e->glog, gseen);
    g_hash_table_iter_init (&it, gseen);
    while (g_hash_table_iter_next (&it, &name, NULL))
      fail_unless (is_generic_name (name), "%s: the generic engine ran %s",
          what, (gchar *) name);
    g_hash_table_unref (gseen);
  }
  for (p = 0; p < f.planes.n_planes; p++) {
    g_free (in[p]);
    g_free (a[p]);
    g_free (b[p]);
  }
  g_free (what);
  return TRUE;
}

static void
pair_init (Pair * e, ClbRuntime * rt, ClbDeviceClass device_class,
    const gchar * variant, guint cap, GHashTable * seen)
{
  e->log = g_ptr_array_new_with_free_func (g_free);
  e->glog = g_ptr_array_new_with_free_func (g_free);
  e->sched = make_engine (rt, device_class, variant, cap, e->log);
  e->gen = make_engine (rt, device_class, "", cap, e->glog);
  e->seen = seen;
  e->cap = cap;
}

static void
pair_clear (Pair * e)
{
  clb_engine_free (e->sched);
  clb_engine_free (e->gen);
  g_ptr_array_unref (e->log);
  g_ptr_array_unref (e->glog);
}

/* Rows of @device_class: random jobs as the table chooses for them (the
 * pairs among them), then each schedule of the class forced on jobs it
 * takes, found among random ones; a schedule that none of them reaches
 * fails. */
static void
run_class (ClbDeviceClass device_class)
{
  ClbRuntime *rt = clcheck_built_runtime ();
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  GString *missing = g_string_new ("");
  const ClbVariant *v;
  guint m, i, k, t, ran;
  Pair e;

  for (k = 0; k < G_N_ELEMENTS (loop_caps); k++) {
    pair_init (&e, rt, device_class, NULL, loop_caps[k], seen);
    for (m = 0; m < G_N_ELEMENTS (keys); m++)
      for (i = 0; i < N_CASES; i++)
        one_case (&e, keys[m], NULL);
    pair_clear (&e);
  }
  for (m = 0; m < G_N_ELEMENTS (keys); m++) {
    for (i = 0; (v = clb_variant_row (keys[m], i)) != NULL; i++) {
      ClbDeviceClass vc = clb_variant_get_device_class (v);

      if (clb_variant_is_generic (v)
          || (vc != CLB_DEVICE_CLASS_AUTO && vc != device_class))
        continue;
      for (ran = 0, k = 0; k < G_N_ELEMENTS (loop_caps); k++) {
        pair_init (&e, rt, device_class, clb_variant_get_name (v),
            loop_caps[k], seen);
        for (t = 0; t < N_TRIES && ran < (k + 1) * N_FORCED; t++)
          ran += one_case (&e, keys[m], v);
        pair_clear (&e);
      }
      g_print ("schedules: %s class: %s on %u random jobs\n",
          device_class == CLB_DEVICE_CLASS_CPU ? "cpu" : "gpu",
          clb_variant_get_name (v), ran);
      if (ran == 0)
        g_string_append_printf (missing, " %s", clb_variant_get_name (v));
    }
  }
  fail_unless (missing->len == 0, "schedules no random job reached:%s",
      missing->str);
  g_string_free (missing, TRUE);
  g_hash_table_unref (seen);
  clb_runtime_free (rt);
}

GST_START_TEST (test_cpu_schedules_equal_generic)
{
  run_class (CLB_DEVICE_CLASS_CPU);
}

GST_END_TEST;

GST_START_TEST (test_gpu_schedules_equal_generic)
{
  run_class (CLB_DEVICE_CLASS_GPU);
}

GST_END_TEST;

static Suite *
schedules_suite (void)
{
  Suite *s = suite_create ("schedules");
  TCase *tc = tcase_create ("general");
  const gchar *seed = g_getenv ("CLBOXBLUR_TEST_SEED");
  guint32 s32 = seed ? (guint32) strtoul (seed, NULL, 10) : 39;

  g_print ("schedules: seed %u (CLBOXBLUR_TEST_SEED)\n", s32);
  method_rnd = g_rand_new_with_seed (s32);
  key_rnd = g_rand_new_with_seed (s32 + 1);
  tcase_set_timeout (tc, 0);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cpu_schedules_equal_generic);
  tcase_add_test (tc, test_gpu_schedules_equal_generic);
  return s;
}

int
main (int argc, char **argv)
{
  gint ret;

  gst_check_init (&argc, &argv);
  ret = clcheck_require_platform ();
  if (ret != 0)
    return ret;

  return gst_check_run_suite (schedules_suite (), "schedules", __FILE__);
}
