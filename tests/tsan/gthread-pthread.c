/* GLib's locks on pthread, for ThreadSanitizer builds only.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GLib 2.74 on Linux implements GMutex, GRecMutex, GRWLock and GCond on
 * futexes, which ThreadSanitizer cannot see: every access guarded by
 * GST_OBJECT_LOCK would be reported as a race. Linked into a TSan test
 * executable, these definitions take the place of GLib's for every caller
 * outside libglib (GStreamer, GObject, the plugin, the test), and use
 * pthread objects, which TSan intercepts. Locks used only inside libglib
 * keep GLib's own implementation (its internal calls are bound locally),
 * so no lock is ever driven by both implementations.
 *
 * Each GLib lock's first pointer holds a pthread object made on first use,
 * so statically zeroed locks work too.
 */
#include <glib.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <errno.h>

/* exported on purpose: they replace GLib's */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-declarations"

static void
die (const char *what)
{
  g_error ("gthread-pthread: %s failed", what);
}

static pthread_mutex_t *
mutex_new (int type)
{
  pthread_mutexattr_t attr;
  pthread_mutex_t *m = malloc (sizeof (pthread_mutex_t));

  if (m == NULL)
    die ("malloc");
  pthread_mutexattr_init (&attr);
  pthread_mutexattr_settype (&attr, type);
  if (pthread_mutex_init (m, &attr) != 0)
    die ("pthread_mutex_init");
  pthread_mutexattr_destroy (&attr);
  return m;
}

/* The pthread object behind @slot, made on first use. */
static void *
get_or_make (gpointer * slot, void *(*make) (int), int arg,
    void (*destroy) (void *))
{
  void *obj = g_atomic_pointer_get (slot);

  if (obj == NULL) {
    void *fresh = make (arg);

    if (g_atomic_pointer_compare_and_exchange (slot, NULL, fresh)) {
      obj = fresh;
    } else {
      destroy (fresh);
      obj = g_atomic_pointer_get (slot);
    }
  }
  return obj;
}

static void *
make_mutex (int type)
{
  return mutex_new (type);
}

static void
destroy_mutex (void *m)
{
  pthread_mutex_destroy (m);
  free (m);
}

static void *
make_rwlock (int unused)
{
  pthread_rwlock_t *l = malloc (sizeof (pthread_rwlock_t));

  if (l == NULL || pthread_rwlock_init (l, NULL) != 0)
    die ("pthread_rwlock_init");
  return l;
}

static void
destroy_rwlock (void *l)
{
  pthread_rwlock_destroy (l);
  free (l);
}

static void *
make_cond (int unused)
{
  pthread_condattr_t attr;
  pthread_cond_t *c = malloc (sizeof (pthread_cond_t));

  if (c == NULL)
    die ("malloc");
  pthread_condattr_init (&attr);
  /* g_cond_wait_until takes monotonic time */
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  if (pthread_cond_init (c, &attr) != 0)
    die ("pthread_cond_init");
  pthread_condattr_destroy (&attr);
  return c;
}

static void
destroy_cond (void *c)
{
  pthread_cond_destroy (c);
  free (c);
}

#define MUTEX(m) ((pthread_mutex_t *) get_or_make (&(m)->p, make_mutex, \
      PTHREAD_MUTEX_NORMAL, destroy_mutex))
#define REC_MUTEX(m) ((pthread_mutex_t *) get_or_make (&(m)->p, make_mutex, \
      PTHREAD_MUTEX_RECURSIVE, destroy_mutex))
#define RWLOCK(l) ((pthread_rwlock_t *) get_or_make (&(l)->p, make_rwlock, \
      0, destroy_rwlock))
#define COND(c) ((pthread_cond_t *) get_or_make (&(c)->p, make_cond, 0, \
      destroy_cond))

static void
clear (gpointer * slot, void (*destroy) (void *))
{
  void *obj = g_atomic_pointer_get (slot);

  if (obj)
    destroy (obj);
  *slot = NULL;
}

void
g_mutex_init (GMutex * mutex)
{
  mutex->p = NULL;
}

void
g_mutex_clear (GMutex * mutex)
{
  clear (&mutex->p, destroy_mutex);
}

void
g_mutex_lock (GMutex * mutex)
{
  if (pthread_mutex_lock (MUTEX (mutex)) != 0)
    die ("pthread_mutex_lock");
}

void
g_mutex_unlock (GMutex * mutex)
{
  if (pthread_mutex_unlock (MUTEX (mutex)) != 0)
    die ("pthread_mutex_unlock");
}

gboolean
g_mutex_trylock (GMutex * mutex)
{
  return pthread_mutex_trylock (MUTEX (mutex)) == 0;
}

void
g_rec_mutex_init (GRecMutex * rec_mutex)
{
  rec_mutex->p = NULL;
}

void
g_rec_mutex_clear (GRecMutex * rec_mutex)
{
  clear (&rec_mutex->p, destroy_mutex);
}

void
g_rec_mutex_lock (GRecMutex * rec_mutex)
{
  if (pthread_mutex_lock (REC_MUTEX (rec_mutex)) != 0)
    die ("pthread_mutex_lock (recursive)");
}

void
g_rec_mutex_unlock (GRecMutex * rec_mutex)
{
  if (pthread_mutex_unlock (REC_MUTEX (rec_mutex)) != 0)
    die ("pthread_mutex_unlock (recursive)");
}

gboolean
g_rec_mutex_trylock (GRecMutex * rec_mutex)
{
  return pthread_mutex_trylock (REC_MUTEX (rec_mutex)) == 0;
}

void
g_rw_lock_init (GRWLock * rw_lock)
{
  rw_lock->p = NULL;
}

void
g_rw_lock_clear (GRWLock * rw_lock)
{
  clear (&rw_lock->p, destroy_rwlock);
}

void
g_rw_lock_writer_lock (GRWLock * rw_lock)
{
  if (pthread_rwlock_wrlock (RWLOCK (rw_lock)) != 0)
    die ("pthread_rwlock_wrlock");
}

gboolean
g_rw_lock_writer_trylock (GRWLock * rw_lock)
{
  return pthread_rwlock_trywrlock (RWLOCK (rw_lock)) == 0;
}

void
g_rw_lock_writer_unlock (GRWLock * rw_lock)
{
  pthread_rwlock_unlock (RWLOCK (rw_lock));
}

void
g_rw_lock_reader_lock (GRWLock * rw_lock)
{
  if (pthread_rwlock_rdlock (RWLOCK (rw_lock)) != 0)
    die ("pthread_rwlock_rdlock");
}

gboolean
g_rw_lock_reader_trylock (GRWLock * rw_lock)
{
  return pthread_rwlock_tryrdlock (RWLOCK (rw_lock)) == 0;
}

void
g_rw_lock_reader_unlock (GRWLock * rw_lock)
{
  pthread_rwlock_unlock (RWLOCK (rw_lock));
}

void
g_cond_init (GCond * cond)
{
  cond->p = NULL;
}

void
g_cond_clear (GCond * cond)
{
  clear (&cond->p, destroy_cond);
}

void
g_cond_wait (GCond * cond, GMutex * mutex)
{
  if (pthread_cond_wait (COND (cond), MUTEX (mutex)) != 0)
    die ("pthread_cond_wait");
}

gboolean
g_cond_wait_until (GCond * cond, GMutex * mutex, gint64 end_time)
{
  struct timespec ts;
  int r;

  ts.tv_sec = end_time / 1000000;
  ts.tv_nsec = (end_time % 1000000) * 1000;
  r = pthread_cond_timedwait (COND (cond), MUTEX (mutex), &ts);
  if (r != 0 && r != ETIMEDOUT)
    die ("pthread_cond_timedwait");
  return r == 0;
}

void
g_cond_signal (GCond * cond)
{
  pthread_cond_signal (COND (cond));
}

void
g_cond_broadcast (GCond * cond)
{
  pthread_cond_broadcast (COND (cond));
}
