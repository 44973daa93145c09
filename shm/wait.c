#include <limits.h>

#include "futex.h"
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

void shm_waitword_sleep_unless(struct shm_waitword *w, int (*ready)(void *),
			       void *arg)
{
	uint32_t seen = atomic_load_explicit(&w->value, memory_order_acquire);

	atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_relaxed);
	/* seq_cst: our announcement before our look at the condition; pairs
	 * with the fence in shm_waitword_ring() */
	shm_fence();
	if (!ready(arg))
		shm_futex_wait(&w->value, seen, NULL);
	atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
}

void shm_waitword_ring(struct shm_waitword *w)
{
	/* seq_cst: the caller's condition store before our look at sleepers;
	 * pairs with the fence in shm_waitword_sleep_unless() */
	shm_fence();
	if (atomic_load_explicit(&w->sleepers, memory_order_relaxed) == 0)
		return;
	/* the change makes a sleeper that has not yet slept return at once */
	atomic_fetch_add_explicit(&w->value, 1, memory_order_relaxed);
	shm_futex_wake(&w->value, INT_MAX);
}
