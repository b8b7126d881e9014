/* clboxblur: the kernels of new settings readied away from the stream.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A driver may compile a kernel at its first launch, not when the program
 * is built: PoCL does, once for each work-group size, for up to seconds
 * (issue 39: a live method change stalled the sink for 0.8-4.1 s). So a
 * change of settings that needs kernels this element has not run waits
 * for a warm-up, one black frame of the new settings through the element
 * in a gst-launch-1.0 of its own (not a thread of this process: PoCL
 * compiles under a lock that stalled the stream's launches too); the
 * stream goes on with the settings it had, and takes the new ones at the
 * first frame after the warm-up. What the driver compiled is in its cache
 * when the stream's engine launches the same kernels. Where the warm-up
 * cannot run (no gst-launch-1.0, GL memory) the stream compiles, as
 * before.
 *
 * Other drivers (GPUs) compile a program's kernels in clBuildProgram:
 * there a change of settings that needs a program no stream on the
 * device built (a method's, the regions', the mask's unit) has it built
 * by a thread of this process, on a runtime of the same device, whose
 * programs the stream's engine then takes; the stream keeps the settings
 * it had until the build ends.
 *
 * What a frame runs is keyed by what picks kernels and work shapes: the
 * method, border, passes, mask, regions' kind and the jobs; not the radii
 * (a radius moved on a slider runs at once: the kernels stay the same).
 */
#include "gstclwarm.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <gst/base/gstbasetransform.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

struct _GstCLWarm
{
  GstElement *element;          /* not a reference: the warm-up's owner */
  GMutex lock;
  GHashTable *warm;             /* keys that ran, or were warmed up */
  GThread *thread;              /* the warm-up's waiter, until joined */
  GPid pid;                     /* the warm-up's process while it runs */
  gchar *key;                   /* what it warms up */
  gboolean done;                /* it ended: join the thread */
  gint live;                    /* upstream is live: -1 not asked yet */
  /* where programs are built by a thread (not PoCL): */
  ClbRuntime *rt;               /* the stream's (not references) */
  ClbEngine *engine;
  gboolean ran;                 /* a frame ran since the start or a reset */
  gboolean failed;              /* the last build failed */
};

/* A build by a thread: @n units for @size's samples on @rt, a sibling
 * of the stream's runtime. */
typedef struct
{
  GstCLWarm *warm;
  ClbRuntime *rt;
  const gchar *units[CLB_MAX_FRAME_UNITS];
  guint n;
  ClbSampleSize size;
} Build;

static gchar *
make_key (const ClbParams * p, const ClbJob * jobs, guint n_jobs)
{
  GString *s = g_string_new (NULL);
  guint j;

  g_string_append_printf (s, "m%d b%d p%u g%u k%d f%d r%d s%d e%d i%d t%d "
      "n%d", p->method, p->border, MIN (p->passes, 2), p->n_pass_radii,
      p->mask, p->mask_feather > 0, p->use_regions, p->region_shape,
      p->region_feather > 0, p->region_invert, p->region_radius != NULL,
      p->range_from_noise > 0);
  for (j = 0; j < n_jobs; j++) {
    const ClbJob *job = &jobs[j];

    g_string_append_printf (s, " %u:%u:%u:%u:%u", job->plane, job->channels,
        job->keep_mask, job->pixel_stride,
        job->own_radius && job->radius_x == 0 && job->radius_y == 0);
  }
  return g_string_free (s, FALSE);
}

GstCLWarm *
gst_cl_warm_new (GstElement * element, ClbRuntime * rt, ClbEngine * engine)
{
  GstCLWarm *warm = g_new0 (GstCLWarm, 1);

  warm->element = element;
  warm->rt = rt;
  warm->engine = engine;
  warm->live = -1;
  g_mutex_init (&warm->lock);
  warm->warm = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return warm;
}

/* Ends the warm-up, if any: its process killed, its thread joined. */
static void
join (GstCLWarm * warm)
{
  GThread *thread;

  g_mutex_lock (&warm->lock);
  if (warm->pid > 0)
    kill (warm->pid, SIGKILL);
  thread = g_steal_pointer (&warm->thread);
  warm->done = FALSE;
  g_mutex_unlock (&warm->lock);
  if (thread)
    g_thread_join (thread);
}

void
gst_cl_warm_reset (GstCLWarm * warm)
{
  join (warm);
  g_mutex_lock (&warm->lock);
  g_hash_table_remove_all (warm->warm);
  warm->live = -1;
  warm->ran = warm->failed = FALSE;
  g_mutex_unlock (&warm->lock);
}

/* Whether the source upstream is live (a camera, a call): only there does
 * a frame late for a compiler stall the sink. Elsewhere (a file, an
 * application's appsrc that is not live) every frame takes the settings
 * of its time, as the controller sets them, and may wait. */
static gboolean
upstream_live (GstCLWarm * warm)
{
  GstQuery *query;
  gboolean live = FALSE;

  if (warm->live >= 0)
    return warm->live;
  query = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (warm->element), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  warm->live = live;
  return live;
}

void
gst_cl_warm_free (GstCLWarm * warm)
{
  if (warm == NULL)
    return;
  join (warm);
  g_hash_table_unref (warm->warm);
  g_mutex_clear (&warm->lock);
  g_free (warm);
}

/* Waits for the warm-up's process, then takes its key as warm: where it
 * failed too, the stream's own frame meets the error and posts it. */
static gpointer
wait_child (gpointer data)
{
  GstCLWarm *warm = data;
  gint64 start = g_get_monotonic_time ();
  int status = 0;
  pid_t pid;

  g_mutex_lock (&warm->lock);
  pid = warm->pid;
  g_mutex_unlock (&warm->lock);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR);
  g_spawn_close_pid (pid);
  g_mutex_lock (&warm->lock);
  warm->pid = 0;
  g_hash_table_add (warm->warm, g_steal_pointer (&warm->key));
  warm->done = TRUE;
  g_mutex_unlock (&warm->lock);
  GST_DEBUG_OBJECT (warm->element, "warm-up %s in %.3f s: the new settings "
      "from the next frame", WIFEXITED (status) && WEXITSTATUS (status) == 0 ?
      "done" : "failed", (g_get_monotonic_time () - start) / 1e6);
  return NULL;
}

/* The element's properties that differ from their defaults, as
 * gst-launch-1.0 reads them. */
static void
append_properties (GstElement * element, GPtrArray * argv)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (element);
  GParamSpec **specs;
  guint i, n;

  specs = g_object_class_list_properties (klass, &n);
  for (i = 0; i < n; i++) {
    GParamSpec *spec = specs[i];
    GValue value = G_VALUE_INIT;
    gchar *text;

    if ((spec->flags & (G_PARAM_READABLE | G_PARAM_WRITABLE)) !=
        (G_PARAM_READABLE | G_PARAM_WRITABLE)
        || (spec->flags & G_PARAM_CONSTRUCT_ONLY)
        || spec->owner_type == GST_TYPE_OBJECT
        || spec->owner_type == GST_TYPE_BASE_TRANSFORM)
      continue;
    g_value_init (&value, spec->value_type);
    g_object_get_property (G_OBJECT (element), spec->name, &value);
    if (!g_param_value_defaults (spec, &value)
        && (text = gst_value_serialize (&value)) != NULL) {
      g_ptr_array_add (argv, g_strdup_printf ("%s=%s", spec->name, text));
      g_free (text);
    }
    g_value_unset (&value);
  }
  g_free (specs);
}

/* Starts gst-launch-1.0 on one black frame of the stream's caps through
 * the element with its properties: PoCL compiles at a kernel's first
 * launch under a lock of its own (a warm-up in this process stalled the
 * stream for 1.9 s of its 3 s); another process's compiles lock nothing
 * here, and land in PoCL's cache, where the stream's launches find them. */
static gboolean
spawn (GstCLWarm * warm, GstCaps * caps)
{
  GstElementFactory *factory = gst_element_get_factory (warm->element);
  gchar *launch = g_find_program_in_path ("gst-launch-1.0");
  GPtrArray *argv;
  GError *error = NULL;
  gboolean ok;

  if (launch == NULL || factory == NULL) {
    g_free (launch);
    return FALSE;
  }
  argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, launch);
  g_ptr_array_add (argv, g_strdup ("-q"));
  g_ptr_array_add (argv, g_strdup ("videotestsrc"));
  g_ptr_array_add (argv, g_strdup ("num-buffers=1"));
  g_ptr_array_add (argv, g_strdup ("pattern=black"));
  g_ptr_array_add (argv, g_strdup ("!"));
  g_ptr_array_add (argv, gst_caps_to_string (caps));
  g_ptr_array_add (argv, g_strdup ("!"));
  g_ptr_array_add (argv, g_strdup (GST_OBJECT_NAME (factory)));
  append_properties (warm->element, argv);
  g_ptr_array_add (argv, g_strdup ("!"));
  g_ptr_array_add (argv, g_strdup ("fakesink"));
  g_ptr_array_add (argv, NULL);
  ok = g_spawn_async (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &warm->pid, &error);
  if (!ok) {
    GST_DEBUG_OBJECT (warm->element, "no warm-up: %s", error->message);
    g_clear_error (&error);
  }
  g_ptr_array_unref (argv);
  return ok;
}

/* Builds a Build's units, then lets the stream take the new settings
 * (where the build failed, the stream's own frame meets the error). */
static gpointer
build_units (gpointer data)
{
  Build *b = data;
  GstCLWarm *warm = b->warm;
  gint64 start = g_get_monotonic_time ();
  GError *error = NULL;
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && i < b->n; i++)
    ok = clb_runtime_ensure_program (b->rt, b->size, b->units[i], &error);
  clb_runtime_free (b->rt);
  GST_DEBUG_OBJECT (warm->element, "programs of the new settings %s in "
      "%.3f s: the new settings from the next frame", ok ? "built" :
      "not built", (g_get_monotonic_time () - start) / 1e6);
  g_clear_error (&error);
  g_mutex_lock (&warm->lock);
  warm->failed = !ok;
  warm->done = TRUE;
  g_mutex_unlock (&warm->lock);
  g_free (b);
  return NULL;
}

/* gst_cl_warm_ready where programs are built by a thread. */
static gboolean
build_ready (GstCLWarm * warm, const ClbParams * params)
{
  Build *b;
  GThread *done;
  GError *error = NULL;

  g_mutex_lock (&warm->lock);
  if (warm->thread && !warm->done) {
    g_mutex_unlock (&warm->lock);
    return FALSE;
  }
  done = g_steal_pointer (&warm->thread);
  warm->done = FALSE;
  g_mutex_unlock (&warm->lock);
  if (done)
    g_thread_join (done);

  b = g_new0 (Build, 1);
  b->n = clb_engine_units_to_build (warm->engine, params, b->units, &b->size);
  /* the first frame builds what it needs, as at the start; after a failed
   * build, the frame meets the error */
  if (b->n == 0 || !warm->ran || warm->failed
      || !(b->rt = clb_runtime_new_sibling (warm->rt, &error))) {
    if (error)
      GST_DEBUG_OBJECT (warm->element, "no build thread: %s", error->message);
    g_clear_error (&error);
    g_free (b);
    warm->ran = TRUE;
    warm->failed = FALSE;
    return TRUE;
  }
  GST_DEBUG_OBJECT (warm->element, "new settings wait for %u program(s), "
      "built by a thread: frames keep the settings they had meanwhile", b->n);
  b->warm = warm;
  g_mutex_lock (&warm->lock);
  warm->thread = g_thread_new ("clboxblur-build", build_units, b);
  g_mutex_unlock (&warm->lock);
  return FALSE;
}

gboolean
gst_cl_warm_ready (GstCLWarm * warm, const ClbParams * params,
    const ClbJob * jobs, guint n_jobs)
{
  GstPad *sink = GST_BASE_TRANSFORM_SINK_PAD (warm->element);
  GThread *done = NULL;
  GstCaps *caps;
  gchar *key;
  gboolean started;

  if (!upstream_live (warm))
    return TRUE;
  if (warm->engine)
    return build_ready (warm, params);
  key = make_key (params, jobs, n_jobs);
  g_mutex_lock (&warm->lock);
  if (warm->done) {
    done = g_steal_pointer (&warm->thread);
    warm->done = FALSE;
  }
  if (g_hash_table_size (warm->warm) == 0
      || g_hash_table_contains (warm->warm, key)) {
    /* the first frame compiles what it needs, as at the start */
    g_hash_table_add (warm->warm, key);
    g_mutex_unlock (&warm->lock);
    if (done)
      g_thread_join (done);
    return TRUE;
  }
  if (warm->thread) {
    g_mutex_unlock (&warm->lock);
    g_free (key);
    return FALSE;
  }
  g_mutex_unlock (&warm->lock);
  if (done)
    g_thread_join (done);

  /* host memory's caps: GL textures are not warmed up */
  caps = gst_pad_get_current_caps (sink);
  started = caps != NULL && gst_caps_is_fixed (caps)
      && gst_caps_features_is_equal (gst_caps_get_features (caps, 0),
      GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY);
  g_mutex_lock (&warm->lock);
  started = started && spawn (warm, caps);
  if (started) {
    GST_DEBUG_OBJECT (warm->element, "new settings (%s) wait for their "
        "kernels, compiled in process %d: frames keep the settings they "
        "had meanwhile", key, (gint) warm->pid);
    warm->key = key;
    warm->thread = g_thread_new ("clboxblur-warm", wait_child, warm);
  } else {
    /* the stream compiles, as before */
    g_hash_table_add (warm->warm, key);
  }
  g_mutex_unlock (&warm->lock);
  gst_clear_caps (&caps);
  return !started;
}
