/*
 * The progress thread of strong progress (SHMPI_PROGRESS=strong, README
 * "Progress and deadlock"): asleep on the rank's doorbell, it runs the
 * engine whenever a peer rings it, so that data moves while the
 * application computes outside MPI.
 */
#include <signal.h>

#include "../shm/futex.h"
#include "progress_int.h"

static int thread_ready(void *unused)
{
	int ready;

	(void)unused;
	/* relaxed: as where progress_fini sets it */
	if (atomic_load_explicit(&eng.stop, memory_order_relaxed))
		return 1;
	eng_lock();
	ready = engine_has_work();
	eng_unlock();
	return ready;
}

/* Asleep on the doorbell until a peer gives this rank something to do; then
 * one pass of the engine.  It costs nothing while nothing happens. */
static void *progress_thread(void *unused)
{
	(void)unused;
	eng_in_thread = 1;
	shm_futex_count_slot(1);	/* its own futex counts (shm/futex.h) */
	/* relaxed: as where progress_fini sets it */
	while (!atomic_load_explicit(&eng.stop, memory_order_relaxed)) {
		doorbell_sleep(thread_ready, NULL, NULL);
		progress_poll();
	}
	return NULL;
}

int progress_thread_start(void)
{
	pthread_mutexattr_t attr;
	sigset_t all, old;
	int rc;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	rc = pthread_mutex_init(&eng.lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc)
		return -rc;
	eng.strong = 1;
	/* signals stay with the application's threads */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&eng.thread, NULL, progress_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		eng.strong = 0;
		pthread_mutex_destroy(&eng.lock);
		return -rc;
	}
	return 0;
}
