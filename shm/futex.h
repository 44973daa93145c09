/*
 * Futex wait and wake on 32-bit words in shared memory.  The words live in
 * segments mapped by several processes, so these are the shared (not
 * FUTEX_PRIVATE) operations.
 */
#ifndef SHM_FUTEX_H
#define SHM_FUTEX_H

#include <time.h>

#include "atomic.h"

/*
 * Sleep while *word == expected.  Returns 0 when woken (possibly spuriously:
 * the caller re-checks its condition), -EAGAIN when *word already differed,
 * -ETIMEDOUT when the relative timeout (NULL: none) ran out, -EINTR on a
 * signal.
 */
int shm_futex_wait(shm_atomic_u32 *word, uint32_t expected,
		   const struct timespec *timeout);

/* Wake up to n sleepers on word (INT32_MAX: all); returns how many woke. */
int shm_futex_wake(shm_atomic_u32 *word, int n);

/*
 * How often this process slept in shm_futex_wait (calls that did sleep, not
 * those that found the word changed) and called shm_futex_wake.  Each
 * thread counts in its slot, so that every slot has one writer and a count
 * is a plain load and store beside the system call: slot 0 for the threads
 * that call MPI (one at a time), another for a thread of the library's own
 * (the progress thread), chosen once by shm_futex_count_slot().
 */
#define SHM_FUTEX_SLOTS 2

struct shm_futex_counts {
	uint64_t sleeps, wakes;
};

void shm_futex_count_slot(unsigned slot);

/* The sums over the slots. */
void shm_futex_counts_read(struct shm_futex_counts *out);

#endif
