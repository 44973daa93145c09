/*
 * The wait policy of the progress engine: a blocked MPI call runs the
 * engine, spins a little, gives its CPU away a little (a rank that shares
 * the CPU may be the one it waits for), then sleeps on its doorbell until
 * a peer rings it (progress.c says who rings, and when).
 */
#include <sched.h>

#include "progress_int.h"
#include "runtime.h"
#include "serial.h"

/* Sleep on this rank's doorbell unless ready(arg), the way its ringers
 * expect (runtime.c).  Should shm_membarrier() fail, every sleep still
 * fences and lasts at most this long: the flag that lets ringers skip
 * their fence is never taken back. */
#define BELL_FALLBACK_NS 1000000L

void doorbell_sleep(int (*ready)(void *), void *arg, const struct timespec *nap)
{
	static const struct timespec fallback = { 0, BELL_FALLBACK_NS };

	if (rt.bell_asym)
		(void)shm_waitword_sleep_unless_asym(&rt.self->doorbell, ready, arg,
						     &fallback, nap);
	else
		shm_waitword_sleep_unless(&rt.self->doorbell, ready, arg, nap);
}

struct wait_for {
	int (*done)(void *);
	void *arg;
};

/* Whether to stay awake: the wait is over, or the engine has work.
 * Checked after announcing ourselves on the doorbell. */
static int progress_ready(void *wait)
{
	struct wait_for *w = wait;
	int ready;

	eng_lock();
	ready = w->done(w->arg) || engine_has_work();
	eng_unlock();
	return ready;
}

static void wait_loop(int (*done)(void *), void *arg, const void *key,
		      const struct timespec *nap);

void progress_wait(int (*done)(void *), void *arg)
{
	wait_loop(done, arg, arg, NULL);
}

void progress_wait_keyed(int (*done)(void *), void *arg, const void *key)
{
	wait_loop(done, arg, key, NULL);
}

void progress_wait_napping(int (*done)(void *), void *arg, const struct timespec *nap)
{
	wait_loop(done, arg, arg, nap);
}

/*
 * Under MPI_THREAD_MULTIPLE a waiter spins, yields and sleeps without the
 * lock of serial.h, which the other threads of the process need meanwhile:
 * what this thread waits for may be what one of them is about to do
 * (serial_release and serial_sleep_begin let go of nothing below that
 * level).  Its sleeps then last WAIT_MULTI_NAP_NS at most, a safety net
 * under the doorbell that completions ring (serial.c).
 */
#define WAIT_MULTI_NAP_NS 2000000L

static const struct timespec *wait_nap(const struct timespec *nap)
{
	static const struct timespec multi_nap = { 0, WAIT_MULTI_NAP_NS };

	if (rt.multi && (!nap || nap->tv_sec > 0 || nap->tv_nsec > WAIT_MULTI_NAP_NS))
		return &multi_nap;
	return nap;
}

static void wait_loop(int (*done)(void *), void *arg, const void *key,
		      const struct timespec *nap)
{
	struct wait_for w = { done, arg };
	unsigned idle = 0, holds;

	eng_lock();
	proto_wait_begin(key);
	eng_unlock();
	for (;;) {
		int finished;

		if (progress_poll())
			idle = 0;
		eng_lock();
		finished = done(arg);
		if (finished)
			eng.wait_arg = NULL;
		eng_unlock();
		if (finished)
			return;
		if (idle < rt.spins + rt.yields) {
			holds = serial_release();
			/* a rank that shares our CPU may be the one we wait for */
			if (idle++ < rt.spins)
				shm_cpu_relax();
			else
				sched_yield();
			serial_reacquire(holds);
			continue;
		}
		holds = serial_sleep_begin();
		doorbell_sleep(progress_ready, &w, wait_nap(nap));
		serial_sleep_end(holds);
		idle = 0;
	}
}
