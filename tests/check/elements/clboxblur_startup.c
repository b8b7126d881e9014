/* GStreamer unit tests for clboxblur: starting up where the machine is odd
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Issue 23: program-cache entries that are not regular files (a FIFO used
 * to block the start for ever), a user cache folder that cannot be
 * created (XDG_CACHE_HOME a regular file: PoCL lists no device), and a
 * BYTES segment (multifilesrc) in front of the element.
 *
 * Helpers, the reference comparison and the teardown fixture are in
 * tests/check/blurcheck.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "blurcheck.h"

/* A start of the element, a frame pushed and pulled, in a thread of its
 * own so that a start that blocks cannot block the test. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstFlowReturn ret;
} Start;

static gpointer
start_thread (gpointer data)
{
  Start *st = data;
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstFlowReturn ret;
  GstBuffer *out = NULL;

  set_format (h, &st->info, "GRAY8", 64, 48);
  ret = gst_harness_push (h, gst_buffer_ref (st->in));
  if (ret == GST_FLOW_OK)
    out = gst_harness_try_pull (h);
  g_mutex_lock (&st->lock);
  st->h = h;
  st->ret = ret;
  st->out = out;
  st->done = TRUE;
  g_cond_signal (&st->cond);
  g_mutex_unlock (&st->lock);
  return NULL;
}

/* Every *.bin in @dir (g_ptr_array_unref). */
static GPtrArray *
cache_entries (const gchar * dir)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  fail_unless (d != NULL);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".bin"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_dir_close (d);
  return paths;
}

/* Opens each FIFO among @paths for writing and closes it again: a reader
 * blocked in open () on one wakes up to an empty file. */
static void
release_fifos (GPtrArray * paths)
{
  guint i;

  for (i = 0; i < paths->len; i++) {
    gint fd = g_open (g_ptr_array_index (paths, i),
        O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);

    if (fd >= 0)
      close (fd);
  }
}

/* Starts the element, filters one frame, and checks it against the
 * reference, within @seconds. Before failing on a start that does not
 * end, wakes a reader blocked on a FIFO among @entries, so that the
 * fixture can still stop the element. */
static void
start_and_check (GPtrArray * entries, gint seconds)
{
  Start st;
  GThread *thread;
  gint64 end = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;
  gboolean done;

  memset (&st, 0, sizeof (st));
  g_mutex_init (&st.lock);
  g_cond_init (&st.cond);
  gst_video_info_set_format (&st.info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  st.in = make_frame (&st.info, 0, 23);

  thread = g_thread_new ("start", start_thread, &st);
  g_mutex_lock (&st.lock);
  while (!st.done) {
    if (!g_cond_wait_until (&st.cond, &st.lock, end))
      break;
  }
  done = st.done;
  g_mutex_unlock (&st.lock);
  if (!done && entries != NULL) {
    /* the start is stuck: unblock it, then fail */
    g_mutex_lock (&st.lock);
    while (!st.done) {
      g_mutex_unlock (&st.lock);
      release_fifos (entries);
      g_usleep (G_USEC_PER_SEC / 10);
      g_mutex_lock (&st.lock);
    }
    g_mutex_unlock (&st.lock);
  }
  g_thread_join (thread);
  fail_unless (done, "the element did not start and filter a frame within "
      "%d s", seconds);
  fail_unless_equals_int (st.ret, GST_FLOW_OK);
  fail_unless (st.out != NULL);
  check_frame (&st.info, st.in, st.out, &default_settings);
  gst_buffer_unref (st.out);
  gst_buffer_unref (st.in);
  blurcheck_harness_teardown (st.h);
  g_mutex_clear (&st.lock);
  g_cond_clear (&st.cond);
}

/* Replaces the file at @path with a FIFO, a directory or a socket; FALSE
 * when this system cannot make that kind there. */
static gboolean
make_special (const gchar * path, const gchar * kind)
{
  fail_unless_equals_int (g_unlink (path), 0);
  if (strcmp (kind, "fifo") == 0) {
    fail_unless_equals_int (mkfifo (path, 0600), 0);
  } else if (strcmp (kind, "directory") == 0) {
    fail_unless_equals_int (g_mkdir (path, 0700), 0);
  } else {
    struct sockaddr_un addr;
    gint fd;

    memset (&addr, 0, sizeof (addr));
    addr.sun_family = AF_UNIX;
    if (strlen (path) >= sizeof (addr.sun_path))
      return FALSE;
    strcpy (addr.sun_path, path);
    fd = socket (AF_UNIX, SOCK_STREAM, 0);
    fail_unless (fd >= 0);
    fail_unless_equals_int (bind (fd, (struct sockaddr *) &addr,
            sizeof (addr)), 0);
    close (fd);                 /* the socket file stays */
  }
  return TRUE;
}

static void
remove_tree (const gchar * path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const gchar *name;

  if (d == NULL) {
    g_unlink (path);
    return;
  }
  while ((name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (path, name, NULL);

    remove_tree (p);
    g_free (p);
  }
  g_dir_close (d);
  g_rmdir (path);
}

/* Program-cache entries that are FIFOs, directories or sockets are cache
 * misses: the element starts (building from source), filters correctly,
 * and rewrites the entry as a regular file where it can. A FIFO used to
 * block open () in the cache read, and the pipeline's start, for ever. */
GST_START_TEST (test_cache_entry_not_a_file)
{
  static const gchar *kinds[] = { "fifo", "directory", "socket" };
  gchar *dir = g_dir_make_tmp ("clb-XXXXXX", NULL);
  gchar *saved = g_strdup (g_getenv (CLB_CACHE_DIR_ENV));
  GPtrArray *entries;
  guint k, i;

  fail_unless (dir != NULL);
  g_setenv (CLB_CACHE_DIR_ENV, dir, TRUE);
  /* the element's cache on every driver, PoCL too (which has its own) */
  g_setenv (CLB_BINARY_CACHE_ENV, "1", TRUE);

  /* the entries, as the first start writes them */
  start_and_check (NULL, 600);
  entries = cache_entries (dir);
  fail_unless (entries->len > 0, "the first start wrote no cache entry in "
      "%s", dir);

  for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
    gboolean made = TRUE;

    for (i = 0; i < entries->len && made; i++)
      made = make_special (g_ptr_array_index (entries, i), kinds[k]);
    if (!made) {
      GST_INFO ("no %s test: the cache path is too long", kinds[k]);
      continue;
    }
    GST_INFO ("cache entries are each a %s", kinds[k]);
    start_and_check (entries, 120);
    /* The start read the cache (no other instance shared its programs):
     * a FIFO or socket was replaced by the rewritten entry. A directory
     * cannot be renamed over; it stays, and is removed for the next kind. */
    for (i = 0; i < entries->len; i++) {
      const gchar *path = g_ptr_array_index (entries, i);

      if (strcmp (kinds[k], "directory") != 0)
        fail_unless (g_file_test (path, G_FILE_TEST_IS_REGULAR),
            "%s (was a %s) not rewritten", path, kinds[k]);
      remove_tree (path);
      fail_unless (g_file_set_contents (path, "", 0, NULL));
    }
  }

  if (saved)
    g_setenv (CLB_CACHE_DIR_ENV, saved, TRUE);
  else
    g_unsetenv (CLB_CACHE_DIR_ENV);
  g_unsetenv (CLB_BINARY_CACHE_ENV);
  g_ptr_array_unref (entries);
  remove_tree (dir);
  g_free (saved);
  g_free (dir);
}

GST_END_TEST;

/* Each property=value written in @text (the element's error) names a
 * property the element has with a value it takes. */
static void
check_named_values (GstElement * e, const gchar * text)
{
  GRegex *re = g_regex_new ("([a-z][a-z-]*)=([A-Za-z0-9_-]+)", 0, 0, NULL);
  GMatchInfo *m;

  g_regex_match (re, text, 0, &m);
  while (g_match_info_matches (m)) {
    gchar *name = g_match_info_fetch (m, 1);
    gchar *value = g_match_info_fetch (m, 2);
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        name);

    if (ps != NULL) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, ps->value_type);
      fail_unless (gst_value_deserialize (&v, value)
          && !g_param_value_validate (ps, &v),
          "the error names %s=%s, a value the property refuses: %s", name,
          value, text);
      g_value_unset (&v);
    }
    g_free (name);
    g_free (value);
    g_match_info_next (m, NULL);
  }
  g_match_info_free (m);
  g_regex_unref (re);
}

/* Whether a platform named PoCL is installed. */
static gboolean
have_pocl (void)
{
  cl_platform_id platforms[64];
  cl_uint n = 0, p;
  gboolean found = FALSE;

  if (clGetPlatformIDs (G_N_ELEMENTS (platforms), platforms, &n) !=
      CL_SUCCESS)
    return FALSE;
  for (p = 0; p < MIN (n, G_N_ELEMENTS (platforms)) && !found; p++) {
    gchar name[256] = "";

    clGetPlatformInfo (platforms[p], CL_PLATFORM_NAME, sizeof (name) - 1,
        name, NULL);
    found = g_str_has_prefix (name, "Portable Computing Language");
  }
  return found;
}

/* Run by the test clboxblur_startup_cachefile with XDG_CACHE_HOME a
 * regular file, set before the process's first OpenCL call: PoCL cannot
 * create its cache folder under it and lists no device; the element's own
 * cache (CLBOXBLUR_CACHE_DIR unset here) cannot be created either. Either
 * the element still filters (another driver, or POCL_CACHE_DIR set), or
 * it fails with an error that says what to do and names no property value
 * the element refuses. Elsewhere (a usable cache folder) it filters. */
GST_START_TEST (test_unwritable_cache_home)
{
  const gchar *xdg = g_getenv ("XDG_CACHE_HOME");
  gchar *saved = g_strdup (g_getenv (CLB_CACHE_DIR_ENV));
  GstElement *e = gst_element_factory_make ("clboxblur", NULL);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn ret;

  if (xdg != NULL && g_file_test (xdg, G_FILE_TEST_IS_REGULAR))
    g_unsetenv (CLB_CACHE_DIR_ENV);
  gst_element_set_bus (e, bus);
  ret = gst_element_set_state (e, GST_STATE_PAUSED);
  if (ret == GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    GError *err = NULL;
    gchar *debug = NULL, *text;

    fail_unless (msg != NULL, "no error message posted");
    gst_message_parse_error (msg, &err, &debug);
    text = g_strdup_printf ("%s\n%s", err->message, debug ? debug : "");
    GST_INFO ("start failed: %s", text);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND), "%s", text);
    check_named_values (e, text);
    /* what to do, in the message itself, and the folder at fault */
    if (have_pocl ()) {
      fail_unless (strstr (err->message, "POCL_CACHE_DIR") != NULL
          && strstr (err->message, "writable") != NULL, "%s", text);
      if (xdg != NULL)
        fail_unless (strstr (text, xdg) != NULL, "%s does not name %s",
            text, xdg);
    }
    g_free (text);
    g_free (debug);
    g_error_free (err);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  if (ret != GST_STATE_CHANGE_FAILURE)
    start_and_check (NULL, 600);

  if (saved)
    g_setenv (CLB_CACHE_DIR_ENV, saved, TRUE);
  g_free (saved);
}

GST_END_TEST;

static gboolean
count_critical (const gchar * domain, GLogLevelFlags level,
    const gchar * message, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return TRUE;                  /* counted here, failed on below */
}

/* After a BYTES segment (multifilesrc, appsrc format=bytes) the frames are
 * filtered with the properties as set, and nothing asks the segment for a
 * stream time it cannot give: every frame used to log
 * "gst_segment_to_stream_time: assertion 'segment->format == format'
 * failed". GstCheck fails a test on any critical; this one counts them
 * instead, so that the failure is reported here and not from inside the
 * harness's push. */
GST_START_TEST (test_bytes_segment)
{
  GstHarness *h = blurcheck_harness_new ("clboxblur");
  GstCheckLogFilter *filter;
  GstSegment seg;
  GstVideoInfo info;
  Settings s = default_settings;
  gint criticals = 0;
  guint i;

  filter = gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
      g_regex_new (".*", 0, 0, NULL), count_critical, &criticals, NULL);

  set_format (h, &info, "RGBA", 40, 30);
  gst_segment_init (&seg, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  for (i = 0; i < 3; i++) {
    GstBuffer *in = make_frame (&info, 0, 40 + i);
    GstBuffer *out;

    GST_BUFFER_PTS (in) = i * GST_SECOND / 30;
    GST_BUFFER_OFFSET (in) = i * GST_VIDEO_INFO_SIZE (&info);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    check_frame (&info, in, out, &s);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  gst_check_remove_log_filter (filter);
  fail_unless_equals_int (criticals, 0);

  blurcheck_harness_teardown (h);
}

GST_END_TEST;

static Suite *
clboxblur_startup_suite (void)
{
  Suite *s = suite_create ("clboxblur_startup");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  blurcheck_add_fixture (tc);
  tcase_add_test (tc, test_cache_entry_not_a_file);
  tcase_add_test (tc, test_unwritable_cache_home);
  tcase_add_test (tc, test_bytes_segment);
  return s;
}

BLURCHECK_MAIN (clboxblur_startup);
