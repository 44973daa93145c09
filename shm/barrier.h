/*
 * A barrier for n processes in shared memory: a central arrival counter and
 * a generation word.  Each arriver takes a ticket from `arrived`; the last
 * one resets the counter and then publishes the next generation (release),
 * which lets the others go.  A process can only enter the next round after
 * seeing the new generation, so it also sees the reset counter.  Waiters
 * spin, then sleep on the generation word.
 */
#ifndef SHM_BARRIER_H
#define SHM_BARRIER_H

#include "atomic.h"
#include "wait.h"

struct shm_barrier {
	shm_atomic_u32 arrived;
	char pad_[SHM_CACHE_LINE - sizeof(shm_atomic_u32)];
	struct shm_waitword generation;
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_barrier) == 2 * SHM_CACHE_LINE,
	       "arrivals and the generation sit on separate lines");

void shm_barrier_init(struct shm_barrier *b);

/* Wait until n processes (n >= 1, the same n for all) have arrived. */
void shm_barrier_wait(struct shm_barrier *b, uint32_t n, unsigned spins);

/*
 * The same in two steps, for callers that wait their own way (the MPI
 * library keeps its progress engine running while it waits): arrive returns
 * the generation to wait on in *gen and whether this was the last arrival
 * (which already let everybody go: the caller then wakes the others its own
 * way); passed tells whether the barrier of *gen is over.
 */
int shm_barrier_arrive(struct shm_barrier *b, uint32_t n, uint32_t *gen);

static inline int shm_barrier_passed(struct shm_barrier *b, uint32_t gen)
{
	/* acquire: what the others did before arriving is visible after */
	return atomic_load_explicit(&b->generation.value, memory_order_acquire) != gen;
}

#endif
