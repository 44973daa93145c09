#include <string.h>

#include "barrier.h"

void shm_barrier_init(struct shm_barrier *b)
{
	memset(b, 0, sizeof(*b));
}

int shm_barrier_arrive(struct shm_barrier *b, uint32_t n, uint32_t *gen)
{
	/* acquire: we must see the reset counter of the round we enter */
	uint32_t g = atomic_load_explicit(&b->generation.value,
					  memory_order_acquire);
	/* release: our writes before the last arriver's acquire fence below
	 * (every change of `arrived` in the round is a read-modify-write, so
	 * the fence synchronizes with each arriver's) */
	uint32_t ticket = atomic_fetch_add_explicit(&b->arrived, 1,
						    memory_order_release);

	*gen = g;
	if (ticket + 1 != n)
		return 0;
	/* acquire: only the last arriver needs everybody's writes, which it
	 * passes on with the generation bump's release */
	atomic_thread_fence(memory_order_acquire);
	/* ordered before the generation bump below (seq_cst) */
	atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
	shm_waitword_bump(&b->generation, 1);
	return 1;
}

void shm_barrier_wait(struct shm_barrier *b, uint32_t n, unsigned spins)
{
	uint32_t gen;

	if (!shm_barrier_arrive(b, n, &gen))
		shm_waitword_wait(&b->generation, gen, spins);
}
