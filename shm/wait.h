/*
 * Spin-then-sleep waiting on a shared 32-bit word.
 *
 * A waiter spins for a bounded number of rounds (cheap when the peer runs on
 * another core), then announces itself in `sleepers` and sleeps on the
 * word's futex.  A waker changes the word, then wakes only if it sees a
 * sleeper, so the common case costs no system call.  Both sides use seq_cst
 * for the word change and the sleepers count: either the waker sees the
 * sleeper, or the sleeper's futex_wait sees the new value and returns at once.
 */
#ifndef SHM_WAIT_H
#define SHM_WAIT_H

#include <time.h>

#include "atomic.h"

struct shm_waitword {
	shm_atomic_u32 value;
	shm_atomic_u32 sleepers;
};

/* Return the word's value once it differs from `old`. */
uint32_t shm_waitword_wait(struct shm_waitword *w, uint32_t old, unsigned spins);

/* Wake every sleeper; call after changing the value with seq_cst. */
void shm_waitword_wake(struct shm_waitword *w);

/* Add to the value and wake every sleeper; returns the new value. */
static inline uint32_t shm_waitword_bump(struct shm_waitword *w, uint32_t add)
{
	uint32_t now = atomic_fetch_add_explicit(&w->value, add, memory_order_seq_cst) + add;

	/* seq_cst: as in shm_waitword_wake, whose system call stays out of line */
	if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst) != 0)
		shm_waitword_wake(w);
	return now;
}

/*
 * Doorbell use: the waiter's condition lives elsewhere (a ring has a record,
 * a flag is set) and the word only carries wake-ups.  The waiter calls
 * shm_waitword_sleep_unless(), which sleeps unless ready(arg) holds after
 * the waiter announced itself, and re-checks its condition when it returns
 * (it may return early, and returns after `timeout` at the latest unless
 * that is NULL).  Whoever makes the condition true calls
 * shm_waitword_ring() after the store that does so; the ring costs a fence
 * and a load unless somebody sleeps.  Both sides put a seq_cst fence between
 * their store (condition / sleepers) and their load (sleepers / condition),
 * so one of them sees the other's store: no lost wake-up.
 */
void shm_waitword_sleep_unless(struct shm_waitword *w, int (*ready)(void *),
			       void *arg, const struct timespec *timeout);
void shm_waitword_ring(struct shm_waitword *w);

/*
 * The same with an asymmetric fence (membarrier.h), for a doorbell rung far
 * more often than slept on.  The ringer's fence would wait for its
 * condition store to leave the store buffer, which takes a cache-line
 * transfer when the waiter is polling that line; with these, the ringer
 * orders store and load with a compiler barrier only, and the sleeper pays
 * with shm_membarrier() between announcing itself and its look at the
 * condition.  Only a ringer registered for shm_membarrier() may ring a
 * sleeper this way, and only a sleeper that sleeps this way every time.
 * Should the system call fail, the sleeper fences, sleeps no longer than
 * `fallback` (a ringer may have missed it) and returns the error; a sleeper
 * whose ringers skip their fence must keep sleeping this way, each sleep
 * then bounded by `fallback`.  `timeout` as for shm_waitword_sleep_unless.
 */
int shm_waitword_sleep_unless_asym(struct shm_waitword *w, int (*ready)(void *),
				   void *arg, const struct timespec *fallback,
				   const struct timespec *timeout);
void shm_waitword_ring_asym(struct shm_waitword *w);

#endif
