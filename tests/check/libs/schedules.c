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
 * enginebilateral.c holds it against the reference. Every schedule of a device class in
 * the table must have run at least once: a row the jobs never reach fails
 * the test. (The alpha mask's rows and the regions' composite are chosen
 * outside the table: tests/check/libs/enginemask.c and the element's
 * region tests compare those with the reference.)
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
  gsize stride[3];              /* bytes a row, input and output alike */
  gsize size[3];
} Frame;

static GRand *rnd;

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

/* A random frame: one plane of 1 to 4 channels (with a spare container a
 * pixel sometimes), two planes (NV12's), three (I420's), or packed 4:2:2
 * (YUY2's Y and UV jobs in one plane). */
static void
random_frame (Frame * f, ClbMethod method)
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
  if (kind <= 2) {              /* one plane */
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

static void
random_params (ClbParams * params, ClbMethod method, const Frame * f)
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

/* The generic output of one job against the reference: box methods and
 * the bilateral on jobs at full resolution, mosaic on any. */
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
    int r = 0;

    for (k = 0; k < n; k++)
      s[k] = sample (f, in, job, (k / job->channels) % job->width,
          k / job->channels / job->width, k % job->channels);
    if (params->method == CLB_METHOD_BILATERAL)
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
    /* the bilateral at full resolution, the others on every job */
    for (k = 0; k < n && params->method != CLB_METHOD_FILL
        && (params->method == CLB_METHOD_SAT
            || params->method == CLB_METHOD_SEPARABLE
            || params->method == CLB_METHOD_MOSAIC
            || (job->x_sub == 0 && job->y_sub == 0)); k++)
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
  ClbMethod m;
  const ClbVariant *v;
  guint i;

  for (m = CLB_METHOD_SAT; m <= CLB_METHOD_FILL; m++)
    for (i = 0; (v = clb_variant_row (m, i)) != NULL; i++)
      if (g_strcmp0 (clb_variant_get_name (v), name) == 0)
        return clb_variant_is_generic (v);
  return FALSE;                 /* a pair */
}

/* Whether the table gives @want to a job of @f (NULL: any). */
static gboolean
reaches (ClbEngine * engine, const Frame * f, const ClbParams * params,
    const ClbVariant * want)
{
  ClbWorkShape shape;
  guint j;

  if (want == NULL)
    return TRUE;
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
    if (clb_variant_choose (clb_engine_get_profile (engine), params->method,
            &f->planes, NULL, job, rx, ry, &shape) == want)
      return TRUE;
  }
  return FALSE;
}

/* A random job of @method through both engines of @e, where the table
 * gives it @want (NULL: whatever it gives): the schedule's output equal
 * to the generic one's, that one to the reference. FALSE: not run. */
static gboolean
one_case (Pair * e, ClbMethod method, const ClbVariant * want)
{
  guint slack = method == CLB_METHOD_BILATERAL ? 1 : 0;
  guint8 *in[3] = { NULL, }, *a[3] = { NULL, }, *b[3] = { NULL, };
  GHashTableIter it;
  gpointer name;
  ClbParams params;
  gchar *what;
  Frame f;
  guint p, c;

  random_frame (&f, method);
  random_params (&params, method, &f);
  if (!reaches (e->sched, &f, &params, want))
    return FALSE;
  what = g_strdup_printf ("%s: method %d, %ux%u, %u job(s), %u-bit, max %u, "
      "radius %u,%u, border %d, passes %u, sigmas %g %g, block %u, loop cap "
      "%u", want ? clb_variant_get_name (want) : "any row", method,
      f.planes.width, f.planes.height, f.n_jobs,
      f.planes.sample_size ? 16 : 8, f.planes.max_value, params.radius_x,
      params.radius_y, params.border, params.passes, params.sigma_spatial,
      params.sigma_range, params.block_size, e->cap);
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
  ClbMethod m;
  guint i, k, t, ran;
  Pair e;

  for (k = 0; k < G_N_ELEMENTS (loop_caps); k++) {
    pair_init (&e, rt, device_class, NULL, loop_caps[k], seen);
    for (m = CLB_METHOD_SAT; m <= CLB_METHOD_FILL; m++)
      for (i = 0; i < N_CASES; i++)
        one_case (&e, m, NULL);
    pair_clear (&e);
  }
  for (m = CLB_METHOD_SAT; m <= CLB_METHOD_FILL; m++) {
    for (i = 0; (v = clb_variant_row (m, i)) != NULL; i++) {
      ClbDeviceClass vc = clb_variant_get_device_class (v);

      if (clb_variant_is_generic (v)
          || (vc != CLB_DEVICE_CLASS_AUTO && vc != device_class))
        continue;
      for (ran = 0, k = 0; k < G_N_ELEMENTS (loop_caps); k++) {
        pair_init (&e, rt, device_class, clb_variant_get_name (v),
            loop_caps[k], seen);
        for (t = 0; t < N_TRIES && ran < (k + 1) * N_FORCED; t++)
          ran += one_case (&e, m, v);
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
  rnd = g_rand_new_with_seed (s32);
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
