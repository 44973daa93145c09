/*
 * The adversarial mode (SHMPI_ADVERSARIAL=seed, shmrun --adversarial):
 * within what the MPI standard allows, RMA behaves as unhelpfully as it
 * may, so that a program relying on more than the standard promises shows
 * it.  Every window target is then served by the queueing path of
 * rma_pkt.h, which already does two things late: operations leave only at
 * flush, unlock, complete or fence, and a lock is taken only then.  On top
 * of that, decided by a pseudo-random sequence from the seed (and the
 * rank), so that a failing run can be replayed:
 *   - the operations queued between two synchronizations leave in a
 *     shuffled order, except that accumulates keep theirs (MPI orders
 *     accumulates of one origin to one target; puts and gets are not
 *     ordered);
 *   - puts into a contiguous target travel in pieces of random size;
 *   - a released lock goes to a random one of the requests it could grant,
 *     not the oldest;
 *   - MPI_Win_start returns before the matching posts; MPI_Win_complete
 *     waits for them before it sends anything.
 */
#ifndef SRC_ADVERSARY_H
#define SRC_ADVERSARY_H

#include <stdint.h>

extern uint64_t adv_seed;	/* 0: the mode is off */

static inline int adv_on(void)
{
	return adv_seed != 0;
}

/* Set up from the knob at MPI_Init (this rank's sequences). */
void adv_init(int rank);

/* A pseudo-random number below n (n > 0): from the application thread's
 * sequence, or (engine) from the progress engine's, under its lock. */
uint64_t adv_below(uint64_t n, int engine);

#endif
