#include <limits.h>

#include "futex.h"
#include "membarrier.h"
#include "wait.h"

uint32_t shm_waitword_wait(struct shm_waitword *w, uint32_t old, unsigned spins)
{
	uint32_t now;

	for (unsigned i = 0; i < spins; i++) {
		/* acquire: pairs with the waker's seq_cst change of the value */
		now = atomic_load_explicit(&w->value, memory_order_acquire);
		if (now != old)
			return now;
		shm_cpu_relax();
	}
	for (;;) {
		/* seq_cst: the announcement must precede our final look at the
		 * value, against the waker's change-then-look-at-sleepers */
		atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_seq_cst);
		now = atomic_load_explicit(&w->value, memory_order_seq_cst);
		if (now == old)
			shm_futex_wait(&w->value, old, NULL);
		/* relaxed: a waker that still sees us only wakes in vain */
		atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
		/* -EAGAIN, -EINTR and spurious wake-ups all mean: look again */
		now = atomic_load_explicit(&w->value, memory_order_acquire);
		if (now != old)
			return now;
	}
}

void shm_waitword_wake(struct shm_waitword *w)
{
	/* seq_cst: pairs with the sleeper's announce-then-look (see header) */
	if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst) != 0)
		shm_futex_wake(&w->value, INT_MAX);
}

/* The value a sleeper hands the futex: a ring whose change comes after
 * this load makes the sleep return at once.  Relaxed: should the load read
 * a ring's change, that ringer's condition store came before it, behind
 * the ringer's fence (or inside our membarrier), and the fence after our
 * announcement shows it to ready(): fence to fence, as for the announcement. */
static inline uint32_t sleep_seen(struct shm_waitword *w)
{
	return atomic_load_explicit(&w->value, memory_order_relaxed);
}

void shm_waitword_sleep_unless(struct shm_waitword *w, int (*ready)(void *),
			       void *arg, const struct timespec *timeout)
{
	uint32_t seen = sleep_seen(w);

	/* relaxed: the fence below orders it before our look */
	atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_relaxed);
	/* seq_cst: our announcement before our look at the condition; pairs
	 * with the fence in shm_waitword_ring() */
	shm_fence();
	if (!ready(arg))
		shm_futex_wait(&w->value, seen, timeout);
	/* relaxed: as in shm_waitword_wait */
	atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
}

/* The ringer's side once its condition store is ordered before this. */
static void ring_sleepers(struct shm_waitword *w)
{
	/* relaxed: the caller's fence (or the sleeper's membarrier) orders it */
	if (atomic_load_explicit(&w->sleepers, memory_order_relaxed) == 0)
		return;
	/* the change makes a sleeper that has not yet slept return at once
	 * (relaxed: the futex compares it, it publishes nothing) */
	atomic_fetch_add_explicit(&w->value, 1, memory_order_relaxed);
	shm_futex_wake(&w->value, INT_MAX);
}

void shm_waitword_ring(struct shm_waitword *w)
{
	/* seq_cst: the caller's condition store before our look at sleepers;
	 * pairs with the fence in shm_waitword_sleep_unless() */
	shm_fence();
	ring_sleepers(w);
}

/* The shorter of two timeouts, NULL standing for none. */
static const struct timespec *ts_min(const struct timespec *a, const struct timespec *b)
{
	if (!a || !b)
		return a ? a : b;
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec) ?
	       a : b;
}

int shm_waitword_sleep_unless_asym(struct shm_waitword *w, int (*ready)(void *),
				   void *arg, const struct timespec *fallback,
				   const struct timespec *timeout)
{
	uint32_t seen = sleep_seen(w);
	int rc;

	/* relaxed: the membarrier (or the fence) below orders it */
	atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_relaxed);
	/* a fence on every CPU running a registered ringer: a ringer that
	 * looked at sleepers before it fenced had its condition store drained
	 * by it, so ready() sees the store; one after it sees us */
	rc = shm_membarrier();
	if (rc < 0)
		shm_fence();
	if (!ready(arg))
		shm_futex_wait(&w->value, seen, rc < 0 ? ts_min(fallback, timeout) : timeout);
	/* relaxed: as in shm_waitword_wait */
	atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
	return rc;
}

void shm_waitword_ring_asym(struct shm_waitword *w)
{
	/* the sleeper's shm_membarrier() stands in for our fence */
	atomic_signal_fence(memory_order_seq_cst);
	ring_sleepers(w);
}
